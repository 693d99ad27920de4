// Command correlator runs client-go's tools/record at the envtest version, so that tests can
// compare kgen's event recorder with it (tests/unit/test_event_correlator_oracle.py,
// tests/integration/test_events.py).
//
//	correlator correlate [-lru N] [-burst N] [-qps F] [-max-events N] [-interval S]
//
// reads a script on stdin, one JSON object a line:
//
//	{"at": <unix nanoseconds>, "event": <core/v1 Event>, "writtenResourceVersion": "<rv>"}
//
// sets a fake clock to "at", passes the event to one EventCorrelator
// (record.NewEventCorrelatorWithOptions, the flags' options, zero meaning client-go's default)
// and prints one JSON object a line: whether the event is skipped, the event to write, the
// strategic merge patch if it is an update of an earlier one (count > 1, as recordToSink
// decides), client-go's generated name for an event about the involved object at "at"
// (util.GenerateEventName), and the aggregator's set of messages ("local keys") for the event's
// aggregate key after the call. When writtenResourceVersion is not empty and the event is not
// skipped, the write is taken to have succeeded: UpdateState gets the event with that
// resourceVersion, as recordEvent does with the server's answer.
//
// The local keys are read from the aggregator's unexported cache by reflection, read-only (the
// LRU order is not touched): once a group holds 10 messages, client-go forgets one chosen by Go's
// map order, which nothing can seed, and the test replays that choice in kgen.
//
//	correlator record -kubeconfig PATH
//
// reads lines {"object": <an object, e.g. a ConfigMap>, "type": ..., "reason": ...,
// "message": ...} and records each with a real EventBroadcaster, NewRecorder and
// StartRecordingToSink into the apiserver. The last line must be about an object no other line
// mentions (so the correlator lets it through): the program exits once that event is written,
// when every earlier one has been written or dropped.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/tools/record/util"
	clocktesting "k8s.io/utils/clock/testing"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: correlator correlate|record [flags] < script"))
	}
	var err error
	switch os.Args[1] {
	case "correlate":
		err = correlate(os.Args[2:])
	case "record":
		err = recordToServer(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "correlator:", err)
	os.Exit(1)
}

type step struct {
	At                     int64    `json:"at"`
	Event                  v1.Event `json:"event"`
	WrittenResourceVersion string   `json:"writtenResourceVersion"`
}

type outcome struct {
	Skip          bool            `json:"skip"`
	Event         *v1.Event       `json:"event"`
	Update        bool            `json:"update"`
	Patch         json.RawMessage `json:"patch"`
	GeneratedName string          `json:"generatedName"`
	LocalKeys     []string        `json:"localKeys"`
}

func correlate(args []string) error {
	fs := flag.NewFlagSet("correlate", flag.ContinueOnError)
	lru := fs.Int("lru", 0, "LRUCacheSize")
	burst := fs.Int("burst", 0, "BurstSize")
	qps := fs.Float64("qps", 0, "QPS")
	maxEvents := fs.Int("max-events", 0, "MaxEvents")
	interval := fs.Int("interval", 0, "MaxIntervalInSeconds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	clock := clocktesting.NewFakePassiveClock(time.Unix(0, 0))
	correlator := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{
		LRUCacheSize:         *lru,
		BurstSize:            *burst,
		QPS:                  float32(*qps),
		MaxEvents:            *maxEvents,
		MaxIntervalInSeconds: *interval,
		Clock:                clock,
	})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for line := 1; in.Scan(); line++ {
		var s step
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		clock.SetTime(time.Unix(0, s.At))
		result, err := correlator.EventCorrelate(&s.Event)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		o := outcome{
			Skip:          result.Skip,
			GeneratedName: util.GenerateEventName(s.Event.InvolvedObject.Name, s.At),
			LocalKeys:     localKeys(correlator, &s.Event),
		}
		if !result.Skip {
			o.Event = result.Event
			o.Update = result.Event.Count > 1
			if len(result.Patch) > 0 {
				o.Patch = result.Patch
			}
			if s.WrittenResourceVersion != "" {
				written := *result.Event
				written.ResourceVersion = s.WrittenResourceVersion
				correlator.UpdateState(&written)
			}
		}
		if err := out.Encode(o); err != nil {
			return err
		}
	}
	return in.Err()
}

// localKeys reads correlator.aggregator.cache (k8s.io/utils/lru over the forked golang-lru:
// map[key]*list.Element holding *entry{key, value aggregateRecord}) without calling Get, which
// would move the entry in the LRU order.
func localKeys(correlator *record.EventCorrelator, event *v1.Event) []string {
	aggregateKey, _ := record.EventAggregatorByReasonFunc(event)
	lruCache := reflect.ValueOf(correlator).Elem().FieldByName("aggregator").Elem().FieldByName("cache").Elem()
	entries := lruCache.FieldByName("cache").Elem().FieldByName("cache")
	element := entries.MapIndex(reflect.ValueOf(aggregateKey))
	if !element.IsValid() {
		return nil
	}
	record := element.Elem().FieldByName("Value").Elem().Elem().FieldByName("value").Elem()
	keys := []string{}
	for _, k := range record.FieldByName("localKeys").MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	return keys
}

type recordLine struct {
	Object  json.RawMessage `json:"object"`
	Type    string          `json:"type"`
	Reason  string          `json:"reason"`
	Message string          `json:"message"`
}

// doneSink passes writes on to the apiserver and reports when the event about the last line's
// object has been written: recordToSink writes one event at a time, so every earlier one is done.
type doneSink struct {
	record.EventSink
	last string
	once sync.Once
	done chan struct{}
}

func (s *doneSink) Create(event *v1.Event) (*v1.Event, error) {
	created, err := s.EventSink.Create(event)
	if event.InvolvedObject.Name == s.last {
		s.once.Do(func() { close(s.done) })
	}
	return created, err
}

func recordToServer(args []string) error {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "admin kubeconfig")
	component := fs.String("component", "oracle", "the event source's component")
	host := fs.String("host", "", "the event source's host")
	if err := fs.Parse(args); err != nil {
		return err
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	config.QPS, config.Burst = 1000, 1000 // the client's own throttle is not what is compared
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}

	var lines []recordLine
	var objects []runtime.Object
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	for in.Scan() {
		var l recordLine
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			return err
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(l.Object, nil, nil)
		if err != nil {
			return err
		}
		// A typed object comes out of the decoder without its TypeMeta, as from a typed client:
		// GetReference finds apiVersion and kind through the scheme.
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		lines, objects = append(lines, l), append(objects, obj)
	}
	if err := in.Err(); err != nil {
		return err
	}
	if len(lines) == 0 {
		return fmt.Errorf("an empty script")
	}
	var last struct {
		Metadata struct{ Name string } `json:"metadata"`
	}
	if err := json.Unmarshal(lines[len(lines)-1].Object, &last); err != nil {
		return err
	}

	sink := &doneSink{
		EventSink: &typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")},
		last:      last.Metadata.Name,
		done:      make(chan struct{}),
	}
	broadcaster := record.NewBroadcaster(record.WithContext(context.Background()))
	broadcaster.StartRecordingToSink(sink)
	recorder := broadcaster.NewRecorder(scheme.Scheme, v1.EventSource{Component: *component, Host: *host})
	for i, l := range lines {
		recorder.Event(objects[i], l.Type, l.Reason, l.Message)
	}
	select {
	case <-sink.done:
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("the last event was not written within 5 minutes")
	}
	broadcaster.Shutdown()
	return nil
}
