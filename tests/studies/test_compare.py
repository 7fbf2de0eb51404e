"""Paired comparisons: Newcombe's interval and McNemar's test as published, honest coverage, and
results files (ours or another program's) read and paired only when they hold the same games."""

from __future__ import annotations

import argparse
import json
import random
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineshafted.studies import (
    JournalError,
    Paired,
    Study,
    StudyError,
    boards_study,
    compare,
    mcnemar,
    newcombe,
    pair,
    read_results,
    run_study,
)

from ..conftest import script
from .conftest import BoardsFile

counts = st.integers(min_value=0, max_value=400)


def test_the_published_example() -> None:
    # Cavo et al. (2012) as Fagerland, Lydersen and Laake work it (Statistical Analysis of
    # Contingency Tables, ch. 8): estimate -0.0621, square-and-add 95% CI -0.1186 to -0.0046;
    # McNemar exact conditional P = 0.052479.
    low, high = newcombe(59, 6, 16, 80)
    assert (round(low, 4), round(high, 4)) == (-0.1186, -0.0046)
    assert round(mcnemar(6, 16), 6) == 0.052479


@given(counts, counts, counts, counts)
def test_the_interval_holds_the_difference_inside_minus_one_to_one(
    a: int, b: int, c: int, d: int
) -> None:
    p = Paired(a, b, c, d)
    low, high = p.ci95
    assert -1.0 <= low <= p.difference <= high <= 1.0
    swapped_low, swapped_high = Paired(a, c, b, d).ci95
    assert swapped_low == pytest.approx(-high) and swapped_high == pytest.approx(-low)


@given(counts, counts, counts)
def test_no_discordant_game_is_no_difference(a: int, b: int, d: int) -> None:
    low, high = newcombe(a, b, b, d)
    assert low <= 0.0 <= high
    assert mcnemar(b, b) == 1.0


def test_the_interval_covers_the_true_difference_95_times_in_100() -> None:
    draw = random.Random(7)
    cells = [0.35, 0.06, 0.03, 0.56]  # both won, first only, second only, neither
    truth = cells[1] - cells[2]
    covered = 0
    for _ in range(2000):
        tally = [0, 0, 0, 0]
        for kind in draw.choices(range(4), weights=cells, k=300):
            tally[kind] += 1
        low, high = newcombe(*tally)
        covered += low <= truth <= high
    assert 0.93 <= covered / 2000 <= 0.975


@pytest.mark.parametrize(("b", "c"), [(0, 3), (1, 0), (2, 9), (12, 4), (30, 31)])
def test_mcnemar_is_the_exact_binomial_tail(b: int, c: int) -> None:
    n = b + c
    tail = sum(comb(n, i) for i in range(n + 1) if comb(n, i) <= comb(n, min(b, c)))
    assert mcnemar(b, c) == pytest.approx(min(1.0, tail / 2**n))


def test_mcnemar_of_many_games_is_a_number() -> None:
    assert 0.0 < mcnemar(4000, 4400) < 0.001 and mcnemar(4000, 4100) > 0.2
    assert mcnemar(50_000, 49_000) < 0.01 and mcnemar(50_000, 10_000) == 0.0


def test_games_are_paired_by_index() -> None:
    first = {0: True, 1: True, 2: False, 3: False, 9: True}
    second = {0: True, 1: False, 2: True, 3: False, 5: True}
    assert pair(first, second) == Paired(both=1, first_only=1, second_only=1, neither=1)


# -- results files ------------------------------------------------------------------------------


def test_two_policies_on_one_boards_file_are_compared(
    boards_file: BoardsFile, tmp_path: Path
) -> None:
    path = boards_file(8, 8, 8, 10)
    best, rand = tmp_path / "best.jsonl", tmp_path / "random.jsonl"
    run_study(boards_study(path), out=best)
    run_study(boards_study(path, policy="random", seed=5), out=rand)
    result = compare(read_results(best), read_results(rand))
    assert result.games == 8
    wins = [json.loads(line)["outcome"] == "won" for line in best.read_text().splitlines()[1:]]
    assert result.first_wins == sum(wins)


def test_another_programs_results_need_only_index_and_outcome(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_text(
        '{"index": 1, "outcome": "won"}\n\n{"index": 0, "outcome": "lost", "ms": 3}\n'
    )
    results = read_results(theirs)
    assert (results.study, results.won) == (None, {0: False, 1: True})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "line 2: not JSON"),
        ("[1, 2]", "line 2: not a JSON object"),
        ('{"outcome": "won"}', "line 2: index: None is not an integer of 0 or more"),
        ('{"index": -1, "outcome": "won"}', "line 2: index: -1 is not an integer"),
        ('{"index": true, "outcome": "won"}', "line 2: index: True is not an integer"),
        ('{"index": 1, "outcome": "draw"}', "line 2: outcome: 'draw' is not won or lost"),
        ('{"index": 0, "outcome": "won"}', "line 2: game 0 again (first on line 1)"),
    ],
)
def test_a_bad_results_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"index": 0, "outcome": "lost"}\n' + line + "\n")
    with pytest.raises(
        JournalError, match=f"^{path}, {message}".replace("(", r"\(").replace(")", r"\)")
    ):
        read_results(path)


def test_an_unreadable_results_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"none\.jsonl: no such file$"):
        read_results(tmp_path / "none.jsonl")


def test_results_of_other_games_are_not_paired(boards_file: BoardsFile, tmp_path: Path) -> None:
    one, other = boards_file(1, name="one.jsonl"), boards_file(2, name="other.jsonl")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_study(boards_study(one), out=a)
    run_study(boards_study(other), out=b)
    with pytest.raises(StudyError, match=r"are not the same games: boards 'sha256:"):
        compare(read_results(a), read_results(b))
    c, d = tmp_path / "c.jsonl", tmp_path / "d.jsonl"
    run_study(Study(9, 9, 10, games=2, seed=1), out=c)
    run_study(Study(9, 9, 10, games=2, seed=2, policy="safest"), out=d)
    with pytest.raises(StudyError, match=r"not the same games: seed 1, not 2$"):
        compare(read_results(c), read_results(d))
    e = tmp_path / "e.jsonl"
    run_study(Study(9, 9, 10, games=2, seed=1, policy="safest"), out=e)
    assert compare(read_results(c), read_results(e)).games == 2  # only the policy differs


@pytest.fixture(scope="module")
def bench_play() -> dict[str, Any]:
    return script("bench_play.py")


def test_bench_play_compares_two_results_files(
    bench_play: dict[str, Any], boards_file: BoardsFile, tmp_path: Path
) -> None:
    path = boards_file(10, 8, 8, 10)
    ours, theirs = tmp_path / "best.jsonl", tmp_path / "theirs.jsonl"
    run_study(boards_study(path), out=ours)
    lines = [json.loads(line) for line in ours.read_text().splitlines()[1:]]
    flipped = [{"index": g["index"], "outcome": "lost"} for g in lines]  # another program's
    theirs.write_text("".join(json.dumps(g) + "\n" for g in flipped))
    table = bench_play["compared"](ours, theirs)
    wins = sum(g["outcome"] == "won" for g in lines)
    assert f"| 10 | {wins} | 0 | {wins * 10:+.2f} points |" in "\n".join(table)
    assert f"A is {ours}, B {theirs}." in table and "taken on trust" in table[-1]


def test_bench_play_pairs_only_the_games_of_its_indices(
    bench_play: dict[str, Any], tmp_path: Path
) -> None:
    # A wins the even games, B none: games 2-4 hold two of A's wins, games 0-5 three.
    ours, theirs = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    outcomes = ["won", "lost", "won", "lost", "won", "lost"]
    ours.write_text(
        "".join(json.dumps({"index": i, "outcome": o}) + "\n" for i, o in enumerate(outcomes))
    )
    theirs.write_text("".join(json.dumps({"index": i, "outcome": "lost"}) + "\n" for i in range(6)))
    some = bench_play["compared"](ours, theirs, range(2, 5))
    assert "| 3 | 2 | 0 | +66.67 points |" in "\n".join(some)
    assert some[-1].startswith("Paired by index: 3 games in both of games 2 to 4")
    every = bench_play["compared"](ours, theirs)
    assert "| 6 | 3 | 0 | +50.00 points |" in "\n".join(every)


def test_bench_play_reads_indices_as_start_and_end(bench_play: dict[str, Any]) -> None:
    assert bench_play["_indices"]("2:5") == range(2, 5)


@pytest.mark.parametrize("text", ["5", "5:x", "5:5", "-1:3", "9:2", ":4"])
def test_bench_play_refuses_indices_that_hold_no_game(
    bench_play: dict[str, Any], text: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="START"):
        bench_play["_indices"](text)


def test_bench_play_refuses_indices_without_compare(
    bench_play: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_play["main"](["--indices", "0:10"])
    assert stopped.value.code == 2
    assert "give --compare too" in capsys.readouterr().err
