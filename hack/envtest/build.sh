#!/usr/bin/env bash
# Builds the envtest binaries (kube-apiserver, etcd) from the Go module proxy into a cache
# outside the repository, keyed by version. Idempotent: a complete cache entry is reused.
# Prints the directory holding the binaries on stdout (setup-envtest's layout).
#
#   hack/envtest/build.sh                 the pinned versions (versions.env): build if missing, print the directory
#   KGEN_ENVTEST_KUBERNETES_VERSION=1.36.1 KGEN_ENVTEST_ETCD_VERSION=3.6.5 hack/envtest/build.sh
#                                         other versions: their Go modules are written on the fly (below)
#   hack/envtest/build.sh --write-modules DIR
#                                         only write the Go modules for the versions asked for (the pinned ones
#                                         too: a test checks this reproduces the checked-in ones), to DIR
#   KGEN_CACHE_DIR=...                    cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
#
# This folder also ships inside kgen's wheel (kgen/envtest/), where `kgen envtest` runs this
# script for projects outside the repository: nothing here may write next to the script.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
pinned_kubernetes="$KUBERNETES_VERSION" pinned_etcd="$ETCD_VERSION"
KUBERNETES_VERSION="${KGEN_ENVTEST_KUBERNETES_VERSION:-$pinned_kubernetes}"
ETCD_VERSION="${KGEN_ENVTEST_ETCD_VERSION:-$pinned_etcd}"

export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod -trimpath" GOTOOLCHAIN=local

# The pinned versions build from the Go modules next to this script (go.sum checked in); other
# versions from modules written the same way they were: k8s.io/kubernetes requires its staging
# modules (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0 and replaces them with its own folders,
# so a module outside it reads that list from its go.mod and replaces each with the matching
# v0.<minor>.<patch> release; then `go get` resolves the rest through the proxy.
kube_apiserver_module() {
  local dir="$1" gomod minor_patch staging
  mkdir -p "$dir" && cd "$dir"
  go mod init kgen.dev/hack/envtest/kube-apiserver 2>/dev/null
  gomod="$(go mod download -json "k8s.io/kubernetes@v${KUBERNETES_VERSION}" | sed -n 's/.*"GoMod": "\([^"]*\)".*/\1/p')"
  [[ -f "$gomod" ]] || { echo "build.sh: no go.mod for k8s.io/kubernetes v${KUBERNETES_VERSION}" >&2; return 1; }
  minor_patch="${KUBERNETES_VERSION#*.}"
  for staging in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$gomod"); do
    go mod edit -replace="${staging}=${staging}@v0.${minor_patch}"
  done
  go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v${KUBERNETES_VERSION}" 2>&1 | grep -v '^go: ' >&2 || true
  go mod tidy
}

etcd_module() {
  local dir="$1"
  mkdir -p "$dir" && cp "$here/etcd/main.go" "$dir/" && cd "$dir"
  go mod init kgen.dev/hack/envtest/etcd 2>/dev/null
  go get "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" 2>&1 | grep -v '^go: ' >&2 || true
  go mod tidy
}

# modules DIR [write]: DIR/kube-apiserver and DIR/etcd, copies of the pinned ones (the script's
# folder may be read-only, and -mod=mod may touch go.mod/go.sum) or written for other versions.
modules() {
  local out="$1" write="${2:-}"
  mkdir -p "$out"
  if [[ "$KUBERNETES_VERSION" == "$pinned_kubernetes" && -z "$write" ]]; then cp -R "$here/kube-apiserver" "$out/"
  else (kube_apiserver_module "$out/kube-apiserver"); fi
  if [[ "$ETCD_VERSION" == "$pinned_etcd" && -z "$write" ]]; then cp -R "$here/etcd" "$out/"
  else (etcd_module "$out/etcd"); fi
}

if [[ "${1:-}" == --write-modules ]]; then
  modules "${2:?usage: build.sh --write-modules DIR}" write
  exit 0
fi

cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/envtest/k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}"

if [[ -x "$dest/kube-apiserver" && -x "$dest/etcd" ]]; then
  echo "$dest"
  exit 0
fi

command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build kube-apiserver and etcd" >&2; exit 1; }

mkdir -p "$cache_root/envtest"
work="$(mktemp -d "$cache_root/envtest/.build.XXXXXX")"
src="$(mktemp -d "$cache_root/envtest/.src.XXXXXX")"
trap 'rm -rf "$work" "$src"' EXIT

minor="${KUBERNETES_VERSION#*.}"; minor="${minor%%.*}"
ver_pkg=k8s.io/component-base/version
ldflags="-s -w \
  -X $ver_pkg.gitVersion=v${KUBERNETES_VERSION} \
  -X $ver_pkg.gitMajor=1 -X $ver_pkg.gitMinor=${minor} \
  -X $ver_pkg.gitTreeState=clean -X $ver_pkg.buildDate=1970-01-01T00:00:00Z"

start=$(date +%s)
echo "build.sh: building kube-apiserver v${KUBERNETES_VERSION} and etcd v${ETCD_VERSION} (first run only)..." >&2
modules "$src"
(cd "$src/kube-apiserver" && go build -ldflags "$ldflags" -o "$work/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
(cd "$src/etcd" && go build -ldflags "-s -w" -o "$work/etcd" .)
rm -rf "$src"
echo "build.sh: built in $(( $(date +%s) - start ))s" >&2

# Swap the finished build in, so an interrupted build never leaves a half-filled cache entry.
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest"
