// Command cache answers reads from a controller-runtime v0.25.3 cache (pkg/cache: cache.New with
// DefaultNamespaces, ByObject selectors, DefaultTransform and field indexes), so
// tests/integration/test_controller_cache_options.py can ask kgen's cache and controller-runtime's
// the same questions on the same apiserver and compare the answers, errors included.
//
//	cache -kubeconfig-path PATH
//
// Reads JSON lines on stdin. The first sets the cache up:
//
//	{"namespaces": ["a", "b"],                      // DefaultNamespaces (none: every namespace)
//	 "byObject": {"Secret": {"namespaces": ["c"], "label": "team=a", "field": "type=x"}},
//	 "indexes": [{"kind": "Pod", "field": "spec.nodeName"}],
//	 "stripManagedFields": true,                     // DefaultTransform: TransformStripManagedFields
//	 "readerFailOnMissingInformer": true}            // ReaderFailOnMissingInformer
//
// and it answers {"ready": true} once the cache started. Every later line is a read, answered by one line:
//
//	{"op": "list", "kind": "Pod", "namespace": "", "fields": {"spec.nodeName": "n1"}, "labels": {"tier": "web"}}
//	    ("fieldSelector": "spec.nodeName=n1" in place of "fields": MatchingFieldsSelector)
//	    -> {"items": ["ns/name", ...]}                 (sorted) or {"error": "...", "notFound": false}
//	{"op": "get", "kind": "ConfigMap", "namespace": "a", "name": "cm"}
//	    -> {"item": "a/cm", "managedFields": 0}        or {"error": "...", "notFound": true|false}
//
// Kinds: Pod, ConfigMap, Secret, Namespace. Index fields: Pod's spec.nodeName, any kind's
// metadata.name. The program ends when its stdin does.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type byObject struct {
	Namespaces []string `json:"namespaces"`
	Label      string   `json:"label"`
	Field      string   `json:"field"`
}

type setup struct {
	Namespaces []string            `json:"namespaces"`
	ByObject   map[string]byObject `json:"byObject"`
	Indexes    []struct {
		Kind  string `json:"kind"`
		Field string `json:"field"`
	} `json:"indexes"`
	StripManagedFields          bool `json:"stripManagedFields"`
	ReaderFailOnMissingInformer bool `json:"readerFailOnMissingInformer"`
}

type read struct {
	Op        string            `json:"op"`
	Kind      string            `json:"kind"`
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Fields    map[string]string `json:"fields"`
	Selector  *string           `json:"fieldSelector"`
	Labels    map[string]string `json:"labels"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cache: "+format+"\n", args...)
	os.Exit(2)
}

func emit(line map[string]any) {
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		os.Exit(1)
	}
}

func object(kind string) (client.Object, client.ObjectList) {
	switch kind {
	case "Pod":
		return &corev1.Pod{}, &corev1.PodList{}
	case "ConfigMap":
		return &corev1.ConfigMap{}, &corev1.ConfigMapList{}
	case "Secret":
		return &corev1.Secret{}, &corev1.SecretList{}
	case "Namespace":
		return &corev1.Namespace{}, &corev1.NamespaceList{}
	}
	fail("unknown kind %q", kind)
	return nil, nil
}

func namespaceConfigs(names []string) map[string]cache.Config {
	if names == nil {
		return nil
	}
	configs := map[string]cache.Config{}
	for _, name := range names {
		configs[name] = cache.Config{}
	}
	return configs
}

func options(s setup) cache.Options {
	opts := cache.Options{DefaultNamespaces: namespaceConfigs(s.Namespaces), ReaderFailOnMissingInformer: s.ReaderFailOnMissingInformer}
	if s.StripManagedFields {
		opts.DefaultTransform = cache.TransformStripManagedFields()
	}
	if len(s.ByObject) > 0 {
		opts.ByObject = map[client.Object]cache.ByObject{}
		for kind, settings := range s.ByObject {
			obj, _ := object(kind)
			by := cache.ByObject{Namespaces: namespaceConfigs(settings.Namespaces)}
			if settings.Label != "" {
				selector, err := labels.Parse(settings.Label)
				if err != nil {
					fail("label selector %q: %v", settings.Label, err)
				}
				by.Label = selector
			}
			if settings.Field != "" {
				selector, err := fields.ParseSelector(settings.Field)
				if err != nil {
					fail("field selector %q: %v", settings.Field, err)
				}
				by.Field = selector
			}
			opts.ByObject[obj] = by
		}
	}
	return opts
}

func key(obj client.Object) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}

func failed(err error) map[string]any {
	return map[string]any{"error": err.Error(), "notFound": apierrors.IsNotFound(err)}
}

func answer(ctx context.Context, c cache.Cache, r read) map[string]any {
	obj, list := object(r.Kind)
	switch r.Op {
	case "get":
		if err := c.Get(ctx, client.ObjectKey{Namespace: r.Namespace, Name: r.Name}, obj); err != nil {
			return failed(err)
		}
		return map[string]any{"item": key(obj), "managedFields": len(obj.GetManagedFields())}
	case "list":
		var opts []client.ListOption
		if r.Namespace != "" {
			opts = append(opts, client.InNamespace(r.Namespace))
		}
		if len(r.Fields) > 0 {
			opts = append(opts, client.MatchingFields(r.Fields))
		}
		if r.Selector != nil {
			selector, err := fields.ParseSelector(*r.Selector)
			if err != nil {
				return failed(err)
			}
			opts = append(opts, client.MatchingFieldsSelector{Selector: selector})
		}
		if len(r.Labels) > 0 {
			opts = append(opts, client.MatchingLabels(r.Labels))
		}
		if err := c.List(ctx, list, opts...); err != nil {
			return failed(err)
		}
		items := []string{}
		switch l := list.(type) {
		case *corev1.PodList:
			for i := range l.Items {
				items = append(items, key(&l.Items[i]))
			}
		case *corev1.ConfigMapList:
			for i := range l.Items {
				items = append(items, key(&l.Items[i]))
			}
		case *corev1.SecretList:
			for i := range l.Items {
				items = append(items, key(&l.Items[i]))
			}
		case *corev1.NamespaceList:
			for i := range l.Items {
				items = append(items, key(&l.Items[i]))
			}
		}
		sort.Strings(items)
		return map[string]any{"items": items}
	}
	fail("unknown op %q", r.Op)
	return nil
}

func main() {
	kubeconfig := flag.String("kubeconfig-path", "", "the apiserver's kubeconfig")
	flag.Parse()
	if *kubeconfig == "" {
		fail("-kubeconfig-path is required")
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("loading %s: %v", *kubeconfig, err)
	}
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	if !lines.Scan() {
		fail("no setup line on stdin")
	}
	var s setup
	if err := json.Unmarshal(lines.Bytes(), &s); err != nil {
		fail("setup line: %v", err)
	}
	c, err := cache.New(config, options(s))
	if err != nil {
		fail("cache.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, index := range s.Indexes {
		obj, _ := object(index.Kind)
		var extract client.IndexerFunc
		switch {
		case index.Field == "metadata.name":
			extract = func(o client.Object) []string { return []string{o.GetName()} }
		case index.Kind == "Pod" && index.Field == "spec.nodeName":
			extract = func(o client.Object) []string {
				if node := o.(*corev1.Pod).Spec.NodeName; node != "" {
					return []string{node}
				}
				return nil
			}
		default:
			fail("no extractor for %s %s", index.Kind, index.Field)
		}
		err := c.IndexField(ctx, obj, index.Field, extract)
		if err != nil {
			fail("IndexField: %v", err)
		}
	}
	go func() {
		if err := c.Start(ctx); err != nil {
			fail("cache start: %v", err)
		}
	}()
	if !c.WaitForCacheSync(ctx) {
		fail("the cache did not sync")
	}
	emit(map[string]any{"ready": true})
	for lines.Scan() {
		var r read
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
			fail("read line: %v", err)
		}
		emit(answer(ctx, c, r))
	}
}
