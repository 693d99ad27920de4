// Command goregexp is the oracle for kgen.runtime.apimachinery.golang.regexp: Go's own regexp,
// as kube-openapi compiles an OpenAPI pattern (regexp.Compile) and matches it (MatchString).
//
// Reads JSON lines {"pattern": "...", "texts": [...], "generate": N, "seed": S} on stdin and writes
// one JSON line per case: {"error": "<regexp.Compile's error>" or "", "matches": [MatchString of
// each text], "generated": [N strings drawn from the pattern's syntax tree with seed S]}. The
// generated strings follow the parsed pattern (literals, classes, repetitions, alternations);
// anchors and word boundaries are not enforced, so some of them do not match: the matches are
// the oracle's to tell.
package main

import (
	"bufio"
	"encoding/json"
	"math/rand"
	"os"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

type input struct {
	Pattern  string   `json:"pattern"`
	Texts    []string `json:"texts"`
	Generate int      `json:"generate"`
	Seed     int64    `json:"seed"`
}

type output struct {
	Error     string   `json:"error"`
	Matches   []bool   `json:"matches"`
	Generated []string `json:"generated"`
}

// anyRunes are what "." and the like draw from: ASCII, a newline, Latin-1, Greek, CJK, an emoji.
var anyRunes = []rune("aZ09_-./ \t\n\u00e9\u00df\u03a3\u4e2d\U0001F600")

func draw(re *syntax.Regexp, r *rand.Rand, b *strings.Builder, depth int) {
	if depth > 50 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.Intn(2) == 0 {
				if unicode.IsUpper(c) {
					c = unicode.ToLower(c)
				} else {
					c = unicode.ToUpper(c)
				}
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := r.Intn(len(re.Rune)/2) * 2
		lo, hi := re.Rune[i], re.Rune[i+1]
		span := int64(hi) - int64(lo) + 1
		if span > 1<<20 {
			span = 1 << 20
		}
		c := lo + rune(r.Int63n(span))
		if c >= 0xD800 && c <= 0xDFFF {
			c = lo
		}
		b.WriteRune(c)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		c := anyRunes[r.Intn(len(anyRunes))]
		if c == '\n' && re.Op == syntax.OpAnyCharNotNL {
			c = 'x'
		}
		b.WriteRune(c)
	case syntax.OpCapture:
		draw(re.Sub[0], r, b, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo, hi = 1, 4
		case syntax.OpQuest:
			lo, hi = 0, 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+3 {
				hi = lo + 3
			}
		}
		n := lo + r.Intn(hi-lo+1)
		for k := 0; k < n && b.Len() < 4096; k++ {
			draw(re.Sub[0], r, b, depth+1)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			draw(sub, r, b, depth+1)
		}
	case syntax.OpAlternate:
		draw(re.Sub[r.Intn(len(re.Sub))], r, b, depth+1)
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			panic(err)
		}
		res := output{Matches: []bool{}, Generated: []string{}}
		re, err := regexp.Compile(c.Pattern)
		if err != nil {
			res.Error = err.Error()
		} else {
			for _, t := range c.Texts {
				res.Matches = append(res.Matches, re.MatchString(t))
			}
			if c.Generate > 0 {
				tree, perr := syntax.Parse(c.Pattern, syntax.Perl)
				if perr != nil {
					panic(perr)
				}
				tree = tree.Simplify()
				r := rand.New(rand.NewSource(c.Seed))
				for k := 0; k < c.Generate; k++ {
					var b strings.Builder
					draw(tree, r, &b, 0)
					res.Generated = append(res.Generated, b.String())
				}
			}
		}
		if err := enc.Encode(res); err != nil {
			panic(err)
		}
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
