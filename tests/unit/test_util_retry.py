"""retry.retry_on_conflict retries what client-go's RetryOnConflict retries: errors.IsConflict,
true for reason Conflict and for a 409 of a reason it does not know, false for AlreadyExists
(k8s.io/apimachinery/pkg/api/errors: IsConflict compares the reason first)."""

from __future__ import annotations

import pytest

from kgen.runtime.apimachinery.errors import AlreadyExists, ApiError, Conflict, error_from_status
from kgen.runtime.util.retry import Backoff, retry_on_conflict


def _status(reason: str) -> dict[str, object]:
    return {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 409, "reason": reason, "message": "m"}


@pytest.mark.parametrize(("reason", "retried"), [("Conflict", True), ("SomethingNew", True), ("AlreadyExists", False)])
def test_what_is_retried_is_client_go_is_conflict(reason: str, retried: bool) -> None:
    error = error_from_status(_status(reason))
    assert isinstance(error, Conflict) and isinstance(error, AlreadyExists) is (reason == "AlreadyExists")
    calls: list[int] = []

    def fn() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise error
        return "done"

    backoff = Backoff(duration=0.0, factor=1.0, jitter=0.0, steps=5)
    if retried:
        assert retry_on_conflict(fn, backoff, sleep=lambda _: None) == "done" and len(calls) == 3
    else:
        with pytest.raises(ApiError):
            retry_on_conflict(fn, backoff, sleep=lambda _: None)
        assert len(calls) == 1
