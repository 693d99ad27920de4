// Command patchmeta is the oracle for kgen's merge schema: the strategic merge patch metadata
// apimachinery's strategicpatch reads for the built-in types (PatchMetaFromStruct: the Go struct
// tags patchStrategy and patchMergeKey of k8s.io/api), for the kinds it is given.
//
// Reads a JSON array of [apiVersion, kind] on stdin (the kinds to walk, in that order) and writes
// the list of {"apiVersion", "kind", "path": [json names from the kind], "strategy",
// "mergeKey"} with one entry per field of every struct type reachable from those kinds (each
// struct type once, at the first path it is reached by), as {"fields": [...], "unknown": [kinds the
// scheme does not have]}. Types that marshal themselves (Quantity, Time, IntOrString, RawExtension) are
// leaves, as strategicpatch sees them.
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

type entry struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Path       []string `json:"path"`
	Strategy   string   `json:"strategy"`
	MergeKey   string   `json:"mergeKey"`
}

var marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func leaf(t reflect.Type) bool {
	return t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler)
}

type walker struct {
	seen map[reflect.Type]bool
	out  []entry
}

func (w *walker) structType(apiVersion, kind string, path []string, t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || leaf(t) || w.seen[t] {
		return
	}
	w.seen[t] = true
	w.fields(apiVersion, kind, path, t)
}

func (w *walker) fields(apiVersion, kind string, path []string, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" { // json:",inline": its fields are this struct's
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				w.fields(apiVersion, kind, path, ft)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := append(append([]string{}, path...), name)
		w.out = append(w.out, entry{apiVersion, kind, p, f.Tag.Get("patchStrategy"), f.Tag.Get("patchMergeKey")})
		w.structType(apiVersion, kind, p, f.Type)
	}
}

func main() {
	var kinds [][2]string
	if err := json.NewDecoder(os.Stdin).Decode(&kinds); err != nil {
		panic(err)
	}
	w := &walker{seen: map[reflect.Type]bool{}}
	unknown := [][2]string{}
	for _, k := range kinds {
		gv, err := schema.ParseGroupVersion(k[0])
		if err != nil {
			panic(err)
		}
		t, ok := scheme.Scheme.AllKnownTypes()[gv.WithKind(k[1])]
		if !ok {
			unknown = append(unknown, k)
			continue
		}
		w.structType(k[0], k[1], nil, t)
	}
	out := map[string]any{"fields": w.out, "unknown": unknown}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
