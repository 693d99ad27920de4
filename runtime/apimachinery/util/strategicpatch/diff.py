"""Creating strategic merge patches: ``create_two_way_merge_patch`` and
``create_three_way_merge_patch``, as k8s.io/apimachinery's strategicpatch does (patch.go:
CreateTwoWayMergePatch, CreateThreeWayMergePatch; mergepatch's PreconditionFuncs and errors).

A two-way patch turns ``original`` into ``modified`` (applied with ``strategic_merge_patch`` it gives
``modified`` back). A three-way patch is what ``kubectl apply`` sends: the changes from ``current``
(the live object) to ``modified`` (the new configuration) without deletions, plus the deletions from
``original`` (the last applied configuration) to ``modified``, so fields others set on the live
object survive. With ``overwrite=False``, a patch that changes a field the live object changed
since ``original`` differently is refused (``MergingConflict``), as apimachinery refuses it.

Documents are JSON text (``bytes``/``str``, decoded as apimachinery decodes them: integers stay
integers), dicts, or typed models of a generated package; the merge schema is found from the
documents' ``apiVersion``/``kind`` (a model's own when it has none, in the model's own generated
package) unless given; a custom resource is refused, as the apiserver refuses a strategic merge
patch of one. Inputs are never changed. The diff itself is ``strategicpatch_diffmaps``; the three-way merge and conflict check are
``strategicpatch_threeway``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import GoPanic, go_v
from kgen.runtime.apimachinery.golang.goyaml import go_yaml
from kgen.runtime.apimachinery.mergeschema import TypeSchema, merge_schema, schema_for
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.util.strategicpatch.patch import _root
from kgen.runtime.apimachinery.util.strategicpatch.patch import strategic_merge_patch as _patch_with_schema
from kgen.runtime.apimachinery.util.strategicpatch.diffmaps import DiffOptions, diff_maps
from kgen.runtime.apimachinery.util.strategicpatch.order import SMPError, SMPPanic
from kgen.runtime.apimachinery.util.strategicpatch.threeway import maps_have_conflicts, merge_patches

__all__ = [
    "BadJSONDocument",
    "MergingConflict",
    "PreconditionFailed",
    "PreconditionFunc",
    "create_three_way_merge_patch",
    "create_two_way_merge_patch",
    "require_key_unchanged",
    "require_metadata_key_unchanged",
    "strategic_merge_patch",
]

PreconditionFunc = Callable[[Any], bool]
"""mergepatch.PreconditionFunc: given the computed patch, whether it is acceptable."""


class BadJSONDocument(SMPError):
    """A document is not a JSON object (mergepatch.ErrBadJSONDoc)."""

    def __init__(self) -> None:
        super().__init__("invalid JSON document")


class PreconditionFailed(SMPError):
    """A ``PreconditionFunc`` refused the patch (mergepatch.ErrPreconditionFailed)."""

    def __init__(self, patch: dict[str, Any]) -> None:
        super().__init__(f"precondition failed for: {go_v(patch)}")
        self.patch = patch


class MergingConflict(SMPError):
    """The three-way patch changes a field the live object changed differently
    (mergepatch.ErrConflict, returned when ``overwrite`` is false)."""


def require_key_unchanged(key: str) -> PreconditionFunc:
    """mergepatch.RequireKeyUnchanged: the patch must not hold top-level ``key``."""
    def unchanged(patch: Any) -> bool:
        return not isinstance(patch, dict) or key not in patch
    return unchanged


def require_metadata_key_unchanged(key: str) -> PreconditionFunc:
    """mergepatch.RequireMetadataKeyUnchanged: the patch must not hold ``metadata.<key>``."""
    def unchanged(patch: Any) -> bool:
        if not isinstance(patch, dict) or not isinstance(patch.get("metadata"), dict):
            return True
        return key not in patch["metadata"]
    return unchanged


def _document(doc: Any) -> dict[str, Any]:
    """A fresh map of ``doc`` as Go's json.Unmarshal into map[string]interface{} has it."""
    if doc is None:
        return {}
    if isinstance(doc, Model):
        return doc.to_dict()
    if isinstance(doc, (bytes, str)):
        if not doc:
            return {}
        try:
            decoded = json.loads(doc, parse_constant=_no_constant, parse_int=_go_int)
        except ValueError:
            raise BadJSONDocument() from None
        if decoded is None:
            return {}
        if not isinstance(decoded, dict):
            raise BadJSONDocument()
        return decoded
    if isinstance(doc, dict):
        return copy.deepcopy(doc)
    raise TypeError(f"expected a JSON object (bytes, str, dict) or a model, got {type(doc).__name__}")


def _go_int(text: str) -> int | float:
    """An integer as apimachinery's decoder keeps it: int64, or float64 past int64's range."""
    value = int(text)
    return value if -(1 << 63) <= value < (1 << 63) else float(value)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # Python reads NaN and Infinity; Go's decoder does not


def _package_of(*docs: Any) -> str:
    for doc in docs:
        module = type(doc).__module__
        if ".models." in module:
            return module.split(".models.", 1)[0]
    return "kgen.kubernetes"


def _schema(schema: TypeSchema | None, raw: tuple[Any, ...], maps: tuple[dict[str, Any], ...]) -> TypeSchema:
    if schema is not None:
        return schema
    package = _package_of(*raw)
    for doc in raw:  # a typed model knows its kind even when its apiVersion and kind are unset
        if isinstance(doc, Model) and doc.API_VERSION and doc.KIND:
            maps = ({"apiVersion": doc.API_VERSION, "kind": doc.KIND}, *maps)
            break
    for m in maps:
        api_version, kind = m.get("apiVersion"), m.get("kind")
        if isinstance(api_version, str) and isinstance(kind, str):
            if merge_schema(package).is_crd(api_version):
                raise ValueError(f"apiVersion {api_version!r} kind {kind!r} is a custom resource: the apiserver refuses "
                                 "a strategic merge patch of it (415), so send a JSON merge patch (or pass schema= to "
                                 "diff it anyway)")
            found = schema_for(api_version, kind, package)
            if found is None:
                raise ValueError(f"no merge schema for apiVersion {api_version!r} kind {kind!r} in package {package}: "
                                 "pass schema= (a custom resource takes no strategic merge patch)")
            return found
    raise ValueError("no merge schema: the documents name no apiVersion and kind; pass schema= "
                     "(kgen.runtime.apimachinery.mergeschema.schema_for(api_version, kind))")


def _check(patch: dict[str, Any], preconditions: tuple[PreconditionFunc, ...]) -> None:
    for fn in preconditions:
        if not fn(patch):
            raise PreconditionFailed(patch)


def strategic_merge_patch(original: Any, patch: Any, *, schema: TypeSchema | None = None) -> dict[str, Any]:
    """``original`` with the strategic merge ``patch`` applied (apimachinery's StrategicMergePatch,
    with the apiserver's options), the merge schema found from ``original``'s or the patch's
    apiVersion and kind (or a typed model's class) unless ``schema`` is given. Neither argument is
    changed. Errors are ``SMPError`` subclasses with apimachinery's text and the status the
    apiserver would answer (``.status``)."""
    maps = (_document(original), _document(patch))
    return _patch_with_schema(maps[0], maps[1], _schema(schema, (original, patch), maps))


def create_two_way_merge_patch(original: Any, modified: Any, *preconditions: PreconditionFunc,
                               schema: TypeSchema | None = None) -> dict[str, Any]:
    """The strategic merge patch from ``original`` to ``modified`` (CreateTwoWayMergePatch):
    applied to ``original`` it gives ``modified``. ``preconditions`` (``require_key_unchanged``,
    ``require_metadata_key_unchanged`` or any ``PreconditionFunc``) may refuse it:
    ``PreconditionFailed``. Other errors are ``SMPError`` with apimachinery's text."""
    maps = (_document(original), _document(modified))
    ts = _schema(schema, (original, modified), (maps[1], maps[0]))
    token = _root.set(ts)
    try:
        patch = diff_maps(maps[0], maps[1], ts, DiffOptions(set_element_order=True))
    except GoPanic as e:
        raise SMPPanic(str(e)) from None
    finally:
        _root.reset(token)
    _check(patch, preconditions)
    return patch


def create_three_way_merge_patch(original: Any, modified: Any, current: Any, *preconditions: PreconditionFunc,
                                 schema: TypeSchema | None = None, overwrite: bool = True) -> dict[str, Any]:
    """The patch that takes ``current`` to ``modified`` while keeping what others changed since
    ``original`` (CreateThreeWayMergePatch): the changes and additions from ``current`` to
    ``modified``, merged with the deletions from ``original`` to ``modified``. ``preconditions``
    may refuse it (``PreconditionFailed``). With ``overwrite=False``, a patch that sets a field
    which changed differently from ``original`` to ``current`` is refused with ``MergingConflict``
    (apimachinery's text, both patches as YAML); kubectl apply passes ``overwrite=True``."""
    maps = (_document(original), _document(modified), _document(current))
    ts = _schema(schema, (original, modified, current), (maps[1], maps[2], maps[0]))
    original_map, modified_map, current_map = maps
    token = _root.set(ts)
    try:
        delta = diff_maps(current_map, modified_map, ts, DiffOptions(set_element_order=True, ignore_deletions=True))
        deletions = diff_maps(original_map, modified_map, ts,
                              DiffOptions(set_element_order=True, ignore_changes_and_additions=True))
        patch = merge_patches(deletions, delta, ts)
        _check(patch, preconditions)
        if not overwrite:
            changed = diff_maps(original_map, current_map, ts, DiffOptions())
            if maps_have_conflicts(patch, changed, ts):
                raise MergingConflict(f"patch:\n{go_yaml(patch)}\nconflicts with changes made from original to "
                                      f"current:\n{go_yaml(changed)}\n")
    except GoPanic as e:
        raise SMPPanic(str(e)) from None
    finally:
        _root.reset(token)
    return patch
