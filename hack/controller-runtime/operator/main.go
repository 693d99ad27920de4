// Command operator is the operator bench's workload on controller-runtime (bench/operator_bench.py,
// the "controller-runtime" row): the same reconcile as bench/operator_kgen.py, written as a
// kubebuilder project writes it.
//
// For every Widget (bench.kgen.dev/v1, bench/widget_crd): a ConfigMap of the Widget's name,
// controlled by it (controllerutil.SetControllerReference), whose data is spec.data; then
// status.observed = the Widget's metadata.generation, through the status subresource.
//
// Settings, and why (the same as bench/operator_kgen.py's):
//
//   - For(&Widget{}).Owns(&corev1.ConfigMap{}): Widgets and ConfigMaps are read from the
//     manager's cache (informers), so a reconcile costs only its writes.
//   - cache.Options.DefaultNamespaces: the cache watches the bench's namespace only.
//   - No leader election, no metrics or health-probe servers, no Events.
//   - No client-side throttling: controller-runtime's default (ctrl.GetConfig leaves QPS at -1).
//   - MaxConcurrentReconciles: the bench's -workers; everything else at controller-runtime's
//     defaults (its priority queue, its rate limiter).
//
// The Widget types (types.go) are a small hand-written typed struct, what a kubebuilder project's
// api/v1 package and controller-gen's object generator would hold, so the cache holds typed
// objects. bench/operator_report.py counts this file's lines as user code, not types.go's (kgen's
// Widget types are generated too), and leaves out lines ending in "// bench-only" (the reconcile
// counter and the command line), the bench's harness.
//
//	operator -kubeconfig PATH -namespace NS -workers N
//
// Runs until SIGTERM or SIGINT; then prints {"reconciles": N} (Reconcile calls) on stdout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2/textlogger"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

type reconciler struct {
	client.Client
	scheme     *runtime.Scheme
	reconciles atomic.Int64 // bench-only
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.reconciles.Add(1) // bench-only
	var widget Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		// Deleted: the garbage collector removes its ConfigMap.
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	data := widget.Spec.Data
	var configMap corev1.ConfigMap
	err := r.Get(ctx, req.NamespacedName, &configMap)
	switch {
	case apierrors.IsNotFound(err):
		configMap = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}, Data: data}
		if err := controllerutil.SetControllerReference(&widget, &configMap, r.scheme); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, &configMap); err != nil {
			if apierrors.IsAlreadyExists(err) {
				// Created meanwhile: read it from the cache again.
				return ctrl.Result{Requeue: true}, nil //nolint:staticcheck // kgen's Result(requeue=True)
			}
			return ctrl.Result{}, err
		}
	case err != nil:
		return ctrl.Result{}, err
	case !maps.Equal(configMap.Data, data): // nil and empty compare equal, as kgen's `or {}`
		configMap.Data = data
		if err := controllerutil.SetControllerReference(&widget, &configMap, r.scheme); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Update(ctx, &configMap); err != nil {
			return ctrl.Result{}, err
		}
	}
	status := WidgetStatus{Observed: widget.Generation, ConfigMap: req.Name}
	if widget.Status != status {
		widget.Status = status // the cache handed out a deep copy: ours to change
		if err := r.Status().Update(ctx, &widget); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "operator: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	// -kubeconfig is controller-runtime's own flag (pkg/client/config registers it), read by GetConfig.
	namespace := flag.String("namespace", "", "the namespace the cache and the controller watch") // bench-only
	workers := flag.Int("workers", 4, "MaxConcurrentReconciles")                                  // bench-only
	flag.Parse()                                                                                  // bench-only
	if *namespace == "" {                                                                         // bench-only
		fail("-namespace is required") // bench-only
	} // bench-only
	ctrl.SetLogger(textlogger.NewLogger(textlogger.NewConfig()))

	// GetConfig leaves a kubeconfig without qps unthrottled (QPS -1), controller-runtime's default.
	config, err := ctrl.GetConfig()
	if err != nil {
		fail("reading the kubeconfig: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		fail("%v", err)
	}
	scheme.AddKnownTypes(GroupVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(scheme, GroupVersion)

	manager, err := ctrl.NewManager(config, ctrl.Options{
		Scheme:                 scheme,
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}},
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		fail("new manager: %v", err)
	}
	r := &reconciler{Client: manager.GetClient(), scheme: scheme}
	err = ctrl.NewControllerManagedBy(manager).
		For(&Widget{}).
		Owns(&corev1.ConfigMap{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: *workers}).
		Complete(r)
	if err != nil {
		fail("new controller: %v", err)
	}
	if err := manager.Start(ctrl.SetupSignalHandler()); err != nil {
		fail("manager: %v", err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]int64{"reconciles": r.reconciles.Load()}); err != nil { // bench-only
		os.Exit(1) // bench-only
	} // bench-only
}
