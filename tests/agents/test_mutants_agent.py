"""The logical agents' loop: a revealed mine is learnt as a mine (mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.agents import agent
from mineshafted.game import GameStatus, View

NAMES = ["kb", "kb-merge", "basic", "improved", "basic-v2", "improved-v2", "csp", "best"]


@pytest.mark.parametrize("name", NAMES)
def test_a_revealed_mine_counts_toward_the_clues_beside_it(name: str) -> None:
    # "* 1 ?": the mine stepped on at 0 is the 1's mine, so cell 2 is safe.
    view = View([[-1, 1, None]], frozenset(), None, GameStatus.PLAYING)
    assert agent(name).infer(view).safe == {2}
