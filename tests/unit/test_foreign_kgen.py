"""The `kgen` command's check for a `kgen/__init__.py` that is not this project's
(generator/foreign_kgen.py). The case of another distribution's file (PyPI's seawater `Kgen`)
is tested from real wheels in tests/packaging/test_wheels.py; here the two others."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from kgen.generator.cli import main
from kgen.generator.foreign_kgen import foreign_kgen_warning


def test_this_checkouts_namespace_package_gives_no_warning(capsys: pytest.CaptureFixture[str]) -> None:
    assert getattr(sys.modules["kgen"], "__file__", None) is None  # the editable install: a namespace
    assert foreign_kgen_warning() is None
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().err == ""


def test_an_init_no_distribution_claims_is_named_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = tmp_path / "kgen" / "__init__.py"
    stray.parent.mkdir()
    stray.write_text("")
    regular = types.ModuleType("kgen")
    regular.__file__ = str(stray)
    regular.__path__ = list(sys.modules["kgen"].__path__)  # its folder holds this project's modules, as pip lays them
    monkeypatch.setitem(sys.modules, "kgen", regular)
    expected = (f"{stray} makes `kgen` a regular package that no installed distribution claims; kgen-k8s and "
                "kgen-runtime need `kgen` to be a namespace package: remove that file")
    assert foreign_kgen_warning() == expected
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().err == f"kgen: warning: {expected}\n"
