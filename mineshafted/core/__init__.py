"""The core: which form of the hot paths runs, the plain Python one or the compiled one.

The package's hot paths are Python functions (the *plain core*: the specification, and the
fallback). Some of them have a compiled form in :mod:`mineshafted.core._compiled`, a C
extension that ``pip install`` builds where the machine has a C compiler (the *compiled
core*). A plain function asks :data:`kernels` at each call: ``None`` runs its own Python
body, else it calls the kernel, which answers exactly what the Python body would (the tests
check each kernel against its plain form with both cores, ``tests/core/``). A kernel answers
``None`` for an input outside what it handles, and the Python body then runs.

Which core runs: the compiled one where it was built, else the plain one; the environment
variable ``MINESHAFTED_CORE`` (``auto``, ``plain`` or ``compiled``, read at import) or the
command line's ``--core`` chooses; :func:`use` chooses inside a block.

Glossary
--------
core
    The form the hot paths run in: *plain* (Python) or *compiled* (C).
kernel
    One function of the compiled core, standing in for the Python body of one plain
    function (``count`` for :func:`mineshafted.solver.count.count_component`, ``flood`` for
    the zero region a reveal shows in :class:`mineshafted.game.Game`, ``revise`` for a step
    of :meth:`mineshafted.solver.csp.ClueCSP.propagate`'s AC-3).

Examples
--------
>>> with use("plain"):
...     active()
'plain'
>>> with use("auto"):
...     active() == ("compiled" if available() else "plain")
True
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import import_module
from typing import Any, Final, Literal, Protocol

from ..errors import MineshaftedError

__all__ = [
    "CHOICES",
    "ENV",
    "Choice",
    "CoreError",
    "Counted",
    "Kernels",
    "active",
    "available",
    "describe",
    "kernels",
    "select",
    "use",
]

log = logging.getLogger(__name__)

ENV: Final = "MINESHAFTED_CORE"
"""The environment variable that chooses the core: ``auto`` (the default), ``plain``,
``compiled``."""

Choice = Literal["auto", "plain", "compiled"]
CHOICES: Final[tuple[Choice, ...]] = ("auto", "plain", "compiled")
"""What may be chosen: ``auto`` is the compiled core where it was built, else the plain one."""

MODULE: Final = "mineshafted.core._compiled"
"""The compiled core's module."""


Counted = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[tuple[int, ...], ...]]
"""A count as the ``count`` kernel gives it: a :class:`~mineshafted.solver.count.Count`'s
``classes``, ``placements`` and ``mined``."""


class Kernels(Protocol):
    """The compiled core's functions, as its plain callers see them (``_compiled.c``)."""

    MAX_CELLS: int

    def count(
        self, constraints: Sequence[tuple[Sequence[int], int]], limit: float, /
    ) -> Counted | int | None:
        """:func:`~mineshafted.solver.count.count_component`'s ``(classes, placements,
        mined)``; the component's cells when the tables would pass ``limit`` bytes; ``None``
        for an input it does not count."""

    def combine(
        self,
        counts: Sequence[object],
        unconstrained: Sequence[int],
        mines_left: int,
        ways: Sequence[int],
        /,
    ) -> tuple[int, dict[int, int]] | None:
        """:func:`~mineshafted.solver.total.combine`'s ``placements`` and ``mined``, given its
        binomials ``ways``; ``None`` where the frontier is too wide for its counts."""

    def components(
        self, constraints: Iterable[tuple[tuple[int, ...], int]], /
    ) -> list[list[tuple[tuple[int, ...], int]]] | None:
        """:func:`mineshafted.solver.components`, as a list; ``None`` for an input it does
        not take."""

    def explore(
        self,
        explorer: object,
        move: Callable[[int], int],
        adjacent: Callable[[int], Iterable[int]],
        states: tuple[object, object, object, object],
        /,
    ) -> list[int]:
        """:meth:`mineshafted.solver.Explorer.explore` on ``explorer``'s own state (``states``:
        the cell states UNKNOWN, SAFE, EXPLORED, MINE)."""

    def cells(
        self, states: Sequence[object], state: object, around: Sequence[object] | None, /
    ) -> list[int] | None:
        """The cells whose entry of ``states`` is ``state``, ascending; with ``around``,
        only those whose entry there is true (:meth:`mineshafted.solver.Explorer.frontier`,
        the unknown cells of :meth:`mineshafted.solver.Sweep.position`); ``None`` for an
        input that is not lists."""

    def endgame(
        self,
        mined: tuple[int, ...],
        shows: tuple[tuple[int, ...], ...],
        weights: tuple[tuple[int, int], ...],
        placements: int,
        nodes: int,
        /,
    ) -> tuple[int, int] | int | None:
        """:meth:`mineshafted.probability.endgame._Search.root`'s cell index and wins, given
        the layout's ``mined``, ``shows``, ``weights`` and number of ``placements``; the sets
        remembered (an int) when the search ran out of ``nodes``; ``None`` for an input it
        does not search (a weight of 64 bits or more)."""

    def layout(
        self,
        cells: tuple[int, ...],
        found: tuple[int, ...],
        around: tuple[tuple[int, ...], ...],
        /,
    ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
        """:meth:`mineshafted.probability.endgame._Layout.of`'s ``mined`` and ``shows``,
        given the board's neighbour table; ``None`` for an input it does not take (more than
        64 cells)."""

    def regions(
        self,
        cells: list[int],
        around: tuple[tuple[int, ...], ...],
        components: list[list[tuple[tuple[int, ...], int]]],
        /,
    ) -> list[list[int]] | None:
        """:func:`mineshafted.probability.regions.regions`, given the position's unknown
        ``cells``, the board's neighbour table and the position's ``components``; ``None``
        for an input it does not take."""

    def revise(
        self,
        cell: int,
        fresh: bool,
        variables: Mapping[int, object],
        arcs: Mapping[int, object],
        narrowed: Callable[[Any], None],
        /,
    ) -> bool | None:
        """One step of :meth:`mineshafted.solver.csp.ClueCSP.propagate`'s AC-3: the variable
        at ``cell`` taken off the queue (``fresh``: revised against each neighbour; else each
        neighbour revised against it), ``narrowed`` called where the plain loop calls
        ``_narrowed``; ``True`` when taken, ``None`` for an input it does not take (a scope
        of more than 16 cells), before anything changed."""

    def flood(
        self,
        shown: list[int | None],
        flags: set[int],
        neighbours: tuple[tuple[int, ...], ...],
        values: tuple[int, ...],
        zero: int,
        /,
    ) -> tuple[tuple[int, int], ...]:
        """The zero region shown around ``zero``, as a reveal shows it."""


class CoreError(MineshaftedError, ValueError):
    """A core was asked for that cannot run: an unknown name, or the compiled core where it
    was not built (``why`` says what importing it answered)."""

    def __init__(self, message: str, *, choice: str, why: str | None = None) -> None:
        self.choice = choice
        self.why = why
        super().__init__(message)


def _load() -> tuple[Kernels | None, str | None]:
    """The compiled core, or ``None`` and why it cannot be imported."""
    try:
        module: Kernels = import_module(MODULE)
    except ImportError as error:
        return None, str(error)
    return module, None


_compiled, _missing = _load()

kernels: Kernels | None = _compiled
"""The compiled core when it runs, else ``None``: what a plain function asks at each call."""

_chosen: Choice = "auto"
_ignored: str | None = None
"""What was wrong with :data:`ENV`, when its value could not be honoured at import."""


def available() -> bool:
    """Whether the compiled core was built and imports here."""
    return _compiled is not None


def active() -> Literal["plain", "compiled"]:
    """The core that runs now."""
    return "plain" if kernels is None else "compiled"


def select(choice: str) -> None:
    """Run ``choice`` from now on: ``auto``, ``plain`` or ``compiled``.

    Raises
    ------
    CoreError
        ``choice`` is not one of :data:`CHOICES`, or is ``compiled`` where the compiled core
        was not built; nothing changes.
    """
    global kernels, _chosen
    if choice not in CHOICES:
        raise CoreError(
            f"core {choice!r}: choose one of {', '.join(CHOICES)}", choice=choice, why=None
        )
    if choice == "compiled" and _compiled is None:
        raise CoreError(
            f"core 'compiled': the compiled core is not built here ({_missing}); reinstall "
            "with a C compiler, or choose auto or plain",
            choice=choice,
            why=_missing,
        )
    kernels = None if choice == "plain" else _compiled
    _chosen = choice
    log.debug("core: %s (chosen: %s)", active(), choice)


@contextmanager
def use(choice: str) -> Iterator[None]:
    """Run ``choice`` inside the block, then the core chosen before.

    Raises
    ------
    CoreError
        As :func:`select`.
    """
    before = _chosen
    select(choice)
    try:
        yield
    finally:
        select(before)


def describe() -> str:
    """One line: the core that runs, and why (for ``mineshafted --version``).

    Examples
    --------
    >>> with use("plain"):
    ...     describe()
    'core: plain (Python), chosen'
    """
    if kernels is not None:
        line = f"core: compiled (C, {MODULE})"
    elif _chosen == "plain":
        line = "core: plain (Python), chosen"
    else:
        line = f"core: plain (Python); the compiled core is not built here ({_missing})"
    return line if _ignored is None else f"{line}; {_ignored}"


def _from_environment() -> str | None:
    """Apply :data:`ENV` at import; a value that cannot be honoured leaves the default, and
    what was wrong is returned (:func:`describe` says it; the command line refuses such a
    value in one line, exit status 2)."""
    choice = os.environ.get(ENV, "").strip().lower()
    if not choice:
        return None
    try:
        select(choice)
    except CoreError as error:
        log.info("%s=%s ignored: %s", ENV, os.environ[ENV], error)
        return f"{ENV}={os.environ[ENV]!r} ignored: {error}"
    return None


_ignored = _from_environment()
