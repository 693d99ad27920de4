// Command scalebench is client-go's row of kgen's scale bench (bench/scale.py): one typed Pod
// informer, started once in a fresh process, timed and weighed the way the Python clients are.
//
//	scalebench -kubeconfig PATH -namespace NS -objects N [-strip-managed-fields] [-timeout 10m]
//
// builds the clientset as users get it (JSON, HTTP/2; QPS -1, as every client of the bench
// runs unthrottled), connects it (a list with limit 1), runs a full GC (runtime.GC, then
// debug.FreeOSMemory, so freed heap goes back to the OS) and reads VmRSS from /proc/self/status;
// then starts informers.NewSharedInformerFactoryWithOptions(..., WithNamespace(NS)) for Pods,
// with a handler counting adds, and stops the clock once the handler has been handed all N
// objects and its registration has synced (HasSyncedChecker). It then runs the same full GC
// with the cache held and reads VmRSS again, and prints one JSON line:
//
//	{"seconds":1.23,"rssBefore":123,"rssAfter":456,"cached":N,"managedFields":true,"watchList":true,"clientGo":"v0.37.2"}
//
// (managedFields: whether the cached Pods kept their managedFields, as client-go's informers do
// unless a transform drops them).
//
// -strip-managed-fields sets a transform on the informer that drops each object's managedFields
// before it is stored (SetTransform, as controller-runtime's cache offers), for comparing with a
// Python cache that drops them by default.
//
// WatchList is whatever client-go's own feature gate says (KUBE_FEATURE_WatchListClient), as a
// user of this client-go gets it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "scalebench: "+format+"\n", args...)
	os.Exit(2)
}

// residentBytes is VmRSS after a full collection whose freed memory went back to the OS:
// the figure the Python clients read after gc.collect(), from the same file.
func residentBytes() int64 {
	runtime.GC()
	debug.FreeOSMemory()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fail("/proc/self/status: %v", err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				fail("VmRSS: %v", err)
			}
			return kib * 1024
		}
	}
	fail("/proc/self/status has no VmRSS line")
	return 0
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

// wire is the format the Pods came in: protobuf is what client-go's typed clients for built-in
// kinds ask for unless the config sets a ContentType (rest.Request.UseProtobufAsDefault).
func wire(asJSON bool) string {
	if asJSON {
		return "json"
	}
	return "protobuf"
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	namespace := flag.String("namespace", "", "the namespace whose Pods are cached")
	objects := flag.Int("objects", 0, "how many Pods the namespace holds")
	timeout := flag.Duration("timeout", 10*time.Minute, "longest the sync may take")
	strip := flag.Bool("strip-managed-fields", false, "drop managedFields in a transform before caching")
	asJSON := flag.Bool("json", false, "speak JSON (ContentType set) instead of the typed clients' default protobuf")
	flag.Parse()
	if *kubeconfig == "" || *namespace == "" || *objects <= 0 {
		fail("-kubeconfig, -namespace and -objects are required")
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.QPS = -1
	if *asJSON {
		// An explicit ContentType turns off UseProtobufAsDefault in the typed clients.
		config.ContentType = "application/json"
	}
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail("clientset: %v", err)
	}
	if _, err := clientset.CoreV1().Pods(*namespace).List(context.Background(), metav1.ListOptions{Limit: 1}); err != nil {
		fail("connect: %v", err)
	}
	before := residentBytes()

	factory := informers.NewSharedInformerFactoryWithOptions(clientset, 0, informers.WithNamespace(*namespace))
	informer := factory.Core().V1().Pods().Informer()
	if *strip {
		err := informer.SetTransform(func(obj any) (any, error) {
			if m, err := meta.Accessor(obj); err == nil {
				m.SetManagedFields(nil)
			}
			return obj, nil
		})
		if err != nil {
			fail("set transform: %v", err)
		}
	}
	var seen atomic.Int64
	all := make(chan struct{})
	registration, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) {
			if seen.Add(1) == int64(*objects) {
				close(all)
			}
		},
	})
	if err != nil {
		fail("add handler: %v", err)
	}
	stop := make(chan struct{})
	started := time.Now()
	factory.Start(stop)
	select {
	case <-all:
	case <-time.After(*timeout):
		fail("%d of %d objects after %s", seen.Load(), *objects, *timeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if !cache.WaitFor(ctx, "", registration.HasSyncedChecker()) {
		fail("the handler did not sync")
	}
	elapsed := time.Since(started).Seconds()
	after := residentBytes()
	cached := len(informer.GetStore().ListKeys())
	managedFields := false
	for _, obj := range informer.GetStore().List() {
		if pod, ok := obj.(*corev1.Pod); ok && len(pod.ManagedFields) > 0 {
			managedFields = true
			break
		}
	}
	runtime.KeepAlive(informer)

	err = json.NewEncoder(os.Stdout).Encode(map[string]any{
		"seconds": elapsed, "rssBefore": before, "rssAfter": after, "cached": cached, "managedFields": managedFields,
		"watchList": clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient),
		"clientGo":  clientGoVersion(), "wire": wire(*asJSON),
	})
	if err != nil {
		fail("stdout: %v", err)
	}
	close(stop)
	factory.Shutdown()
}
