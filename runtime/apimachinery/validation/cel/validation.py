"""CRD validation rules (``x-kubernetes-validations``) evaluated as the kube-apiserver does.

apiextensions-apiserver compiles every rule of a CRD's structural schema with cel-go, ``self``
typed from the schema node the rule sits on, and at each write evaluates the rules of every node
present in the object, reporting one cause per failing rule. This module does the same with
cel-expr-python (Google's cel-cpp), the library docs/design/validation.md ("CEL") chose against
the real apiserver v1.37.2: on the probe's 368 samples of accepted rules it never gave a wrong
verdict; what it cannot host fails at compile time, so a rule is either checked as the apiserver
checks it or reported *not checked*, never guessed.

    compiled = compile_rules(node["x-kubernetes-validations"], node)
    compiled.evaluate(value, path="spec.replicas")            # -> list[Violation]
    compiled.evaluate(value, old_self=old, path="spec.x")     # transition rules run too
    compiled.not_checked                                      # rules this module cannot evaluate

Why each piece is the way it is:

- **The library is optional** (``pip install 'kgen-runtime[validation]'``, Python >= 3.11): it is
  imported at the first compile, never at import, and when it is missing every rule is reported
  not checked with that reason instead of raising.
- **The Kubernetes CEL library** (quantity, URL, IP/CIDR, semver, lists; cel-go's ext.Sets and
  ext.Lists) is plain Python here, declared with concrete parameter types: cel-cpp never
  dispatches a Python overload through a ``dyn`` parameter. Kubernetes' opaque values travel as
  tagged maps ``{"__k8s__": kind, "v": canonical}`` whose canonical text makes ``==`` compare by
  value as the apiserver does (``quantity('1') == quantity('1000m')``).
- **Not hostable, so not checked**: the format library (its functions return optionals, which a
  Python function cannot in cel-expr-python 0.1.3), list ``indexOf``/``lastIndexOf`` (cel-cpp
  refuses a second declaration of ExtStrings' ``indexOf``), two-variable comprehensions (a macro
  cel-cpp does not ship). Any other rule that does not compile here is not checked either (the
  apiserver, which refuses a CRD with such a rule, is the judge of that, not this module).
- **Transition rules** (those that mention ``oldSelf``) run only when there is an old value,
  unless ``optionalOldSelf``: then ``oldSelf`` is an optional, made with ``cel.bind`` because an
  optional-typed variable cannot be bound from Python.
- **Messages and paths** are the apiserver's (measured in hack/validation_probe/oracle.json):
  ``Invalid value: <value>: failed rule: <rule>``, the value omitted for objects and lists;
  ``message``; ``messageExpression`` falling back to ``message`` then to ``failed rule`` when it
  is empty or fails; ``reason`` as the cause's type; ``fieldPath`` appended to the node's path;
  runtime errors as ``Invalid value: "<schema type>": <error> evaluating rule: <message or rule>`` with
  cel-go's error texts where cel-cpp's differ.

Not done: the apiserver's cost limits (cel-cpp's budget is not exposed in Python; for a cluster's
CRDs the static limits were already enforced at CRD creation), set/map list equality ignoring
order (lists compare in order here), and correlating old and new values below lists and maps
(the caller passes ``old_self`` only where it has one).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from kgen.runtime.apimachinery.validation.ratcheting import MISSING  # ``evaluate(old_self=MISSING)``: no old value
from kgen.runtime.apimachinery.validation.cel.library import (
    GLOBALS, LIBRARY, CelError, Sig, escape_property, is_dyn, to_cel, value_text,
)
from kgen.runtime.apimachinery.validation.cel.literal import bound, has_time_values, time_formats_below

Schema = dict[str, Any]

INSTALL_HINT: Final = "the CEL library is not installed: pip install 'kgen-runtime[validation]' (Python >= 3.11)"




@dataclass(frozen=True)
class Violation:
    """One failing rule as the apiserver reports its cause: the reason (``FieldValueInvalid`` or
    the rule's ``reason``), the field path and the message (``Invalid value: 5: failed rule: ...``)."""

    type: str
    field: str
    message: str
    ratchets: bool = dataclasses.field(default=False, compare=False)
    """whether an update that leaves the node unchanged drops it (validation ratcheting): a
    failure of a rule without ``oldSelf``; never an evaluation error or a transition rule's"""

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"



# -- what cel-expr-python cannot host -------------------------------------------------------------

_STRING_LITERAL_RE = re.compile(
    r"""[rRbB]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")""",
    re.DOTALL,
)
_FORMAT_RE = re.compile(r"(?<![\w.])format\.\w+|\.validate\(")
_TWO_VARIABLE_RE = re.compile(
    r"\.(all|exists|existsOne|exists_one|transformList|transformMap|transformMapEntry)\(\s*\w+\s*,\s*\w+\s*,")
_LIST_INDEX_RE = re.compile(r"no matching overload for '(indexOf|lastIndexOf)' applied to '\(list")
_OLD_SELF_RE = re.compile(r"(?<![\w.])oldSelf\b")


def _code(expression: str) -> str:
    """The expression without its string literals (``'oldSelf'`` is no reference to oldSelf)."""
    return _STRING_LITERAL_RE.sub("''", expression)


def _unhostable(expression: str) -> str | None:
    """Why cel-expr-python cannot evaluate an expression as the apiserver does, or None."""
    code = _code(expression)
    if m := _FORMAT_RE.search(code):
        return "the format library (" + m.group(0).strip(".(") + ")"
    if m := _TWO_VARIABLE_RE.search(code):
        return f"two-variable comprehension {m.group(1)}()"
    return None


# -- the library boundary: everything untyped about cel-expr-python stays in this class -----------


class _Cel:
    """cel-expr-python, loaded once: the Kubernetes functions declared, environments cached by
    the variables' types."""

    def __init__(self) -> None:
        from cel_expr_python import cel  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from cel_expr_python.ext import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
            ext_bindings,
            ext_optional,
            ext_strings,
        )

        self._cel: Any = cel
        self._extensions: list[Any] = [ext_strings.ExtStrings(), ext_optional.ExtOptional(), ext_bindings.ExtBindings()]
        T = cel.Type
        self._shorthand: dict[str, Any] = {
            "S": T.STRING, "I": T.INT, "B": T.BOOL, "D": T.DOUBLE, "dyn": T.DYN,
            "L": T.List(T.DYN), "M": T.Map(T.STRING, T.DYN),
        }
        self._functions = [self._declare(name, sigs) for name, sigs in LIBRARY.items()]
        self._envs: dict[str, Any] = {}

    def _declare(self, name: str, sigs: list[Sig]) -> Any:
        cel, short = self._cel, self._shorthand
        overloads = [
            cel.Overload(f"kgen_{name}_{n}", short[ret], [short[p] for p in params],
                         is_member=name not in GLOBALS and not (name == "ip" and params == ("S",)),
                         impl=_wrap(fn))
            for n, (ret, params, fn) in enumerate(sigs)
        ]
        return cel.FunctionDecl(name, overloads)

    def type_of(self, schema: Schema) -> Any:
        """The CEL type the apiserver gives a schema node (objects with properties are
        ``map(string, dyn)`` here: cel-cpp has no struct types without protobuf descriptors)."""
        T = self._cel.Type
        if is_dyn(schema):
            return T.DYN
        t, fmt = schema.get("type"), schema.get("format")
        if t == "string":
            return {"date-time": T.TIMESTAMP, "duration": T.DURATION, "byte": T.BYTES}.get(fmt or "", T.STRING)
        if t == "integer":
            return T.INT
        if t == "number":
            return T.DOUBLE
        if t == "boolean":
            return T.BOOL
        if t == "array":
            return T.List(self.type_of(schema.get("items", {})))
        if t == "object" and isinstance(schema.get("additionalProperties"), dict) and "properties" not in schema:
            return T.Map(T.STRING, self.type_of(schema["additionalProperties"]))
        return T.Map(T.STRING, T.DYN)

    def compile(self, expression: str, variables: dict[str, Any]) -> tuple[Any, str]:
        """(program, its return type's name); ValueError with cel-cpp's text if it does not compile."""
        key = repr(sorted((k, str(v)) for k, v in variables.items()))
        env = self._envs.get(key)
        try:
            if env is None:
                env = self._envs[key] = self._cel.NewEnv(
                    variables=variables, extensions=self._extensions, functions=self._functions)
            program = env.compile(expression)
        except Exception as e:  # cel-cpp raises plain exceptions carrying a status text
            raise ValueError(str(e)) from None
        return program, str(program.return_type())

    def evaluate_bound(self, expression: str, data: dict[str, Any]) -> Any:
        """``evaluate`` where a timestamp or duration sits below a variable's top, which only a
        literal can carry (``cel.literal``): ``expression`` compiled with the values bound in it."""
        try:
            program, _ = self.compile(bound(expression, data), {})
        except ValueError as e:
            raise CelError(f"kgen cannot bind the value: {e}") from None
        return self.evaluate(program, {})

    def evaluate(self, program: Any, data: dict[str, Any]) -> Any:
        """The expression's value; CelError with cel-go's wording if it fails."""
        try:
            result = program.eval(data=data)
        except Exception as e:  # a value cel-expr-python cannot bind: say so as the rule's error
            raise CelError(f"kgen cannot bind the value: {e}") from None
        if result.type() == self._cel.Type.ERROR:
            raise CelError(_go_error(str(result.value())))
        return result.plain_value()


def _plain(v: Any) -> Any:
    return v.plain_value() if hasattr(v, "plain_value") else v


def _wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return fn(*(_plain(a) for a in args))

    return call


_GO_ERRORS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^divide by zero$"), "division by zero"),
    (re.compile(r"^modulus by zero$"), "modulus by zero"),
    (re.compile(r"^int64 out of uint64 range$"), "unsigned integer overflow"),
    (re.compile(r"^(double|uint64) out of int64 range$"), "integer overflow"),
    (re.compile(r"^double out of uint64 range$"), "unsigned integer overflow"),
    (re.compile(r"^Index error: index=(-?\d+) size=\d+$"), r"index out of bounds: \1"),
    (re.compile(r'^Key not found in map : "(.*)"$'), r"no such key: \1"),
    (re.compile(r"^String to (Duration|Timestamp) conversion failed$"),
     r"type conversion error from 'string' to 'google.protobuf.\1'"),
]
"""cel-cpp's runtime error texts -> cel-go's (what the apiserver prints), measured in the probe."""
_STATUS_PREFIX_RE = re.compile(r"^[A-Z_]+: ")


def _go_error(text: str) -> str:
    text = _STATUS_PREFIX_RE.sub("", text, count=1)
    for pattern, go in _GO_ERRORS:
        if pattern.match(text):
            return pattern.sub(go, text)
    return text


@functools.cache
def _library() -> _Cel | str:
    """The loaded library, or why it cannot be loaded."""
    if sys.version_info < (3, 11):
        return INSTALL_HINT
    try:
        return _Cel()
    except ImportError:
        return INSTALL_HINT
    except Exception as e:  # a broken install (ABI, shared libraries): still never raise
        return f"the CEL library failed to load ({type(e).__name__}: {e})"


# -- compiled rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    rule: str
    program: Any
    message: str | None
    message_program: Any  # None: no messageExpression, or one that does not compile
    reason: str | None
    field_path: str
    transition: bool
    optional_old_self: bool
    source: str = ""  # the rule as compiled (``oldSelf`` bound), and the messageExpression: for ``evaluate_bound``
    message_source: str | None = None


@dataclass(frozen=True)
class CompiledRules:
    """The rules of one schema node, ready to evaluate. ``not_checked`` says which rules this
    module cannot evaluate (``<rule>: not checked: <why>``); ``evaluate`` skips them."""

    schema_type: str
    rules: tuple[_Rule, ...] = ()
    not_checked: list[str] = field(default_factory=list)
    schema: Schema = field(default_factory=dict, repr=False)
    times_below: bool = False
    """a date-time or duration field below the node (``cel.literal``): values may need binding as literals"""

    def evaluate(self, self_value: Any, *, old_self: Any = MISSING, path: str) -> list[Violation]:
        """The causes the apiserver would report for these rules on ``self_value`` (the node's
        JSON value, after the structural checks passed) at ``path``; ``old_self`` is the node's
        value in the object being updated, where there is one."""
        if not self.rules:
            return []
        cel = _library()
        assert isinstance(cel, _Cel)  # rules compiled, so the library is there
        data: dict[str, Any] = {"self": to_cel(self_value, self.schema)}
        has_old = old_self is not MISSING
        old = to_cel(old_self, self.schema) if has_old else None
        literal = self.times_below and (has_time_values(data["self"]) or (has_old and has_time_values(old)))
        violations = []
        for r in self.rules:
            if r.transition and r.optional_old_self:
                run = dict(data, __old=old if has_old else data["self"], __hasOld=has_old)
            elif r.transition:
                if not has_old:
                    continue  # the apiserver runs a transition rule only against an old value
                run = dict(data, oldSelf=old)
            else:
                run = data
            where = (path + r.field_path) if path else r.field_path.removeprefix(".")
            try:
                ok = cel.evaluate_bound(r.source, run) if literal else cel.evaluate(r.program, run)
            except CelError as e:
                # the rule's message names it when it has one (the apiserver's ruleErrorString)
                named = (r.message or "").strip() or r.rule.strip()
                violations.append(Violation("FieldValueInvalid", where,
                                            f'Invalid value: "{self.schema_type}": {e} evaluating rule: {named}'))
                continue
            if ok is True:
                continue
            if ok is not False:
                violations.append(Violation("FieldValueInvalid", where, f'Invalid value: "{self.schema_type}": '
                                            f"rule did not evaluate to a bool: {r.rule}", not r.transition))
                continue
            violations.append(_failure(r, self._message(cel, r, run, literal), self_value, where))
        return violations

    def _message(self, cel: _Cel, r: _Rule, data: dict[str, Any], literal: bool) -> str:
        """messageExpression's text; ``message`` or ``failed rule: <rule>`` when it has none,
        evaluates to blank, or fails (the apiserver logs that and falls back)."""
        if r.message_program is not None and r.message_source is not None:
            try:
                text = cel.evaluate_bound(r.message_source, data) if literal else cel.evaluate(r.message_program, data)
            except CelError:
                text = None
            if isinstance(text, str) and text.strip() and "\n" not in text and len(text) <= 5000:
                return text
        return r.message or f"failed rule: {r.rule}"


def _failure(r: _Rule, message: str, value: Any, where: str) -> Violation:
    """A failed rule as apiextensions' fieldErrorForReason files it."""
    shown = value_text(value)
    ratchets = not r.transition
    if r.reason == "FieldValueForbidden":
        return Violation(r.reason, where, f"Forbidden: {message}", ratchets)
    if r.reason == "FieldValueRequired":
        return Violation(r.reason, where, f"Required value: {message}", ratchets)
    if r.reason == "FieldValueDuplicate":
        return Violation(r.reason, where, "Duplicate value" + (f": {shown}" if shown is not None else ""), ratchets)
    return Violation("FieldValueInvalid", where, f"Invalid value: {shown}: {message}" if shown is not None
                     else f"Invalid value: {message}", ratchets)


def _field_path(field_path: str, schema: Schema) -> str:
    """A rule's ``fieldPath`` (``.spec.x``, ``['a.b']``) as the path suffix the apiserver reports:
    ``.name`` for an object's property, ``[key]`` for a map's key."""
    out = ""
    node = schema
    for dotted, quoted in re.findall(r"\.([^.\[]+)|\[\s*'((?:\\.|[^'])*)'\s*\]", field_path):
        name = dotted or quoted
        props = node.get("properties", {})
        if name in props:
            out, node = f"{out}.{name}", props[name]
        else:
            out, node = f"{out}[{name}]", node.get("additionalProperties") or {}
    return out


def _schema_type(schema: Schema) -> str:
    t = schema.get("type", "")
    return t if isinstance(t, str) else ""


def compile_rules(rules: list[dict[str, Any]], schema: Schema) -> CompiledRules:
    """Compile a node's ``x-kubernetes-validations`` for ``schema``, the node they sit on (its
    type types ``self`` and ``oldSelf``). Never raises: a rule that cannot be evaluated here
    (no CEL library, a function cel-expr-python cannot host, a rule that does not compile) is in
    ``not_checked``. Cached by the rules' and the schema's JSON (compiling is about 1 ms a rule)."""
    return _compile_cached(json.dumps(rules, sort_keys=True), json.dumps(schema, sort_keys=True))


@functools.lru_cache(maxsize=1024)
def _compile_cached(rules_json: str, schema_json: str) -> CompiledRules:
    rules: list[dict[str, Any]] = json.loads(rules_json)
    schema: Schema = json.loads(schema_json)
    cel = _library()
    if isinstance(cel, str):
        return CompiledRules(_schema_type(schema), (), [f"{r.get('rule', '')}: not checked: {cel}" for r in rules], schema)
    compiled: list[_Rule] = []
    not_checked: list[str] = []
    self_type = cel.type_of(schema)
    for spec in rules:
        rule = str(spec.get("rule", ""))
        message_expression = spec.get("messageExpression") or None
        why = _unhostable(rule) or (_unhostable(message_expression) if message_expression else None)
        if why is not None:
            not_checked.append(f"{rule}: not checked: {why}")
            continue
        transition = bool(_OLD_SELF_RE.search(_code(rule)))
        optional_old_self = transition and spec.get("optionalOldSelf") is True
        variables: dict[str, Any] = {"self": self_type}
        if optional_old_self:
            # An optional-typed variable cannot be bound from Python: bind the old value and
            # whether there is one, and let cel.bind (ext.Bindings) make oldSelf the optional.
            variables.update(__old=self_type, __hasOld=cel.type_of({"type": "boolean"}))
        elif transition:
            variables["oldSelf"] = self_type
        try:
            program, returns = cel.compile(_with_old_self(rule, optional_old_self), variables)
        except ValueError as e:
            text = str(e)
            m = _LIST_INDEX_RE.search(text)
            not_checked.append(f"{rule}: not checked: " + (f"list {m.group(1)}" if m else
                               "does not compile: " + _STATUS_PREFIX_RE.sub("", text.splitlines()[0])))
            continue
        if returns not in ("BOOL", "DYN", "bool", "dyn"):
            not_checked.append(f"{rule}: not checked: does not compile: cel expression must evaluate to a bool")
            continue
        message_program = None
        if message_expression:
            try:
                message_program, _ = cel.compile(_with_old_self(message_expression, optional_old_self), variables)
            except ValueError:
                message_program = None  # the apiserver refuses the CRD; fall back to the message
        compiled.append(_Rule(
            rule=rule, program=program, message=spec.get("message") or None, message_program=message_program,
            reason=spec.get("reason") or None, field_path=_field_path(str(spec.get("fieldPath") or ""), schema),
            transition=transition, optional_old_self=optional_old_self,
            source=_with_old_self(rule, optional_old_self),
            message_source=_with_old_self(message_expression, optional_old_self) if message_expression else None,
        ))
    return CompiledRules(_schema_type(schema), tuple(compiled), not_checked, schema, time_formats_below(schema))


def _with_old_self(expression: str, optional_old_self: bool) -> str:
    if not optional_old_self:
        return expression
    return f"cel.bind(oldSelf, __hasOld ? optional.of(__old) : optional.none(), {expression})"


def check_rules(value: Any, schema: Schema, path: str, *, old_self: Any = MISSING) -> list[Violation]:
    """The walker's hook: the violations of ``schema``'s ``x-kubernetes-validations`` on
    ``value`` at ``path`` (compiled once per rules and schema)."""
    rules = schema.get("x-kubernetes-validations")
    if not isinstance(rules, list) or not rules:
        return []
    return _compiled_for(rules, schema).evaluate(value, old_self=old_self, path=path)


_BY_IDENTITY: dict[tuple[int, int], tuple[list[dict[str, Any]], Schema, CompiledRules]] = {}
"""compile_rules by the identity of the rules list and the schema node, which a walker meets again
at every object: serialising a large node to JSON for the content-keyed cache costs more than
evaluating most rules. The entries hold both objects, so their ids cannot be reused meanwhile."""


def _compiled_for(rules: list[dict[str, Any]], schema: Schema) -> CompiledRules:
    entry = _BY_IDENTITY.get((id(rules), id(schema)))
    if entry is not None and entry[0] is rules and entry[1] is schema:
        return entry[2]
    compiled = compile_rules(rules, schema)
    if len(_BY_IDENTITY) >= 1024:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[(id(rules), id(schema))] = (rules, schema, compiled)
    return compiled


__all__ = ["MISSING", "CompiledRules", "Violation", "check_rules", "compile_rules", "escape_property", "to_cel"]
