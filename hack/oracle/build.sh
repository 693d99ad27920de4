#!/usr/bin/env bash
# Builds the Go oracle programs (hack/oracle/<name>/main.go, on k8s.io/client-go and
# k8s.io/apimachinery at the envtest version) from the Go module proxy into a cache outside the
# repository, keyed by the client-go version and a hash of the programs' sources. Idempotent.
# Prints the path of the binary on stdout.
#
#   hack/oracle/build.sh NAME        build hack/oracle/NAME if missing, print its path
#   KGEN_CACHE_DIR=...               cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
name="${1:?usage: build.sh NAME}"
[[ -f "$here/$name/main.go" ]] || { echo "build.sh: no oracle program $here/$name/main.go" >&2; exit 1; }
# shellcheck source=../envtest/versions.env
source "$here/../envtest/versions.env"

sources_hash=$(cd "$here" && cat go.mod go.sum "$name"/*.go | sha256sum | cut -c1-16)
cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/oracle/client-go-v0.${KUBERNETES_VERSION#*.}-$name-$sources_hash"

if [[ -x "$dest/$name" ]]; then
  echo "$dest/$name"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build the oracle programs" >&2; exit 1; }

mkdir -p "$cache_root/oracle"
work="$(mktemp -d "$cache_root/oracle/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod -trimpath" GOTOOLCHAIN=local
echo "build.sh: building the $name oracle (first run only)..." >&2
(cd "$here" && go build -ldflags "-s -w" -o "$work/$name" "./$name")
# Swap the finished build in, so an interrupted build never leaves a half-filled cache entry.
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest/$name"
