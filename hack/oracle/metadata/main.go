// Command metadata lists a resource through client-go's metadata client, so tests can put kgen's
// metadata client next to client-go's on the same apiserver.
//
//	metadata list -kubeconfig PATH -resource GROUP/VERSION/PLURAL [-namespace NS]
//
// lists the resource ("/v1/pods" for the core group) with metadata.NewForConfig's client, as
// users get it (protobuf first, then JSON), client-side throttling off, and prints one JSON
// object: {"accept":[the Accept header of each request sent], "items":[each item as
// encoding/json writes a metav1.PartialObjectMetadata], "clientGo":"v0.37.2"}.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/clientcmd"
)

type recorder struct {
	next   http.RoundTripper
	mu     sync.Mutex
	accept []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.accept = append(r.accept, req.Header.Get("Accept"))
	r.mu.Unlock()
	return r.next.RoundTrip(req)
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

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "metadata: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 || os.Args[1] != "list" {
		fail("usage: metadata list -kubeconfig PATH -resource GROUP/VERSION/PLURAL [-namespace NS]")
	}
	flags := flag.NewFlagSet("list", flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig path")
	resource := flags.String("resource", "", "GROUP/VERSION/PLURAL (\"/v1/pods\" for the core group)")
	namespace := flags.String("namespace", "", "namespace (empty: every namespace)")
	_ = flags.Parse(os.Args[2:])
	parts := strings.Split(*resource, "/")
	if len(parts) != 3 {
		fail("-resource %q: expected GROUP/VERSION/PLURAL", *resource)
	}
	gvr := schema.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.QPS = -1
	rec := &recorder{}
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec })
	client, err := metadata.NewForConfig(config)
	if err != nil {
		fail("client: %v", err)
	}
	list, err := client.Resource(gvr).Namespace(*namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		fail("list: %v", err)
	}
	out := map[string]any{"accept": rec.accept, "items": list.Items, "clientGo": clientGoVersion()}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("encode: %v", err)
	}
}
