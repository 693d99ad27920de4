// Command leaderelection runs client-go's leader election on a Lease, so tests can put kgen's
// electors next to client-go's own on the same apiserver and the same Lease.
//
//	leaderelection -kubeconfig PATH -namespace NS -name LOCK -identity ID
//	               [-lease-duration 15s] [-renew-deadline 10s] [-retry-period 2s] [-release-on-cancel]
//
// runs resourcelock.LeaseLock with an event recorder writing to the apiserver (component
// "leaderelection-oracle") and prints one JSON line per callback:
//
//	{"started":true,"clientGo":"v0.37.2"}
//	{"callback":"new_leader","identity":"a"}
//	{"callback":"started_leading"}
//	{"callback":"stopped_leading"}
//
// A line "stop" on stdin, or the end of stdin, cancels the election's context (the lease is
// released with -release-on-cancel); once Run has returned and every event it recorded is on the
// server (the broadcaster writes from a goroutine that an exiting process would cut short), it
// prints {"done":true}, and exits at the end of stdin.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/tools/record"
)

var out = struct {
	sync.Mutex
	enc *json.Encoder
}{enc: json.NewEncoder(os.Stdout)}

func emit(line map[string]any) {
	out.Lock()
	defer out.Unlock()
	if err := out.enc.Encode(line); err != nil {
		os.Exit(1)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "leaderelection: "+format+"\n", args...)
	os.Exit(2)
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

// countingRecorder remembers the messages the lock records, so the program can wait until the
// broadcaster has written them.
type countingRecorder struct {
	record.EventRecorder
	mu       sync.Mutex
	messages []string
}

func (r *countingRecorder) Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any) {
	r.mu.Lock()
	r.messages = append(r.messages, fmt.Sprintf(messageFmt, args...))
	r.mu.Unlock()
	r.EventRecorder.Eventf(obj, eventType, reason, messageFmt, args...)
}

// waitForEvents polls the namespace's Events until every recorded message is there (30 s at most).
func waitForEvents(client kubernetes.Interface, namespace string, recorder *countingRecorder) {
	recorder.mu.Lock()
	want := append([]string(nil), recorder.messages...)
	recorder.mu.Unlock()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		list, err := client.CoreV1().Events(namespace).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			continue
		}
		have := map[string]bool{}
		for _, e := range list.Items {
			if e.Source.Component == "leaderelection-oracle" {
				have[e.Message] = true
			}
		}
		missing := 0
		for _, m := range want {
			if !have[m] {
				missing++
			}
		}
		if missing == 0 {
			return
		}
	}
	fail("the recorded events %v did not reach the server within 30s", want)
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	namespace := flag.String("namespace", "default", "the Lease's namespace")
	name := flag.String("name", "", "the Lease's name")
	identity := flag.String("identity", "", "this candidate's identity")
	leaseDuration := flag.Duration("lease-duration", 15*time.Second, "LeaseDuration")
	renewDeadline := flag.Duration("renew-deadline", 10*time.Second, "RenewDeadline")
	retryPeriod := flag.Duration("retry-period", 2*time.Second, "RetryPeriod")
	releaseOnCancel := flag.Bool("release-on-cancel", false, "ReleaseOnCancel")
	flag.Parse()
	if *name == "" || *identity == "" {
		fail("-name and -identity are required")
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.QPS = -1
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail("clientset: %v", err)
	}
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	recorder := &countingRecorder{EventRecorder: broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "leaderelection-oracle"})}

	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: *namespace, Name: *name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: *identity, EventRecorder: recorder},
	}
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   *leaseDuration,
		RenewDeadline:   *renewDeadline,
		RetryPeriod:     *retryPeriod,
		ReleaseOnCancel: *releaseOnCancel,
		Name:            *name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { emit(map[string]any{"callback": "started_leading"}) },
			OnStoppedLeading: func() { emit(map[string]any{"callback": "stopped_leading"}) },
			OnNewLeader:      func(id string) { emit(map[string]any{"callback": "new_leader", "identity": id}) },
		},
	})
	if err != nil {
		fail("config: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	stdinDone := make(chan struct{})
	go func() {
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
			if strings.TrimSpace(scanner.Text()) == "stop" {
				cancel()
			}
		}
		cancel()
		close(stdinDone)
	}()
	emit(map[string]any{"started": true, "clientGo": clientGoVersion()})
	elector.Run(ctx)
	waitForEvents(client, *namespace, recorder)
	emit(map[string]any{"done": true})
	<-stdinDone
	broadcaster.Shutdown()
}
