"""JSON values as the files give them: decoded within the package's bounds, and named in a
message in the file's own words (``null``, ``an object``), not Python's."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["describe", "kind", "loads", "shown"]


def loads(text: str) -> Any:
    """``json.loads`` with nesting too deep to parse, or an integer past Python's digit
    limit, reported as a JSON error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # an integer of more than 4300 digits
        raise json.JSONDecodeError(str(error).split(";")[0], text, 0) from None


def describe(error: json.JSONDecodeError, *, one_line: bool = False) -> str:
    """A JSON error in one phrase: what, and where (the line too unless ``one_line``)."""
    where = f"column {error.colno}" if one_line else f"line {error.lineno}, column {error.colno}"
    return f"not valid JSON: {error.msg} at {where}"


def shown(value: Any) -> str:
    """A JSON value as a message shows it: short values as JSON, others by kind."""
    text = json.dumps(value)
    return text if len(text) <= 40 else kind(value)


def kind(value: Any) -> str:
    """What a JSON value is, in JSON's words: ``an object``, ``null``, ``a number``."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else "a number"
    )
