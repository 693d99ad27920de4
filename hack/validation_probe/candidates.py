"""The Python CEL libraries under test, each behind one small adapter.

An adapter compiles a rule for a property's schema and evaluates it on a value; the probe
compares what it says with what the apiserver said. Each library runs in two modes:

- ``stock``: the library as installed, with only the extensions it ships that the apiserver also
  enables (cel-expr-python's ExtStrings and ExtOptional; common-expression-language's opt-in
  ``cel.stdlib`` is *not* stock);
- ``kgen``: for cel-expr-python, kgen's runtime itself (``kgen.runtime.apimachinery.validation.cel.validation``: its
  declarations of the Kubernetes library, its types, its error wording); for the others, what
  kgen would supply as custom functions: ``k8s_functions.KUBERNETES`` (the Kubernetes library:
  the runtime's quantity, url, ip/cidr, semver, lists, plus format) and, where the library lacks
  them, ``k8s_functions.EXTENSIONS`` (cel-go's ext.Strings v2, ext.Sets, ext.Lists).

Values reach the adapters as the apiserver binds them (the runtime's ``to_cel``): integers as int,
numbers as float, ``format: date-time``/``duration`` strings as datetime/timedelta, object
properties under their escaped CEL names, map keys as they are.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable

from hack.validation_probe import k8s_functions as k8s
from hack.validation_probe.k8s_functions import Opt
from kgen.runtime.apimachinery.validation.cel import validation as runtime_cel
from kgen.runtime.apimachinery.validation.cel.library import LIBRARY, CelError

MISSING = object()


class CompileError(Exception):
    pass


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
    """stock: the library with the extensions the apiserver enables; kgen: the runtime's boundary
    (``kgen.runtime.apimachinery.validation.cel.validation``), as kgen's validation evaluates rules."""

    name = "cel-expr-python"
    module = "cel_expr_python"

    def __init__(self, mode: str) -> None:
        super().__init__(mode)
        from cel_expr_python import cel  # type: ignore[import-untyped]
        from cel_expr_python.ext import ext_bindings, ext_optional, ext_strings  # type: ignore[import-untyped]

        runtime = runtime_cel._library()
        if isinstance(runtime, str):
            raise ImportError(runtime)
        self.cel, self.runtime = cel, runtime
        self.extensions = [ext_strings.ExtStrings(), ext_optional.ExtOptional(), ext_bindings.ExtBindings()]
        if mode == "kgen":
            self.supplied = sorted(LIBRARY)

    def compile(self, rule: str, schema: dict[str, Any], old: bool, optional_old: bool) -> Any:
        self_type = self.runtime.type_of(schema)
        variables = {"self": self_type}
        if old and optional_old:
            # An optional-typed variable cannot be declared from Python: bind the old value and
            # whether there is one, and let cel.bind (ExtBindings) make oldSelf the optional.
            variables.update(__old=self_type, __hasOld=self.cel.Type.BOOL)
        elif old:
            variables["oldSelf"] = self_type
        expression = runtime_cel._with_old_self(rule, old and optional_old)
        if self.mode == "kgen":
            why = runtime_cel._unhostable(rule)
            if why is not None:
                raise CompileError(f"not checked: {why}")
            try:
                return self.runtime.compile(expression, variables)[0]
            except ValueError as e:
                raise CompileError(str(e)) from e
        try:
            return self.cel.NewEnv(variables=variables, extensions=self.extensions).compile(expression)
        except Exception as e:
            raise CompileError(str(e)) from e

    def evaluate(self, program: Any, self_value: Any, old_value: Any = MISSING) -> Any:
        data = {"self": self_value}
        if isinstance(old_value, Opt):
            data["__hasOld"], data["__old"] = old_value.present, old_value.value if old_value.present else self_value
        elif old_value is not MISSING:
            data["oldSelf"] = old_value
        if self.mode == "kgen":
            return self.runtime.evaluate(program, data)
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
