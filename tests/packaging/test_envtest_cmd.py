"""`kgen envtest`: prints the cached kube-apiserver/etcd folder, builds a missing one with the
shipped recipe (hack/envtest/build.sh) into a temporary folder renamed into place, and says in one
line what to do when it cannot (no Go, an old Go, a version the recipe does not pin). The test
harness's find_assets names the same folder: the pinned version, or the one asked for, never the
newest build in the cache.

Builds here use a stand-in `go` that writes small scripts where `go build -o` points, so the
recipe's steps (copy the Go modules out of the possibly read-only recipe folder, build both,
swap the folder in, print it) run in a second instead of ten minutes. The real build is what
`make test` runs (hack/envtest/build.sh is the same script).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kgen.generator.cli import main as kgen
from kgen.generator.envtest import recipe
from kgen.runtime.testing import AssetsNotFound, find_assets
from kgen.runtime.testing import PINNED as TESTING_PINNED
from kgen.runtime.testing import _assets as assets_module
from kgen.runtime.testing._assets import SUPPORTED, requested_versions

PINNED = "k8s-1.37.2-etcd-3.7.3"

FAKE_GO = """#!/usr/bin/env bash
# A stand-in for the Go toolchain: logs where and how it runs, answers GOVERSION and
# `mod download -json` (with $FAKE_KUBERNETES_GOMOD), and "builds" by writing an executable
# script to the -o path.
echo "$PWD :: $([[ -f go.mod ]] && echo go.mod) :: $*" >> "$FAKE_GO_LOG"
case "$1" in
  env) echo "${FAKE_GO_VERSION:-go1.26.0}" ;;
  build)
    if [[ -n "${FAKE_GO_FAIL:-}" ]]; then echo "fake go: build failed" >&2; exit 1; fi
    while [[ $# -gt 0 ]]; do [[ "$1" == -o ]] && out="$2"; shift; done
    printf '#!/bin/sh\\necho built by the stand-in go\\n' > "$out"; chmod +x "$out" ;;
  mod)
    case "$2" in
      init) echo "module $3" > go.mod ;;
      download) printf '{\\n\\t"Path": "k8s.io/kubernetes",\\n\\t"GoMod": "%s",\\n}\\n' "$FAKE_KUBERNETES_GOMOD" ;;
      edit|tidy) ;;
      *) echo "fake go: unexpected $*" >&2; exit 3 ;;
    esac ;;
  get) ;;
  *) echo "fake go: unexpected $*" >&2; exit 3 ;;
esac
"""


@pytest.fixture
def fake_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH holds a stand-in `go` and the system tools, not the real Go; returns its log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "go").write_text(FAKE_GO)
    (bin_dir / "go").chmod(0o755)
    log = tmp_path / "go.log"
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("FAKE_GO_LOG", str(log))
    return log


@pytest.fixture
def no_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert subprocess.run(["bash", "-c", "command -v go"], capture_output=True).returncode == 1


def _entries(cache: Path) -> list[str]:
    folder = cache / "envtest"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_prints_the_cached_folder_holding_the_real_binaries(capsys: pytest.CaptureFixture[str]) -> None:
    assets = find_assets()  # the session's binaries (KUBEBUILDER_ASSETS, else built by make test)
    assert assets.name == PINNED and assets.parent.name == "envtest"
    for args in ([], ["--no-build"], ["--kubernetes-version", "1.37.2", "--etcd-version", "3.7.3"]):
        assert kgen(["envtest", "--cache-dir", str(assets.parent.parent), *args]) == 0
        out, err = capsys.readouterr()
        assert (out, err) == (f"{assets}\n", "")
    version = subprocess.run([str(assets / "kube-apiserver"), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == "Kubernetes v1.37.2"
    etcd = subprocess.run([str(assets / "etcd"), "--version"], capture_output=True, text=True, check=True)
    assert "etcd Version: 3.7.3" in etcd.stdout


def test_cache_dir_defaults_to_kgen_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cache" / "envtest" / PINNED
    folder.mkdir(parents=True)
    for name in ("etcd", "kube-apiserver"):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "cache"))
    assert kgen(["envtest", "--no-build"]) == 0
    assert capsys.readouterr().out == f"{folder}\n"


def test_a_relative_cache_dir_prints_an_absolute_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cache" / "envtest" / PINNED
    folder.mkdir(parents=True)
    for name in ("etcd", "kube-apiserver"):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    monkeypatch.chdir(tmp_path)
    assert kgen(["envtest", "--cache-dir", "cache", "--no-build"]) == 0
    assert capsys.readouterr().out == f"{folder}\n"


@pytest.mark.usefixtures("no_go")
def test_missing_go_exits_2_with_one_line_and_leaves_the_cache_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kgen(["envtest", "--cache-dir", str(tmp_path / "cache")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"kgen envtest: kube-apiserver and etcd for Kubernetes 1.37.2 / etcd 3.7.3 are not in "
        f"{tmp_path / 'cache' / 'envtest' / PINNED}; building them needs the Go toolchain (go 1.26 or newer) on PATH\n"
    )
    assert not (tmp_path / "cache").exists()


def test_old_go_exits_2_naming_the_version_needed(
    fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAKE_GO_VERSION", "go1.22.4")
    assert kgen(["envtest", "--cache-dir", str(tmp_path / "cache")]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"; building them needs go 1.26 or newer, and {fake_go.parent / 'bin' / 'go'} is go1.22.4\n"), err
    assert "build" not in fake_go.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kubernetes-version", "v1.37.2"], "--kubernetes-version: expected a version like 1.37.2, got 'v1.37.2'"),
        (["--etcd-version", "3.7"], "--etcd-version: expected a version like 3.7.3, got '3.7'"),
    ],
)
def test_malformed_versions_exit_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kgen(["envtest", "--cache-dir", str(tmp_path), *args]) == 2
    assert capsys.readouterr().err == f"kgen envtest: {message}\n"


#: What k8s.io/kubernetes's go.mod looks like to build.sh: staging modules at v0.0.0, replaced
#: by its own folders, next to ordinary requirements.
KUBERNETES_GOMOD = """module k8s.io/kubernetes

go 1.24.0

require (
\tgithub.com/spf13/cobra v1.8.1
\tk8s.io/api v0.0.0
\tk8s.io/apiserver v0.0.0
\tk8s.io/utils v0.0.0-20240711033017-18e509b52bc8
)

replace (
\tk8s.io/api => ./staging/src/k8s.io/api
\tk8s.io/apiserver => ./staging/src/k8s.io/apiserver
)
"""


def test_other_versions_build_from_modules_written_from_kubernetes_go_mod(
    fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kubernetes.mod").write_text(KUBERNETES_GOMOD)
    monkeypatch.setenv("FAKE_KUBERNETES_GOMOD", str(tmp_path / "kubernetes.mod"))
    cache = tmp_path / "cache"
    args = ["envtest", "--cache-dir", str(cache), "--kubernetes-version", "1.30.4", "--etcd-version", "3.5.21"]
    assert kgen(args) == 0
    folder = cache / "envtest" / "k8s-1.30.4-etcd-3.5.21"
    assert capsys.readouterr().out == f"{folder}\n"
    assert _entries(cache) == ["k8s-1.30.4-etcd-3.5.21"]
    calls = [line.split(" :: ")[2] for line in fake_go.read_text().splitlines()]
    assert calls == [
        "env GOVERSION",
        "mod init kgen.dev/hack/envtest/kube-apiserver",
        "mod download -json k8s.io/kubernetes@v1.30.4",
        "mod edit -replace=k8s.io/api=k8s.io/api@v0.30.4",
        "mod edit -replace=k8s.io/apiserver=k8s.io/apiserver@v0.30.4",
        "get -tool k8s.io/kubernetes/cmd/kube-apiserver@v1.30.4",
        "mod tidy",
        "mod init kgen.dev/hack/envtest/etcd",
        "get go.etcd.io/etcd/server/v3@v3.5.21",
        "mod tidy",
        *calls[10:],
    ]
    (kube_apiserver, etcd) = (" ".join(call.split()) for call in calls[10:])
    assert kube_apiserver.startswith("build -ldflags -s -w -X k8s.io/component-base/version.gitVersion=v1.30.4 ")
    assert "-X k8s.io/component-base/version.gitMinor=30 " in kube_apiserver
    # Both into the temporary folder that is then renamed into place.
    assert f" -o {cache / 'envtest'}/.build." in kube_apiserver and f" -o {cache / 'envtest'}/.build." in etcd
    assert kube_apiserver.endswith("/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver")
    assert etcd.startswith("build -ldflags -s -w -o ") and etcd.endswith("/etcd .")
    # A folder copied from setup-envtest under that name is found without building.
    fake_go.unlink()
    assert kgen(args) == 0
    assert capsys.readouterr().out == f"{folder}\n"
    assert not fake_go.exists()


def test_writing_the_pinned_modules_reproduces_the_checked_in_ones(tmp_path: Path) -> None:
    """The procedure build.sh uses for any version, run for the pinned versions with the real Go
    toolchain and module proxy, gives the checked-in modules (which built the binaries the
    integration tests run): the same requirements, replacements and tool, the same go.sum."""
    pinned = recipe()
    result = subprocess.run(
        ["bash", str(pinned.script), "--write-modules", str(tmp_path / "modules")],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    for module in ("kube-apiserver", "etcd"):
        written, checked_in = _go_mod(tmp_path / "modules" / module), _go_mod(pinned.folder / module)
        for key in ("Module", "Require", "Replace", "Tool"):
            assert written.get(key) == checked_in.get(key), (module, key)
        assert _lines(tmp_path / "modules" / module / "go.sum") == _lines(pinned.folder / module / "go.sum")
    replaced = _go_mod(pinned.folder / "kube-apiserver")["Replace"]
    assert isinstance(replaced, list) and len(replaced) > 20  # every staging module


def _go_mod(folder: Path) -> dict[str, object]:
    out = subprocess.run(["go", "mod", "edit", "-json"], cwd=folder, capture_output=True, text=True, check=True)
    doc: dict[str, object] = json.loads(out.stdout)
    return doc


def _lines(path: Path) -> list[str]:
    return sorted(path.read_text().splitlines())


def test_no_build_exits_1_when_missing(fake_go: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert kgen(["envtest", "--cache-dir", str(tmp_path / "cache"), "--no-build"]) == 1
    assert capsys.readouterr().err == (
        f"kgen envtest: kube-apiserver and etcd for Kubernetes 1.37.2 / etcd 3.7.3 are not in "
        f"{tmp_path / 'cache' / 'envtest' / PINNED} (--no-build)\n"
    )
    assert not fake_go.exists()


def test_builds_a_missing_folder_from_a_copy_of_the_recipe_then_reuses_it(
    fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    # Half a folder (an etcd without its kube-apiserver) is not a cache hit.
    (cache / "envtest" / PINNED).mkdir(parents=True)
    (cache / "envtest" / PINNED / "etcd").write_text("#!/bin/sh\n")
    (cache / "envtest" / PINNED / "etcd").chmod(0o755)
    assert kgen(["envtest", "--cache-dir", str(cache)]) == 0
    folder = cache / "envtest" / PINNED
    assert capsys.readouterr().out == f"{folder}\n"
    assert _entries(cache) == [PINNED]  # no temporary folder left beside it
    for name in ("etcd", "kube-apiserver"):
        run = subprocess.run([str(folder / name)], capture_output=True, text=True, check=True)
        assert run.stdout == "built by the stand-in go\n"
    builds = [line for line in fake_go.read_text().splitlines() if " :: build " in line]
    assert len(builds) == 2
    where = recipe().folder.resolve()
    for line in builds:
        cwd, go_mod, _ = line.split(" :: ")
        assert Path(cwd).name in ("kube-apiserver", "etcd") and go_mod == "go.mod"
        assert where not in Path(cwd).resolve().parents, "built inside the recipe folder, not a copy"
    assert "k8s.io/kubernetes/cmd/kube-apiserver" in builds[0] and "-X k8s.io/component-base/version.gitVersion=v1.37.2" in builds[0]

    # Reused: no Go needed any more.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert kgen(["envtest", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().out == f"{folder}\n"


def test_a_failed_build_exits_1_and_leaves_no_folder(
    fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAKE_GO_FAIL", "1")
    cache = tmp_path / "cache"
    assert kgen(["envtest", "--cache-dir", str(cache)]) == 1
    assert capsys.readouterr().err == (
        "kgen envtest: building kube-apiserver and etcd failed (exit code 1; its errors are above)\n"
    )
    assert _entries(cache) == []


def test_the_recipe_ships_with_the_pinned_versions_and_its_go_modules() -> None:
    pinned = recipe()
    assert (pinned.kubernetes, pinned.etcd) == ("1.37.2", "3.7.3")
    assert pinned.go == (1, 26)
    for module in ("kube-apiserver", "etcd"):
        assert (pinned.folder / module / "go.mod").is_file() and (pinned.folder / module / "go.sum").is_file()
    assert os.stat(pinned.script).st_mode & stat.S_IXUSR


def test_an_interrupted_build_exits_130_and_leaves_no_folder(fake_go: Path, tmp_path: Path) -> None:
    """Ctrl-C during a build: one line, exit 130, and build.sh's temporary folders are gone."""
    slow_go = FAKE_GO.replace('  build)\n', '  build)\n    sleep 30\n')
    (fake_go.parent / "bin" / "go").write_text(slow_go)
    cache = tmp_path / "cache"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgen.generator.cli", "envtest", "--cache-dir", str(cache)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while " :: build " not in (fake_go.read_text() if fake_go.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the whole foreground group
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert out == "" and err.splitlines()[-1] == "kgen envtest: interrupted", err
    assert _entries(cache) == []


# -- the harness (kgen.runtime.testing.find_assets) and `kgen envtest` name the same build ----------


def _fake_build(cache: Path, name: str) -> Path:
    folder = cache / "envtest" / name
    folder.mkdir(parents=True)
    for binary in ("etcd", "kube-apiserver"):
        (folder / binary).write_text(f"#!/bin/sh\necho {name}\n")
        (folder / binary).chmod(0o755)
    return folder


@pytest.fixture
def outside_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """find_assets as installed from a wheel (no hack/envtest/build.sh beside it), on a temporary
    cache holding the pinned build and a newer-looking one built later; no version asked for."""
    monkeypatch.setattr(assets_module, "_build_script", lambda: None)
    for name in ("KUBEBUILDER_ASSETS", "KGEN_ENVTEST_KUBERNETES_VERSION", "KGEN_ENVTEST_ETCD_VERSION"):
        monkeypatch.delenv(name, raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("KGEN_CACHE_DIR", str(cache))
    _fake_build(cache, PINNED)
    newer = _fake_build(cache, "k8s-1.99.0-etcd-3.9.9")
    os.utime(newer, (time.time() + 3600, time.time() + 3600))  # the newest folder in the cache
    return cache


def test_the_runtime_pins_the_versions_of_versions_env() -> None:
    """kgen-runtime ships without hack/envtest/: its constant must say what versions.env says."""
    env = dict(
        line.split("=", 1) for line in (recipe().folder / "versions.env").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert (TESTING_PINNED.kubernetes, TESTING_PINNED.etcd) == (env["KUBERNETES_VERSION"], env["ETCD_VERSION"])
    assert (TESTING_PINNED.kubernetes, TESTING_PINNED.etcd) == (recipe().kubernetes, recipe().etcd)
    assert TESTING_PINNED.folder_name == PINNED
    assert [v.kubernetes for v in SUPPORTED] == env["SUPPORTED_KUBERNETES_VERSIONS"].strip('"').split()
    assert SUPPORTED[-1] == TESTING_PINNED and {v.etcd for v in SUPPORTED} == {env["ETCD_VERSION"]}
    # A bare minor means its supported release, for every supported minor.
    assert [requested_versions(v.kubernetes.rsplit(".", 1)[0], environ={}) for v in SUPPORTED] == list(SUPPORTED)


def test_the_harness_and_kgen_envtest_agree_on_the_pinned_build_not_the_newest(
    outside_a_checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned = outside_a_checkout / "envtest" / PINNED
    assert find_assets() == pinned
    assert kgen(["envtest", "--no-build"]) == 0
    assert capsys.readouterr().out == f"{pinned}\n"


def test_the_harness_and_kgen_envtest_agree_on_the_version_asked_for(
    outside_a_checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    other = outside_a_checkout / "envtest" / "k8s-1.99.0-etcd-3.9.9"
    assert find_assets("1.99.0", "3.9.9") == other
    assert kgen(["envtest", "--no-build", "--kubernetes-version", "1.99.0", "--etcd-version", "3.9.9"]) == 0
    assert capsys.readouterr().out == f"{other}\n"
    monkeypatch.setenv("KGEN_ENVTEST_KUBERNETES_VERSION", "1.99.0")
    monkeypatch.setenv("KGEN_ENVTEST_ETCD_VERSION", "3.9.9")
    assert find_assets() == other
    assert kgen(["envtest", "--no-build"]) == 0
    assert capsys.readouterr().out == f"{other}\n"
    # A pinned minor means its pinned release, for both.
    monkeypatch.delenv("KGEN_ENVTEST_ETCD_VERSION")
    monkeypatch.setenv("KGEN_ENVTEST_KUBERNETES_VERSION", "1.37")
    assert find_assets() == outside_a_checkout / "envtest" / PINNED
    assert kgen(["envtest", "--no-build"]) == 0
    assert capsys.readouterr().out == f"{outside_a_checkout / 'envtest' / PINNED}\n"


def test_a_version_not_built_names_the_command_that_builds_it(
    outside_a_checkout: Path, fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(AssetsNotFound) as caught:
        find_assets("1.36.1")
    folder = outside_a_checkout / "envtest" / "k8s-1.36.1-etcd-3.7.3"
    assert str(caught.value) == (
        f"no kube-apiserver/etcd for Kubernetes 1.36.1 / etcd 3.7.3 in {folder} (it holds "
        f"{PINNED}, k8s-1.99.0-etcd-3.9.9): build them with "
        "`kgen envtest --kubernetes-version 1.36.1 --etcd-version 3.7.3` (pip install kgen-k8s; needs Go), "
        "or set KUBEBUILDER_ASSETS to a folder holding 'etcd' and 'kube-apiserver' (e.g. from setup-envtest)"
    )
    # The command it names builds the folder it then finds.
    (tmp_path / "kubernetes.mod").write_text(KUBERNETES_GOMOD)
    monkeypatch.setenv("FAKE_KUBERNETES_GOMOD", str(tmp_path / "kubernetes.mod"))
    command = str(caught.value).split("`")[1].split()
    assert kgen(command[1:]) == 0
    assert capsys.readouterr().out == f"{folder}\n"
    assert find_assets("1.36.1") == folder


def test_the_pinned_build_missing_says_kgen_envtest(outside_a_checkout: Path) -> None:
    import shutil

    shutil.rmtree(outside_a_checkout / "envtest" / PINNED)
    with pytest.raises(AssetsNotFound, match=r"build them with `kgen envtest` \(pip install kgen-k8s; needs Go\)"):
        find_assets()


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"KGEN_ENVTEST_KUBERNETES_VERSION": "v1.37.2"},
         "$KGEN_ENVTEST_KUBERNETES_VERSION: expected a version like 1.37.2, got 'v1.37.2'"),
        ({"KGEN_ENVTEST_KUBERNETES_VERSION": "1.12"},
         "$KGEN_ENVTEST_KUBERNETES_VERSION: Kubernetes 1.12 is not supported by kgen (supported: 1.34, 1.35, 1.36, 1.37); give X.Y.Z"),
    ],
)
def test_a_malformed_version_in_the_environment_is_one_error_for_both(
    environ: dict[str, str], message: str, outside_a_checkout: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(AssetsNotFound) as caught:
        find_assets()
    assert str(caught.value) == message
    assert kgen(["envtest", "--no-build"]) == 2
    assert capsys.readouterr().err == f"kgen envtest: {message}\n"


def test_in_a_checkout_the_version_asked_for_is_what_build_sh_builds(
    fake_go: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert assets_module._build_script() is not None  # this test runs in the checkout
    monkeypatch.delenv("KUBEBUILDER_ASSETS", raising=False)
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "kubernetes.mod").write_text(KUBERNETES_GOMOD)
    monkeypatch.setenv("FAKE_KUBERNETES_GOMOD", str(tmp_path / "kubernetes.mod"))
    assert find_assets("1.30.4", "3.5.21") == tmp_path / "cache" / "envtest" / "k8s-1.30.4-etcd-3.5.21"
    assert "get -tool k8s.io/kubernetes/cmd/kube-apiserver@v1.30.4" in fake_go.read_text()


def test_the_test_apiserver_asks_find_assets_for_its_version(outside_a_checkout: Path) -> None:
    from kgen.runtime.testing import KubeAPIServer

    with pytest.raises(AssetsNotFound, match=r"build them with `kgen envtest --kubernetes-version 1.36.1 --etcd-version 3.7.3`"):
        KubeAPIServer(kubernetes_version="1.36.1").start()
