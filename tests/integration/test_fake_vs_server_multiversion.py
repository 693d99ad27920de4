"""Issue 35 item 17 in the fake: a multi-version custom resource's versions share one storage.

The CRD: v1 (storage) and v2 (served), conversion None. v1 has ``only1`` and ``o`` (a default
inside a defaulted ``{}``); v2 has ``b`` (default ``v2b``) and requires ``a``; both default ``x``,
to ``v1x`` and ``v2x``, and a field of list items and of map values; each version's status
defaults differently too. The same scripted requests
go to the real apiserver and to the fake (tests/support/fake_vs_server.py), every status code,
body, warning and managedFields entry compared: created in one version, read, listed and watched
in the other, updated, patched (JSON and merge), applied (created and updated) and deleted
through either, dry runs and the ratcheting case (a labels-only PUT through v2 of an object
stored without ``a``: 422 ``spec.a: Required value``).

What the server does, which the script reaches (checked on the server's answers below): the
object is stored in v1 (v1's pruning and defaults), read in the request's version (its pruning,
not its defaults), so every write through v2 adds ``b``, moves the generation and loses ``only1``;
managedFields entries keep the apiVersion of the request that wrote them. Where v1 entries meet a
v2 write, the releases differ and the fake follows the server's (``ResourceInfo.generated_from``):
from 1.37 an update through v2 records no entry (the object does not convert to v1: ``b``) and an
apply setting ``b`` is a 500; up to 1.36 such an update removes every entry, and the next apply
through v2 meets ``before-first-apply``.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.apiserver import CRDS, install_crd, wait_for
from tests.support.fake_vs_server import Answers, Step, run
from tests.support.packages import generate, import_all

GROUP = "fvsmv.kgen.dev"
KIND, PLURAL = "Gadget", "gadgets"
APPLY = "application/apply-patch+yaml"
MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
_PACKAGE = "fvsmv_custom_resources"


def _version(name: str, storage: bool, props: dict[str, Any], status: dict[str, Any],
             required: tuple[str, ...] = ()) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": "object", "properties": props, **({"required": list(required)} if required else {})}
    return {"name": name, "served": True, "storage": storage, "subresources": {"status": {}},
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                "spec": spec, "status": {"type": "object", "properties": status}}}}}


_OBJECT_DEFAULTS = {"type": "object", "default": {}, "properties": {"p": {"type": "string", "default": "P"}}}
"""A default inside a defaulted ``{}`` (v1 only)."""
_ITEM_DEFAULTS = {"type": "array", "items": {"type": "object", "properties": {
    "q": {"type": "string", "default": "Q"}, "m": {"type": "object", "additionalProperties": {
        "type": "object", "properties": {"r": {"type": "string", "default": "R"}}}}}}}
"""Defaults in list items and in map values."""

CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": f"{PLURAL}.{GROUP}"},
    "spec": {"group": GROUP, "scope": "Namespaced",
             "names": {"kind": KIND, "plural": PLURAL, "singular": KIND.lower(), "listKind": f"{KIND}List"},
             "conversion": {"strategy": "None"},
             "versions": [
                 _version("v1", True, {"a": {"type": "string"}, "x": {"type": "string", "default": "v1x"},
                                       "only1": {"type": "string"}, "o": _OBJECT_DEFAULTS, "items": _ITEM_DEFAULTS},
                          {"count": {"type": "integer"}, "s1": {"type": "string"}}),
                 _version("v2", False, {"a": {"type": "string"}, "b": {"type": "string", "default": "v2b"},
                                        "x": {"type": "string", "default": "v2x"}, "items": _ITEM_DEFAULTS},
                          {"count": {"type": "integer"}, "s2": {"type": "string", "default": "v2s"}}, required=("a",)),
             ]},
}


@functools.cache
def _models() -> None:
    """Generates (once) and imports a package of the CRD, so the fake has both versions' schemas."""
    out = Path(tempfile.mkdtemp(prefix="kgen-fvsmv-"))
    (out / "crd.json").write_text(json.dumps(CRD))
    generate(out, _PACKAGE, "--crd", str(out / "crd.json"))
    for _ in import_all(out, _PACKAGE):
        pass


def _served(admin: httpx.Client, version: str) -> bool:
    return admin.get(f"/apis/{GROUP}/{version}/{PLURAL}").status_code == 200


def _obj(version: str, name: str, spec: dict[str, Any], **meta: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/{version}", "kind": KIND, "metadata": {"name": name, **meta}, "spec": spec}


def _edit(label: str, spec: dict[str, Any] | None = None, **meta: Any) -> Callable[[Answers], Any]:
    """The object as this side last read it under ``label``, with spec fields and metadata changed."""
    def body(answers: Answers) -> Any:
        obj = answers[label]
        return {**obj, "metadata": {**obj["metadata"], **meta}, "spec": {**obj.get("spec", {}), **(spec or {})}}

    return body


def _since(label: str) -> Callable[[Answers], Any]:
    """A watch's params: from the resourceVersion of this side's answer ``label``, for a second."""
    return lambda answers: {"watch": "1", "resourceVersion": answers[label]["metadata"]["resourceVersion"], "timeoutSeconds": "1"}


def steps(ns: str) -> list[Step]:
    """The script: every verb through each version of objects stored through the other."""
    def path(version: str, name: str = "") -> str:
        return f"/apis/{GROUP}/{version}/namespaces/{ns}/{PLURAL}" + (f"/{name}" if name else "")

    def apply(label: str, version: str, name: str, spec: dict[str, Any], manager: str, **params: str) -> Step:
        return Step(label, "PATCH", path(version, name), _obj(version, name, spec), {"fieldManager": manager, **params}, APPLY)

    return [
        Step("create-v1", "POST", path("v1"), _obj("v1", "t", {"only1": "o"}), {"fieldManager": "m1"}),
        Step("get-v2", "GET", path("v2", "t")),
        Step("get-v1", "GET", path("v1", "t")),
        Step("list-v2", "GET", path("v2")),
        Step("merge-v2", "PATCH", path("v2", "t"), {"spec": {"a": "z"}}, {"fieldManager": "m2"}, MERGE),
        Step("get-v1-after-merge", "GET", path("v1", "t")),
        apply("apply-v2-b", "v2", "t", {"a": "q", "b": "bb"}, "ap"),
        Step("get-v1-2", "GET", path("v1", "t")),
        Step("put-v1", "PUT", path("v1", "t"), _edit("get-v1-2", {"only1": "p"}), {"fieldManager": "m3"}),
        Step("create-v2", "POST", path("v2"), _obj("v2", "u", {"a": "a", "only1": "zz", "items": [{}, {"q": "z", "m": {"k": {}}}]}),
             {"fieldManager": "c2"}),
        Step("get-v1-u", "GET", path("v1", "u")),
        apply("apply-v2-a", "v2", "t", {"a": "q"}, "ap2", force="true"),
        Step("get-v2-2", "GET", path("v2", "t")),
        Step("put-v2-labels", "PUT", path("v2", "t"), _edit("get-v2-2", labels={"l": "1"}), {"fieldManager": "m4"}),
        Step("merge-v2-u", "PATCH", path("v2", "u"), {"spec": {"a": "y"}}, {"fieldManager": "m5"}, MERGE),
        Step("merge-v2-u-label", "PATCH", path("v2", "u"), {"metadata": {"labels": {"k": "v"}}}, {"fieldManager": "m6"}, MERGE),
        Step("json-patch-v1-u", "PATCH", path("v1", "u"), [{"op": "add", "path": "/spec/only1", "value": "j"}],
             {"fieldManager": "m7"}, JSON_PATCH),
        Step("get-v2-u", "GET", path("v2", "u")),
        # the ratcheting case: stored without a, which v2 requires
        Step("create-v1-r", "POST", path("v1"), _obj("v1", "r", {"only1": "o"}), {"fieldManager": "m1"}),
        Step("get-v2-r", "GET", path("v2", "r")),
        Step("put-v2-r-labels", "PUT", path("v2", "r"), _edit("get-v2-r", labels={"t": "1"}), {"fieldManager": "m8"}),
        Step("get-v1-r", "GET", path("v1", "r")),
        Step("put-v1-r-labels", "PUT", path("v1", "r"), _edit("get-v1-r", labels={"t": "1"}), {"fieldManager": "m8"}),
        Step("put-v2-r-a", "PUT", path("v2", "r"), _edit("get-v2-r", {"a": "now"}), {"fieldManager": "m9"}),
        Step("dry-run-create-v2", "POST", path("v2"), _obj("v2", "d", {"a": "a", "x": "mine"}),
             {"fieldManager": "c3", "dryRun": "All"}),
        Step("get-v1-d", "GET", path("v1", "d")),
        apply("apply-create-v2", "v2", "w", {"a": "w1", "x": "wx"}, "ap3"),
        Step("get-v1-w", "GET", path("v1", "w")),
        apply("apply-create-v1", "v1", "w1", {"only1": "o", "a": "w"}, "ap4"),
        Step("get-v2-w1", "GET", path("v2", "w1")),
        Step("list-v1", "GET", path("v1")),
        Step("list-v2-2", "GET", path("v2")),
        Step("watch-v2", "GET", path("v2"), params=_since("create-v1")),
        Step("watch-v1", "GET", path("v1"), params=_since("create-v1")),
        Step("delete-v2-u", "DELETE", path("v2", "u")),
        Step("get-v1-u-gone", "GET", path("v1", "u")),
        Step("create-v1-u-again", "POST", path("v1"), _obj("v1", "u", {"a": "again"}), {"fieldManager": "m1"}),
        Step("watch-v2-deleted", "GET", path("v2"), params=_since("json-patch-v1-u")),
        # the status subresource through either version
        Step("get-v2-3", "GET", path("v2", "t")),
        Step("put-status-v2", "PUT", path("v2", "t") + "/status", lambda a: {**a["get-v2-3"], "status": {"count": 1}},
             {"fieldManager": "s1"}),
        Step("merge-status-v1", "PATCH", path("v1", "t") + "/status", {"status": {"count": 2, "s1": "one"}},
             {"fieldManager": "s2"}, MERGE),
        Step("get-status-v2", "GET", path("v2", "t") + "/status"),
        Step("merge-status-v2", "PATCH", path("v2", "t") + "/status", {"status": {"count": 3}}, {"fieldManager": "s3"}, MERGE),
        Step("get-v1-status", "GET", path("v1", "t")),
        Step("dry-run-put-v2", "PUT", path("v2", "t"), _edit("merge-status-v2", {"a": "dry"}), {"fieldManager": "m10", "dryRun": "All"}),
        # a deletion held by a finalizer, started through v2 and finished through v1
        Step("create-v1-f", "POST", path("v1"), _obj("v1", "f", {"only1": "o"}, finalizers=["kgen.dev/hold"]), {"fieldManager": "m1"}),
        Step("delete-v2-f", "DELETE", path("v2", "f")),
        Step("get-v1-f", "GET", path("v1", "f")),
        Step("release-v1-f", "PUT", path("v1", "f"), _edit("get-v1-f", finalizers=[]), {"fieldManager": "m11"}),
        Step("get-v2-f-gone", "GET", path("v2", "f")),
        # generated names and pages: one name space, one order
        Step("generate-v2", "POST", path("v2"), {**_obj("v2", "", {"a": "g"}), "metadata": {"generateName": "g-"}},
             {"fieldManager": "g"}),
        Step("page-1-v1", "GET", path("v1"), params={"limit": "2"}),
        Step("page-2-v2", "GET", path("v2"), params=lambda a: {"limit": "2", "continue": a["page-1-v1"]["metadata"]["continue"]}),
        Step("deletecollection-v2", "DELETE", path("v2")),
        Step("list-v1-empty", "GET", path("v1")),
    ]


@pytest.mark.integration
def test_the_versions_of_a_custom_resource_share_one_storage(
    admin: httpx.Client, namespace: str, kube_apiserver: KubeAPIServer, figure: Figure,
) -> None:
    """0 divergences, managedFields included; the fake serves the Gadgets as a package generated
    from the server's release would (``generated_from``)."""
    if admin.get(f"{CRDS}/{PLURAL}.{GROUP}").status_code == 404:
        install_crd(admin, CRD)
    for version in ("v1", "v2"):  # Established is not yet served: wait for each version's storage
        wait_for(functools.partial(_served, admin, version))
    _models()
    tracker = FakeClientset().tracker
    for version in ("v1", "v2"):
        tracker.register(ResourceInfo(GROUP, version, PLURAL, True, KIND, generated_from=kube_apiserver.version), status=True)
    with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
        outcome = run(admin, fake, steps(namespace), managed_fields=True)
    figure(f"multi-version custom resource ({kube_apiserver.version}): {outcome.compared} operations compared, "
           f"{len(outcome.divergences)} divergences")
    assert not outcome.divergences, "\n".join(map(str, outcome.divergences))
    # the script reached what it is about, on the server
    server = outcome.server
    assert server["get-v2"]["spec"] == {"x": "v1x"}  # v1's default, v1's only1 pruned by v2, no b
    assert server["get-v1"]["spec"] == {"only1": "o", "x": "v1x", "o": {"p": "P"}}
    assert server["get-v1-u"]["spec"] == {  # v2's defaults on create, b pruned by v1, v1's defaults
        "a": "a", "x": "v2x", "o": {"p": "P"}, "items": [{"q": "Q"}, {"q": "z", "m": {"k": {"r": "R"}}}]}
    assert "only1" not in server["get-v1-after-merge"]["spec"]  # lost through v2
    assert server["put-v2-r-labels"]["code"] == 422 and "spec.a: Required value" in server["put-v2-r-labels"]["message"]
    assert server["put-v1-r-labels"]["metadata"]["labels"] == {"t": "1"}
    assert server["merge-v2-u-label"]["metadata"]["generation"] == server["merge-v2-u"]["metadata"]["generation"] + 1
    assert {e["apiVersion"] for e in server["get-v1-u"]["metadata"]["managedFields"]} == {f"{GROUP}/v2"}
    managers = [e["manager"] for e in server["get-v1-after-merge"]["metadata"].get("managedFields") or []]
    if kube_apiserver.version >= "v1.37":  # the update through v2 kept m1's entry and recorded none
        assert managers == ["m1"] and server["apply-v2-b"]["code"] == 500, (managers, server["apply-v2-b"])
    else:  # it removed every entry; the apply met before-first-apply
        assert managers == [] and "before-first-apply" in server["apply-v2-b"]["message"], (managers, server["apply-v2-b"])
    assert server["get-v1-u-gone"]["code"] == 404
    assert server["get-status-v2"]["status"] == {"count": 2}  # s1 pruned by v2, s2 (v2's default) pruned by v1
    assert server["get-v1-f"]["metadata"]["deletionTimestamp"] and server["get-v2-f-gone"]["code"] == 404
    assert server["page-2-v2"]["apiVersion"] == f"{GROUP}/v2" and server["list-v1-empty"]["items"] == []
