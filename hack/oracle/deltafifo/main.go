// Command deltafifo prints, as JSON, what client-go's DeltaFIFO offers and does when the process
// function of Pop fails: the exported methods of *cache.DeltaFIFO, and the outcome of one fixed
// scenario: two deltas for a key, a Pop whose process function fails, then a new delta for the
// same key and a Pop (which shows whether the failed deltas were put back).
// tests/unit/test_delta_fifo.py runs kgen's DeltaFIFO through the same scenario and compares.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"

	"k8s.io/client-go/tools/cache"
)

type object struct {
	Name string
	Val  int
}

func describe(item interface{}) []string {
	out := []string{}
	if item == nil {
		return out
	}
	for _, d := range item.(cache.Deltas) {
		o := d.Object.(object)
		out = append(out, fmt.Sprintf("%s %s %d", d.Type, o.Name, o.Val))
	}
	return out
}

func main() {
	methods := []string{}
	t := reflect.TypeOf(&cache.DeltaFIFO{})
	for i := 0; i < t.NumMethod(); i++ {
		methods = append(methods, t.Method(i).Name)
	}
	sort.Strings(methods)

	f := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
		KeyFunction: func(obj interface{}) (string, error) { return obj.(object).Name, nil },
	})
	must(f.Add(object{"foo", 1}))
	must(f.Update(object{"foo", 2}))
	item, err := f.Pop(func(interface{}, bool) error { return errors.New("process failed") })
	failed := map[string]interface{}{"error": fmt.Sprint(err), "popped": describe(item)}
	must(f.Add(object{"foo", 3}))
	next, err := f.Pop(func(interface{}, bool) error { return nil })
	must(err)

	must(json.NewEncoder(os.Stdout).Encode(map[string]interface{}{
		"methods":    methods,
		"failed_pop": failed,
		"next_pop":   describe(next),
	}))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
