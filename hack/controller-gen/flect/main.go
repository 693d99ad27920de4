// Command flect prints, for each line of stdin, strings.ToLower(flect.Pluralize(line)): the plural
// controller-gen gives a kind (pkg/crd/spec.go), at the flect version controller-tools v0.23.0
// requires. The oracle of generator/manifests/plural.py (tests/integration/test_manifests_plural_vs_flect.py).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/gobuffalo/flect"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		fmt.Fprintln(out, strings.ToLower(flect.Pluralize(in.Text())))
	}
}
