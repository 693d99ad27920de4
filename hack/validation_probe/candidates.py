"""The Python CEL libraries under test, each behind one small adapter.

An adapter compiles a rule for a property's schema and evaluates it on a value; the probe
compares what it says with what the apiserver said. Each library runs in two modes:

- ``stock``: the library as installed, with only the extensions it ships that the apiserver also
  enables (cel-expr-python's ExtStrings and ExtOptional; common-expression-language's opt-in
  ``cel.stdlib`` is *not* stock);
- ``kgen``: plus what kgen would supply as custom functions: ``k8s_functions.KUBERNETES`` (the
  Kubernetes library: quantity, url, ip/cidr, format, semver, lists) and, where the library
  lacks them, ``k8s_functions.EXTENSIONS`` (cel-go's ext.Strings v2, ext.Sets, ext.Lists).

Values reach the adapters as the apiserver binds them (``to_cel``): integers as int, numbers as
float, ``format: date-time``/``duration`` strings as datetime/timedelta, object properties under
their escaped CEL names, map keys as they are.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, Callable

from hack.validation_probe import k8s_functions as k8s
from hack.validation_probe.k8s_functions import CelError, Opt

MISSING = object()


class CompileError(Exception):
    pass


def _parse_duration(s: str) -> timedelta:
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
    total = 0.0
    for number, unit in re.findall(r"([0-9.]+)(ms|us|µs|ns|h|m|s)", s):
        total += float(number) * units[unit]
    return timedelta(seconds=total)


def to_cel(value: Any, schema: dict[str, Any]) -> Any:
    """A JSON value as the apiserver binds it in CEL, for the given structural schema."""
    t = schema.get("type")
    if t == "integer":
        return int(value)
    if t == "number":
        return float(value)
    if t == "string" and schema.get("format") == "date-time":
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    if t == "string" and schema.get("format") == "duration":
        return _parse_duration(value)
    if t == "array":
        return [to_cel(v, schema["items"]) for v in value]
    if t == "object" and "properties" in schema:
        props = schema["properties"]
        return {k8s.escape_property(k): to_cel(v, props.get(k, {})) for k, v in value.items()}
    if t == "object" and "additionalProperties" in schema:
        return {k: to_cel(v, schema["additionalProperties"]) for k, v in value.items()}
    return value


#: Kubernetes functions called as ``f(x)``; every other one is a member function ``x.f()``.
#: (Quantity's ``sign`` is declared global in k8s.io/apiserver, though its doc writes ``q.sign()``.)
GLOBALS = {
    "quantity", "isQuantity", "sign", "url", "isURL", "isIP", "ip.isCanonical", "cidr", "isCIDR",
    "semver", "isSemver", "strings.quote", "sets.contains", "sets.equivalent", "sets.intersects",
    "format.named", *(f"format.{n}" for n in k8s.FORMATS),
}


class Adapter:
    name = ""
    module = ""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.supplied: list[str] = []  # the function names kgen had to add

    @property
    def label(self) -> str:
        return f"{self.name} [{self.mode}]"

    def compile(self, rule: str, schema: dict[str, Any], old: bool, optional_old: bool) -> Any:
        raise NotImplementedError

    def evaluate(self, program: Any, self_value: Any, old_value: Any = MISSING) -> Any:
        """Returns the rule's value (bool or str) or raises for an evaluation error."""
        raise NotImplementedError


# -- cel-python (celpy): pure Python, lark parser ------------------------------------------------


class CelPy(Adapter):
    name = "cel-python"
    module = "celpy"

    def __init__(self, mode: str) -> None:
        super().__init__(mode)
        import celpy
        import celpy.celtypes as ct
        import celpy.evaluation

        self.celpy, self.ct = celpy, ct
        self.env = celpy.Environment()
        self.functions: dict[str, Callable[..., Any]] = {}
        if mode == "kgen":
            table = {**k8s.EXTENSIONS, **k8s.KUBERNETES, **_OPTIONAL}
            self.functions = {name: self._wrap(fn) for name, fn in table.items()}
            self.supplied = sorted(table)

    def _to(self, v: Any) -> Any:
        ct = self.ct
        if isinstance(v, Opt):
            return self._to({"__k8s__": "Optional", "present": v.present, "value": v.value})
        if isinstance(v, bool):
            return ct.BoolType(v)
        if isinstance(v, int):
            return ct.IntType(v)
        if isinstance(v, float):
            return ct.DoubleType(v)
        if isinstance(v, str):
            return ct.StringType(v)
        if isinstance(v, datetime):
            return ct.TimestampType(v)
        if isinstance(v, timedelta):
            return ct.DurationType(v)
        if isinstance(v, list):
            return ct.ListType([self._to(x) for x in v])
        if isinstance(v, dict):
            return ct.MapType({ct.StringType(k): self._to(x) for k, x in v.items()})
        return v

    def _plain(self, v: Any) -> Any:
        ct = self.ct
        if isinstance(v, ct.BoolType):
            return bool(v)
        if isinstance(v, (ct.IntType, ct.UintType)):
            return int(v)
        if isinstance(v, ct.DoubleType):
            return float(v)
        if isinstance(v, ct.StringType):
            return str(v)
        if isinstance(v, list):
            return [self._plain(x) for x in v]
        if isinstance(v, dict):
            return {self._plain(k): self._plain(x) for k, x in v.items()}
        return v

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            try:
                return self._to(fn(*(self._plain(a) for a in args)))
            except (CelError, ValueError, TypeError, KeyError, IndexError) as e:
                return self.celpy.evaluation.CELEvalError(str(e), type(e), None)

        return call

    def compile(self, rule: str, schema: dict[str, Any], old: bool, optional_old: bool) -> Any:
        try:
            return self.env.program(self.env.compile(rule), functions=self.functions)
        except Exception as e:
            raise CompileError(str(e)) from e

    def evaluate(self, program: Any, self_value: Any, old_value: Any = MISSING) -> Any:
        activation = {"self": self._to(self_value)}
        if old_value is not MISSING:
            activation["oldSelf"] = self._to(old_value)
        result = program.evaluate(activation)
        if isinstance(result, self.celpy.evaluation.CELEvalError):
            raise CelError(str(result))
        return self._plain(result)


# -- common-expression-language (module cel): Rust cel crate through PyO3 -------------------------


class CommonExpressionLanguage(Adapter):
    name = "common-expression-language"
    module = "cel"

    def __init__(self, mode: str) -> None:
        super().__init__(mode)
        import cel

        self.cel = cel
        self.functions: dict[str, Callable[..., Any]] = {}
        if mode == "kgen":
            ctx = cel.Context()
            cel.stdlib.add_stdlib_to_context(ctx)
            own = ctx.functions
            table = {**{n: f for n, f in k8s.EXTENSIONS.items() if n not in own}, **k8s.KUBERNETES}
            self.functions = {**own, **{name: self._wrap(fn) for name, fn in table.items()}}
            self.supplied = sorted(table)
        self._context = cel.Context(functions=self.functions)

    def _to(self, v: Any) -> Any:
        if isinstance(v, Opt):
            return self.cel.OptionalValue.of(self._to(v.value)) if v.present else self.cel.OptionalValue.none()
        if isinstance(v, list):
            return [self._to(x) for x in v]
        if isinstance(v, dict):
            return {k: self._to(x) for k, x in v.items()}
        return v

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            try:
                return self._to(fn(*args))
            except CelError as e:
                raise ValueError(str(e)) from None

        return call

    def compile(self, rule: str, schema: dict[str, Any], old: bool, optional_old: bool) -> Any:
        try:
            return self.cel.compile(rule)
        except BaseException as e:  # PyO3 panics are BaseException
            if isinstance(e, KeyboardInterrupt):
                raise
            raise CompileError(str(e)) from e

    def evaluate(self, program: Any, self_value: Any, old_value: Any = MISSING) -> Any:
        variables = {"self": self._to(self_value)}
        if old_value is not MISSING:
            variables["oldSelf"] = self._to(old_value)
        # One Context for every call: registering kgen's ~55 functions in a new Context costs
        # more than evaluating most rules (28k evaluations/s against 280k), so the functions are
        # registered once and only self/oldSelf are set per rule (only transition rules read
        # oldSelf, so a stale one is never seen).
        ctx = self._context
        ctx.update(variables)
        try:
            return program.execute(ctx)
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            raise CelError(f"{type(e).__name__}: {e}") from e


# -- cel-expr-python (module cel_expr_python): Google's cel-cpp through pybind11 ------------------


class CelExprPython(Adapter):
    name = "cel-expr-python"
    module = "cel_expr_python"

    def __init__(self, mode: str) -> None:
        super().__init__(mode)
        from cel_expr_python import cel  # type: ignore[import-untyped]
        from cel_expr_python.ext import ext_bindings, ext_optional, ext_strings  # type: ignore[import-untyped]

        self.cel = cel
        self.extensions = [ext_strings.ExtStrings(), ext_optional.ExtOptional(), ext_bindings.ExtBindings()]
        self.decls: list[Any] = []
        if mode == "kgen":
            # ExtStrings has the string functions; indexOf/lastIndexOf get list overloads only.
            table = {n: f for n, f in k8s.EXTENSIONS.items() if n.startswith("sets.") or n in ("distinct", "sort", "slice", "flatten")}
            # cel-cpp refuses a second declaration of a function an extension declared
            # (ALREADY_EXISTS): the list overloads of ExtStrings' indexOf/lastIndexOf cannot be
            # added from Python, nor can a Python function return a CEL optional (validate,
            # format.named): those need a C++ extension.
            table.update({n: f for n, f in k8s.KUBERNETES.items() if n not in ("indexOf", "lastIndexOf")})
            self.decls = self._declare(table)
            self.supplied = sorted(n for n in table if n in self._signatures())
        self._envs: dict[Any, Any] = {}

    def _type(self, schema: dict[str, Any] | None) -> Any:
        T = self.cel.Type
        if schema is None:
            return T.DYN
        t, fmt = schema.get("type"), schema.get("format")
        if t == "string":
            return {"date-time": T.TIMESTAMP, "duration": T.DURATION}.get(fmt or "", T.STRING)
        if t == "integer":
            return T.INT
        if t == "number":
            return T.DOUBLE
        if t == "boolean":
            return T.BOOL
        if t == "array":
            return T.List(self._type(schema["items"]))
        if t == "object" and "additionalProperties" in schema:
            return T.Map(T.STRING, self._type(schema["additionalProperties"]))
        return T.Map(T.STRING, T.DYN)  # objects with properties: no struct types without protobuf

    def _signatures(self) -> dict[str, list[list[Any]]]:
        """Parameter types per function (receiver first for members). cel-cpp dispatches a
        Python overload only on concrete types: a ``dyn`` parameter never matches at run time
        ("No matching overloads found"), so every polymorphic argument gets its own overload.
        Kubernetes' opaque values are tagged maps here."""
        T = self.cel.Type
        S, I, L, M = T.STRING, T.INT, T.List(T.DYN), T.Map(T.STRING, T.DYN)
        sigs: dict[str, list[list[Any]]] = {
            "quantity": [[S]], "isQuantity": [[S]], "add": [[M, M], [M, I]], "sub": [[M, M], [M, I]],
            "compareTo": [[M, M]], "isLessThan": [[M, M]], "isGreaterThan": [[M, M]],
            "url": [[S]], "isURL": [[S]], "ip": [[S], [M]], "isIP": [[S]], "ip.isCanonical": [[S]],
            "cidr": [[S]], "isCIDR": [[S]], "containsIP": [[M, M], [M, S]], "containsCIDR": [[M, M], [M, S]],
            "semver": [[S]], "isSemver": [[S]], "isSorted": [[L]], "sum": [[L]], "min": [[L]], "max": [[L]],
            "sets.contains": [[L, L]], "sets.equivalent": [[L, L]], "sets.intersects": [[L, L]],
            "distinct": [[L]], "sort": [[L]], "slice": [[L, I, I]], "flatten": [[L]],
            **{f"format.{n}": [[]] for n in k8s.FORMATS},
        }
        for name in ("asInteger", "isInteger", "asApproximateFloat", "sign", "getScheme", "getHost", "getHostname",
                     "getPort", "getEscapedPath", "getQuery", "family", "isUnspecified", "isLoopback",
                     "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "prefixLength", "masked",
                     "major", "minor", "patch"):
            sigs[name] = [[M]]
        return sigs

    def _declare(self, table: dict[str, Callable[..., Any]]) -> list[Any]:
        cel, T = self.cel, self.cel.Type
        sigs = self._signatures()
        decls = []
        for name, fn in table.items():
            if name not in sigs:
                continue  # validate and format.named return optionals: not expressible from Python
            overloads = []
            for n, params in enumerate(sigs[name]):
                member = name not in GLOBALS and not (name == "ip" and params == [T.STRING])
                overloads.append(cel.Overload(f"kgen_{name}_{n}", T.DYN, params, is_member=member, impl=self._wrap(fn)))
            decls.append(cel.FunctionDecl(name, overloads))
        return decls

    def _to(self, v: Any) -> Any:
        if isinstance(v, Opt):
            return {"__k8s__": "Optional", "present": v.present, "value": self._to(v.value)}
        if isinstance(v, list):
            return [self._to(x) for x in v]
        if isinstance(v, dict):
            return {k: self._to(x) for k, x in v.items()}
        return v

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            return self._to(fn(*(a.plain_value() if hasattr(a, "plain_value") else a for a in args)))

        return call

    def compile(self, rule: str, schema: dict[str, Any], old: bool, optional_old: bool) -> Any:
        variables = {"self": self._type(schema)}
        if old and optional_old:
            # An optional-typed variable cannot be declared from Python: bind the old value and
            # whether there is one, and let cel.bind (ExtBindings) make oldSelf the optional.
            variables["__old"] = self._type(schema)
            variables["__hasOld"] = self.cel.Type.BOOL
            rule = f"cel.bind(oldSelf, __hasOld ? optional.of(__old) : optional.none(), {rule})"
        elif old:
            variables["oldSelf"] = self._type(schema)
        try:
            env = self.cel.NewEnv(variables=variables, extensions=self.extensions, functions=self.decls)
            return env.compile(rule)
        except Exception as e:
            raise CompileError(str(e)) from e

    def evaluate(self, program: Any, self_value: Any, old_value: Any = MISSING) -> Any:
        data = {"self": self._to(self_value)}
        if isinstance(old_value, Opt):
            data["__hasOld"], data["__old"] = old_value.present, self._to(old_value.value)
        elif old_value is not MISSING:
            data["oldSelf"] = self._to(old_value)
        result = program.eval(data=data)
        if result.type() == self.cel.Type.ERROR:
            raise CelError(str(result.value()))
        return result.plain_value()


def _opt(v: Any) -> dict[str, Any]:
    if not (isinstance(v, dict) and v.get("__k8s__") == "Optional"):
        raise CelError("not an optional")
    return v


def _value(v: Any) -> Any:
    if not _opt(v)["present"]:
        raise CelError("optional.none() dereference")
    return v["value"]


#: CEL optionals as tagged maps, for libraries whose optionals Python cannot build.
_OPTIONAL: dict[str, Callable[..., Any]] = {
    "hasValue": lambda v: bool(_opt(v)["present"]),
    "value": _value,
    "orValue": lambda v, d: v["value"] if _opt(v)["present"] else d,
    "optional.of": lambda v: Opt(v),
    "optional.none": lambda: Opt.NONE,
}

ADAPTERS: list[type[Adapter]] = [CelPy, CommonExpressionLanguage, CelExprPython]
