// Command fieldorder prints, for every struct type reachable from the kinds that client-go's
// scheme and the apiextensions scheme know, the JSON names of its fields in the order Go's
// encoding/json writes them: the order of the Go struct's fields, with embedded `json:",inline"`
// structs (TypeMeta, ListMeta's holders) flattened where they sit.
//
// The apiserver writes built-in objects in that order, and the OpenAPI documents it publishes
// do not carry it (their properties are sorted). kgen's generator declares each built-in model's
// fields in this order (openapi/field_order.json, this program's output; tests/unit/
// test_field_order.py checks it for drift), so that a decoded object's fields sit in memory in
// the order its encoder walks them, and to_json writes the server's key order.
//
// Output (JSON): {"<OpenAPI definition name>": ["<json name>", ...]}, sorted by name. The name
// is kube-openapi's: the Go package path with its first element's domain reversed
// (k8s.io/api/core/v1.PodSpec -> io.k8s.api.core.v1.PodSpec).
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

func definitionName(t reflect.Type) string {
	path := t.PkgPath()
	first, rest, _ := strings.Cut(path, "/")
	parts := strings.Split(first, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + strings.ReplaceAll(rest, "/", ".") + "." + t.Name()
}

type walker struct {
	out  map[string][]string
	seen map[reflect.Type]bool
}

func (w *walker) visit(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Map {
			w.visit(t.Key())
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.Name() == "" || w.seen[t] {
		return
	}
	w.seen[t] = true
	names := w.fields(t, nil)
	if len(names) > 0 {
		w.out[definitionName(t)] = names
	}
}

// fields appends t's JSON field names in encoding order, descending into inline structs,
// and visits every field's type.
func (w *walker) fields(t reflect.Type, names []string) []string {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		inline := strings.Contains(tag, ",inline") || (f.Anonymous && name == "")
		if inline {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				names = w.fields(inner, names)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
		w.visit(f.Type)
	}
	return names
}

func main() {
	w := &walker{out: map[string][]string{}, seen: map[reflect.Type]bool{}}
	schemes := []*runtime.Scheme{scheme.Scheme, runtime.NewScheme()}
	if err := apiextensionsv1.AddToScheme(schemes[1]); err != nil {
		panic(err)
	}
	if err := apiextensionsv1beta1.AddToScheme(schemes[1]); err != nil {
		panic(err)
	}
	for _, s := range schemes {
		for gvk, t := range s.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal {
				continue
			}
			w.visit(t)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(w.out); err != nil {
		panic(err)
	}
}
