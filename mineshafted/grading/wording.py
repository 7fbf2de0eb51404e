"""What happened on a board, in a student's words: the one place the grader words it.

Every output that says what went wrong takes its words from here, so they all say the same
thing: a board's ``detail`` (the text report, ``grades.json``, the report's JSON, the
gradebook's notes of a submission that cannot be graded), the feedback's Markdown and HTML,
the ending of a replay, and Gradescope's and PrairieLearn's tests.

A cell is named by its index first, as the assignment names it (``bm.move(index)``), then by
its row and column: ``cell 8 (row 1, column 3)``; in a list, ``8 (1, 3), 9 (1, 4)``.

Glossary
--------
misfit
    A ``sweep_mines`` that does not fit the assignment's contract (:data:`CONTRACT`): none,
    not a function, a class, a generator, a coroutine, or one that cannot be called with the
    manager alone (:class:`Misfit`).
frame
    A line of the submission's own code in the traceback of an exception it raised
    (:class:`Frame`).
loop
    The moves a sweep made after its last move onto a new cell (:class:`~.result.Loop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

from .result import BoardResult, Loop, Verdict

__all__ = [
    "CONTRACT",
    "NOT_RUN",
    "SHOWN_CELLS",
    "Frame",
    "Misfit",
    "cell",
    "cell_list",
    "counted",
    "crash",
    "exploded",
    "loop",
    "loop_matters",
    "misfit",
    "never_explored",
    "returned",
    "unimportable",
    "wrong_board",
    "wrong_cell",
]

CONTRACT = "sweep_mines(bm) takes the manager and returns the board as a list of rows"
"""The assignment's contract, as every misfit's sentence ends."""

NOT_RUN = "not run: your sweep used up its time on earlier boards"
"""Why a board is :attr:`~.result.Verdict.OUT_OF_TIME`."""

SHOWN_CELLS = 20
"""Cells a list names at most in the feedback (the rest are counted)."""

DETAIL_CELLS = 5
"""Cells a board's one-line ``detail`` names at most."""


def cell(index: int, cols: int) -> str:
    """One cell, index first.

    Examples
    --------
    >>> cell(8, 5)
    'cell 8 (row 1, column 3)'
    """
    row, col = divmod(index, cols)
    return f"cell {index} (row {row}, column {col})"


def cell_list(cells: Sequence[int], cols: int, *, shown: int = SHOWN_CELLS) -> str:
    """Cells, each index first, the first ``shown`` of them named and the rest counted.

    Examples
    --------
    >>> cell_list([8, 9, 12], 5), cell_list([8, 9, 12], 5, shown=2)
    ('8 (1, 3), 9 (1, 4), 12 (2, 2)', '8 (1, 3), 9 (1, 4) and 1 more')
    """
    named = ", ".join(f"{c} ({c // cols}, {c % cols})" for c in cells[:shown])
    more = len(cells) - shown
    return f"{named} and {more:,} more" if more > 0 else named


def counted(n: int, what: str = "cell") -> str:
    """``n`` and the noun, singular or plural.

    Examples
    --------
    >>> counted(1), counted(1234, "safe cell")
    ('1 cell', '1,234 safe cells')
    """
    return f"{n:,} {what}{'s' * (n != 1)}"


# A submission's exception.


class Frame(NamedTuple):
    """A line of the submission's code in a traceback (innermost last in a list of them)."""

    file: str
    """The file's name (no folder)."""
    line: int
    function: str
    """The function's name (``<module>`` for the file's top level; ``""`` when unknown)."""
    text: str
    """The line's text, stripped (``""`` when it cannot be read)."""
    times: int = 1
    """How many calls in a row were made from this line (a recursion: more than 1)."""


def crash(kind: str, message: str, frames: Sequence[Frame] = (), skipped: int = 0) -> str:
    """An exception the submission raised, with where in its own code: one line.

    Parameters
    ----------
    frames:
        The submission's own frames, innermost last (the last few of them).
    skipped:
        The submission's frames before ``frames``, left out.

    Examples
    --------
    >>> frames = [Frame("ann.py", 30, "sweep_mines", "n = around(grid, r, c)"),
    ...           Frame("ann.py", 12, "around", "return grid[r][c]")]
    >>> print(crash("IndexError", "list index out of range", frames))
    IndexError: list index out of range (in ann.py, innermost last: line 30, in sweep_mines: \
n = around(grid, r, c); line 12, in around: return grid[r][c])
    >>> print(crash("RecursionError", "too deep", [Frame("a.py", 5, "f", "f(n)", 996)], 3))
    RecursionError: too deep (in a.py, innermost last, 3 calls before left out: line 5, in f: \
f(n) (996 times))
    >>> print(crash("TypeError", "'BoardManager' object is not subscriptable"))
    TypeError: 'BoardManager' object is not subscriptable; bm is the manager, not the board: \
sweep_mines(bm) takes the manager and returns the board as a list of rows
    """
    said = f"{kind}: {message}" if message else kind
    if frames:
        first = frames[0].file
        shown = [_frame(f, f.file != first) for f in frames]
        before = f", {counted(skipped, 'call')} before left out" if skipped else ""
        said += f" (in {first}, innermost last{before}: {'; '.join(shown)})"
    if "BoardManager" in message:
        said += f"; bm is the manager, not the board: {CONTRACT}"
    return said


def _frame(frame: Frame, named: bool) -> str:
    """One frame: its line, function and text (its file too, when ``named``)."""
    where = f"{frame.file} line {frame.line}" if named else f"line {frame.line}"
    if frame.function and frame.function != "<module>":
        where += f", in {frame.function}"
    if frame.text:
        where += f": {frame.text}"
    if frame.times > 1:
        where += f" ({frame.times:,} times)"
    return where


class Misfit(Enum):
    """How a ``sweep_mines`` does not fit the assignment's contract (found by the child)."""

    MISSING = "missing"
    """The file defines no ``sweep_mines`` (what it found: its public functions' names)."""
    NOT_CALLABLE = "not callable"
    """``sweep_mines`` is not a function (what it found: its type's name)."""
    CLASS = "class"
    GENERATOR = "generator"
    """A generator function (it yields): an older term's interface."""
    COROUTINE = "coroutine"
    """An ``async def``."""
    PARAMETERS = "parameters"
    """It cannot be called with the manager alone (what it found: its parameters)."""


def misfit(kind: Misfit, found: str = "") -> str:
    """A misfit, as one sentence naming the contract.

    Examples
    --------
    >>> print(misfit(Misfit.PARAMETERS, "board, n"))
    sweep_mines(board, n) cannot be called with the manager alone: sweep_mines(bm) takes the \
manager and returns the board as a list of rows
    >>> print(misfit(Misfit.MISSING, "solve, sweepMines"))
    the file defines no function sweep_mines (it defines solve, sweepMines): sweep_mines(bm) \
takes the manager and returns the board as a list of rows
    """
    if kind is Misfit.MISSING:
        defined = f" (it defines {found})" if found else ""
        problem = f"the file defines no function sweep_mines{defined}"
    elif kind is Misfit.NOT_CALLABLE:
        problem = f"sweep_mines is a {found or 'value'}, not a function"
    elif kind is Misfit.CLASS:
        problem = "sweep_mines is a class, not a function"
    elif kind is Misfit.GENERATOR:
        problem = "sweep_mines is a generator (it yields), not a function that returns the board"
    elif kind is Misfit.COROUTINE:
        problem = "sweep_mines is async (it returns a coroutine), not a function"
    elif found:
        problem = f"sweep_mines({found}) cannot be called with the manager alone"
    else:
        problem = "sweep_mines() takes no argument, not the manager"
    return f"{problem}: {CONTRACT}"


_ITERATORS = frozenset({"generator", "coroutine", "async_generator"})
"""The types of value an older interface's ``sweep_mines`` returns instead of the board."""


def unimportable(detail: str) -> str:
    """Why a submission cannot be graded, from its import's detail: a misfit's sentence alone
    (it imported, but there is nothing to call with the manager), else the detail.

    Examples
    --------
    >>> unimportable("cannot be imported: SyntaxError: x")
    'cannot be imported: SyntaxError: x'
    >>> print(unimportable(f"cannot be imported: {misfit(Misfit.CLASS)}"))
    sweep_mines is a class, not a function: sweep_mines(bm) takes the manager and returns the \
board as a list of rows
    """
    rest = detail.removeprefix(_IMPORT_FAILED)
    fits = rest.startswith(_MISFITS) and rest.endswith(f": {CONTRACT}")
    return rest if fits and rest != detail else detail


_IMPORT_FAILED = "cannot be imported: "
"""How a session words a failed import (:mod:`.session`)."""

_MISFITS = ("sweep_mines", "the file defines no function sweep_mines")
"""How each misfit's sentence begins."""


def returned(kind: str, text: str) -> str:
    """A value ``sweep_mines`` returned that JSON cannot carry (its type and a short repr).

    Examples
    --------
    >>> returned("set", "{1, 2}")
    'returned a set that is not JSON: {1, 2}'
    >>> print(returned("generator", "<generator object sweep_mines at 0x7f>"))
    returned a generator, not the board: sweep_mines(bm) takes the manager and returns the \
board as a list of rows
    """
    if kind in _ITERATORS:
        return f"returned a {kind}, not the board: {CONTRACT}"
    return f"returned a {kind} that is not JSON: {text}"


# A board's verdict, in one line (its detail).


def wrong_cell(index: int, cols: int, got: str, want: int) -> str:
    """A cell of the returned board that is wrong.

    Examples
    --------
    >>> wrong_cell(2, 4, "0", 1)
    'cell 2 (row 0, column 2) is 0, not 1'
    """
    return f"{cell(index, cols)} is {got}, not {want}"


def wrong_board(first: str, count: int, unexplored: int) -> str:
    """A wrong board's detail: its first wrong cell, and how many others and how many safe
    cells the sweep never moved onto, when there are any.

    Examples
    --------
    >>> wrong_board("cell 2 (row 0, column 2) is 0, not 1", 1, 0)
    'cell 2 (row 0, column 2) is 0, not 1'
    >>> print(wrong_board("cell 2 (row 0, column 2) is None, not 1", 201, 189))
    cell 2 (row 0, column 2) is None, not 1, and 200 other cells are wrong; your sweep never \
moved onto 189 safe cells
    """
    said = first
    if count > 1:
        said += f", and {counted(count - 1, 'other cell')} {'are' if count > 2 else 'is'} wrong"
    if unexplored:
        said += f"; your sweep never moved onto {counted(unexplored, 'safe cell')}"
    return said


def never_explored(cells: Sequence[int], cols: int) -> str:
    """The detail of the right board returned before every safe cell was moved onto.

    Examples
    --------
    >>> never_explored([3, 7], 4)
    'returned the right board with 2 safe cells never moved onto: 3 (0, 3), 7 (1, 3)'
    """
    listed = cell_list(cells, cols, shown=DETAIL_CELLS)
    count = counted(len(cells), "safe cell")
    return f"returned the right board with {count} never moved onto: {listed}"


def exploded(mine: int, cols: int) -> str:
    """The detail of a move onto a mine.

    Examples
    --------
    >>> exploded(8, 5)
    'moved onto the mine at cell 8 (row 1, column 3)'
    """
    return f"moved onto the mine at {cell(mine, cols)}"


def loop(found: Loop, cols: int) -> str:
    """The moves after the sweep's last move onto a new cell.

    Examples
    --------
    >>> print(loop(Loop(15, 71_011, (3, 4), True, 2), 9))
    moves 15-71,025 repeat cells 3 (0, 3), 4 (0, 4), 3, 4, ... (the same 2 cells 35,505 times), \
never a new cell
    >>> print(loop(Loop(15, 40, (3,), True, 1), 9))
    moves 15-54 are all onto cell 3 (row 0, column 3), already moved onto
    >>> print(loop(Loop(15, 40, (3, 4, 3, 5), False, 3), 9))
    moves 15-54 go back over 3 cells already moved onto (3 (0, 3), 4 (0, 4), 3 (0, 3), 5 \
(0, 5), ...), never a new cell
    >>> print(loop(Loop(15, 2, (3, 4), False, 2), 9))
    moves 15-16 go back over 2 cells already moved onto (3 (0, 3), 4 (0, 4)), never a new cell
    >>> print(loop(Loop(15, 1, (3,), False, 1), 9))
    move 15 is onto cell 3 (row 0, column 3), already moved onto
    """
    span = f"moves {found.first:,}-{found.last:,}" if found.moves > 1 else f"move {found.first:,}"
    if found.distinct == 1:
        verb = "are all" if found.moves > 1 else "is"
        return f"{span} {verb} onto {cell(found.cells[0], cols)}, already moved onto"
    if found.periodic:
        cycle = cell_list(found.cells, cols)
        again = ", ".join(str(c) for c in found.cells[:4])
        what = (
            counted(len(found.cells))
            if found.distinct == len(found.cells)
            else (f"{len(found.cells)} moves")
        )
        return (
            f"{span} repeat cells {cycle}, {again}, ... (the same {what} "
            f"{found.repeats:,} times), never a new cell"
        )
    shown = cell_list(found.cells[:4], cols)
    more = ", ..." if found.moves > 4 else ""
    return (
        f"{span} go back over {counted(found.distinct)} already moved onto "
        f"({shown}{more}), never a new cell"
    )


def loop_matters(b: BoardResult) -> bool:
    """Whether a board's loop is part of what went wrong: a board not solved, timed out after
    it, or whose sweep went back over more moves than the board has cells."""
    if b.loop is None or b.outcome in (Verdict.SOLVED, Verdict.OUT_OF_TIME):
        return False
    return b.outcome is Verdict.TIMED_OUT or b.loop.moves > b.rows * b.cols
