"""``matches``: the totals its conditions see (mutation testing)."""

from __future__ import annotations

import pytest

from mineshafted.rules import matches, parse_rules


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
