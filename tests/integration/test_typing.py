"""The generated package is fully typed: mypy --strict catches a misspelt field in user code."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.support.packages import REPO, mypy_strict

_USER_CODE = textwrap.dedent(
    """
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.applyconfigurations.apps.v1 import DeploymentApplyConfiguration
    from kgen.kubernetes.applyconfigurations.meta.v1 import ObjectMetaApplyConfiguration
    from kgen.kubernetes.models.apps.v1 import DeploymentSpec
    from kgen.kubernetes.models.core.v1 import PodTemplateSpec
    from kgen.kubernetes.models.meta.v1 import LabelSelector


    def scale(cs: Clientset, name: str, replicas: int) -> int | None:
        deployments = cs.apps_v1.deployments("default")
        current = deployments.get(name)
        spec = DeploymentSpec({field}=replicas, selector=LabelSelector(), template=PodTemplateSpec())
        meta = ObjectMetaApplyConfiguration(name=name)
        deployments.apply(DeploymentApplyConfiguration(metadata=meta), field_manager="example")
        return current.spec.replicas  # spec is required; replicas may be absent (None)
    """
)


def test_mypy_accepts_correct_code_and_rejects_a_field_typo(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(_USER_CODE.format(field="replicas"))
    checked = mypy_strict(tmp_path, good)
    assert checked.returncode == 0, checked.stdout

    typo = tmp_path / "typo.py"
    typo.write_text(_USER_CODE.format(field="replcias"))
    checked = mypy_strict(tmp_path, typo)
    assert checked.returncode == 1
    assert 'Unexpected keyword argument "replcias" for "DeploymentSpec"' in checked.stdout, checked.stdout


def test_examples_type_check_strict(tmp_path: Path) -> None:
    examples = REPO / "examples"
    checked = mypy_strict(tmp_path, *sorted(examples.rglob("*.py")))
    assert checked.returncode == 0, checked.stdout
