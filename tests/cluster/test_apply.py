"""``apply`` / ``delete`` of a folder of manifests against ``kubectl apply --server-side`` (the oracle).

kgen applies to one fresh apiserver, kubectl (the cluster's, same release) to another, the same
folder, so cluster-scoped names (the CRD, the namespace) do not collide and both start empty.
The folder sorts the Deployment before its namespace and the custom resources before their CRD:
kubectl, which sends objects in file order, needs a second run (after the CRD is Established);
kgen's one call orders them itself. Then the stored objects and their managedFields must be the
same on both servers (uid, resourceVersion, timestamps aside), a re-apply must change nothing on
either, ``--dry-run`` must print kubectl's lines and store nothing, and ``kgen apply``/``delete``
from the command line must print what kubectl prints.

On the cluster itself: a field-manager conflict fails that object only (exit 1), as kubectl's
apply does, and ``--force-conflicts`` takes the field. And kubectl's reading of a YAML file
(``kubectl label --local -o json``, offline) is the oracle for how every plain scalar is read
(``y`` is true, ``1:20`` a string, ...) and for ``dump_all_yaml``'s quoting.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgen.runtime.apimachinery import NotFound
from kgen.runtime.dynamic import DynamicClient
from kgen.runtime.kubectl import ApplyResult, apply, async_apply, delete, dump_all_yaml, load_all_yaml
from kgen.runtime.rest import RESTClient, load_kubeconfig
from kgen.runtime.testing import Cluster, KubeAPIServer

KGEN = str(Path(sys.executable).parent / "kgen")


def _manifests(folder: Path, suffix: str, replicas: int = 1, extra: str = "") -> dict[str, str]:
    group, namespace = f"g{suffix}.example.com", f"demo-{suffix}"
    files = {
        "app.yaml": f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: {namespace}
  labels: {{app: web}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{{containerPort: 80}}]
""" + extra,
        "crd.yaml": f"""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.{group}
spec:
  group: {group}
  scope: Namespaced
  names: {{plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {{type: integer}}
              color: {{type: string, default: blue}}
""",
        "namespace.yaml": f"""\
apiVersion: v1
kind: Namespace
metadata:
  name: {namespace}
  labels: {{team: a}}
""",
        "widgets.yaml": f"""\
apiVersion: v1
kind: List
items:
- apiVersion: {group}/v1
  kind: Widget
  metadata: {{name: small, namespace: {namespace}}}
  spec: {{size: {replicas}}}
- apiVersion: {group}/v1
  kind: Widget
  metadata: {{name: large, namespace: {namespace}}}
  spec: {{size: 10, color: red}}
---
""",
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return files


def _kubectl(cluster: Cluster, server: KubeAPIServer, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(cluster.assets / "kubectl"), f"--kubeconfig={server.kubeconfig}", *args],
        capture_output=True, text=True, timeout=120, input=input, stdin=None if input is not None else subprocess.DEVNULL,
    )


def _kgen(server: KubeAPIServer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KGEN, *args, f"--kubeconfig={server.kubeconfig}"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def _normalized(obj: dict[str, Any]) -> dict[str, Any]:
    """What must be equal on two servers: all but uid, resourceVersion and the times."""
    obj = json.loads(json.dumps(obj))
    meta = obj["metadata"]
    for key in ("uid", "resourceVersion", "creationTimestamp"):
        meta.pop(key, None)
    for entry in meta.get("managedFields") or []:
        entry.pop("time", None)
    for condition in (obj.get("status") or {}).get("conditions") or []:
        condition.pop("lastTransitionTime", None)
    return obj


def _stored(rest: RESTClient, objects: list[Any]) -> dict[str, dict[str, Any] | None]:
    """Each object of ``objects`` as the server holds it now (None: not there), by kind/namespace/name."""
    dyn, out = DynamicClient(rest), dict[str, dict[str, Any] | None]()
    for obj in objects:
        wire = obj if isinstance(obj, dict) else obj.to_dict()
        meta = wire["metadata"]
        group, _, version = wire["apiVersion"].rpartition("/")
        client = dyn.for_kind(wire["kind"], group, namespace=meta.get("namespace"))
        key = f"{wire['kind']}/{meta.get('namespace') or ''}/{meta['name']}"
        try:
            out[key] = client.get(meta["name"])
        except NotFound:
            out[key] = None
    return out


def _versions(state: dict[str, dict[str, Any] | None]) -> dict[str, str | None]:
    return {k: (v["metadata"]["resourceVersion"] if v else None) for k, v in state.items()}


@pytest.fixture(scope="module")
def servers(kube_cluster: Cluster) -> Iterator[tuple[KubeAPIServer, KubeAPIServer]]:
    """Two empty apiservers of the cluster's release: kgen's and kubectl's."""
    with KubeAPIServer(kube_cluster.assets) as mine, KubeAPIServer(kube_cluster.assets) as theirs:
        yield mine, theirs


def test_folder_applies_in_one_call_as_kubectl_stores_it(
    kube_cluster: Cluster, servers: tuple[KubeAPIServer, KubeAPIServer], tmp_path: Path
) -> None:
    mine, theirs = servers
    suffix = uuid.uuid4().hex[:8]
    _manifests(tmp_path / "m", suffix)
    objects = load_all_yaml(tmp_path / "m", "kgen.kubernetes")
    assert [type(o).__name__ for o in objects] == ["Deployment", "CustomResourceDefinition", "Namespace", "dict", "dict"]

    # kgen: one call on an empty server; kubectl's field manager, so managedFields can be compared.
    results = apply(load_kubeconfig(mine.kubeconfig), objects, field_manager="kubectl")
    assert [r.error for r in results] == [None] * 5
    assert all(r.action == "serverside-applied" and r.stored for r in results)

    # kubectl: file order, so the Deployment (namespace not yet there) and the widgets (no CRD yet) fail first.
    first = _kubectl(kube_cluster, theirs, "apply", "--server-side", "-f", str(tmp_path / "m"))
    assert first.returncode != 0 and "Widget" in first.stderr, first
    waited = _kubectl(kube_cluster, theirs, "wait", "--for=condition=Established", f"crd/widgets.g{suffix}.example.com")
    assert waited.returncode == 0, waited.stderr
    second = _kubectl(kube_cluster, theirs, "apply", "--server-side", "-f", str(tmp_path / "m"))
    assert second.returncode == 0, second.stderr
    assert sorted(second.stdout.splitlines()) == sorted(r.line for r in results)

    with RESTClient(load_kubeconfig(mine.kubeconfig)) as a, RESTClient(load_kubeconfig(theirs.kubeconfig)) as b:
        ours, kubectls = _stored(a, objects), _stored(b, objects)
        assert all(ours.values()) and all(kubectls.values())
        assert {k: _normalized(v) for k, v in ours.items() if v} == {k: _normalized(v) for k, v in kubectls.items() if v}

        # Re-applying is a no-op, as kubectl's re-apply is: no resourceVersion moves (async flavour here).
        again = asyncio.run(async_apply(load_kubeconfig(mine.kubeconfig), objects, field_manager="kubectl"))
        assert [r.error for r in again] == [None] * 5
        assert {k: v["metadata"]["resourceVersion"] for k, v in zip(ours, (r.stored for r in again), strict=True) if v} == _versions(ours)
        assert _versions(_stored(a, objects)) == _versions(ours)
        third = _kubectl(kube_cluster, theirs, "apply", "--server-side", "-f", str(tmp_path / "m"))
        assert third.returncode == 0 and _versions(_stored(b, objects)) == _versions(kubectls)

        # Dry run from the command line: kubectl's lines, nothing stored.
        _manifests(tmp_path / "m2", suffix, replicas=3, extra=f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n"
                   f"  namespace: demo-{suffix}\ndata: {{mode: fast}}\n")
        changed = load_all_yaml(tmp_path / "m2")
        dry = _kgen(mine, "apply", "-f", str(tmp_path / "m2"), "--field-manager=kubectl", "--dry-run")
        kubectl_dry = _kubectl(kube_cluster, theirs, "apply", "--server-side", "--dry-run=server", "-f", str(tmp_path / "m2"))
        assert dry.returncode == 0 == kubectl_dry.returncode, (dry.stderr, kubectl_dry.stderr)
        assert sorted(dry.stdout.splitlines()) == sorted(kubectl_dry.stdout.splitlines())
        assert _versions(_stored(a, changed)) == {**_versions(ours), f"ConfigMap/demo-{suffix}/settings": None}

        # For real, from the command line: the same lines and the same stored objects as kubectl's.
        real = _kgen(mine, "apply", "-f", str(tmp_path / "m2"), "--field-manager=kubectl")
        kubectl_real = _kubectl(kube_cluster, theirs, "apply", "--server-side", "-f", str(tmp_path / "m2"))
        assert real.returncode == 0 == kubectl_real.returncode, (real.stderr, kubectl_real.stderr)
        assert sorted(real.stdout.splitlines()) == sorted(kubectl_real.stdout.splitlines())
        now_ours, now_kubectls = _stored(a, changed), _stored(b, changed)
        assert now_ours[f"Deployment/demo-{suffix}/web"]["spec"]["replicas"] == 3  # type: ignore[index]
        assert {k: _normalized(v) for k, v in now_ours.items() if v} == {k: _normalized(v) for k, v in now_kubectls.items() if v}
        assert all(now_ours.values())

        # Delete: reverse order (widgets, ..., CRD, namespace last); kubectl given that order prints the same lines.
        gone: list[ApplyResult] = delete(load_kubeconfig(mine.kubeconfig), changed)
        assert [r.error for r in gone] == [None] * 6
        sent = list(reversed(sorted(range(6), key=lambda i: _rank(changed[i]))))
        by_kubectl = _kubectl(kube_cluster, theirs, "delete", "--wait=false", "-f", "-",
                              input="---\n".join(json.dumps(changed[i]) + "\n" for i in sent))
        assert by_kubectl.returncode == 0, by_kubectl.stderr
        assert by_kubectl.stdout.splitlines() == [gone[i].line for i in sent]
        assert [k for k, v in _stored(a, changed).items() if v and "deletionTimestamp" not in v["metadata"]] == []


def _rank(obj: dict[str, Any]) -> int:
    from kgen.runtime.kubectl.apply import apply_rank

    return apply_rank(obj["kind"])


def test_a_conflict_fails_its_object_only_and_force_conflicts_takes_the_field(
    kube_cluster: Cluster, ns: str, tmp_path: Path
) -> None:
    cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {mode: %s}\n"
    (tmp_path / "a.yaml").write_text(cm % ("settings", "fast") + "---\n" + cm % ("other", "x"))
    assert kube_cluster.kubectl("apply", "--server-side", "-n", ns, "-f", str(tmp_path / "a.yaml")).returncode == 0
    (tmp_path / "b.yaml").write_text(cm % ("settings", "slow") + "---\n" + cm % ("other", "x") + "---\n" + cm % ("third", "new"))

    # kubectl, as the same manager and without storing, meets the same conflict on the same object.
    theirs = kube_cluster.kubectl("apply", "--server-side", "--field-manager=kgen", "--dry-run=server", "-n", ns,
                                  "-f", str(tmp_path / "b.yaml"))
    ours = _run_kgen(kube_cluster, "apply", "-n", ns, "-f", str(tmp_path / "b.yaml"))
    assert ours.returncode == 1 and theirs.returncode == 1, (ours, theirs)
    conflict = 'Apply failed with 1 conflict: conflict with "kubectl"'
    assert conflict in theirs.stderr and ".data.mode" in theirs.stderr
    assert len(ours.stderr.splitlines()) == 1 and ours.stderr.startswith("error: configmap/settings: ")
    assert conflict in ours.stderr and ".data.mode" in ours.stderr
    assert ours.stdout.splitlines() == [line.replace(" (server dry run)", "") for line in theirs.stdout.splitlines()]

    forced = _run_kgen(kube_cluster, "apply", "--force-conflicts", "-n", ns, "-f", str(tmp_path / "b.yaml"))
    assert forced.returncode == 0, forced.stderr
    stored = json.loads(kube_cluster.kubectl("get", "configmap", "settings", "-n", ns, "-o", "json", "--show-managed-fields",
                                           check=True).stdout)
    assert stored["data"] == {"mode": "slow"}
    owners = {e["manager"]: e.get("fieldsV1", {}) for e in stored["metadata"]["managedFields"]}
    assert "f:mode" in owners["kgen"]["f:data"] and "f:data" not in owners.get("kubectl", {})  # taken whole

    # kgen delete prints kubectl delete's lines (kubectl's first, as a server dry run, so both see the objects).
    theirs = kube_cluster.kubectl("delete", "--dry-run=server", "-n", ns, "-f", str(tmp_path / "b.yaml"))
    ours = _run_kgen(kube_cluster, "delete", "-n", ns, "-f", str(tmp_path / "b.yaml"))
    assert ours.returncode == 0 == theirs.returncode, (ours.stderr, theirs.stderr)
    assert sorted(ours.stdout.splitlines()) == sorted(line.replace(" (server dry run)", "") for line in theirs.stdout.splitlines())
    left = json.loads(kube_cluster.kubectl("get", "configmaps", "-n", ns, "-o", "json", check=True).stdout)["items"]
    assert {cm["metadata"]["name"] for cm in left} & {"settings", "other", "third"} == set()


def _run_kgen(cluster: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KGEN, *args, f"--kubeconfig={cluster.kubeconfig}"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


QUIRKS = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: quirks}
spec:
  values:
    bools: [y, Y, n, N, yes, No, on, OFF, true, False]
    not-base-60: [1:20, -1:20:30, 1:2.5]
    ints: [0o17, 017, 08, 0x1F, 0b101, 1_000, +12, -0, 0]
    floats: [1e3, 1.5e+3, 1., .5, 1.0, -2.50, 1e-3, 12e, 1.5e, 1_0.5]
    texts: [2024-01-01, 2024-01-01T10:00:00Z, =, ~, null, "", "y", "0o17", "1e3", "1:20", '2024-01-01', "=", "true"]
    8080: numeric key
    true: boolean key
    1.5: float key
"""


def test_scalars_are_read_as_kubectl_reads_them_and_dumped_so_it_reads_them_back(kube_cluster: Cluster, tmp_path: Path) -> None:
    """kubectl's own reading of a file, offline (``label --local``), is the oracle for every plain scalar."""
    def kubectl_reads(path: Path) -> dict[str, Any]:
        done = subprocess.run([str(kube_cluster.assets / "kubectl"), "--kubeconfig=/dev/null", "label", "--local", "-f", str(path),
                               "oracle=yes", "-o", "json"], capture_output=True, text=True, timeout=60, check=True)
        obj: dict[str, Any] = json.loads(done.stdout)
        del obj["metadata"]["labels"]
        return obj

    (tmp_path / "quirks.yaml").write_text(QUIRKS)
    (ours,) = load_all_yaml(tmp_path / "quirks.yaml")
    assert ours == kubectl_reads(tmp_path / "quirks.yaml")
    assert ours["spec"]["values"]["texts"][6:9] == ["y", "0o17", "1e3"]  # the quoted ones stay strings
    (tmp_path / "dumped.yaml").write_text(dump_all_yaml([ours]))
    assert kubectl_reads(tmp_path / "dumped.yaml") == ours == load_all_yaml(tmp_path / "dumped.yaml")[0]
