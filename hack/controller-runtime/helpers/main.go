// Command helpers runs controller-runtime v0.25.3's client helpers and LabelSelectorPredicate on
// scripted steps, so tests/integration/test_controller_helpers.py can run the same steps through
// kgen's create_or_update/create_or_patch and LabelSelectorPredicate on the same apiserver and
// compare the answers, errors included.
//
//	helpers -kubeconfig-path PATH
//
// Reads JSON lines on stdin, answers each with one line:
//
//	{"op": "createOrUpdate"|"createOrPatch", "apiVersion": "v1", "kind": "ConfigMap",
//	 "namespace": "ns", "name": "a", "set": {...}, "rename": "b"}
//	    -> {"result": "created"|"unchanged"|"updated"|"updatedStatus"|"updatedStatusOnly"} or {"error": "..."}
//	    The mutate function merges "set" into the object (objects member by member, anything else
//	    replaced) and, with "rename", renames it. Kinds: ConfigMap and Deployment, typed (an
//	    unstructured object would meet CreateOrPatch's ToUnstructured, which hands back the
//	    object's own map, so its status is removed before the status patch is computed and a
//	    status change is reported but never written); the client is controller-runtime's direct
//	    client (no cache).
//	{"op": "mergeFrom", "original": {...}, "modified": {...}, "optimisticLock": true}
//	    -> {"patch": {...}} or {"error": "..."}   (client.MergeFrom[WithOptions](original).Data(modified), unstructured)
//	{"op": "selector", "selector": {metav1.LabelSelector}, "labels": {...}}
//	    -> {"match": true|false} or {"error": "..."}       (predicate.LabelSelectorPredicate's Create)
//
// The program ends when its stdin does.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

type step struct {
	Op         string               `json:"op"`
	APIVersion string               `json:"apiVersion"`
	Kind       string               `json:"kind"`
	Namespace  string               `json:"namespace"`
	Name       string               `json:"name"`
	Set        map[string]any       `json:"set"`
	Rename     string               `json:"rename"`
	Selector   metav1.LabelSelector `json:"selector"`
	Labels     map[string]string    `json:"labels"`
	Original   map[string]any       `json:"original"`
	Modified   map[string]any       `json:"modified"`
	Lock       bool                 `json:"optimisticLock"`
}

type answer struct {
	Result string `json:"result,omitempty"`
	Match  *bool  `json:"match,omitempty"`
	Patch  any    `json:"patch,omitempty"`
	Error  string `json:"error,omitempty"`
}

// normalize turns json.Number into the int64 or float64 unstructured objects hold.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
			nm := map[string]any{}
			merge(nm, sm)
			dst[k] = nm
			continue
		}
		dst[k] = runtimeCopy(v)
	}
}

func runtimeCopy(v any) any {
	return normalize(roundTrip(v))
}

func roundTrip(v any) any {
	data, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

func main() {
	kubeconfig := flag.String("kubeconfig-path", "", "kubeconfig")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		dec := json.NewDecoder(bytes.NewReader(in.Bytes()))
		dec.UseNumber()
		var s step
		if err := dec.Decode(&s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var a answer
		switch s.Op {
		case "selector":
			p, err := predicate.LabelSelectorPredicate(s.Selector)
			if err != nil {
				a.Error = err.Error()
				break
			}
			obj := &unstructured.Unstructured{Object: map[string]any{}}
			obj.SetLabels(s.Labels)
			m := p.Create(event.CreateEvent{Object: obj})
			a.Match = &m
		case "mergeFrom":
			original := &unstructured.Unstructured{Object: normalize(s.Original).(map[string]any)}
			modified := &unstructured.Unstructured{Object: normalize(s.Modified).(map[string]any)}
			patch := client.MergeFrom(original)
			if s.Lock {
				patch = client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{})
			}
			data, err := patch.Data(modified)
			if err != nil {
				a.Error = err.Error()
				break
			}
			var decoded any
			if err := json.Unmarshal(data, &decoded); err != nil {
				a.Error = err.Error()
				break
			}
			a.Patch = decoded
		case "createOrUpdate", "createOrPatch":
			var obj client.Object
			switch s.Kind {
			case "ConfigMap":
				obj = &corev1.ConfigMap{}
			case "Deployment":
				obj = &appsv1.Deployment{}
			default:
				a.Error = "unknown kind " + s.Kind
			}
			if obj == nil {
				break
			}
			obj.SetNamespace(s.Namespace)
			obj.SetName(s.Name)
			set := normalize(s.Set)
			mutate := func() error {
				u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
				if err != nil {
					return err
				}
				if m, ok := set.(map[string]any); ok {
					merge(u, m)
				}
				if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, obj); err != nil {
					return err
				}
				if s.Rename != "" {
					obj.SetName(s.Rename)
				}
				return nil
			}
			var result controllerutil.OperationResult
			if s.Op == "createOrUpdate" {
				result, err = controllerutil.CreateOrUpdate(ctx, c, obj, mutate)
			} else {
				result, err = controllerutil.CreateOrPatch(ctx, c, obj, mutate)
			}
			if err != nil {
				a.Error = err.Error()
			} else {
				a.Result = string(result)
			}
		default:
			a.Error = "unknown op " + s.Op
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}
