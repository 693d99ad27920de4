"""What the webhook server serves at a path: bytes in, an HTTP reply out.

controller-runtime registers an ``http.Handler`` per path; here the HTTP framing stays in the
server (``server.py``: TLS, Content-Length, size limit, keep-alive, shutdown), and an endpoint
only turns a request body into a reply. That keeps the admission and conversion webhooks free
of I/O, so their whole behaviour is tested by calling ``serve`` with bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from kgen.runtime.apimachinery import Model, ModelError

__all__ = ["Endpoint", "Reply", "media_type", "read_review", "text_reply"]

R = TypeVar("R", bound=Model)


@dataclass(frozen=True)
class Reply:
    """An HTTP answer: status, body, and the body's content type."""

    status: int
    body: bytes
    content_type: str = "application/json"


class Endpoint(Protocol):
    """What a ``WebhookServer`` serves at a path: a handler of POSTed review bodies."""
    def serve(self, body: bytes, content_type: str) -> Reply:
        """Answer one POSTed body. Must not raise: a body that is not a review is a 4xx reply."""
        ...


def text_reply(message: str, status: int = 400) -> Reply:
    """A plain-text error (400 unless told): the body was not a review at all, so there is no
    ``uid`` to answer a review with (the apiserver reports a non-2xx answer as a failed call,
    with this text)."""
    return Reply(status, (message + "\n").encode(), "text/plain; charset=utf-8")


def media_type(content_type: str) -> str:
    """``application/json; charset=utf-8`` → ``application/json`` (parameters do not change
    what the body is; controller-runtime compares the whole header, which a client adding a
    charset would fail)."""
    return content_type.split(";", 1)[0].strip().lower()


def read_review(body: bytes, content_type: str, model: type[R], versions: tuple[str, ...]) -> R | Reply:
    """Both webhooks' intake: the review of type ``model`` (its class name is the kind) in one
    of ``versions`` that ``body`` holds, or the 400 that says why the body is not one."""
    kind = model.__name__
    if not body:
        return text_reply("request body is empty")
    if media_type(content_type) != "application/json":
        return text_reply(f"Content-Type {content_type!r}: expected application/json")
    try:
        review = model.from_json(body)
    except ModelError as e:
        return text_reply(f"the body is not a{'n' if kind[0] in 'AEIOU' else ''} {kind}: {e}")
    got_kind, got_version = getattr(review, "kind", None), getattr(review, "api_version", None)
    if got_kind != kind or got_version not in versions:
        return text_reply(
            f"the body is kind {got_kind or '(none)'} of apiVersion {got_version or '(none)'}: "
            f"expected kind {kind} of {' or '.join(versions)}"
        )
    if getattr(review, "request", None) is None:
        return text_reply(f"the {kind} has no request")
    return review
