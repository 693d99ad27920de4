// Command informer runs client-go's shared informers, so tests and the bench can put kgen's
// informers next to client-go's own on the same apiserver.
//
//	informer watch -kubeconfig PATH -namespace NS [-informer NAME=SELECTOR]... [-resource GVR]
//
// runs one shared informer per -informer flag (default: one named "all" with no label
// selector), each from its own informer factory, with a handler that prints one JSON line per
// call:
//
//	{"informer":"all","handler":"add","name":"a","resourceVersion":"12","isInInitialList":true}
//	{"informer":"all","handler":"update","name":"a","resourceVersion":"13","oldResourceVersion":"12"}
//	{"informer":"all","handler":"delete","name":"a","resourceVersion":"14","tombstone":false}
//
// then {"informer":"all","handler":"synced"} once the handler's registration has synced, and
// {"request":"GET /api/v1/namespaces/ns/configmaps?limit=500&resourceVersion=0"} for each
// request client-go sends (so a test can tell a list from a WatchList watch). Each
// line "dump" on stdin prints every informer's cache, {"informer":"all","cache":{name: rv}},
// and so does the end of stdin, after which the program exits. The first line says which
// client-go is running: {"started":true,"watchList":bool,"clientGo":"v0.37.2"}; the WatchList
// switch is client-go's own feature gate, read from KUBE_FEATURE_WatchListClient as client-go
// reads it. -resource "configmaps" (the default) uses the typed informer factory; any other
// value, "group/version/plural" ("/v1/secrets" for the core group), the dynamic one.
//
//	informer sync-bench -kubeconfig PATH -namespace NS -objects N [-repeats R] [-resource configmaps|pods]
//
// times the initial sync of the namespace's ConfigMaps (or Pods): from the factory's Start until a
// handler has been handed all N objects, with WatchList on and with it off (interleaved, a
// fresh factory each time, one clientset for all runs), and prints
// {"watchList":[seconds...],"list":[seconds...]}.
//
// Both modes use the clientset as users get it (JSON, HTTP/2), with client-side throttling
// off (QPS -1), as kgen's tests and bench do.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: informer watch|sync-bench [flags]")
	}
	switch os.Args[1] {
	case "watch":
		watchMode(os.Args[2:])
	case "sync-bench":
		syncBench(os.Args[2:])
	default:
		fail("unknown mode %q (watch, sync-bench)", os.Args[1])
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "informer: "+format+"\n", args...)
	os.Exit(2)
}

func restConfig(kubeconfig string) *rest.Config {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.QPS = -1
	return config
}

// -- watch ----------------------------------------------------------------------------------

// out writes one JSON value per line; handlers of several informers call it concurrently.
type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) line(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.enc.Encode(v); err != nil {
		fail("stdout: %v", err)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(request *http.Request) (*http.Response, error) { return f(request) }

type spec struct{ name, selector string }

type specs []spec

func (s *specs) String() string { return fmt.Sprint(*s) }

func (s *specs) Set(v string) error {
	name, selector, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=SELECTOR (the selector may be empty), got %q", v)
	}
	*s = append(*s, spec{name, selector})
	return nil
}

type running struct {
	name     string
	informer cache.SharedIndexInformer
}

func watchMode(args []string) {
	flags := flag.NewFlagSet("watch", flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig path")
	namespace := flags.String("namespace", "", "the namespace to watch")
	resource := flags.String("resource", "configmaps", `"configmaps", or group/version/plural for the dynamic informer`)
	var wanted specs
	flags.Var(&wanted, "informer", "NAME=LABELSELECTOR, repeatable (default: all=)")
	_ = flags.Parse(args)
	if *kubeconfig == "" || *namespace == "" {
		fail("watch: -kubeconfig and -namespace are required")
	}
	if len(wanted) == 0 {
		wanted = specs{{"all", ""}}
	}
	o := &out{enc: json.NewEncoder(os.Stdout)}
	o.line(map[string]any{
		"started":   true,
		"watchList": clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient),
		"clientGo":  clientGoVersion(),
	})

	config := restConfig(*kubeconfig)
	config.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripper(func(request *http.Request) (*http.Response, error) {
			o.line(map[string]any{"request": request.Method + " " + request.URL.RequestURI()})
			return next.RoundTrip(request)
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var informers []running
	var shutdowns []func()
	for _, s := range wanted {
		informer, start, shutdown := newInformer(config, *namespace, *resource, s.selector)
		name := s.name
		registration, err := informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
			AddFunc: func(obj any, isInInitialList bool) {
				m := objectMeta(obj)
				o.line(map[string]any{"informer": name, "handler": "add", "name": m.GetName(),
					"resourceVersion": m.GetResourceVersion(), "isInInitialList": isInInitialList})
			},
			UpdateFunc: func(oldObj, newObj any) {
				m := objectMeta(newObj)
				o.line(map[string]any{"informer": name, "handler": "update", "name": m.GetName(),
					"resourceVersion": m.GetResourceVersion(), "oldResourceVersion": objectMeta(oldObj).GetResourceVersion()})
			},
			DeleteFunc: func(obj any) {
				tombstone, isTombstone := obj.(cache.DeletedFinalStateUnknown)
				if isTombstone {
					obj = tombstone.Obj
				}
				m := objectMeta(obj)
				o.line(map[string]any{"informer": name, "handler": "delete", "name": m.GetName(),
					"resourceVersion": m.GetResourceVersion(), "tombstone": isTombstone})
			},
		})
		if err != nil {
			fail("add handler: %v", err)
		}
		start(ctx.Done())
		shutdowns = append(shutdowns, shutdown)
		informers = append(informers, running{name, informer})
		go func() {
			if cache.WaitFor(ctx, "", registration.HasSyncedChecker()) {
				o.line(map[string]any{"informer": name, "handler": "synced"})
			}
		}()
	}

	stdin := bufio.NewScanner(os.Stdin)
	for stdin.Scan() {
		if strings.TrimSpace(stdin.Text()) == "dump" {
			dump(o, informers)
		}
	}
	dump(o, informers)
	cancel()
	for _, shutdown := range shutdowns {
		shutdown()
	}
}

func newInformer(config *rest.Config, namespace, resource, selector string) (cache.SharedIndexInformer, func(<-chan struct{}), func()) {
	tweak := func(options *metav1.ListOptions) { options.LabelSelector = selector }
	if resource == "configmaps" {
		clientset, err := kubernetes.NewForConfig(config)
		if err != nil {
			fail("clientset: %v", err)
		}
		factory := informers.NewSharedInformerFactoryWithOptions(clientset, 0,
			informers.WithNamespace(namespace), informers.WithTweakListOptions(tweak))
		return factory.Core().V1().ConfigMaps().Informer(), factory.Start, factory.Shutdown
	}
	parts := strings.Split(resource, "/")
	if len(parts) != 3 {
		fail("-resource: want configmaps or group/version/plural, got %q", resource)
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		fail("dynamic client: %v", err)
	}
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, namespace, tweak)
	gvr := schema.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}
	return factory.ForResource(gvr).Informer(), factory.Start, factory.Shutdown
}

func objectMeta(obj any) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		fail("not an object: %T: %v", obj, err)
	}
	return m
}

func dump(o *out, informers []running) {
	for _, r := range informers {
		contents := map[string]string{}
		for _, obj := range r.informer.GetStore().List() {
			m := objectMeta(obj)
			contents[m.GetName()] = m.GetResourceVersion()
		}
		o.line(map[string]any{"informer": r.name, "cache": contents})
	}
}

func clientGoVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/client-go" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

// -- sync-bench -----------------------------------------------------------------------------

// watchListGate is client-go's feature gates with WatchListClient switchable between runs.
// Installed before any client-go code reads a gate, so client-go never warns about the swap.
type watchListGate struct {
	base clientfeatures.Gates
	on   atomic.Bool
}

func (g *watchListGate) Enabled(key clientfeatures.Feature) bool {
	if key == clientfeatures.WatchListClient {
		return g.on.Load()
	}
	return g.base.Enabled(key)
}

func syncBench(args []string) {
	flags := flag.NewFlagSet("sync-bench", flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig path")
	namespace := flags.String("namespace", "", "the namespace whose ConfigMaps are listed")
	objects := flags.Int("objects", 0, "how many objects of -resource the namespace holds")
	resource := flags.String("resource", "configmaps", "what the informer lists and watches: configmaps or pods")
	repeats := flags.Int("repeats", 3, "runs per mode")
	timeout := flags.Duration("timeout", 5*time.Minute, "longest one sync may take")
	_ = flags.Parse(args)
	if *kubeconfig == "" || *namespace == "" || *objects <= 0 {
		fail("sync-bench: -kubeconfig, -namespace and -objects are required")
	}
	if *resource != "configmaps" && *resource != "pods" {
		fail("sync-bench: -resource %q: configmaps or pods", *resource)
	}
	gate := &watchListGate{base: clientfeatures.FeatureGates()}
	clientfeatures.ReplaceFeatureGates(gate)
	clientset, err := kubernetes.NewForConfig(restConfig(*kubeconfig))
	if err != nil {
		fail("clientset: %v", err)
	}
	// Connect first: the runs share the clientset's connection, as kgen's runs share theirs.
	if _, err := clientset.CoreV1().RESTClient().Get().Namespace(*namespace).Resource(*resource).Param("limit", "1").DoRaw(context.Background()); err != nil {
		fail("sync-bench: %v", err)
	}
	results := map[string][]float64{"watchList": nil, "list": nil}
	for i := 0; i < *repeats; i++ {
		for _, watchList := range []bool{true, false} {
			gate.on.Store(watchList)
			seconds := timeSync(clientset, *namespace, *resource, *objects, *timeout)
			key := "list"
			if watchList {
				key = "watchList"
			}
			results[key] = append(results[key], seconds)
		}
	}
	for _, v := range results {
		sort.Float64s(v)
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		fail("stdout: %v", err)
	}
}

// timeSync starts a fresh informer factory and returns the seconds until its handler has been
// handed every one of the objects and its registration has synced.
func timeSync(clientset kubernetes.Interface, namespace, resource string, objects int, timeout time.Duration) float64 {
	factory := informers.NewSharedInformerFactoryWithOptions(clientset, 0, informers.WithNamespace(namespace))
	defer factory.Shutdown()
	informer := factory.Core().V1().ConfigMaps().Informer()
	if resource == "pods" {
		informer = factory.Core().V1().Pods().Informer()
	}
	var seen atomic.Int64
	all := make(chan struct{})
	registration, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) {
			if seen.Add(1) == int64(objects) {
				close(all)
			}
		},
	})
	if err != nil {
		fail("add handler: %v", err)
	}
	stop := make(chan struct{})
	defer close(stop)
	started := time.Now()
	factory.Start(stop)
	select {
	case <-all:
	case <-time.After(timeout):
		fail("sync-bench: %d of %d objects after %s", seen.Load(), objects, timeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if !cache.WaitFor(ctx, "", registration.HasSyncedChecker()) {
		fail("sync-bench: the handler did not sync")
	}
	return time.Since(started).Seconds()
}
