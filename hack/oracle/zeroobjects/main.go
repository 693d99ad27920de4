// Command zeroobjects prints, for every built-in kind client-go's scheme knows, the object the
// apiserver's empty Go value of that kind is when structured-merge-diff reads it
// (runtime.DefaultUnstructuredConverter.ToUnstructured of scheme.New(gvk)): struct values are
// there even when empty ({"spec": {"template": {"metadata": {"creationTimestamp": null}}}}),
// pointers and omitempty collections are not, non-omitempty collections are null.
//
// The apiserver compares a create's object with that empty value (FieldManager.UpdateNoErrors
// with New() as the live object), so which struct fields exist in it decides which fields a
// creator's managedFields entry marks with ".": kgen's field manager reads this table
// (runtime/apimachinery/util/managedfields/zero_objects.json, this program's output; tests/unit/test_fieldmanager.py
// checks it for drift).
//
// Output (JSON): {"<apiVersion>/<Kind>": {...}}, sorted, List kinds and internal versions left out.
package main

import (
	"encoding/json"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

func main() {
	out := map[string]map[string]interface{}{}
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		obj, err := scheme.Scheme.New(gvk)
		if err != nil {
			panic(err)
		}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			panic(err)
		}
		out[gvk.GroupVersion().String()+"/"+gvk.Kind] = u
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
