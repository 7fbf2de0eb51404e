"""Deduction: the ladder of techniques, each rung plain and fast, and the sweep that climbs it.

Start with :mod:`.plain`: every rung of the ladder (count, subset, ac3, complete, total) in a
few lines over plain sets, to read beside the Mine Shafted assignment, and the sweep as one
short loop. :mod:`.ladder` ties each rung's three forms (plain, fast on a position, and the
fast form's step inside a sweep) and gives a board's rating; :mod:`.proof` answers "which rung
decides this cell?" (its first rung, and clues enough for it), which :mod:`.argument`
retraces in steps a player can check; :mod:`.clues` builds the clue constraints of a grid,
once for the whole package; :mod:`.technique` names the rungs and the stages of a sweep;
:mod:`.manager` is the assignment's interface a sweep plays through.

The fast forms, in the order a sweep uses them: :mod:`.knowledge` (the facts),
:mod:`.explore` (moving onto safe cells and counting: the ``count`` rung), :mod:`.subset`
(the subset closure), :mod:`.variables` and :mod:`.arcs` (the CSP's pieces), :mod:`.csp`
(AC-3), :mod:`.search` (complete component search), :mod:`.position` (a stall, described
for counting), :mod:`.weights` (one component's placements by number of mines: its weights) and
:mod:`.total` (the components combined under the mine total); :mod:`.sweep` climbs them.
"""

from __future__ import annotations

from . import plain
from .arcs import Arc, ArcGraph
from .clues import ClueConstraint, Clues, clues_of
from .count import Count, count_component, counted  # the old names of weights'
from .csp import ClueCSP
from .explore import Explorer
from .knowledge import CellState, Knowledge
from .ladder import RUNGS, Rung, Sweeper, rung
from .manager import Manager
from .position import Constraint, Position, components
from .proof import Proof, first_rung, prove
from .search import (
    BacktrackingSearch,
    ComponentSearch,
    ConstraintSearch,
    backbone,
    component_placements,
)
from .subset import subset_facts
from .sweep import Status, Sweep, SweepReport, sweep_mines
from .technique import Stage, Technique
from .total import Tally, combine, decided_by_total, tally
from .variables import Arrangement, ClueVariable, Fact, arrangements, compress
from .weights import Weights, weigh, weighed

__all__ = [
    "RUNGS",
    "Arc",
    "ArcGraph",
    "Arrangement",
    "BacktrackingSearch",
    "CellState",
    "ClueCSP",
    "ClueConstraint",
    "ClueVariable",
    "Clues",
    "ComponentSearch",
    "Constraint",
    "ConstraintSearch",
    "Count",
    "Explorer",
    "Fact",
    "Knowledge",
    "Manager",
    "Position",
    "Proof",
    "Rung",
    "Stage",
    "Status",
    "Sweep",
    "SweepReport",
    "Sweeper",
    "Tally",
    "Technique",
    "Weights",
    "arrangements",
    "backbone",
    "clues_of",
    "combine",
    "component_placements",
    "components",
    "compress",
    "count_component",
    "counted",
    "decided_by_total",
    "first_rung",
    "plain",
    "prove",
    "rung",
    "subset_facts",
    "sweep_mines",
    "tally",
    "weigh",
    "weighed",
]
