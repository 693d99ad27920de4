#!/usr/bin/env bash
# Fails if a test run left an envtest process or temp folder behind.
#
#   hack/check-leftovers.sh [RUN_LOG]        default: $KGEN_ENVTEST_RUN_LOG
#
# It checks only what this run started, as its envtest servers recorded it in the run log
# (runtime/testing/_run_log.py; `make test` makes one log per run): other runs on the same machine,
# finished or still going, are theirs to check. A process counts as left only if it is the very
# one started (same PID and start time, not a zombie).
set -u
log="${1:-${KGEN_ENVTEST_RUN_LOG:-}}"
if [[ -z "$log" ]]; then
  echo "check-leftovers: no run log: pass its path or set KGEN_ENVTEST_RUN_LOG" >&2
  exit 2
fi
if [[ ! -f "$log" ]]; then
  echo "check-leftovers: the run log $log does not exist" >&2
  exit 2
fi

# still_running PID START: the process started as PID at START (clock ticks since boot, or "-"
# where there was no /proc to read it from) still runs.
still_running() {
  local stat fields
  if [[ ! -d /proc ]]; then
    kill -0 "$1" 2>/dev/null
    return
  fi
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  # After "PID (command) " come the state (field 3) ... the start time (field 22).
  read -r -a fields <<<"${stat##*) }"
  [[ ${fields[0]} != Z ]] && [[ $2 == - || ${fields[19]} == "$2" ]]
}

procs=0 dirs=0 left=()
while IFS= read -r line; do
  case "$line" in
    "dir "*)
      dirs=$((dirs + 1))
      folder="${line#dir }"
      [[ -e "$folder" ]] && left+=("folder $folder")
      ;;
    "pid "*)
      procs=$((procs + 1))
      read -r _ pid start name <<<"$line"
      still_running "$pid" "$start" && left+=("process $pid ($name)")
      ;;
  esac
done <"$log"

if ((${#left[@]})); then
  echo "check-leftovers: the test run left these behind:" >&2
  printf '  %s\n' "${left[@]}" >&2
  exit 1
fi
echo "check-leftovers: none remains of what this run started ($procs envtest processes, $dirs temp folders)"
