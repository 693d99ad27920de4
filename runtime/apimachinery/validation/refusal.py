"""The ``Status`` the apiserver refuses an object with, from the errors ``validate`` predicts.

Shared by the typed clients' ``validate=True`` and the fake (``kgen.runtime.fake.schema.validation``),
so a local refusal raises the exception, with the message, details and causes, the apiserver's
answer would (checked against it by tests/unit/test_client_validate_option.py and
test_fake_validation.py).
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.structural import FieldError


def refusal(obj: dict[str, Any], errors: list[FieldError]) -> dict[str, Any]:
    """The ``Status`` the apiserver refuses ``obj`` with when ``validate`` found ``errors``.

    A 422 is apimachinery's ``errors.NewInvalid(groupKind, name, errs)``: reason ``Invalid``,
    message ``<Kind>.<group> "<name>" is invalid: <field>: <detail>`` (several errors as
    ``[a, b]``, identical texts once), ``details.causes`` one per error (``reason``, ``message``
    without the field, ``field``). kube-openapi's ``Checked value`` and ``allOf/anyOf/oneOf`` errors
    name the field ``<nil>`` there (``validate`` gives the real path, also in their message). A 400
    (``BadRequest`` errors: Strict's unknown fields, decode errors) is the codec's
    ``<Kind> in version "<v>" cannot be handled as a <Kind>: ...``, without causes. The order of
    several errors is ``validate``'s (sorted); the apiserver's varies from request to request.
    """
    api_version, kind = str(obj.get("apiVersion") or ""), str(obj.get("kind") or "")
    group, _, version = api_version.rpartition("/")
    name = str((obj.get("metadata") or {}).get("name") or "")
    base = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure"}
    bad = [e for e in errors if e.type == "BadRequest"]
    if bad:
        unknown = [e.message for e in bad if e.message.startswith("unknown field ")]
        why = f"strict decoding error: {', '.join(unknown)}" if unknown else str(bad[0])
        message = f'{kind} in version "{version}" cannot be handled as a {kind}: {why}'
        return {**base, "message": message, "reason": "BadRequest", "code": 400}
    causes = [{"reason": e.type, "message": e.message, "field": _status_field(e)} for e in errors]
    texts = list(dict.fromkeys(f"{c['field']}: {c['message']}" for c in causes))
    listed = texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]"
    qualified = f"{kind}.{group}" if group else kind
    # details.name is omitempty: a create with neither name nor generateName has none
    details = {**({"name": name} if name else {}), **({"group": group} if group else {}), "kind": kind, "causes": causes}
    return {**base, "message": f'{qualified} "{name}" is invalid: {listed}', "reason": "Invalid",
            "details": details, "code": 422}


_MUST_VALIDATE = re.compile(r'"\S+" must (?:not )?validate')


def _status_field(error: FieldError) -> str:
    """The field a 422's cause names: ``<nil>`` where kube-openapi leaves it out (checked_integer,
    the allOf/anyOf/oneOf errors), the error's path otherwise."""
    nil = error.message.startswith('Invalid value: "": ') and (
        error.message.endswith(f" in {error.field}") or _MUST_VALIDATE.search(error.message) is not None)
    return "<nil>" if nil else error.field
