// Command protofacts lists what a protobuf message of a built-in kind cannot say about the JSON
// the apiserver would write for the same object: which Go field each protobuf field fills, and
// how encoding/json writes that field (its JSON name or inlined, omitempty, omitzero, whether a
// nil is possible). kgen's protobuf decoder (runtime/apimachinery/protobuf) reads this table
// next to the descriptors compiled from the same release's generated.proto files, so that a
// Pod read as protobuf is the dict json.Marshal would have written for it.
//
// Output (JSON):
//
//	{"kinds": {"apps/v1/Deployment": "k8s.io.api.apps.v1.Deployment", ...},
//	 "types": {"k8s.io.api.core.v1.Volume": {"1": ["name", "v"], "2": ["", "v"]}, ...},
//	 "slices": ["k8s.io.api.authentication.v1.ExtraValue", ...]}
//
// Fields are keyed by their protobuf number; an entry is [JSON name ("" when inlined), flags]: "o" omitempty, "z" omitzero, "n" a
// nil is possible (pointer, slice, map), "v" none of these. "kinds" maps every kind of
// client-go's scheme (lists included) to its message; "slices" names the messages that are a
// Go slice type wrapped as {repeated items = 1} (JSON writes the slice itself).
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"

	"k8s.io/client-go/kubernetes/scheme"
)

func message(t reflect.Type) string {
	return strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + t.Name()
}

type facts struct {
	types  map[string]map[string][2]string
	slices map[string]bool
	seen   map[reflect.Type]bool
}

func (f *facts) walk(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Slice && t.Name() != "" && t.Elem().Kind() != reflect.Uint8 {
			if _, ok := reflect.PointerTo(t).MethodByName("Unmarshal"); ok {
				f.slices[message(t)] = true
			}
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.PkgPath() == "" || f.seen[t] {
		return
	}
	f.seen[t] = true
	fields := map[string][2]string{}
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		proto := field.Tag.Get("protobuf")
		if proto == "" || proto == "-" || !field.IsExported() {
			continue
		}
		number := strings.Split(proto, ",")[1] // "bytes,1,opt,name=metadata"
		parts := strings.Split(field.Tag.Get("json"), ",")
		jsonName, flags := parts[0], ""
		for _, opt := range parts[1:] {
			switch opt {
			case "omitempty":
				flags += "o"
			case "omitzero":
				flags += "z"
			}
		}
		if jsonName == "" && !field.Anonymous { // encoding/json inlines an anonymous struct it has no name for
			jsonName = field.Name
		}
		switch field.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			flags += "n"
		}
		if flags == "" {
			flags = "v"
		}
		fields[number] = [2]string{jsonName, flags}
		f.walk(field.Type)
	}
	f.types[message(t)] = fields
}

func main() {
	f := &facts{types: map[string]map[string][2]string{}, slices: map[string]bool{}, seen: map[reflect.Type]bool{}}
	kinds := map[string]string{}
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == "__internal" || t.Kind() != reflect.Struct {
			continue
		}
		if _, ok := reflect.PointerTo(t).MethodByName("Unmarshal"); !ok {
			continue // no protobuf form
		}
		kinds[strings.TrimPrefix(gvk.GroupVersion().String()+"/"+gvk.Kind, "/")] = message(t)
		f.walk(t)
	}
	slices := make([]string, 0, len(f.slices))
	for name := range f.slices {
		slices = append(slices, name)
	}
	sort.Strings(slices)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(map[string]any{"kinds": kinds, "types": f.types, "slices": slices}); err != nil {
		os.Exit(1)
	}
}
