"""kubectl wait and tools/watch, typed: a wait on a typed client returns the client's model (None
for a deletion), events carry the model, on both flavours; a dynamic client's waits give dicts;
the keywords are checked."""

from __future__ import annotations

from typing import Any, assert_type

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Pod
from kgen.runtime.dynamic import DynamicClient
from kgen.runtime.kubectl import async_wait_for, wait_for, wait_for_all
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.tools.watch import AsyncRetryWatcher, RetryWatcher, WaitTimeout, until, until_with_sync


def scale_and_wait(cs: Clientset, ns: str) -> int:
    web = wait_for(cs.apps_v1.deployments(ns), "web", condition="Available", timeout=120)
    assert_type(web, Deployment)
    ready = wait_for(cs.apps_v1.deployments(ns), "web", predicate=lambda d: d.status is not None and d.status.ready_replicas == 3)
    assert_type(ready, Deployment)
    pods = wait_for_all(cs.core_v1.pods(ns), label_selector="app=web", jsonpath="{.status.phase}", value="Running")
    assert_type(pods, list[Pod])
    gone = wait_for(cs.apps_v1.deployments(ns), "web", delete=True)
    assert_type(gone, None)
    return web.status.ready_replicas or 0 if web.status else 0


def timeouts(cs: Clientset, ns: str) -> str:
    try:
        wait_for(cs.core_v1.config_maps(ns), "settings", jsonpath="{.data.mode}", value="fast", timeout=2)
    except WaitTimeout as e:
        assert_type(e.last, WatchEvent[Any] | None)
        return e.waiting_for
    return ""


def watch_tools(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    event = until_with_sync(cms, lambda e: e.type == "MODIFIED", name="settings", timeout=30)
    assert_type(event, WatchEvent[ConfigMap] | None)
    listed = cms.list()
    later = until(cms, listed.metadata.resource_version if listed.metadata else None, lambda e: e.object.data is not None)
    assert_type(later.object, ConfigMap)
    with RetryWatcher(cms, known=listed.items) as watcher:
        for e in watcher:
            assert_type(e.object, ConfigMap)
            assert_type(watcher.objects["ns/settings"], ConfigMap)


def dynamic(dyn: DynamicClient, ns: str) -> None:
    obj = wait_for(dyn.resource("apps", "v1", "deployments", ns), "web", condition="Available")
    assert_type(obj, dict[str, Any])


async def on_asyncio(acs: AsyncClientset, ns: str) -> None:
    pod = await async_wait_for(acs.core_v1.pods(ns), "one-off", jsonpath="{.status.phase}", value="Running")
    assert_type(pod, Pod)
    async for e in AsyncRetryWatcher(acs.core_v1.pods(ns)):
        assert_type(e.object, Pod)


def mistakes(cs: Clientset, ns: str) -> None:
    wait_for(cs.apps_v1.deployments(ns), "web", condition=3)  # E: call-overload
    wait_for(cs.apps_v1.deployments(ns), "web", predicate=lambda d: d.data)  # E: attr-defined
    wait_for(cs.apps_v1.deployments(ns), "web", delete=True, condition="Available")  # E: call-overload
