"""Deduction: what a player knows, the explore loop, clue variables, arcs, AC-3, search, sweep."""

from __future__ import annotations

from .csp import ClueCSP, ClueVariable
from .knowledge import CellState, Knowledge
from .search import BacktrackingSearch, ComponentSearch, ConstraintSearch
from .sweep import Manager, Status, Sweep, SweepReport, sweep_mines

__all__ = [
    "BacktrackingSearch",
    "CellState",
    "ClueCSP",
    "ClueVariable",
    "ComponentSearch",
    "ConstraintSearch",
    "Knowledge",
    "Manager",
    "Status",
    "Sweep",
    "SweepReport",
    "sweep_mines",
]
