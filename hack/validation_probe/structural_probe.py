"""The apiserver as the oracle for structural-schema validation, and the measured choice of the
validator kgen's validate() stands on (issue 15).

    .venv/bin/python -m hack.validation_probe.structural_probe            # apiserver + compare
    .venv/bin/python -m hack.validation_probe.structural_probe --offline  # compare the fixture only

1. Installs ``probe_crd.yaml`` (every structural keyword the apiextensions-apiserver knows) on a
   real kube-apiserver, sends a seeded corpus mutated from one valid Probe with a server-side
   dry-run create, once with the default ``fieldValidation`` (Warn) and once with Strict, and
   records the verdict and every cause of each answer.
2. Probes Deployment, ConfigMap and Pod the same way: built-ins are validated by Go code (the JSON
   decoder, then ``pkg/apis/*/validation``), so it records which answers the published OpenAPI
   schema predicts and which it cannot.
3. Runs each candidate validator on the CRD version's openAPIV3Schema (translated where the
   library needs it: jsonschema-rs, fastjsonschema, python-jsonschema for reference), kgen's own
   validation (the runtime's ``validate_against``) and ``CompiledWalker``, an accept-check compiled
   into closures in front of it, and prints, per candidate and fieldValidation mode, the
   verdict confusion matrix, the per-object field-path and message agreement, the throughput, and
   the walker's agreement on the HOLDOUT objects (written after it; the out-of-sample figure).

The answers are saved as ``tests/fixtures/validation/structural_corpus.json`` so unit tests (and
``--offline``) compare without a server. Mutations are seeded: the same seed gives the same corpus.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import INT64, is_json_integer
from kgen.runtime.apimachinery.validation.strfmt import FORMATS
from kgen.runtime.apimachinery.validation.structural import (
    OBJECT_META, FieldError, check_number, child, enum_equal, list_type_errors, meta_errors,
)
from kgen.runtime.apimachinery.validation.validation import _Walker, validate_against

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "validation"
CORPUS_PATH = FIXTURES / "structural_corpus.json"
CRD_PATH = FIXTURES / "probe_crd.yaml"
SNAPSHOT = ROOT / "openapi"

GROUP, VERSION, PLURAL, KIND = "probe.kgen.io", "v1", "probes", "Probe"
NAMESPACE = "default"

# ---------------------------------------------------------------------------------------------
# The CRD: every keyword issue 15 names, as the apiextensions-apiserver accepts them.
# ---------------------------------------------------------------------------------------------

S = {"type": "string"}
I = {"type": "integer"}

#: Values each ``spec.formats.<name>`` field is probed with; the first is valid in Go.
FORMAT_VALUES: dict[str, list[Any]] = {
    "date-time": ["2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123+02:00", "2024-01-02T03:04:05",
                  "2024-01-02 03:04:05Z", "2024-01-02t03:04:05z", "2024-13-02T03:04:05Z", "yesterday",
                  "2024-01-02"],
    "datetime": ["2024-01-02T03:04:05Z", "not-a-date"],
    "date": ["2024-02-29", "2023-02-29", "2024-1-2", "2024-01-02T00:00:00Z", "20240102"],
    "byte": ["aGVsbG8=", "aGVsbG8", "not base64!", "aGVs bG8=", "", "aGVsbG8_"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
             "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
             "{123e4567-e89b-12d3-a456-426614174000}", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"],
    "uuid4": ["123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
    "ipv4": ["10.1.2.3", "10.1.2", "010.1.2.3", "256.1.2.3", "::1", "::ffff:10.1.2.3", " 10.1.2.3"],
    "ipv6": ["::1", "2001:db8::1", "10.1.2.3", "::ffff:10.1.2.3", "2001:db8::g", "fe80::1%eth0"],
    "cidr": ["10.0.0.0/8", "10.0.0.1/8", "2001:db8::/32", "10.0.0.0/33", "10.0.0.0", "010.0.0.0/8"],
    "hostname": ["example.com", "a-b.c", "Example.COM", "a_b.com", "-ab.com", "a" * 64 + ".com",
                 "example.com.", "1.2.3.4", "ex ample"],
    "email": ["a@example.com", "A B <a@example.com>", "a@b", "a", "a@@b.com", "@example.com"],
    "uri": ["https://example.com/x?y=1", "/just/a/path", "relative/path", "mailto:a@b.c", "http://",
            "http://exa mple.com", "::not"],
    "duration": ["1h30m", "300ms", "-1.5h", "0", "PT1H", "1 hour", "5", "1d", "22 ns", "1.5 hours"],
    "mac": ["00:11:22:33:44:55", "00-11-22-33-44-55", "0011.2233.4455", "00:11:22:33:44",
            "00:11:22:33:44:55:66:77", "zz:11:22:33:44:55"],
    "bsonobjectid": ["507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901z"],
    "hexcolor": ["#ffffff", "fff", "#fffff", "#ggg"],
    "rgbcolor": ["rgb(255,255,255)", "rgb(256,0,0)", "rgb(1,2)"],
    "isbn": ["978-0321751041", "0321751043", "1234567890"],
    "creditcard": ["4111111111111111", "1234"],
    "ssn": ["123-45-6789", "123456789", "12-345-6789"],
    "password": ["anything at all"],
    "k8s-short-name": ["abc", "Not_A_Name", "a.b"],
    "k8s-long-name": ["a.b", "Not_A_Name"],
    "int32": ["12", "abc"],
}


def _format_field(fmt: str) -> str:
    return re.sub(r"-(.)", lambda m: m.group(1).upper(), fmt)


def probe_schema() -> dict[str, Any]:
    spec: dict[str, Any] = {
        "type": "object",
        "required": ["name", "replicas"],
        "properties": {
            "name": {"type": "string", "minLength": 2, "maxLength": 20, "pattern": "^[a-z][a-z0-9-]*$"},
            "replicas": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 100},
            "count32": {"type": "integer", "format": "int32"},
            "big": {"type": "integer", "format": "int64"},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1, "exclusiveMaximum": True},
            "step": {"type": "integer", "minimum": 0, "exclusiveMinimum": True, "multipleOf": 5},
            "weight": {"type": "number", "format": "double", "multipleOf": 0.5},
            "enabled": {"type": "boolean"},
            "mode": {"type": "string", "enum": ["Fast", "Slow", "Off"]},
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "formats": {"type": "object", "properties": {
                _format_field(f): {"type": "string", "format": f} for f in FORMAT_VALUES}},
            "port": {"x-kubernetes-int-or-string": True},
            "percent": {"x-kubernetes-int-or-string": True,
                        "anyOf": [{"type": "integer"}, {"type": "string"}],
                        "maximum": 100, "pattern": "^[0-9]+%$"},
            "nullableStr": {"type": "string", "nullable": True},
            "nullableObj": {"type": "object", "nullable": True, "properties": {"a": S}},
            "plainStr": {"type": "string"},
            "plainObj": {"type": "object", "properties": {"a": S}},
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "minItems": 1, "maxItems": 5,
                     "items": {"type": "string", "maxLength": 8}},
            "numbers": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}},
            "ports": {
                "type": "array", "maxItems": 4,
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"],
                "items": {"type": "object", "required": ["name"], "properties": {
                    "name": S,
                    "protocol": {"type": "string", "enum": ["TCP", "UDP"], "default": "TCP"},
                    "port": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 65535},
                }},
            },
            "steps": {"type": "array", "x-kubernetes-list-type": "atomic",
                      "items": {"type": "object", "required": ["id"], "properties": {
                          "id": I, "note": {"type": "string", "maxLength": 5}}}},
            "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "labels": {"type": "object", "minProperties": 1, "maxProperties": 3,
                       "additionalProperties": {"type": "string", "maxLength": 10}},
            "counts": {"type": "object", "x-kubernetes-map-type": "granular",
                       "additionalProperties": {"type": "integer", "minimum": 0}},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic",
                         "properties": {"app": S, "tier": S}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            "freeTyped": {"type": "object", "x-kubernetes-preserve-unknown-fields": True,
                          "properties": {"known": {"type": "integer"}}},
            "anything": {"x-kubernetes-preserve-unknown-fields": True},
            "template": {"type": "object", "x-kubernetes-embedded-resource": True,
                         "x-kubernetes-preserve-unknown-fields": True},
            "nested": {"type": "object", "required": ["inner"], "properties": {
                "inner": {"type": "object", "required": ["value"], "properties": {
                    "value": {"type": "string", "minLength": 1}, "extra": I}}}},
        },
    }
    return {"type": "object", "properties": {
        "apiVersion": S, "kind": S, "metadata": {"type": "object"}, "spec": spec}}


def probe_crd() -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{PLURAL}.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"plural": PLURAL, "singular": "probe", "kind": KIND, "listKind": "ProbeList"},
            "versions": [{"name": VERSION, "served": True, "storage": True,
                          "schema": {"openAPIV3Schema": probe_schema()}}],
        },
    }


def valid_probe() -> dict[str, Any]:
    return {
        "apiVersion": f"{GROUP}/{VERSION}",
        "kind": KIND,
        "metadata": {"name": "p"},
        "spec": {
            "name": "web-1",
            "replicas": 3,
            "count32": 7,
            "big": 9007199254740993,
            "ratio": 0.5,
            "step": 10,
            "weight": 1.5,
            "enabled": True,
            "mode": "Fast",
            "level": 2,
            "formats": {_format_field(f): v[0] for f, v in FORMAT_VALUES.items()},
            "port": 8080,
            "percent": "50%",
            "nullableStr": "x",
            "nullableObj": {"a": "b"},
            "plainStr": "y",
            "plainObj": {"a": "c"},
            "tags": ["a", "b"],
            "numbers": [1, 2],
            "ports": [{"name": "http", "protocol": "TCP", "port": 80},
                      {"name": "http", "protocol": "UDP", "port": 80},
                      {"name": "dns", "port": 53}],
            "steps": [{"id": 1, "note": "ok"}, {"id": 1}],
            "matrix": [[1, 2], [3]],
            "labels": {"app": "web"},
            "counts": {"a": 1, "b": 0},
            "selector": {"app": "web"},
            "free": {"any": {"thing": [1, "two", None]}},
            "freeTyped": {"known": 1, "unknown": "kept"},
            "anything": ["a", 1, {"b": None}],
            "template": {"apiVersion": "v1", "kind": "ConfigMap",
                         "metadata": {"name": "cm"}, "data": {"k": "v"}},
            "nested": {"inner": {"value": "v"}},
        },
    }


# ---------------------------------------------------------------------------------------------
# The corpus: seeded mutations of the valid Probe.
# ---------------------------------------------------------------------------------------------

DELETE = object()  # a mutation value that removes the field
Path_ = tuple[Any, ...]

#: (label, path under the object, values). Each value gives one object.
WRONG = ["3", 3, 3.5, True, None, [], {}]
MUTATIONS: list[tuple[str, Path_, list[Any]]] = [
    ("type", ("spec", "name"), [5, True, [], {}, None]),
    ("length", ("spec", "name"), ["a", "a" * 21, "a" * 20]),
    ("pattern", ("spec", "name"), ["Web", "9web", "web_1", "web-"]),
    ("required", ("spec", "name"), [DELETE]),
    ("type", ("spec", "replicas"), ["3", 3.5, 3.0, True, None, [1], {"a": 1}, 1e2]),
    ("range", ("spec", "replicas"), [-1, 0, 100, 101, 2**31]),
    ("required", ("spec", "replicas"), [DELETE]),
    ("int32", ("spec", "count32"), [2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**40, 1e10]),
    ("int64", ("spec", "big"), [2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 1.5, 1e18, 1e19, "1"]),
    ("range", ("spec", "ratio"), [0, 0.999, 1, 1.0, -0.01, 2, "0.5", True]),
    ("range", ("spec", "step"), [0, 5, 7, -5, 10.0, 12.5, "5"]),
    ("multipleOf", ("spec", "weight"), [0, 1, 1.25, 2.5, 0.1, -3, 1e20, "1"]),
    ("type", ("spec", "enabled"), ["true", 1, 0, None, False]),
    ("enum", ("spec", "mode"), ["Slow", "fast", "", 1, None, ["Fast"]]),
    ("enum", ("spec", "level"), [1, 3, 4, 0, 2.0, "2", 2.5]),
    ("int-or-string", ("spec", "port"), [80, "http", "", 80.5, 80.0, True, None, [], {}, -1, 2**40]),
    ("int-or-string", ("spec", "percent"), [100, 101, "5%", "abc", "%", 50.5, True, None]),
    ("nullable", ("spec", "nullableStr"), [None, 5, ""]),
    ("nullable", ("spec", "nullableObj"), [None, "x", {}, {"a": None}, {"a": 1}]),
    ("nullable", ("spec", "plainStr"), [None, 5]),
    ("nullable", ("spec", "plainObj"), [None, "x", {"a": None}]),
    ("type", ("spec", "formats"), [None, "x", [], {}]),
    ("set", ("spec", "tags"), [["a", "b", "a"], ["a", "a", "a"], ["a", "b", "a", "b"], [], ["a"] * 6,
                               list("abcdef"), ["a", 1], ["a", None], ["abcdefghi"], "a", None, [["a"]]]),
    ("set", ("spec", "numbers"), [[1, 1], [1, 2, 1], [1, 1.0], [1, "1"], [1.5], [True], [None, None]]),
    ("map-list", ("spec", "ports"), [
        [{"name": "a", "protocol": "TCP"}, {"name": "a", "protocol": "TCP"}],
        [{"name": "a", "protocol": "TCP"}, {"name": "a"}],
        [{"name": "a"}, {"name": "a"}],
        [{"name": "a", "protocol": "TCP"}, {"name": "b"}, {"name": "a", "protocol": "TCP"}, {"name": "b"}],
        [{"name": "a", "protocol": "UDP"}, {"name": "a", "protocol": "udp"}],
        [{"protocol": "TCP"}],
        [{"name": "a", "port": 0}],
        [{"name": "a", "port": 70000}],
        [{"name": "a", "port": "80"}],
        [{"name": n} for n in "abcde"],
        [{"name": 1}],
        [{"name": None}],
        [{"name": "a", "protocol": None}],
        [None],
        ["a"],
        [],
        None,
        {"name": "a"},
    ]),
    ("atomic-list", ("spec", "steps"), [
        [{"id": 1}, {}], [{"id": "1"}], [{"id": 1, "note": "toolong"}], [{"id": 1}, {"id": 1}],
        [{"id": 1, "note": None}], [1], None]),
    ("nested-list", ("spec", "matrix"), [[[1, "x"]], [[1], [2, 2.5]], [1], [[None]], [[]], [[1], None]]),
    ("map", ("spec", "labels"), [{}, {"a": "1", "b": "2", "c": "3", "d": "4"}, {"a": 1},
                                 {"a": "01234567890"}, {"a": None}, {"a b": "x", "": "y"},
                                 {"a": "1", "b": 2, "c": None}, None, ["a"]]),
    ("map", ("spec", "counts"), [{"a": -1}, {"a": "1"}, {"a": 1.5}, {"a": None}, {"a": -1, "b": -2}, {}]),
    ("map-type", ("spec", "selector"), [{"app": 1}, {"other": "x"}, None]),
    ("preserve-unknown", ("spec", "free"), [{"x": {"y": [None, 1.5, "z"]}}, "str", None, [], {}]),
    ("preserve-unknown", ("spec", "freeTyped"), [{"known": "1"}, {"known": 1, "extra": {"deep": 1}},
                                                 {"known": None}]),
    ("preserve-unknown", ("spec", "anything"), ["x", 1, None, {"a": [1]}, True]),
    ("embedded", ("spec", "template"), [
        {"kind": "ConfigMap", "metadata": {"name": "x"}},
        {"apiVersion": "v1", "metadata": {"name": "x"}},
        {},
        {"apiVersion": "v1", "kind": "ConfigMap"},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "labels": {"a b": "c"}}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": 5}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "unknownMeta": 1}},
        {"apiVersion": 1, "kind": "ConfigMap"},
        "x",
        None,
    ]),
    ("required", ("spec", "nested"), [{}, {"inner": {}}, {"inner": None}, {"inner": {"value": ""}},
                                      {"inner": {"value": "v", "extra": "1"}}, None, DELETE]),
    ("unknown", ("spec", "unknownField"), [1, {"a": 1}, None]),
    ("unknown", ("spec", "nested", "inner", "unknownInner"), ["x"]),
    ("unknown", ("spec", "ports", 0, "unknownPortField"), ["x"]),
    ("unknown", ("spec", "plainObj", "unknownObjField"), [None]),
    ("unknown", ("spec", "free", "notUnknown"), ["x"]),
    ("unknown", ("topLevelUnknown",), ["x"]),
    ("unknown", ("status",), [{"phase": "x"}]),
    ("spec", ("spec",), [None, "x", [], {}]),
]
#: Written after the walker below was fitted to MUTATIONS: its agreement on these (labelled
#: "holdout:...") is the out-of-sample figure. New values only, no new keywords.
HOLDOUT: list[tuple[str, Path_, list[Any]]] = [
    ("type", ("spec", "name"), ["a-", "ab", "x" * 20 + "y", "é", 0, False]),
    ("type", ("spec", "replicas"), [50.0, 100.5, -0.0, 1e-3, "", 2**31 - 1, 2**53 + 1, -(2**63)]),
    ("int32", ("spec", "count32"), [2147483647.0, -2147483648.5, 2**31 + 0.5, 1e9]),
    ("int64", ("spec", "big"), [2**53, -1.0, 9.5e18, 1e-5]),
    ("range", ("spec", "ratio"), [1e-300, 0.9999999999999999, 1.0000000000000002, 5, -0.0]),
    ("range", ("spec", "step"), [5.0, 25, 3.0, 1e3, 2**40, 5 * 2**40]),
    ("multipleOf", ("spec", "weight"), [0.5, 2.0, 1e15 + 0.5, 0.25, 3.5, -1.5, 7]),
    ("enum", ("spec", "mode"), ["Off", "OFF", " Fast", False]),
    ("enum", ("spec", "level"), [True, 3.0, 1e0, [1]]),
    ("int-or-string", ("spec", "port"), ["80", -0.5, 2**63, 1e3]),
    ("int-or-string", ("spec", "percent"), [0, -5, "100%", "50", 99.0, "1%%", 100.5]),
    ("set", ("spec", "tags"), [["b", "a", "b", "a", "c"], ["", ""], ["a", "A"], [True, True], [1, 1]]),
    ("set", ("spec", "numbers"), [[0, -0], [2**40, 2**40], [1.0, 1.0], [[1], [1]], [1, 2, 3, 2, 1]]),
    ("map-list", ("spec", "ports"), [
        [{"name": "a", "protocol": "UDP"}, {"name": "a", "protocol": "UDP"}, {"name": "a"}],
        [{"name": "a", "protocol": "TCP", "port": 1}, {"name": "a", "port": 2}],
        [{"name": ""}, {"name": ""}],
        [{"name": "a"}, {"name": "b"}, {"name": "a"}, {"name": "a"}],
        [{"name": "a", "protocol": "SCTP"}],
        [{"name": "a"}, "x", {"name": "a"}],
    ]),
    ("atomic-list", ("spec", "steps"), [[{"id": 1.5}], [{"id": None}], [{"note": "x" * 6}]]),
    ("nested-list", ("spec", "matrix"), [[[1, 2**63]], [[True]], [["1"]]]),
    ("map", ("spec", "labels"), [{"a/b": "x"}, {"k": ""}, {"k": "é" * 10}, {"k": "é" * 11},
                                 {"a": "1", "b": "2", "c": "3"}, {"a": 1, "b": 2}]),
    ("map", ("spec", "counts"), [{"a": 0.0}, {"a": -0.5}, {"a": 2**63}]),
    ("map-type", ("spec", "selector"), [{"app": None, "tier": "x"}, {"tier": 5}, "x"]),
    ("preserve-unknown", ("spec", "freeTyped"), [{"known": 1.5}, {"known": "x", "a": None}]),
    ("embedded", ("spec", "template"), [
        {"apiVersion": "", "kind": "X"},
        {"apiVersion": "v1", "kind": "X", "metadata": {"labels": {"ok": "v", "-bad": "v"}}},
        {"apiVersion": "v1", "kind": "X", "metadata": {"annotations": {"a b": "c"}}},
        {"apiVersion": "v1", "kind": "X", "metadata": {"labels": {"k": "bad value!"}}},
        {"apiVersion": "v1", "kind": "X", "metadata": "x"},
        {"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "namespace": "Bad"}},
    ]),
    ("required", ("spec", "nested"), [{"inner": {"value": None}}, {"inner": {"value": 1}}, {"inner": "x"},
                                      {"inner": {"value": "v"}, "other": 1}]),
    ("format:date-time", ("spec", "formats", "dateTime"), [
        "2024-02-29T23:59:60Z", "2024-01-02T24:00:00Z", "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05+0200",
        "2024-01-02T03:04:05-23:59", "0000-01-01T00:00:00Z"]),
    ("format:date", ("spec", "formats", "date"), ["0000-01-01", "2024-02-30", "2024-12-31"]),
    ("format:byte", ("spec", "formats", "byte"), ["YQ==", "YQ", "Y===", "YWJj\n"]),
    ("format:uuid", ("spec", "formats", "uuid"), ["00000000-0000-0000-0000-000000000000",
                                                  "123e4567-e89b12d3-a456-426614174000"]),
    ("format:ipv4", ("spec", "formats", "ipv4"), ["0.0.0.0", "1.2.3.04", "1.2.3.0004", "1.2.3.4/8"]),
    ("format:ipv6", ("spec", "formats", "ipv6"), ["::", "1::2::3", "::ffff:1.2.3.04", "2001:db8:0:0:0:0:0:1:2"]),
    ("format:cidr", ("spec", "formats", "cidr"), ["::/0", "1.2.3.4/08", "1.2.3.4/-1"]),
    ("format:hostname", ("spec", "formats", "hostname"), [
        "a", "a.b.c.com", "xn--bcher-kva.example", "ü.com", "a..com", "com.", "a.1com"]),
    ("format:email", ("spec", "formats", "email"), ["a.b@c.d", "a b@c.d", '"a b"@c.d', "<a@b.c>", "a@b.c, d@e.f"]),
    ("format:uri", ("spec", "formats", "uri"), ["http://a/b c", "HTTP://X", "urn:isbn:123", "http://[::1]:80/",
                                                "//x/y", "a:"]),
    ("format:duration", ("spec", "formats", "duration"), ["1h 30m", "1us", "1µs", "-5m", "1.5", "3 weeks", "1y",
                                                          "1 fortnight"]),
    ("format:mac", ("spec", "formats", "mac"), ["00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33",
                                                "0011.2233.4455.6677", "00:11:22:33:44:5"]),
    ("format:bsonobjectid", ("spec", "formats", "bsonobjectid"), ["507F1F77BCF86CD799439011"]),
    ("format:hexcolor", ("spec", "formats", "hexcolor"), ["#FFF", "FFFFFF", "#ffff"]),
    ("format:rgbcolor", ("spec", "formats", "rgbcolor"), ["rgb( 1 , 2 , 3 )", "rgb(01,2,3)", "RGB(1,2,3)"]),
    ("format:isbn", ("spec", "formats", "isbn"), ["978-0-321-75104-1", "0-321-75104-3", "97803217510", "080442957X"]),
    ("format:creditcard", ("spec", "formats", "creditcard"), ["4111-1111-1111-1111", "4111111111111112"]),
    ("format:ssn", ("spec", "formats", "ssn"), ["123 45 6789", "123-456789"]),
    ("format:k8s-short-name", ("spec", "formats", "k8sShortName"), ["a" * 64, "a-b", "-a"]),
    ("format:k8s-long-name", ("spec", "formats", "k8sLongName"), ["a..b", "a." * 127 + "a", "A.b"]),
    ("format:uuid4", ("spec", "formats", "uuid4"), ["123e4567-e89b-42d3-c456-426614174000"]),
]
for _fmt, _values in FORMAT_VALUES.items():
    MUTATIONS.append(("format:" + _fmt, ("spec", "formats", _format_field(_fmt)), _values[1:] + [5, None]))


def _set(obj: Any, path: Path_, value: Any) -> None:
    for i, key in enumerate(path[:-1]):
        if isinstance(obj, dict) and obj.get(key) is None:
            obj[key] = [] if isinstance(path[i + 1], int) else {}
        obj = obj[key]
    last = path[-1]
    if value is DELETE:
        if isinstance(obj, dict):
            obj.pop(last, None)
        else:
            del obj[last]
    elif isinstance(obj, list) and last == len(obj):
        obj.append(value)
    else:
        obj[last] = value


def build_corpus(seed: int) -> list[dict[str, Any]]:
    """The valid original (with seeded harmless variations) and every mutation, plus seeded
    combinations of 2-4 mutations (how many errors the apiserver reports at once)."""
    rng = random.Random(seed)
    base = valid_probe()
    corpus: list[dict[str, Any]] = []

    def add(label: str, muts: list[tuple[Path_, Any]]) -> None:
        obj = copy.deepcopy(base)
        obj["metadata"]["name"] = f"p{len(corpus)}"
        for path, value in muts:
            _set(obj, path, value if value is DELETE else copy.deepcopy(value))
        corpus.append({"id": len(corpus), "label": label,
                       "mutations": [["/".join(map(str, p)), "<delete>" if v is DELETE else v] for p, v in muts],
                       "raw_mutations": [_mutation_record(p, v) for p, v in muts],
                       "object": obj})

    add("valid", [])
    # valid variations: each optional field dropped in turn (nothing but required ones left)
    for key in base["spec"]:
        if key not in ("name", "replicas"):
            add("valid-drop", [(("spec", key), DELETE)])
    singles = [(label, path, v) for label, path, values in MUTATIONS for v in values]
    for label, path, v in singles:
        add(label, [(path, v)])
    for label, path, values in HOLDOUT:
        for v in values:
            add("holdout:" + label, [(path, v)])
    by_path: dict[Path_, list[tuple[str, Any]]] = {}
    for label, path, v in singles:
        by_path.setdefault(path, []).append((label, v))
    paths = sorted(by_path, key=str)
    for _ in range(40):
        want = rng.randint(2, 4)
        chosen: list[Path_] = []
        for p in rng.sample(paths, len(paths)):
            if not any(p[: len(q)] == q or q[: len(p)] == p for q in chosen):
                chosen.append(p)
            if len(chosen) == want:
                break
        muts = []
        for p in chosen:
            _label, v = rng.choice(by_path[p])
            muts.append((p, v))
        add("combo", muts)
    return corpus


# ---------------------------------------------------------------------------------------------
# The oracle: server-side dry-run create.
# ---------------------------------------------------------------------------------------------

def _answer(resp: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": resp.status_code}
    warnings = resp.headers.get_list("warning") if hasattr(resp.headers, "get_list") else []
    if warnings:
        out["warnings"] = [re.sub(r'^299 - "(.*)"$', r"\1", w) for w in warnings]
    if resp.status_code >= 400:
        body = resp.json()
        out["reason"] = body.get("reason")
        out["message"] = body.get("message")
        causes = (body.get("details") or {}).get("causes") or []
        out["causes"] = [{k: c.get(k) for k in ("reason", "field", "message") if c.get(k) is not None}
                         for c in causes]
    return out


def dry_run(client: Any, path: str, obj: Any) -> dict[str, dict[str, Any]]:
    answers = {}
    for mode in ("Warn", "Strict"):
        # Warn is the apiserver's default when the parameter is absent: sent without it.
        params = {"dryRun": "All"} if mode == "Warn" else {"dryRun": "All", "fieldValidation": "Strict"}
        resp = client.post(path, params=params, content=json.dumps(obj),
                           headers={"Content-Type": "application/json"})
        answers[mode] = _answer(resp)
    return answers


def install_crd(client: Any) -> None:
    resp = client.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=probe_crd())
    if resp.status_code not in (201, 409):
        raise SystemExit(f"CRD rejected: {resp.status_code} {resp.text}")
    path = f"/apis/{GROUP}/{VERSION}/namespaces/{NAMESPACE}/{PLURAL}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if client.get(path).status_code == 200:
            return
        time.sleep(0.2)
    raise SystemExit("CRD never served")


# ---------------------------------------------------------------------------------------------
# Built-in kinds: validated by Go code, not by their published OpenAPI schema.
# ---------------------------------------------------------------------------------------------

def _deployment() -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "a"}},
                     "template": {"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [
                         {"name": "c", "image": "nginx", "ports": [{"containerPort": 80}],
                          "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}}}]}}}}


def _pod() -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "po"},
            "spec": {"containers": [{"name": "c", "image": "nginx", "ports": [{"containerPort": 80}]}]}}


def _configmap() -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"k": "v"}}


C0 = ("spec", "template", "spec", "containers")
BUILTIN_MUTATIONS: list[tuple[str, Callable[[], dict[str, Any]], str, list[tuple[Path_, Any]]]] = [
    ("valid", _deployment, "Deployment", []),
    ("type", _deployment, "Deployment", [(("spec", "replicas"), "3")]),
    ("type", _deployment, "Deployment", [(("spec", "replicas"), 2.5)]),
    ("int32 overflow", _deployment, "Deployment", [(("spec", "replicas"), 2**31)]),
    ("range", _deployment, "Deployment", [(("spec", "replicas"), -1)]),
    ("required", _deployment, "Deployment", [(("spec", "selector"), DELETE)]),
    ("selector mismatch", _deployment, "Deployment", [(("spec", "selector", "matchLabels", "app"), "b")]),
    ("bad quantity", _deployment, "Deployment", [((*C0, 0, "resources", "limits", "cpu"), "lots")]),
    ("quantity number", _deployment, "Deployment", [((*C0, 0, "resources", "limits", "cpu"), 0.5)]),
    ("duplicate container name", _deployment, "Deployment",
     [((*C0, 1), {"name": "c", "image": "busybox"})]),
    ("duplicate port", _deployment, "Deployment", [((*C0, 0, "ports", 1), {"containerPort": 80})]),
    ("port range", _deployment, "Deployment", [((*C0, 0, "ports", 0, "containerPort"), 70000)]),
    ("enum", _deployment, "Deployment", [(("spec", "strategy"), {"type": "Sometimes"})]),
    ("bad date-time", _deployment, "Deployment", [(("metadata", "creationTimestamp"), "yesterday")]),
    ("unknown field", _deployment, "Deployment", [(("spec", "replica"), 2)]),
    ("multiple", _deployment, "Deployment",
     [(("spec", "replicas"), -1), ((*C0, 0, "image"), DELETE), ((*C0, 0, "name"), "Bad_Name")]),
    ("valid", _pod, "Pod", []),
    ("type", _pod, "Pod", [(("spec", "containers", 0, "ports", 0, "containerPort"), "80")]),
    ("int32 overflow", _pod, "Pod", [(("spec", "containers", 0, "ports", 0, "containerPort"), 2**31)]),
    ("duplicate container name", _pod, "Pod", [(("spec", "containers", 1), {"name": "c", "image": "x"})]),
    ("duplicate port", _pod, "Pod", [(("spec", "containers", 0, "ports", 1), {"containerPort": 80})]),
    ("duplicate port name", _pod, "Pod", [(("spec", "containers", 0, "ports"),
                                           [{"name": "p", "containerPort": 80}, {"name": "p", "containerPort": 81}])]),
    ("required", _pod, "Pod", [(("spec", "containers", 0, "image"), DELETE)]),
    ("required list", _pod, "Pod", [(("spec", "containers"), [])]),
    ("enum", _pod, "Pod", [(("spec", "restartPolicy"), "Sometimes")]),
    ("bad quantity", _pod, "Pod", [(("spec", "containers", 0, "resources"), {"requests": {"memory": "1Gb"}})]),
    ("null in list", _pod, "Pod", [(("spec", "containers", 1), None)]),
    ("bad date-time", _pod, "Pod", [(("status",), {"startTime": "not-a-time"})]),
    ("valid", _configmap, "ConfigMap", []),
    ("type", _configmap, "ConfigMap", [(("data", "k"), 5)]),
    ("bad key", _configmap, "ConfigMap", [(("data", "a b"), "v")]),
    ("bad base64", _configmap, "ConfigMap", [(("binaryData",), {"b": "not base64!"})]),
    ("overlap", _configmap, "ConfigMap", [(("binaryData",), {"k": "aGVsbG8="})]),
    ("bad name", _configmap, "ConfigMap", [(("metadata", "name"), "Bad_Name")]),
    ("type", _configmap, "ConfigMap", [(("immutable",), "yes")]),
]

BUILTIN_PATHS = {"Deployment": f"/apis/apps/v1/namespaces/{NAMESPACE}/deployments",
                 "Pod": f"/api/v1/namespaces/{NAMESPACE}/pods",
                 "ConfigMap": f"/api/v1/namespaces/{NAMESPACE}/configmaps"}
BUILTIN_SCHEMAS = {"Deployment": ("apis__apps__v1_openapi.json", "io.k8s.api.apps.v1.Deployment"),
                   "Pod": ("api__v1_openapi.json", "io.k8s.api.core.v1.Pod"),
                   "ConfigMap": ("api__v1_openapi.json", "io.k8s.api.core.v1.ConfigMap")}


def builtin_corpus() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for label, make, kind, muts in BUILTIN_MUTATIONS:
        obj = make()
        for path, value in muts:
            _set(obj, path, value if value is DELETE else copy.deepcopy(value))
        out.append({"id": len(out), "kind": kind, "label": label,
                    "mutations": [["/".join(map(str, p)), "<delete>" if v is DELETE else v] for p, v in muts],
                    "object": obj})
    return out


def ask_apiserver(corpus: list[dict[str, Any]], builtins: list[dict[str, Any]]) -> dict[str, Any]:
    from kgen.runtime.testing import KubeAPIServer

    with KubeAPIServer() as server, server.admin_client() as client:
        install_crd(client)
        path = f"/apis/{GROUP}/{VERSION}/namespaces/{NAMESPACE}/{PLURAL}"
        started = time.perf_counter()
        for entry in corpus:
            entry["apiserver"] = dry_run(client, path, entry["object"])
        took = time.perf_counter() - started
        for entry in builtins:
            entry["apiserver"] = dry_run(client, BUILTIN_PATHS[entry["kind"]], entry["object"])
        return {"kubernetes": server.version, "requests": 2 * len(corpus), "seconds": round(took, 2)}


# ---------------------------------------------------------------------------------------------
# Candidate: kgen's validation, the runtime's validate_against (kgen.runtime.apimachinery.validation).
# ---------------------------------------------------------------------------------------------

Error = dict[str, str]  # {"reason", "field", "message"} as in a Status cause


def _causes(errors: list[FieldError]) -> list[Error]:
    return [{"reason": e.type, "field": e.field, "message": e.message} for e in errors]


class KgenCandidate:
    """The runtime's validate_against on the CRD version's schema (the probe CRD has no CEL rules)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.name = "kgen validate_against"
        self.schema = schema

    def validate(self, obj: Any, strict: bool = False) -> list[Error]:
        return _causes(validate_against(self.schema, obj, field_validation="Strict" if strict else "Warn", cel=False))


# ---------------------------------------------------------------------------------------------
# Candidate: kgen's walker behind a compiled accept-check. The schema is compiled once into closures
# that hold only the checks each node has, built on the runtime's checks (FORMATS, is_json_integer,
# enum_equal, check_number, list_type_errors, meta_errors); an object they accept is one the walker
# accepts with nothing to prune (so Warn and Strict agree), and anything else (an error, a null to
# drop, an unknown field) goes to validate_against for its errors. The shape a generated validator
# would have: valid objects, the common case, never build a path or a message.
# ---------------------------------------------------------------------------------------------

Check = Callable[[Any], bool]


def _always(v: Any) -> bool:
    return v is not None


def compile_accept(s: dict[str, Any], root: bool = False) -> Check:
    nullable = bool(s.get("nullable"))
    enum = s.get("enum")
    if s.get("x-kubernetes-embedded-resource"):
        return _compile_embedded(s, nullable)
    if s.get("x-kubernetes-int-or-string"):
        number_ok = _compile_number(s)
        pattern = re.compile(s["pattern"]) if "pattern" in s else None

        def int_or_string(v: Any) -> bool:
            if isinstance(v, str):
                ok = pattern is None or pattern.search(v) is not None
            elif is_json_integer(v):
                ok = number_ok(v)
            else:
                return v is None and nullable
            return ok and (enum is None or any(enum_equal(v, e) for e in enum))
        return int_or_string
    typ = s.get("type")
    if typ is None:
        return _always
    if typ == "string":
        return _compile_string(s, nullable, enum)
    if typ in ("integer", "number"):
        number_ok = _compile_number(s)
        int32 = s.get("format") == "int32"
        integer = typ == "integer"

        def number(v: Any) -> bool:
            t = type(v)
            if t is int:
                if not -INT64 <= v < INT64:
                    return False
            elif t is not float or (integer and not is_json_integer(v)):
                return v is None and nullable
            if int32 and not -(2**31) <= v < 2**31:
                return False
            return number_ok(v) and (enum is None or any(enum_equal(v, e) for e in enum))
        return number
    if typ == "boolean":
        return lambda v: type(v) is bool and (enum is None or v in enum) or (v is None and nullable)
    if typ == "array":
        return _compile_array(s, nullable)
    return _compile_object(s, nullable, root)


def _compile_string(s: dict[str, Any], nullable: bool, enum: list[Any] | None) -> Check:
    min_len, max_len = s.get("minLength"), s.get("maxLength")
    pattern = re.compile(s["pattern"]) if "pattern" in s else None
    fmt = FORMATS.get(s.get("format") or "")

    def string(v: Any) -> bool:
        if type(v) is not str:
            return v is None and nullable
        if min_len is not None and len(v) < min_len or max_len is not None and len(v) > max_len:
            return False
        if pattern is not None and pattern.search(v) is None:
            return False
        if fmt is not None and not fmt(v):
            return False
        return enum is None or v in enum
    return string


def _compile_number(s: dict[str, Any]) -> Check:
    if not any(k in s for k in ("minimum", "maximum", "multipleOf")):
        return lambda v: True

    def number_ok(v: Any) -> bool:
        found: list[FieldError] = []
        check_number(v, s, "", found)
        return not found
    return number_ok


def _compile_array(s: dict[str, Any], nullable: bool) -> Check:
    items = compile_accept(s["items"]) if isinstance(s.get("items"), dict) else None
    min_items, max_items = s.get("minItems"), s.get("maxItems")
    list_type = s.get("x-kubernetes-list-type")
    keys = s.get("x-kubernetes-list-map-keys") or []
    item_props = (s.get("items") or {}).get("properties") or {}
    key_defaults = {k: item_props[k]["default"] for k in keys if "default" in item_props.get(k, {})}

    def array(v: Any) -> bool:
        if type(v) is not list:
            return v is None and nullable
        if min_items is not None and len(v) < min_items or max_items is not None and len(v) > max_items:
            return False
        if items is not None:
            for item in v:
                if not items(item):
                    return False
        if list_type == "map":
            # the keys as the walker sees them, after defaulting
            return all(type(item) is dict for item in v) and not list_type_errors(
                [{**key_defaults, **item} for item in v], s, "")
        return list_type != "set" or not list_type_errors(v, s, "")
    return array


def _compile_object(s: dict[str, Any], nullable: bool, root: bool) -> Check:
    props = {k: compile_accept(sub) for k, sub in (s.get("properties") or {}).items()}
    addl = compile_accept(s["additionalProperties"]) if isinstance(s.get("additionalProperties"), dict) else None
    preserve = bool(s.get("x-kubernetes-preserve-unknown-fields"))
    required = s.get("required") or []
    min_props, max_props = s.get("minProperties"), s.get("maxProperties")

    def obj(v: Any) -> bool:
        if type(v) is not dict:
            return v is None and nullable
        for key, item in v.items():
            if root and key == "metadata":
                if not _meta_ok(item, embedded=False):
                    return False
                continue
            check = props.get(key, addl)
            if check is None:
                if preserve:
                    continue
                return False
            if not check(item):
                return False
        # a missing defaulted field is fine: the apiserver validated the default with the CRD
        for key in required:
            if key not in v:
                return False
        return not (min_props is not None and len(v) < min_props or max_props is not None and len(v) > max_props)
    return obj


def _compile_embedded(s: dict[str, Any], nullable: bool) -> Check:
    inner = _compile_object({k: v for k, v in s.items() if k != "x-kubernetes-embedded-resource"}, nullable, False)

    def embedded(v: Any) -> bool:
        if type(v) is not dict:
            return v is None and nullable
        for key in ("apiVersion", "kind"):
            if type(v.get(key)) is not str or not v[key]:
                return False
        return _meta_ok(v.get("metadata"), embedded=True) and inner({k: x for k, x in v.items() if k != "metadata"})
    return embedded


def _meta_ok(meta: Any, embedded: bool) -> bool:
    if meta is None:
        return embedded
    if type(meta) is not dict or any(key not in OBJECT_META for key in meta):
        return False
    if not embedded:
        return True
    for key in ("name", "generateName", "namespace"):
        if key in meta and type(meta[key]) is not str:
            return False
    labels, annotations = meta.get("labels") or {}, meta.get("annotations") or {}
    if type(labels) is not dict or type(annotations) is not dict:
        return False
    return all(type(x) is str for x in labels.values()) and not meta_errors(meta, "")


class CompiledWalker:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.name = "kgen walker, compiled accept"
        self.accept = compile_accept(schema, root=True)
        self.walker = KgenCandidate(schema)
        self.fast = 0

    def validate(self, obj: Any, strict: bool = False) -> list[Error]:
        if self.accept(obj):
            self.fast += 1
            return []
        return self.walker.validate(obj, strict)


# ---------------------------------------------------------------------------------------------
# Candidates: JSON-schema libraries on the translated schema.
# ---------------------------------------------------------------------------------------------

def to_json_schema(s: dict[str, Any], strict: bool = False, root: bool = True,
                   list_keywords: bool = True) -> dict[str, Any]:
    """An OpenAPI v3 structural schema as a draft-7 JSON schema: ``nullable`` as a "null" type,
    ``x-kubernetes-int-or-string`` as ["integer", "string"], list-type set as uniqueItems (there is
    no JSON-schema keyword for list-map keys), and under ``strict`` additionalProperties false
    where the apiserver prunes unknown fields. Formats are left for each library to know or not."""
    out: dict[str, Any] = {}
    for key in ("type", "format", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
                "minProperties", "maxProperties", "required"):
        if key in s:
            out[key] = copy.deepcopy(s[key])
    # draft 7: 3.0 is an integer (as for the apiserver); exclusive bounds are numbers, not flags
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if out.pop(flag, False) and bound in out:
            out[flag] = out.pop(bound)
    if s.get("x-kubernetes-int-or-string"):
        out["type"] = ["integer", "string"]
    if s.get("nullable") and "type" in out:
        out["type"] = [*([out["type"]] if isinstance(out["type"], str) else out["type"]), "null"]
        if "enum" in out:
            out["enum"].append(None)
    if "properties" in s:
        out["properties"] = {k: to_json_schema(v, strict, False, list_keywords) for k, v in s["properties"].items()}
    if isinstance(s.get("additionalProperties"), dict):
        out["additionalProperties"] = to_json_schema(s["additionalProperties"], strict, False, list_keywords)
    elif strict and "properties" in s and not s.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    if isinstance(s.get("items"), dict):
        out["items"] = to_json_schema(s["items"], strict, False, list_keywords)
    if list_keywords and s.get("x-kubernetes-list-type") == "set":
        out["uniqueItems"] = True
    if s.get("x-kubernetes-embedded-resource"):
        out["required"] = sorted({*out.get("required", []), "apiVersion", "kind"})
    return out


def _path_of(parts: Any) -> str:
    path = ""
    for part in parts:
        path = child(path, part)
    return path


class JsonschemaRs:
    """jsonschema-rs (Rust, PyO3): iter_errors gives every error with its instance path."""

    def __init__(self, schema: dict[str, Any], glue: bool = False) -> None:
        import jsonschema_rs

        self.name = "jsonschema-rs" + (" + kgen glue" if glue else "")
        self.glue = glue
        self.schema = schema
        # the glue is the runtime's: its string formats, its prune/default pass and list-type checks
        self.runtime = _Walker(None, builtin=False, rules=None)
        formats = {f: (lambda fn: lambda v: fn(v))(fn) for f, fn in FORMATS.items()} if glue else None  # noqa: B023 - bound
        self.validators = {
            strict: jsonschema_rs.Draft7Validator(
                to_json_schema(schema, strict, list_keywords=not glue), validate_formats=True,
                formats=formats)
            for strict in (False, True)}

    def validate(self, obj: Any, strict: bool = False) -> list[Error]:
        if self.glue:
            unknown: list[str] = []
            obj = self.runtime._prune(obj, self.schema, "", unknown, [], resource=True)
            if strict and unknown:
                return [{"reason": "FieldValueUnknown", "field": p, "message": ""} for p in unknown]
        out = []
        for e in self.validators[strict].iter_errors(obj):
            path = _path_of(e.instance_path)
            kind = type(e.kind).__name__
            if kind == "Required":
                path = child(path, e.kind.property)  # type: ignore[attr-defined, unused-ignore]
            elif kind == "AdditionalProperties":
                for extra in e.kind.unexpected:  # type: ignore[attr-defined, unused-ignore]
                    out.append({"reason": kind, "field": child(path, extra), "message": e.message})
                continue
            out.append({"reason": kind, "field": path, "message": e.message})
        if self.glue:
            out += _list_pass(self.runtime, obj, self.schema)
        return out


class Fastjsonschema:
    """fastjsonschema: compiles the schema to Python code; stops at the first error."""

    def __init__(self, schema: dict[str, Any]) -> None:
        import fastjsonschema

        self.name = "fastjsonschema"
        self._exc = fastjsonschema.JsonSchemaValueException
        self.validators = {}
        for strict in (False, True):
            translated = to_json_schema(schema, strict)
            translated["$schema"] = "http://json-schema.org/draft-07/schema#"
            self.validators[strict] = fastjsonschema.compile(translated, use_formats=True)

    def validate(self, obj: Any, strict: bool = False) -> list[Error]:
        try:
            self.validators[strict](obj)
        except self._exc as e:
            parts = list(e.path[1:])
            if e.rule == "required":
                missing = re.search(r"must contain \[(.*?)\] properties", e.message)
                names = re.findall(r"'([^']*)'", missing.group(1)) if missing else []
                return [{"reason": "required", "field": child(_path_of(parts), n), "message": e.message}
                        for n in names[:1]]
            if e.rule == "additionalProperties":
                extra = re.findall(r"'([^']*)'", e.message.split("must not contain", 1)[-1])
                return [{"reason": e.rule, "field": child(_path_of(parts), x), "message": e.message} for x in extra]
            return [{"reason": e.rule or "", "field": _path_of(parts), "message": e.message}]
        return []


class Jsonschema:
    """python-jsonschema, the generator's dependency (the runtime may not import it): the
    reference pure-Python implementation, measured for comparison only."""

    def __init__(self, schema: dict[str, Any]) -> None:
        import jsonschema  # type: ignore[import-untyped, unused-ignore]

        self.name = "jsonschema (reference only)"
        self.validators = {strict: jsonschema.Draft7Validator(to_json_schema(schema, strict),
                                                               format_checker=jsonschema.FormatChecker())
                           for strict in (False, True)}

    def validate(self, obj: Any, strict: bool = False) -> list[Error]:
        out = []
        for e in self.validators[strict].iter_errors(obj):
            path = _path_of(e.absolute_path)
            if e.validator == "required":
                m = re.match(r"'([^']*)' is a required property", e.message)
                path = child(path, m.group(1) if m else "?")
            elif e.validator == "additionalProperties":
                for extra in re.findall(r"'([^']*)'", e.message.split("(", 1)[-1]):
                    out.append({"reason": "additionalProperties", "field": child(path, extra), "message": e.message})
                continue
            out.append({"reason": str(e.validator), "field": path, "message": e.message})
        return out


def _list_pass(runtime: _Walker, v: Any, s: dict[str, Any] | None, path: str = "") -> list[Error]:
    """The glue's pass for what no JSON-schema keyword says: list-type set (with the index of the
    repeat) and list-type map keys (the runtime's list_type_errors)."""
    if not s:
        return []
    errors: list[Error] = []
    if isinstance(v, dict):
        for key, item in v.items():
            sub = runtime._known(s, key)
            if sub is not None:
                errors += _list_pass(runtime, item, sub, child(path, key))
    elif isinstance(v, list):
        if s.get("x-kubernetes-list-type") in ("set", "map"):
            errors += _causes(list_type_errors(v, s, path))
        if isinstance(s.get("items"), dict):
            for i, item in enumerate(v):
                errors += _list_pass(runtime, item, s["items"], child(path, i))
    return errors


# ---------------------------------------------------------------------------------------------
# Comparison.
# ---------------------------------------------------------------------------------------------

_NIL_PATH = re.compile(r'(?: in (\S+)$|"(\S+)" must validate)')
_DECODE_PATH = re.compile(r"cannot be handled as a \w+: ([\w.\[\]]+): ")


def apiserver_paths(answer: dict[str, Any]) -> set[str]:
    """The field paths of an answer; the '<nil>' field of kube-openapi's format-range errors is
    read from the message, where the path is."""
    if answer["code"] < 400:
        return set()
    paths = set()
    for cause in answer.get("causes") or []:
        field = cause.get("field", "")
        if field == "<nil>":
            m = _NIL_PATH.search(cause.get("message", ""))
            field = (m.group(1) or m.group(2)) if m else field
        paths.add(field)
    message = answer.get("message") or ""
    if answer["code"] == 400:
        paths |= set(re.findall(r'unknown field "([^"]+)"', message))
        m = _DECODE_PATH.search(message)
        if m:
            paths.add(m.group(1))
    return paths


def apiserver_messages(answer: dict[str, Any]) -> Counter[tuple[str, str]]:
    return Counter((c.get("field", ""), c.get("message", "")) for c in answer.get("causes") or [])


def compare(candidate: Any, corpus: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    strict = mode == "Strict"
    matrix: Counter[tuple[str, str]] = Counter()
    path_equal = path_total = msg_equal = msg_total = 0
    misses: list[tuple[int, str, Any, Any]] = []
    for entry in corpus:
        answer = entry["apiserver"][mode]
        errors = candidate.validate(copy.deepcopy(entry["object"]), strict)
        api_reject, cand_reject = answer["code"] >= 400, bool(errors)
        matrix[("reject" if api_reject else "accept", "reject" if cand_reject else "accept")] += 1
        if api_reject and cand_reject:
            path_total += 1
            want, got = apiserver_paths(answer), {e["field"] for e in errors}
            if want == got:
                path_equal += 1
            else:
                misses.append((entry["id"], "paths", sorted(want), sorted(got)))
            if answer["code"] == 422:
                msg_total += 1
                cand_msgs = Counter((e["field"], e["message"]) for e in errors)
                api_msgs: Counter[tuple[str, str]] = Counter()
                for (field, message), n in apiserver_messages(answer).items():
                    if field == "<nil>":
                        m = _NIL_PATH.search(message)
                        field = (m.group(1) or m.group(2)) if m else field
                    api_msgs[(field, message)] += n
                msg_equal += cand_msgs == api_msgs
        elif api_reject != cand_reject:
            misses.append((entry["id"], "verdict", answer["code"], [e["field"] + ": " + e["message"] for e in errors][:3]))
    return {"matrix": matrix, "path_equal": path_equal, "path_total": path_total,
            "msg_equal": msg_equal, "msg_total": msg_total, "misses": misses}


def throughput(candidate: Any, objects: list[Any], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        started = time.perf_counter()
        for obj in objects:
            candidate.validate(obj)
        best = min(best, time.perf_counter() - started)
    return len(objects) / best


# ---------------------------------------------------------------------------------------------
# Built-ins: what the published OpenAPI v3 schema predicts (validate_against on it, as on a CRD's).
# ---------------------------------------------------------------------------------------------

def published_schema(kind: str) -> dict[str, Any]:
    """The kind's schema from the embedded snapshot, $refs inlined (allOf-wrapped refs merged)."""
    doc_name, name = BUILTIN_SCHEMAS[kind]
    # The newest release's: the probe's figures are for the pinned apiserver (several are embedded).
    version = max(SNAPSHOT.glob("kubernetes-*"), key=lambda p: tuple(int(x) for x in re.findall(r"\d+", p.name)))
    doc_path = version / "openapi" / "v3" / ("apis/apps/v1.json" if doc_name.startswith("apis__apps") else "api/v1.json")
    schemas = json.loads(doc_path.read_text())["components"]["schemas"]

    def inline(s: Any, depth: int = 0) -> Any:
        if isinstance(s, list):
            return [inline(x, depth) for x in s]
        if not isinstance(s, dict):
            return s
        if depth > 30:
            return {}
        s = dict(s)
        if "$ref" in s:
            target = inline(schemas[s.pop("$ref").rsplit("/", 1)[1]], depth + 1)
            s = {**target, **s}
        if len(s.get("allOf") or []) == 1:
            s = {**inline(s.pop("allOf")[0], depth + 1), **s}
        return {k: (v if k in ("enum", "default", "example", "required", "x-kubernetes-list-map-keys")
                    else inline(v, depth)) for k, v in s.items()}

    schema: dict[str, Any] = inline(schemas[name])
    return schema


def predict_builtins(builtins: list[dict[str, Any]]) -> list[dict[str, Any]]:
    schemas = {kind: published_schema(kind) for kind in BUILTIN_SCHEMAS}
    rows = []
    for entry in builtins:
        answer = entry["apiserver"]["Warn"]
        errors = _causes(validate_against(schemas[entry["kind"]], copy.deepcopy(entry["object"]), cel=False))
        api_reject = answer["code"] >= 400
        paths_api = apiserver_paths(answer)
        paths_got = {e["field"] for e in errors}
        entry["openapi_walker"] = [f"{e['field']}: {e['message']}" for e in errors]
        if api_reject == bool(errors) and (not api_reject or paths_api == paths_got or answer["code"] == 400):
            entry["openapi_predicts"] = "yes"
        elif api_reject == bool(errors):
            entry["openapi_predicts"] = "verdict only"
        else:
            entry["openapi_predicts"] = "no"
        rows.append(entry)
    return rows


# ---------------------------------------------------------------------------------------------
# The fixture: the base object once, each entry as its mutations, the apiserver's answers.
# ---------------------------------------------------------------------------------------------

FIXTURE_FORMAT = (
    "corpus[i].object = base with corpus[i].mutations applied in order: [path] deletes the field at path, "
    "[path, value] sets it (path: keys and list indexes; missing parents are created). apiserver.Warn is a "
    "dry-run create with no fieldValidation (the apiserver's default, Warn), apiserver.Strict with "
    "fieldValidation=Strict: code, the Status reason/message and details.causes (reason, field, message; "
    "their order is the apiserver's, which varies run to run), warnings. Built-ins carry whole objects.")


def _mutation_record(path: Path_, value: Any) -> list[Any]:
    return [list(path)] if value is DELETE else [list(path), value]


def object_of(base: dict[str, Any], mutations: list[list[Any]]) -> dict[str, Any]:
    obj = copy.deepcopy(base)
    for m in mutations:
        _set(obj, tuple(m[0]), DELETE if len(m) == 1 else copy.deepcopy(m[1]))
    return obj


def save_fixture(corpus: list[dict[str, Any]], builtins: list[dict[str, Any]], info: dict[str, Any],
                 seed: int) -> int:
    import yaml  # hack/ is the generator's side: PyYAML is a kgen dependency

    FIXTURES.mkdir(parents=True, exist_ok=True)
    CRD_PATH.write_text("# The probe CRD of hack/validation_probe/structural_probe.py: every structural keyword.\n"
                        + yaml.safe_dump(json.loads(json.dumps(probe_crd())), sort_keys=False, width=100))
    data = {
        "format": FIXTURE_FORMAT,
        "kubernetes": info["kubernetes"],
        "seed": seed,
        "crd": CRD_PATH.name,
        "base": valid_probe(),
        "corpus": [{"id": e["id"], "label": e["label"], "mutations": e["raw_mutations"],
                    "apiserver": e["apiserver"]} for e in corpus],
        "builtins": [{"id": e["id"], "kind": e["kind"], "label": e["label"], "object": e["object"],
                      "apiserver": e["apiserver"], "openapi_predicts": e.get("openapi_predicts"),
                      "openapi_walker": e.get("openapi_walker")} for e in builtins],
    }
    text = "{\n" + ",\n".join(
        f"{json.dumps(k)}: " + (
            "[\n" + ",\n".join(json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in v) + "\n]"
            if isinstance(v, list) else json.dumps(v, ensure_ascii=False))
        for k, v in data.items()) + "\n}\n"
    CORPUS_PATH.write_text(text)
    return len(text.encode())


def load_fixture() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    data = json.loads(CORPUS_PATH.read_text())
    corpus = [{**e, "object": object_of(data["base"], e["mutations"])} for e in data["corpus"]]
    return corpus, data["builtins"], {"kubernetes": data["kubernetes"], "seed": data["seed"]}


# ---------------------------------------------------------------------------------------------
# The report.
# ---------------------------------------------------------------------------------------------

def candidates(schema: dict[str, Any]) -> list[tuple[Any, float]]:
    out: list[tuple[Any, float]] = []
    for make in (KgenCandidate, CompiledWalker, JsonschemaRs, lambda s: JsonschemaRs(s, glue=True), Fastjsonschema,
                 Jsonschema):
        started = time.perf_counter()
        try:
            cand = make(schema)
        except ImportError as err:  # the libraries are measured, not kgen's dependencies
            print(f"skipped: {err.name} is not installed (pip install jsonschema-rs fastjsonschema)")
            continue
        out.append((cand, (time.perf_counter() - started) * 1000))
    return out


def report(corpus: list[dict[str, Any]], builtins: list[dict[str, Any]], info: dict[str, Any]) -> None:
    schema = probe_schema()
    rejected = sum(e["apiserver"]["Warn"]["code"] >= 400 for e in corpus)
    print(f"kube-apiserver {info['kubernetes']}; corpus {len(corpus)} objects (seed {info.get('seed')}): "
          f"{len(corpus) - rejected} accepted, {rejected} rejected with the default fieldValidation; "
          f"{sum(e['apiserver']['Strict']['code'] >= 400 for e in corpus)} rejected under Strict")
    counts = Counter(len(e["apiserver"]["Warn"].get("causes") or []) for e in corpus
                     if e["apiserver"]["Warn"]["code"] == 422)
    print(f"causes per 422: {dict(sorted(counts.items()))}")
    objects = [e["object"] for e in corpus]
    holdout = [e for e in corpus if e["label"].startswith("holdout:")]
    print()
    header = (f"{'candidate':30} {'mode':6} {'agree':>9} {'TP':>4} {'TN':>4} {'FP':>4} {'FN':>4} "
              f"{'paths':>9} {'messages':>9} {'objects/s':>10} {'build ms':>8}")
    print(header)
    print("-" * len(header))
    measured = candidates(schema)
    for cand, build_ms in measured:
        rate = throughput(cand, objects)
        for mode in ("Warn", "Strict"):
            r = compare(cand, corpus, mode)
            m = r["matrix"]
            agree = m[("reject", "reject")] + m[("accept", "accept")]
            print(f"{cand.name:30} {mode:6} {agree:>4}/{len(corpus):<4} {m[('reject', 'reject')]:>4} "
                  f"{m[('accept', 'accept')]:>4} {m[('accept', 'reject')]:>4} {m[('reject', 'accept')]:>4} "
                  f"{r['path_equal']:>4}/{r['path_total']:<4} {r['msg_equal']:>4}/{r['msg_total']:<4} "
                  f"{rate if mode == 'Warn' else '':>10.0f} {build_ms if mode == 'Warn' else '':>8.1f}"
                  if mode == "Warn" else
                  f"{cand.name:30} {mode:6} {agree:>4}/{len(corpus):<4} {m[('reject', 'reject')]:>4} "
                  f"{m[('accept', 'accept')]:>4} {m[('accept', 'reject')]:>4} {m[('reject', 'accept')]:>4} "
                  f"{r['path_equal']:>4}/{r['path_total']:<4} {r['msg_equal']:>4}/{r['msg_total']:<4}")
        if isinstance(cand, CompiledWalker):
            accepted = [obj for obj in objects if cand.accept(obj)]
            print(f"{'  (accepted by the closures)':30} {len(accepted):>4} of {len(corpus) - rejected} valid objects: "
                  f"{throughput(cand, accepted):.0f} objects/s; on them the walker alone "
                  f"{throughput(KgenCandidate(schema), accepted):.0f}, jsonschema-rs "
                  f"{next((f'{throughput(c, accepted):.0f}' for c, _ms in measured if c.name == 'jsonschema-rs'), '-')}")
        if isinstance(cand, KgenCandidate):
            r = compare(cand, holdout, "Warn")
            m = r["matrix"]
            print(f"{'  (holdout only)':30} {'Warn':6} "
                  f"{m[('reject', 'reject')] + m[('accept', 'accept')]:>4}/{len(holdout):<4} "
                  f"{m[('reject', 'reject')]:>4} {m[('accept', 'accept')]:>4} {m[('accept', 'reject')]:>4} "
                  f"{m[('reject', 'accept')]:>4} {r['path_equal']:>4}/{r['path_total']:<4}")
    print("\nTP: both reject, TN: both accept, FP: candidate rejects what the apiserver accepts, FN: the reverse.")
    print("paths: rejected by both with the same set of field paths; messages: same (field, message) multiset"
          " on the 422s ('<nil>' fields read from the message).")
    print("\nformats: string values probed (the valid original excluded) that a candidate judges otherwise than"
          " the apiserver (default mode)")
    by_format: dict[str, Counter[str]] = {}
    cands = [c for c, _ms in measured]
    for entry in corpus:
        if "format:" not in entry["label"]:
            continue
        label = entry["label"].split("format:", 1)[1]
        value = entry["object"]["spec"]["formats"].get(_format_field(label))
        if not isinstance(value, str):
            continue
        api_ok = entry["apiserver"]["Warn"]["code"] < 400
        row = by_format.setdefault(label, Counter())
        row["values"] += 1
        for cand in cands:
            row[cand.name] += (not cand.validate(copy.deepcopy(entry["object"]))) != api_ok
    names = [c.name for c in cands]
    print(f"{'format':16} {'values':>6} " + " ".join(f"{n[:22]:>22}" for n in names))
    for fmt, row in sorted(by_format.items()):
        print(f"{fmt:16} {row['values']:>6} " + " ".join(f"{row[n]:>22}" for n in names))
    print("\nbuilt-ins (validated by Go code): does the published OpenAPI schema predict the answer?")
    for e in builtins:
        a = e["apiserver"]["Warn"]
        causes = "; ".join(f"{c.get('field')}: {c.get('message')}" for c in a.get("causes") or [])
        what = causes or (a.get("message") or "")[:150] or ", ".join(a.get("warnings") or [])
        print(f"  {e['kind']:10} {e['label']:26} {a['code']} predicts={e['openapi_predicts']:12} {what[:160]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offline", action="store_true", help="compare against the saved fixture, no apiserver")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--no-save", action="store_true", help="do not rewrite the fixture")
    args = parser.parse_args(argv)
    if args.offline:
        corpus, builtins, info = load_fixture()
    else:
        corpus, builtins = build_corpus(args.seed), builtin_corpus()
        info = ask_apiserver(corpus, builtins)
        info["seed"] = args.seed
        print(f"{info['requests']} dry-run requests in {info['seconds']} s")
        predict_builtins(builtins)
        if not args.no_save:
            size = save_fixture(corpus, builtins, info, args.seed)
            print(f"saved {CORPUS_PATH.relative_to(ROOT)} ({size / 1024:.0f} KiB) and {CRD_PATH.relative_to(ROOT)}")
    report(corpus, builtins, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
