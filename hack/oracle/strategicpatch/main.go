// Command strategicpatch is the oracle for kgen's strategic merge patch
// (kgen.runtime.apimachinery.strategicpatch): k8s.io/apimachinery v0.37.2's strategicpatch, with
// the patch metadata of the client-go scheme's Go types (k8s.io/api struct tags), called as
// k8s.io/apiserver v0.37.2 calls it (handlers/patch.go applyPatchToObject:
// StrategicMergeMapPatch(originalMap, patchMap, schemaReferenceObj), whose errors pass through
// interpretStrategicMergePatchError).
//
// The original and the patch are decoded as the apiserver has them (ints as int64, the original's
// lists without spare capacity, as runtime.DefaultUnstructuredConverter builds them).
//
// Reads JSON lines {"kind": "<apiVersion> <Kind>", "op": "apply"|"two-way"|"three-way",
// "original": ..., "patch": ... (apply), "modified": ... (two-way, three-way), "current": ...
// (three-way), "overwrite": <bool> (three-way), "preconditions": [{"key": K} | {"metadataKey": K}]
// (two-way, three-way)} on stdin and writes one line per case: {"ok": <result>} or {"error":
// <class>, "message": <the error text>}. The class is the apiserver's answer for apply
// (interpretStrategicMergePatchError): "bad-request" (400), "invalid" (422), "internal" (any other
// error: a 500); for two-way and three-way it is "conflict" (mergepatch.ErrConflict),
// "precondition" (mergepatch.ErrPreconditionFailed) or "error" (client side, no status); "panic"
// when the library panicked.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
)

type input struct {
	Kind     string          `json:"kind"`
	Op       string          `json:"op"`
	Original json.RawMessage `json:"original"`
	Patch    json.RawMessage `json:"patch"`
	Modified json.RawMessage `json:"modified"`
	Current  json.RawMessage `json:"current"`
	// Overwrite is CreateThreeWayMergePatch's overwrite argument.
	Overwrite bool `json:"overwrite"`
	// Preconditions are mergepatch.RequireKeyUnchanged(Key) or RequireMetadataKeyUnchanged(MetadataKey).
	Preconditions []precondition `json:"preconditions"`
}

type precondition struct {
	Key         string `json:"key"`
	MetadataKey string `json:"metadataKey"`
}

func preconditionFuncs(ps []precondition) []mergepatch.PreconditionFunc {
	var fns []mergepatch.PreconditionFunc
	for _, p := range ps {
		if p.MetadataKey != "" {
			fns = append(fns, mergepatch.RequireMetadataKeyUnchanged(p.MetadataKey))
		} else {
			fns = append(fns, mergepatch.RequireKeyUnchanged(p.Key))
		}
	}
	return fns
}

// clientClass is the class of a two-way or three-way error: "conflict" (mergepatch.ErrConflict),
// "precondition" (mergepatch.ErrPreconditionFailed) or "error".
func clientClass(err error) string {
	switch {
	case mergepatch.IsConflict(err):
		return "conflict"
	case mergepatch.IsPreconditionFailed(err):
		return "precondition"
	default:
		return "error"
	}
}

type output struct {
	OK      json.RawMessage `json:"ok,omitempty"`
	Error   string          `json:"error,omitempty"`
	Message string          `json:"message,omitempty"`
}

// apiserverClass is handlers/patch.go interpretStrategicMergePatchError's status for err.
func apiserverClass(err error) string {
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return "bad-request"
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return "invalid"
	default:
		return "internal"
	}
}

// decodeMap decodes as the apiserver's patch decoder does (sigs.k8s.io/json, ints kept as int64).
func decodeMap(raw json.RawMessage) (map[string]interface{}, error) {
	m := map[string]interface{}{}
	err := kjson.UnmarshalCaseSensitivePreserveInts(raw, &m)
	return m, err
}

// exact copies v with every slice's capacity equal to its length, as
// runtime.DefaultUnstructuredConverter.ToUnstructured builds the original object: strategicpatch
// appends to the original's slices, so spare capacity would change what it does.
func exact(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[k] = exact(e)
		}
		return m
	case []interface{}:
		s := make([]interface{}, len(t))
		for i, e := range t {
			s[i] = exact(e)
		}
		return s
	default:
		return v
	}
}

func run(c input) (out output) {
	defer func() {
		if r := recover(); r != nil {
			out = output{Error: "panic", Message: fmt.Sprint(r)}
		}
	}()
	apiVersion, kind, _ := strings.Cut(c.Kind, " ")
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return output{Error: "usage", Message: err.Error()}
	}
	obj, err := scheme.Scheme.New(gv.WithKind(kind))
	if err != nil {
		return output{Error: "usage", Message: err.Error()}
	}
	var result interface{}
	switch c.Op {
	case "apply":
		original, err := decodeMap(c.Original)
		if err != nil {
			return output{Error: "usage", Message: err.Error()}
		}
		patch, err := decodeMap(c.Patch)
		if err != nil {
			return output{Error: "usage", Message: err.Error()}
		}
		patched, err := strategicpatch.StrategicMergeMapPatch(exact(original).(map[string]interface{}), patch, obj)
		if err != nil {
			return output{Error: apiserverClass(err), Message: err.Error()}
		}
		result = patched
	case "two-way":
		patch, err := strategicpatch.CreateTwoWayMergePatch(c.Original, c.Modified, obj, preconditionFuncs(c.Preconditions)...)
		if err != nil {
			return output{Error: clientClass(err), Message: err.Error()}
		}
		result = json.RawMessage(patch)
	case "three-way":
		meta, err := strategicpatch.NewPatchMetaFromStruct(obj)
		if err != nil {
			return output{Error: "usage", Message: err.Error()}
		}
		patch, err := strategicpatch.CreateThreeWayMergePatch(c.Original, c.Modified, c.Current, meta, c.Overwrite,
			preconditionFuncs(c.Preconditions)...)
		if err != nil {
			return output{Error: clientClass(err), Message: err.Error()}
		}
		result = json.RawMessage(patch)
	default:
		return output{Error: "usage", Message: "unknown op " + c.Op}
	}
	encoded, err := json.Marshal(result)
	if err != nil {
		return output{Error: "usage", Message: err.Error()}
	}
	return output{OK: encoded}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024*1024), 64*1024*1024)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			_ = enc.Encode(output{Error: "usage", Message: err.Error()})
			continue
		}
		_ = enc.Encode(run(c))
	}
}
