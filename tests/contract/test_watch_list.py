"""Watch-list (sendInitialEvents): the current objects as ADDED, the bookmark that ends them,
then the changes, on one stream; and the list options the apiserver refuses for it."""

from __future__ import annotations

from contextlib import closing

import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery.errors import Invalid
from kgen.runtime.rest.watch import Bookmark, WatchEvent

from .builders import config_map

def test_a_watch_list_streams_the_objects_the_end_bookmark_then_later_changes(cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    versions = [int(str(cms.create(config_map(name)).metadata.resource_version)) for name in "cab"]  # type: ignore[union-attr]
    stream = cms.watch(send_initial_events=True, resource_version_match="NotOlderThan", bookmarks=True,
                       timeout_seconds=20)
    with closing(stream):
        initial = []
        for event in stream:
            initial.append(event)
            if isinstance(event, Bookmark):
                break
        cms.create(config_map("later"))
        later = next(e for e in stream if isinstance(e, WatchEvent))
    assert sorted((e.type, e.object.metadata.name) for e in initial[:-1] if isinstance(e, WatchEvent)) == [  # type: ignore[union-attr]
        ("ADDED", "a"), ("ADDED", "b"), ("ADDED", "c")]
    end = initial[-1]
    assert isinstance(end, Bookmark) and end.initial_events_end
    assert int(end.resource_version) >= max(versions)
    assert (later.type, later.object.metadata and later.object.metadata.name) == ("ADDED", "later")


@pytest.mark.parametrize("options", [
    {"send_initial_events": True},
    {"send_initial_events": True, "resource_version_match": "Exact", "resource_version": "1"},
    {"resource_version_match": "NotOlderThan"},
], ids=["no resourceVersionMatch", "Exact", "match without sendInitialEvents"])
def test_watch_list_options_the_apiserver_refuses(cs: Clientset, ns: str, options: dict[str, object]) -> None:
    with pytest.raises(Invalid) as refused:
        list(cs.core_v1.config_maps(ns).watch(timeout_seconds=1, **options))  # type: ignore[arg-type]
    assert refused.value.code == 422 and "resourceVersionMatch" in refused.value.message
