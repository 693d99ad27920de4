"""The one error `kgen manifests` shows for a mistake in the user's types (exit 2).

Said as ``where: what is wrong (expected what)``, where ``where`` is the Python path of the
class or field (``myapi.v1.CronJobSpec.schedule``), so the user goes straight to the line.
No traceback: the mistake is in the input, not in kgen.
"""

from __future__ import annotations


class ManifestError(Exception):
    """A type that cannot become a CRD, and why; nothing has been written."""

    def __init__(self, where: str, problem: str, expected: str = "") -> None:
        self.where = where
        self.problem = problem
        self.expected = expected
        super().__init__(f"{where}: {problem}" + (f" (expected {expected})" if expected else ""))
