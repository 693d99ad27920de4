"""What the supported Kubernetes releases do differently, as the compatibility suite found it.

Each entry is a behaviour of the apiserver (not of kgen) that changed between two supported
releases, and that a test of the compatibility suite meets: the test asks ``behaves_older(server,
key)`` and expects that release's behaviour, so a release that stops (or starts) behaving so
fails the test instead of passing by accident. docs/compatibility.md states each of them, in
its table "Behaviour that differs between releases", one row per key (tests/compat checks both
ways).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difference:
    """An apiserver behaviour of releases up to and including ``last_minor``, changed after it."""

    last_minor: tuple[int, int]
    summary: str


DIFFERENCES: dict[str, Difference] = {
    "cr-status-writes-metadata": Difference(
        (1, 35),
        "a custom resource's /status update or apply makes its field manager own the metadata fields it "
        "sends (labels, annotations, finalizers, owner references), though the status strategy stores the "
        "old object's metadata (only status and managedFields change): up to 1.35 that strategy resets "
        "spec only; from 1.36 it resets metadata too, and a status manager owns status only",
    ),
    "cel-message-shows-type": Difference(
        (1, 34),
        "a CEL rule that evaluates to false shows the schema type of the node the rule sits on (`self`'s, "
        "whatever its fieldPath) as the value: `Invalid value: \"object\": <message>` (<message> from message, "
        "messageExpression or `failed rule: <rule>`, alike; no reason, or "
        "FieldValueInvalid; \"array\", \"string\", \"integer\"..., \"\" when untyped) and "
        "`Duplicate value: \"object\"` (FieldValueDuplicate); from 1.35 it shows the value, omitted for an "
        "object or array (`Invalid value: <message>`, `Duplicate value`) and printed for a scalar "
        "(`Invalid value: \"abc\": <message>`), as kgen's `validate` writes. FieldValueForbidden and "
        "FieldValueRequired show no value, and a rule's evaluation error (`Invalid value: \"object\": "
        "... evaluating rule: ...`) shows the type, in every release",
    ),
    "format-k8s-names-unchecked": Difference(
        (1, 34),
        "the formats k8s-short-name and k8s-long-name are not checked (apiextensions-apiserver's "
        "formats.go introduces them in 1.34, and a 1.34 server validates at its compatibility "
        "version, 1.33); from 1.35 a value they refuse is a 422, as kgen's `validate` answers",
    ),
    "numeric-format-unchecked": Difference(
        (1, 35),
        "a fraction (or an integer past int64) in an integer field is only `must be of type integer`: kube-openapi "
        "before 2026-03 gives its number validator no type or format; from 1.36 its range check adds `Checked value "
        "must be of type integer (default format)`, as kgen's `validate` writes it (measured on 1.34 and 1.37, 1.35 "
        "read from its kube-openapi)",
    ),
    "owner-reference-errors-unindexed": Difference(
        (1, 36),
        "an owner reference's missing apiVersion, kind, name or uid is `Invalid value: \"\": must not be empty` "
        "(the apiVersion's `version must not be empty`) at `metadata.ownerReferences.<field>`, without the "
        "reference's index; from 1.37 it is `Required value: must not be empty` at "
        "`metadata.ownerReferences[i].<field>` (an unparsable apiVersion `must be <group>/<version> or "
        "<version>`), as the fake answers on every release",
    ),
    "label-key-wording": Difference(
        (1, 34),
        "a label or annotation key, or a finalizer name, that is not a qualified name reads `a qualified name must "
        "consist of...` and a label key's or value's length `must be no more than 63 characters` (apimachinery's "
        "util/validation); from 1.35 (pkg/api/validate/content) `a valid label key must consist of...` and "
        "`... 63 bytes`, as the fake answers on every release",
    ),
    "builtin-meta-errors-repeated": Difference(
        (1, 36),
        "an update of a built-in kind reports a metadata mistake once per validation that finds it (the registry's "
        "common ObjectMeta checks, then the kind's ValidateObjectMetaUpdate: a bad label up to three times); "
        "1.37's strategies (rest.DeclarativeValidation) answer each distinct error once, as the fake does. "
        "Custom resources repeat them on every release",
    ),
}


def minor_of(version: str) -> tuple[int, int]:
    """(1, 34) for "v1.34.4", "1.34.4" or "1.34"."""
    major, minor = version.removeprefix("v").split(".")[:2]
    return int(major), int(minor)


def behaves_older(server_version: str, key: str) -> bool:
    """Whether a server of ``server_version`` still has the older behaviour ``key`` names."""
    return minor_of(server_version) <= DIFFERENCES[key].last_minor
