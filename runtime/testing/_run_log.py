"""The run log: what one test run's envtest servers started, for ``hack/check-leftovers.sh``.

Why a log per run: several test runs may share a machine (two checkouts, two engineers, CI
jobs), so a check that looked at every envtest process and temp folder would blame one run for
another's. When ``KGEN_ENVTEST_RUN_LOG`` names a file (``make test`` makes one per run), every
``KubeAPIServer`` of the run appends what it starts, and the check looks at those only.

One line per thing started: ``dir <path>`` and ``pid <pid> <start time> <name>``. The start time
(``/proc/<pid>/stat``, clock ticks since boot; ``-`` without ``/proc``) tells the process apart
from a later, unrelated one the kernel gave the same PID.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "KGEN_ENVTEST_RUN_LOG"


def run_log_from_env() -> Path | None:
    value = os.environ.get(ENV)
    return Path(value) if value else None


def process_start_time(pid: int) -> str:
    """Field 22 of ``/proc/<pid>/stat``, or ``-`` where it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "-"
    # The command name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.rsplit(")", 1)[1].split()[19]


def record(run_log: Path | None, line: str) -> None:
    """Appends ``line``: one write in append mode, so servers of parallel test processes may
    share the log."""
    if run_log is None:
        return
    fd = os.open(run_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{line}\n".encode())
    finally:
        os.close(fd)


def record_dir(run_log: Path | None, folder: Path) -> None:
    record(run_log, f"dir {folder}")


def record_process(run_log: Path | None, pid: int, name: str) -> None:
    record(run_log, f"pid {pid} {process_start_time(pid)} {name}")
