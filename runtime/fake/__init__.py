"""An in-memory apiserver for users' unit tests: the generated fake clientsets stand on it.

client-go's fake clientset short-circuits the HTTP layer with reactors; this one does not. The
generated ``FakeClientset`` keeps the real ``RESTClient`` and hands it ``tracker.transport()``
(or ``async_transport()``), so every request is built, sent, answered with a real status code and
a ``Status`` body, and decoded exactly as against a cluster. What the tracker answers follows the
apiserver (checked by ``tests/contract``, which runs one suite against both):

- every verb on every registered resource, namespaced or cluster-scoped, CRDs alike; ``status``
  and ``scale`` subresources; other paths are 404;
- ``resourceVersion`` is one global counter, bumped by every write and never by a no-op write;
  a stale ``metadata.resourceVersion`` is a 409 Conflict, as are failed delete preconditions;
  one that is no unsigned integer (``"abc"``) a plain 500; an apply's conflict with another
  manager is reported before its stale version;
- a custom resource's update without a ``resourceVersion`` (or with ``"0"``) is 422, as its
  strategy allows no unconditional update; a built-in's is unconditional;
- ``uid``, ``creationTimestamp``, ``generateName`` (five random characters from the apiserver's
  alphabet), ``generation`` (bumped when anything but metadata and status changes, a
  Deployment's annotations and a custom resource's status without a status subresource
  included, and when a deletion starts);
- built-in objects stored as their Go types make them: unknown fields pruned (a ConfigMap's
  ``status``), empty ``omitempty`` maps and lists dropped (``labels: {}``), ``status: {}``;
- custom resources pruned and defaulted by their version's structural schema;
- a multi-version custom resource's versions served from one storage, as with conversion
  ``None``: stored in the storage version, read, listed and watched in the request's
  (``kgen.runtime.fake.schema.versions``);
- built-in objects defaulted as the apiserver's decoding defaults them, on create, update, patch,
  apply and ``/status`` writes (``SetObjectDefaults_*``: a Deployment's ``strategy``,
  ``revisionHistoryLimit`` and ``progressDeadlineSeconds``, a container's ``imagePullPolicy``, a
  pod's ``dnsPolicy``, a Service's ``targetPort``, ...), from data extracted from Kubernetes' Go
  code plus hand-written conditional rules (``kgen.runtime.fake.schema.defaulting``);
- status isolation: writes to the main resource keep the stored status; a custom resource's
  ``/status`` writes change only the status, a built-in's all but what its status strategy
  resets (the spec, a Deployment's labels, a Pod's owner references);
- zero values as Go writes them: ``null`` for a zero ``metav1.Time`` (a condition's
  ``lastTransitionTime``, an Event's ``firstTimestamp``), a custom resource's ``1.0`` as ``1``;
- label selectors, and field selectors on any dotted path (the apiserver allows only a few);
- lists in etcd's key order with ``limit``/``continue`` paging, served from a consistent
  snapshot like etcd's, a token whenever objects remain (matching the selectors or not);
- watches replaying history after a resourceVersion (``""``/``"0"``: the current objects as
  ADDED first), BOOKMARKs, ``timeoutSeconds``, and 410 Expired once history was dropped;
- JSON patch, JSON merge patch, strategic merge patch (``kgen.runtime.apimachinery.patch``) and server-side
  apply with field ownership and conflicts (``kgen.runtime.apimachinery.util.managedfields.managedfields``);
- ``fieldValidation``: unknown fields of built-in kinds as ``Warning`` headers (Warn, the default)
  or the apiserver's refusals (Strict), ``kgen.runtime.fake.schema.field_validation``;
- deletion with preconditions, finalizers (the object stays, with ``deletionTimestamp``, until
  an update removes the last one) and the ``foregroundDeletion``/``orphan`` finalizers;
- a custom resource stored as server-side apply merged it: an apply leaving an empty or null
  ``labels`` (say) is always a write, and so is the next write storing none (``writes.stored_extras``);
- ``dryRun=All`` everywhere;
- every call recorded as client-go's ``Fake.Actions()`` records it, and reactors answering calls
  in place of the store (``PrependReactor``): ``kgen.runtime.fake.actions``;
- validation of every create, update, patch and apply (not scale) by
  ``kgen.runtime.apimachinery.validation``, refused with the apiserver's 422 (or 400): a custom
  resource's whole schema and CEL rules, a built-in kind's OpenAPI types, formats and enums;
  updates ratcheted as the apiserver's (``kgen.runtime.fake.schema.validation``).

What it does not do: Go validation of built-in kinds and the warnings it gives (a pod
template's duplicate env names, say), CEL transition rules (``oldSelf``), admission (a pod's
``priority`` and default ``tolerations``), the registry strategies' side effects beyond defaulting
(a Service's cluster IP, a new pod's ``phase`` and ``qosClass``, a Job's generated selector, a
DaemonSet's template generation), conversion webhooks (a multi-version resource converts as
with strategy ``None``), garbage collection, namespace lifecycle (objects may live in namespaces
that do not exist), graceful pod deletion, and the 422 a JSON or merge patch gets under
``fieldValidation=Strict`` (it quotes the patched object in Go's field order).

The tracker is thread-safe: informers may watch it from their own threads.

The modules, in request order: ``tracker`` (the public ``ObjectTracker``), ``transport`` (httpx
transports, routing), ``actions`` (the record and the reactors), ``verbs``, ``patch``, ``apply``, ``scale`` and ``watch`` (the answers),
``writes`` (what every write shares), ``validation`` (the 422s), ``schema`` (pruning,
omitempty and defaulting; ``versions``: one storage for a resource's versions),
``field_validation`` (unknown fields: warnings, strict refusals), ``selectors``,
``errors`` (``Status`` bodies), ``request`` and ``store`` (objects, resourceVersions, history). Where the fake sits among the
runtime's layers: docs/architecture.md.
"""

from kgen.runtime.fake.actions import Action, Reaction, RecordedActions
from kgen.runtime.fake.tracker import ObjectTracker

__all__ = ["Action", "ObjectTracker", "Reaction", "RecordedActions"]
