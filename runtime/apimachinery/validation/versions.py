"""The stored object of an update as the apiserver reads it, for a multi-version CRD (issue 35 item 17).

A request in version vR of a CRD whose storage version is vS: the body is pruned and defaulted
with vR's schema and validated in vR. The stored object, the old side of an update (what
ratcheting and ``oldSelf`` compare with), is read from etcd in vS: pruned and defaulted with
vS's schema, converted (strategy None: only ``apiVersion`` changes), then pruned with vR's
schema, and *not* defaulted with vR's. Measured on the apiserver (tests/integration/
test_validation_multiversion.py): a field only vR has, with a default, is in the new object and
not in the old one, so a labels-only update of an object missing a required field is refused
(``spec.a: Required value``): the update did change ``spec``.

kgen learns the storage version from the CRD: ``kgen generate --crd`` and ``kgen validate --crd``
record, on the root schema of every served version that is not the storage version, the
definition name of the storage version's kind under ``STORAGE_KEY``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kgen.runtime.apimachinery.validation.validation import _Walker

__all__ = ["STORAGE_KEY", "read_back"]

STORAGE_KEY = "x-kgen-storage-version"
"""The root-schema key naming the storage version's definition (``com.example.mv.v1.Thing``)."""


def read_back(walker: _Walker, old: dict[str, Any], root: dict[str, Any]) -> Any:
    """``old``, the stored object, as the apiserver hands it to an update's validation in the
    version of ``root``: pruned and defaulted with the storage version's schema when ``root``
    names another one, then pruned (not defaulted) with ``root``; else pruned and defaulted with ``root``."""
    storage = root.get(STORAGE_KEY)
    if not isinstance(storage, str) or walker._resolve is None:
        return walker._prune(old, root, "", [], [], resource=True)
    as_stored = walker._prune(old, walker._node(walker._resolve(storage)), "", [], [], resource=True)
    walker._defaults = False
    try:
        return walker._prune(as_stored, root, "", [], [], resource=True)
    finally:
        walker._defaults = True
