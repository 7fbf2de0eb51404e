"""The soundness checker: counterexamples are boards, the ring, the report (mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.rules import Verdict, check_rule, parse_rules
from mineshafted.rules.checker import Finding


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
