// Command zerofields lists, for every built-in kind client-go's scheme knows, where Go's
// encoding/json drops a zero scalar: a non-pointer string, bool or number field tagged
// omitempty or omitzero (DeploymentStatus.replicas is; DeploymentSpec.replicas, a *int32, is not). The
// OpenAPI schema cannot tell a pointer from a value, so kgen's fake reads this table
// (runtime/fake/schema/zero_fields.json, this program's output, checked for drift by
// tests/integration/test_fake_vs_server.py) to store objects as the apiserver's Go types make them.
//
// Output (JSON): {"kinds": {"apps/v1/Deployment": "<type>"}, "types": {"<type>": {"<json
// field>": "0" | "<type>" | "[]<type>" | "{}<type>"}}}: "0" is a zero-dropped scalar, the
// others lead (directly, through a slice, or through a map) to a type that has some. Types
// with none, and the fields leading only to them, are left out.
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	"k8s.io/client-go/kubernetes/scheme"
)

var marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

type table map[string]map[string]string

func name(t reflect.Type) string {
	path := strings.TrimPrefix(t.PkgPath(), "k8s.io/")
	path = strings.TrimPrefix(strings.TrimPrefix(path, "api/"), "apimachinery/pkg/apis/")
	return path + "." + t.Name()
}

// walk fills types[name(t)] and reports whether t (a struct) has zero-dropped scalars below it.
func walk(t reflect.Type, types table, seen map[reflect.Type]bool) bool {
	if done, ok := seen[t]; ok {
		return done
	}
	seen[t] = false // a cycle counts as nothing until the walk returns
	fields := map[string]string{}
	collect(t, fields, types, seen)
	seen[t] = len(fields) > 0
	if len(fields) > 0 {
		types[name(t)] = fields
	}
	return len(fields) > 0
}

func collect(t reflect.Type, fields map[string]string, types table, seen map[reflect.Type]bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		parts := strings.Split(tag, ",")
		jsonName, omitempty, inline := parts[0], false, false
		for _, opt := range parts[1:] {
			omitempty = omitempty || opt == "omitempty" || opt == "omitzero"
			inline = inline || opt == "inline"
		}
		if f.Anonymous && (inline || jsonName == "") && f.Type.Kind() == reflect.Struct {
			collect(f.Type, fields, types, seen)
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		if entry := entryFor(f.Type, omitempty, types, seen); entry != "" {
			fields[jsonName] = entry
		}
	}
}

func entryFor(t reflect.Type, omitempty bool, types table, seen map[reflect.Type]bool) string {
	if t.Implements(marshaler) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(marshaler)) {
		return "" // written by its own MarshalJSON (Time, Quantity, IntOrString): opaque here
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		if omitempty {
			return "0"
		}
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Struct && !t.Elem().Implements(marshaler) && !t.Implements(marshaler) && walk(t.Elem(), types, seen) {
			return name(t.Elem())
		}
	case reflect.Struct:
		if walk(t, types, seen) {
			return name(t)
		}
	case reflect.Slice:
		if inner := entryFor(t.Elem(), false, types, seen); inner != "" && inner != "0" {
			return "[]" + strings.TrimPrefix(strings.TrimPrefix(inner, "[]"), "{}")
		}
	case reflect.Map:
		if inner := entryFor(t.Elem(), false, types, seen); inner != "" && inner != "0" {
			return "{}" + strings.TrimPrefix(strings.TrimPrefix(inner, "[]"), "{}")
		}
	}
	return ""
}

func main() {
	types := table{}
	kinds := map[string]string{}
	seen := map[reflect.Type]bool{}
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == "__internal" || strings.HasSuffix(gvk.Kind, "List") || t.Kind() != reflect.Struct {
			continue
		}
		if f, ok := t.FieldByName("ObjectMeta"); !ok || !f.Anonymous {
			continue // options, WatchEvent, Status...: not objects the apiserver stores
		}
		if walk(t, types, seen) {
			kinds[strings.TrimPrefix(gvk.GroupVersion().String()+"/"+gvk.Kind, "/")] = name(t)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(map[string]any{"kinds": kinds, "types": types}); err != nil {
		os.Exit(1)
	}
}
