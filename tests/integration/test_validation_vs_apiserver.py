"""Issue 15's acceptance: kgen's ``validate`` agrees with the real apiserver on every object of a
corpus mutated from valid ones (tests/support/validation_oracle.py), gateway-api's CRDs and their
79 CEL rules among them: the verdict on every object, the field paths and the messages on every
rejected one (the messages of 422s: a 400, Strict's unknown fields, has no causes).

The corpus: gateway-api v1.6.3's standard examples (92 objects, all valid) and the structural
probe CRD's valid object (tests/fixtures/validation/), each with 25 seeded mutations (wrong
types, values past bounds and lengths, format and pattern misses, values outside enums,
duplicates in sets and list-maps, missing required fields, dropped keys CEL rules need, nulls):
2,401 objects. Each is sent with a server-side dry-run create, under fieldValidation Warn and
Strict, and through ``validate`` on a package ``kgen generate --crd`` made of the same CRDs; the
confusion matrix is printed (``pytest -s``).

``validate`` writes a failed CEL rule as 1.35 and later do; against 1.34 (tests/support/versions.py,
"cel-message-shows-type") the message expected is kgen's rewritten as 1.34 writes it: the schema
type of the node the rule sits on in place of the value (``_as_1_34``)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.runtime.apimachinery.validation import FieldError, FieldValidation, validate
from kgen.runtime.apimachinery.validation.cel.library import value_text
from kgen.runtime.apimachinery.validation.cel.validation import Violation, check_rules
from kgen.runtime.apimachinery.validation.validation import blocks_rules
from kgen.runtime.testing import KubeAPIServer
from tests.support.corpus import crd_files, crds, load_documents, module_dir
from tests.support.validation_oracle import Answer, Sample, Served, confusion, dry_run, mutated, served_kinds
from tests.support.versions import behaves_older
from tests.unit.helpers import Generated, generate, imported

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "validation"
NAMESPACE = "validation"
SEED = 15
PER_OBJECT = 25  # mutations of each original: 92 gateway-api + 1 probe originals -> 2,418 objects


@pytest.fixture(scope="module")
def setting(kube_apiserver: KubeAPIServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[httpx.Client, Generated, dict[tuple[str, str], Served], list[Sample], str]]:
    probe_crd = yaml.safe_load((FIXTURES / "probe_crd.yaml").read_text(encoding="utf-8"))
    crd_docs = [*crds("gateway-api"), probe_crd]
    served = served_kinds(crd_docs)
    gen = generate(tmp_path_factory.mktemp("validation"), *[a for f in crd_files("gateway-api") for a in ("--crd", str(f))],
                   "--crd", str(FIXTURES / "probe_crd.yaml"))
    examples = module_dir("sigs.k8s.io/gateway-api", "v1.6.3") / "examples" / "standard"
    originals = [d for p in sorted(examples.rglob("*.yaml")) for d in load_documents(p)
                 if (d.get("apiVersion"), d.get("kind")) in served]
    originals.append(_probe_original())
    for obj in originals:
        if served[(obj["apiVersion"], obj["kind"])].namespaced:
            obj["metadata"]["namespace"] = NAMESPACE
        else:
            obj["metadata"].pop("namespace", None)
    corpus = mutated(originals, lambda o: served[(o["apiVersion"], o["kind"])].schema, random.Random(SEED), PER_OBJECT)
    with kube_apiserver.admin_client(timeout=30.0) as admin:
        for crd in crd_docs:
            resp = admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=crd)
            assert resp.status_code in (201, 409), resp.text
        admin.post("/api/v1/namespaces", json={"metadata": {"name": NAMESPACE}})
        _wait_served(admin, served)
        with imported(gen):
            yield admin, gen, served, corpus, kube_apiserver.version


def _probe_original() -> dict[str, Any]:
    base: dict[str, Any] = json.loads((FIXTURES / "structural_corpus.json").read_text(encoding="utf-8"))["base"]
    return base


def _wait_served(admin: httpx.Client, served: dict[tuple[str, str], Served]) -> None:
    deadline = time.monotonic() + 60
    for (api_version, _), where in served.items():
        path = f"/apis/{api_version}/{where.plural}"
        while admin.get(path).status_code != 200:
            assert time.monotonic() < deadline, f"{path} never served"
            time.sleep(0.2)


def _path(obj: dict[str, Any], served: dict[tuple[str, str], Served]) -> str:
    where = served[(obj["apiVersion"], obj["kind"])]
    return f"/apis/{obj['apiVersion']}/" + (f"namespaces/{NAMESPACE}/" if where.namespaced else "") + where.plural


def _as_1_34(violation: Violation, value: Any, node: dict[str, Any]) -> str:
    """A CEL rule's cause from kgen (1.35's wording) as a 1.34 apiserver writes it.

    apiextensions-apiserver v0.34's validateExpressions files a rule that evaluates to false with
    fieldErrorForReason(path, sts.Type, detail, reason): the value shown is the schema type of the
    node the rule sits on (``self``'s, whatever the rule's fieldPath), so ``Invalid value:
    "object": <detail>`` (no reason, or FieldValueInvalid) and ``Duplicate value: "object"``
    (FieldValueDuplicate); v0.35 shows the value instead, omitted for an object or array and
    printed for a scalar (``Invalid value: <detail>``, ``Invalid value: "abc": <detail>``), as
    kgen does. Forbidden and Required show no value; a rule's evaluation error (``... evaluating
    rule: ...``) shows sts.Type in every release."""
    schema_type = node.get("type") if isinstance(node.get("type"), str) else ""
    typed = value_text(schema_type)  # %q of sts.Type: "object", "array", "string", "" when untyped
    shown = value_text(value)  # what 1.35 shows: None for an object or a list
    if violation.type == "FieldValueDuplicate":
        assert violation.message == "Duplicate value" + (f": {shown}" if shown is not None else ""), violation
        return f"Duplicate value: {typed}"
    if violation.type != "FieldValueInvalid" or violation.message.startswith(f"Invalid value: {typed}: "):
        return violation.message  # Forbidden, Required; an evaluation error, typed in every release
    newer = "Invalid value: " + (f"{shown}: " if shown is not None else "")
    assert violation.message.startswith(newer), violation
    return f"Invalid value: {typed}: " + violation.message.removeprefix(newer)


def _k8s_name_format(error: FieldError) -> bool:
    """A value refused by the k8s-short-name or k8s-long-name format, which 1.34 does not check
    (only the probe CRD uses them, and it has no CEL rule such an error would keep from running)."""
    return error.type == "FieldValueTypeInvalid" and any(
        f" in body must be of type {fmt}: " in error.message for fmt in ("k8s-short-name", "k8s-long-name"))


def _server_messages(obj: dict[str, Any], package: str, field_validation: FieldValidation, errors: list[FieldError],
                     server_version: str) -> tuple[str, ...]:
    """The messages the apiserver of ``server_version`` writes for ``errors``, kgen's answer:
    kgen's own, but on a release that shows a CEL rule's schema type (1.34) its CEL causes as
    that release writes them. Those come from ``validate``'s ``rules`` hook, which hands kgen's
    CEL evaluation each node with rules (its value, its schema, its path) as the walk meets it,
    and the release's wording from the node's schema (``_as_1_34``). Where a blocking error leaves
    the rules unchecked (the hook would check them), kgen's causes stand as they are."""
    if not behaves_older(server_version, "cel-message-shows-type") or any(blocks_rules(e) for e in errors):
        return tuple(sorted(e.message for e in errors))

    def rules_as_1_34(value: Any, node: dict[str, Any], path: str) -> list[FieldError]:
        return [FieldError(v.type, v.field, _as_1_34(v, value, node)) for v in check_rules(value, node, path)]

    older = validate(obj, package=package, field_validation=field_validation, rules=rules_as_1_34)
    # the same causes as kgen's, only worded otherwise
    assert sorted((e.type, e.field) for e in older) == sorted((e.type, e.field) for e in errors), (older, errors)
    return tuple(sorted(e.message for e in older))


@pytest.mark.parametrize("strict", [False, True], ids=["fieldValidation=Warn", "fieldValidation=Strict"])
def test_validate_agrees_with_the_apiserver_on_every_object(
    setting: tuple[httpx.Client, Generated, dict[tuple[str, str], Served], list[Sample], str], strict: bool
) -> None:
    admin, gen, served, corpus, server_version = setting
    field_validation: FieldValidation = "Strict" if strict else "Warn"
    assert len(corpus) >= 1000
    verdicts: list[tuple[bool, bool]] = []
    disagreements: list[str] = []
    path_checked = 0
    messages_checked = 0
    for sample in corpus:
        answer: Answer = dry_run(admin, _path(sample.obj, served), sample.obj, strict=strict)
        errors = validate(sample.obj, package=gen.name, field_validation=field_validation)
        if behaves_older(server_version, "format-k8s-names-unchecked"):
            errors = [e for e in errors if not _k8s_name_format(e)]
        verdicts.append((answer.accepted, not errors))
        fields = frozenset(e.field for e in errors)
        if answer.accepted != (not errors):
            disagreements.append(f"verdict {sample.label}: {json.dumps(sample.obj)[:600]}: apiserver {answer.code} "
                                 f"{answer.messages}, "
                                 f"kgen {[str(e) for e in errors]}")
        elif not answer.accepted:
            path_checked += 1
            if answer.code == 422:  # a 400 (Strict's unknown fields, a decode error) has no causes
                messages_checked += 1
                expected = _server_messages(sample.obj, gen.name, field_validation, errors, server_version)
                if expected != answer.messages:
                    disagreements.append(f"messages {sample.label}: apiserver {answer.messages}, "
                                         f"kgen {list(expected)}")
            if fields != answer.fields:
                disagreements.append(f"paths {sample.label}: apiserver {sorted(answer.fields)}, kgen {sorted(fields)}")
    print(f"\n{server_version}: {len(corpus)} objects, {sum(1 for s in corpus if s.label == 'valid')} originals; "
          f"field paths compared on {path_checked} rejected by both, messages on the {messages_checked} 422s"
          f"\n{confusion(verdicts)}")
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:40])
