#!/usr/bin/env bash
# Builds a whole test cluster's binaries from the Go module proxy, beside the envtest ones:
# kube-controller-manager, kube-scheduler and kubectl from the same k8s.io/kubernetes module and
# version as kube-apiserver, and kwok (simulated nodes) with kwok-exec.patch applied. Caches
# outside the repository, keyed by version; idempotent; each cache entry is built in a temporary
# folder and renamed into place, so a failed or interrupted build leaves none.
#
#   hack/envtest/cluster.sh        the pinned versions (versions.env); prints the cluster folder:
#       <cache>/cluster/k8s-<kubernetes>-etcd-<etcd>-kwok-<kwok>-<patch>/
#         etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok   (links)
#         kwok-stages/*.yaml   kwok's default Stages (node initialize, heartbeat with lease, pod fast)
#         kwok-crds/*.yaml     kwok's CRDs (ClusterExec, ClusterLogs, ClusterPortForward, ...)
#   KGEN_ENVTEST_KUBERNETES_VERSION / KGEN_ENVTEST_ETCD_VERSION / KGEN_CACHE_DIR as for build.sh.
#
# Where each part lives in the cache (so another version, etcd or patch rebuilds only its part):
#   <cache>/envtest/k8s-<kubernetes>-etcd-<etcd>/    build.sh's
#   <cache>/cluster/k8s-<kubernetes>/                kube-controller-manager kube-scheduler kubectl
#   <cache>/kwok/v<kwok>-<patch>/                    kwok kwok-stages/ kwok-crds/
# <patch> is the first 12 hex digits of kwok-exec.patch's SHA-256: a changed patch is a new build.
#
# Shipped in kgen's wheel as kgen/envtest/ with build.sh: nothing here writes next to the script.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
pinned_kubernetes="$KUBERNETES_VERSION"
KUBERNETES_VERSION="${KGEN_ENVTEST_KUBERNETES_VERSION:-$pinned_kubernetes}"
ETCD_VERSION="${KGEN_ENVTEST_ETCD_VERSION:-$ETCD_VERSION}"

export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod -trimpath" GOTOOLCHAIN=local

cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
patch_id="$(sha256sum "$here/kwok-exec.patch" | cut -c1-12)"
envtest_dir="$cache_root/envtest/k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}"
k8s_dir="$cache_root/cluster/k8s-${KUBERNETES_VERSION}"
kwok_dir="$cache_root/kwok/v${KWOK_VERSION}-${patch_id}"
dest="$cache_root/cluster/k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}-kwok-${KWOK_VERSION}-${patch_id}"

k8s_binaries=(kube-controller-manager kube-scheduler kubectl)

complete() {
  local dir="$1" name
  shift
  for name in "$@"; do [[ -x "$dir/$name" ]] || return 1; done
}

need_go() {
  command -v go >/dev/null || {
    echo "cluster.sh: the Go toolchain is needed to build $1 (install Go, then run this again)" >&2
    exit 1
  }
}

# Temporary folders of this run, removed on any exit (a finished build has renamed its own away).
temps=()
cleanup() { ((${#temps[@]})) && rm -rf "${temps[@]}"; return 0; }
trap cleanup EXIT
# tempdir VAR PARENT: VAR names a new temporary folder in PARENT (set here, not through $(...),
# whose subshell would keep the folder off the list the EXIT trap removes).
tempdir() { printf -v "$1" '%s' "$(mktemp -d "$2/.build.XXXXXX")"; temps+=("${!1}"); }

# swap_in WORK DEST: renames the finished build into place (atomic on one file system).
swap_in() { chmod 755 "$1"; rm -rf "$2"; mv "$1" "$2"; }

seconds() { echo $(( $(date +%s) - $1 )); }

# 1. etcd + kube-apiserver: build.sh's own cache entry (it prints its folder last).
# (Through bash: installed from kgen's wheel, the scripts lose their executable bit.)
built_envtest="$(KGEN_CACHE_DIR="$cache_root" KGEN_ENVTEST_KUBERNETES_VERSION="$KUBERNETES_VERSION" \
  KGEN_ENVTEST_ETCD_VERSION="$ETCD_VERSION" bash "$here/build.sh" | tail -n 1)"
[[ "$built_envtest" == "$envtest_dir" ]] || { echo "cluster.sh: build.sh printed $built_envtest, expected $envtest_dir" >&2; exit 1; }

# 2. kube-controller-manager, kube-scheduler, kubectl: same module, versions and flags as the
# apiserver (its Go module: the checked-in one for the pinned version, else build.sh writes it).
if ! complete "$k8s_dir" "${k8s_binaries[@]}"; then
  need_go "kube-controller-manager, kube-scheduler and kubectl"
  mkdir -p "$cache_root/cluster"
  tempdir work "$cache_root/cluster"
  tempdir src "$cache_root/cluster"
  if [[ "$KUBERNETES_VERSION" == "$pinned_kubernetes" ]]; then
    cp -R "$here/kube-apiserver" "$src/"
  else
    KGEN_ENVTEST_KUBERNETES_VERSION="$KUBERNETES_VERSION" KGEN_ENVTEST_ETCD_VERSION="$ETCD_VERSION" \
      bash "$here/build.sh" --write-modules "$src"
  fi
  minor="${KUBERNETES_VERSION#*.}"; minor="${minor%%.*}"
  ver_pkg=k8s.io/component-base/version
  # The version variables kubectl prints (`kubectl version`; a plain build says v0.0.0-master and
  # its version command fails) and the controllers report to the apiserver.
  ldflags="-s -w \
    -X $ver_pkg.gitVersion=v${KUBERNETES_VERSION} \
    -X $ver_pkg.gitMajor=1 -X $ver_pkg.gitMinor=${minor} \
    -X $ver_pkg.gitTreeState=clean -X $ver_pkg.buildDate=1970-01-01T00:00:00Z"
  for binary in "${k8s_binaries[@]}"; do
    start=$(date +%s)
    echo "cluster.sh: building $binary v${KUBERNETES_VERSION} (first run only)..." >&2
    (cd "$src/kube-apiserver" && go build -ldflags "$ldflags" -o "$work/$binary" "k8s.io/kubernetes/cmd/$binary")
    echo "cluster.sh: built $binary in $(seconds "$start")s" >&2
  done
  swap_in "$work" "$k8s_dir"
fi

# 3. kwok from its module's source with kwok-exec.patch applied (the two exec defects of v0.8.0:
# a command's exit code reached kubectl as an internal error, and stdin never reached EOF), plus
# the default Stages and the CRDs from its module's kustomize folder.
if ! complete "$kwok_dir" kwok || [[ ! -d "$kwok_dir/kwok-stages" || ! -d "$kwok_dir/kwok-crds" ]]; then
  need_go "kwok"
  command -v patch >/dev/null || { echo "cluster.sh: the patch tool is needed to apply kwok-exec.patch to kwok's source" >&2; exit 1; }
  mkdir -p "$cache_root/kwok"
  tempdir work "$cache_root/kwok"
  tempdir src "$cache_root/kwok"
  module="$(cd "$src" && go mod download -json "sigs.k8s.io/kwok@v${KWOK_VERSION}" | sed -n 's/.*"Dir": "\([^"]*\)".*/\1/p')"
  [[ -d "$module" ]] || { echo "cluster.sh: sigs.k8s.io/kwok v${KWOK_VERSION} not found on the module proxy" >&2; exit 1; }
  # The module cache is read-only: patch a copy.
  cp -R "$module" "$src/kwok" && chmod -R u+w "$src/kwok"
  patch -d "$src/kwok" -p1 --quiet --forward <"$here/kwok-exec.patch" || {
    echo "cluster.sh: kwok-exec.patch does not apply to sigs.k8s.io/kwok v${KWOK_VERSION}" >&2; exit 1; }
  start=$(date +%s)
  echo "cluster.sh: building kwok v${KWOK_VERSION} with kwok-exec.patch (first run only)..." >&2
  (cd "$src/kwok" && go build -ldflags "-s -w" -o "$work/kwok" ./cmd/kwok)
  echo "cluster.sh: built kwok in $(seconds "$start")s" >&2
  mkdir -p "$work/kwok-stages" "$work/kwok-crds"
  # kustomize/stage/fast's set: standalone kwok has no built-in Stages ("no stages found").
  stage="$src/kwok/kustomize/stage"
  cp "$stage/node/fast/node-initialize.yaml" "$stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml" \
    "$stage/pod/fast/pod-ready.yaml" "$stage/pod/fast/pod-complete.yaml" "$stage/pod/fast/pod-delete.yaml" \
    "$work/kwok-stages/"
  cp "$src/kwok/kustomize/crd/bases/"*.yaml "$work/kwok-crds/"
  swap_in "$work" "$kwok_dir"
fi

# 4. The folder users and the harness read: links to the three cache entries.
if [[ ! -d "$dest" ]]; then
  mkdir -p "$cache_root/cluster"
  tempdir work "$cache_root/cluster"
  for binary in etcd kube-apiserver; do ln -s "$envtest_dir/$binary" "$work/$binary"; done
  for binary in "${k8s_binaries[@]}"; do ln -s "$k8s_dir/$binary" "$work/$binary"; done
  for part in kwok kwok-stages kwok-crds; do ln -s "$kwok_dir/$part" "$work/$part"; done
  swap_in "$work" "$dest"
fi
echo "$dest"
