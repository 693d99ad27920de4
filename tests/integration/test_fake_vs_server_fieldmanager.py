"""Issue 35, the differential run's residue: a custom resource's write whose request carries a
wrongly typed value in the part the strategy drops (``status`` on the main resource of a kind
with a status subresource, ``spec`` or ``metadata`` through ``/status``). The apiserver's field
manager runs on the request object before the strategy (``FieldManager.UpdateNoErrors``): it
cannot type the request, so it records nothing (up to 1.36 it removes every entry, from 1.37 it
keeps the old ones); the strategy then drops the wrong part and the write succeeds. Compared with the real apiserver,
managedFields included (tests/support/fake_vs_server.py).
"""

from __future__ import annotations

import pytest

import httpx

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.integration.test_fake_vs_server_writes import COUNTERS, GROUP, MERGE, TALLIES, _apply, _counter, _edit, _sides
from tests.support.fake_vs_server import Step, run


def untyped_request_steps(ns: str) -> list[Step]:
    """Creates, updates and patches whose dropped part does not type, beside one that does."""
    counters = f"/apis/{GROUP}/v1/namespaces/{ns}/counters"
    return [
        Step("create-bad-status", "POST", counters, _counter("c2", spec={"n": 1}, status={"count": "x"})),
        Step("create", "POST", counters, _counter("c", spec={"n": 1}), params={"fieldManager": "a"}),
        Step("put-bad-status", "PUT", f"{counters}/c", _edit("create", spec={"n": 2}, status={"count": "x"}),
             params={"fieldManager": "b"}),
        Step("get-1", "GET", f"{counters}/c"),
        Step("put-good", "PUT", f"{counters}/c", _edit("get-1", spec={"n": 3, "a": "y"}), params={"fieldManager": "c"}),
        Step("status-bad-spec", "PUT", f"{counters}/c/status", _edit("put-good", spec={"n": "x"}, status={"count": 3}),
             params={"fieldManager": "d"}),
        Step("status-merge-bad-spec", "PATCH", f"{counters}/c/status", {"spec": {"n": "y"}, "status": {"count": 4}},
             params={"fieldManager": "e"}, content_type=MERGE),
        Step("merge-bad-status", "PATCH", f"{counters}/c", {"spec": {"n": 5}, "status": {"count": "y"}},
             params={"fieldManager": "f"}, content_type=MERGE),
        Step("get-2", "GET", f"{counters}/c"),
        Step("status-good", "PUT", f"{counters}/c/status", _edit("get-2", status={"count": 6}), params={"fieldManager": "g"}),
        _apply("apply", f"{counters}/c", {**_counter("c"), "spec": {"a": "z"}}, "h"),
        Step("put-bad-status-2", "PUT", f"{counters}/c", _edit("apply", spec={"n": 7, "a": "z"}, status={"count": "x"}),
             params={"fieldManager": "i"}),
        Step("get-3", "GET", f"{counters}/c"),
    ]


@pytest.mark.integration
def test_an_untyped_dropped_part_records_no_fields(
    admin: httpx.Client, namespace: str, kube_apiserver: KubeAPIServer, figure: Figure
) -> None:
    """The fake serves the Counters as a package generated from the server's release
    (``generated_from``): up to 1.36 such a write removes every managedFields entry (the object is
    stored with none, and later updates record none; measured on 1.34.4, 1.35.4 and 1.36.3), from
    1.37 the old entries stay."""
    with _sides(admin) as (server, _):
        tracker = FakeClientset().tracker
        for info, status in ((COUNTERS, True), (TALLIES, False)):
            tracker.register(ResourceInfo(info.group, info.version, info.plural, True, info.kind,
                                          generated_from=kube_apiserver.version), status=status)
        with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
            outcome = run(server, fake, untyped_request_steps(namespace), managed_fields=True)
    figure(f"untyped dropped part ({kube_apiserver.version}): {outcome.compared} operations compared, "
           f"{len(outcome.divergences)} divergences")
    assert not outcome.divergences, "\n".join(map(str, outcome.divergences))
    kept = [entry["manager"] for entry in outcome.server["get-1"]["metadata"].get("managedFields") or []]
    assert not outcome.server["create-bad-status"]["metadata"].get("managedFields")
    assert kept == (["a"] if kube_apiserver.version >= "v1.37" else [])
