"""``Defaulter[T]`` and the mutating webhook around it (controller-runtime's ``CustomDefaulter``
and ``WithCustomDefaulter``, ``defaulter_custom.go``).

A defaulter changes a typed object in place (or returns a replacement); the webhook answers
with the JSON patch from the request's raw object to the changed object's JSON
(``response.patch_response``), as controller-runtime's ``PatchResponseFromRaw`` does. Because a
kgen model keeps the fields it does not know and writes them back (model.py), an untouched
object diffs to no patch at all; controller-runtime's Go structs drop unknown fields, which is
why it has to filter ``remove`` operations out of its patches, and this does not.

Only CREATE and UPDATE are defaulted: DELETE is allowed untouched, as controller-runtime skips it
(there is nothing to store), and so is CONNECT (its ``object`` is the connect options, not an
object of the model). A defaulter may raise ``Denied`` to refuse the request.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from kgen.runtime.apimachinery import Model
from kgen.runtime.webhook.admission.decode import DecodeError, decode_object
from kgen.runtime.webhook.admission.response import allowed, errored, patch_response
from kgen.runtime.webhook.admission.review import AdmissionRequest, AdmissionResponse
from kgen.runtime.webhook.admission.webhook import Webhook

__all__ = ["Defaulter", "MutatingHandler", "with_defaulter"]

T = TypeVar("T", bound=Model)


class Defaulter(Protocol[T]):
    """Sets defaults on (mutates) objects of one model: change ``obj`` in place and return
    ``None``, or return the object to store instead."""

    def default(self, obj: T) -> T | None:
        """Set defaults on ``obj``: change it in place and return ``None``, or return the object to store instead."""


class MutatingHandler(Generic[T]):
    """The admission ``Handler`` that decodes the request's object as ``model``, lets
    ``defaulter`` change it and answers with the patch."""

    def __init__(self, model: type[T], defaulter: Defaulter[T]) -> None:
        self.model = model
        self.defaulter = defaulter

    def handle(self, request: AdmissionRequest) -> AdmissionResponse:
        """Allow a CREATE or UPDATE with a JSON patch from the request's object to the defaulted one (other
        operations are allowed unchanged); an object that does not decode is a 400."""
        if request.operation not in ("CREATE", "UPDATE"):
            return allowed()
        try:
            obj = decode_object(self.model, request, request.object, "object")
        except DecodeError as e:
            return errored(400, str(e))
        replacement = self.defaulter.default(obj)
        mutated = obj if replacement is None else replacement
        assert request.object is not None  # decode_object refused a request without one
        return patch_response(request.object, mutated.to_dict())


def with_defaulter(model: type[T], defaulter: Defaulter[T], name: str = "") -> Webhook:
    """A mutating admission webhook for ``model``, ready to register on a ``WebhookServer``."""
    return Webhook(MutatingHandler(model, defaulter), name or f"default-{model.__name__}")
