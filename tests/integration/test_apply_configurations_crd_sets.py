"""Real CRD sets (the eight projects of tests/support/corpus.py): every version's model classes,
shared nested classes included, have apply configurations with the same wire names, and every
example object the projects ship reads into its kind's apply configuration and back unchanged."""

from __future__ import annotations

import importlib

import msgspec
import pytest

from tests.integration.test_crd_packages import _as_read, _example_objects, _typed_examples
from tests.support.corpus import CRD_SOURCES
from tests.support.packages import crd_package


def _wire_names(cls: type) -> set[str]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name for f in info.fields}


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_set_apply_configurations_mirror_the_models_and_read_the_examples(
    project: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root, package = crd_package(project)  # generated once, shared with test_crd_packages.py
    folder = root / package
    import sys

    sys.path.insert(0, str(root))
    twins: dict[tuple[str, str], type] = {}
    checked = shared = 0
    try:
        for path in sorted((folder / "models").glob("*/*.py")):
            dotted = f"{path.parent.name}.{path.stem}"
            models = importlib.import_module(f"{package}.models.{dotted}")
            applies = importlib.import_module(f"{package}.applyconfigurations.{dotted}")
            for name, cls in vars(models).items():
                if not (isinstance(cls, type) and hasattr(cls, "__struct_fields__") and cls.__module__.startswith(package)):
                    continue
                twin = getattr(applies, name + "ApplyConfiguration", None)
                if twin is None:
                    assert cls.KIND and cls.KIND.endswith("List"), f"{dotted}.{name} has no apply configuration"
                    continue
                assert _wire_names(twin) == _wire_names(cls), f"{dotted}.{name}"
                shared += cls.__module__ != models.__name__
                # A re-exported shared class is the same apply configuration as where it is defined.
                assert (twin.__module__ == applies.__name__) == (cls.__module__ == models.__name__), name
                if cls.KIND and cls.__module__ == models.__name__:
                    twins[(cls.API_VERSION, cls.KIND)] = twin
                checked += 1
        examples, _ = _typed_examples(_example_objects(project, set(twins)), package)
        for where, doc in examples:
            twin = twins[(doc["apiVersion"], doc["kind"])]
            assert twin.from_dict(doc).to_dict() == _as_read(doc, twin), where
    finally:
        sys.path.remove(str(root))
    with capsys.disabled():
        print(f"\n{project}: {checked} apply configurations ({shared} re-exported shared), {len(examples)} examples read")
    assert twins and examples
