"""`kgen generate --kubernetes <release>` generates, offline, what that release's apiserver serves:
the embedded snapshot of the release against `kgen generate --cluster` on a real apiserver of it (no CRDs installed beside)."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

from kgen.generator.generate import embedded_versions
from kgen.runtime.testing import Cluster, KubeAPIServer
from tests.support.packages import generate


def _release(server: KubeAPIServer) -> str:
    return server.version.removeprefix("v")


def test_the_servers_release_is_an_embedded_snapshot(compat_cluster: Cluster) -> None:
    assert _release(compat_cluster) in embedded_versions()


def test_generate_for_the_release_matches_generate_from_its_cluster(compat_apiserver: KubeAPIServer, tmp_path: Path) -> None:
    minor = ".".join(_release(compat_apiserver).split(".")[:2])
    offline = generate(tmp_path / "offline", "pkg", "--kubernetes", minor)
    live = generate(tmp_path / "live", "pkg", "--cluster", "--kubeconfig", compat_apiserver.kubeconfig)
    files = sorted(p.relative_to(offline).as_posix() for p in offline.rglob("*.py"))
    assert files == sorted(p.relative_to(live).as_posix() for p in live.rglob("*.py"))
    # Models and typed clients byte for byte: the same types, fields, resources and verbs.
    compared = [rel for rel in files if rel.split("/")[0] in ("models", "typed")]
    assert len(compared) > 40
    for rel in compared:
        assert (offline / rel).read_text() == (live / rel).read_text(), rel
    # The package itself is the same too (informers, listers, fake, apply configurations).
    assert [rel for rel in files if (offline / rel).read_text() != (live / rel).read_text()] == []


def test_the_releases_typed_clients_list_and_create_on_its_server(compat_cluster: Cluster, tmp_path: Path) -> None:
    minor = ".".join(_release(compat_cluster).split(".")[:2])
    package = f"k{minor.replace('.', '_')}_{uuid.uuid4().hex[:6]}"
    generate(tmp_path, package, "--kubernetes", minor, "--groups", "core/v1")
    sys.path.insert(0, str(tmp_path))
    try:
        root = __import__(package)
        core = __import__(f"{package}.models.core.v1", fromlist=["ConfigMap"])
        meta = __import__(f"{package}.models.meta.v1", fromlist=["ObjectMeta"])
        with root.Clientset.from_kubeconfig(compat_cluster.kubeconfig) as cs:
            config_maps = cs.core_v1.config_maps("default")
            name = f"compat-{uuid.uuid4().hex[:8]}"
            created = config_maps.create(core.ConfigMap(metadata=meta.ObjectMeta(name=name), data={"release": minor}))
            assert created.metadata.uid and created.data == {"release": minor}
            listed = config_maps.list()
            assert name in [cm.metadata.name for cm in listed.items]
            config_maps.delete(name)
    finally:
        sys.path.remove(str(tmp_path))
        for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[module]
