"""client-go's util/jsonpath for Python: the JSONPath template dialect of ``kubectl get -o
jsonpath=`` and ``kubectl wait --for=jsonpath=`` (``parser``: template to nodes; ``jsonpath``:
evaluation and printing). See jsonpath.py for the forms and rules."""

from kgen.runtime.util.jsonpath.jsonpath import JSONPath, format_value
from kgen.runtime.util.jsonpath.parser import JSONPathError, relaxed_jsonpath_expression

__all__ = ["JSONPath", "JSONPathError", "format_value", "relaxed_jsonpath_expression"]
