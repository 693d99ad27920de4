"""The fake's defaulting of built-in kinds (``kgen.runtime.fake.schema.defaulting``) against the Go code
itself: hack/oracle-k8s/defaults decodes each object through k8s.io/kubernetes' scheme as the
apiserver does (SetObjectDefaults_*, conversion to the internal version and back) and writes it
again. A seeded random corpus (tests/support/defaulting_corpus.py, 35 kinds, every defaulted
field and every field a default depends on present or absent at random) gives 0 differences;
``KGEN_DEFAULTING_SEED`` and ``KGEN_DEFAULTING_PER_KIND`` (default 60) change the run. The data
file is checked for drift against the oracle, and the harness is shown to see a planted
difference. Each supported release's oracle is compared with the fake applying that release's
data (a generated package of that release).
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import kgen.kubernetes.models
from kgen.runtime.fake.schema.decode import decoded
from kgen.runtime.fake.schema.defaulting import data_version, with_zeros
from kgen.runtime.fake.schema.defaulting_rules import image_tag
from kgen.runtime.gentype.resource import ResourceInfo
from tests.support.defaulting_corpus import KINDS, corpus
from tests.support.jsondiff import differences

for _module in pkgutil.walk_packages(kgen.kubernetes.models.__path__, "kgen.kubernetes.models."):
    importlib.import_module(_module.name)  # model_for finds the loaded models

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("KGEN_DEFAULTING_SEED", "20261206"))
# The cache root as the session started (unit tests point KGEN_CACHE_DIR elsewhere later; the
# oracles are built once per machine, as tests/support/oracle.py builds its own).
_CACHE_ROOT = os.environ.get("KGEN_CACHE_DIR")
PER_KIND = int(os.environ.get("KGEN_DEFAULTING_PER_KIND", "60"))


def _releases() -> list[str]:
    """The releases whose oracle this run compares with: ``KGEN_DEFAULTING_RELEASES`` (``make
    test-matrix`` sets every supported one), else the pinned release and the oldest supported,
    the two whose apiservers ``make test`` builds (their Go packages are then compiled once for
    both; each other release's oracle compiles k8s.io/kubernetes anew, minutes on a cold cache)."""
    chosen = os.environ.get("KGEN_DEFAULTING_RELEASES", "").split()
    if chosen:
        return chosen
    pins = dict(line.split("=", 1) for line in (ROOT / "hack/envtest/versions.env").read_text().splitlines()
                if "=" in line and not line.lstrip().startswith("#"))
    supported = pins["SUPPORTED_KUBERNETES_VERSIONS"].strip().strip('"').split()
    return list(dict.fromkeys([pins["KUBERNETES_VERSION"].strip(), supported[0]]))


@cache
def _binary(release: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "KGEN_CACHE_DIR"}
    if _CACHE_ROOT is not None:
        env["KGEN_CACHE_DIR"] = _CACHE_ROOT
    env["KGEN_ENVTEST_KUBERNETES_VERSION"] = release
    done = subprocess.run([str(ROOT / "hack/oracle-k8s/build.sh"), "defaults"], capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout.strip().splitlines()[-1]


def _oracle(objects: list[dict[str, Any]], release: str) -> list[dict[str, Any]]:
    done = subprocess.run([_binary(release)], input="".join(json.dumps(o) + "\n" for o in objects), capture_output=True,
                          text=True, check=True, timeout=600)
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(objects), done.stderr[-2000:]
    return out


def _kgen(obj: dict[str, Any], release: str) -> dict[str, Any]:
    """What the fake stores of ``obj`` when its package is of ``release``: decoded (pruned,
    omitempty, defaulted) with the zeros Go writes."""
    api_version, kind = obj["apiVersion"], obj["kind"]
    group, _, version = api_version.rpartition("/")
    info = ResourceInfo(group, version, "-", True, kind, generated_from=release)
    return with_zeros(api_version, kind, decoded(info, obj), release)


def _differences(want: Any, got: Any) -> list[str]:
    return differences(want, got, ("Go", "kgen"))


@pytest.mark.parametrize("release", _releases())
def test_random_corpus_matches_the_apiservers_defaulting(release: str) -> None:
    """Every supported release's oracle against the fake with a package of that release."""
    objects = corpus(SEED, PER_KIND)
    answers = _oracle(objects, release)
    refused = [(o["metadata"]["name"], a["error"]) for o, a in zip(objects, answers, strict=True) if "error" in a]
    assert not refused, refused[:5]
    differences = []
    for obj, want in zip(objects, answers, strict=True):
        for difference in _differences(want, _kgen(obj, release)):
            differences.append(f"{obj['kind']} {obj['metadata']['name']}{difference}")
    print(f"defaulting {release}: {len(objects)} objects of {len(KINDS)} kinds (seed {SEED}), {len(differences)} differences")
    assert not differences, "\n".join(differences[:400])


def test_harness_sees_a_planted_difference() -> None:
    deployment = corpus(SEED, 1)[1]
    assert deployment["kind"] == "Deployment"
    pinned = _releases()[0]
    want = _oracle([deployment], pinned)[0]
    got = _kgen(deployment, pinned)
    assert _differences(want, got) == []
    planted = want["spec"]["progressDeadlineSeconds"] + 1
    got["spec"]["progressDeadlineSeconds"] = planted
    del got["spec"]["template"]["spec"]["dnsPolicy"]
    assert _differences(want, got) == [
        f".spec.progressDeadlineSeconds: Go {planted - 1} != kgen {planted}",
        f".spec.template.spec.dnsPolicy: only Go: {json.dumps(want['spec']['template']['spec']['dnsPolicy'])}",
    ]


@pytest.mark.parametrize("image, tag", [
    ("nginx", "latest"), ("nginx:1.27", "1.27"), ("busybox@sha256:" + "a" * 64, ""), ("Busybox:1", ""), ("", ""),
    ("localhost:5000/app", "latest"), ("a" * 64, ""), ("bad image", ""),
])
def test_image_tag(image: str, tag: str) -> None:
    """The tags the pull-policy default reads (pinned from ParseImageName's answers, which the
    corpus test compares through the pull policy)."""
    assert image_tag(image) == tag


def test_data_file_matches_the_oracle() -> None:
    """runtime/fake/schema/defaults.json is what hack/oracle-k8s/extract_defaults.py writes now
    (the pinned release's data, and the entries of the other releases this run compares)."""
    assert data_version() == _pinned_version()
    env = {k: v for k, v in os.environ.items() if k not in ("KGEN_CACHE_DIR", "KGEN_ENVTEST_KUBERNETES_VERSION")}
    if _CACHE_ROOT is not None:
        env["KGEN_CACHE_DIR"] = _CACHE_ROOT
    done = subprocess.run([sys.executable, str(ROOT / "hack/oracle-k8s/extract_defaults.py"), "--check",
                           "--releases", *_releases()[1:]],
                          capture_output=True, text=True, timeout=1800, env=env)
    assert done.returncode == 0, done.stderr[-2000:]


def _pinned_version() -> str:
    for line in (ROOT / "hack/envtest/versions.env").read_text().splitlines():
        if line.startswith("KUBERNETES_VERSION="):
            return line.split("=", 1)[1]
    raise AssertionError("no KUBERNETES_VERSION")


def test_model_for_never_answers_an_apply_configuration() -> None:
    """An apply configuration carries KIND and API_VERSION as the model does; with both loaded,
    the fake decodes (and defaults) with the model whichever the subclass walk meets first (in
    make test, with tests/cluster collected, it met PodApplyConfiguration first). The walk meets
    the newest subclass of Model first: one made here, in an apply-configurations module."""
    import types

    from kgen.runtime.apimachinery.model import Model
    from kgen.runtime.fake.schema import decode

    module = types.ModuleType("planted.applyconfigurations.core.v1")
    sys.modules[module.__name__] = module
    try:
        planted = types.new_class("PodApplyConfiguration", (Model,), {"kw_only": True},
                                  lambda ns: ns.update(KIND="Pod", API_VERSION="v1", __module__=module.__name__))
        assert planted.__module__ == module.__name__
        decode._MODELS.clear()
        model = decode.model_for("v1", "Pod")
        # a model: kgen.kubernetes's, or another generated package's loaded earlier in the run
        assert model is not None and model.__module__.endswith(".models.core.v1"), model
        pod = _kgen({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                     "spec": {"containers": [{"name": "c", "image": "nginx"}]}}, _releases()[0])
        assert pod["spec"]["containers"][0]["imagePullPolicy"] == "Always" and pod["spec"]["dnsPolicy"] == "ClusterFirst"
    finally:
        del sys.modules[module.__name__]
        decode._MODELS.clear()
