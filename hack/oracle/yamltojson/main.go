// Command yamltojson is the oracle for how kubectl turns YAML into the JSON it sends:
// sigs.k8s.io/yaml's YAMLToJSON (non-string map keys become strings, e.g. 8090 -> "8090").
//
// Reads a JSON array of YAML documents on stdin and writes a JSON array with, per document,
// {"json": <the JSON text>} or {"error": <the message>}.
package main

import (
	"encoding/json"
	"os"

	"sigs.k8s.io/yaml"
)

type result struct {
	JSON  *string `json:"json,omitempty"`
	Error *string `json:"error,omitempty"`
}

func main() {
	var docs []string
	if err := json.NewDecoder(os.Stdin).Decode(&docs); err != nil {
		panic(err)
	}
	out := make([]result, 0, len(docs))
	for _, doc := range docs {
		converted, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			msg := err.Error()
			out = append(out, result{Error: &msg})
			continue
		}
		text := string(converted)
		out = append(out, result{JSON: &text})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
