"""The intermediate representation: plain data, every decision already made.

groups -> versions -> resources (what discovery says) and models -> fields (what the schemas
say). Templates read these values and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Field:
    wire_name: str
    py_name: str
    annotation: str  # the wire type; ``| None`` is added for optional and nullable fields
    description: str = ""
    required: bool = False  # in the schema's ``required`` list: typed ``T``, no default
    nullable: bool = False  # ``nullable: true``: an explicit ``null`` is kept apart from absent
    default: Any = None  # the schema's default, recorded for docs and callers, never injected
    has_default: bool = False
    facts: dict[str, Any] = field(default_factory=dict)  # x-kubernetes-* facts, for later stages
    #: The x-kubernetes-* facts of the value's elements, level by level (a list's items, a map's
    #: values, their items...), outermost first; ``{}`` for a level with none. For merge schemas.
    element_facts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Model:
    name: str  # class name
    schema_name: str  # where it came from (definition name or CRD path)
    description: str = ""
    fields: list[Field] = field(default_factory=list)
    api_version: str | None = None
    kind: str | None = None
    redacted: list[str] = field(default_factory=list)  # Python names whose values repr hides
    atomic: bool = False  # ``x-kubernetes-map-type: atomic``: server-side apply owns it whole
    #: A definition's own ``x-kubernetes-preserve-unknown-fields`` (a CRD's root schema); for a
    #: nested class it is the holding field's fact (``Field.facts``), as classes are shared.
    preserve_unknown_fields: bool = False


@dataclass(frozen=True)
class StockClass:
    """A stock Kubernetes class a CRD package imports from ``kgen.kubernetes`` (generator/stock.py)."""

    module: str  # "batch.v1": group module and version module in the stock package
    name: str


@dataclass
class Resource:
    plural: str
    singular: str
    kind: str
    namespaced: bool
    verbs: list[str]
    subresources: dict[str, list[str]] = field(default_factory=dict)
    short_names: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)


@dataclass
class Module:
    """One ``models/<group>/<version>.py``."""

    group: str  # API group ("" for core; "meta.k8s.io"-free: meta is apimachinery's)
    version: str
    group_module: str
    version_module: str
    models: list[Model] = field(default_factory=list)
    resources: list[Resource] = field(default_factory=list)
    imports: dict[str, str] = field(default_factory=dict)  # alias -> "group_module.version_module"
    aliases: set[str] = field(default_factory=set)  # runtime type aliases used (Quantity, ...)
    uses_literal: bool = False
    uses_any: bool = False
    uses_builtins: bool = False  # a class has a field named like a builtin type (``list``)
    #: Nested classes another module defines and this one re-exports (``Name = alias.Name``):
    #: class name -> module alias (a key of ``imports``). See generator/nested.py.
    shared: dict[str, str] = field(default_factory=dict)
    #: Modules of the stock package (``kgen.kubernetes``) this one imports, for the stock types
    #: its CRDs embed (generator/stock.py): alias -> "group_module.version_module" there.
    stock_imports: dict[str, str] = field(default_factory=dict)
    #: The names a user would guess for a kind's types where its class is named otherwise (a
    #: class shared between kinds: cert-manager's ``Issuer.spec`` is ``ClusterIssuerSpec``):
    #: ``IssuerSpec`` -> ``ClusterIssuerSpec`` (a class this module defines or re-exports, or
    #: ``alias.Name``), written as ``IssuerSpec = ClusterIssuerSpec``. See naming.py.
    kind_aliases: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.group_module, self.version_module)


@dataclass
class Package:
    name: str
    modules: list[Module]
    kubernetes_version: str = ""  # the sources' Kubernetes version ("1.37.2"), "" when unknown


@dataclass
class TypedResource:
    """A resource's typed client: names and the verbs the server advertises for it."""

    plural: str
    kind: str
    namespaced: bool
    accessor: str  # cs.core_v1.<accessor>(ns): config_maps
    client_class: str  # ConfigMapsClient
    model: str  # the model class in the same group-version module
    list_model: str
    mixins: list[str]  # kgen.runtime.gentype.typed verb mixins, in client-go's verb order
    scale: bool = False
    log: bool = False
    exec: bool = False  # pods/exec and pods/attach: kgen.runtime.tools.remotecommand's mixins
    port_forward: bool = False  # pods/portforward: kgen.runtime.tools.portforward's mixins
    eviction: bool = False
    token: bool = False
    informer: bool = False  # list + watch: listers and informers are generated
    short_names: list[str] = field(default_factory=list)


@dataclass
class ClientModule:
    """``typed/<group>/<version>.py`` (and its lister and informer modules)."""

    module: Module
    group_client: str  # AppsV1Client
    accessor: str  # apps_v1
    resources: list[TypedResource] = field(default_factory=list)
