"""Bodies: the request bodies read in a worker, where a position may be a million cells.

A position is read by the very reader of ``mineshafted probabilities``
(:func:`~mineshafted.probability.parse_position`), so the API takes exactly the files that
command takes, and says what is wrong with one in the same words. Every other body is
validated by its model (:mod:`.schema`), by FastAPI in the server or here in a worker.
Anything wrong is a :class:`~.errors.RequestError` with status 422 (400 for what is not
JSON at all) and a one-line message naming the field.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticCustomError

from ..errors import MineshaftedError
from ..probability import PositionFile, parse_position
from .errors import RequestError
from .refusals import json_type, shown, validation_error
from .requests import check_cell

__all__ = ["cell_field", "json_object", "position", "position_and_cell", "validated"]

M = TypeVar("M", bound=BaseModel)


def json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object.

    Raises
    ------
    RequestError
        400: not UTF-8, not JSON, nested too deeply, an integer of thousands of digits;
        422: not an object.

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
        raise RequestError(422, f"the body is {json_type(data)}, not an object")
    return data


def validated(model: type[M], raw: bytes) -> M:
    """The body as ``model``, validated as FastAPI validates a route's body.

    Raises
    ------
    RequestError
        As :func:`json_object`; 422 naming the field the model refuses.
    """
    try:
        return model.model_validate(json_object(raw))
    except ValidationError as error:
        raise validation_error(error.errors()) from None


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
        raise RequestError(422, f"{name}: {shown(value)} is not a cell [row, column]")
    try:
        return check_cell(value, rows, cols, name=name)
    except PydanticCustomError as error:
        raise RequestError(422, error.message()) from None


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
