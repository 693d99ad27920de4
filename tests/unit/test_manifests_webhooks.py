"""`kgen manifests`' webhook markers: controller-gen's refusals (pkg/webhook/parser.go), each a
one-line error naming the marker's place, and the normalisations of what the marker says.

What the configurations look like is compared with controller-gen itself in
tests/integration/test_manifests_vs_controller_gen.py (byte for byte); these are the inputs
controller-gen refuses, which a comparison of successful runs cannot show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgen.generator.cli import main as kgen
from kgen.generator.manifests.crd import Options, Root, build_crds
from kgen.generator.manifests.errors import ManifestError
from kgen.generator.manifests.webhooks import Placed, build_webhook_configurations, conversions
from kgen.kubernetes.models.core.v1 import ConfigMap, Pod
from kgen.runtime.apimachinery import markers as m
from kgen.runtime.webhook.markers import WebhookMarker, conversion_webhook, markers_of, webhook
from tests.support.manifests import gears


def _configs(**kw: Any) -> list[dict[str, Any]]:
    values: dict[str, Any] = {"model": gears.GearV1, "mutating": False, "name": "v.kgen.dev", **kw}
    configs: list[dict[str, Any]] = build_webhook_configurations([Placed("here.Hook", WebhookMarker(**values))])
    return configs


@pytest.mark.parametrize(("kw", "message"), [
    ({"side_effects": "Some"}, "side_effects='Some' (expected None or NoneOnDryRun (admissionregistration v1 refuses Some and Unknown))"),
    ({"side_effects": "sometimes"}, "side_effects='sometimes'"),
    ({"timeout_seconds": 31}, "timeout_seconds=31 (expected between 1 and 30 seconds)"),
    ({"timeout_seconds": 0}, "timeout_seconds=0"),
    ({"path": "/v", "url": "https://x.example.com/v"}, "both path and url"),
    ({"match_policy": "Loose"}, "match_policy='Loose' (expected Exact or Equivalent)"),
    ({"admission_review_versions": ()}, "no admission_review_versions"),
    ({"model": Pod}, "no resources for Pod, a kind kgen does not know the plural of"),
    ({"model": int}, "webhook marker for <class 'int'>, which has no API_VERSION and KIND"),
])
def test_what_controller_gen_refuses_is_an_error_naming_the_marker(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(ManifestError) as e:
        _configs(**kw)
    assert str(e.value).startswith("here.Hook (webhook 'v.kgen.dev'): "), str(e.value)
    assert message in str(e.value)


def test_values_are_spelled_as_kubernetes_spells_them() -> None:
    (config,) = _configs(mutating=True, failure_policy="IGNORE", side_effects="noneondryrun", verbs=("Create", "DELETE", "*"),
                         match_policy="EXACT", reinvocation_policy="IfNeeded", model=ConfigMap, resources=("configmaps",),
                         groups=("core",))
    (hook,) = config["webhooks"]
    assert config["kind"] == "MutatingWebhookConfiguration" and config["metadata"] == {"name": "mutating-webhook-configuration"}
    assert (hook["failurePolicy"], hook["sideEffects"], hook["matchPolicy"], hook["reinvocationPolicy"]) == (
        "Ignore", "NoneOnDryRun", "Exact", "IfNeeded")
    assert hook["rules"] == [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "DELETE", "*"],
                              "resources": ["configmaps"]}]
    assert hook["clientConfig"] == {"service": {"name": "webhook-service", "namespace": "system",
                                                "path": "/mutate--v1-configmap"}}


def test_two_webhooks_of_one_name_are_refused() -> None:
    hook = WebhookMarker(model=gears.GearV1, mutating=False, name="v.kgen.dev")
    with pytest.raises(ManifestError, match="webhook name 'v.kgen.dev' is also a.Hook's"):
        build_webhook_configurations([Placed("a.Hook", hook), Placed("b.Hook", hook)])


def test_markers_stack_and_are_not_inherited() -> None:
    @webhook(gears.GearV1, mutating=True, name="m.kgen.dev")
    @webhook(gears.GearV1, mutating=False, name="v.kgen.dev")
    class Both:
        pass

    class Child(Both):
        pass

    assert [k.name for k in markers_of(Both) if isinstance(k, WebhookMarker)] == ["v.kgen.dev", "m.kgen.dev"]
    assert markers_of(Child) == () and markers_of(3) == ()


def test_a_conversion_for_a_kind_not_declared_is_an_error() -> None:
    @conversion_webhook(gears.GearV1)
    def convert() -> None:
        pass

    (marker,) = markers_of(convert)
    stanzas = conversions([Placed("here.convert", marker)])
    assert list(stanzas) == [(gears.GROUP, "Gear")]
    with pytest.raises(ManifestError, match="a conversion webhook for a kind no module declares"):
        build_crds([], "test", conversions=stanzas)
    roots = [Root(cls, getattr(cls, m.RESOURCE_ATTRIBUTE)) for cls in (gears.GearV1, gears.GearV2)]
    (crd,) = build_crds(roots, "test", Options(allow_dangerous_types=True), conversions=stanzas).values()
    assert crd["spec"]["conversion"]["webhook"]["clientConfig"]["service"]["path"] == "/convert"


def test_the_cli_says_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "bad_hooks.py"
    module.write_text("from kgen.runtime.webhook.markers import webhook\n"
                      "from kgen.kubernetes.models.core.v1 import Pod\n"
                      "@webhook(Pod, mutating=False, name='vpod.kgen.dev', resources=('pods',), side_effects='Some')\n"
                      "class PodHook:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    assert kgen(["manifests", "--module", "bad_hooks", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err == ("kgen manifests: bad_hooks.PodHook (webhook 'vpod.kgen.dev'): side_effects='Some' "
                   "(expected None or NoneOnDryRun (admissionregistration v1 refuses Some and Unknown))\n")
    assert not (tmp_path / "out").exists()
