"""Reading an input file: its text, then its JSON or YAML documents, each error one line placed
at the file's line and column (``openapi.json:3:17: could not parse JSON: ...``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InputError

YAML_SUFFIXES = (".yaml", ".yml")


def read_text(path: Path) -> str:
    """The text of an input file; unreadable or non-UTF-8 files are one ``InputError``."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(path, "", "", problem=f"cannot read it: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InputError(path, "", "UTF-8 text", problem=f"not text: byte {e.start} is not UTF-8") from None


def parse_json(text: str, path: Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, "", "", problem=f"could not parse JSON: {e.msg}", line=e.lineno, column=e.colno) from None


def documents(path: Path) -> list[tuple[int, Any]]:
    """(number, document) of a JSON file (one document) or a YAML file (empty documents dropped)."""
    text = read_text(path)
    if path.suffix not in YAML_SUFFIXES:
        return [(1, parse_json(text, path))] if text.strip() else []
    from ..yamlfile import documents as yaml_documents

    return yaml_documents(text, path)


def describe(doc: Any) -> str:
    """What a document is, for an error saying it is not what was expected: "a ConfigMap", "a list"."""
    if isinstance(doc, dict):
        if "openapi" in doc or "swagger" in doc:
            return "an OpenAPI document"
        kind = doc.get("kind")
        return f"a {kind}" if isinstance(kind, str) and kind else "a mapping with no kind"
    names: dict[type, str] = {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(doc), f"a {type(doc).__name__}")
