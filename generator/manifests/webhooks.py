"""Webhook markers -> Mutating/ValidatingWebhookConfiguration, as controller-gen's ``webhook``
generator writes them (sigs.k8s.io/controller-tools ``pkg/webhook/parser.go``), and the CRD's
conversion stanza.

controller-gen writes one ``MutatingWebhookConfiguration`` named ``mutating-webhook-configuration``
and one ``ValidatingWebhookConfiguration`` named ``validating-webhook-configuration`` (each only
when it has a webhook), in that order, to ``manifests.yaml``; webhooks sorted by name. Each
webhook calls the service ``webhook-service`` in namespace ``system`` (what kubebuilder's
kustomize config renames) at its path, or a ``url``; ``failurePolicy``, ``sideEffects``,
``matchPolicy`` and ``reinvocationPolicy`` are matched case-insensitively and written with
Kubernetes' spelling; verbs likewise (``create`` -> ``CREATE``); the group ``core`` is ``""``.
controller-gen's refusals are kept, each an error naming the marker's place: no ``sideEffects`` or
``Some``/``Unknown`` (v1 forbids them), a ``timeoutSeconds`` outside 1-30, both or neither of
path and url, an unknown match policy, no admission review versions.

The conversion stanza is kubebuilder's (``config/crd/patches/webhook_in_<plural>.yaml``, which
controller-gen leaves to kustomize): ``strategy: Webhook``, the same service at ``/convert``,
``conversionReviewVersions: [v1]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery import markers as m
from kgen.runtime.controller.webhook_builder import mutate_path, validate_path
from kgen.runtime.webhook.markers import ConversionMarker, WebhookMarker

from .errors import ManifestError

#: controller-gen's file for the webhook configurations.
WEBHOOK_FILE = "manifests.yaml"
SERVICE_NAME = "webhook-service"
SERVICE_NAMESPACE = "system"
_FAILURE = {"ignore": "Ignore", "fail": "Fail"}
_MATCH = {"exact": "Exact", "equivalent": "Equivalent"}
_SIDE_EFFECTS = {"none": "None", "noneondryrun": "NoneOnDryRun", "some": "Some", "unknown": "Unknown"}
_REINVOCATION = {"never": "Never", "ifneeded": "IfNeeded"}
_VERBS = {"create": "CREATE", "update": "UPDATE", "delete": "DELETE", "connect": "CONNECT", "*": "*"}


@dataclass(frozen=True)
class Placed:
    """A marker and where it was found (``module.qualname``), for error messages."""

    where: str
    marker: WebhookMarker | ConversionMarker


def _model_facts(model: type, where: str) -> tuple[str, str, str, m.ResourceMarkers | None]:
    api_version, kind = getattr(model, "API_VERSION", None), getattr(model, "KIND", None)
    if not isinstance(model, type) or not api_version or not kind:
        raise ManifestError(where, f"webhook marker for {model!r}, which has no API_VERSION and KIND",
                            "a top-level resource's model: a generated one, or a class marked @resource")
    group, _, version = str(api_version).rpartition("/")
    facts = getattr(model, m.RESOURCE_ATTRIBUTE, None)
    return group, version, str(kind), facts if isinstance(facts, m.ResourceMarkers) else None


def _webhook(placed: Placed) -> dict[str, Any]:
    from .plural import plural_of

    w = placed.marker
    assert isinstance(w, WebhookMarker)
    where = f"{placed.where} (webhook {w.name!r})"
    group, version, kind, facts = _model_facts(w.model, where)
    resources = w.resources
    if resources is None:
        if facts is None:
            raise ManifestError(where, f"no resources for {kind}, a kind kgen does not know the plural of",
                                "resources=(...) naming them, e.g. ('pods',)")
        resources = (facts.plural or plural_of(kind),)
    if (w.path is None) == (w.url is None) and w.path is not None:
        raise ManifestError(where, "both path and url", "one of them: path (a service of the cluster's) or url")
    client: dict[str, Any]
    if w.url is not None:
        client = {"url": w.url}
    else:
        service: dict[str, Any] = {
            "name": w.service_name or SERVICE_NAME,
            "namespace": w.service_namespace or SERVICE_NAMESPACE,
            "path": w.path or (mutate_path(w.model) if w.mutating else validate_path(w.model)),
        }
        if w.service_port is not None:
            service["port"] = w.service_port
        client = {"service": service}
    side_effects = _SIDE_EFFECTS.get(w.side_effects.lower())
    if side_effects is None or side_effects in ("Some", "Unknown"):
        raise ManifestError(where, f"side_effects={w.side_effects!r}",
                            "None or NoneOnDryRun (admissionregistration v1 refuses Some and Unknown)")
    if w.timeout_seconds is not None and not 1 <= w.timeout_seconds <= 30:
        raise ManifestError(where, f"timeout_seconds={w.timeout_seconds}", "between 1 and 30 seconds")
    if not w.admission_review_versions:
        raise ManifestError(where, "no admission_review_versions", "admission_review_versions=('v1',)")
    out: dict[str, Any] = {
        "admissionReviewVersions": list(w.admission_review_versions),
        "clientConfig": client,
        "failurePolicy": _FAILURE.get(w.failure_policy.lower(), w.failure_policy),
        "name": w.name,
        "rules": [{
            "apiGroups": ["" if g == "core" else g for g in (w.groups if w.groups is not None else (group,))],
            "apiVersions": list(w.versions if w.versions is not None else (version,)),
            "operations": [_VERBS.get(v.lower(), v) for v in w.verbs],
            "resources": list(resources),
        }],
        "sideEffects": side_effects,
    }
    if w.match_policy:
        if w.match_policy.lower() not in _MATCH:
            raise ManifestError(where, f"match_policy={w.match_policy!r}", "Exact or Equivalent")
        out["matchPolicy"] = _MATCH[w.match_policy.lower()]
    if w.timeout_seconds is not None:
        out["timeoutSeconds"] = w.timeout_seconds
    if w.mutating and w.reinvocation_policy and w.reinvocation_policy.lower() in _REINVOCATION:
        out["reinvocationPolicy"] = _REINVOCATION[w.reinvocation_policy.lower()]
    return out


def build_webhook_configurations(found: list[Placed]) -> list[dict[str, Any]]:
    """The Mutating and the Validating WebhookConfiguration (each when it has webhooks), in that order."""
    hooks = [p for p in found if isinstance(p.marker, WebhookMarker)]
    names: dict[tuple[bool, str], str] = {}
    for p in hooks:
        assert isinstance(p.marker, WebhookMarker)
        key = (p.marker.mutating, p.marker.name)
        if key in names:
            raise ManifestError(p.where, f"webhook name {p.marker.name!r} is also {names[key]}'s", "one name per webhook")
        names[key] = p.where
    configs = []
    for mutating, kind, name in ((True, "MutatingWebhookConfiguration", "mutating-webhook-configuration"),
                                 (False, "ValidatingWebhookConfiguration", "validating-webhook-configuration")):
        webhooks = sorted((_webhook(p) for p in hooks if isinstance(p.marker, WebhookMarker) and p.marker.mutating == mutating),
                          key=lambda w: str(w["name"]))
        if webhooks:
            configs.append({"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": {"name": name},
                            "webhooks": webhooks})
    return configs


def conversions(found: list[Placed]) -> dict[tuple[str, str], dict[str, Any]]:
    """(group, kind) -> the CRD's ``spec.conversion``, for the kinds marked ``@conversion_webhook``."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for p in found:
        c = p.marker
        if not isinstance(c, ConversionMarker):
            continue
        group, _, kind, _ = _model_facts(c.model, p.where)
        stanza = {
            "strategy": "Webhook",
            "webhook": {
                "clientConfig": {"service": {"name": c.service_name or SERVICE_NAME,
                                             "namespace": c.service_namespace or SERVICE_NAMESPACE, "path": c.path}},
                "conversionReviewVersions": list(c.conversion_review_versions),
            },
        }
        if out.setdefault((group, kind), stanza) != stanza:
            raise ManifestError(p.where, f"a second, different conversion webhook for {group}/{kind}", "one per kind")
    return out
