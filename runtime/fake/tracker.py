"""``ObjectTracker``: the fake apiserver as tests hold it, to seed, share and serve.

client-go's fake clientset is built on an ``ObjectTracker`` too (``k8s.io/client-go/testing``),
seeded with objects and shared by the clientset's reactors. Here it is the handle on the
``Store`` that tests seed (``add``), share between a sync and an async clientset, age
(``compact``) and serve over httpx (``transport``/``async_transport``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import httpx

from kgen.runtime.fake.actions import Action, Reaction, Reactions
from kgen.runtime.fake.store import Obj, Store, copy, now
from kgen.runtime.fake.transport import AsyncTransport, Transport
from kgen.runtime.fake.handlers.writes import tracks_generation
from kgen.runtime.fake.schema import versions
from kgen.runtime.gentype.resource import ResourceInfo

__all__ = ["ObjectTracker"]


class ObjectTracker:
    """Objects by resource, a global resourceVersion and the event history watches replay.

    ``status_subresources`` lists the resources with a ``status`` subresource; None (the
    default) means all of them, which is right for the built-in resources that have a status. A
    resource without one serves no ``/status`` and lets main-resource writes set the status (a
    CRD without ``subresources.status``). ``history`` events are kept; a watch or a paged list
    from before the oldest one gets 410 Expired (``compact()`` drops them all, to test that
    path). ``bookmark_interval`` is how often watches that allow bookmarks get one (the
    apiserver: about a minute)."""

    def __init__(
        self, resources: Iterable[ResourceInfo] = (), *, status_subresources: Iterable[ResourceInfo] | None = None,
        history: int = 10_000, bookmark_interval: float = 1.0,
    ) -> None:
        self._store = Store(history, bookmark_interval)
        self._reactions = Reactions()
        with_status = None if status_subresources is None else set(status_subresources)
        for info in resources:
            self.register(info, status=with_status is None or info in with_status)

    @property
    def bookmark_interval(self) -> float:
        """Seconds between the bookmarks of a watch that asked for them."""
        return self._store.bookmark_interval

    @bookmark_interval.setter
    def bookmark_interval(self, seconds: float) -> None:
        self._store.bookmark_interval = seconds

    def register(self, info: ResourceInfo, *, status: bool = True) -> None:
        """Serves one more resource (a CRD's, say); ``status``: whether it has a status subresource.
        The versions of a custom resource registered here share one storage when their generated
        package names the storage version among them (``kgen.runtime.fake.schema.versions``)."""
        with self._store.lock:
            self._store.register(info, status=status)
            versions.link(self._store, info)

    @property
    def resource_version(self) -> str:
        """The store's current resourceVersion."""
        with self._store.lock:
            return str(self._store.rv)

    def add(self, obj: Mapping[str, Any]) -> Obj:
        """Stores ``obj`` as it is (status included), creating or replacing it: test fixtures.
        What the server sets on a create and the object lacks is filled in: uid,
        creationTimestamp, generation (1, where the kind has one).

        The resource comes from ``apiVersion`` and ``kind``; a namespaced object without a
        namespace goes to ``default``; a multi-version custom resource's object is stored in its
        storage version (``kgen.runtime.fake.schema.versions.as_stored``). Returns the stored
        object, in the version it was added in."""
        store = self._store
        info = store.by_kind.get((str(obj.get("apiVersion") or ""), str(obj.get("kind") or "")))
        if info is None:
            raise ValueError(f"no resource registered for apiVersion={obj.get('apiVersion')!r} kind={obj.get('kind')!r}")
        new: Obj = copy(obj)
        meta = new.setdefault("metadata", {})
        if info.namespaced:
            meta["namespace"] = meta.get("namespace") or "default"
        else:
            meta.pop("namespace", None)
        if not meta.get("name") and not meta.get("generateName"):
            raise ValueError("the object needs metadata.name or metadata.generateName")
        meta.setdefault("uid", str(uuid.uuid4()))
        meta.setdefault("creationTimestamp", now())
        if tracks_generation(info, new):
            meta.setdefault("generation", 1)  # as a create would have set it
        with store.lock:
            if not meta.get("name"):
                meta["name"] = store.generate_name(info, meta.get("namespace") or "", str(meta["generateName"]))
            key = (meta.get("namespace") or "", meta["name"])
            new = versions.as_stored(store, info, new)  # a multi-version resource's: in its storage version
            store.commit(info, key, new, store.objects[info].get(key))
            stored: Obj = copy(versions.as_read(store, info, new))
            return stored

    def compact(self) -> None:
        """Forgets the event history: older watches and continue tokens now get 410 Expired."""
        self._store.compact()

    def actions(self) -> list[Action]:
        """The requests served so far on known resources, in order (client-go's ``Fake.Actions()``;
        ``kgen.runtime.fake.actions``)."""
        return self._reactions.actions()

    def clear_actions(self) -> None:
        """Forgets the recorded actions (client-go's ``ClearActions``)."""
        self._reactions.clear()

    def prepend_reactor(self, verb: str, resource: str, reaction: Reaction) -> None:
        """Asks ``reaction`` first about the actions of ``verb`` on ``resource`` (``"*"`` for any;
        ``"pods/status"`` for a subresource): client-go's ``PrependReactor``. It returns None to
        pass, an object to answer with, or raises the failure to answer
        (``raise action.conflict()``); see ``kgen.runtime.fake.actions``."""
        self._reactions.prepend(verb, resource, reaction)

    def transport(self) -> httpx.BaseTransport:
        """An httpx transport answering from this tracker (give it to a RESTClient)."""
        return Transport(self._store, self._reactions)

    def async_transport(self) -> httpx.AsyncBaseTransport:
        """An httpx async transport answering from this tracker (give it to an AsyncRESTClient)."""
        return AsyncTransport(self._store, self._reactions)
