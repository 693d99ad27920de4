#!/usr/bin/env bash
# Builds controller-gen (sigs.k8s.io/controller-tools/cmd/controller-gen) at CONTROLLER_TOOLS_VERSION
# from the Go module proxy into a cache outside the repository: the oracle of `kgen manifests`
# (tests/integration/test_manifests_vs_controller_gen.py runs it on the Go twin of the CronJob
# example, hack/controller-gen/cronjob). Idempotent; prints the path of the binary on stdout.
#
#   hack/controller-gen/build.sh      build if missing, print its path
#   KGEN_CACHE_DIR=...                cache root (default: ${XDG_CACHE_HOME:-~/.cache}/kgen)
set -euo pipefail

CONTROLLER_TOOLS_VERSION=v0.23.0
cache_root="${KGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kgen}"
dest="$cache_root/controller-gen/$CONTROLLER_TOOLS_VERSION"

if [[ -x "$dest/controller-gen" ]]; then
  echo "$dest/controller-gen"
  exit 0
fi
command -v go >/dev/null || { echo "build.sh: the Go toolchain is needed to build controller-gen" >&2; exit 1; }

mkdir -p "$cache_root/controller-gen"
work="$(mktemp -d "$cache_root/controller-gen/.build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "build.sh: building controller-gen $CONTROLLER_TOOLS_VERSION (first run only)..." >&2
# `go install pkg@version` builds with controller-tools' own go.mod: the dependency versions
# its release pins, as `go install` in a kubebuilder project's Makefile does.
CGO_ENABLED=0 GOFLAGS=-trimpath GOTOOLCHAIN=local GOBIN="$work" \
  go install -ldflags "-s -w" "sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_TOOLS_VERSION"
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
echo "$dest/controller-gen"
