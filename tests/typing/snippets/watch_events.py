"""Typed watch events: the object is the model, the type a Literal; bookmarks only when asked for,
as their own type; a watch resumed from a list's resourceVersion as it comes (``str | None``)."""

from __future__ import annotations

from typing import Literal, assert_type

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.rest.watch import Bookmark


def watch(cs: Clientset) -> None:
    cms = cs.core_v1.config_maps("default")
    lst = cms.list()
    for cm in lst.items:
        assert_type(cm, ConfigMap)
    if lst.metadata is not None:
        for ev in cms.watch(resource_version=lst.metadata.resource_version, timeout_seconds=60):
            assert_type(ev.object, ConfigMap)
            assert_type(ev.type, Literal["ADDED", "MODIFIED", "DELETED"])
            if ev.type == "DELETED":
                print("gone:", ev.object.metadata.name if ev.object.metadata else None)


def watch_list(cs: Clientset) -> str:
    """A watch-list (the initial state streamed): it needs bookmarks, so it gets them, typed."""
    cms = cs.core_v1.config_maps("default")
    stream = cms.watch(send_initial_events=True, resource_version_match="NotOlderThan", bookmarks=True)
    for ev in stream:
        if ev.type == "BOOKMARK":
            assert_type(ev, Bookmark)
            if ev.initial_events_end:
                return ev.resource_version
            continue
        assert_type(ev.object, ConfigMap)
    return ""


def get_from_list(cs: Clientset) -> None:
    cms = cs.core_v1.config_maps("default")
    lst = cms.list(resource_version="0")
    if lst.metadata is not None:
        cms.list(resource_version=lst.metadata.resource_version)
        cms.get("settings", resource_version=lst.metadata.resource_version)


async def watch_async(acs: AsyncClientset) -> None:
    cms = acs.core_v1.config_maps("default")
    lst = await cms.list()
    if lst.metadata is not None:
        async for ev in cms.watch(resource_version=lst.metadata.resource_version):
            assert_type(ev.object, ConfigMap)
            assert_type(ev.type, Literal["ADDED", "MODIFIED", "DELETED"])
    async for e in cms.watch(bookmarks=True):
        if isinstance(e, Bookmark):
            print(e.resource_version)
        else:
            assert_type(e.object, ConfigMap)
