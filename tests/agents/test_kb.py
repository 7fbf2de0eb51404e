"""The CS440 lab's knowledge base: each inference rule and merge on hand-made sentences; what the
rules report as a change, and the cells a contradiction names."""

from __future__ import annotations

import pytest

from mineshafted.agents import KnowledgeBase, Sentence
from mineshafted.board import Geometry
from mineshafted.errors import ContradictionError


def kb_of(*sentences: tuple[list[int], int], merge: bool = False) -> KnowledgeBase:
    kb = KnowledgeBase(merge=merge)
    for cells, count in sentences:
        kb.add(Sentence.of(cells, count))
    return kb


def test_a_sentence_with_count_zero_makes_all_its_cells_safe() -> None:
    kb = kb_of(([1, 2, 3], 0), ([4, 5], 1))
    assert kb.infer_all_safe_coordinates()
    assert kb.safe == {1, 2, 3}
    assert not kb.mines


def test_a_sentence_as_full_as_its_count_makes_mines_and_leaves() -> None:
    kb = kb_of(([1, 2], 2), ([4, 5, 6], 2))
    assert kb.infer_all_mine_coordinates()
    assert kb.mines == {1, 2}
    assert kb.sentences == {Sentence.of([4, 5, 6], 2)}


def test_the_rules_change_nothing_when_no_sentence_qualifies() -> None:
    kb = kb_of(([1, 2], 1))
    assert not kb.infer_all_safe_coordinates()
    assert not kb.infer_all_mine_coordinates()
    assert not kb.simplify_sentences()
    assert kb.sentences == {Sentence.of([1, 2], 1)} and not kb.safe and not kb.mines


def test_simplify_strikes_safe_cells_and_mines_with_their_count() -> None:
    kb = kb_of(([1, 2, 3, 4], 2))
    kb.mark_safe(1)
    kb.mark_mine(2)
    assert kb.simplify_sentences()
    assert kb.sentences == {Sentence.of([3, 4], 1)}


def test_simplify_reaches_sentences_added_after_the_fact() -> None:
    kb = KnowledgeBase()
    kb.mark_mine(7)
    kb.simplify_sentences()
    kb.add(Sentence.of([6, 7, 8], 1))
    assert kb.simplify_sentences()
    assert kb.sentences == {Sentence.of([6, 8], 0)}


def test_merge_adds_the_difference_of_a_subset() -> None:
    kb = kb_of(([1, 2, 3], 2), ([2, 3], 1), merge=True)
    assert kb.merge_sentences()
    assert Sentence.of([1], 1) in kb.sentences
    assert len(kb.sentences) == 3


def test_merge_ignores_sentences_that_only_overlap() -> None:
    kb = kb_of(([1, 2], 1), ([2, 3], 1), merge=True)
    assert not kb.merge_sentences()
    assert len(kb.sentences) == 2


def test_make_inferences_reaches_the_fixed_point_of_all_four_rules() -> None:
    # {1,2,3}=2, {2,3}=1 -> {1}=1 (merge) -> 1 is a mine; {1,4}=1 then says 4 is safe.
    kb = kb_of(([1, 2, 3], 2), ([2, 3], 1), ([1, 4], 1), merge=True)
    assert kb.make_inferences()
    assert kb.mines == {1}
    assert kb.safe == {4}
    assert not kb.make_inferences()


def test_without_merge_the_subset_teaches_nothing() -> None:
    kb = kb_of(([1, 2, 3], 2), ([2, 3], 1), ([1, 4], 1))
    assert not kb.make_inferences()
    assert not kb.mines and not kb.safe


def test_a_sentence_is_kept_once_however_often_it_is_learnt() -> None:
    # Two clues that see the same hidden cells give the same sentence after simplification.
    kb = KnowledgeBase(neighbours=Geometry(2, 3).neighbour_table())
    kb.learn_clue(3, 1)  # neighbours 0, 1, 4
    kb.learn_clue(4, 1)  # neighbours 0, 1, 2, 3, 5
    kb.learn_clue(5, 1)  # neighbours 1, 2, 4
    kb.add(Sentence.of([0, 1], 1))
    kb.make_inferences()
    assert sorted(sorted(s.cells) for s in kb.sentences) == [[0, 1], [0, 1, 2], [1, 2]]
    kb.learn_clue(3, 1)
    kb.make_inferences()
    assert len(kb.sentences) == 3


def test_a_revealed_clue_is_safe_and_says_its_neighbours_count() -> None:
    # The row "0 1 *": the 0 clears cell 1; the 1 then puts the mine on cell 2.
    kb = KnowledgeBase(neighbours=Geometry(1, 3).neighbour_table())
    kb.learn_clue(0, 0)
    kb.make_inferences()
    assert kb.safe == {0, 1}
    kb.learn_clue(1, 1)
    kb.make_inferences()
    assert kb.mines == {2}
    assert not kb.sentences


def test_contradictory_knowledge_raises() -> None:
    kb = KnowledgeBase()
    kb.mark_mine(3)
    with pytest.raises(ContradictionError):
        kb.mark_safe(3)
    with pytest.raises(ContradictionError):
        kb.add(Sentence.of([1, 2], 3))


def test_an_empty_sentence_is_not_kept() -> None:
    kb = KnowledgeBase()
    kb.add(Sentence.of([], 0))
    assert not kb.sentences


def test_the_safe_rule_reports_a_change_when_any_cell_is_new() -> None:
    # Cell 2 was already safe; cell 1 is new (frozensets of small ints iterate ascending).
    kb = KnowledgeBase()
    kb.mark_safe(2)
    kb.add(Sentence.of([1, 2], 0))
    assert kb.infer_all_safe_coordinates()
    assert kb.safe == {1, 2}


def test_a_simplification_alone_is_reported_as_a_change() -> None:
    for merge in (False, True):
        kb = KnowledgeBase(merge=merge)
        kb.add(Sentence.of([1, 2, 3], 1))
        assert kb.make_inferences() is False
        kb.mark_safe(1)
        assert kb.make_inferences() is True
        assert kb.sentences == {Sentence.of([2, 3], 1)}


def test_a_mine_learnt_later_simplifies_the_sentences_already_checked() -> None:
    kb = KnowledgeBase()
    kb.add(Sentence.of([1, 2, 3], 1))
    kb.make_inferences()
    kb.mark_mine(1)
    kb.make_inferences()
    assert kb.safe == {2, 3}


def test_a_sentence_that_leaves_is_no_longer_mentioned() -> None:
    kb = KnowledgeBase()
    kb.add(Sentence.of([1, 2], 2))
    kb.add(Sentence.of([3, 4], 1))
    kb.make_inferences()
    assert kb.mines == {1, 2}
    assert kb.mentioned() == {3, 4}


def test_contradictions_name_their_cells() -> None:
    kb = KnowledgeBase()
    kb.mark_mine(3)
    kb.mark_safe(4)
    with pytest.raises(ContradictionError, match="cell 3") as caught:
        kb.mark_safe(3)
    assert caught.value.cells == (3,)
    with pytest.raises(ContradictionError, match="cell 4") as caught:
        kb.mark_mine(4)
    assert caught.value.cells == (4,)
    with pytest.raises(ContradictionError, match="3 mine") as caught:
        kb.add(Sentence.of([2, 1], 3))
    assert caught.value.cells == (1, 2)
    with pytest.raises(ContradictionError, match="1 mine"):
        kb.add(Sentence.of([], 1))
