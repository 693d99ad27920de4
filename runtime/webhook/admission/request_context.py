"""``current_request()``: the admission request being judged, for a typed handler that needs
more than the object (controller-runtime's ``admission.RequestFromContext``).

``Validator[T]`` and ``Defaulter[T]`` see typed objects only; who asks (``user_info``), whether
it is a dry run (``dry_run``: a webhook with side effects must skip them) and the request's
options live on the request. controller-runtime passes it in the ``context.Context``; here it is
a ``contextvars`` variable the admission ``Webhook`` sets around the handler call, so it is the
right request on every server thread.
"""

from __future__ import annotations

import contextvars

from kgen.runtime.webhook.admission.review import AdmissionRequest

__all__ = ["current_request"]

_current: contextvars.ContextVar[AdmissionRequest] = contextvars.ContextVar("kgen_admission_request")


def current_request() -> AdmissionRequest:
    """The request the calling handler was given; ``LookupError`` outside a webhook call."""
    try:
        return _current.get()
    except LookupError:
        raise LookupError("current_request() is only available while an admission webhook handles a request") from None


def set_request(request: AdmissionRequest) -> contextvars.Token[AdmissionRequest]:
    return _current.set(request)


def reset_request(token: contextvars.Token[AdmissionRequest]) -> None:
    _current.reset(token)
