// Command restclient sends requests with client-go's RESTClient and prints what client-go's
// metrics saw, so tests can put kgen's retry decisions and URL templates next to client-go's.
//
//	restclient -server URL -ca FILE [-qps Q -burst B] [-timeout D]
//
// The bearer token comes from the KGEN_ORACLE_TOKEN environment variable (never argv). Each
// line on stdin is one request,
//
//	{"verb":"GET","path":"/api/v1/namespaces/ns/configmaps","params":[["limit","1"]],"body":"...","watch":false}
//
// sent with AbsPath, Param and Body (a watch with Watch, stopped at once, else Do), and
// answered by one line on stdout:
//
//	{"error":"...","code":404,"results":[["200","GET","host"]],"retries":[],
//	 "latency":[["GET","https://host/api/v1/namespaces/%7Bnamespace%7D/configmaps"]],
//	 "rateLimiter":[["GET","..."]],"seconds":0.01}
//
// results, retries, latency and rateLimiter are the calls client-go made to the
// RequestResult, RequestRetry, RequestLatency and RateLimiterLatency metrics (tools/metrics)
// during that request, in order; code is the HTTP status of an API error, else 0.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/metrics"
)

type request struct {
	Verb   string      `json:"verb"`
	Path   string      `json:"path"`
	Params [][2]string `json:"params"`
	Body   *string     `json:"body"`
	Watch  bool        `json:"watch"`
}

type answer struct {
	Error       *string     `json:"error"`
	Code        int32       `json:"code"`
	Results     [][3]string `json:"results"`
	Retries     [][3]string `json:"retries"`
	Latency     [][2]string `json:"latency"`
	RateLimiter [][2]string `json:"rateLimiter"`
	Seconds     float64     `json:"seconds"`
}

type recorder struct {
	mu sync.Mutex
	a  answer
}

type latency struct {
	r       *recorder
	limiter bool
}

func (l latency) Observe(_ context.Context, verb string, u url.URL, _ time.Duration) {
	l.r.mu.Lock()
	defer l.r.mu.Unlock()
	if l.limiter {
		l.r.a.RateLimiter = append(l.r.a.RateLimiter, [2]string{verb, u.String()})
	} else {
		l.r.a.Latency = append(l.r.a.Latency, [2]string{verb, u.String()})
	}
}

type result struct{ r *recorder }

func (m result) Increment(_ context.Context, code, method, host string) {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	m.r.a.Results = append(m.r.a.Results, [3]string{code, method, host})
}

func (m result) IncrementRetry(_ context.Context, code, method, host string) {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	m.r.a.Retries = append(m.r.a.Retries, [3]string{code, method, host})
}

func main() {
	server := flag.String("server", "", "the apiserver's URL")
	ca := flag.String("ca", "", "the CA file")
	qps := flag.Float64("qps", -1, "client-side QPS (-1: no limiter)")
	burst := flag.Int("burst", 1, "client-side burst")
	timeout := flag.Duration("timeout", 0, "rest.Config.Timeout")
	flag.Parse()

	rec := &recorder{}
	metrics.Register(metrics.RegisterOpts{
		RequestLatency:     latency{r: rec},
		RateLimiterLatency: latency{r: rec, limiter: true},
		RequestResult:      result{r: rec},
		RequestRetry:       result{r: rec},
	})
	config := &rest.Config{
		Host:            *server,
		BearerToken:     os.Getenv("KGEN_ORACLE_TOKEN"),
		TLSClientConfig: rest.TLSClientConfig{CAFile: *ca},
		QPS:             float32(*qps),
		Burst:           *burst,
		Timeout:         *timeout,
	}
	config.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	client, err := rest.UnversionedRESTClientFor(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r := client.Verb(req.Verb).AbsPath(req.Path)
		for _, p := range req.Params {
			r = r.Param(p[0], p[1])
		}
		if req.Body != nil {
			r = r.Body([]byte(*req.Body))
		}
		started := time.Now()
		if req.Watch {
			w, werr := r.Watch(context.Background())
			if werr == nil {
				w.Stop()
			}
			err = werr
		} else {
			err = r.Do(context.Background()).Error()
		}
		rec.mu.Lock()
		a := rec.a
		rec.a = answer{}
		rec.mu.Unlock()
		a.Seconds = time.Since(started).Seconds()
		if err != nil {
			text := err.Error()
			a.Error = &text
			if status, ok := err.(apierrors.APIStatus); ok {
				a.Code = status.Status().Code
			}
		}
		for _, list := range []*[][3]string{&a.Results, &a.Retries} {
			if *list == nil {
				*list = [][3]string{}
			}
		}
		for _, list := range []*[][2]string{&a.Latency, &a.RateLimiter} {
			if *list == nil {
				*list = [][2]string{}
			}
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}
