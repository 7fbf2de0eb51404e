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
headline
    What the boards of a :class:`Group` share: the words that do not depend on the board.
specifics
    What one board adds to its group's headline: its cells, its loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from ..formats import Puzzle
from ..text import visible
from .result import BoardResult, Loop, Verdict

__all__ = [
    "CONTRACT",
    "NOT_RUN",
    "PICTURE",
    "SHOWN_CELLS",
    "Account",
    "Frame",
    "Group",
    "Misfit",
    "ReplayWords",
    "account",
    "cell",
    "cell_list",
    "crash",
    "exploded",
    "groups",
    "lines",
    "loop",
    "loop_matters",
    "misfit",
    "never_explored",
    "replay_words",
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


def _cells_word(n: int, what: str = "cell") -> str:
    """``n`` and the noun, singular or plural.

    Examples
    --------
    >>> _cells_word(1), _cells_word(1234, "safe cell")
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
        before = f", {_cells_word(skipped, 'call')} before left out" if skipped else ""
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
        said += f", and {_cells_word(count - 1, 'other cell')} {'are' if count > 2 else 'is'} wrong"
    if unexplored:
        said += f"; your sweep never moved onto {_cells_word(unexplored, 'safe cell')}"
    return said


def never_explored(cells: Sequence[int], cols: int) -> str:
    """The detail of the right board returned before every safe cell was moved onto.

    Examples
    --------
    >>> never_explored([3, 7], 4)
    'returned the right board with 2 safe cells never moved onto: 3 (0, 3), 7 (1, 3)'
    """
    listed = cell_list(cells, cols, shown=DETAIL_CELLS)
    count = _cells_word(len(cells), "safe cell")
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
            _cells_word(len(found.cells))
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
        f"{span} go back over {_cells_word(found.distinct)} already moved onto "
        f"({shown}{more}), never a new cell"
    )


def loop_matters(b: BoardResult) -> bool:
    """Whether a board's loop is part of what went wrong: a board not solved, timed out after
    it, or whose sweep went back over more moves than the board has cells."""
    if b.loop is None or b.outcome in (Verdict.SOLVED, Verdict.OUT_OF_TIME):
        return False
    return b.outcome is Verdict.TIMED_OUT or b.loop.moves > b.rows * b.cols


# The feedback: an account of each board, boards that failed the same way grouped.


PICTURE = "The board as your sweep had uncovered it then (`#` not moved onto, `X` the mine):"
"""What an :attr:`Account.picture` shows."""


@dataclass(frozen=True)
class Account:
    """An account of what went wrong on one board: the headline its group shares, and its
    own specifics."""

    headline: str
    specifics: tuple[str, ...] = ()
    loop: str = ""
    """The moves after the last move onto a new cell, as a sentence, when they matter (or,
    for a board timed out without them, what the sweep did last)."""
    picture: str = ""
    """The board as the sweep had uncovered it, one line per row (a move onto a mine):
    :data:`PICTURE`."""


class ReplayWords(NamedTuple):
    """What a replay of a graded board says at its end, in place of the game's status (the
    fields of :class:`mineshafted.replay.Judgement`)."""

    verdict: str
    """The board's outcome (``wrong board``): never *won* for a board not solved."""
    text: str
    """Why: the headline and the specifics, the loop left to :attr:`after`."""
    after: str = ""
    """The moves after the last step (each onto a cell already moved onto), when they
    matter."""
    cells: tuple[int, ...] = ()
    """The cells those moves went through again and again (or the first of them)."""


def replay_words(b: BoardResult, puzzle: Puzzle | None) -> ReplayWords:
    """What the replay of board ``b`` says at its end.

    Examples
    --------
    >>> b = BoardResult("b", 1, 3, 1, Verdict.WRONG, 2, 0.1, "x", wrong=((0, 2, "0", -1),))
    >>> replay_words(b, None).verdict, replay_words(b, None).text
    ('wrong board', 'Your sweep moved onto every safe cell, but the board it returned is wrong. \
Wrong at 1 cell: 2 (0, 2): you returned 0, it is -1.')
    """
    if b.outcome is Verdict.SOLVED:
        return ReplayWords(
            b.outcome.value,
            "Solved: the board returned is right, and every safe cell was moved onto.",
        )
    said = account(b, puzzle)
    text = " ".join((said.headline, *said.specifics))
    if b.loop is not None and said.loop:
        return ReplayWords(b.outcome.value, text, said.loop, b.loop.cells)
    return ReplayWords(b.outcome.value, " ".join((text, said.loop)).strip())


@dataclass(frozen=True)
class Group:
    """Boards with one outcome and one headline, in the order they were graded."""

    outcome: Verdict
    headline: str
    boards: tuple[tuple[BoardResult, Account], ...]

    @property
    def labels(self) -> str:
        """The boards' names, made visible, in one line."""
        return ", ".join(visible(b.puzzle) for b, _ in self.boards)

    @property
    def title(self) -> str:
        """``crashed on 3 boards: a, b, c``."""
        n = len(self.boards)
        return f"{self.outcome.value} on {n} board{'s' * (n != 1)}: {self.labels}"


def account(b: BoardResult, puzzle: Puzzle | None) -> Account:
    """What went wrong on one board, in the student's terms (``puzzle`` names the safe cells
    never moved onto and draws the board at a mine; without it those are left out)."""
    found = _loop_said(b)
    said = b.detail.removesuffix(f"; {loop(b.loop, b.cols)}") if b.loop and found else b.detail
    detail = visible(said)
    if b.outcome is Verdict.WRONG and b.wrong:
        return _wrong(b, puzzle, found)
    if b.outcome is Verdict.WRONG:
        return Account(f"The value your sweep returned is not the board: it {detail}.", (), found)
    if b.outcome is Verdict.NOT_EXPLORED:
        headline = (
            "You returned the right board, but your sweep did not move onto every safe cell: a "
            "sweep must move onto every safe cell, and learn the board only by moving."
        )
        return Account(headline, _unexplored(b, puzzle), found)
    if b.outcome is Verdict.EXPLODED:
        return _exploded(b, puzzle)
    if b.outcome is Verdict.TIMED_OUT:
        return Account(f"Your sweep gave no answer in time: {detail}.", (), found or _last(b))
    if b.outcome is Verdict.CRASHED:
        return Account(f"Your sweep stopped without an answer: {detail}.", (), found)
    if b.outcome is Verdict.OUT_OF_TIME:
        said = detail if detail.startswith(NOT_RUN) else NOT_RUN
        return Account(f"{said[0].upper()}{said[1:]}.")
    return Account(detail)


def groups(boards: Iterable[BoardResult], puzzles: Mapping[str, Puzzle]) -> list[Group]:
    """The boards not solved, grouped: one group per outcome and headline, in order.

    Examples
    --------
    >>> crashed = [BoardResult(f"b{i}", 4, 4, 1, Verdict.CRASHED, 0, 0.1, "E: x") for i in (1, 2)]
    >>> [g.title for g in groups(crashed, {})]
    ['crashed on 2 boards: b1, b2']

    Notes
    -----
    O(boards), and each board's account.
    """
    found: dict[tuple[Verdict, str], list[tuple[BoardResult, Account]]] = {}
    for b in boards:
        if b.outcome is not Verdict.SOLVED:
            said = account(b, puzzles.get(b.puzzle))
            found.setdefault((b.outcome, said.headline), []).append((b, said))
    return [Group(verdict, said, tuple(members)) for (verdict, said), members in found.items()]


def lines(boards: Iterable[BoardResult]) -> list[str]:
    """The boards not solved in one line each group: boards with the same outcome and detail
    share a line (``crashed on 2 boards: b1, b2: E: x``).

    Examples
    --------
    >>> boards = [BoardResult(f"b{i}", 4, 4, 1, Verdict.TIMED_OUT, 0, 30, "no answer within 30 s")
    ...           for i in range(3)]
    >>> lines(boards)
    ['timed out on 3 boards: b0, b1, b2: no answer within 30 s']
    """
    found: dict[tuple[Verdict, str], list[str]] = {}
    for b in boards:
        if b.outcome is not Verdict.SOLVED:
            found.setdefault((b.outcome, visible(b.detail)), []).append(visible(b.puzzle))
    return [
        f"{outcome.value} on {len(names)} board{'s' * (len(names) != 1)}: {', '.join(names)}"
        + (f": {detail}" if detail else "")
        for (outcome, detail), names in found.items()
    ]


def _wrong(b: BoardResult, puzzle: Puzzle | None, found: str) -> Account:
    """A board returned wrong: the cells never moved onto, then the cells wrong."""
    if b.unexplored:
        headline = (
            "Your sweep returned before it had moved onto every safe cell, and the board it "
            "returned is wrong."
        )
    else:
        headline = "Your sweep moved onto every safe cell, but the board it returned is wrong."
    count = max(b.wrong_count, len(b.wrong))
    listed = "; ".join(
        f"{r * b.cols + c} ({r}, {c}): you returned {visible(got)}, it is {want}"
        for r, c, got, want in b.wrong
    )
    first = f", the first {len(b.wrong)}" if count > len(b.wrong) else ""
    said = f"Wrong at {_cells_word(count)}{first}: {listed}."
    return Account(headline, (*_unexplored(b, puzzle), said), found)


def _unexplored(b: BoardResult, puzzle: Puzzle | None) -> tuple[str, ...]:
    """The safe cells never moved onto, named (when the board is known) and counted."""
    if not b.unexplored:
        return ()
    if puzzle is None:
        return (f"Your sweep never moved onto {_cells_word(b.unexplored, 'safe cell')}.",)
    opened = set(b.opened)
    never = [i for i, v in enumerate(puzzle.board.values) if v >= 0 and i not in opened]
    return (
        f"Your sweep never moved onto {_cells_word(len(never), 'safe cell')}: "
        f"{cell_list(never, b.cols)}.",
    )


def _exploded(b: BoardResult, puzzle: Puzzle | None) -> Account:
    """A move onto a mine: which move, which cell, and the board as uncovered then."""
    headline = "Your sweep moved onto a mine."
    if not b.opened or puzzle is None:
        return Account(headline, (f"It {visible(b.detail)}.",))
    said = (
        f"Move {len(b.opened)} of your sweep (counting each cell once) was onto the mine at "
        f"{cell(b.opened[-1], b.cols)}."
    )
    return Account(headline, (said,), picture=_uncovered(b, puzzle))


def _uncovered(b: BoardResult, puzzle: Puzzle) -> str:
    """The board as the sweep had uncovered it: its clues, ``#`` elsewhere, ``X`` the mine."""
    values = puzzle.board.values
    shown = {c: str(values[c]) for c in b.opened[:-1]}
    shown[b.opened[-1]] = "X"
    return "\n".join(
        " ".join(shown.get(r * b.cols + c, "#") for c in range(b.cols)) for r in range(b.rows)
    )


def _loop_said(b: BoardResult) -> str:
    """The board's loop as a sentence, when it matters (else ``""``)."""
    if b.loop is None or not loop_matters(b):
        return ""
    return f"After move {b.loop.first - 1:,}, its last onto a new cell, {loop(b.loop, b.cols)}."


def _last(b: BoardResult) -> str:
    """What a sweep that timed out without a loop did last."""
    if not b.moves:
        return "It made no move at all."
    return (
        f"Its last move, move {b.moves:,}, was onto a new cell; it made no move after it (it "
        "was still working, or waiting, when the time ran out)."
    )
