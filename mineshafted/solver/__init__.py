"""Deduction: what a player knows, the explore loop, clue variables, arcs, AC-3, search, sweep.

The modules, in the order a sweep uses them: :mod:`.knowledge` (the facts),
:mod:`.explore` (moving onto safe cells and counting), :mod:`.variables` and :mod:`.arcs`
(the CSP's pieces), :mod:`.csp` (AC-3), :mod:`.search` (complete component search),
:mod:`.subset` (the subset technique's closure), :mod:`.sweep` (the pipeline),
:mod:`.technique` (the ladder of techniques a sweep can be limited to), :mod:`.position` (a
stall, described for counting),
:mod:`.count` (one component's placements counted by number of mines) and :mod:`.total`
(the components combined under the mine total: the last layer of deduction).
"""

from __future__ import annotations

from .arcs import Arc, ArcGraph
from .count import Count, count_component, counted
from .csp import ClueCSP
from .explore import Explorer
from .knowledge import CellState, Knowledge
from .position import Constraint, Position, components
from .search import (
    BacktrackingSearch,
    ComponentSearch,
    ConstraintSearch,
    backbone,
    component_placements,
)
from .subset import subset_facts
from .sweep import Manager, Stage, Status, Sweep, SweepReport, sweep_mines
from .technique import Technique
from .total import Tally, combine, decided_by_total, tally
from .variables import Arrangement, ClueVariable, Fact, arrangements, compress

__all__ = [
    "Arc",
    "ArcGraph",
    "Arrangement",
    "BacktrackingSearch",
    "CellState",
    "ClueCSP",
    "ClueVariable",
    "ComponentSearch",
    "Constraint",
    "ConstraintSearch",
    "Count",
    "Explorer",
    "Fact",
    "Knowledge",
    "Manager",
    "Position",
    "Stage",
    "Status",
    "Sweep",
    "SweepReport",
    "Tally",
    "Technique",
    "arrangements",
    "backbone",
    "combine",
    "component_placements",
    "components",
    "compress",
    "count_component",
    "counted",
    "decided_by_total",
    "subset_facts",
    "sweep_mines",
    "tally",
]
