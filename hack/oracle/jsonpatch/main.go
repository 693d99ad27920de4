// Command jsonpatch is the oracle for kgen's JSON patch and JSON merge patch: the calls
// k8s.io/apiserver v0.37.2 makes in pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch)
// on gopkg.in/evanphx/json-patch.v4 v4.13.0, the version that apiserver's go.mod requires.
//
//	application/json-patch+json   jsonpatch.DecodePatch(patch), at most 10000 operations, then
//	                              patch.Apply(doc), with AccumulatedCopySizeLimit set to the
//	                              apiserver's default JSONPatchMaxCopyBytes (3 MiB, server/config.go)
//	application/merge-patch+json  jsonpatch.MergePatch(doc, patch)
//
// With fieldValidation Strict or Warn (Warn is the apiserver's default, handlers/rest.go), the
// patch is first decoded with sigs.k8s.io/json's UnmarshalStrict (into []handlers.jsonPatchOp or
// map[string]any): a decode error is a 400 "error decoding patch: ...", and the strict errors
// (unknown fields) are reported beside the result (warnings under Warn, a 422 under Strict).
//
// Reads JSON lines {"op": "json"|"merge", "doc": ..., "patch": ..., "validation": "Strict"|
// "Warn"|"Ignore" (default Warn)} on stdin and writes one line per case: {"ok": <the patched
// document>, "strict": [...]} or {"error": <class>, "message": <the error text>}.
// The class is the apiserver's answer to that error: "bad-request" (400: the patch does not
// decode, or MergePatch's ErrBadJSONPatch), "too-large" (413), "invalid" (422: Apply failed),
// "internal" (500: any other MergePatch error), "panic" (the library panicked; a real
// apiserver then drops the connection without a response).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"kgen.dev/hack/oracle/jsonpatch/handlers"
)

// maxJSONPatchOperations is k8s.io/apiserver's limit (handlers/patch.go).
const maxJSONPatchOperations = 10000

// jsonPatchMaxCopyBytes is k8s.io/apiserver's default (server/config.go NewConfig).
const jsonPatchMaxCopyBytes = int64(3 * 1024 * 1024)

type input struct {
	Op    string          `json:"op"`
	Doc   json.RawMessage `json:"doc"`
	Patch json.RawMessage `json:"patch"`
	// Validation is the request's fieldValidation: Strict, Warn (also when empty) or Ignore.
	Validation string `json:"validation"`
}

type output struct {
	OK      json.RawMessage `json:"ok,omitempty"`
	Error   string          `json:"error,omitempty"`
	Message string          `json:"message,omitempty"`
	Strict  []string        `json:"strict,omitempty"`
}

func apply(c input) (out output) {
	defer func() {
		if r := recover(); r != nil {
			out = output{Error: "panic", Message: fmt.Sprint(r)}
		}
	}()
	strictDecode := c.Validation != "Ignore"
	var strict []string
	switch c.Op {
	case "json":
		if strictDecode {
			var err error
			if strict, err = handlers.StrictJSONPatch(c.Patch); err != nil {
				return output{Error: "bad-request", Message: "error decoding patch: " + err.Error()}
			}
		}
		patch, err := jsonpatch.DecodePatch(c.Patch)
		if err != nil {
			return output{Error: "bad-request", Message: err.Error()}
		}
		if len(patch) > maxJSONPatchOperations {
			return output{Error: "too-large", Message: fmt.Sprintf(
				"The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(patch))}
		}
		patched, err := patch.Apply(c.Doc)
		if err != nil {
			return output{Error: "invalid", Message: err.Error()}
		}
		return output{OK: patched, Strict: strict}
	case "merge":
		if strictDecode {
			var err error
			if strict, err = handlers.StrictMergePatch(c.Patch); err != nil {
				return output{Error: "bad-request", Message: "error decoding patch: " + err.Error()}
			}
		}
		patched, err := jsonpatch.MergePatch(c.Doc, c.Patch)
		if err == jsonpatch.ErrBadJSONPatch {
			return output{Error: "bad-request", Message: err.Error()}
		}
		if err != nil {
			return output{Error: "internal", Message: err.Error()}
		}
		return output{OK: patched, Strict: strict}
	}
	return output{Error: "usage", Message: "op must be json or merge"}
}

func main() {
	jsonpatch.AccumulatedCopySizeLimit = jsonPatchMaxCopyBytes
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "jsonpatch oracle: bad input line:", err)
			os.Exit(2)
		}
		if err := enc.Encode(apply(c)); err != nil {
			fmt.Fprintln(os.Stderr, "jsonpatch oracle:", err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "jsonpatch oracle:", err)
		os.Exit(1)
	}
}
