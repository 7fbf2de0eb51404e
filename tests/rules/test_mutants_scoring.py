"""PatternEval's JSON report: its whole shape and rounding, pinned (mutation testing)."""

from __future__ import annotations

from collections import Counter

from mineshafted.rules import Evaluation, Finish, Play, summary_line

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
