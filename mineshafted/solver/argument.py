"""Argument: a proof retraced in steps a player can check one at a time, from the clues that
prove a cell to it.

The ladder's proof (:func:`~.proof.prove`) gives the first rung that decides a cell and a
minimal set of clues enough for it; :func:`argument` retraces it in steps (:mod:`.steps`),
each reading one clue (or a bound a step before it found) and saying what follows: the chain
found by :func:`~.chain.argue`, directly or from the cell supposed the other way; for the
``total`` rung, the groups of clues counted against the mines left; else the placements
counted. Every explanation of the live environment is one of these, worded for a player by
:mod:`mineshafted.web.wording`.

Glossary
--------
argument
    The steps from a proof's clues to its cell, one line each: every clue of the proof is
    named, and no other (for ``total``, up to :data:`NAMED`; beyond, the border as a whole).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..board import Cell
from .chain import argue
from .clues import ClueConstraint, Clues, position_from
from .ladder import rung
from .position import components
from .proof import Proof
from .steps import Bound, Step, Total, named
from .technique import Technique
from .total import tally
from .weights import weighed

__all__ = ["NAMED", "Argument", "Bound", "Step", "Total", "argue", "argument", "named"]

NAMED: Final = 8
"""A total argument names its clues when it needs at most this many; beyond, it speaks of the
border as a whole (and names only the clues of the cell's own group)."""


@dataclass(frozen=True)
class Argument:
    """A proof retraced: its steps, the clues they name, and whether they lean on the border
    as a whole."""

    steps: tuple[Step, ...]
    """The steps, in order: the last decides the cell (or refutes it supposed the other
    way)."""
    clues: frozenset[Cell]
    """The clues the steps name: the proof's own (for ``total`` up to :data:`NAMED`; beyond,
    those of the cell's own group, or none)."""
    border: bool
    """Whether the steps rest on the border as a whole besides :attr:`clues` (a ``total``
    proof of more than :data:`NAMED` clues)."""


def argument(clues: Clues, proof: Proof) -> Argument:
    """The steps that retrace ``proof`` (a proof from ``clues``, :func:`~.proof.prove`).

    Examples
    --------
    The 1s under the first two cells of a row hold their mine between them, so the third is
    safe.

    >>> from mineshafted.solver.clues import clues_of
    >>> from mineshafted.solver.proof import prove
    >>> clues = clues_of([[None, None, None], [1, 1, 1]], mines=1)
    >>> steps = argument(clues, prove(clues, 2)).steps
    >>> [(step.kind, step.bound.clue, step.found) for step in steps]
    [('read', 3, {}), ('difference', 4, {2: False})]

    Notes
    -----
    A chain search (:func:`~.chain.argue`) over the proof's clues, twice at most (directly,
    then from the cell supposed the other way); for ``total``, the groups' mines counted
    (:func:`~.weights.weighed`); when no chain is found, the placements counted.
    """
    steps, named_clues = _argument(clues, proof)
    border = proof.technique is Technique.TOTAL and len(proof.clues) > NAMED
    return Argument(steps, frozenset(named_clues), border)


def _argument(clues: Clues, proof: Proof) -> tuple[tuple[Step, ...], set[Cell]]:
    """The argument for ``proof``'s cell, and the clues it names: the chain of steps
    (:func:`~.chain.argue`) if one is found that names the proof's clues, directly or from
    the cell supposed the other way; else the placements counted."""
    if proof.technique is Technique.TOTAL:
        return _total(clues, proof)
    cells = {clue.cell for clue in proof.clues}
    for suppose in (False, True):
        if suppose and proof.technique <= Technique.SUBSET:
            break
        steps = argue(proof.clues, proof.cell, proof.mine, proof.technique, suppose=suppose)
        if steps is not None and named(steps) == cells:
            return steps, cells
    return (_placements(proof.clues, proof.cell, proof.mine, None),), cells


def _total(clues: Clues, proof: Proof) -> tuple[tuple[Step, ...], set[Cell]]:
    """The argument of a cell the mine total decides: the groups of the proof's clues and the
    cells away from them, counted against the mines left; the border as a whole when the
    proof has more than :data:`NAMED` clues."""
    assert clues.mines_left is not None
    left, cell, mine = clues.mines_left, proof.cell, proof.mine
    everyone = len(proof.clues) <= NAMED
    groups = _linked(proof.clues)
    seen = {c for clue in proof.clues for c in clue.cells}
    away = [c for c in clues.unknown if c not in seen]
    ranges = [_range(group) for group in groups]
    mine_group = next((g for g in groups if any(cell in clue.cells for clue in g)), None)
    if mine_group is None:
        least = sum(lo for lo, _ in ranges)
        most = sum(hi for _, hi in ranges)
        total = Total(left, least, most, len(away), len(groups), everyone)
        border = {c for clue in clues.constraints for c in clue.cells}
        fits = least == left if not mine else most + len(away) == left
        if fits and (everyone or cell not in border):
            lines = [_group(g, r, mine) for g, r in zip(groups, ranges, strict=True)]
            lines = lines if everyone else []
            found = {c: mine for c in away}
            end = Step("total", Bound(tuple(away), int(mine), int(mine)), found=found, total=total)
            return (*lines, end), {c.cell for c in proof.clues} if everyone else set()
        return _counted(clues, proof, everyone)
    others = [(g, r) for g, r in zip(groups, ranges, strict=True) if g is not mine_group]
    least = sum(lo for _, (lo, _) in others)
    most = sum(hi for _, (_, hi) in others)
    cells = tuple(sorted({c for clue in mine_group for c in clue.cells}))
    total = Total(left, least, most, len(away), len(others), everyone)
    hi = left - least
    lo = left - most - len(away)
    tries: list[tuple[Bound, bool | None]] = []
    if hi < len(cells):
        tries.append((Bound(cells, 0, hi), False))
    if lo > 0:
        tries.append((Bound(cells, lo, len(cells)), True))
    if len(tries) == 2:
        tries.append((Bound(cells, lo, hi), None))
    ours = {clue.cell for clue in mine_group}
    for given, most_side in tries:
        for suppose in (False, True):
            steps = argue(mine_group, cell, mine, Technique.TOTAL, given=given, suppose=suppose)
            if steps is None or named(steps) != ours:
                continue
            steps = tuple(replace(s, total=total) if s.kind == "given" else s for s in steps)
            if not everyone:
                return steps, ours
            lines = [_group(g, r, most_side) for g, r in others]
            return (*lines, *steps), {c.cell for c in proof.clues}
    return _counted(clues, proof, everyone)


def _group(group: list[ClueConstraint], bounds: tuple[int, int], most: bool | None) -> Step:
    """A line for one group of clues: a clue's own, or what they need between them (at least,
    or with ``most`` at most, or with ``None`` both)."""
    if len(group) == 1:
        clue = group[0]
        bound = Bound(clue.cells, clue.mines, clue.mines, clue.cell)
        return Step("read", bound, result=bound)
    cells = tuple(sorted({c for clue in group for c in clue.cells}))
    lo, hi = bounds
    bound = Bound(cells, 0 if most else lo, len(cells) if most is False else hi)
    return Step("together", bound, clues=tuple(clue.cell for clue in group))


def _counted(clues: Clues, proof: Proof, everyone: bool) -> tuple[tuple[Step, ...], set[Cell]]:
    """The placements counted, for a total argument with no shorter chain."""
    chosen = proof.clues if everyone else clues.constraints
    step = _placements(chosen, proof.cell, proof.mine, clues)
    if not everyone:
        step = replace(step, clues=())
    return (step,), {c.cell for c in chosen} if everyone else set()


def _placements(
    chosen: Sequence[ClueConstraint], cell: Cell, mine: bool, clues: Clues | None
) -> Step:
    """A step counting the placements that meet the ``chosen`` clues (and, given ``clues``, the
    mines left on their unknown cells), every one with ``cell`` as ``mine`` says."""
    found: dict[Cell, bool] = {}
    if clues is None:
        count = 1
        for group in components(c.constraint for c in chosen):
            count *= sum(weighed(tuple(group)).placements)
        total = None
        if count == 1:  # the one placement: every cell decided, as complete decides it
            found = rung(Technique.COMPLETE).deduce(Clues(tuple(chosen), ()))
    else:
        assert clues.mines_left is not None
        position = position_from([], [c.constraint for c in chosen], clues.unknown, 0)
        count = tally(position, clues.mines_left).placements
        total = Total(clues.mines_left, 0, 0, len(position.unconstrained), 0)
    bound = Bound((cell,), int(mine), int(mine))
    cells = tuple(c.cell for c in chosen)
    return Step("placements", bound, clues=cells, total=total, placements=count, found=found)


def _linked(constraints: Sequence[ClueConstraint]) -> list[list[ClueConstraint]]:
    """The clues in components, linked by shared cells directly or not: each in the order
    given, the components in the order of their first clue (:func:`~.position.components`,
    given each clue's cells and, where it keeps a constraint's mines, the clue's index)."""
    pairs = [(clue.cells, index) for index, clue in enumerate(constraints)]
    return [[constraints[index] for _, index in group] for group in components(pairs)]


def _range(group: Sequence[ClueConstraint]) -> tuple[int, int]:
    """The fewest and the most mines a group of linked clues can hold on its cells."""
    placements = weighed(tuple(clue.constraint for clue in group)).placements
    held = [k for k, n in enumerate(placements) if n]
    return held[0], held[-1]
