#!/usr/bin/env bash
# Builds a Go program of this module (hack/controller-runtime/<name>/, on
# sigs.k8s.io/controller-runtime at CONTROLLER_RUNTIME_VERSION and client-go at the envtest
# version, both pinned in go.mod/go.sum) from the Go module proxy into a cache outside the
# repository, keyed by the controller-runtime version and a hash of the module's files and the
# program's sources. These programs are the oracle of kgen.controller: a controller-runtime
# manager run beside kgen's on the same apiserver. Idempotent; prints the path of the binary.
#
#   hack/controller-runtime/build.sh NAME   build hack/controller-runtime/NAME if missing, print its path
#   KGEN_CACHE_DIR=...                      cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
name="${1:?usage: build.sh NAME}"
[[ -f "$here/$name/main.go" ]] || { echo "build.sh: no controller-runtime program $here/$name/main.go" >&2; exit 1; }

CONTROLLER_RUNTIME_VERSION=$(awk '$1 == "sigs.k8s.io/controller-runtime" {print $2}' "$here/go.mod")
sources_hash=$(cd "$here" && cat go.mod go.sum "$name"/*.go | sha256sum | cut -c1-16)
cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/controller-runtime/$CONTROLLER_RUNTIME_VERSION-$name-$sources_hash"

if [[ -x "$dest/$name" ]]; then
  echo "$dest/$name"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build the controller-runtime programs" >&2; exit 1; }

mkdir -p "$cache_root/controller-runtime"
work="$(mktemp -d "$cache_root/controller-runtime/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=readonly -trimpath" GOTOOLCHAIN=local
echo "build.sh: building the $name program on controller-runtime $CONTROLLER_RUNTIME_VERSION (first run only)..." >&2
(cd "$here" && go build -ldflags "-s -w" -o "$work/$name" "./$name")
# Swap the finished build in, so an interrupted build never leaves a half-filled cache entry.
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest/$name"
