"""The optional parts of kgen-runtime and the one error a missing one raises.

kgen-runtime depends on httpx, msgspec, websockets and google-re2 only; the rest comes with an extra
(``pip install 'kgen-runtime[testing]'``). Python's own error for a missing module names the
module (``No module named 'cryptography'``), not what to install: a module that needs an extra
imports it through ``missing_extra`` so the user reads the pip command instead.
"""

from __future__ import annotations

EXTRAS = {
    "kubeconfig": "YAML kubeconfig files",
    "testing": "the test apiserver (kgen.runtime.testing)",
    "validation": "CEL rules in client-side validation",
    "metrics": "Prometheus metrics",
}
"""kgen-runtime's extras (packaging/kgen-runtime/pyproject.toml) and what each one enables."""


class MissingExtraError(ImportError):
    """An optional dependency of kgen-runtime is not installed; the message gives the pip command
    of the extra that installs it. An ImportError, so ``except ImportError`` still catches it."""

    def __init__(self, message: str, *, extra: str, module: str) -> None:
        super().__init__(message, name=module)
        self.extra = extra


def missing_extra(module: str, *, extra: str, needed_by: str, alternative: str = "") -> MissingExtraError:
    """The error for ``module`` missing: ``needed_by`` needs it; ``pip install
    'kgen-runtime[<extra>]'`` installs it (``alternative``: what works without it, if anything)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown kgen-runtime extra {extra!r}; known: {', '.join(EXTRAS)}")
    instead = f" ({alternative})" if alternative else ""
    return MissingExtraError(
        f"{needed_by} needs the {module!r} module, which is not installed: "
        f"pip install 'kgen-runtime[{extra}]'{instead}",
        extra=extra,
        module=module,
    )
