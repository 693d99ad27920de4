#!/usr/bin/env bash
# Fails if a test run left an envtest process or temp folder behind.
set -u
tmp="${TMPDIR:-/tmp}"
left_dirs=$(find "$tmp" -maxdepth 1 -name 'kgen-envtest-*' 2>/dev/null)
left_procs=$(pgrep -a -f 'kgen/envtest/.*/(etcd|kube-apiserver)' 2>/dev/null)
if [[ -n "$left_dirs" || -n "$left_procs" ]]; then
  echo "check-leftovers: the test run left these behind:" >&2
  [[ -n "$left_dirs" ]] && echo "$left_dirs" >&2
  [[ -n "$left_procs" ]] && echo "$left_procs" >&2
  exit 1
fi
echo "check-leftovers: no envtest process or temp folder remains"
