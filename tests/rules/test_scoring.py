"""PatternEval's scoring formulas and summary line, and its JSON report: every board, the totals
rounded."""

from __future__ import annotations

from collections import Counter

import pytest

from mineshafted.rules import Evaluation, Finish, Play, summary_line


def test_a_won_board_scores_clicks_minus_guesses_plus_time_left() -> None:
    assert Play(Finish.WON, 675, 12, 0, 7.5, 30.0).score == pytest.approx(675 - 12 + 0.75)


@pytest.mark.parametrize("finish", [Finish.LOST, Finish.TIMEOUT])
def test_an_unfinished_board_scores_minus_remaining_minus_guesses(finish: Finish) -> None:
    assert Play(finish, 400, 9, 275, 1.0, 30.0).score == -275 - 9


def test_a_board_won_past_nothing_of_the_limit_gets_no_time_bonus() -> None:
    assert Play(Finish.WON, 10, 1, 0, 31.0, 30.0).score == 9


def test_the_summary_line_has_the_original_shape() -> None:
    plays = [Play(Finish.WON, 225, g, 0, 0.388, 30.0) for g in (12, 13, 13)]
    line = summary_line(Evaluation([(str(n), p) for n, p in enumerate(plays)]))
    assert line == "639.9612 pts, 3-0-0; Avg Guesses: 12.666666 Avg Time: 388.0"


def test_the_summary_counts_wins_losses_and_timeouts() -> None:
    plays = [
        Play(Finish.WON, 10, 0, 0, 0.0, 30.0),
        Play(Finish.LOST, 2, 1, 8, 0.002, 30.0),
        Play(Finish.TIMEOUT, 3, 2, 7, 0.004, 30.0),
    ]
    evaluation = Evaluation([("b", p) for p in plays])
    assert summary_line(evaluation) == "-7.0000 pts, 1-1-1; Avg Guesses: 1.000000 Avg Time: 2.0"
    data = evaluation.to_json()
    assert (data["won"], data["lost"], data["timeouts"]) == (1, 1, 1)
    assert [b["finish"] for b in data["boards"]] == ["won", "lost", "timeout"]


WON = Play(Finish.WON, 10, 2, 0, 0.0012346, 30.0, Counter({"a": 3, "b": 1}), [("b", 4)])

LOST = Play(Finish.LOST, 4, 1, 6, 0.002, 30.0, Counter({"a": 2}), [], "a")


def test_the_report_has_every_board_and_the_totals_rounded() -> None:
    evaluation = Evaluation([("one", WON), ("two", LOST)])
    assert evaluation.to_json() == {
        "boards": [
            {
                "name": "one",
                "finish": "won",
                "score": 8.999959,  # 10 - 2 + (1 - 0.0012346 / 30), to 6 places
                "clicked": 10,
                "guesses": 2,
                "remaining": 0,
                "ms": 1.235,
                "lost_to": None,
                "fired": {"a": 3, "b": 1},
                "stuck": [["b", 4]],
            },
            {
                "name": "two",
                "finish": "lost",
                "score": -7,
                "clicked": 4,
                "guesses": 1,
                "remaining": 6,
                "ms": 2.0,
                "lost_to": "a",
                "fired": {"a": 2},
                "stuck": [],
            },
        ],
        "score": 1.999959,
        "won": 1,
        "lost": 1,
        "timeouts": 0,
        "average_guesses": 1.5,
        "average_ms": 1.617,
        "rule_usage": {"a": 5, "b": 1},
        "summary": summary_line(evaluation),
    }
