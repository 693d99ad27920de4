"""The environment every bench subprocess runs in.

Users' interpreters import installed code from bytecode (pip compiles it at install time). Here
``PYTHONDONTWRITEBYTECODE`` may be set and kgen is installed editable, so kgen's modules would be
compiled from source on every import while the peers' were not. Subprocesses therefore run with
bytecode writing on, into a private ``PYTHONPYCACHEPREFIX`` (nothing is written into the
checkout), and each measurement warms it with an untimed run first: every client then imports
from bytecode, under the same rules.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def subprocess_env() -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="kgen-bench-pycache-") as prefix:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = prefix
        yield env
