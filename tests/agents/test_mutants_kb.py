"""The lab's knowledge base: what mutation testing found unchecked (reports, index, errors)."""

from __future__ import annotations

import pytest

from mineshafted.agents import KnowledgeBase, Sentence
from mineshafted.errors import ContradictionError


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
