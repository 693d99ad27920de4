#!/usr/bin/env bash
# Builds the Go oracle programs that need k8s.io/kubernetes itself (hack/oracle-k8s/<name>/main.go,
# e.g. the apiserver's defaulting of built-in kinds) into a cache outside the repository, keyed by
# the Kubernetes version and a hash of the program's source. Idempotent. Prints the binary's path.
#
# k8s.io/kubernetes requires its staging modules at v0.0.0, so the module is the one
# hack/envtest/build.sh writes for kube-apiserver (its replace directives pin each staging module
# to v0.<minor>.<patch>): the checked-in one for the pinned version, one written through the proxy
# (hack/envtest/build.sh --write-modules) for another.
#
#   hack/oracle-k8s/build.sh NAME                                   the pinned version (versions.env)
#   KGEN_ENVTEST_KUBERNETES_VERSION=1.34.4 hack/oracle-k8s/build.sh NAME
#   KGEN_CACHE_DIR=...                                              cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
envtest="$here/../envtest"
name="${1:?usage: build.sh NAME}"
[[ -f "$here/$name/main.go" ]] || { echo "build.sh: no oracle program $here/$name/main.go" >&2; exit 1; }
# shellcheck source=../envtest/versions.env
source "$envtest/versions.env"
version="${KGEN_ENVTEST_KUBERNETES_VERSION:-$KUBERNETES_VERSION}"

sources_hash=$(cat "$here/build.sh" "$here/$name"/*.go | sha256sum | cut -c1-16)
cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/oracle-k8s/k8s-${version}-$name-$sources_hash"
if [[ -x "$dest/$name" ]]; then
  echo "$dest/$name"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build the oracle programs" >&2; exit 1; }

mkdir -p "$cache_root/oracle-k8s"
work="$(mktemp -d "$cache_root/oracle-k8s/.build.XXXXXX")"
src="$(mktemp -d "$cache_root/oracle-k8s/.src.XXXXXX")"
trap 'rm -rf "$work" "$src"' EXIT
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod -trimpath" GOTOOLCHAIN=local
echo "build.sh: building the $name oracle for Kubernetes $version (first run only)..." >&2
if [[ "$version" == "$KUBERNETES_VERSION" ]]; then
  cp "$envtest/kube-apiserver/go.mod" "$envtest/kube-apiserver/go.sum" "$src/"
else
  # Only the kube-apiserver module is needed; --write-modules also writes etcd's (cheap, cached).
  KGEN_ENVTEST_KUBERNETES_VERSION="$version" "$envtest/build.sh" --write-modules "$src/modules" >&2
  cp "$src/modules/kube-apiserver/go.mod" "$src/modules/kube-apiserver/go.sum" "$src/"
fi
mkdir -p "$src/$name" && cp "$here/$name"/*.go "$src/$name/"
(cd "$src" && go mod edit -module "kgen.dev/hack/oracle-k8s" -droptool k8s.io/kubernetes/cmd/kube-apiserver \
  && go mod tidy >&2 && go build -ldflags "-s -w" -o "$work/$name" "./$name")
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
rm -rf "$src"
echo "$dest/$name"
