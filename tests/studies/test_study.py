"""Studies: the same games whatever runs them, resumable results files, honest summaries."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineshafted.game import GameStatus
from mineshafted.studies import (
    GameLine,
    JournalError,
    MissingExtraError,
    Study,
    StudyError,
    game_seed,
    summarise,
    wilson,
)

from .conftest import run_lines

BEGINNER = Study(9, 9, 10, games=20, seed=11)


def outcomes(lines: list[GameLine]) -> list[tuple[int, int, GameStatus, int]]:
    """The lines without their times: what must not depend on how the games were run."""
    return [(line.index, line.seed, line.outcome, line.guesses) for line in lines]


@pytest.fixture(scope="module")
def serial() -> list[tuple[int, int, GameStatus, int]]:
    return outcomes(run_lines(BEGINNER).lines)


def test_game_i_depends_on_the_base_seed_and_i_alone() -> None:
    seeds = [game_seed(11, i) for i in range(100)]
    assert len(set(seeds)) == 100 and seeds == [game_seed(11, i) for i in range(100)]
    assert game_seed(12, 0) != seeds[0]
    assert all(0 <= seed < 2**63 for seed in seeds)


@pytest.mark.slow
def test_two_processes_play_the_same_games_as_one(serial: list[tuple]) -> None:
    assert outcomes(run_lines(BEGINNER, jobs=2).lines) == serial


@pytest.mark.slow
def test_a_dask_local_cluster_plays_the_same_games(serial: list[tuple]) -> None:
    pytest.importorskip("distributed")
    finished = run_lines(BEGINNER, jobs=1, dask="local", dask_processes=False)
    assert outcomes(finished.lines) == serial


@pytest.mark.slow  # a local Dask cluster
def test_a_dask_cluster_is_fed_chunks_as_they_finish(
    monkeypatch: pytest.MonkeyPatch, serial: list[tuple]
) -> None:
    # A few chunks ahead at a time, not the whole study at once: a study of any length (or the
    # lines of any boards file) runs on Dask in bounded memory.
    pytest.importorskip("distributed")
    from mineshafted.studies import cluster

    monkeypatch.setattr(cluster, "DASK_AHEAD", 1)
    sent, played, most = [0], [0], [0]
    part = cluster.part_of

    def counted(study: object, chunk: list[int]) -> object:
        sent[0] += 1
        most[0] = max(most[0], sent[0] - played[0])
        return part(study, chunk)  # type: ignore[arg-type]

    def finished_one(line: GameLine, done: int) -> None:
        played[0] = done

    monkeypatch.setattr(cluster, "part_of", counted)
    finished = run_lines(BEGINNER, jobs=1, dask="local", dask_processes=False, on_game=finished_one)
    assert outcomes(finished.lines) == serial
    assert sent[0] == 20 and most[0] <= 5  # 4 ahead for the one worker thread, and the next


def test_dask_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'mineshafted\[dask\]'"):
        run_lines(BEGINNER, dask="local")


def test_an_interrupted_study_resumes_where_it_stopped(tmp_path: Path, serial: list[tuple]) -> None:
    out = tmp_path / "study.jsonl"

    def stop_after_seven(line: GameLine, done: int) -> None:
        if done == 7:
            raise KeyboardInterrupt

    first = run_lines(BEGINNER, out=out, on_game=stop_after_seven)
    assert first.interrupted and len(first.lines) == 7
    assert len(out.read_text().splitlines()) == 1 + 7
    again = run_lines(BEGINNER, out=out)
    assert not again.interrupted and again.resumed == 7
    assert outcomes(again.lines) == serial
    assert len(out.read_text().splitlines()) == 1 + 20


def test_a_finished_study_plays_nothing_more(tmp_path: Path) -> None:
    out = tmp_path / "study.jsonl"
    run_lines(BEGINNER, out=out)
    played: list[int] = []
    again = run_lines(BEGINNER, out=out, on_game=lambda line, done: played.append(line.index))
    assert played == [] and again.resumed == 20 and len(again.lines) == 20


def test_a_partial_file_written_by_hand_is_resumed(tmp_path: Path, serial: list[tuple]) -> None:
    out = tmp_path / "study.jsonl"
    done = run_lines(replace(BEGINNER, games=3)).lines
    lines = [json.dumps({"study": BEGINNER.key})]
    lines += [json.dumps(line.to_json()) for line in done]
    out.write_text("\n".join(lines) + '\n{"index": 3, "se')  # the last line cut short
    finished = run_lines(BEGINNER, out=out)
    assert finished.resumed == 3 and outcomes(finished.lines) == serial


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_with_gaps_in_any_order_plays_exactly_the_missing_games(
    tmp_path: Path, serial: list[tuple], jobs: int
) -> None:
    # Chunks finish out of order and an interruption drops those under way: the games left
    # are the gaps, wherever they are, each played once.
    out = tmp_path / "study.jsonl"
    every = {line.index: line for line in run_lines(BEGINNER).lines}
    kept = [17, 16, 0, 1, 2, 3, 9, 8, 12, 5]
    out.write_text(
        json.dumps({"study": BEGINNER.key})
        + "\n"
        + "".join(json.dumps(every[i].to_json()) + "\n" for i in kept)
    )
    played: list[int] = []
    again = run_lines(BEGINNER, out=out, jobs=jobs, on_game=lambda line, n: played.append(n))
    assert again.resumed == len(kept) and played == list(range(len(kept) + 1, 21))
    assert outcomes(again.lines) == serial
    indices = [json.loads(line)["index"] for line in out.read_text().splitlines()[1:]]
    assert indices[: len(kept)] == kept
    assert sorted(indices[len(kept) :]) == sorted(set(range(20)) - set(kept))


def test_a_game_written_twice_is_counted_once(
    tmp_path: Path, serial: list[tuple], caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "study.jsonl"
    run_lines(BEGINNER, out=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join([*lines, lines[3]]) + "\n")  # two writers of one game
    again = run_lines(BEGINNER, out=out)
    assert again.resumed == 20 and outcomes(again.lines) == serial
    assert "1 line(s) repeat a game already in the file (the first at line 22, game 2;" in (
        caplog.text
    )


def test_many_games_written_twice_are_one_warning(
    tmp_path: Path, serial: list[tuple], caplog: pytest.LogCaptureFixture
) -> None:
    out = tmp_path / "study.jsonl"
    run_lines(BEGINNER, out=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join([*lines, *lines[1:]]) + "\n")  # two runs sharing one file
    again = run_lines(BEGINNER, out=out)
    assert again.resumed == 20 and outcomes(again.lines) == serial
    (warning,) = [r for r in caplog.records if r.levelname == "WARNING"]
    assert (
        "20 line(s) repeat a game already in the file (the first at line 22" in warning.getMessage()
    )


def test_the_tally_does_not_depend_on_the_order_games_arrive() -> None:
    lines = run_lines(BEGINNER).lines
    shuffled = [lines[i] for i in random.Random(3).sample(range(20), 20)]
    assert summarise(shuffled) == summarise(lines)
    assert summarise(lines).seconds == float(sum(Fraction(line.seconds) for line in lines))


@pytest.mark.parametrize(
    ("change", "named"), [({"mines": 12}, "mines 10, not 12"), ({"seed": 1}, "seed 11, not 1")]
)
def test_a_file_of_another_study_is_refused(tmp_path: Path, change: dict, named: str) -> None:
    out = tmp_path / "study.jsonl"
    run_lines(replace(BEGINNER, games=2), out=out)
    with pytest.raises(JournalError, match=named):
        run_lines(replace(BEGINNER, **change), out=out)


def test_a_file_that_is_no_study_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "notes.jsonl"
    out.write_text("hello\n")
    with pytest.raises(JournalError, match="not a study's results file"):
        run_lines(BEGINNER, out=out)


def test_a_malformed_game_line_is_named(tmp_path: Path) -> None:
    out = tmp_path / "study.jsonl"
    head = json.dumps({"study": BEGINNER.key})
    out.write_text(
        head + '\n{"index": 0, "seed": 1, "outcome": "draw", "guesses": 0, "seconds": 0.1}\n'
    )
    with pytest.raises(JournalError, match="line 2: not a game line: outcome"):
        run_lines(BEGINNER, out=out)


@pytest.mark.parametrize("seconds", ["NaN", "Infinity"])
def test_a_game_line_without_a_finite_time_is_named(tmp_path: Path, seconds: str) -> None:
    out = tmp_path / "study.jsonl"
    head = json.dumps({"study": BEGINNER.key})
    line = '{"index": 0, "seed": 1, "outcome": "won", "guesses": 0, "seconds": ' + seconds + "}"
    out.write_text(f"{head}\n{line}\n")
    with pytest.raises(JournalError, match=r"line 2: not a game line: seconds: .* not a finite"):
        run_lines(BEGINNER, out=out)


def test_the_summary_counts_wins_guesses_and_time() -> None:
    finished = run_lines(BEGINNER)
    summary = summarise(finished.lines)
    assert summary.games == 20
    assert summary.wins == sum(line.outcome is GameStatus.WON for line in finished.lines)
    assert summary.guesses_per_game == sum(line.guesses for line in finished.lines) / 20


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_wilson_interval_holds_the_rate_and_is_widest_at_one_half(wins_games: tuple) -> None:
    wins, games = wins_games
    low, high = wilson(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    widest = wilson(games // 2, games)
    assert high - low <= widest[1] - widest[0] + 1e-12


def test_bad_studies_are_refused_before_any_game() -> None:
    with pytest.raises(StudyError, match="no policy is called 'luck'"):
        run_lines(replace(BEGINNER, policy="luck"))
    with pytest.raises(StudyError, match="games must be 0 or more"):
        run_lines(replace(BEGINNER, games=-1))


@given(st.lists(st.integers(0, 10_000), unique=True, max_size=500), st.integers(1, 8))
def test_chunks_cover_every_game_once_in_small_runs(todo: list[int], jobs: int) -> None:
    from mineshafted.studies.study import _chunks

    chunks = list(_chunks(iter(todo), len(todo), jobs))
    assert [i for chunk in chunks for i in chunk] == todo
    assert all(1 <= len(chunk) <= 16 for chunk in chunks)
