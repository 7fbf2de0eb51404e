"""Wording: an argument's steps in a player's words, one line each.

Cells are named as the page labels them, from 1: "row 3, column 4"; a clue by its value and
cell, "the 2 at row 3, column 4"; a list of cells by rows (or by columns when fewer), "row 3,
columns 4 to 6". A line says what one clue (or a bound found above) says, with what is known
so far, and what follows.

Glossary
--------
line
    One step of an argument (:class:`~.argument.Step`) in words: a clue read ("The 1 at row
    2, column 1 needs 1 mine among row 1, columns 1 and 2."), counted ("... has all its
    mines: its other unknown neighbours (...) are safe."), a difference ("The 2 at ... needs 2
    mines among ..., so row 1, column 3 is a mine."), the mine total's bound, a supposition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby

from ..board import Cell
from ..solver.argument import Bound, Step

__all__ = ["Words"]


class Words:
    """The words for the cells and clues of one board: its values, row-major, and width.

    Examples
    --------
    >>> words = Words([1, None, None, 2, None, None], cols=3)
    >>> words.at(4), words.clue(0), words.cells([1, 2, 4])
    ('row 2, column 2', 'the 1 at row 1, column 1', '(row 1, columns 2 and 3; row 2, column 2)')
    >>> sorted(words.named)
    [0, 1, 2, 4]
    """

    def __init__(self, values: Sequence[int | None], cols: int) -> None:
        self.values = values
        self.cols = cols
        self.named: set[Cell] = set()
        """Every cell named so far, clues included (the page marks them)."""

    # -- names --------------------------------------------------------------------------------

    def at(self, cell: Cell) -> str:
        """``cell`` as ``row R, column C``, counted from 1."""
        self.named.add(cell)
        row, col = divmod(cell, self.cols)
        return f"row {row + 1}, column {col + 1}"

    def clue(self, cell: Cell) -> str:
        """The clue at ``cell`` by its value: ``the 2 at row 3, column 4``."""
        return f"the {self.values[cell]} at {self.at(cell)}"

    def clues(self, cells: Iterable[Cell]) -> str:
        """Clues, listed: ``the 1 at ..., the 2 at ... and the 1 at ...``."""
        return _listed([self.clue(cell) for cell in cells])

    def cells(self, cells: Iterable[Cell], *, bare: bool = False) -> str:
        """Cells by rows (or columns, when fewer lines): ``row 3, columns 4 to 6``; several
        lines between parentheses, parted by semicolons (``bare``: without the parentheses)."""
        listed = set(cells)
        self.named |= listed
        coords = sorted(divmod(cell, self.cols) for cell in listed)
        rows = [(r, [c for _, c in group]) for r, group in groupby(coords, key=lambda rc: rc[0])]
        by_col = sorted((c, r) for r, c in coords)
        cols = [(c, [r for _, r in group]) for c, group in groupby(by_col, key=lambda cr: cr[0])]
        if len(cols) < len(rows):
            parts = [_line("column", c, "row", rs) for c, rs in cols]
        else:
            parts = [_line("row", r, "column", cs) for r, cs in rows]
        if len(parts) == 1 or bare:
            return "; ".join(parts)
        return "(" + "; ".join(parts) + ")"

    # -- lines --------------------------------------------------------------------------------

    def lines(self, steps: Sequence[Step]) -> list[str]:
        """Each step in words, one line each."""
        said: list[str] = []
        before: Step | None = None
        for step in steps:
            said.append(_capital(self.line(step, before)))
            before = step
        supposed = next((step.bound for step in steps if step.kind == "suppose"), None)
        if supposed is not None and said[-1].endswith("impossible."):
            what = _what(supposed.lo == 0)
            said[-1] = f"{said[-1][:-1]}, so {self.at(supposed.cells[0])} is {what}."
        return said

    def line(self, step: Step, before: Step | None = None) -> str:
        """One step in words; ``before`` is the step on the line above (a bound it found is
        not said again)."""
        kind = step.kind
        if kind == "suppose":
            return f"Suppose {self.at(step.bound.cells[0])} were {_what(step.bound.lo > 0)}."
        if kind == "read":
            return self._read(step)
        if kind == "count":
            return self._count(step)
        if kind == "difference":
            return self._difference(step, before)
        if kind == "given":
            return self._given(step)
        if kind == "together":
            return self._together(step)
        if kind == "total":
            return self._total(step)
        if kind == "placements":
            return self._placements(step)
        raise ValueError(f"no words for a step of kind {kind!r}")

    def _read(self, step: Step) -> str:
        """A clue, and what it says of some of its cells."""
        said = self._needs(step.bound, step.narrowed)
        part = step.result
        if part is None or part.cells == step.bound.cells:
            return said + "."
        return f"{said}, so {self.bound(part)}."

    def _count(self, step: Step) -> str:
        """A bound that decides its cells, or (after a supposition) cannot hold."""
        bound = step.bound
        n = len(bound.cells)
        if bound.clue is None:
            was = step.given
            assert was is not None
            known = [c for c in was.cells if c not in bound.cells]
            mines = was.hi - bound.hi
            head = _capital(self.bound(was))
            if known and mines in (0, len(known)):
                fact = f"{self.cells(known)} {_is(len(known))} {_what(mines > 0, len(known))}"
                head += f"; {fact}, as found above"
            elif known:
                head += f"; {self.cells(known)} hold {_mines(mines)}, as found above"
            if not bound.possible:
                return f"{head}: impossible."
            if bound.hi <= 0:
                return f"{head}, so {self.cells(bound.cells)} {_safe(n, 'is', 'are')}."
            return f"{head}, so {self.cells(bound.cells)} {_is(n, 'is a mine', 'are mines')}."
        who = self.clue(bound.clue)
        now = " now" if step.narrowed else ""
        if not bound.possible:
            if bound.lo < 0:
                value = self.values[bound.clue]
                assert isinstance(value, int)
                around = value - bound.lo
                return f"{who} would then have {around} mines around it: impossible."
            among = (
                f"only {n} unknown neighbour{'s' * (n != 1)}" if n else "no unknown neighbour left"
            )
            if n:
                among += f" ({self.cells(bound.cells, bare=True)})"
            more = f"{bound.lo} more mine{'s' * (bound.lo != 1)}"
            return f"{who} would then need {more} with {among}: impossible."
        listed = f"({self.cells(bound.cells, bare=True)})"
        if bound.hi <= 0:
            neighbours = f"unknown neighbour{'s' * (n != 1)} {listed} {_safe(n, 'is', 'are')}"
            if self.values[bound.clue] == 0:
                return f"{who} has no mine around it: its {neighbours}."
            return f"{who}{now} has all its mines: its other {neighbours}."
        neighbours = f"unknown neighbour{'s' * (n != 1)}"
        return (
            f"{who}{now} has {_mines(bound.lo)} left to place and {n} {neighbours} "
            f"{listed}: {_mined(n)}."
        )

    def _difference(self, step: Step, before: Step | None) -> str:
        """A bound less another within it (or around it): what is left."""
        bound, part = step.bound, step.given
        assert part is not None
        if bound.clue is not None:
            head = self._needs(bound, step.narrowed)
        else:
            head = _capital(self.bound(bound.clipped()))
        result = step.result
        impossible = result is not None and not result.possible
        shown = before is not None and before.result == part and before.kind in ("read", "given")
        if not shown or impossible:
            head += "; " + self.bound(part)
        if impossible:
            return f"{head}: impossible."
        if step.found:
            cells = sorted(step.found)
            mine = step.found[cells[0]]
            verb = "is" if len(cells) == 1 else "are"
            return f"{head}, so {self.cells(cells)} {verb} {_what(mine, len(cells))}."
        assert result is not None
        return f"{head}, so {self.bound(result.clipped())}."

    def _given(self, step: Step) -> str:
        """The mine total's bound on the cells of the clues at hand."""
        total, bound = step.total, step.bound
        assert total is not None
        n, left = len(bound.cells), total.left
        reasons, amounts = [], []
        if bound.hi < n:
            if total.others and total.least:
                reasons.append(f"that is at least {total.least} of the {_mines(left)} left")
            elif not total.named and total.least:
                reasons.append(
                    f"the rest of the border needs at least {total.least} of the "
                    f"{_mines(left)} left"
                )
            else:
                reasons.append(f"{'only ' * (left <= n)}{_mines(left)} {_is(left)} left")
            amounts.append(f"at most {bound.hi}")
        if bound.lo > 0:
            k = total.away
            away = f"the {k} unknown cell{'s' * (k != 1)} no clue here touches take at most {k}"
            if total.others and total.named:
                reason = f"that is at most {total.most} of the {_mines(left)} left"
                reasons.append(f"{reason}, and {away}" if k else reason)
            elif total.named:
                reasons.append(f"{away} of the {_mines(left)} left")
            else:
                room = total.most + k
                reasons.append(
                    f"the other unknown cells hold at most {room} of the {_mines(left)} left"
                )
            amounts.append(f"at least {bound.lo}")
        amount = " and ".join(reversed(amounts)) if len(amounts) == 2 else amounts[0]
        amount = f"{bound.lo} to {bound.hi}" if len(amounts) == 2 else amount
        verb = "lies" if amount.endswith(" 1") else "lie"
        return f"{'; '.join(reasons)}, so {amount} {verb} among {self.cells(bound.cells)}."

    def _together(self, step: Step) -> str:
        """Linked clues, and the mines they need between them."""
        bound = step.bound
        n = len(bound.cells)
        amount = (
            f"at least {_mines(bound.lo)}"
            if bound.hi >= n
            else (
                f"at most {_mines(bound.hi)}"
                if bound.lo <= 0
                else f"{bound.lo} to {bound.hi} mines"
            )
        )
        verb = "need" if bound.hi >= n else "hold"
        among = self.cells(bound.cells)
        return f"{self.clues(step.clues)} {verb} {amount} among {among}, between them."

    def _total(self, step: Step) -> str:
        """The cells no clue touches, decided by the total."""
        total = step.total
        assert total is not None
        left, k = total.left, total.away
        mine = step.bound.lo > 0
        if not total.others and total.named:
            if not mine:
                return "No mines are left, so every unknown cell is safe."
            cells = f"{k} unknown cell{'s' * (k != 1)}"
            mines = f"{_mines(left)} {_is(left)} left"
            return f"No clue touches the {cells} left, and {mines}: {_mined(k)}."
        if not total.named:
            if not mine:
                return (
                    f"The border needs at least {left} of the {_mines(left)} left, so every "
                    "cell away from it is safe."
                )
            return (
                f"The border holds at most {total.most} of the {_mines(left)} left, so all "
                f"{k} cells away from it are mines."
            )
        if not mine:
            return (
                f"That is at least {left} of the {_mines(left)} left, so every other unknown "
                "cell is safe."
            )
        other = left - total.most
        return (
            f"That is at most {total.most} of the {_mines(left)} left, so the other {other} "
            f"{_is(other, 'lies', 'lie')} on the {k} other unknown cell{'s' * (k != 1)}: "
            f"{_mined(k)}."
        )

    def _placements(self, step: Step) -> str:
        """The placements counted, every one with the cell one way."""
        cell = step.bound.cells[0]
        mine = step.bound.lo > 0
        every = f"puts a mine at {self.at(cell)}" if mine else f"leaves {self.at(cell)} safe"
        count = f"{step.placements:,}"
        total = step.total
        if total is None and step.placements == 1:
            mines = sorted(c for c, mine in step.found.items() if mine)
            at = f"mines at {self.cells(mines, bare=True)}" if mines else "no mine"
            return (
                f"Together {self.clues(step.clues)} can place their mines in only 1 way "
                f"({at}), and it {every}."
            )
        if total is None:
            return (
                f"Together {self.clues(step.clues)} can place their mines in {count} "
                f"ways, and every one {every}."
            )
        if not step.clues:
            return (
                f"Of the {count} placements of the {_mines(total.left)} left that meet every "
                f"clue, every one {every}."
            )
        k = total.away
        away = f" (with the {k} unknown cell{'s' * (k != 1)} no clue of theirs touches)" * (k > 0)
        one = step.placements == 1
        return (
            f"With {_mines(total.left)} left, {count} placement{'s' * (not one)} of them "
            f"fit{'s' * one} {self.clues(step.clues)}{away}, and {'it' if one else 'every one'} "
            f"{every}."
        )

    # -- bounds -------------------------------------------------------------------------------

    def bound(self, bound: Bound) -> str:
        """A bound (one that holds) as a clause: ``at most 1 mine lies among row 3, columns 4
        and 5``."""
        n, lo, hi = len(bound.cells), bound.lo, bound.hi
        among = self.cells(bound.cells)
        if lo == hi:
            amount = f"exactly {_mines(lo)}" if lo else "no mine"
        elif lo <= 0:
            amount = f"at most {_mines(hi)}"
        elif hi >= n:
            amount = f"at least {_mines(lo)}"
        else:
            amount = f"{lo} {'or' if hi == lo + 1 else 'to'} {hi} mines"
        verb = "lies" if amount.endswith(("1 mine", "no mine")) else "lie"
        return f"{amount} {verb} among {among}"

    def _needs(self, bound: Bound, narrowed: bool) -> str:
        """``The 3 at ... needs 2 more mines among ...``: a clue's bound, less what is known."""
        assert bound.clue is not None
        value = self.values[bound.clue]
        assert isinstance(value, int)
        more = " more" if bound.lo < value else ""
        count = f"{bound.lo}{more} mine{'s' * (bound.lo != 1)}"
        now = " now" if narrowed else ""
        return (
            f"{_capital(self.clue(bound.clue))}{now} needs {count} "
            f"{'at' if len(bound.cells) == 1 else 'among'} {self.cells(bound.cells)}"
        )


def _line(name: str, index: int, names: str, others: list[int]) -> str:
    """One row (or column) of a list of cells: ``row 3, columns 4 to 6``."""
    numbers = [n + 1 for n in others]
    if len(numbers) == 1:
        return f"{name} {index + 1}, {names} {numbers[0]}"
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    items: list[str] = []
    for run in runs:
        items += [f"{run[0]} to {run[-1]}"] if len(run) >= 3 else [str(n) for n in run]
    return f"{name} {index + 1}, {names}s {_listed(items)}"


def _listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _mines(n: int) -> str:
    """``1 mine``, ``2 mines``."""
    return f"{n} mine{'s' * (n != 1)}"


def _what(mine: bool, n: int = 1) -> str:
    """``a mine``, ``mines``, ``safe``."""
    if not mine:
        return "safe"
    return "a mine" if n == 1 else "mines"


def _mined(n: int) -> str:
    """The end of a count that finds ``n`` mines."""
    return "it is a mine" if n == 1 else ("both are mines" if n == 2 else f"all {n} are mines")


def _safe(n: int, one: str = "it is", many: str = "they are") -> str:
    """The end of a count that finds ``n`` safe cells."""
    return f"{one} safe" if n == 1 else f"{many} safe"


def _is(n: int, one: str = "is", many: str = "are") -> str:
    """``one`` for 1, else ``many``."""
    return one if n == 1 else many
