"""IR models + discovery -> IR typed clients: which resources get which verbs and names.

Verbs are exactly what discovery (or ``x-kubernetes-action``) advertises: ``patch`` brings
``apply``; a ``status`` subresource with update/patch brings ``update_status``/``apply_status``;
``scale``, ``log`` and ``eviction`` subresources bring their own methods. Accessor names follow
client-go in snake_case: ``config_maps``, ``network_policies``, ``endpoints``.
"""

from __future__ import annotations

from . import naming
from .ir import ClientModule, Module, Package, Resource, TypedResource

# client-go's SupportedVerbs order
_VERB_MIXINS = [
    ("create", "Create"), ("update", "Update"), ("delete", "Delete"), ("deletecollection", "DeleteCollection"),
    ("get", "Get"), ("list", "List"), ("watch", "Watch"), ("patch", "Patch"), ("patch", "Apply"),
]


def accessor_name(kind: str, plural: str) -> str:
    """``ConfigMap``/``configmaps`` -> ``config_maps``; ``NetworkPolicy`` -> ``network_policies``."""
    snake = naming.snake_case(kind)
    lower = kind.lower()
    if plural.startswith(lower):
        name = snake + plural[len(lower):]
    elif lower.endswith("y") and plural == lower[:-1] + "ies":
        name = snake[:-1] + "ies"
    else:
        name = naming.snake_case(plural)
    return naming.escape(name, {"close", "rest"})


def _typed(module: Module, resource: Resource, models: dict[str, str], taken: set[str]) -> TypedResource | None:
    model = models.get(resource.kind)
    if model is None:
        return None  # the schema for this kind is not in this group-version's document
    list_model = models.get(resource.kind + "List", model)
    verbs = set(resource.verbs)
    mixins = [mixin for verb, mixin in _VERB_MIXINS if verb in verbs]
    status = set(resource.subresources.get("status", []))
    if "update" in status:
        mixins.insert(mixins.index("Update") + 1 if "Update" in mixins else 0, "UpdateStatus")
    if "patch" in status:
        mixins.append("ApplyStatus")
    accessor = accessor_name(resource.kind, resource.plural)
    base, n = accessor, 1
    while accessor in taken:
        n += 1
        accessor = f"{base}_{n}"
    taken.add(accessor)
    return TypedResource(
        plural=resource.plural,
        kind=resource.kind,
        namespaced=resource.namespaced,
        accessor=accessor,
        client_class=naming.class_name(accessor) + "Client",
        model=model,
        list_model=list_model,
        mixins=mixins,
        scale="scale" in resource.subresources and "get" in resource.subresources["scale"],
        log="log" in resource.subresources and resource.kind == "Pod",
        exec={"exec", "attach"} <= set(resource.subresources) and resource.kind == "Pod",
        port_forward="portforward" in resource.subresources and resource.kind == "Pod",
        eviction="eviction" in resource.subresources and resource.kind == "Pod",
        token="token" in resource.subresources and resource.kind == "ServiceAccount",
        informer={"list", "watch", "get"} <= verbs,
        short_names=list(resource.short_names),
    )


def client_modules(package: Package) -> list[ClientModule]:
    out = []
    for module in package.modules:
        if module.group_module == "meta" or not module.resources:
            continue
        models = {m.kind: m.name for m in module.models if m.kind and m.api_version == _api_version(module)}
        taken: set[str] = set()
        resources = [t for r in module.resources if (t := _typed(module, r, models, taken)) is not None]
        if not resources:
            continue
        accessor = f"{module.group_module}_{module.version_module}"
        out.append(
            ClientModule(
                module=module,
                group_client=naming.class_name(f"{module.group_module}_{module.version_module}") + "Client",
                accessor=accessor,
                resources=resources,
            )
        )
    return out


def _api_version(module: Module) -> str:
    return f"{module.group}/{module.version}" if module.group else module.version
