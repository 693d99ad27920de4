"""``Denied``: how a validator or defaulter says no.

controller-runtime's custom validators return an ``error``: an ``APIStatus`` error is sent as
its own Status, any other error becomes ``Denied(err.Error())``. In Python an exception is
also how a bug shows itself (``AttributeError``, ``KeyError``), and turning those into denials
would hand the client a traceback's text as a verdict. So a handler denies by raising
``Denied`` (403 Forbidden, its message and warnings as given) or an ``ApiError`` (its Status:
code, reason, message), and any other exception is an error of the webhook (500, the
exception's type only; the traceback goes to the log).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Denied"]


class Denied(Exception):
    """Refuse the request: the client sees ``message`` (and ``warnings`` as Warning headers)."""

    def __init__(self, message: str, warnings: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.warnings = list(warnings)
