"""SmartSweeper's semantics: pattern characters, conditions, order, loops, limits, speed."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.board import Board
from mineshafted.game import Flag, Reveal
from mineshafted.rules import (
    Finish,
    Ruleset,
    chance_board,
    evaluate,
    holds,
    matches,
    parse_rules,
    play,
    read_rules,
)

DATA = Path(__file__).resolve().parents[2] / "mineshafted" / "rules" / "data"


def rule(text: str) -> Ruleset:
    return parse_rules(text)


def lhs(pattern: str, *conditions: str) -> Ruleset:
    """A rule with this left-hand side (rows separated by spaces) and no action."""
    return rule(f"{{r {pattern} {' '.join(conditions)} => no-action-pattern no-default-action}}")


# -- each pattern character ------------------------------------------------------------------

POSITION = ["?M1", "2-0", "?33"]
"""A drawn position: unknown, marked, numbers (the ``-`` of row 1 is not a valid glyph)."""


def at(pattern: str, seen: list[str], row: int, col: int, *conditions: str) -> bool:
    (only,) = lhs(pattern, *conditions).rules
    return matches(only, seen, row, col) is not None


@pytest.mark.parametrize(
    ("char", "square", "expected"),
    [
        ("M", "M", True),
        ("M", "?", False),
        ("M", "1", False),
        ("1", "1", True),
        ("1", "2", False),
        ("1", "?", False),
        ("-", "0", True),
        ("-", "7", True),
        ("-", "?", False),
        ("-", "M", False),
        ("?", "?", True),
        ("?", "M", False),
        ("?", "0", False),
        ("*", "?", True),
        ("*", "M", True),
        ("*", "4", True),
        ("n", "4", True),
        ("n", "?", False),
        ("n", "M", False),
        ("|", "?", False),
        ("|", "1", False),
    ],
)
def test_each_character_on_the_board(char: str, square: str, expected: bool) -> None:
    # The centre of a 3x3 board; the rest of the pattern matches anything.
    seen = ["000", f"0{square}0", "000"]
    assert at(f"*** *{char}* ***", seen, 1, 1) is expected


@pytest.mark.parametrize(("char", "expected"), [("|", True), ("*", True), ("?", False)])
def test_characters_over_the_edge(char: str, expected: bool) -> None:
    # Centred on the upper-left corner: the top row and left column are over the edge.
    seen = ["11", "11"]
    pattern = f"{char * 3} {char}** {char}**"
    assert at(pattern, seen, 0, 0) is expected


def test_the_same_letter_must_be_the_same_number() -> None:
    assert at("a-a --- ---", ["202", "000", "000"], 1, 1)
    assert not at("a-a --- ---", ["203", "000", "000"], 1, 1)
    assert at("a-b --- ---", ["203", "000", "000"], 1, 1)


def test_wildcards_count_unknowns_and_marks() -> None:
    (only,) = lhs("*** *n* ***").rules
    env = matches(only, ["?M1", "?3M", "M00"], 1, 1)
    assert env is not None
    assert (env["n"], env["matched-unkns"], env["matched-mines"]) == (3, 2, 3)


def test_conditions_decide_the_match() -> None:
    seen = ["?M1", "?3M", "M00"]
    assert at("*** *n* ***", seen, 1, 1, "(= matched-mines n)")
    assert not at("*** *n* ***", seen, 1, 1, "(= matched-unkns n)")


# -- conditions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("(= (quotient 7 2) 3)", True),
        ("(= (quotient -7 2) -3)", True),
        ("(= (remainder -7 2) -1)", True),
        ("(= (remainder 7 -2) 1)", True),
        ("(< 1 2 3)", True),
        ("(< 1 3 2)", False),
        ("(>= 3 3 1)", True),
        ("(<= 1 1 0)", False),
        ("(= (- 5) -5)", True),
        ("(= (- 10 1 2) 7)", True),
        ("(= (* 2 3 4) (+ 20 4))", True),
        ("(and)", True),
        ("(or)", False),
        ("(and #t (or #f (not #f)))", True),
        ("(if (> n 2) (= n 3) #f)", True),
        ("(if (> n 5) #t (= (if #f 1 2) 2))", True),
    ],
)
def test_the_evaluator(condition: str, expected: bool) -> None:
    (only,) = lhs("--- -n- ---", condition).rules
    assert evaluate(only.conditions[0], {"n": 3}) is expected


def test_a_division_by_zero_makes_a_condition_false() -> None:
    (only,) = lhs("--- -n- ---", "(= (quotient 1 n) 0)").rules
    assert holds(only.conditions, {"n": 0}) is False
    assert holds(only.conditions, {"n": 2}) is True


# -- playing ---------------------------------------------------------------------------------

BOARD = Board.from_text(
    """
    . . . . .
    . . . . .
    * . . . *
    . . * . .
    """
)


def test_no_rules_win_every_board_by_guesses() -> None:
    for seed in range(5):
        board = chance_board(8, 8, 25, seed=seed)
        result = play(Ruleset(()), board, seed=seed)
        assert result.finish is Finish.WON
        assert result.clicked == board.safe_count
        assert result.remaining == 0
        assert result.guesses >= 1


def test_without_expansion_every_square_is_a_guess() -> None:
    result = play(Ruleset(()), BOARD, seed=3, auto_expand=False)
    assert result.finish is Finish.WON
    assert result.guesses == BOARD.safe_count


def test_clicking_a_mine_loses() -> None:
    reckless = rule("{click *** *n* *** => no-action-pattern click-unknowns}")
    result = play(reckless, BOARD, seed=1)
    assert result.finish is Finish.LOST
    assert result.lost_to == "click"
    assert result.score == -result.remaining - result.guesses


def test_marking_a_safe_square_loses() -> None:
    reckless = rule("{mark *** *n* *** (> matched-unkns 0) => no-action-pattern mark-unknowns}")
    result = play(reckless, BOARD, seed=1)
    assert result.finish is Finish.LOST
    assert result.lost_to == "mark"


def test_level_1_tells_the_mark_that_lost() -> None:
    reckless = rule("{mark *** *n* *** (> matched-unkns 0) => no-action-pattern mark-unknowns}")
    lines: list[str] = []
    play(reckless, BOARD, seed=1, debug=1, echo=lines.append)
    assert lines == ["mark marked a square that is not a mine at (3, 0): lost"]


def test_without_a_debug_level_the_mark_that_lost_is_logged_as_info(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reckless = rule("{mark *** *n* *** (> matched-unkns 0) => no-action-pattern mark-unknowns}")
    with caplog.at_level(logging.INFO, logger="mineshafted.rules.interpreter"):
        play(reckless, BOARD, seed=1)
    told = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert (logging.INFO, "mark marked a square that is not a mine at (3, 0): lost") in told


def test_sound_rules_win_with_fewer_guesses() -> None:
    champion = read_rules(DATA / "champion.s4")
    board = chance_board(16, 16, 20, seed=4)
    alone = play(Ruleset(()), board, seed=4)
    helped = play(champion, board, seed=4)
    assert helped.finish is Finish.WON
    assert helped.guesses < alone.guesses
    assert sum(helped.fired.values()) > 0


def firings(ruleset: Ruleset, board: Board, seed: int, *, naive: bool = False) -> list[str]:
    lines: list[str] = []
    play(ruleset, board, seed=seed, debug=4, echo=lines.append, naive=naive)
    return [line for line in lines if line.startswith(("fire", "loop", "no rule"))]


def test_rules_are_tried_in_file_order_and_restart_from_the_top() -> None:
    both = """
    {safe *** *n* *** (= matched-mines n) (> matched-unkns 0) => no-action-pattern click-unknowns}
    {mines *** *n* *** (= (+ matched-mines matched-unkns) n) (> matched-unkns 0)
     => no-action-pattern mark-unknowns}
    """
    lines = firings(rule(both), chance_board(12, 12, 22, seed=9), 9)
    fired = [line.split()[1] for line in lines if line.startswith("fire")]
    assert "safe" in fired and "mines" in fired
    # Swapped, "mines" is tried first wherever both apply: the moves differ.
    first, second = both.strip().split("\n    {")
    swapped = firings(rule("{" + second + "\n" + first), chance_board(12, 12, 22, seed=9), 9)
    assert lines != swapped


def test_positions_are_tried_top_to_bottom_then_left_to_right() -> None:
    ones = rule("{ones --- -1- --- => no-action-pattern no-default-action}")
    lines: list[str] = []
    play(ones, BOARD, seed=1, debug=6, echo=lines.append)
    tries = [line for line in lines if line.startswith("try")]
    places = [line.split(" at ")[1].split(":")[0] for line in tries[:6]]
    assert places == ["(0, 0)", "(0, 1)", "(0, 2)", "(0, 3)", "(0, 4)", "(1, 0)"]
    assert tries[0].endswith("square (1, 1) of the pattern wants a 1, found unknown")


def test_a_rule_that_changes_nothing_is_skipped_not_looped() -> None:
    noop = rule("{noop --- -n- --- => XXX XXX XXX no-default-action}")
    result = play(noop, chance_board(10, 10, 15, seed=2), seed=2, debug=2, echo=lambda _: None)
    assert result.finish is Finish.WON
    assert result.stuck
    assert all(name == "noop" for name, _ in result.stuck)
    assert len(result.stuck) == len(set(result.stuck))
    assert not result.fired


def test_level_6_tells_each_try_at_a_square_where_the_rule_is_stuck() -> None:
    noop = rule("{noop --- -n- --- => XXX XXX XXX no-default-action}")
    board = chance_board(6, 6, 4, seed=2)
    lines: list[str] = []
    result = play(noop, board, seed=2, debug=6, echo=lines.append)
    assert result.stuck
    name, cell = result.stuck[0]
    row, col = board.geometry.coords(cell)
    assert f"try {name} at ({row}, {col}): stuck there" in lines


def test_level_6_tells_a_try_whose_pattern_matches_but_a_condition_fails() -> None:
    never = rule("{r *** *?* *** (> matched-unkns 8) => no-action-pattern no-default-action}")
    lines: list[str] = []
    play(never, Board.from_mines(3, 3, [8]), seed=1, debug=6, echo=lines.append)
    assert "try r at (0, 0): a condition fails" in lines


# "0 1 * 1": seed 1's free guess at (0, 0) shows "0 1"; then the 1 sees one unknown square.
MARK_ONE = (
    "{mine *** *1* *** (= matched-unkns 1) (= matched-mines 0) => no-action-pattern mark-unknowns}"
)


def test_level_5_shows_the_board_after_each_rule_that_fires() -> None:
    lines: list[str] = []
    play(rule(MARK_ONE), Board.from_mines(1, 4, [2]), seed=1, debug=5, echo=lines.append)
    assert lines[lines.index("fire mine at (0, 1)") + 1] == "01M?"


def test_the_record_names_the_rule_that_made_each_mark() -> None:
    result = play(rule(MARK_ONE), Board.from_mines(1, 4, [2]), seed=1)
    assert result.record is not None
    assert [e for e in result.record.events if isinstance(e, Flag)] == [Flag(2, reason="mine")]


def test_the_totals_count_each_mark_and_each_unknown_square_left() -> None:
    # "1 * 1 0 1 * 1": "last" clicks an unknown square once no mine and one safe square are left.
    last = (
        "{last *** *?* *** (= total-mines-remaining 0) (= total-non-mines-remaining 1)"
        " => --- -X- --- no-default-action}"
    )
    result = play(rule(MARK_ONE + last), Board.from_mines(1, 7, [1, 5]), seed=3)
    assert result.record is not None
    moves = [
        (type(e).__name__, e.cell, e.reason)
        for e in result.record.events
        if isinstance(e, (Reveal, Flag))
    ]
    assert moves == [
        ("Reveal", 2, "free guess"),
        ("Reveal", 3, "free guess"),
        ("Flag", 1, "mine"),
        ("Flag", 5, "mine"),
        ("Reveal", 6, "free guess"),  # two unknown squares left: "last" waits
        ("Reveal", 0, "last"),
    ]


def test_level_6_tells_the_try_that_matches() -> None:
    lines: list[str] = []
    play(rule(MARK_ONE), Board.from_mines(1, 4, [2]), seed=1, debug=6, echo=lines.append)
    assert "try mine at (0, 1): matches" in lines


def test_the_time_limit() -> None:
    ticks = itertools.count()
    result = play(
        Ruleset(()),
        chance_board(10, 10, 20, seed=1),
        seed=1,
        time_limit=2.5,
        clock=lambda: float(next(ticks)),
    )
    assert result.finish is Finish.TIMEOUT
    assert result.remaining > 0
    assert result.score == -result.remaining - result.guesses


def test_a_zero_time_limit_times_out_at_once() -> None:
    result = play(Ruleset(()), BOARD, seed=1, time_limit=0.0, clock=iter([0.0, 1.0, 1.0]).__next__)
    assert result.finish is Finish.TIMEOUT and result.clicked == 0


TOTALS = """
{last *** *n* *** (= total-mines-remaining 0) (> matched-unkns 0)
 => no-action-pattern click-unknowns}
{safe *** *n* *** (= matched-mines n) (> matched-unkns 0) => no-action-pattern click-unknowns}
{mines *** *n* *** (= (+ matched-mines matched-unkns) n) (> matched-unkns 0)
 => no-action-pattern mark-unknowns}
{pair ?-- -1- --- => M-- --- --- no-default-action}
{noop *a* --- *-* => -X- --- --- no-default-action}
"""


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(3, 9),
    cols=st.integers(3, 9),
    percent=st.integers(5, 35),
    seed=st.integers(0, 10_000),
)
@pytest.mark.slow
def test_the_bookkept_interpreter_moves_exactly_as_a_full_rescan(
    rows: int, cols: int, percent: int, seed: int
) -> None:
    board = chance_board(rows, cols, percent, seed=seed)
    if board.safe_count == 0:
        return
    champion = read_rules(DATA / "champion.s4")
    ruleset = Ruleset(rule(TOTALS).rules + champion.rules[2:])
    assert firings(ruleset, board, seed) == firings(ruleset, board, seed, naive=True)
    fast = play(ruleset, board, seed=seed)
    slow = play(ruleset, board, seed=seed, naive=True)
    assert (fast.finish, fast.clicked, fast.guesses, fast.fired, fast.stuck) == (
        slow.finish,
        slow.clicked,
        slow.guesses,
        slow.fired,
        slow.stuck,
    )


@pytest.mark.slow  # a whole 30x30 game; its time is scripts/bench_rules.py's "avg ms" column
def test_the_champion_wins_a_30x30_board_at_25_percent() -> None:
    champion = read_rules(DATA / "champion.s4")
    board = chance_board(30, 30, 25, seed=11)
    result = play(champion, board, seed=11)
    assert result.finish is Finish.WON


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
