"""``from_dict`` on what PyYAML loads gives the JSON kubectl sends for the same YAML.

The oracle is sigs.k8s.io/yaml's ``YAMLToJSON`` (hack/oracle/yamltojson), which kubectl uses:
a non-string map key becomes a string (``8090`` -> ``"8090"``, ``true`` -> ``"true"``, a float
by ``strconv.FormatFloat(f, 'g', -1, 32)``). Only YAML both parsers read alike is used (PyYAML
and go-yaml differ on some YAML 1.1 scalars, such as ``1e6`` and ``y``, which is not what is
compared; and a Python dict holds one of ``1`` and ``true``, of ``0`` and ``false``).
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
import yaml

from kgen.kubernetes.models.core.v1 import ConfigMap, Pod
from kgen.runtime.apimachinery.lenient import format_float32_g
from tests.support.oracle import oracle_binary


def yaml_to_json(*documents: str) -> list[Any]:
    """What sigs.k8s.io/yaml makes of each document: its JSON value, or the error text."""
    done = subprocess.run(
        [str(oracle_binary("yamltojson"))], input=json.dumps(list(documents)), capture_output=True, text=True,
        timeout=60, check=True,
    )
    return [json.loads(r["json"]) if "json" in r else r["error"] for r in json.loads(done.stdout)]


DOCUMENTS = {
    "ConfigMap int, bool and float keys": (ConfigMap, """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: ports, labels: {8090: a, true: b}}
        data:
          8090: mtls
          1: one
          -7: minus
          false: no-key
          1.5: one-and-a-half
          100000.0: hundred-thousand
          1000000.0: million
          0.00001: small
          0.1: tenth
          123456789.0: rounded-to-float32
          .inf: infinity
          s: string
    """),
    "Pod map fields and an unknown field": (Pod, """
        apiVersion: v1
        kind: Pod
        metadata: {name: p, annotations: {2024: year}}
        spec:
          containers: [{name: app, image: nginx}]
          nodeSelector: {5: five, true: "true-key"}
          overhead: {3: 1Gi}
        futureField:
          portLevelMtls: {8090: {mode: STRICT}, 9.5: {mode: DISABLE}}
          list: [{1: a}, {true: b}]
    """),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_from_dict_of_yaml_equals_what_kubectl_sends(name: str) -> None:
    cls, text = DOCUMENTS[name]
    document = "\n".join(line[8:] for line in text.splitlines())
    (expected,) = yaml_to_json(document)
    assert isinstance(expected, dict), expected
    assert cls.from_dict(yaml.safe_load(document)).to_dict() == expected


def test_float_keys_format_as_go_formats_float32() -> None:
    floats = [0.5, 1.5, 2.25, 3.0, 10.0, 99999.0, 100000.0, 999999.0, 1000000.0, 1234567.0, 0.0001, 0.00001,
              0.1, 0.3, 1.1, 3.14159, 2.718281828, 123456789.0, 1e20, 1.5e-7, 16777217.0, 6.02e23, -2.5, -0.0,
              float("inf"), float("-inf"), float("nan")]
    documents = [f"{{{_yaml_float(f)}: x}}" for f in floats]  # go-yaml reads each key as that float
    expected = [next(iter(obj)) for obj in yaml_to_json(*documents)]
    assert [format_float32_g(f) for f in floats] == expected


def _yaml_float(f: float) -> str:
    if f != f:
        return ".nan"
    if f in (float("inf"), float("-inf")):
        return ".inf" if f > 0 else "-.inf"
    return repr(f)
