"""The grading options: what changes a grade, one validated model for every way of grading.

A single grade (``grade FILE``), a class run (``grade class``: recorded in its ``run.json``,
so that a resumed run grades with the same) and an autograder (built into its
``autograder.json``) take the same :class:`GradeOptions`, made from the command line's flags
or read from one of those files, and checked the same way either way: a ``"memory_mb":
Infinity`` in a file is refused exactly as ``--memory inf`` is, in one line naming the file
and the key, or the flag.

The import rule
---------------
``--allow MODULES`` names the modules the assignment allows. The modules a submission may
import (:attr:`GradeOptions.permitted`) are those, the annotation modules every file may use
(``typing``, ``__future__``), and every module the starter file (``--starter``) imports: the
course gave that code to every student. A disallowed import is found in the source (the
gradebook and the feedback flag its lines) and, with ``--disallowed block`` (the default),
refused at run time too, so a board that makes it crashes; with ``--disallowed flag`` the
boards run with the import permitted and only the flag remains, for the instructor to judge.
Without ``--allow`` no import is checked.

The time budget
---------------
A sweep that hangs would cost one full timeout per board: 32 boards at the default 30 s
is 16 minutes for one student. So once :attr:`GradeOptions.max_timeouts` boards of a
submission have timed out (default 2), its remaining boards are not run: each is recorded
as *out of time* (:attr:`~.result.Verdict.OUT_OF_TIME`, not solved), and the report, the
gradebook and the feedback say so. ``--max-timeouts 0`` runs every board whatever happens.

Glossary
--------
grading options
    What changes a grade (:class:`GradeOptions`); not how many are graded at once, or where
    the output goes.
permitted modules
    What a submission may import under ``--allow``: :func:`permitted`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .errors import GradingError
from .imports import disallowed, permitted
from .sandbox import Sandbox

__all__ = [
    "DEFAULT_MAX_TIMEOUTS",
    "MAX_MEMORY_MB",
    "MAX_TIMEOUT",
    "MIN_MEMORY_MB",
    "MIN_TIMEOUT",
    "Disallowed",
    "GradeOptions",
    "GradeOptionsError",
]

MIN_TIMEOUT = 0.1
"""The shortest wall-clock limit of a board, in seconds."""

MAX_TIMEOUT = 86_400.0
"""The longest: a day."""

MIN_MEMORY_MB = 64
"""The least memory a board may have, in MiB: an interpreter needs some."""

MAX_MEMORY_MB = 1024 * 1024
"""The most, in MiB: a tebibyte (the limit must fit the kernel's)."""

DEFAULT_MAX_TIMEOUTS = 2
"""Boards of one submission that may time out before its remaining boards are not run."""

MAX_MAX_TIMEOUTS = 10_000

_MAX_MODULES = 1000
_MAX_NAME = 255


class Disallowed(StrEnum):
    """``--disallowed``: what a disallowed import costs beyond the flag in the gradebook."""

    BLOCK = "block"
    """Refused at run time: a board whose sweep makes the import crashes."""
    FLAG = "flag"
    """Only flagged: the boards run with the import permitted."""


class GradeOptionsError(GradingError):
    """An option that is not one: a flag's value, or a key of a settings file.

    Attributes
    ----------
    where:
        The flag (``--memory``), or the file and its key (``run.json: "memory_mb"``).
    reason:
        What is wrong, as a phrase.
    """

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class GradeOptions:
    """What changes a grade: the limits, the sandbox, the import rule, the time budget.

    Every field is checked when the object is made, and :meth:`from_json` reads a file's
    options through the same checks.

    Raises
    ------
    GradeOptionsError
        A field is out of its range or of the wrong type, named by its flag.

    Examples
    --------
    >>> options = GradeOptions(allow=frozenset({"itertools"}))
    >>> sorted(options.permitted or ())
    ['__future__', 'itertools', 'typing', 'typing_extensions']
    >>> GradeOptions.from_json(options.to_json(), "run.json") == options
    True
    >>> GradeOptions(memory_mb=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mineshafted.grading.options.GradeOptionsError: --memory: must be a whole number of MiB ...
    """

    file: str | None = None
    """The file to grade in each student's (or submission's) folder; ``None``: its only
    ``.py`` file. Not used by a single grade."""
    allow: frozenset[str] | None = None
    """The modules ``--allow`` names; ``None``: no import is checked."""
    timeout: float | None = None
    """Wall-clock seconds per board (and for the import); ``None``:
    :func:`~.limits.board_timeout` of each board."""
    memory_mb: int = 1024
    """Memory per board, in MiB (:class:`~.limits.Limits`)."""
    sandbox: Sandbox | None = None
    """What isolates each board; ``None``: bubblewrap where it runs."""
    permitted: frozenset[str] | None = None
    """The modules a submission may import: :func:`permitted` of :attr:`allow` and the
    starter (made from :attr:`allow` alone when not given; ``None`` without it)."""
    disallowed: Disallowed = Disallowed.BLOCK
    """What a disallowed import costs beyond its flag."""
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    """Boards that may time out before the submission's remaining boards are not run
    (out of time); 0: no limit."""

    def __post_init__(self) -> None:
        for name, (flag, check) in _FIELDS.items():
            try:
                value = check(getattr(self, name))
            except ValueError as error:
                raise GradeOptionsError(flag, str(error)) from None
            object.__setattr__(self, name, value)
        if self.allow is None:
            if self.permitted is not None:
                raise GradeOptionsError("--starter", "permitted modules without --allow")
            if self.disallowed is not Disallowed.BLOCK:
                raise GradeOptionsError("--disallowed", "no import is checked without --allow")
        elif self.permitted is None:
            object.__setattr__(self, "permitted", permitted(self.allow, None))

    def with_starter(self, starter: bytes | None) -> GradeOptions:
        """These options with the starter file's imports permitted too (under ``--allow``).

        Raises
        ------
        GradeOptionsError
            The starter does not parse as Python.
        """
        if self.allow is None or starter is None:
            return self
        try:
            modules = permitted(self.allow, starter)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            raise GradeOptionsError("--starter", f"does not parse as Python: {error}") from None
        return replace(self, permitted=modules)

    @property
    def run_time_allow(self) -> frozenset[str] | None:
        """What the child refuses imports outside of: :attr:`permitted` when disallowed
        imports are blocked, else ``None`` (no run-time check)."""
        return self.permitted if self.disallowed is Disallowed.BLOCK else None

    def findings(self, source: str | bytes) -> list[str]:
        """The imports of ``source`` the options do not permit, found statically, as phrases
        (``line 3: imports numpy``); none without ``--allow``, or for a source that does not
        parse (it does not import either, and the grade says why).

        Notes
        -----
        O(size of the source): one walk of its syntax tree (:func:`.imports.disallowed`).
        """
        if self.permitted is None:
            return []
        try:
            return [str(finding) for finding in disallowed(source, self.permitted)]
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return []

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object (what :meth:`from_json` reads)."""
        return {
            "file": self.file,
            "allow": _listed(self.allow),
            "timeout": self.timeout,
            "memory_mb": self.memory_mb,
            "sandbox": self.sandbox.value if self.sandbox is not None else None,
            "permitted": _listed(self.permitted),
            "disallowed": self.disallowed.value,
            "max_timeouts": self.max_timeouts,
        }

    @classmethod
    def from_json(cls, data: object, source: str) -> GradeOptions:
        """The options in a JSON object read from ``source`` (a file's name, for errors).

        A key that is missing takes its default, so the files of earlier versions are read
        as they were written: without ``"permitted"`` the rule of the time (the modules
        ``"allow"`` names and ``__future__``), without ``"max_timeouts"`` no limit (0).

        Raises
        ------
        GradeOptionsError
            ``data`` is not an object, or a value is not one the flag would take (named as
            ``source: "key"``).
        """
        if not isinstance(data, dict):
            raise GradeOptionsError(source, f"the options are not a JSON object: {_shown(data)}")
        values: dict[str, Any] = {}
        for name, (_, check) in _FIELDS.items():
            if name in data:
                try:
                    values[name] = check(_from_json(name, data[name]))
                except ValueError as error:
                    raise GradeOptionsError(f'{source}: "{name}"', str(error)) from None
        if "permitted" not in data and values.get("allow") is not None:
            values["permitted"] = values["allow"] | {"__future__"}
        values.setdefault("max_timeouts", 0)
        try:
            return cls(**values)
        except GradeOptionsError as error:
            raise GradeOptionsError(f"{source}: {error.where}", error.reason) from None

    def differences(self, other: GradeOptions) -> list[str]:
        """The options ``other`` gives differently, as ``--flag VALUE`` (these options')."""
        found = []
        mine, theirs = self.to_json(), other.to_json()
        for field in fields(self):
            key = field.name
            if mine[key] == theirs[key]:
                continue
            flag = _FIELDS[key][0]
            value = mine[key]
            if key == "permitted":
                found.append(f"--starter (imports permitted: {', '.join(value or ['none'])})")
            else:
                shown = ",".join(value) if isinstance(value, list) else value
                found.append(f"{flag} {shown if value is not None else '(not given)'}")
        return found


def _listed(modules: frozenset[str] | None) -> list[str] | None:
    return sorted(modules) if modules is not None else None


def _shown(value: object) -> str:
    """A value as JSON writes it (``null``, ``true``, ``"x"``, ``Infinity``), cut short."""
    if isinstance(value, (set, frozenset)):
        value = sorted(map(str, value))
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object, least: int, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _timeout(value: object) -> float | None:
    if value is None:
        return None
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and MIN_TIMEOUT <= value <= MAX_TIMEOUT
    ):
        return float(value)
    raise ValueError(
        f"must be a number of seconds from {MIN_TIMEOUT:g} to {MAX_TIMEOUT:g}, not {_shown(value)}"
    )


def _memory(value: object) -> int:
    if _whole(value, MIN_MEMORY_MB, MAX_MEMORY_MB):
        return value  # type: ignore[return-value]
    raise ValueError(
        f"must be a whole number of MiB from {MIN_MEMORY_MB} to {MAX_MEMORY_MB}, "
        f"not {_shown(value)}"
    )


def _max_timeouts(value: object) -> int:
    if _whole(value, 0, MAX_MAX_TIMEOUTS):
        return value  # type: ignore[return-value]
    raise ValueError(
        f"must be a whole number from 0 (no limit) to {MAX_MAX_TIMEOUTS}, not {_shown(value)}"
    )


def _modules(dotted: bool) -> Callable[[object], frozenset[str] | None]:
    def check(value: object) -> frozenset[str] | None:
        if value is None:
            return None
        if not isinstance(value, (frozenset, set)) or len(value) > _MAX_MODULES:
            raise ValueError(f"must be a list of at most {_MAX_MODULES} module names")
        for name in value:
            if not _module_name(name, dotted):
                raise ValueError(f"{_shown(name)} is not a module name")
        return frozenset(value)

    return check


def _module_name(name: object, dotted: bool) -> bool:
    if not isinstance(name, str) or not name or len(name) > _MAX_NAME:
        return False
    parts = name.split(".") if dotted else [name]
    return all(part.isidentifier() for part in parts)


def _file(value: object) -> str | None:
    if value is None:
        return None
    if (
        isinstance(value, str)
        and value not in ("", ".", "..")
        and "/" not in value
        and "\0" not in value
        and len(value) <= _MAX_NAME
    ):
        return value
    raise ValueError(f"{_shown(value)} is not a file name (no folder in it)")


def _sandbox(value: object) -> Sandbox | None:
    if value is None or isinstance(value, Sandbox):
        return value
    if isinstance(value, str) and value in {s.value for s in Sandbox}:
        return Sandbox(value)
    choices = " or ".join(s.value for s in Sandbox)
    raise ValueError(f"must be {choices}, not {_shown(value)}")


def _disallowed(value: object) -> Disallowed:
    if isinstance(value, str) and value in {d.value for d in Disallowed}:
        return Disallowed(value)
    raise ValueError(f"must be block or flag, not {_shown(value)}")


def _from_json(name: str, value: object) -> object:
    """A JSON value as the field's check takes it: a list of modules as a set."""
    if name in ("allow", "permitted") and isinstance(value, list):
        if not all(isinstance(item, str) for item in value):
            raise ValueError("must be a list of module names")
        return frozenset(value)
    if name in ("allow", "permitted") and value is not None:
        raise ValueError(f"must be a list of module names, not {_shown(value)}")
    return value


_FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "file": ("--file", _file),
    "allow": ("--allow", _modules(dotted=False)),
    "timeout": ("--timeout", _timeout),
    "memory_mb": ("--memory", _memory),
    "sandbox": ("--sandbox", _sandbox),
    "permitted": ("--starter", _modules(dotted=True)),
    "disallowed": ("--disallowed", _disallowed),
    "max_timeouts": ("--max-timeouts", _max_timeouts),
}
"""Each field: its flag, and the check that makes a value of it (or says why not)."""
