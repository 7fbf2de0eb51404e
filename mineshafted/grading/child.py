"""The grading child: one submission's ``sweep_mines`` against a manager that asks the parent.

Run by :mod:`mineshafted.grading` as a script in a fresh interpreter (POSIX only)::

    python -I -B child.py --memory BYTES --cpu SECONDS --file-size BYTES --processes N
        [--parent PID] [--check] SUBMISSION ROWS COLS READ_FD WRITE_FD

With ``--parent`` (outside a sandbox) it first asks the kernel to kill it when the grader
dies (``PR_SET_PDEATHSIG``), and exits at once if the grader ``PID`` is already gone.

First thing, before it imports the submission, it sets its own limits with
``resource.setrlimit`` (address space, CPU time, file size, processes, no core file; soft and hard
alike, so the submission cannot raise them again). It imports nothing from the package, so
the process holds nothing of the grader's. The hidden board never enters it: ``move`` sends
the index to the parent over a pipe and the parent answers with that one clue. Messages are
JSON, one object with one key per line, in this order:

- child -> parent: ``{"ready": true}`` (imported) or ``{"error": ...}`` (the import raised);
  then ``{"start": true}`` (the sweep is about to begin), any number of ``{"move": i}``, and
  one answer: ``{"result": board}``, ``{"unreadable": {"type": ..., "repr": ...}}`` (a value
  JSON cannot carry) or ``{"error": {"type": ..., "message": ...}}``;
- parent -> child: ``{"go": true}`` to the start (the child calls ``sweep_mines`` only then,
  so the parent's clock, started before it answers, never misses any of the sweep however
  busy the machine), then to each move ``{"clue": n}``, ``{"mine": true}`` (the game is
  over), ``{"over": true}`` (it already was) or ``{"bad": "message"}`` (an index it refuses).

If the channel breaks (the submission closed it, or the parent is gone), the child exits at
once with status 3. The parent's half, and these names, are in ``protocol.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import reprlib
import sys
from typing import Any, BinaryIO, NoReturn

CHANNEL_LOST = 3
"""Exit status when the channel to the parent breaks (``protocol.CHANNEL_LOST``)."""

_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxstring = 60
_REPR.maxother = 60


class _Channel:
    """The two pipe ends to the parent."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._in: BinaryIO = open(read_fd, "rb")  # noqa: SIM115 - lives as long as the process
        self._out: BinaryIO = open(write_fd, "wb")  # noqa: SIM115

    def send(self, message: dict[str, Any]) -> None:
        """Send one message; raises only if ``message`` is not JSON (before sending anything)."""
        data = json.dumps(message).encode() + b"\n"
        try:
            self._out.write(data)
            self._out.flush()
        except (OSError, ValueError):
            _lost()

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and read the reply."""
        self.send(message)
        try:
            reply: dict[str, Any] = json.loads(self._in.readline())
        except (OSError, ValueError):  # closed, or the parent has gone (an empty line)
            _lost()
        return reply


class BoardManager:
    """The Mine Shafted starter's interface, backed by the parent.

    ``size`` is ``(rows, cols)``; ``move(index)`` returns the clue, or raises a bare
    ``RuntimeError`` on a mine (and on every move after it), or ``IndexError`` for an index
    outside the board; ``get_adjacent(index)`` lists the up-to-8 neighbours in row-major
    order.
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


def main(argv: list[str]) -> None:
    options = _options(argv)
    sys.dont_write_bytecode = True  # no __pycache__ beside the submission, even without -B
    if options.parent:
        _die_with(options.parent)
    _limit(options.memory, options.cpu, options.file_size, options.processes)
    channel = _Channel(options.read_fd, options.write_fd)
    try:
        sweep = _load(options.submission)
    except BaseException as error:
        channel.send({"error": _describe(error)})
        return
    channel.send({"ready": True})
    if options.check:
        return
    manager = BoardManager(options.rows, options.cols, channel)
    channel.ask({"start": True})  # the answer is "go": the parent's clock is running
    try:
        result = sweep(manager)
    except BaseException as error:
        channel.send({"error": _describe(error)})
        return
    try:
        channel.send({"result": result})
    except Exception:  # TypeError (a set), ValueError (a cycle), RecursionError (too deep)...
        channel.send({"unreadable": {"type": type(result).__name__, "repr": _short(result)}})


def _options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="child.py")
    parser.add_argument("--memory", type=int, required=True)
    parser.add_argument("--cpu", type=int, required=True)
    parser.add_argument("--file-size", type=int, required=True)
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--parent", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    for name in ("submission", "rows", "cols", "read_fd", "write_fd"):
        parser.add_argument(name, type=str if name == "submission" else int)
    return parser.parse_args(argv)


def _limit(memory: int, cpu: int, file_size: int, processes: int) -> None:
    """Limit this process, soft and hard alike (never above a hard limit already set)."""
    import resource  # POSIX only; the grader itself never imports it

    for which, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, file_size),
        (resource.RLIMIT_NPROC, processes),
        (resource.RLIMIT_CORE, 0),
    ):
        hard = resource.getrlimit(which)[1]
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


def _die_with(parent: int) -> None:
    """Be killed when ``parent`` dies (Linux); exit now if it already has."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the grader's sweep is all there is
        return
    if os.getppid() != parent:  # it died before the line above: nobody would kill us
        os._exit(CHANNEL_LOST)


_PR_SET_PDEATHSIG = 1
"""``prctl``'s option: the signal this process gets when its parent thread ends."""


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


def _describe(error: BaseException) -> dict[str, str]:
    try:
        message = str(error)
    except Exception:
        message = "(an exception whose message cannot be read)"
    return {"type": type(error).__name__, "message": message[:500]}


def _short(value: Any) -> str:
    """A short repr, safe for cycles, huge values and a ``__repr__`` that raises."""
    try:
        return _REPR.repr(value)[:200]
    except Exception:
        return f"<{type(value).__name__} object>"


def _lost() -> NoReturn:
    """The channel is broken: flush what was printed and exit at once."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(CHANNEL_LOST)


if __name__ == "__main__":
    main(sys.argv[1:])
