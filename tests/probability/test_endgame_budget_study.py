"""scripts/bench_endgame.py --ran-out: the searches that stop unfinished, counted from the log."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from mineshafted.probability import endgame

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def script() -> dict[str, object]:
    sys.path.insert(0, str(SCRIPTS))
    try:
        return runpy.run_path(str(SCRIPTS / "bench_endgame.py"))
    finally:
        sys.path.remove(str(SCRIPTS))


def test_a_budget_of_one_set_makes_every_search_run_out(
    script: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(endgame, "SMALL_NODES", 1)
    line = script["ran_out"](4, 4, 4, 30)  # type: ignore[operator]
    touched = int(line.split("ran out in ")[1].split(" of")[0])
    searches = int(line.split("), ")[1].split(" searches")[0])
    assert touched > 0 and searches >= touched


def test_with_the_usual_budget_no_small_search_runs_out(script: dict[str, object]) -> None:
    line = script["ran_out"](4, 4, 4, 30)  # type: ignore[operator]
    assert "ran out in 0 of 30 games" in line and line.endswith(", 0 searches in all")


def test_the_log_level_and_handlers_are_left_as_found(script: dict[str, object]) -> None:
    import logging

    log = logging.getLogger(endgame.__name__)
    level, handlers = log.level, list(log.handlers)
    script["ran_out"](4, 4, 4, 3)  # type: ignore[operator]
    assert log.level == level and log.handlers == handlers
