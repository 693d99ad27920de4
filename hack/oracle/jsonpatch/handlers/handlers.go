// Package handlers holds the copy of k8s.io/apiserver's handlers.jsonPatchOp (patch.go) that the
// apiserver decodes a JSON patch into with sigs.k8s.io/json's UnmarshalStrict when fieldValidation
// is Strict or Warn. Its package and type names are part of the apiserver's 400 messages
// ("cannot unmarshal object into Go value of type []handlers.jsonPatchOp"), so they are kept.
package handlers

import (
	"fmt"

	kjson "sigs.k8s.io/json"
)

type jsonPatchOp struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	From  string      `json:"from"`
	Value interface{} `json:"value"`
}

// StrictJSONPatch is applyJSPatch's JSON-patch decode: the strict errors (prefixed as the
// apiserver prefixes them) and the decode error.
func StrictJSONPatch(patch []byte) ([]string, error) {
	var v []jsonPatchOp
	strict, err := kjson.UnmarshalStrict(patch, &v)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range strict {
		out = append(out, fmt.Errorf("json patch %v", e).Error())
	}
	return out, nil
}

// StrictMergePatch is applyJSPatch's merge-patch decode.
func StrictMergePatch(patch []byte) ([]string, error) {
	v := map[string]any{}
	strict, err := kjson.UnmarshalStrict(patch, &v)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range strict {
		out = append(out, e.Error())
	}
	return out, nil
}
