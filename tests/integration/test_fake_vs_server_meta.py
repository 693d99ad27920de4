"""The fake's metadata rules against the real apiserver (issue 35, items 1, 2, 5, 10 and 11).

The same scripted requests go to the real apiserver and to the fake (tests/support/
fake_vs_server.py), and every status code, reason, body and ``Warning`` header is compared:

- ObjectMeta validation on every kind (``metadata``): names and generateName by the kind's name
  rule (a ConfigMap's DNS subdomain, a Namespace's DNS label, a custom resource's subdomain),
  labels, annotations and their total size, finalizer names, owner references, and a create
  with neither name nor generateName (whose Status has no ``details.name``);
- finalizers once the object is being deleted (``finalizers``): a new one is refused by update,
  merge, JSON and strategic merge patches and apply, on a ConfigMap and a custom resource, while
  removing one is allowed (the last one's removal deletes the object);
- label and field selector parse errors (``selectors``);
- ``$retainKeys`` in a strategic merge patch of a map (``retain_keys``).

Three release differences are modelled (tests/support/versions.py): ``label-key-wording`` (up to
1.34), ``owner-reference-errors-unindexed`` and ``builtin-meta-errors-repeated`` (up to 1.36). The
fake answers as 1.37 does; on a release that still behaves older, each answer of the server is
rewritten from the older behaviour into 1.37's by that behaviour's rule (``Newer``) before the
comparison, and the test checks that every such rule was needed at least once, so a release
that stops behaving older fails it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.integration.test_fake_vs_server import GROUP, _edit, _fake_sides, _report, custom_resource_models
from tests.support.fake_vs_server import Step, run
from tests.support.versions import behaves_older

_REWRITES = ("label-key-wording", "owner-reference-errors-unindexed", "builtin-meta-errors-repeated")


class Newer:
    """The real server's client, its 422 answers rewritten from the older behaviours its release
    still has (``older``) into 1.37's; ``used`` counts each rule's rewrites."""

    def __init__(self, client: httpx.Client, older: frozenset[str]) -> None:
        self.client = client
        self.older = older
        self.used: Counter[str] = Counter()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = self.client.request(method, path, **kwargs)
        if response.status_code == 400 and "label-key-wording" in self.older:
            return self._selector_error(response)
        if response.status_code != 422 or not self.older:
            return response
        body = response.json()
        if not (body.get("details") or {}).get("causes"):  # nothing to rewrite (a 422 without causes)
            return response
        causes = [self._cause(c, body.get("details") or {}) for c in body["details"]["causes"]]
        if "builtin-meta-errors-repeated" in self.older and not body["details"].get("group"):
            distinct = [json.loads(c) for c in dict.fromkeys(json.dumps(c) for c in causes)]
            if len(distinct) < len(causes):
                self.used["builtin-meta-errors-repeated"] += 1
            causes = distinct
        texts = list(dict.fromkeys(f"{c['field']}: {c['message']}" for c in causes))
        head = body["message"].split(" is invalid: ")[0]
        body = {**body, "details": {**body["details"], "causes": causes},
                "message": f"{head} is invalid: " + (texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]")}
        return httpx.Response(422, headers=response.headers, json=body, request=response.request)

    def _selector_error(self, response: httpx.Response) -> httpx.Response:
        """A label selector's key or value in the older words (``label-key-wording``)."""
        body = response.json()
        message = str(body.get("message"))
        if not message.startswith("unable to parse requirement: "):
            return response
        newer = message.replace("a qualified name must consist", "a valid label key must consist")
        newer = newer.replace("must be no more than 63 characters", "must be no more than 63 bytes")
        if newer == message:
            return response
        self.used["label-key-wording"] += 1
        return httpx.Response(400, headers=response.headers, json={**body, "message": newer}, request=response.request)

    def _cause(self, cause: dict[str, Any], details: dict[str, Any]) -> dict[str, Any]:
        field, message = cause["field"], cause["message"]
        if "label-key-wording" in self.older and field.split("[")[0] in _KEYED:
            newer = message.replace("a qualified name must consist", "a valid label key must consist")
            newer = newer.replace("must be no more than 63 characters", "must be no more than 63 bytes")
            if newer != message:
                self.used["label-key-wording"] += 1
                cause = {**cause, "message": newer}
        owner = re.fullmatch(r"metadata\.ownerReferences\.(apiVersion|kind|name|uid)", field)
        if "owner-reference-errors-unindexed" in self.older and owner:
            self.used["owner-reference-errors-unindexed"] += 1
            cause = {"reason": "FieldValueRequired", "message": "Required value: must not be empty",
                     "field": f"metadata.ownerReferences[0].{owner[1]}"}
        if ("owner-reference-errors-unindexed" in self.older and field == "metadata.ownerReferences"
                and message.endswith("is disallowed from being an owner")):
            self.used["owner-reference-errors-unindexed"] += 1
            cause = {**cause, "field": "metadata.ownerReferences[0]"}
        return cause


_KEYED = ("metadata.labels", "metadata.annotations", "metadata.finalizers")


@pytest.fixture
def older(kube_apiserver: KubeAPIServer) -> frozenset[str]:
    """The older behaviours (of those ``Newer`` rewrites) the server's release still has."""
    return frozenset(key for key in _REWRITES if behaves_older(kube_apiserver.version, key))


@pytest.fixture
def sides(admin: httpx.Client, older: frozenset[str]) -> Iterator[tuple[Any, httpx.Client]]:
    """(server, fake): envtest's admin client (answering as 1.37, ``Newer``) and a client over a
    fresh fake's transport."""
    with _fake_sides(admin) as (server, fake):
        yield Newer(server, older), fake


def _configmap(**metadata: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": {"k": "v"}}


def _widget(**metadata: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": metadata, "spec": {"a": "x"}}


_OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "6f1c1f7e-4b7a-4a53-9d0c-2f6f3c1d2e3a"}
#: (label, metadata) of creates, each refused for one reason but the last ones (accepted).
META_CASES: list[tuple[str, dict[str, Any]]] = [
    ("bad-generate-name", {"generateName": "Bad_Name-"}),
    ("bad-name", {"name": "Bad_Name"}),
    ("name-too-long", {"name": "a" * 254}),
    ("name-trailing-dot", {"name": "a."}),
    ("no-name", {}),
    ("label-key-slashes", {"name": "l1", "labels": {"a/b/c": "v"}}),
    ("label-key-empty-prefix", {"name": "l2", "labels": {"/x": "v"}}),
    ("label-key-bad-prefix", {"name": "l3", "labels": {"Bad_Prefix/x": "v"}}),
    ("label-key-long", {"name": "l4", "labels": {"k" * 64: "v"}}),
    ("label-value", {"name": "l5", "labels": {"k": "x y"}}),
    ("label-value-long", {"name": "l6", "labels": {"k": "v" * 64}}),
    ("annotation-key", {"name": "a1", "annotations": {"Bad Key!": "v"}}),
    ("annotations-too-large", {"name": "a2", "annotations": {"big": "x" * (256 * 1024)}}),
    ("finalizer-name", {"name": "f1", "finalizers": ["Bad!"]}),
    ("finalizers-orphan-and-foreground", {"name": "f2", "finalizers": ["orphan", "foregroundDeletion"]}),
    ("two-controllers", {"name": "o1", "ownerReferences": [
        {**_OWNER, "controller": True}, {**_OWNER, "name": "p", "controller": True}]}),
    ("owner-event", {"name": "o2", "ownerReferences": [{**_OWNER, "kind": "Event"}]}),
    ("owner-without-kind-and-uid", {"name": "o3", "ownerReferences": [
        {k: v for k, v in _OWNER.items() if k not in ("kind", "uid")}]}),
    ("generate-name-ok", {"generateName": "ok-"}),
    ("upper-case-annotation-key", {"name": "a3", "annotations": {"Example.COM/Key": "v"}}),
]


def meta_steps(ns: str) -> list[Step]:
    """Every case on a ConfigMap and on a Widget; a Namespace's names (a DNS label)."""
    configmaps = f"/api/v1/namespaces/{ns}/configmaps"
    widgets = f"/apis/{GROUP}/v1/namespaces/{ns}/widgets"
    steps = [Step(f"configmap/{label}", "POST", configmaps, _configmap(**m)) for label, m in META_CASES]
    steps += [Step(f"widget/{label}", "POST", widgets, _widget(**m)) for label, m in META_CASES]
    steps += [Step(f"namespace/{name}", "POST", "/api/v1/namespaces", {"metadata": {"name": name}})
              for name in ("a.b", "Bad", "-a", "a" * 64)]
    steps += [Step("namespace/generate-name", "POST", "/api/v1/namespaces", {"metadata": {"generateName": "Bad."}})]
    roles = f"/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles"
    steps += [Step(f"role/{name}", "POST", roles, {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                                                     "metadata": {"name": name}, "rules": []})
              for name in ("Bad_Name.", "a%b", "..", "ok")]  # RBAC's rule: a path segment
    for kind, base, body in (("configmap", configmaps, _configmap(name="u")), ("widget", widgets, _widget(name="u"))):
        steps += [
            Step(f"{kind}/update/create", "POST", base, body),
            Step(f"{kind}/update/label", "PUT", f"{base}/u", _edit(f"{kind}/update/create", metadata={"labels": {"k": "x y"}})),
            Step(f"{kind}/update/finalizer", "PUT", f"{base}/u", _edit(f"{kind}/update/create", metadata={"finalizers": ["Bad!"]})),
            Step(f"{kind}/update/owners", "PUT", f"{base}/u", _edit(f"{kind}/update/create", metadata={
                "ownerReferences": [{**_OWNER, "controller": True}, {**_OWNER, "name": "p", "controller": True}]})),
            Step(f"{kind}/update/generation", "PUT", f"{base}/u", _edit(f"{kind}/update/create", metadata={"generation": -1})),
            Step(f"{kind}/update/annotation", "PATCH", f"{base}/u", {"metadata": {"annotations": {"Bad Key!": "v"}}},
                 content_type="application/merge-patch+json"),
        ]
    return steps


def test_object_meta_validation(sides: tuple[Newer, httpx.Client], namespace: str, figure: Figure) -> None:
    server, fake = sides
    outcome = run(server, fake, meta_steps(namespace))  # type: ignore[arg-type]  # Newer answers as a client
    assert set(server.used) == server.older, server.used  # each older behaviour was met
    codes = [outcome.server[f"configmap/{label}"].get("code") for label, _ in META_CASES]
    assert codes.count(422) == len(META_CASES) - 2, codes  # the scenario reaches what it is about
    roles = [outcome.server[f"role/{name}"].get("code", 201) for name in ("Bad_Name.", "a%b", "..", "ok")]
    assert roles == [201, 422, 422, 201], roles
    assert "details" in outcome.server["configmap/no-name"] and "name" not in outcome.server["configmap/no-name"]["details"]
    _report(outcome, figure, "object meta validation")


def finalizer_steps(ns: str) -> list[Step]:
    """A ConfigMap and a Widget held by a finalizer, deleted, then offered a new finalizer every
    way a client writes (refused), then released (the last finalizer's removal deletes)."""
    steps: list[Step] = []
    for kind, base, body in (
        ("configmap", f"/api/v1/namespaces/{ns}/configmaps", _configmap(name="held", finalizers=["kgen.dev/a"])),
        ("widget", f"/apis/{GROUP}/v1/namespaces/{ns}/widgets", _widget(name="held", finalizers=["kgen.dev/a"])),
    ):
        both = ["kgen.dev/a", "kgen.dev/b"]
        steps += [
            Step(f"{kind}/create", "POST", base, body),
            Step(f"{kind}/delete", "DELETE", f"{base}/held"),
            Step(f"{kind}/get", "GET", f"{base}/held"),
            Step(f"{kind}/update", "PUT", f"{base}/held", _edit(f"{kind}/get", metadata={"finalizers": both})),
            Step(f"{kind}/merge", "PATCH", f"{base}/held", {"metadata": {"finalizers": both}},
                 content_type="application/merge-patch+json"),
            Step(f"{kind}/json", "PATCH", f"{base}/held", [{"op": "add", "path": "/metadata/finalizers/-", "value": "kgen.dev/b"}],
                 content_type="application/json-patch+json"),
            Step(f"{kind}/apply", "PATCH", f"{base}/held", {
                "apiVersion": body["apiVersion"], "kind": body["kind"], "metadata": {"name": "held", "finalizers": ["kgen.dev/b"]},
            }, params={"fieldManager": "m"}, content_type="application/apply-patch+yaml"),
            Step(f"{kind}/same", "PUT", f"{base}/held", _edit(f"{kind}/get", metadata={"labels": {"x": "1"}})),
            Step(f"{kind}/release", "PATCH", f"{base}/held", {"metadata": {"finalizers": None}},
                 content_type="application/merge-patch+json"),
            Step(f"{kind}/gone", "GET", f"{base}/held"),
        ]
        if kind == "configmap":
            steps.insert(-3, Step(f"{kind}/strategic", "PATCH", f"{base}/held", {"metadata": {"finalizers": ["kgen.dev/b"]}},
                                  content_type="application/strategic-merge-patch+json"))
    return steps


def test_no_new_finalizers_while_deleting(sides: tuple[Newer, httpx.Client], namespace: str, figure: Figure) -> None:
    server, fake = sides
    outcome = run(server, fake, finalizer_steps(namespace))  # type: ignore[arg-type]
    assert set(server.used) == server.older & {"builtin-meta-errors-repeated"}, server.used
    for label in ("update", "merge", "json", "apply"):
        assert outcome.server[f"widget/{label}"]["code"] == 422, outcome.server[f"widget/{label}"]
        assert outcome.server[f"configmap/{label}"]["code"] == 422, outcome.server[f"configmap/{label}"]
    _report(outcome, figure, "no new finalizers while deleting")


def test_validate_reports_a_custom_resources_metadata(sides: tuple[Newer, httpx.Client], namespace: str,
                                                      figure: Figure) -> None:
    """``validate`` (typed clients' ``validate=True``, ``kgen validate``) gives a Widget's metadata
    errors as the server's causes, creates and updates alike (an update's causes repeated as
    the registry repeats them). Not compared: the name a bad generateName gets (the server's
    random suffix) and a missing name, which ``validate`` leaves to the request."""
    from kgen.runtime.apimachinery.validation import validate

    server, _ = sides
    package = custom_resource_models()
    widgets = f"/apis/{GROUP}/v1/namespaces/{namespace}/widgets"
    compared = 0

    def check(label: str, answer: httpx.Response, obj: dict[str, Any], old: dict[str, Any] | None = None) -> None:
        nonlocal compared
        causes = answer.json()["details"]["causes"] if answer.status_code == 422 else []
        expected = sorted((c["field"], c["message"]) for c in causes
                          if not (c["field"] == "metadata.name" and not obj["metadata"].get("name")))
        found = sorted((e.field, e.message) for e in validate(obj, old=old, package=package))
        assert found == expected, label
        compared += 1

    for label, metadata in META_CASES:
        body = _widget(**metadata)
        check(label, server.request("POST", widgets, json=body), {**body, "metadata": {**metadata, "namespace": namespace}})
    stored = server.request("POST", widgets, json=_widget(name="v", finalizers=["kgen.dev/a"])).json()
    for label, changes in (("label", {"labels": {"k": "x y"}}), ("finalizer", {"finalizers": ["kgen.dev/a", "Bad!"]}),
                           ("annotation", {"annotations": {"Bad Key!": "v"}})):
        new = {**stored, "metadata": {**stored["metadata"], **changes}}
        check(f"update/{label}", server.request("PUT", f"{widgets}/v", json=new), new, stored)
    deleting = server.request("DELETE", f"{widgets}/v").json()
    new = {**deleting, "metadata": {**deleting["metadata"], "finalizers": ["kgen.dev/a", "kgen.dev/b"]}}
    check("update/deleting", server.request("PUT", f"{widgets}/v", json=new), new, deleting)
    server.request("PATCH", f"{widgets}/v", content=b'{"metadata":{"finalizers":null}}',
                   headers={"Content-Type": "application/merge-patch+json"})
    figure(f"validate() on a custom resource's metadata: {compared} answers compared with the server's, 0 differences")


def retain_keys_steps(ns: str) -> list[Step]:
    """``$retainKeys`` where the schema has no retainKeys strategy (a map of labels), and beside it."""
    base = f"/api/v1/namespaces/{ns}/configmaps"
    deployments = f"/apis/apps/v1/namespaces/{ns}/deployments"
    smp = "application/strategic-merge-patch+json"
    steps = [Step("create", "POST", base, _configmap(name="r", labels={"a": "1"}))]
    for label, patch in (
        ("labels-empty", {"metadata": {"labels": {"$retainKeys": [], "x": "1"}}}),
        ("labels-listed", {"metadata": {"labels": {"$retainKeys": ["x"], "x": "1"}}}),
        ("labels-only", {"metadata": {"labels": {"$retainKeys": []}}}),
        ("labels-not-a-list", {"metadata": {"labels": {"$retainKeys": "x", "x": "1"}}}),
        ("metadata", {"metadata": {"$retainKeys": ["labels"], "labels": {"x": "1"}}}),
        ("data", {"data": {"$retainKeys": ["k"], "k": "w"}}),
        ("top", {"$retainKeys": ["data"], "data": {"k": "w"}}),
    ):
        steps.append(Step(f"configmap/{label}", "PATCH", f"{base}/r", patch, content_type=smp))
    steps.append(Step("create-bare", "POST", base, _configmap(name="bare")))
    for label, labels in (("retain-keys", {"$retainKeys": [], "x": "1"}), ("int", {"x": 1}), ("bool", {"x": True}),
                          ("list", {"x": ["a"]}), ("float", {"x": 1.5})):
        steps.append(Step(f"bare/labels-{label}", "PATCH", f"{base}/bare", {"metadata": {"labels": labels}}, content_type=smp))
    steps.append(Step("bare/annotations-retain-keys", "PATCH", f"{base}/bare",
                      {"metadata": {"annotations": {"$retainKeys": ["y"], "y": "1"}}}, content_type=smp))
    others: list[tuple[str, Any, str]] = [
        ("merge/name-null", {"metadata": {"name": None}}, "application/merge-patch+json"),
        ("merge/name-other", {"metadata": {"name": "other"}}, "application/merge-patch+json"),
        ("merge/namespace-other", {"metadata": {"namespace": "other"}}, "application/merge-patch+json"),
        ("json/name-removed", [{"op": "remove", "path": "/metadata/name"}], "application/json-patch+json"),
        ("json/name-replaced", [{"op": "replace", "path": "/metadata/name", "value": "other"}], "application/json-patch+json"),
    ]
    steps += [Step(label, "PATCH", f"{base}/r", body, content_type=content_type) for label, body, content_type in others]
    steps.append(Step("get", "GET", f"{base}/r"))
    steps.append(Step("deployment/strategy", "PATCH", f"{deployments}/missing",
                      {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}, content_type=smp))
    return steps


def test_retain_keys(sides: tuple[Newer, httpx.Client], namespace: str, figure: Figure) -> None:
    server, fake = sides
    outcome = run(server, fake, retain_keys_steps(namespace))  # type: ignore[arg-type]
    assert outcome.server["configmap/labels-empty"]["code"] == 400, outcome.server["configmap/labels-empty"]
    assert outcome.server["configmap/metadata"]["code"] == 400, outcome.server["configmap/metadata"]
    assert outcome.server["bare/labels-retain-keys"]["code"] == 422, outcome.server["bare/labels-retain-keys"]
    _report(outcome, figure, "$retainKeys in strategic merge patches")


#: Label selectors a list is sent with: malformed ones (each refused with apimachinery's parser
#: message), and a few valid ones whose parse is as easy to get wrong.
LABEL_SELECTORS = [
    "a in (x", "a in x", "a notin (x,y", "a in (x y)", "a in (x,", "a==b==c", "=a", "a,", ",a", "a,,b", "!", "!a=b",
    "a b", "a/b/c=x", "a=b c", "a>b", "a>1,b<x", "a=(b)", "a!b", "a=!b", "(a)", "a<", "a=b=c", "a>1.5", "Bad_Key!=x",
    "k=" + "v" * 64, "a in (x,Bad Value)", "a=>1", "a||b", "x in ()", "a in (,)", "a in (x,,y)", "a=", "!a", "a>-1",
    "a notin (in,notin)", "in=notin", "a>1,", "a>1 b", "a in (x))",
]
#: Field selectors on metadata.name (the field every kind supports).
#: (Which fields a kind supports is left out: the fake takes any dotted path, on purpose.)
FIELD_SELECTORS = ["metadata.name", "metadata.name=a,", "metadata.name==a==b", "metadata.name=a,,metadata.name=b",
                   "metadata.name!=a", "metadata.name==x\\,y", ",", "metadata.name=a=b", "metadata.name=a\\x",
                   "metadata.name=a\\", "metadata.name=s", "metadata.name!=s,metadata.name=s", "metadata.name"]


def test_selector_errors(sides: tuple[Newer, httpx.Client], namespace: str, figure: Figure) -> None:
    server, fake = sides
    base = f"/api/v1/namespaces/{namespace}/configmaps"
    steps = [Step("create", "POST", base, _configmap(name="s", labels={"a": "2", "in": "notin"}))]
    steps += [Step(f"label {s!r}", "GET", base, params={"labelSelector": s}) for s in LABEL_SELECTORS]
    steps += [Step(f"field {s!r}", "GET", base, params={"fieldSelector": s}) for s in FIELD_SELECTORS]
    outcome = run(server, fake, steps)  # type: ignore[arg-type]
    refused = [s for s in LABEL_SELECTORS if outcome.server[f"label {s!r}"].get("code") == 400]
    assert len(refused) >= 15, refused
    assert set(server.used) == server.older & {"label-key-wording"}, server.used
    _report(outcome, figure, f"selectors ({len(refused)} label selectors refused)")


def finalizer_warning_steps(ns: str) -> list[Step]:
    """A custom resource's finalizers that are not domain-qualified: accepted with a ``Warning``
    each (apiextensions-apiserver), on create, update, patch and apply, for the finalizers the
    write adds only; a ConfigMap refuses them instead (core validation)."""
    widgets = f"/apis/{GROUP}/v1/namespaces/{ns}/widgets"
    finalizers = ["c", "a.b", "kgen.dev/x", "orphan", "kubernetes", "Bad_Name"]
    return [
        Step("create", "POST", widgets, _widget(name="fw", finalizers=finalizers)),
        Step("update-same", "PUT", f"{widgets}/fw", _edit("create", metadata={"labels": {"l": "1"}})),
        Step("update-added", "PUT", f"{widgets}/fw", _edit("update-same", metadata={"finalizers": [*finalizers, "d"]})),
        Step("merge-added", "PATCH", f"{widgets}/fw", {"metadata": {"finalizers": [*finalizers, "d", "e.f"]}},
             content_type="application/merge-patch+json"),
        Step("apply-added", "PATCH", f"{widgets}/fw", {
            "apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": "fw", "finalizers": ["g"]}},
            params={"fieldManager": "m"}, content_type="application/apply-patch+yaml"),
        Step("apply-create", "PATCH", f"{widgets}/fa", {
            "apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": "fa", "finalizers": ["h"]}, "spec": {"a": "x"}},
            params={"fieldManager": "m"}, content_type="application/apply-patch+yaml"),
        Step("release", "PATCH", f"{widgets}/fw", {"metadata": {"finalizers": None}}, content_type="application/merge-patch+json"),
        Step("release-applied", "PATCH", f"{widgets}/fa", {"metadata": {"finalizers": None}},
             content_type="application/merge-patch+json"),
    ]


def test_finalizer_warnings(sides: tuple[Newer, httpx.Client], namespace: str, figure: Figure) -> None:
    server, fake = sides
    outcome = run(server, fake, finalizer_warning_steps(namespace))  # type: ignore[arg-type]
    assert outcome.server["create"]["kind"] == "Widget", outcome.server["create"]
    _report(outcome, figure, "custom resources' finalizer warnings")
