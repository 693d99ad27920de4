"""Seeded random strategic merge patch cases, built from a kind's merge schema: an original object
(a random subset of the kind's fields, at most a few levels deep) and a patch over the same fields
with every directive in valid and invalid forms (``$patch`` replace/delete/merge/unknown in maps
and list items, ``$retainKeys`` as a list, a non-list and missing a patched key,
``$setElementOrder/<list>`` in order, out of order and malformed, ``$deleteFromPrimitiveList``),
nulls, merge lists with duplicate and missing merge keys, sets of primitives and atomic lists.

``variant`` derives a modified (or live) object from an original, for the two-way and three-way
diffs (tests/unit/test_strategicpatch_diff_oracle.py)."""

from __future__ import annotations

import random
from typing import Any

from kgen.runtime.apimachinery.mergeschema import FieldSchema, FieldType, TypeSchema

STRINGS = ["a", "b", "c", "x", ""]
INTS = [0, 1, 2, 80, 443]
MAX_DEPTH = 4


class CaseMaker:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()  # the directives a case holds, for its category

    def scalar(self) -> Any:
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(STRINGS)
        if r < 0.85:
            return self.rng.choice(INTS)
        return self.rng.choice([True, False, 1.5])

    def value(self, t: FieldType, holder: TypeSchema, depth: int, field: FieldSchema | None = None) -> Any:
        if t.kind == "struct":
            sub = holder.resolve(t)
            return self.obj(sub, depth + 1) if sub is not None and depth < MAX_DEPTH else {}
        if t.kind == "list" and t.element is not None:
            return [self.item(t.element, holder, depth, field) for _ in range(self.rng.randint(0, 3))]
        if t.kind == "map" and t.element is not None:
            return {self.rng.choice(STRINGS[:4]): self.value(t.element, holder, depth + 1)
                    for _ in range(self.rng.randint(0, 2))}
        return self.scalar()

    def item(self, t: FieldType, holder: TypeSchema, depth: int, field: FieldSchema | None) -> Any:
        v = self.value(t, holder, depth)
        key = field.patch_merge_key if field is not None else None
        if key and isinstance(v, dict) and self.rng.random() < 0.93:
            v[key] = self.rng.choice(INTS[:3] if key in ("containerPort", "port") else STRINGS[:3])
        return v

    def fields(self, ts: TypeSchema) -> list[FieldSchema]:
        names = [n for n, f in ts.fields.items() if f.type.kind != "untyped" and n not in ("apiVersion", "kind")]
        return [ts.fields[n] for n in self.rng.sample(names, min(len(names), self.rng.randint(1, 3)))]

    def obj(self, ts: TypeSchema, depth: int) -> dict[str, Any]:
        return {f.name: self.value(f.type, ts, depth, f) for f in self.fields(ts)}

    # -- patches -----------------------------------------------------------------------------------

    def patch(self, ts: TypeSchema, original: Any, depth: int) -> dict[str, Any]:
        orig = original if isinstance(original, dict) else {}
        chosen = self.fields(ts)
        known = [ts.fields[n] for n in orig if n in ts.fields and ts.fields[n].type.kind != "untyped"]
        if known and self.rng.random() < 0.6:
            chosen.append(self.rng.choice(known))
        out: dict[str, Any] = {}
        for f in chosen:
            r = self.rng.random()
            if r < 0.08:
                out[f.name] = None
            elif f.type.kind == "struct" and depth < MAX_DEPTH:
                sub = ts.resolve(f.type)
                out[f.name] = self.patch(sub, orig.get(f.name), depth + 1) if sub is not None else {}
            elif f.type.kind == "list":
                out[f.name] = self.list_patch(f, ts, orig.get(f.name), depth)
                self.list_directives(out, f, ts, orig.get(f.name), depth)
            else:
                out[f.name] = self.value(f.type, ts, depth, f)
        self.map_directives(out, orig)
        return out

    def list_patch(self, f: FieldSchema, ts: TypeSchema, original: Any, depth: int) -> list[Any]:
        items = [self.item(f.type.element, ts, depth, f) for _ in range(self.rng.randint(0, 3))] \
            if f.type.element is not None else []
        key = f.patch_merge_key
        sub = ts.resolve(f.type)
        if key and isinstance(original, list) and sub is not None:
            for o in original:  # patch some of the original's items by their key
                if isinstance(o, dict) and key in o and self.rng.random() < 0.4:
                    items.append({key: o[key], **self.patch(sub, o, depth + 1)})
        if items and self.rng.random() < 0.3:
            d = self.rng.choice(["delete", "delete", "replace", "merge", "bogus"])
            self.used.add(f"list $patch {d}")
            target = dict(self.rng.choice(items)) if isinstance(items[0], dict) else {}
            target["$patch"] = d
            items.insert(self.rng.randrange(len(items) + 1), target)
        self.rng.shuffle(items)
        return items

    def list_directives(self, out: dict[str, Any], f: FieldSchema, ts: TypeSchema, original: Any, depth: int) -> None:
        key = f.patch_merge_key
        if self.rng.random() < 0.25:
            present = [i for i in (original or []) + out[f.name] if not key or isinstance(i, dict) and key in i] \
                if isinstance(original, list) or isinstance(out[f.name], list) else []
            order = [({key: i[key]} if key else i) for i in present if not isinstance(i, dict) or "$patch" not in i]
            self.rng.shuffle(order)
            r = self.rng.random()
            if r < 0.1:
                self.used.add("$setElementOrder malformed")
                out[f"$setElementOrder/{f.name}"] = self.rng.choice(["x", {"a": 1}])
            else:
                self.used.add("$setElementOrder")
                out[f"$setElementOrder/{f.name}"] = order[: self.rng.randint(0, len(order))] if r < 0.3 else order
        if self.rng.random() < 0.15:
            self.used.add("$deleteFromPrimitiveList")
            pool = [i for i in (original or []) if not isinstance(i, (dict, list))] if isinstance(original, list) else []
            out[f"$deleteFromPrimitiveList/{f.name}"] = self.rng.sample(pool, min(len(pool), 2)) + \
                ([self.scalar()] if self.rng.random() < 0.5 else [])
        if self.rng.random() < 0.03:
            self.used.add("directive prefix malformed")
            out[self.rng.choice(["$setElementOrder", "$deleteFromPrimitiveList"])] = []

    def map_directives(self, out: dict[str, Any], original: dict[str, Any]) -> None:
        r = self.rng.random()
        if r < 0.06:
            d = self.rng.choice(["replace", "delete", "merge", "bogus"])
            self.used.add(f"map $patch {d}")
            out["$patch"] = d
        elif r < 0.14:
            keys = [k for k, v in out.items() if v is not None and not k.startswith("$")]
            kind = self.rng.random()
            if kind < 0.6:
                self.used.add("$retainKeys")
                extra = self.rng.sample(list(original), min(len(original), 1))
                out["$retainKeys"] = sorted(set(keys + extra))
            elif kind < 0.8:
                self.used.add("$retainKeys missing a key")
                out["$retainKeys"] = keys[1:]
            else:
                self.used.add("$retainKeys not a list")
                out["$retainKeys"] = self.rng.choice(["a", {"a": 1}, 1])


    # -- variants: a modified (or current) object derived from an original, for the diffs ----------

    def variant(self, ts: TypeSchema, original: dict[str, Any], depth: int = 0) -> dict[str, Any]:
        """``original`` changed as an edit would change it: fields dropped, set to null, changed,
        added, or given another type; merge lists with items dropped, reordered, edited by merge
        key and added; lists of scalars with items dropped, reordered and added; nested alike."""
        out: dict[str, Any] = {}
        for name, v in original.items():
            f = ts.fields.get(name)
            r = self.rng.random()
            if r < 0.12:
                self.used.add("field dropped")
                continue
            if r < 0.15:
                self.used.add("field null")
                out[name] = None
            elif f is None or r < 0.5:
                out[name] = v
            elif r < 0.55:
                self.used.add("type changed")
                out[name] = self.rng.choice([self.scalar(), {}, [], {"a": "b"}])
            elif isinstance(v, dict) and f.type.kind == "struct" and (sub := ts.resolve(f.type)) is not None:
                out[name] = self.variant(sub, v, depth + 1)
            elif isinstance(v, dict) and f.type.kind == "map" and f.type.element is not None:
                out[name] = self.map_variant(f.type.element, ts, v, depth)
            elif isinstance(v, list):
                out[name] = self.list_variant(f, ts, v, depth)
            else:
                self.used.add("scalar changed")
                out[name] = self.value(f.type, ts, depth, f)
        if self.rng.random() < 0.4:
            self.used.add("field added")
            for f in self.fields(ts):
                out.setdefault(f.name, self.value(f.type, ts, depth, f))
        return out

    def map_variant(self, t: FieldType, ts: TypeSchema, original: dict[str, Any], depth: int) -> dict[str, Any]:
        out = {k: v for k, v in original.items() if self.rng.random() > 0.25}
        for _ in range(self.rng.randint(0, 2)):
            self.used.add("map entry changed")
            out[self.rng.choice(STRINGS[:4])] = self.value(t, ts, depth + 1)
        return out

    def list_variant(self, f: FieldSchema, ts: TypeSchema, original: list[Any], depth: int) -> list[Any]:
        key = f.patch_merge_key
        sub = ts.resolve(f.type)
        items = [i for i in original if self.rng.random() > 0.25]
        if len(items) < len(original):
            self.used.add(f"{'merge' if f.patch_strategy and 'merge' in f.patch_strategy else 'atomic'} list item dropped")
        if key and sub is not None:
            for n, item in enumerate(items):
                if isinstance(item, dict) and self.rng.random() < 0.4:
                    self.used.add("merge list item edited")
                    edited = self.variant(sub, item, depth + 1)
                    if key in item and self.rng.random() < 0.9:
                        edited[key] = item[key]
                    items[n] = edited
        if f.type.element is not None and self.rng.random() < 0.4:
            self.used.add("list item added")
            for _ in range(self.rng.randint(1, 2)):
                items.insert(self.rng.randint(0, len(items)), self.item(f.type.element, ts, depth, f))
        if len(items) > 1 and self.rng.random() < 0.3:
            self.used.add("list reordered")
            self.rng.shuffle(items)
        return items


    def string_set(self, doc: dict[str, Any], base: list[Any] | None = None) -> None:
        """Puts a ``metadata.finalizers`` (a merge list of strings: a set) in ``doc``, fresh or
        an edit of ``base``, since random scalars of mixed types rarely make a valid one."""
        pool = ["a", "b", "c", "x", "y", "a/b", "10", "9"]
        items = [i for i in (base or []) if self.rng.random() > 0.3] + \
            self.rng.sample(pool, self.rng.randint(0, 3 if base else 4))
        if base is not None and self.rng.random() < 0.3:
            self.rng.shuffle(items)
        self.used.add("finalizers")
        meta = doc.get("metadata")
        if not isinstance(meta, dict):
            meta = doc["metadata"] = {}
        meta["finalizers"] = items


KINDS = [("v1", "Pod"), ("apps/v1", "Deployment"), ("v1", "Service"), ("v1", "ConfigMap")]
