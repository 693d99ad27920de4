// Command metrics runs a controller-runtime manager with what controller-runtime measures by
// default: leader election on a Lease, one controller (ConfigMaps, in one namespace), one
// admission webhook served over TLS (the webhook server's certificate watcher reading CertDir),
// and the metrics server. tests/integration/test_controller_metrics_vs_controller_runtime.py
// runs the same workload on kgen's manager and compares both /metrics bodies (names, types and
// label names).
//
//	metrics -kubeconfig-path PATH -namespace NS -lease NAME -metrics-addr 127.0.0.1:PORT
//	        -webhook-port PORT -cert-dir DIR
//
// The webhook is served at /validate--v1-configmap and allows every request. The program prints
// {"started":true,"controllerRuntime":"v0.25.3"} once the manager is built, and runs until its
// stdin ends; then it cancels the manager's context, waits for Start to return, prints
// {"done":true} and exits.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/debug"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "metrics: "+format+"\n", args...)
	os.Exit(2)
}

func emit(line map[string]any) {
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		os.Exit(1)
	}
}

func version(module string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == module {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	kubeconfig := flag.String("kubeconfig-path", "", "the apiserver's kubeconfig (controller-runtime registers -kubeconfig itself)")
	namespace := flag.String("namespace", "", "the namespace the cache, the controller and the Lease use")
	lease := flag.String("lease", "", "the leader election Lease's name")
	metricsAddr := flag.String("metrics-addr", "", "the metrics server's host:port")
	webhookPort := flag.Int("webhook-port", 0, "the webhook server's port (on 127.0.0.1)")
	certDir := flag.String("cert-dir", "", "the folder holding tls.crt and tls.key")
	flag.Parse()
	if *kubeconfig == "" || *namespace == "" || *lease == "" || *metricsAddr == "" || *webhookPort == 0 || *certDir == "" {
		fail("-kubeconfig-path, -namespace, -lease, -metrics-addr, -webhook-port and -cert-dir are required")
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("loading %s: %v", *kubeconfig, err)
	}
	mgr, err := ctrl.NewManager(config, ctrl.Options{
		Cache:                   cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}},
		Metrics:                 metricsserver.Options{BindAddress: *metricsAddr},
		HealthProbeBindAddress:  "0",
		LeaderElection:          true,
		LeaderElectionID:        *lease,
		LeaderElectionNamespace: *namespace,
		WebhookServer:           webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: *webhookPort, CertDir: *certDir}),
	})
	if err != nil {
		fail("building the manager: %v", err)
	}
	err = ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("configmap").Complete(
		reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }),
	)
	if err != nil {
		fail("building the controller: %v", err)
	}
	mgr.GetWebhookServer().Register("/validate--v1-configmap", &webhook.Admission{
		Handler: admission.HandlerFunc(func(context.Context, admission.Request) admission.Response {
			return admission.Allowed("")
		}),
	})
	if err := mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker()); err != nil {
		fail("adding the readiness check: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
		}
		cancel()
	}()
	emit(map[string]any{"started": true, "controllerRuntime": version("sigs.k8s.io/controller-runtime")})
	if err := mgr.Start(ctx); err != nil {
		fail("the manager stopped: %v", err)
	}
	emit(map[string]any{"done": true})
}
