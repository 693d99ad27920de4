// Command gosort is the oracle for kgen.runtime.apimachinery.gosort: Go's own sort.Sort (pdqsort)
// and sort.Stable (the algorithm of sort.SliceStable) on string keys, with a strict less (a < b) or with strategicpatch's
// SortableSliceOfScalars less (sort.StringsAreSorted([]string{a, b}), that is a <= b, which is
// not a strict order, so the result depends on every step of the algorithm).
//
// Reads JSON lines {"sort": "sort"|"stable", "less": "lt"|"le", "keys": [...]} on stdin and writes
// one line per case: the permutation Go leaves, as the keys' original indices.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"sort"
)

type input struct {
	Sort string   `json:"sort"`
	Less string   `json:"less"`
	Keys []string `json:"keys"`
}

type items struct {
	keys  []string
	index []int
	le    bool
}

func (s items) Len() int { return len(s.keys) }
func (s items) Less(i, j int) bool {
	if s.le {
		return sort.StringsAreSorted([]string{s.keys[i], s.keys[j]})
	}
	return s.keys[i] < s.keys[j]
}
func (s items) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.index[i], s.index[j] = s.index[j], s.index[i]
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024*1024), 64*1024*1024)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			panic(err)
		}
		s := items{keys: c.Keys, index: make([]int, len(c.Keys)), le: c.Less == "le"}
		for i := range s.index {
			s.index[i] = i
		}
		if c.Sort == "stable" {
			sort.Stable(s) // the algorithm of sort.SliceStable (zsortinterface.go / zsortfunc.go)
		} else {
			sort.Sort(s)
		}
		_ = enc.Encode(s.index)
	}
}
