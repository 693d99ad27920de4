// Command etcd is etcd's server, built from the Go module proxy for kgen's test harness.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
