"""Issue 35's validation acceptance, a fixed-seed slice: kgen's ``kgen validate --crd`` path against
the apiserver's dry-run on six projects' CRDs no other test uses (KubeRay, MetalLB, Karpenter,
Kyverno, Knative Serving, ExternalDNS; tests/support/validation_projects.py).

The first 4 CRDs (by name) of each project; one valid original of each served kind (the
project's own example where the apiserver accepts one, else one synthesized from the schema), 7
seeded mutations of each, under fieldValidation
Warn and Strict (tests/support/validation_acceptance.py): 0 false accepts, 0 false rejects, 0
crashes, and the cause sets, (field, message) of every 422 cause and the paths of every 400, the
same on every answer. The full run (10 originals a kind, 25 mutations each) is
``hack/validation_projects.py``.

A CEL rule's failure is worded per release (1.34 shows the node's schema type instead of the
value: tests/support/versions.py, "cel-message-shows-type"); on such a release the messages are
compared without the value an ``Invalid value`` shows (validation_acceptance's ``_without_values``).
"""

from __future__ import annotations

import httpx

from tests.support import validation_acceptance as acceptance
from tests.support.validation_projects import PROJECTS

SEED = 35
CRDS_PER_PROJECT = 4  # Kyverno has 22 (46 kinds): installing them all costs half a minute more


def test_validate_agrees_with_the_apiserver_on_six_new_projects(admin: httpx.Client) -> None:
    results = acceptance.run(admin, list(PROJECTS), per_kind=1, per_object=7, seed=SEED, crds_per_project=CRDS_PER_PROJECT)
    print("\n" + acceptance.report(results))
    outs = results.outcomes
    assert len(outs) >= 400 and len(results.originals) == 6
    assert all(n > 0 for n in results.originals.values()), results.originals
    assert not [o for o in outs if o.crash], [o.crash for o in outs if o.crash][:3]
    assert not acceptance.false_accepts(results), [(o.label, o.detail) for o in acceptance.false_accepts(results)][:10]
    assert not acceptance.false_rejects(results), [(o.label, o.detail) for o in acceptance.false_rejects(results)][:10]
    differing = [o for o in outs if not o.same_causes]
    assert not differing, [(o.project, o.mode, o.label, o.detail) for o in differing][:10]
