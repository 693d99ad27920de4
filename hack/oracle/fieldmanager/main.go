// Command fieldmanager is the oracle for kgen's server-side apply engine
// (kgen.runtime.apimachinery.fieldmanager): k8s.io/apimachinery v0.37.2's
// managedfields.NewDefaultFieldManager (structured-merge-diff v6), wired as the apiserver wires it.
//
//   - Built-in kinds: a type converter from the snapshot's OpenAPI v3 components (every
//     group-version document of openapi/kubernetes-<version>/openapi/v3 merged), as
//     genericapiserver builds it from its OpenAPI v3 definitions
//     (managedfields.NewTypeConverter(models, false)).
//   - Custom resources (-crd FILE): the models apiextensions-apiserver builds in
//     customresource_handler.go buildOpenAPIModelsForApply: the static (built-in) models merged
//     with builder.BuildOpenAPIV3 of every version, NewTypeConverter(models,
//     crd.Spec.PreserveUnknownFields), and NewDefaultCRDFieldManager.
//   - Reset fields: the registry strategies' GetResetFields (resetFields below), passed through
//     fieldpath.NewExcludeFilterSetMap as the apiserver's installer and crd handler do.
//   - Older releases (-older KEY, repeatable; KEY as in tests/support/versions.py's DIFFERENCES):
//     "cr-status-writes-metadata" models apiextensions-apiserver up to v0.35 (Kubernetes 1.34,
//     1.35), whose custom resource status strategy resets only spec (v0.36 added metadata): a
//     /status apply or update records the metadata fields it sends (labels, annotations,
//     finalizers, ownerReferences) as its manager's, and the strategy's PrepareForUpdate then
//     stores the old object with only the new status and managedFields, so those values are
//     never written. In that mode a custom resource's /status answer is the object as that
//     PrepareForUpdate leaves it (statusPrepareForUpdate); otherwise, as before, the field
//     manager's result.
//
// Objects stay unstructured (the CRD path's form): no conversion, no defaulting, no typed round
// trip. Those are the registry's and the codec's work, not the field manager's; the fake does them
// as bookkeeping. Create is Update (or Apply) from the kind's empty object (creater below), as
// the create handler (UpdateNoErrors on creater.New) and the apply-create path (Apply on
// creater.New) do.
//
// Reads JSON lines {"op": "apply"|"update", "apiVersion", "kind", "subresource", "live": object
// or null, "obj": object, "manager", "force"} and writes one line per case: {"object": result} or
// {"error": {"code", "reason", "message"}}, the status the apiserver answers
// (responsewriters.ErrorToAPIStatus: a StatusError's own status, any other error a 500 with no
// reason). The result's metadata.managedFields carries FieldsV1 in the key order the apiserver
// writes (encode). Bad input (an unknown kind, JSON that does not parse) is answered
// {"usage": "<what is wrong>"}, never with a status the apiserver would give.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// resetFields are the registry strategies' GetResetFields for the kinds the tests cover
// (k8s.io/kubernetes v1.37.2 pkg/registry; custom resources: apiextensions-apiserver v0.37.2
// pkg/registry/customresource strategy.go and status_strategy.go). Key: "<apiVersion> <Kind>
// <subresource>", with "*" for any custom resource's group-version.
var resetFields = map[string][]fieldpath.Path{
	// apps/deployment/strategy.go deploymentStrategy, deploymentStatusStrategy
	"apps/v1 Deployment ":       {fieldpath.MakePathOrDie("status")},
	"apps/v1 Deployment status": {fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "labels")},
	// core/pod/strategy.go podStrategy, podStatusStrategy
	"v1 Pod ": {fieldpath.MakePathOrDie("status")},
	"v1 Pod status": {fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "deletionTimestamp"),
		fieldpath.MakePathOrDie("metadata", "ownerReferences")},
	// core/service/strategy.go svcStrategy, serviceStatusStrategy
	"v1 Service ":       {fieldpath.MakePathOrDie("status")},
	"v1 Service status": {fieldpath.MakePathOrDie("spec")},
	// core/configmap/strategy.go has no GetResetFields: "v1 ConfigMap " resets nothing.
	// customresource strategy.go (when the version has a status subresource) and status_strategy.go
	"* CR ":       {fieldpath.MakePathOrDie("status")},
	"* CR status": {fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec")},
}

// crStatusWritesMetadata is the older behaviour -older names (tests/support/versions.py's key).
const crStatusWritesMetadata = "cr-status-writes-metadata"

// olderResetFields replace resetFields' entries under -older KEY: apiextensions-apiserver
// v0.34.4 and v0.35.4 status_strategy.go GetResetFields reset "spec" only.
var olderResetFields = map[string]map[string][]fieldpath.Path{
	crStatusWritesMetadata: {"* CR status": {fieldpath.MakePathOrDie("spec")}},
}

type input struct {
	Op          string          `json:"op"`
	APIVersion  string          `json:"apiVersion"`
	Kind        string          `json:"kind"`
	Subresource string          `json:"subresource"`
	Live        json.RawMessage `json:"live"`
	Obj         json.RawMessage `json:"obj"`
	Manager     string          `json:"manager"`
	Force       bool            `json:"force"`
}

type statusOut struct {
	Code    int32  `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type output struct {
	Object json.RawMessage `json:"object,omitempty"`
	Error  *statusOut      `json:"error,omitempty"`
	Usage  string          `json:"usage,omitempty"`
}

// crd is one custom resource kind served by a CRD file: its type converter and whether its
// version has a status subresource.
type crd struct {
	converter managedfields.TypeConverter
	status    bool
}

type oracle struct {
	builtin managedfields.TypeConverter
	crds    map[string]crd // "<apiVersion> <Kind>"
	cache   map[string]*managedfields.FieldManager
	older   map[string]bool // the -older keys
}

// The apiserver converts and defaults typed objects; the oracle's objects are unstructured and
// already in the one version it serves, so these do nothing (as managedfieldstest's fakes).
type noConversion struct{}

func (noConversion) Convert(in, out, context interface{}) error { return nil }
func (noConversion) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (noConversion) ConvertFieldLabel(schema.GroupVersionKind, string, string) (string, string, error) {
	return "", "", fmt.Errorf("not implemented")
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

// creater is the handler's scope.Creater as the field manager sees its objects: the live object
// of a create (Update or Apply on creater.New(kind)) and skipNonAppliedManager's empty object.
// For a built-in kind, the typed Go zero value (client-go's scheme holds the versioned types the
// apiserver converts to) through DefaultUnstructuredConverter, so its non-pointer struct fields
// (spec, spec.template, status) exist before the create; for a custom resource,
// apiextensions-apiserver's unstructuredCreator: only apiVersion and kind.
type creater struct{ crd bool }

func (c creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]interface{}{}}
	if !c.crd {
		typed, err := scheme.Scheme.New(gvk)
		if err != nil {
			return nil, err
		}
		if u.Object, err = runtime.DefaultUnstructuredConverter.ToUnstructured(typed); err != nil {
			return nil, err
		}
	}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// builtinModels merges the components of every group-version document of the snapshot.
func builtinModels(dir string) (map[string]*spec.Schema, error) {
	models := map[string]*spec.Schema{}
	files, _ := filepath.Glob(filepath.Join(dir, "api", "*.json"))
	more, _ := filepath.Glob(filepath.Join(dir, "apis", "*", "*.json"))
	files = append(files, more...)
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no OpenAPI v3 group-version documents", dir)
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		doc := &spec3.OpenAPI{}
		if err := json.Unmarshal(raw, doc); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		if doc.Components == nil {
			continue
		}
		for name, s := range doc.Components.Schemas {
			models[name] = s
		}
	}
	return models, nil
}

// crdConverter is customresource_handler.go's buildOpenAPIModelsForApply + NewTypeConverter.
func crdConverter(static map[string]*spec.Schema, c *apiextensionsv1.CustomResourceDefinition) (managedfields.TypeConverter, error) {
	specs := []*spec3.OpenAPI{{Components: &spec3.Components{Schemas: static}}}
	for _, v := range c.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(c, v.Name, builder.Options{})
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, err
	}
	return managedfields.NewTypeConverter(merged.Components.Schemas, c.Spec.PreserveUnknownFields)
}

func newOracle(openapiDir string, crdFiles []string, older []string) (*oracle, error) {
	models, err := builtinModels(openapiDir)
	if err != nil {
		return nil, err
	}
	builtin, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, fmt.Errorf("built-in type converter: %v", err)
	}
	o := &oracle{builtin: builtin, crds: map[string]crd{}, cache: map[string]*managedfields.FieldManager{},
		older: map[string]bool{}}
	for _, key := range older {
		if _, ok := olderResetFields[key]; !ok {
			return nil, fmt.Errorf("-older %q: not a behaviour this oracle models (%s)", key, crStatusWritesMetadata)
		}
		o.older[key] = true
	}
	for _, file := range crdFiles {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(raw, c); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		converter, err := crdConverter(models, c)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for _, v := range c.Spec.Versions {
			status := v.Subresources != nil && v.Subresources.Status != nil
			o.crds[c.Spec.Group+"/"+v.Name+" "+c.Spec.Names.Kind] = crd{converter: converter, status: status}
		}
	}
	return o, nil
}

func (o *oracle) creater(apiVersion, kind string) creater {
	_, isCRD := o.crds[apiVersion+" "+kind]
	return creater{crd: isCRD}
}

func (o *oracle) fieldManager(apiVersion, kind, subresource string) (*managedfields.FieldManager, error) {
	key := apiVersion + " " + kind + " " + subresource
	if fm, ok := o.cache[key]; ok {
		return fm, nil
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	gvk := gv.WithKind(kind)
	resetKey := key
	c, isCRD := o.crds[apiVersion+" "+kind]
	converter := o.builtin
	if isCRD {
		converter = c.converter
		resetKey = "* CR " + subresource
		if !c.status {
			resetKey = ""
		}
	}
	empty, err := o.creater(apiVersion, kind).New(gvk)
	if err != nil {
		return nil, fmt.Errorf("unknown kind %s: %v", key, err)
	}
	if _, err := converter.ObjectToTyped(empty); err != nil { // UpdateNoErrors would hide it
		return nil, fmt.Errorf("unknown kind %s: %v", key, err)
	}
	reset := map[fieldpath.APIVersion]*fieldpath.Set{}
	paths, ok := resetFields[resetKey]
	for key := range o.older {
		if older, found := olderResetFields[key][resetKey]; found {
			paths, ok = older, true
		}
	}
	if ok {
		reset[fieldpath.APIVersion(apiVersion)] = fieldpath.NewSet(paths...)
	}
	filters := fieldpath.NewExcludeFilterSetMap(reset)
	var fm *managedfields.FieldManager
	if isCRD {
		fm, err = managedfields.NewDefaultCRDFieldManager(converter, noConversion{}, noDefaults{}, o.creater(apiVersion, kind), gvk, gv, subresource, filters)
	} else {
		fm, err = managedfields.NewDefaultFieldManager(converter, noConversion{}, noDefaults{}, o.creater(apiVersion, kind), gvk, gv, subresource, filters)
	}
	if err != nil {
		return nil, err
	}
	o.cache[key] = fm
	return fm, nil
}

// decode reads an object as the apiserver's decoder has it (ints kept as int64).
func decode(raw json.RawMessage) (*unstructured.Unstructured, error) {
	m := map[string]interface{}{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, &m); err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// encode writes obj as the apiserver writes it on the wire. The field manager stores each
// entry's FieldsV1 into the unstructured object as a map, so Go's JSON encoding sorts its keys
// as strings: what the server answers for a custom resource (unstructured too). A built-in kind's
// object is typed on the server and keeps FieldsV1's raw bytes, in structured-merge-diff's own
// order (fieldpath.Set.ToJSON, e.g. list-map keys by value: port 9 before 80 before 443), so
// for those (typed true) each FieldsV1 is re-serialized by structured-merge-diff.
func encode(obj runtime.Object, typed bool) (json.RawMessage, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("result is a %T, not unstructured", obj)
	}
	accessor, err := meta.Accessor(u)
	if err != nil {
		return nil, err
	}
	entries := accessor.GetManagedFields()
	for i := range entries {
		if !typed || entries[i].FieldsV1 == nil {
			continue
		}
		set := &fieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(entries[i].FieldsV1.Raw)); err != nil {
			return nil, err
		}
		raw, err := set.ToJSON()
		if err != nil {
			return nil, err
		}
		entries[i].FieldsV1.Raw = raw
	}
	content := u.DeepCopy().Object
	if md, ok := content["metadata"].(map[string]interface{}); ok {
		delete(md, "managedFields")
	}
	body, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	if entries == nil {
		return body, nil
	}
	// Re-insert managedFields into metadata, keeping the raw FieldsV1 bytes.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, err
	}
	var md map[string]json.RawMessage
	if raw, ok := top["metadata"]; ok {
		if err := json.Unmarshal(raw, &md); err != nil {
			return nil, err
		}
	}
	if md == nil {
		md = map[string]json.RawMessage{}
	}
	if md["managedFields"], err = json.Marshal(entries); err != nil {
		return nil, err
	}
	if top["metadata"], err = json.Marshal(md); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}

// statusPrepareForUpdate is apiextensions-apiserver's statusStrategy.PrepareForUpdate
// (pkg/registry/customresource/status_strategy.go, the same from v0.34.4 to v0.37.2), which the
// registry runs after the field manager: the old object, with the new object's status (none if
// it has none) and managedFields. Whatever else a /status write sends (spec, metadata) is dropped.
func statusPrepareForUpdate(obj, old runtime.Object) (runtime.Object, error) {
	newObj, ok := obj.(*unstructured.Unstructured)
	oldObj, ok2 := old.(*unstructured.Unstructured)
	if !ok || !ok2 {
		return nil, fmt.Errorf("status strategy: %T and %T, not unstructured", obj, old)
	}
	status, hasStatus := newObj.Object["status"]
	managedFields := newObj.GetManagedFields()
	out := oldObj.DeepCopy()
	out.SetManagedFields(managedFields)
	if hasStatus {
		out.Object["status"] = status
	} else {
		delete(out.Object, "status")
	}
	return out, nil
}

func statusOf(err error) *statusOut {
	if s, ok := err.(apierrors.APIStatus); ok {
		st := s.Status()
		code := st.Code
		if code == 0 {
			code = 500
		}
		return &statusOut{Code: code, Reason: string(st.Reason), Message: st.Message}
	}
	return &statusOut{Code: 500, Reason: "", Message: err.Error()}
}

func (o *oracle) run(c input) (out output) {
	defer func() {
		if r := recover(); r != nil {
			out = output{Usage: fmt.Sprintf("panic: %v", r)}
		}
	}()
	fm, err := o.fieldManager(c.APIVersion, c.Kind, c.Subresource)
	if err != nil {
		return output{Usage: err.Error()}
	}
	gv, _ := schema.ParseGroupVersion(c.APIVersion)
	var live runtime.Object
	if len(c.Live) == 0 || string(c.Live) == "null" {
		if live, err = o.creater(c.APIVersion, c.Kind).New(gv.WithKind(c.Kind)); err != nil {
			return output{Usage: err.Error()}
		}
	} else if live, err = decode(c.Live); err != nil {
		return output{Usage: "live: " + err.Error()}
	}
	obj, err := decode(c.Obj)
	if err != nil {
		return output{Usage: "obj: " + err.Error()}
	}
	var result runtime.Object
	switch c.Op {
	case "update":
		result = fm.UpdateNoErrors(live, obj, c.Manager)
	case "apply":
		result, err = fm.Apply(live, obj, c.Manager, c.Force)
		if err != nil {
			return output{Error: statusOf(err)}
		}
	default:
		return output{Usage: "unknown op " + c.Op}
	}
	if c.Subresource == "status" && o.older[crStatusWritesMetadata] {
		if cr, isCRD := o.crds[c.APIVersion+" "+c.Kind]; isCRD && cr.status {
			if result, err = statusPrepareForUpdate(result, live); err != nil {
				return output{Usage: err.Error()}
			}
		}
	}
	encoded, err := encode(result, !o.creater(c.APIVersion, c.Kind).crd)
	if err != nil {
		return output{Usage: err.Error()}
	}
	return output{Object: encoded}
}

type listFlag []string

func (f *listFlag) String() string     { return strings.Join(*f, ",") }
func (f *listFlag) Set(v string) error { *f = append(*f, v); return nil }

func main() {
	var crds, older listFlag
	openapiDir := flag.String("openapi", "", "the snapshot's OpenAPI v3 folder (openapi/kubernetes-<version>/openapi/v3)")
	flag.Var(&crds, "crd", "a CRD file (YAML or JSON); repeatable")
	flag.Var(&older, "older", "an older release's behaviour to model, by its key in tests/support/versions.py "+
		"(\""+crStatusWritesMetadata+"\": apiextensions-apiserver up to v0.35's custom resource status strategy); repeatable")
	flag.Parse()
	if *openapiDir == "" {
		fmt.Fprintln(os.Stderr, "fieldmanager: -openapi DIR is required")
		os.Exit(2)
	}
	o, err := newOracle(*openapiDir, crds, older)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fieldmanager:", err)
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024*1024), 64*1024*1024)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for in.Scan() {
		var c input
		var out output
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			out = output{Usage: err.Error()}
		} else {
			out = o.run(c)
		}
		line, _ := json.Marshal(out)
		w.Write(line)
		w.WriteString("\n")
		if err := w.Flush(); err != nil {
			os.Exit(1)
		}
	}
}
