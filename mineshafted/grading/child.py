"""The grading child: one submission's ``sweep_mines`` against a manager that asks the parent.

Run by :mod:`mineshafted.grading` as a script in a fresh interpreter::

    python -I _grader_child.py SUBMISSION ROWS COLS READ_FD WRITE_FD [--check]

This file imports nothing from the package, so the process holds nothing of the grader's.
The hidden board never enters it: ``move`` sends the index to the parent over a pipe and the
parent answers with that one clue. Messages are JSON, one per line:

- child -> parent: ``{"ready": true}`` (imported), ``{"start": true}`` (sweep begins),
  ``{"move": i}``, ``{"result": board}``, ``{"error": {"type": ..., "message": ...}}``;
- parent -> child: ``{"clue": n}``, ``{"mine": true}`` (the game is over),
  ``{"over": true}`` (it already was), ``{"bad": "message"}`` (an index it refuses).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from typing import Any, BinaryIO


class _Channel:
    """The two pipe ends to the parent."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._in: BinaryIO = open(read_fd, "rb")  # noqa: SIM115 - lives as long as the process
        self._out: BinaryIO = open(write_fd, "wb")  # noqa: SIM115

    def send(self, message: dict[str, Any]) -> None:
        self._out.write(json.dumps(message).encode() + b"\n")
        self._out.flush()

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self.send(message)
        line = self._in.readline()
        if not line:
            raise SystemExit(3)  # the parent has gone: nothing left to do
        reply: dict[str, Any] = json.loads(line)
        return reply


class BoardManager:
    """The Mine Shafted starter's interface, backed by the parent.

    ``size`` is ``(rows, cols)``; ``move(index)`` returns the clue, or raises a bare
    ``RuntimeError`` on a mine (and on every move after it); ``get_adjacent(index)`` lists
    the up-to-8 neighbours in row-major order.
    """

    def __init__(self, rows: int, cols: int, channel: _Channel) -> None:
        self.size = (rows, cols)
        self._channel = channel

    def move(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a cell index must be an int, not {index!r}")
        reply = self._channel.ask({"move": int(index)})
        if "clue" in reply:
            return int(reply["clue"])
        if "bad" in reply:
            raise IndexError(reply["bad"])
        raise RuntimeError

    def get_adjacent(self, index: int) -> list[int]:
        rows, cols = self.size
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < rows * cols:
            raise IndexError(f"cell index {index!r} is outside 0..{rows * cols - 1}")
        row, col = divmod(index, cols)
        return [
            r * cols + c
            for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols))
            if (r, c) != (row, col)
        ]


def _describe(error: BaseException) -> dict[str, str]:
    message = str(error)
    return {"type": type(error).__name__, "message": message[:500]}


def _load(path: str) -> Any:
    """Import the submission from its file, with its folder importable."""
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("submission", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = module
    spec.loader.exec_module(module)
    sweep = getattr(module, "sweep_mines", None)
    if not callable(sweep):
        raise AttributeError("the submission defines no function sweep_mines(bm)")
    return sweep


def main(argv: list[str]) -> None:
    path, rows, cols, read_fd, write_fd = argv[:5]
    channel = _Channel(int(read_fd), int(write_fd))
    try:
        sweep = _load(path)
    except BaseException as error:
        channel.send({"error": {"stage": "import", **_describe(error)}})
        return
    channel.send({"ready": True})
    if "--check" in argv[5:]:
        return
    manager = BoardManager(int(rows), int(cols), channel)
    channel.send({"start": True})
    try:
        result = sweep(manager)
    except BaseException as error:
        channel.send({"error": _describe(error)})
        return
    try:
        channel.send({"result": result})
    except (TypeError, ValueError):
        channel.send({"result": None, "unreadable": repr(result)[:200]})


if __name__ == "__main__":
    main(sys.argv[1:])
