"""Refusals: Pydantic's validation errors as one line naming the field, as the command line says.

A request model (:mod:`.schema`) raises its own messages where a check is the model's
(``rows, cols: 200x201 is more than 40,000 cells``); Pydantic's standard errors are worded
here in the same style (``rows: "9" is not an integer``). Only the first error is told: one
line, and the first thing to fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RequestError

__all__ = ["json_type", "shown", "validation_error"]

_NOT_OBJECT = {"model_type", "model_attributes_type", "dict_type"}


def validation_error(errors: Sequence[Mapping[str, Any]]) -> RequestError:
    """The refusal for Pydantic's ``errors`` (as ``ValidationError.errors()`` lists them).

    Returns
    -------
    RequestError
        400 for a body that is not JSON or is empty, else 422; one line, naming the field.

    Examples
    --------
    >>> str(validation_error([{"type": "int_type", "loc": ("body", "rows"), "input": "9",
    ...     "msg": "Input should be a valid integer"}]))
    'rows: "9" is not an integer'
    >>> validation_error([{"type": "missing", "loc": ("body",), "input": None,
    ...     "msg": "Field required"}]).status
    400
    """
    if not errors:
        return RequestError(422, "the body is not valid")
    first = errors[0]
    kind = str(first.get("type", ""))
    where = [str(part) for part in first.get("loc", ()) if part not in ("body", "path")]
    value = first.get("input")
    context = first.get("ctx") or {}
    if kind == "json_invalid":
        return RequestError(400, f"not JSON: {context.get('error', 'it cannot be read')}")
    if kind == "missing" and not where:
        return RequestError(400, "the body is empty: it should be a JSON object")
    if kind in _NOT_OBJECT and not where:
        return RequestError(422, f"the body is {json_type(value)}, not an object")
    message = _worded(kind, value, context, str(first.get("msg", "invalid")))
    return RequestError(422, f"{'.'.join(where)}: {message}" if where else message)


def _worded(kind: str, value: object, context: Mapping[str, Any], message: str) -> str:
    """One of Pydantic's standard errors in the API's words; a model's own as it is."""
    if kind == "missing":
        return "missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{shown(value)} is not an integer"
    if kind in ("string_type", "str_type"):
        return f"{json_type(value)} is not a string"
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str(context.get("expected", "")))
        return f"{shown(value)} is not one of {', '.join(choices)}"
    if kind == "list_type":
        return f"{json_type(value)} is not an array"
    return message.removeprefix("Value error, ")


def shown(value: object) -> str:
    """``value`` as JSON, cut short if long (for a refusal that quotes it).

    Examples
    --------
    >>> shown([1, "a"]), shown("x" * 50)[-4:]
    ('[1, "a"]', 'x...')
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # pragma: no cover - values come from JSON
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def json_type(value: object) -> str:
    """The JSON name of a decoded value's type, with an article.

    Examples
    --------
    >>> json_type([1]), json_type(True), json_type(None)
    ('a JSON array', 'a boolean', 'null')
    """
    names = {list: "a JSON array", str: "a string", int: "a number", float: "a number"}
    if isinstance(value, bool):
        return "a boolean"
    return names.get(type(value), "null" if value is None else "a JSON object")
