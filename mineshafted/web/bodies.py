"""Bodies: the JSON of a request, read and checked, each problem named with its field.

Every request body is a JSON object. A position is read by the very reader of
``mineshafted probabilities`` (:func:`~mineshafted.probability.parse_position`), so the API
takes exactly the files that command takes, and says what is wrong with one in the same
words. Anything wrong is a :class:`~.errors.RequestError` with status 422 (400 for what is
not JSON at all) and a one-line message naming the field.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import MineshaftedError
from ..probability import PositionFile, parse_position
from .errors import RequestError

__all__ = [
    "cell_field",
    "choice_field",
    "int_field",
    "json_object",
    "position",
    "position_and_cell",
    "text_field",
]


def json_object(raw: bytes, *, fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The body as a JSON object.

    Parameters
    ----------
    raw:
        The body's bytes (UTF-8).
    fields:
        The fields allowed (``None``: any).

    Raises
    ------
    RequestError
        400: not UTF-8, not JSON, nested too deeply, an integer of thousands of digits;
        422: not an object, or a field not in ``fields``.

    Examples
    --------
    >>> json_object(b'{"cell": [1, 2]}')
    {'cell': [1, 2]}
    >>> json_object(b'[1]')
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: the body is a JSON array, not an object
    """
    data = _loads(raw)
    if not isinstance(data, dict):
        raise RequestError(422, f"the body is {_json_type(data)}, not an object")
    if fields is not None:
        for name in data:
            if name not in fields:
                allowed = ", ".join(fields) if fields else "none"
                raise RequestError(422, f"{name}: unknown field (the fields are {allowed})")
    return data


def position(raw: bytes) -> PositionFile:
    """The body as a position, read as ``mineshafted probabilities`` reads a file.

    Raises
    ------
    RequestError
        400 or 422, the message as the command's (``field 'board', row 2, column 3: ...``).

    Examples
    --------
    >>> position(b'{"board": [[1, null]], "mines": 1}')
    PositionFile(board=[[1, None]], mines=1)
    >>> position(b'{"board": [[1, 9]], "mines": 1}')
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: field 'board', row 0, column 1: 9 is not a clue 0-8, \
a mine -1 or null
    """
    text = _text(raw)
    try:
        return parse_position(text)
    except MineshaftedError as error:
        status = 400 if str(error).startswith("not JSON") else 422
        raise RequestError(status, str(error)) from None


def position_and_cell(raw: bytes) -> tuple[PositionFile, tuple[int, int]]:
    """The body as a position and a ``cell`` ``[row, column]`` on its board.

    The position's fields are checked as :func:`position` checks them.

    Raises
    ------
    RequestError
        As :func:`position`, or 422 for a missing or malformed ``cell``.

    Examples
    --------
    >>> position_and_cell(b'{"board": [[1, null]], "mines": 1, "cell": [0, 1]}')[1]
    (0, 1)
    """
    data = json_object(raw)
    if "cell" not in data:
        raise RequestError(422, "cell: missing (the cell to explain, [row, column])")
    cell = data.pop("cell")
    read = position(json.dumps(data).encode())
    board = read.board
    return read, cell_field(cell, len(board), len(board[0]))


def cell_field(value: object, rows: int, cols: int, *, name: str = "cell") -> tuple[int, int]:
    """``value`` as a cell ``[row, column]`` of a ``rows`` x ``cols`` board.

    Raises
    ------
    RequestError
        422: not two integers, or off the board.

    Examples
    --------
    >>> cell_field([2, 3], 9, 9)
    (2, 3)
    >>> cell_field([9, 0], 9, 9)
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: cell: [9, 0] is off the 9x9 board (rows 0..8, \
columns 0..8)
    """
    if not isinstance(value, list) or len(value) != 2 or not all(type(n) is int for n in value):
        raise RequestError(422, f"{name}: {_shown(value)} is not a cell [row, column]")
    row, col = value
    if not (0 <= row < rows and 0 <= col < cols):
        raise RequestError(
            422,
            f"{name}: [{row}, {col}] is off the {rows}x{cols} board "
            f"(rows 0..{rows - 1}, columns 0..{cols - 1})",
        )
    return row, col


def int_field(
    data: dict[str, Any], name: str, *, low: int, high: int, default: int | None = None
) -> int:
    """The integer field ``name``, between ``low`` and ``high``.

    Raises
    ------
    RequestError
        422: missing (with no default), not an integer, or out of range.

    Examples
    --------
    >>> int_field({"rows": 9}, "rows", low=1, high=200)
    9
    >>> int_field({"rows": 9.5}, "rows", low=1, high=200)
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: rows: 9.5 is not an integer
    """
    if name not in data or data[name] is None:
        if default is None:
            raise RequestError(422, f"{name}: missing")
        return default
    value = data[name]
    if type(value) is not int:
        raise RequestError(422, f"{name}: {_shown(value)} is not an integer")
    if not low <= value <= high:
        raise RequestError(422, f"{name}: {value} is not in {low}..{high:,}")
    return value


def choice_field(data: dict[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    """The string field ``name``, one of ``choices`` (``default`` when missing).

    Raises
    ------
    RequestError
        422: not one of ``choices``.

    Examples
    --------
    >>> choice_field({}, "first", ("safe", "opening"), "safe")
    'safe'
    >>> choice_field({"first": "none"}, "first", ("safe", "opening"), "safe")
    Traceback (most recent call last):
    ...
    mineshafted.web.errors.RequestError: first: "none" is not one of safe, opening
    """
    value = data.get(name)
    if value is None:
        return default
    if value not in choices:
        raise RequestError(422, f"{name}: {_shown(value)} is not one of {', '.join(choices)}")
    return str(value)


def text_field(data: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    """The string field ``name``.

    Raises
    ------
    RequestError
        422: missing (when ``required``) or not a string.
    """
    value = data.get(name)
    if value is None:
        if required:
            raise RequestError(422, f"{name}: missing")
        return None
    if not isinstance(value, str):
        raise RequestError(422, f"{name}: {_json_type(value)} is not a string")
    return value


def _loads(raw: bytes) -> Any:
    """``raw`` decoded and parsed as JSON, or a 400 naming what is wrong."""
    text = _text(raw)
    if not text.strip():
        raise RequestError(400, "the body is empty: it should be a JSON object")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(
            400, f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise RequestError(400, "not JSON that can be read: nested too deeply") from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise RequestError(400, f"not JSON that can be read: {str(error).split(';')[0]}") from None


def _text(raw: bytes) -> str:
    """``raw`` as UTF-8 text, or a 400."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(400, f"the body is not UTF-8 text (byte {error.start})") from None


def _shown(value: object) -> str:
    """``value`` as JSON, cut short if long."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # pragma: no cover - values come from JSON
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type, with an article."""
    names = {list: "a JSON array", str: "a string", int: "a number", float: "a number"}
    if isinstance(value, bool):
        return "a boolean"
    return names.get(type(value), "null" if value is None else "a JSON object")
