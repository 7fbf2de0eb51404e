"""The soundness checker: sound, unsound with a counterexample, not proven; a counterexample is a
board the rule sees and goes wrong on, the ring around the window holds mines, squares past an
edge hold none, and a finding reads as JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from mineshafted.rules import Verdict, check_rule, check_rules, parse_rules, read_rules
from mineshafted.rules.checker import Finding

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


@pytest.mark.slow
def test_the_shipped_rules_are_sound() -> None:
    for path in sorted(DATA.rglob("*.s4")):
        for finding in check_rules(read_rules(path)):
            assert finding.verdict is Verdict.SOUND, (path.name, finding)


def finding_of(text: str) -> Finding:
    (rule,) = parse_rules(text).rules
    return check_rule(rule)


UNSOUND = [
    "{bad ??- -1- --- => M-- -1- --- no-default-action}",
    "{guess *** *1* *** (= matched-unkns 2) => no-action-pattern click-unknowns}",
    "{marks *** *2* *** (= matched-mines 1) (= matched-unkns 2) "
    "=> no-action-pattern click-unknowns}",
    "{edge ||| -1- ?-? => --- --- X-- no-default-action}",
    "{side |?? |2? |-- => -X- --- --- no-default-action}",
    "{bottom ?-? -1- ||| => X-- --- --- no-default-action}",
    "{right ?-| -1| ?-| => X-- --- --- no-default-action}",
    "{marked M?? -2- --- => -M- --- --- no-default-action}",
]


@pytest.mark.parametrize("text", UNSOUND)
def test_a_counterexample_is_a_board_the_rule_sees_and_goes_wrong_on(text: str) -> None:
    finding = finding_of(text)
    assert finding.verdict is Verdict.UNSOUND and finding.board is not None
    lines = finding.board.splitlines()
    seen, truth = zip(*(line.split() for line in lines[1:-1]), strict=True)
    size = len(seen)
    assert lines[0].split() == ["seen", "mines"]
    assert lines[0].index("mines") == len(seen[0]) + 3  # each heading over its grid
    assert all(len(row) == size for row in seen + truth)
    assert set("".join(seen)) <= set("|.?M012345678") and set("".join(truth)) <= set("|.*")
    for i in range(size):
        for j in range(size):
            shown, real = seen[i][j], truth[i][j]
            assert (shown == "|") == (real == "|"), (i, j)
            if shown == "M":
                assert real == "*", (i, j)  # a marked square is a mine
            if shown.isdigit():
                around = [
                    truth[a][b]
                    for a in range(max(0, i - 1), min(size, i + 2))
                    for b in range(max(0, j - 1), min(size, j + 2))
                    if (a, b) != (i, j)
                ]
                assert real == "." and int(shown) == around.count("*"), (i, j)
    # The square it goes wrong at is unknown on the left.
    square = finding.reason.rsplit("square ", 1)[1]
    r, c = (int(x) for x in square.strip("()").split(", "))
    assert seen[r + 1][c + 1] == "?"
    assert truth[r + 1][c + 1] == ("*" if "clicks" in finding.reason else ".")


@pytest.mark.parametrize(
    "text",
    [
        # The 1's only possible mines lie in the ring above, or left of, the window; the
        # clicked square is free: unsound, but only if the ring is modelled.
        "{above -1- --- -?- => --- --- -X- no-default-action}",
        "{left --- 1-- -?- => --- --- -X- no-default-action}",
    ],
)
def test_the_ring_around_the_window_holds_mines(text: str) -> None:
    assert finding_of(text).verdict is Verdict.UNSOUND


@pytest.mark.parametrize(
    "text",
    [
        "{bottom ?-- -1- ||| => M-- --- --- no-default-action}",
        "{right ?-| -1| --| => M-- --- --- no-default-action}",
        "{top ||| -1- --? => --- --- --M no-default-action}",
        "{left |-- |1- |-? => --- --- --M no-default-action}",
    ],
)
def test_squares_past_an_edge_hold_no_mine(text: str) -> None:
    assert finding_of(text).verdict is Verdict.SOUND


def test_the_safe_squares_left_are_unknown_to_the_checker() -> None:
    finding = finding_of(
        "{rest ??- -1- --- (= total-non-mines-remaining 5) => M-- -1- --- no-default-action}"
    )
    assert finding.verdict is Verdict.NOT_PROVEN


def test_a_finding_reads_as_json() -> None:
    finding = finding_of("{bad ??- -1- --- => M-- -1- --- no-default-action}")
    assert finding.to_json() == {
        "rule": "bad",
        "verdict": "unsound",
        "reason": finding.reason,
        "counterexample": finding.board,
    }
