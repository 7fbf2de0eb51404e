"""scripts/bench_endgame.py --ran-out: the searches that stop unfinished, counted from the log."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from mineshafted.probability import endgame

from ..conftest import script


@pytest.fixture(scope="module")
def ran_out() -> Callable[..., str]:
    function: Callable[..., str] = script("bench_endgame.py")["ran_out"]
    return function


def _figures(line: str) -> tuple[int, int]:
    """(games in which a search ran out, searches that ran out) from ``ran_out``'s line."""
    games = int(line.split("ran out in ")[1].split(" of")[0])
    searches = int(line.split("), ")[1].split(" searches")[0])
    return games, searches


def test_each_search_that_runs_out_is_counted_and_no_finished_one(
    ran_out: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A budget of 50 sets on 4x4/4: some searches finish, most run out (counted independently
    # here, by the search's own root).
    seen: Counter[str] = Counter()
    root = endgame._Search.root

    def counted(search: Any) -> tuple[int, int]:
        try:
            answer: tuple[int, int] = root(search)
        except endgame._OutOfNodes:
            seen["ran out"] += 1
            raise
        seen["finished"] += 1
        return answer

    monkeypatch.setattr(endgame, "SMALL_NODES", 50)
    monkeypatch.setattr(endgame._Search, "root", counted)
    games, searches = _figures(ran_out(4, 4, 4, 30))
    assert seen["finished"] > 0 and seen["ran out"] > 0
    assert searches == seen["ran out"]
    assert 0 < games <= searches


def test_the_logger_is_left_as_found(ran_out: Callable[..., str]) -> None:
    log = logging.getLogger(endgame.__name__)
    before = (log.level, list(log.handlers), log.propagate)
    ran_out(4, 4, 4, 3)
    assert (log.level, list(log.handlers), log.propagate) == before
