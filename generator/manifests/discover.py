"""What the user's modules declare: the modules named on the command line, imported, and in
them the classes marked ``@resource`` (one CRD version each) and the controllers marked
``@rbac`` (their permissions), as controller-gen finds its markers in the packages given by
``paths=``.

The modules are imported as ``python -m`` would import them, with the current folder first on
``sys.path``, so ``kgen manifests --module myproject.api.v1`` works from the project's root.
A module that cannot be imported is a bad input (exit 2), said in one line: which module and
the exception's message, never the user's traceback mixed with kgen's.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from kgen.runtime.apimachinery.markers import RBAC_ATTRIBUTE, RESOURCE_ATTRIBUTE, RBACRule
from kgen.runtime.webhook.markers import markers_of

from .crd import Root
from .crd_schema import is_root
from .errors import ManifestError
from .webhooks import Placed


@dataclass
class Declared:
    roots: list[Root] = field(default_factory=list)
    rules: list[tuple[str, RBACRule]] = field(default_factory=list)  # (where, rule)
    webhooks: list[Placed] = field(default_factory=list)  # @webhook and @conversion_webhook markers


def find(modules: Sequence[str]) -> Declared:
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    declared = Declared()
    seen: set[int] = set()
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            raise ManifestError(f"--module {name}", f"cannot import it: {e}", "an importable module, e.g. myproject.api.v1") from None
        except Exception as e:  # the user's module failed while importing: say so, in one line
            raise ManifestError(f"--module {name}", f"importing it raised {type(e).__name__}: {e}") from None
        found = 0
        for obj in list(vars(module).values()):
            rules = _own_rules(obj)
            hooks = markers_of(obj)
            if not is_root(obj) and not rules and not hooks:
                continue
            found += 1
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if is_root(obj):
                declared.roots.append(Root(obj, getattr(obj, RESOURCE_ATTRIBUTE)))
            where = f"{getattr(obj, '__module__', name)}.{getattr(obj, '__qualname__', '?')}"
            declared.rules.extend((where, rule) for rule in rules)
            declared.webhooks.extend(Placed(where, hook) for hook in hooks)
        if not found:
            raise ManifestError(f"--module {name}", "has no class marked @resource and nothing marked @rbac or @webhook",
                                "model classes decorated with kgen.runtime.apimachinery.markers.resource(...), "
                                "controllers with @rbac(...), or webhooks with kgen.runtime.webhook.markers.webhook(...)")
    return declared


def _own_rules(obj: object) -> tuple[RBACRule, ...]:
    try:
        rules = vars(obj).get(RBAC_ATTRIBUTE, ())
    except TypeError:  # no __dict__: not a class or a function
        return ()
    return tuple(r for r in rules if isinstance(r, RBACRule)) if isinstance(rules, tuple) else ()
