"""Knowledge base: the CS440 lab's sentences, its three inference rules and merge, as agents.

Glossary
--------
sentence
    A set of cells and a count: exactly ``count`` mines among ``cells``. Revealing a clue ``n``
    at ``c`` adds the sentence {neighbours of ``c``} = ``n``.
fixed point
    The rules applied until none of them changes the knowledge base.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..board import Cell
from ..errors import ContradictionError
from .agent import Reasoner, ReasoningAgent

__all__ = ["KBAgent", "KBMergeAgent", "KnowledgeBase", "Sentence"]


@dataclass(frozen=True, slots=True)
class Sentence:
    """Exactly ``count`` mines among ``cells``.

    Examples
    --------
    >>> Sentence.of([4, 1, 2], 1)
    Sentence(cells=frozenset({1, 2, 4}), count=1)
    """

    cells: frozenset[Cell]
    count: int

    @classmethod
    def of(cls, cells: Iterable[Cell], count: int) -> Sentence:
        """The sentence over ``cells`` (any iterable) with ``count`` mines."""
        return cls(frozenset(cells), count)


@dataclass
class KnowledgeBase(Reasoner):
    """The lab's knowledge base: sentences, the cells known safe and the cells known mined.

    Each inference rule is its own method and returns whether it changed anything;
    :meth:`make_inferences` applies them to a fixed point. A sentence is kept once however often
    it is derived. ``merge`` turns on :meth:`merge_sentences` inside :meth:`make_inferences`
    (the lab's extra credit).

    Examples
    --------
    >>> kb = KnowledgeBase(merge=True)
    >>> kb.add(Sentence.of([1, 2, 3], 2)); kb.add(Sentence.of([2, 3], 1))
    >>> kb.make_inferences()
    True
    >>> sorted(kb.mines)
    [1]

    Notes
    -----
    Each rule looks only at the sentences added since it last ran (a sentence never changes,
    so neither does what a rule makes of it), and simplification only at the sentences of the
    cells learnt since; merge finds a new sentence's subsets and supersets through the index
    of sentences by cell. A fixed point costs ``O(news x sentences per cell x cells per
    sentence)`` rather than a pass over every sentence per rule.
    """

    merge: bool = False
    sentences: set[Sentence] = field(default_factory=set)
    safe: set[Cell] = field(default_factory=set)
    mines: set[Cell] = field(default_factory=set)
    neighbours: Sequence[Sequence[Cell]] = ()
    """The board's neighbour table, for :meth:`learn_clue`."""
    _by_cell: dict[Cell, set[Sentence]] = field(default_factory=dict, repr=False)
    _facts: list[Cell] = field(default_factory=list, repr=False)
    _unsimplified: set[Sentence] = field(default_factory=set, repr=False)
    _unchecked_safe: set[Sentence] = field(default_factory=set, repr=False)
    _unchecked_mines: set[Sentence] = field(default_factory=set, repr=False)
    _unmerged: set[Sentence] = field(default_factory=set, repr=False)

    # -- knowledge ------------------------------------------------------------------------

    def add(self, sentence: Sentence) -> None:
        """Add ``sentence`` unless it is already known (empty sentences carry nothing)."""
        if sentence in self.sentences or not sentence.cells:
            if not sentence.cells and sentence.count:
                raise ContradictionError(f"{sentence.count} mine(s) among no cells")
            return
        if not 0 <= sentence.count <= len(sentence.cells):
            raise ContradictionError(
                f"{sentence.count} mine(s) among {len(sentence.cells)} cell(s)",
                cells=sorted(sentence.cells),
            )
        self.sentences.add(sentence)
        for cell in sentence.cells:
            self._by_cell.setdefault(cell, set()).add(sentence)
        for pending in self._pending:
            pending.add(sentence)

    def mark_safe(self, cell: Cell) -> None:
        """Record that ``cell`` is safe."""
        if cell in self.mines:
            raise ContradictionError(f"cell {cell} is known mined, not safe", cells=[cell])
        if cell not in self.safe:
            self.safe.add(cell)
            self._facts.append(cell)

    def mark_mine(self, cell: Cell) -> None:
        """Record that ``cell`` holds a mine."""
        if cell in self.safe:
            raise ContradictionError(f"cell {cell} is known safe, not mined", cells=[cell])
        if cell not in self.mines:
            self.mines.add(cell)
            self._facts.append(cell)

    def learn_clue(self, cell: Cell, value: int) -> None:
        """``cell`` shows ``value``: it is safe, and its neighbours hold ``value`` mines."""
        self.mark_safe(cell)
        self.add(Sentence.of(self.neighbours[cell], value))

    def learn_mine(self, cell: Cell) -> None:
        """``cell`` was revealed as a mine."""
        self.mark_mine(cell)

    def mentioned(self) -> set[Cell]:
        """The cells some sentence is about."""
        return {cell for cell, held in self._by_cell.items() if held}

    # -- the lab's rules ------------------------------------------------------------------

    def infer_all_safe_coordinates(self) -> bool:
        """Rule 1: a sentence with count 0 makes all its cells safe."""
        changed = False
        for sentence in self._take(self._unchecked_safe):
            if sentence.count == 0:
                for cell in sentence.cells:
                    changed |= cell not in self.safe
                    self.mark_safe(cell)
        return changed

    def infer_all_mine_coordinates(self) -> bool:
        """Rule 2: a sentence with as many cells as mines makes them all mines, and leaves."""
        changed = False
        for sentence in self._take(self._unchecked_mines):
            if sentence.count == len(sentence.cells):
                for cell in sentence.cells:
                    self.mark_mine(cell)
                self._remove(sentence)
                changed = True
        return changed

    def simplify_sentences(self) -> bool:
        """Rule 3: strike known safe cells from every sentence, and known mines with their count."""
        touched = self._take(self._unsimplified)
        facts, self._facts = self._facts, []
        for cell in facts:
            touched.update(self._by_cell.get(cell, ()))
        changed = False
        known = self.safe | self.mines if touched else set()
        for sentence in touched:
            if sentence not in self.sentences or sentence.cells.isdisjoint(known):
                continue
            mined = len(sentence.cells & self.mines)
            self._remove(sentence)
            self.add(Sentence(sentence.cells - known, sentence.count - mined))
            changed = True
        return changed

    def merge_sentences(self) -> bool:
        """Rule 4 (merge): when one sentence's cells are a subset of another's, the difference
        is a new sentence with the difference of the counts."""
        changed = False
        for sentence in self._take(self._unmerged):
            if sentence not in self.sentences:
                continue
            for other in self._overlapping(sentence):
                if other.cells < sentence.cells:
                    small, big = other, sentence
                elif sentence.cells < other.cells:
                    small, big = sentence, other
                else:
                    continue
                derived = Sentence(big.cells - small.cells, big.count - small.count)
                if derived not in self.sentences:
                    self.add(derived)
                    changed = True
        return changed

    def make_inferences(self) -> bool:
        """Apply the rules (and merge, with ``merge``) to a fixed point; whether any changed."""
        changed = False
        while True:
            step = self.simplify_sentences()
            step |= self.infer_all_safe_coordinates()
            step |= self.infer_all_mine_coordinates()
            if self.merge:
                step |= self.merge_sentences()
            else:
                self._unmerged.clear()
            step |= bool(self._facts)
            if not step:
                return changed
            changed = True

    def infer(self) -> None:
        """:meth:`make_inferences`, for the agent loop."""
        self.make_inferences()

    # -- helpers --------------------------------------------------------------------------

    @property
    def _pending(self) -> tuple[set[Sentence], ...]:
        """The work lists a new sentence joins: one per rule."""
        return (
            self._unsimplified,
            self._unchecked_safe,
            self._unchecked_mines,
            self._unmerged,
        )

    def _take(self, pending: set[Sentence]) -> set[Sentence]:
        """Empty a work list; return its sentences still in the knowledge base."""
        taken = {s for s in pending if s in self.sentences}
        pending.clear()
        return taken

    def _remove(self, sentence: Sentence) -> None:
        """Drop ``sentence`` and its index entries."""
        self.sentences.discard(sentence)
        for cell in sentence.cells:
            self._by_cell[cell].discard(sentence)

    def _overlapping(self, sentence: Sentence) -> list[Sentence]:
        """The other sentences sharing a cell with ``sentence``."""
        found: set[Sentence] = set()
        for cell in sentence.cells:
            found.update(self._by_cell.get(cell, ()))
        found.discard(sentence)
        return list(found)


class KBAgent(ReasoningAgent):
    """The lab's agent: the three rules; attack a known-safe cell, else a random unknown cell."""

    name = "kb"
    merge = False

    def reasoner(self, neighbours: Sequence[Sequence[Cell]]) -> KnowledgeBase:
        """A knowledge base for a board with this neighbour table."""
        return KnowledgeBase(merge=self.merge, neighbours=neighbours)


class KBMergeAgent(KBAgent):
    """The lab's extra credit: :class:`KBAgent` with :meth:`KnowledgeBase.merge_sentences`."""

    name = "kb-merge"
    merge = True
