"""controller-runtime's client helpers, LabelSelectorPredicate and controller options, on the real
apiserver, threads and asyncio (issue 36).

- ``create_or_update``: created, then unchanged (no write: the resourceVersion stays), then
  updated; a mutate that renames the object is refused before any write;
- ``create_or_patch`` on the tutorial's CronJob (a status subresource): created, unchanged,
  updated, updatedStatusOnly, updatedStatus, each checked on the server;
- ``delete_all_of`` deletes exactly what its label/field selectors select;
- ``merge_from(stale, optimistic_lock=True)`` gets 409 Conflict, without the lock it merges;
- LabelSelectorPredicate passes exactly the events of the objects the apiserver selects with the
  same selector; controller options (recover_panic, reconcile_timeout, max_retries + the terminal
  condition) on one manager per flavour, and a panic with recover_panic=False ends the manager;
- against controller-runtime v0.25.3 itself (hack/controller-runtime/helpers): CreateOrUpdate,
  CreateOrPatch, LabelSelectorPredicate and MergeFrom[WithOptimisticLock] on the same steps, every
  answer equal.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from examples.cronjob.client.models.batch_tutorial_kgen_dev.v1 import CronJob, CronJobStatus
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.apimachinery.meta import resource_version_of
from kgen.runtime.controller import AsyncManager, Manager
from kgen.runtime.controller.cluster.patch import merge_from
from kgen.runtime.controller.predicate import LabelSelectorPredicate
from kgen.runtime.controller.patterns.create_or_update import (
    MutateError,
    OperationResult,
    async_create_or_patch,
    async_create_or_update,
    create_or_patch,
    create_or_update,
)
from kgen.runtime.testing import KubeAPIServer
from tests.integration.test_example_cronjob import cron_job, ensure_crd
from tests.support.apiserver import async_wait_for, unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration

@contextmanager
def running(manager: Manager) -> Iterator[None]:
    with running_in_thread(manager, name="helpers-manager"):
        assert manager.elected.wait(60), "the manager did not start"  # its cache is started and synced
        yield


@asynccontextmanager
async def async_running(manager: AsyncManager) -> AsyncIterator[None]:
    task = asyncio.create_task(manager.start())
    try:
        await async_wait_for(lambda: asyncio.sleep(0, manager.elected.is_set()))  # cache started and synced
        yield
    finally:
        manager.stop()
        await asyncio.wait_for(task, 60)


@pytest.fixture
def kube(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def set_data(value: str) -> Callable[[ConfigMap], None]:
    def mutate(cm: ConfigMap) -> None:
        cm.data = {"k": value}
    return mutate


# -- create_or_update / create_or_patch --------------------------------------------------------


def test_create_or_update_created_unchanged_updated(kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str) -> None:
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    cms = kube.core_v1.config_maps(namespace)
    with running(manager):
        client = manager.client
        cm = ConfigMap(metadata=ObjectMeta(name="cou", namespace=namespace))
        assert create_or_update(client, cm, set_data("v1")) is OperationResult.CREATED
        created_rv = resource_version_of(cm)
        assert created_rv and cms.get("cou").data == {"k": "v1"}  # obj holds the server's answer

        def cached_is(rv: str) -> bool:
            try:
                return resource_version_of(client.get(ConfigMap, "cou", namespace)) == rv
            except NotFound:
                return False

        wait_for(lambda: cached_is(created_rv))

        again = ConfigMap(metadata=ObjectMeta(name="cou", namespace=namespace))
        assert create_or_update(client, again, set_data("v1")) is OperationResult.UNCHANGED
        assert resource_version_of(cms.get("cou")) == created_rv  # nothing was written
        assert again.data == {"k": "v1"}

        changed = ConfigMap(metadata=ObjectMeta(name="cou", namespace=namespace))
        assert create_or_update(client, changed, set_data("v2")) is OperationResult.UPDATED
        stored = cms.get("cou")
        assert stored.data == {"k": "v2"} and resource_version_of(stored) != created_rv
        assert resource_version_of(changed) == resource_version_of(stored)

        # mutate returning a changed copy works as changing in place does
        wait_for(lambda: cached_is(resource_version_of(stored)))
        copy_cm = ConfigMap(metadata=ObjectMeta(name="cou", namespace=namespace))
        assert create_or_update(
            client, copy_cm, lambda c: ConfigMap(metadata=c.metadata, data={"k": "v3"})
        ) is OperationResult.UPDATED
        assert cms.get("cou").data == {"k": "v3"}

        def rename(c: ConfigMap) -> None:
            assert c.metadata is not None
            c.metadata.name = "other"

        before = resource_version_of(cms.get("cou"))
        with pytest.raises(MutateError, match="MutateFn cannot mutate object name and/or object namespace"):
            create_or_update(client, ConfigMap(metadata=ObjectMeta(name="cou", namespace=namespace)), rename)
        with pytest.raises(MutateError):
            create_or_update(client, ConfigMap(metadata=ObjectMeta(name="absent", namespace=namespace)), rename)
        assert resource_version_of(cms.get("cou")) == before
        with pytest.raises(NotFound):
            cms.get("absent")


def status_with(message: str) -> Callable[[CronJob], None]:
    """A mutate setting the CronJob's status.lastScheduleTime-free status to one condition."""
    from examples.cronjob.client.models.meta.v1 import Condition

    def mutate(cj: CronJob) -> None:
        cj.status = CronJobStatus(conditions=[Condition(
            type="Available", status="True", reason="Test", message=message, last_transition_time="2026-01-01T00:00:00Z",
        )])
    return mutate


def cron_key(name: str, namespace: str) -> CronJob:
    """A CronJob named ``name``: what create_or_patch reads replaces all but the key (the model
    requires a spec, so the key comes with one; on create, mutate sets the schedule)."""
    cj = cron_job(name, schedule="0 0 * * *")
    assert cj.metadata is not None
    cj.metadata.namespace = namespace
    return cj


def test_create_or_patch_with_status(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str) -> None:
    ensure_crd(admin)
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    url = f"/apis/batch.tutorial.kgen.dev/v1/namespaces/{namespace}/cronjobs/cop"

    def fresh() -> CronJob:
        return cron_key("cop", namespace)

    def stored() -> dict[str, object]:
        body: dict[str, object] = admin.get(url).json()
        return body

    def cached_is(rv: str) -> bool:
        try:
            return resource_version_of(manager.client.get(CronJob, "cop", namespace)) == rv
        except NotFound:
            return False

    def set_schedule(schedule: str) -> Callable[[CronJob], None]:
        def mutate(cj: CronJob) -> None:
            cj.spec.schedule = schedule
        return mutate

    with running(manager):
        client = manager.client
        obj = fresh()

        def both(c: CronJob) -> None:
            set_schedule("*/5 * * * *")(c)
            status_with("ignored on create")(c)

        assert create_or_patch(client, obj, both) is OperationResult.CREATED
        assert "status" not in stored() or not stored()["status"]  # a status on create is not written
        wait_for(lambda: cached_is(resource_version_of(obj)))

        rv = resource_version_of(obj)
        assert create_or_patch(client, fresh(), set_schedule("*/5 * * * *")) is OperationResult.UNCHANGED
        assert stored()["metadata"]["resourceVersion"] == rv  # type: ignore[index]

        obj = fresh()
        assert create_or_patch(client, obj, set_schedule("*/7 * * * *")) is OperationResult.UPDATED
        assert stored()["spec"]["schedule"] == "*/7 * * * *"  # type: ignore[index]
        wait_for(lambda: cached_is(resource_version_of(obj)))

        obj = fresh()
        assert create_or_patch(client, obj, status_with("one")) is OperationResult.UPDATED_STATUS_ONLY
        assert stored()["status"]["conditions"][0]["message"] == "one"  # type: ignore[index]
        assert stored()["spec"]["schedule"] == "*/7 * * * *"  # type: ignore[index]
        wait_for(lambda: cached_is(resource_version_of(obj)))

        obj = fresh()

        def spec_and_status(c: CronJob) -> None:
            set_schedule("*/9 * * * *")(c)
            status_with("two")(c)

        assert create_or_patch(client, obj, spec_and_status) is OperationResult.UPDATED_STATUS
        body = stored()
        assert body["spec"]["schedule"] == "*/9 * * * *"  # type: ignore[index]
        assert body["status"]["conditions"][0]["message"] == "two"  # type: ignore[index]
        assert obj.status is not None and obj.status.conditions is not None and obj.status.conditions[0].message == "two"


# -- delete_all_of, merge_from -----------------------------------------------------------------


def labelled(name: str, namespace: str, app: str) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace, labels={"app": app}))


def test_delete_all_of_deletes_only_the_selected(kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str) -> None:
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    cms = kube.core_v1.config_maps(namespace)
    for name, app in (("a1", "a"), ("a2", "a"), ("b1", "b"), ("b2", "b"), ("c1", "c")):
        cms.create(labelled(name, namespace, app))

    def names() -> set[str]:
        return {c.metadata.name for c in cms.list().items
                if c.metadata and c.metadata.name and c.metadata.name != "kube-root-ca.crt"}

    manager.client.delete_all_of(ConfigMap, namespace=namespace, matching_labels={"app": "a"})
    assert names() == {"b1", "b2", "c1"}
    manager.client.delete_all_of(ConfigMap, namespace=namespace, matching_labels={"app": "b"},
                                 matching_fields={"metadata.name": "b2"})
    assert names() == {"b1", "c1"}
    manager.client.delete_all_of(ConfigMap, namespace=namespace, label_selector="app in (b,c)")
    assert names() == set()
    with pytest.raises(ValueError, match="namespaced"):
        manager.client.delete_all_of(ConfigMap, matching_labels={"app": "a"})


def test_merge_from_with_optimistic_lock_conflicts_on_a_stale_object(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str
) -> None:
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    cms = kube.core_v1.config_maps(namespace)
    cms.create(ConfigMap(metadata=ObjectMeta(name="mf", namespace=namespace), data={"a": "1"}))
    stale = manager.client.api_reader.get(ConfigMap, "mf", namespace)
    cms.update(ConfigMap(metadata=cms.get("mf").metadata, data={"a": "1", "other": "writer"}))

    locked = merge_from(stale, optimistic_lock=True)
    mine = ConfigMap(metadata=stale.metadata, data={"a": "2"})
    assert locked.data(mine)["metadata"] == {"resourceVersion": resource_version_of(stale)}
    with pytest.raises(Conflict):
        manager.client.patch(mine, locked)
    assert cms.get("mf").data == {"a": "1", "other": "writer"}

    # Without the lock the same patch merges into what the other writer stored: "other" survives,
    # as it was never in the stale copy's diff.
    patched = manager.client.patch(mine, merge_from(stale))
    assert patched.data == {"a": "2", "other": "writer"}
    # With the lock on a fresh read it succeeds.
    fresh = cms.get("mf")
    newer = ConfigMap(metadata=fresh.metadata, data={**(fresh.data or {}), "a": "3"})
    assert manager.client.patch(newer, merge_from(fresh, optimistic_lock=True)).data == {"a": "3", "other": "writer"}


# -- the same on asyncio ---------------------------------------------------------------------------


def test_async_helpers(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str) -> None:
    ensure_crd(admin)

    async def scenario() -> None:
        config = unthrottled_config(kube_apiserver)
        manager = AsyncManager(config, namespace=namespace)
        async with async_running(manager):
            client = manager.client
            cm = ConfigMap(metadata=ObjectMeta(name="acou", namespace=namespace))

            async def async_set(c: ConfigMap) -> None:
                c.data = {"k": "v1"}

            assert await async_create_or_update(client, cm, async_set) is OperationResult.CREATED
            rv = resource_version_of(cm)

            async def cached(name: str, want: str) -> bool:
                try:
                    return resource_version_of(await client.get(ConfigMap, name, namespace)) == want
                except NotFound:
                    return False

            await async_wait_for(lambda: cached("acou", rv))
            fresh = ConfigMap(metadata=ObjectMeta(name="acou", namespace=namespace))
            assert await async_create_or_update(client, fresh, set_data("v1")) is OperationResult.UNCHANGED
            assert resource_version_of(await client.api_reader.get(ConfigMap, "acou", namespace)) == rv
            fresh = ConfigMap(metadata=ObjectMeta(name="acou", namespace=namespace))
            assert await async_create_or_update(client, fresh, set_data("v2")) is OperationResult.UPDATED
            assert (await client.api_reader.get(ConfigMap, "acou", namespace)).data == {"k": "v2"}

            cj = cron_key("acop", namespace)

            def set_spec(c: CronJob) -> None:
                c.spec.schedule = "*/5 * * * *"

            assert await async_create_or_patch(client, cj, set_spec) is OperationResult.CREATED

            async def cj_cached() -> bool:
                try:
                    return resource_version_of(await client.get(CronJob, "acop", namespace)) == resource_version_of(cj)
                except NotFound:
                    return False

            await async_wait_for(cj_cached)
            cj = cron_key("acop", namespace)
            assert await async_create_or_patch(client, cj, status_with("async")) is OperationResult.UPDATED_STATUS_ONLY
            got = (await client.api_reader.get(CronJob, "acop", namespace)).status
            assert got is not None and got.conditions is not None and got.conditions[0].message == "async"

            for name, app in (("x1", "x"), ("x2", "x"), ("y1", "y")):
                await client.create(labelled(name, namespace, app))
            await client.delete_all_of(ConfigMap, namespace=namespace, matching_labels={"app": "x"})
            left = {c.metadata.name for c in await client.api_reader.list(ConfigMap, namespace, "app") if c.metadata}
            assert left == {"y1"}

            stale = await client.api_reader.get(ConfigMap, "y1", namespace)
            await client.patch(ConfigMap, "y1", {"data": {"z": "1"}}, namespace=namespace)
            with pytest.raises(Conflict):
                await client.patch(ConfigMap(metadata=stale.metadata, data={"w": "1"}), merge_from(stale, optimistic_lock=True))

    asyncio.run(scenario())


# -- LabelSelectorPredicate and controller options ----------------------------------------------
# One manager runs several controllers of ConfigMaps (CronJobs for max_retries), each seeing only
# the objects labelled with its own case (a LabelSelectorPredicate on ``case``), so every option is
# exercised on the real apiserver's events in one start of the manager per flavour.

CASE = "kgen.dev/case"
SELECTOR = {"matchLabels": {"tier": "web"}, "matchExpressions": [
    {"key": "env", "operator": "In", "values": ["prod", "staging"]}, {"key": "legacy", "operator": "DoesNotExist"},
]}
SELECTOR_STRING = "tier=web,env in (prod,staging),!legacy"
"""SELECTOR as a selector string: the apiserver's answer to it is what the predicate must pass."""
PREDICATE_LABELS = {
    "p-match": {"tier": "web", "env": "prod"}, "p-staging": {"tier": "web", "env": "staging"},
    "p-dev": {"tier": "web", "env": "dev"}, "p-legacy": {"tier": "web", "env": "prod", "legacy": "1"},
    "p-notier": {"env": "prod"}, "p-none": {},
}


class Attempts:
    """What a test reconciler saw, per request name, thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: dict[str, int] = {}
        self.cancelled: set[str] = set()

    def count(self, name: str) -> int:
        with self._lock:
            self.calls[name] = self.calls.get(name, 0) + 1
            return self.calls[name]

    def of(self, name: str) -> int:
        with self._lock:
            return self.calls.get(name, 0)


def case_labels(case: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {CASE: case, **(extra or {})}


def case_predicate(case: str) -> LabelSelectorPredicate:
    return LabelSelectorPredicate({"matchLabels": {CASE: case}})


def metric(manager: Manager | AsyncManager, name: str, *labels: str) -> float:
    family = manager.registry.get(name)
    assert family is not None, name
    return family.value(*labels)


def test_label_selector_predicate_refuses_what_label_selector_as_selector_refuses() -> None:
    from kgen.runtime.apimachinery.labels import SelectorError
    from kgen.kubernetes.models.meta.v1 import LabelSelector, LabelSelectorRequirement

    with pytest.raises(SelectorError, match='"Bogus" is not a valid label selector operator'):
        LabelSelectorPredicate({"matchExpressions": [{"key": "a", "operator": "Bogus"}]})
    with pytest.raises(SelectorError, match="values set can't be empty"):
        LabelSelectorPredicate(LabelSelector(match_expressions=[LabelSelectorRequirement(key="a", operator="In")]))
    with pytest.raises(SelectorError, match="values set must be empty"):
        LabelSelectorPredicate({"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]})
    with pytest.raises(SelectorError, match="key"):
        LabelSelectorPredicate({"matchLabels": {"bad key": "x"}})


def create_cases(kube: Clientset, namespace: str) -> None:
    """The predicate's objects (then one of them relabelled to match: an update passes by its new
    object), and one object per option case."""
    cms = kube.core_v1.config_maps(namespace)
    for name, labels in PREDICATE_LABELS.items():
        cms.create(ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace, labels=labels or None)))
    relabelled = cms.get("p-dev")
    assert relabelled.metadata is not None
    relabelled.metadata.labels = {"tier": "web", "env": "prod"}
    cms.update(relabelled)
    for case in ("panic", "error", "timeout"):
        cms.create(ConfigMap(metadata=ObjectMeta(name=case, namespace=namespace, labels=case_labels(case))))
    cms.create(ConfigMap(metadata=ObjectMeta(name="p-sentinel", namespace=namespace, labels={"tier": "web", "env": "prod"})))


def selected_by_server(kube: Clientset, namespace: str) -> set[str]:
    return {c.metadata.name for c in kube.core_v1.config_maps(namespace).list(label_selector=SELECTOR_STRING).items
            if c.metadata and c.metadata.name}


def check_options(manager: Manager | AsyncManager, attempts: Attempts, stuck_status: Callable[[], object]) -> None:
    """What every case must show once the reconciles settled (both flavours)."""
    # a reconciler that raised a bug twice: two panics, counted as errors, then requeued to success
    assert attempts.of("panic") == 3
    assert metric(manager, "controller_runtime_reconcile_panics_total", "panic") == 2
    assert metric(manager, "controller_runtime_reconcile_errors_total", "panic") == 2
    # a ReconcileError is an error, not a panic
    assert attempts.of("error") == 2
    assert metric(manager, "controller_runtime_reconcile_panics_total", "error") == 0
    assert metric(manager, "controller_runtime_reconcile_errors_total", "error") == 1
    # the reconcile past its timeout: counted, an error, requeued; the next one succeeds
    assert attempts.of("timeout") == 2
    assert metric(manager, "controller_runtime_reconcile_timeouts_total", "timeout") == 1
    assert metric(manager, "controller_runtime_reconcile_errors_total", "timeout") == 1
    # max_retries=3: three attempts, then the terminal condition, and no fourth attempt
    assert attempts.of("stuck") == 3
    assert metric(manager, "controller_runtime_reconcile_errors_total", "retries") == 3
    status = stuck_status()
    assert status is not None


def stuck_condition(admin: httpx.Client, namespace: str) -> dict[str, object] | None:
    body = admin.get(f"/apis/batch.tutorial.kgen.dev/v1/namespaces/{namespace}/cronjobs/stuck").json()
    for condition in (body.get("status") or {}).get("conditions") or []:
        if condition["type"] == "Ready":
            return dict(condition)
    return None


def check_stuck_condition(condition: dict[str, object] | None) -> None:
    assert condition is not None
    assert (condition["status"], condition["reason"]) == ("False", "RetryLimitExceeded")
    assert "gave up reconciling" in str(condition["message"]) and "after 3 failed attempts: boom" in str(condition["message"])
    assert condition["observedGeneration"] == 1


def test_label_selector_predicate_and_controller_options(
    kube_apiserver: KubeAPIServer, kube: Clientset, admin: httpx.Client, namespace: str
) -> None:
    import time

    from kgen.runtime.controller import GenerationChangedPredicate, Request, controller_managed_by
    from kgen.runtime.controller.patterns.retry import give_up_with_condition
    from kgen.runtime.controller.reconcile import ReconcileError

    ensure_crd(admin)
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    attempts = Attempts()
    seen: set[str] = set()

    def record(request: Request) -> None:
        seen.add(request.name)

    def panics_twice(request: Request) -> None:
        if attempts.count(request.name) <= 2:
            raise KeyError("a bug")

    def errs_once(request: Request) -> None:
        if attempts.count(request.name) == 1:
            raise ReconcileError("meant")

    def slow_once(request: Request) -> None:
        if attempts.count(request.name) == 1:
            time.sleep(0.5)  # the workload under test: longer than reconcile_timeout

    def always_fails(request: Request) -> None:
        attempts.count(request.name)
        raise ReconcileError("boom")

    controller_managed_by(manager).for_(ConfigMap, predicates=[LabelSelectorPredicate(SELECTOR)]).named("predicate") \
        .complete(record)
    for case, reconcile in (("panic", panics_twice), ("error", errs_once)):
        controller_managed_by(manager).for_(ConfigMap, predicates=[case_predicate(case)]).named(case).complete(reconcile)
    controller_managed_by(manager).for_(ConfigMap, predicates=[case_predicate("timeout")]).named("timeout") \
        .with_options(reconcile_timeout=0.2).complete(slow_once)
    controller_managed_by(manager).for_(CronJob, predicates=[GenerationChangedPredicate()]).named("retries") \
        .with_options(max_retries=3, on_give_up=give_up_with_condition(manager.client, CronJob, attempts=3)) \
        .complete(always_fails)

    with running(manager):
        create_cases(kube, namespace)
        stuck = cron_key("stuck", namespace)
        stuck.metadata.resource_version = None  # type: ignore[union-attr]
        manager.client.create(stuck)
        wait_for(lambda: "p-sentinel" in seen)
        assert seen == selected_by_server(kube, namespace)
        assert {"p-legacy", "p-notier", "p-none"}.isdisjoint(seen)
        wait_for(lambda: attempts.of("panic") == 3 and attempts.of("error") == 2 and attempts.of("timeout") == 2)
        wait_for(lambda: all(metric(manager, "controller_runtime_reconcile_total", case, "success") == 1
                             for case in ("panic", "error", "timeout")))
        condition = wait_for(lambda: stuck_condition(admin, namespace))
        check_stuck_condition(condition)
        check_options(manager, attempts, lambda: condition)


def test_async_label_selector_predicate_and_controller_options(
    kube_apiserver: KubeAPIServer, kube: Clientset, admin: httpx.Client, namespace: str
) -> None:
    from kgen.runtime.controller import GenerationChangedPredicate, Request, async_controller_managed_by
    from kgen.runtime.controller.patterns.retry import async_give_up_with_condition
    from kgen.runtime.controller.reconcile import ReconcileError

    ensure_crd(admin)
    attempts = Attempts()
    seen: set[str] = set()

    async def record(request: Request) -> None:
        seen.add(request.name)

    async def panics_twice(request: Request) -> None:
        if attempts.count(request.name) <= 2:
            raise KeyError("a bug")

    async def errs_once(request: Request) -> None:
        if attempts.count(request.name) == 1:
            raise ReconcileError("meant")

    never = asyncio.Event()

    async def blocks_once(request: Request) -> None:
        if attempts.count(request.name) == 1:
            try:
                await never.wait()  # never set: only the timeout's cancellation ends this attempt
            except asyncio.CancelledError:
                attempts.cancelled.add(request.name)
                raise

    async def always_fails(request: Request) -> None:
        attempts.count(request.name)
        raise ReconcileError("boom")

    async def scenario() -> None:
        manager = AsyncManager(unthrottled_config(kube_apiserver), namespace=namespace)
        async_controller_managed_by(manager).for_(ConfigMap, predicates=[LabelSelectorPredicate(SELECTOR)]) \
            .named("predicate").complete(record)
        for case, reconcile in (("panic", panics_twice), ("error", errs_once)):
            async_controller_managed_by(manager).for_(ConfigMap, predicates=[case_predicate(case)]).named(case) \
                .complete(reconcile)
        async_controller_managed_by(manager).for_(ConfigMap, predicates=[case_predicate("timeout")]).named("timeout") \
            .with_options(reconcile_timeout=0.2).complete(blocks_once)
        async_controller_managed_by(manager).for_(CronJob, predicates=[GenerationChangedPredicate()]).named("retries") \
            .with_options(max_retries=3, on_give_up=async_give_up_with_condition(manager.client, CronJob, attempts=3)) \
            .complete(always_fails)
        async with async_running(manager):
            await asyncio.to_thread(create_cases, kube, namespace)
            stuck = cron_key("stuck", namespace)
            await manager.client.create(stuck)
            await async_wait_for(lambda: asyncio.sleep(0, "p-sentinel" in seen))
            assert seen == await asyncio.to_thread(selected_by_server, kube, namespace)
            await async_wait_for(lambda: asyncio.sleep(0, all(
                metric(manager, "controller_runtime_reconcile_total", case, "success") == 1
                for case in ("panic", "error", "timeout"))))
            condition = await async_wait_for(lambda: asyncio.to_thread(stuck_condition, admin, namespace))
            check_stuck_condition(condition)
            check_options(manager, attempts, lambda: condition)
            assert attempts.cancelled == {"timeout"}  # the reconcile's await was interrupted at the deadline

    asyncio.run(scenario())


def test_a_panic_with_recover_panic_false_stops_the_manager(
    kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str
) -> None:
    from kgen.runtime.controller import Request, async_controller_managed_by, controller_managed_by

    def crash(request: Request) -> None:
        raise KeyError("a bug")

    async def async_crash(request: Request) -> None:
        raise KeyError("an async bug")

    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    controller_managed_by(manager).for_(ConfigMap, predicates=[case_predicate("crash")]).named("crash") \
        .with_options(recover_panic=False).complete(crash)
    failure: list[BaseException] = []

    def start() -> None:
        try:
            manager.start()
        except BaseException as e:  # noqa: BLE001 - the test reads what ended the manager
            failure.append(e)

    thread = threading.Thread(target=start, name="crash-manager")
    thread.start()
    try:
        assert manager.elected.wait(60)
        kube.core_v1.config_maps(namespace).create(
            ConfigMap(metadata=ObjectMeta(name="crash", namespace=namespace, labels=case_labels("crash"))))
        thread.join(60)
        assert not thread.is_alive(), "a panic with recover_panic=False did not stop the manager"
    finally:
        manager.stop()
        thread.join(60)
    assert len(failure) == 1 and isinstance(failure[0], RuntimeError) and "a bug" in str(failure[0]), failure
    assert metric(manager, "controller_runtime_reconcile_panics_total", "crash") == 1
    assert metric(manager, "controller_runtime_reconcile_errors_total", "crash") == 0  # never recovered

    async def scenario() -> None:
        amanager = AsyncManager(unthrottled_config(kube_apiserver), namespace=namespace)
        async_controller_managed_by(amanager).for_(ConfigMap, predicates=[case_predicate("crash")]).named("crash") \
            .with_options(recover_panic=False).complete(async_crash)
        # the ConfigMap exists already: the controller's first list enqueues it
        with pytest.raises(RuntimeError, match="an async bug"):
            await asyncio.wait_for(amanager.start(), 60)
        assert metric(amanager, "controller_runtime_reconcile_panics_total", "crash") == 1
        assert metric(amanager, "controller_runtime_reconcile_errors_total", "crash") == 0

    asyncio.run(scenario())


# -- against controller-runtime itself (hack/controller-runtime/helpers) --------------------------
# The same steps through controllerutil.CreateOrUpdate/CreateOrPatch and
# predicate.LabelSelectorPredicate (Go, unstructured objects, a direct client) and through kgen's
# helpers (typed objects, the manager's cached client), on objects of the same names in two
# namespaces: every answer, results and error messages, must be the same.

ORACLE = Path(__file__).resolve().parents[2] / "hack" / "controller-runtime" / "build.sh"
CONDITION = {"type": "Available", "status": "True", "reason": "Test", "message": "m"}
DEPLOY = {"apiVersion": "apps/v1", "kind": "Deployment"}
CM = {"apiVersion": "v1", "kind": "ConfigMap"}
DEPLOYMENT_SPEC = {"selector": {"matchLabels": {"app": "d"}}, "template": {
    "metadata": {"labels": {"app": "d"}}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}
WRITE_STEPS: list[dict[str, Any]] = [
    {"op": "createOrUpdate", **CM, "name": "a", "set": {"data": {"k": "v1"}}},
    {"op": "createOrUpdate", **CM, "name": "a", "set": {"data": {"k": "v1"}}},
    {"op": "createOrUpdate", **CM, "name": "a", "set": {"data": {"k": "v2"}}},
    {"op": "createOrUpdate", **CM, "name": "a", "set": {"metadata": {"labels": {"x": "y"}}}},
    {"op": "createOrUpdate", **CM, "name": "a", "set": {}},
    {"op": "createOrUpdate", **CM, "name": "a", "rename": "other"},
    {"op": "createOrUpdate", **CM, "name": "absent", "rename": "other"},
    {"op": "createOrUpdate", **DEPLOY, "name": "u", "set": {"spec": DEPLOYMENT_SPEC}},
    {"op": "createOrUpdate", **DEPLOY, "name": "u", "set": {"spec": DEPLOYMENT_SPEC}},
    {"op": "createOrUpdate", **DEPLOY, "name": "u", "set": {"spec": {"minReadySeconds": 5}}},
    {"op": "createOrPatch", **CM, "name": "p", "set": {"data": {"k": "v1"}}},
    {"op": "createOrPatch", **CM, "name": "p", "set": {"data": {"k": "v1"}}},
    {"op": "createOrPatch", **CM, "name": "p", "set": {"data": {"k": "v2", "l": "w"}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "set": {"spec": DEPLOYMENT_SPEC, "status": {"conditions": [CONDITION]}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "set": {"spec": DEPLOYMENT_SPEC}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "set": {"spec": {"minReadySeconds": 5}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "set": {"status": {"conditions": [CONDITION]}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "set": {"status": {"conditions": [CONDITION]}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d",
     "set": {"spec": {"minReadySeconds": 7}, "status": {"conditions": [{**CONDITION, "message": "n"}]}}},
    {"op": "createOrPatch", **DEPLOY, "name": "d", "rename": "e"},
]
SELECTOR_STEPS: list[dict[str, Any]] = [
    {"op": "selector", "selector": selector, "labels": labels}
    for selector in (
        {}, {"matchLabels": {"a": "b"}}, SELECTOR,
        {"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["b", "c"]}]},
        {"matchExpressions": [{"key": "a", "operator": "Exists"}, {"key": "z", "operator": "DoesNotExist"}]},
        {"matchLabels": {"a": "b"}, "matchExpressions": [{"key": "a", "operator": "In", "values": ["c"]}]},
    )
    for labels in ({}, {"a": "b"}, {"a": "c", "z": "1"}, {"tier": "web", "env": "prod"}, {"tier": "web", "env": "dev"})
] + [
    {"op": "selector", "selector": bad, "labels": {}}
    for bad in (
        {"matchExpressions": [{"key": "a", "operator": "Bogus"}]},
        {"matchExpressions": [{"key": "a", "operator": "In"}]},
        {"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]},
        {"matchExpressions": [{"key": "a", "operator": "DoesNotExist", "values": ["x", "y"]}]},
        {"matchExpressions": [{"key": "a", "operator": "NotIn", "values": []}]},
        {"matchExpressions": [{"key": "bad key", "operator": "Exists"}]},
        {"matchExpressions": [{"key": "a", "operator": "In", "values": ["ok", "bad value!", "x" * 64]}]},
        {"matchLabels": {"a": "bad value!"}},
        {"matchLabels": {"-a": "b"}},
    )
]


def controller_runtime_answers(kube_apiserver: KubeAPIServer, steps: list[dict[str, Any]]) -> list[dict[str, object]]:
    built = subprocess.run([str(ORACLE), "helpers"], capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-4000:]
    binary = built.stdout.strip().splitlines()[-1]
    done = subprocess.run(
        [binary, "-kubeconfig-path", str(kube_apiserver.kubeconfig)], input="".join(json.dumps(s) + "\n" for s in steps),
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def _merge(into: dict[str, Any], values: dict[str, Any]) -> None:
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = json.loads(json.dumps(value))


def kgen_answer(manager: Manager, step: dict[str, Any]) -> dict[str, object]:
    from kgen.runtime.apimachinery.labels import SelectorError
    from kgen.runtime.controller import CreateEvent

    if step["op"] == "selector":
        try:
            predicate = LabelSelectorPredicate(step["selector"])
        except SelectorError as e:
            return {"error": str(e)}
        return {"match": predicate.create(CreateEvent(ConfigMap(metadata=ObjectMeta(labels=step["labels"] or None))))}
    namespace, name = step["namespace"], step["name"]
    # kgen's Deployment requires a spec: the key comes with the one the creating steps set
    obj: ConfigMap | Deployment = Deployment.from_dict({"metadata": {"name": name, "namespace": namespace},
                                                        "spec": DEPLOYMENT_SPEC}) \
        if step["kind"] == "Deployment" else ConfigMap(metadata=ObjectMeta(name=name, namespace=namespace))

    def mutate(o: Any) -> Any:
        data = o.to_dict()
        _merge(data, step.get("set") or {})
        if step.get("rename"):
            data["metadata"]["name"] = step["rename"]
        return type(o).from_dict(data)

    helper = create_or_update if step["op"] == "createOrUpdate" else create_or_patch
    try:
        result = helper(manager.client, obj, mutate)
    except MutateError as e:
        return {"error": str(e)}
    stored = resource_version_of(manager.client.api_reader.get(type(obj), name, namespace))

    def cached() -> bool:
        try:
            return resource_version_of(manager.client.get(type(obj), name, namespace)) == stored
        except NotFound:
            return False

    wait_for(cached)  # the next step reads what this one wrote, as Go's direct client does
    return {"result": result.value}


def test_helpers_answer_as_controller_runtime(kube_apiserver: KubeAPIServer, kube: Clientset, namespace: str) -> None:
    go_namespace = f"{namespace}-go"
    kube.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=go_namespace)))
    go_steps = [{**s, "namespace": go_namespace} for s in WRITE_STEPS] + SELECTOR_STEPS
    expected = controller_runtime_answers(kube_apiserver, go_steps)
    manager = Manager(unthrottled_config(kube_apiserver), namespace=namespace)
    with running(manager):
        got = [kgen_answer(manager, {**s, "namespace": namespace}) for s in WRITE_STEPS] + \
            [kgen_answer(manager, s) for s in SELECTOR_STEPS]
    steps = WRITE_STEPS + SELECTOR_STEPS
    differences = [(s, e, g) for s, e, g in zip(steps, expected, got, strict=True) if e != g]
    assert not differences, "\n".join(f"{s}\n  controller-runtime: {e}\n  kgen: {g}" for s, e, g in differences)
    # the steps did what their names say (so the comparison is not of two no-ops)
    results = [a.get("result") for a in expected[:len(WRITE_STEPS)]]
    assert results.count("unchanged") >= 4 and "updatedStatusOnly" in results and "updatedStatus" in results
    kube.core_v1.namespaces().delete(go_namespace)


def _cm(rv: str | None = "5", **fields: Any) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "a", "namespace": "n", **({"resourceVersion": rv} if rv else {})}
    metadata.update(fields.pop("metadata", {}))
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, **fields}


MERGE_FROM_STEPS: list[dict[str, Any]] = [
    {"op": "mergeFrom", "original": original, "modified": modified, "optimisticLock": lock}
    for original, modified in (
        (_cm(data={"a": "1", "b": "2"}), _cm(data={"a": "1", "c": "3"})),
        (_cm(data={"a": "1"}), _cm(data={"a": "1"})),
        (_cm(metadata={"labels": {"x": "1"}, "annotations": {"y": "2"}}), _cm(metadata={"labels": {"x": "1", "z": "3"}})),
        (_cm(metadata={"finalizers": ["f/a"]}), _cm(metadata={"finalizers": ["f/a", "f/b"]})),
        (_cm(rv="5", data={"a": "1"}), _cm(rv="6", data={"a": "2"})),
        (_cm(data={"a": "1"}), _cm(data=None)),
        (_cm(rv=None, data={"a": "1"}), _cm(rv=None, data={"a": "2"})),
    )
    for lock in (False, True)
]


def test_merge_from_patches_as_controller_runtime(kube_apiserver: KubeAPIServer) -> None:
    expected = controller_runtime_answers(kube_apiserver, MERGE_FROM_STEPS)
    got: list[dict[str, object]] = []
    for step in MERGE_FROM_STEPS:
        original = ConfigMap.from_dict({k: v for k, v in step["original"].items() if v is not None})
        modified = ConfigMap.from_dict({k: v for k, v in step["modified"].items() if v is not None})
        try:
            got.append({"patch": merge_from(original, optimistic_lock=step["optimisticLock"]).data(modified)})
        except ValueError as error:
            got.append({"error": str(error)})
    for step, want, have in zip(MERGE_FROM_STEPS, expected, got, strict=True):
        if "error" in want:  # Go quotes the whole object (%q); the texts agree around it
            assert "error" in have and str(want["error"]).startswith("cannot use OptimisticLock, object "), (step, want, have)
            assert str(have["error"]).endswith("does not have any resource version we can use"), (step, want, have)
        else:
            assert want == have, (step, want, have)
    assert sum("error" in want for want in expected) == 1
