"""The soundness checker: sound, unsound with a counterexample, not proven."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted.rules import Verdict, check_rule, check_rules, parse_rules, read_rules

DATA = Path(__file__).resolve().parents[2] / "mineshafted" / "rules" / "data"


def verdict_of(text: str) -> tuple[Verdict, str, str | None]:
    (rule,) = parse_rules(text).rules
    finding = check_rule(rule)
    return finding.verdict, finding.reason, finding.board


@pytest.mark.parametrize(
    "text",
    [
        "{one ?-- -1- --- => M-- -1- --- no-default-action}",
        "{corner ||| |1- |-? => --- --- --M no-default-action}",
        "{two ??- -2- --- => MM- --- --- no-default-action}",
        "{done *** *n* *** (= matched-mines n) => no-action-pattern click-unknowns}",
        "{full *** *n* *** (= (+ matched-mines matched-unkns) n) "
        "=> no-action-pattern mark-unknowns}",
        "{zero ??? ?0? ??? => XXX XXX XXX no-default-action}",
    ],
    ids=["single-unknown", "corner", "two", "satisfied", "full", "zero"],
)
def test_sound_rules(text: str) -> None:
    verdict, _, board = verdict_of(text)
    assert verdict is Verdict.SOUND
    assert board is None


def test_a_rule_that_never_touches_an_unknown_square_is_sound() -> None:
    verdict, reason, _ = verdict_of("{look --- -1- --- => XXX XXX XXX no-default-action}")
    assert verdict is Verdict.SOUND and "touches no unknown" in reason


def test_an_unsound_mark_comes_with_a_counterexample() -> None:
    verdict, reason, board = verdict_of("{bad ??- -1- --- => M-- -1- --- no-default-action}")
    assert verdict is Verdict.UNSOUND
    assert "marks a safe square at pattern square (0, 0)" in reason
    assert board is not None
    seen, truth = zip(*(line.split() for line in board.splitlines()[1:6]), strict=True)
    # The marked square (0, 0) of the window is square (1, 1) of the drawing: safe there,
    # and the 1's mine is its other unknown neighbour.
    assert seen[1][1] == "?" and truth[1][1] == "."
    assert seen[1][2] == "?" and truth[1][2] == "*"
    assert seen[2][2] == "1"


def test_an_unsound_click_comes_with_a_counterexample() -> None:
    verdict, reason, board = verdict_of(
        "{guess *** *1* *** (= matched-unkns 2) => no-action-pattern click-unknowns}"
    )
    assert verdict is Verdict.UNSOUND and "clicks a mine" in reason
    assert board is not None and "*" in board


def test_the_edge_is_part_of_the_model() -> None:
    # Against the top edge a 1 with two unknowns below can still have either as its mine.
    verdict, reason, board = verdict_of("{edge ||| -1- ?-? => --- --- X-- no-default-action}")
    assert verdict is Verdict.UNSOUND and "clicks a mine" in reason
    assert board is not None and board.splitlines()[1] == "|||||   |||||"


def test_a_rule_resting_on_the_totals_is_not_proven() -> None:
    verdict, reason, board = verdict_of(
        "{last *** *n* *** (= total-mines-remaining matched-unkns) (> matched-unkns 0) "
        "=> no-action-pattern mark-unknowns}"
    )
    assert verdict is Verdict.NOT_PROVEN
    assert "totals" in reason and board is None


def test_a_totals_rule_wrong_whatever_the_totals_is_unsound() -> None:
    verdict, _, _ = verdict_of(
        "{wild *** *1* *** (or (> total-mines-remaining 5) (= matched-unkns 2)) "
        "(= matched-unkns 2) => no-action-pattern click-unknowns}"
    )
    assert verdict is Verdict.UNSOUND


def test_the_shipped_rules_are_sound() -> None:
    for path in sorted(DATA.rglob("*.s4")):
        for finding in check_rules(read_rules(path)):
            assert finding.verdict is Verdict.SOUND, (path.name, finding)
