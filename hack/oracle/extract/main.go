// Command extract is the oracle for kgen's apply configuration extract: client-go's
// applyconfigurations ExtractDeployment / ExtractDeploymentStatus and ExtractConfigMap, which
// read metadata.managedFields with the compiled-in schema (structured-merge-diff).
//
// Reads a JSON array of {"object": <a Deployment or ConfigMap as the server sent it>,
// "manager": "...", "subresource": "" | "status"} on stdin and writes a JSON array with, per case,
// {"json": <the apply configuration as JSON>} or {"error": <the message>}.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
)

type input struct {
	Object      json.RawMessage `json:"object"`
	Manager     string          `json:"manager"`
	Subresource string          `json:"subresource"`
}

type result struct {
	JSON  *string `json:"json,omitempty"`
	Error *string `json:"error,omitempty"`
}

func extract(c input) (any, error) {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(c.Object, &head); err != nil {
		return nil, err
	}
	switch head.Kind {
	case "Deployment":
		var d appsv1.Deployment
		if err := json.Unmarshal(c.Object, &d); err != nil {
			return nil, err
		}
		if c.Subresource == "status" {
			return appsv1ac.ExtractDeploymentStatus(&d, c.Manager)
		}
		return appsv1ac.ExtractDeployment(&d, c.Manager)
	case "ConfigMap":
		var cm corev1.ConfigMap
		if err := json.Unmarshal(c.Object, &cm); err != nil {
			return nil, err
		}
		return corev1ac.ExtractConfigMap(&cm, c.Manager)
	}
	return nil, fmt.Errorf("unsupported kind %q", head.Kind)
}

func main() {
	var cases []input
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	out := make([]result, 0, len(cases))
	for _, c := range cases {
		ac, err := extract(c)
		if err != nil {
			msg := err.Error()
			out = append(out, result{Error: &msg})
			continue
		}
		data, err := json.Marshal(ac)
		if err != nil {
			panic(err)
		}
		text := string(data)
		out = append(out, result{JSON: &text})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
