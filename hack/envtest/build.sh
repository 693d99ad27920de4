#!/usr/bin/env bash
# Builds the envtest binaries (kube-apiserver, etcd) from the Go module proxy into a cache
# outside the repository, keyed by version. Idempotent: a complete cache entry is reused.
# Prints the directory holding the binaries on stdout (setup-envtest's layout).
#
#   hack/envtest/build.sh            build if missing, print the directory
#   KGEN_CACHE_DIR=...               cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
#
# This folder also ships inside kgen's wheel (kgen/envtest/), where `kgen envtest` runs this
# script for projects outside the repository: nothing here may write next to the script.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"

cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/envtest/k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}"

if [[ -x "$dest/kube-apiserver" && -x "$dest/etcd" ]]; then
  echo "$dest"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build kube-apiserver and etcd" >&2; exit 1; }

mkdir -p "$cache_root/envtest"
work="$(mktemp -d "$cache_root/envtest/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod -trimpath" GOTOOLCHAIN=local
minor="${KUBERNETES_VERSION#*.}"; minor="${minor%%.*}"
ver_pkg=k8s.io/component-base/version
ldflags="-s -w \
  -X $ver_pkg.gitVersion=v${KUBERNETES_VERSION} \
  -X $ver_pkg.gitMajor=1 -X $ver_pkg.gitMinor=${minor} \
  -X $ver_pkg.gitTreeState=clean -X $ver_pkg.buildDate=1970-01-01T00:00:00Z"

start=$(date +%s)
echo "build.sh: building kube-apiserver v${KUBERNETES_VERSION} and etcd v${ETCD_VERSION} (first run only)..." >&2
# Build from copies of the Go modules: the script's own folder may be read-only (an installed
# wheel), and -mod=mod may touch go.mod/go.sum.
src="$(mktemp -d "$cache_root/envtest/.src.XXXXXX")"
trap 'rm -rf "$work" "$src"' EXIT
cp -R "$here/kube-apiserver" "$here/etcd" "$src/"
(cd "$src/kube-apiserver" && go build -ldflags "$ldflags" -o "$work/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
(cd "$src/etcd" && go build -ldflags "-s -w" -o "$work/etcd" .)
rm -rf "$src"
echo "build.sh: built in $(( $(date +%s) - start ))s" >&2

# Swap the finished build in, so an interrupted build never leaves a half-filled cache entry.
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest"
