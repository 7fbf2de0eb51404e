"""The arc graph: which clue variables share an unknown cell, as a networkx graph.

Glossary
--------
arc
    Two variables whose scopes share an unknown cell: an edge of :class:`ArcGraph`, whose
    data is an :class:`Arc`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import networkx as nx

from ..board import Cell

__all__ = ["Arc", "ArcGraph"]

if TYPE_CHECKING:
    _Graph: TypeAlias = nx.Graph[Cell]
    _EdgeData: TypeAlias = dict[str, Any]
else:
    _Graph = nx.Graph
    _EdgeData = dict


class Arc(_EdgeData):
    """What two variables share: the edge data of the arc between them.

    An ``Arc`` is the edge's attribute dict as networkx sees it (empty: it has no attributes),
    carrying the arc's facts in typed slots, so every networkx reader still works.

    Examples
    --------
    >>> arc = Arc(4, 0b011, 7, 0b110, {5, 8})
    >>> arc.shared, arc.masks[4], arc.masks[7]
    ({8, 5}, 3, 6)
    >>> dict(arc)
    {}
    """

    __slots__ = ("masks", "shared")

    def __init__(self, a: Cell, mask_a: int, b: Cell, mask_b: int, shared: set[Cell]) -> None:
        super().__init__()
        self.shared = shared
        """The unknown cells both scopes hold."""
        self.masks = {a: mask_a, b: mask_b}
        """Each endpoint's bitmask of the cells they shared when linked. A cell decided since
        stays in the masks: both domains agree on it, so it never separates them."""

    def __repr__(self) -> str:
        return f"Arc(shared={sorted(self.shared)}, masks={self.masks})"


Adjacency = dict[Cell, dict[Cell, Arc]]
"""networkx's adjacency layout: variable -> neighbour -> arc."""


class ArcGraph(_Graph):
    """The arc graph: nodes are variable cells, edges join variables that share a cell.

    A networkx graph that supplies its own node and adjacency dicts through networkx's
    documented factory hooks (``node_dict_factory``, ``adjlist_outer_dict_factory``) and
    keeps them as :attr:`nodes_seen` and :attr:`arcs`. AC-3 reads arcs there directly,
    without the read-only views that ``adj`` builds on every lookup, and the CSP grows and
    shrinks the graph with :meth:`add_variable`, :meth:`join`, :meth:`part` and
    :meth:`drop_variable`, which write the same dicts as ``add_node``, ``add_edge``,
    ``remove_edge`` and ``remove_node`` without their generic checks. Every networkx
    reader (``edges``, ``has_edge``, ``node_connected_component``...) sees the same graph.
    Its ``__networkx_cache__`` is ``None``, networkx's documented way to turn off caching
    converted copies of a graph, so no mutation has a cache to clear.

    Examples
    --------
    >>> g = ArcGraph()
    >>> g.add_variable(1); g.add_variable(2); g.add_variable(3)
    >>> g.join(1, 2, Arc(1, 1, 2, 1, {7})); g.join(2, 3, Arc(2, 2, 3, 1, {8}))
    >>> sorted(g.edges), sorted(nx.node_connected_component(g, 1))
    ([(1, 2), (2, 3)], [1, 2, 3])
    >>> g.edges[1, 2].shared
    {7}
    >>> g.part(1, 2); g.drop_variable(3)
    >>> sorted(g.nodes), list(g.edges)
    ([1, 2], [])
    """

    def __init__(self) -> None:
        self.arcs: Adjacency = {}
        self.nodes_seen: dict[Cell, dict[str, Any]] = {}
        super().__init__()
        self.__networkx_cache__ = None  # type: ignore[assignment]  # documented opt-out

    def adjlist_outer_dict_factory(self) -> Adjacency:  # type: ignore[override]
        """Hand networkx :attr:`arcs` as the graph's outer adjacency dict."""
        return self.arcs

    def node_dict_factory(self) -> dict[Cell, dict[str, Any]]:  # type: ignore[override]
        """Hand networkx :attr:`nodes_seen` as the graph's node dict."""
        return self.nodes_seen

    def add_variable(self, cell: Cell) -> None:
        """Add the node ``cell`` (not yet in the graph), with no edges."""
        self.nodes_seen[cell] = {}
        self.arcs[cell] = {}

    def join(self, a: Cell, b: Cell, arc: Arc) -> None:
        """Add the edge ``a``-``b`` (both nodes, not yet joined), holding ``arc``."""
        arcs = self.arcs
        arcs[a][b] = arcs[b][a] = arc

    def part(self, a: Cell, b: Cell) -> None:
        """Remove the edge ``a``-``b``."""
        arcs = self.arcs
        del arcs[a][b], arcs[b][a]

    def drop_variable(self, cell: Cell) -> None:
        """Remove the node ``cell`` and its edges."""
        arcs = self.arcs
        for other in arcs.pop(cell):
            del arcs[other][cell]
        del self.nodes_seen[cell]
