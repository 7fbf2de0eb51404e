"""The feedback's words: an account of each board not solved, in a student's terms, the boards
that failed the same way grouped, and what a replay says at a graded board's end.

Built on the verdict words of :mod:`.wording` (a board's cells, its loop, its detail), so the
feedback, the platforms' tests and the replay say what a board's ``detail`` says.

Glossary
--------
headline
    What the boards of a :class:`Group` share: the words that do not depend on the board.
specifics
    What one board adds to its group's headline: its cells, its loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from ..formats import Puzzle
from ..text import visible
from .result import BoardResult, Verdict
from .wording import NOT_RUN, cell, cell_list, counted, loop, loop_matters

__all__ = [
    "PICTURE",
    "Account",
    "Group",
    "ReplayWords",
    "account",
    "groups",
    "lines",
    "replay_words",
]


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
    said = f"Wrong at {counted(count)}{first}: {listed}."
    return Account(headline, (*_unexplored(b, puzzle), said), found)


def _unexplored(b: BoardResult, puzzle: Puzzle | None) -> tuple[str, ...]:
    """The safe cells never moved onto, named (when the board is known) and counted."""
    if not b.unexplored:
        return ()
    if puzzle is None:
        return (f"Your sweep never moved onto {counted(b.unexplored, 'safe cell')}.",)
    opened = set(b.opened)
    never = [i for i, v in enumerate(puzzle.board.values) if v >= 0 and i not in opened]
    return (
        f"Your sweep never moved onto {counted(len(never), 'safe cell')}: "
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
