"""After the history is dropped (an etcd compaction), old resourceVersions answer 410 Expired."""

from __future__ import annotations

import pytest

from kgen.runtime.apimachinery.errors import Expired

from .builders import config_map
from .conftest import CompactingBackend


def test_watch_from_a_compacted_resource_version_is_expired(compacting: CompactingBackend, compacting_ns: str) -> None:
    cms = compacting.cs.core_v1.config_maps(compacting_ns)
    old = cms.create(config_map("a"))
    # Two writes: compaction keeps the newest revision, so a watch could start right at it.
    cms.create(config_map("b"))
    cms.create(config_map("c"))
    compacting.compact()
    assert old.metadata
    received = []
    with pytest.raises(Expired) as caught:
        for event in cms.watch(resource_version=old.metadata.resource_version, timeout_seconds=10):
            received.append(event)
    assert received == []
    assert (caught.value.code, caught.value.reason) == (410, "Expired") and caught.value.message


def test_continue_token_from_a_compacted_snapshot_offers_an_inconsistent_continuation(
    compacting: CompactingBackend, compacting_ns: str
) -> None:
    cms = compacting.cs.core_v1.config_maps(compacting_ns)
    for name in "abc":
        cms.create(config_map(name))
    first = cms.list(limit=1)
    cms.create(config_map("d"))
    compacting.compact()
    assert first.metadata
    with pytest.raises(Expired) as caught:
        cms.list(limit=1, continue_=first.metadata.continue_)
    token = caught.value.continue_token
    assert token
    rest = cms.list(continue_=token)
    assert [item.metadata.name for item in rest.items if item.metadata] == ["b", "c", "d"]
    assert [item.metadata.name for item in cms.iter(page_size=1, allow_inconsistent=True)] == ["a", "b", "c", "d"]
