"""``matches``: the totals its conditions see; level 6 tells what it found (mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.board import Board
from mineshafted.rules import Ruleset, matches, parse_rules, play


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("(= total-non-mines-remaining 3)", True),  # every unknown square counts as safe
        ("(= total-non-mines-remaining 2)", False),
        ("(= total-mines-remaining 0)", True),  # and no marks are left to place
        ("(= total-mines-remaining 1)", False),
    ],
)
def test_matches_sees_the_unknown_squares_as_the_safe_ones_remaining(
    condition: str, expected: bool
) -> None:
    (rule,) = parse_rules(
        f"{{r *** *?* *** {condition} => no-action-pattern no-default-action}}"
    ).rules
    seen = ["1?1", "?M1", "1?1"]
    assert (matches(rule, seen, 1, 1) is not None) is False  # the centre is marked, not unknown
    assert (matches(rule, seen, 0, 1) is not None) is expected


def test_level_6_tells_what_the_failing_square_holds() -> None:
    # At (0, 0) the pattern's corner square lies over the edge, while the board's (1, 1),
    # the square on the other side of the centre, is unknown.
    (only,) = parse_rules("{r ?-- --- --- => no-action-pattern no-default-action}").rules
    lines: list[str] = []
    play(Ruleset((only,)), Board.from_mines(3, 3, [8]), seed=1, debug=6, echo=lines.append)
    assert (
        "try r at (0, 0): square (0, 0) of the pattern wants an unknown square, found over the edge"
    ) in lines
