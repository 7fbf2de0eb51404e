"""The labs' studies: paired boards, reproducible results, intervals, and the experiment command."""

from __future__ import annotations

import csv
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mineshafted.agents import AGENTS, Agent, Inference
from mineshafted.cli import app
from mineshafted.game import Game, View
from mineshafted.studies import (
    DensityStudy,
    StudyError,
    density_study,
    preset_game,
    presets_study,
    wilson,
)
from mineshafted.studies.labs import PRESETS, mean_interval, parse_densities
from mineshafted.studies.moments import ExactSum, Moments

runner = CliRunner()


class Witness(Agent):
    """Records the board and first cell of every game it is given (a test's eyes only)."""

    name: ClassVar[str] = "witness"
    seen: ClassVar[list[tuple[str, frozenset[int], int | None]]] = []

    def play(self, game: Game, rng: random.Random) -> None:
        assert game.board is not None
        Witness.seen.append((self.name, game.board.mines, game.record.header.first))
        while not game.over:
            cell = next(c for c in range(game.geometry.cells) if game.shown(c) is None)
            game.reveal(cell, guess=True)

    def infer(self, view: View) -> Inference:
        return Inference(frozenset(), frozenset())


class OtherWitness(Witness):
    name: ClassVar[str] = "other-witness"


@pytest.fixture
def witnesses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, frozenset[int], int | None]]:
    monkeypatch.setitem(AGENTS, "witness", Witness)
    monkeypatch.setitem(AGENTS, "other-witness", OtherWitness)
    Witness.seen = []
    return Witness.seen


def test_every_agent_plays_the_same_board_from_the_same_first_cell(witnesses: list) -> None:
    presets_study(games=5, agents=["witness", "other-witness"], presets=["easy-9x9"], seed=4)
    density_study(size=6, densities=[0.3], runs=5, agents=["witness", "other-witness"], seed=4)
    assert len(witnesses) == 20
    for a, b in zip(witnesses[::2], witnesses[1::2], strict=True):
        assert (a[0], b[0]) == ("witness", "other-witness")
        assert a[1:] == b[1:]
    assert len({board for _, board, _ in witnesses}) == 10  # different boards across runs


@pytest.mark.slow
def test_the_same_seed_gives_the_same_results_in_one_process_or_two() -> None:
    args = {"size": 8, "densities": [0.15, 0.3], "runs": 4, "agents": ["basic", "csp"], "seed": 9}
    once = density_study(**args)
    assert density_study(**args) == once
    assert density_study(**args, jobs=2) == once
    assert density_study(**{**args, "seed": 10}) != once


def test_density_rows_hold_a_mean_inside_its_interval() -> None:
    rows = density_study(size=8, densities=[0.1, 0.4], runs=6, agents=["basic", "improved"])
    assert [(r.agent, r.density) for r in rows] == [
        ("basic", 0.1),
        ("improved", 0.1),
        ("basic", 0.4),
        ("improved", 0.4),
    ]
    for row in rows:
        assert 0 <= row.ci_low <= row.mean_score <= row.ci_high <= 1


def test_preset_rows_count_wins() -> None:
    (row,) = presets_study(games=12, agents=["kb-merge"], presets=["easy-10x10"], seed=1)
    assert (row.rows, row.cols, row.mines, row.games) == (10, 10, 10, 12)
    assert row.win_rate == row.wins / 12
    assert row.ci_low <= row.win_rate <= row.ci_high


def test_the_presets_are_the_lab_s() -> None:
    sizes = [(p.rows, p.cols, p.mines) for p in PRESETS.values()]
    assert sizes == [(8, 8, 10), (9, 9, 10), (10, 10, 10), (13, 15, 40), (16, 16, 40), (30, 16, 99)]


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 20, 0.0, 0.1611),
        (20, 20, 0.8389, 1.0),
        (1, 3, 0.0615, 0.7923),
    ],
)
def test_wilson_interval(wins: int, games: int, low: float, high: float) -> None:
    assert wilson(wins, games) == pytest.approx((low, high), abs=1e-4)


def test_mean_interval_uses_student_t() -> None:
    values = [0.0, 1.0] * 15  # mean 0.5, sd 0.5085, t(29) = 2.0452
    low, high = mean_interval(values)
    assert (low, high) == pytest.approx((0.5 - 0.1899, 0.5 + 0.1899), abs=2e-4)
    assert mean_interval([0.7]) == (0.7, 0.7)


@given(
    st.lists(
        st.one_of(
            st.floats(0, 1), st.integers(0, 40).map(lambda k: k / 40), st.sampled_from([0.0, 1.0])
        ),
        min_size=2,
        max_size=60,
    ),
    st.randoms(use_true_random=False),
)
def test_moments_give_statistics_mean_and_stdev_bit_for_bit_in_any_order(
    values: list[float], shuffle: random.Random
) -> None:
    # A lab table is folded from boards in the order they finish; it must be the table the
    # whole list of boards gave (fmean, stdev), to the last bit.
    moments = Moments()
    for value in shuffle.sample(values, len(values)):
        moments.add(value)
    assert (moments.mean(), moments.stdev()) == (statistics.fmean(values), statistics.stdev(values))


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=50))
def test_an_exact_sum_is_fsum_in_any_order(values: list[float]) -> None:
    total, backwards = ExactSum(), ExactSum()
    for value in values:
        total.add(value)
    for value in reversed(values):
        backwards.add(value)
    assert total.value() == backwards.value() == math.fsum(values)


def test_a_lab_table_folded_as_boards_finish_is_the_table_of_all_the_boards() -> None:
    study = DensityStudy(size=6, densities=(0.15, 0.3), runs=5, agents=("basic", "csp"), seed=3)
    lines = [study.play(i) for i in range(study.count)]
    fold = study.fold()
    for i in random.Random(1).sample(range(study.count), study.count):
        fold.add(lines[i])
    assert study.rows_of(fold) == study.rows(lines) == study.rows([*lines, lines[2]])
    short = study.fold()
    for line in lines[1:]:
        short.add(line)
    with pytest.raises(StudyError, match="the density table needs every board: 1 missing"):
        study.rows_of(short)


@pytest.mark.parametrize("text", ["0.1:0.5", "a:b:c", "0.5:0.1:0", "0:0.5:0.1", "0.2,1.5", ""])
def test_bad_densities_are_refused(text: str) -> None:
    with pytest.raises(StudyError, match="--densities"):
        parse_densities(text)


def test_bad_study_arguments_are_refused() -> None:
    with pytest.raises(StudyError, match="--runs"):
        density_study(runs=0)
    with pytest.raises(StudyError, match="twice"):
        density_study(agents=["basic", "basic"])
    with pytest.raises(StudyError, match="no preset"):
        presets_study(presets=["huge"])


# -- the command --------------------------------------------------------------------------------

SMALL = ["--size", "6", "--densities", "0.1,0.3", "--runs", "3", "--agents", "basic,csp"]


@pytest.fixture
def no_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the plots extra were missing: the commands write no figure (a tenth of a second
    or more each), for the tests about their CSV and journal."""
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.slow  # a command that draws a figure (matplotlib)
def test_density_writes_its_csv_and_figure_only_into_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["experiment", "density", *SMALL, "--out", "results"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "density.csv", "density.jsonl", "density.png", "results"
    ]  # fmt: skip
    rows = rows_of(tmp_path / "results" / "density.csv")
    assert list(rows[0]) == ["agent", "density", "runs", "mean_score", "ci_low", "ci_high"]
    assert [(r["agent"], r["density"]) for r in rows] == [
        ("basic", "0.1"),
        ("csp", "0.1"),
        ("basic", "0.3"),
        ("csp", "0.3"),
    ]
    assert (tmp_path / "results" / "density.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.usefixtures("no_plots")
def test_existing_results_are_kept_without_force(tmp_path: Path) -> None:
    (tmp_path / "density.csv").write_text("mine, keep out")
    result = runner.invoke(app, ["experiment", "density", *SMALL, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'density.csv'}: exists (use --force to replace it)"
    ]
    assert (tmp_path / "density.csv").read_text() == "mine, keep out"
    forced = runner.invoke(
        app, ["experiment", "density", *SMALL, "--out", str(tmp_path), "--force"]
    )
    assert forced.exit_code == 0
    assert rows_of(tmp_path / "density.csv")[0]["agent"] == "basic"


def test_without_matplotlib_the_csv_is_written_and_the_extra_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = runner.invoke(app, ["experiment", "density", *SMALL, "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert (tmp_path / "density.csv").exists() and not (tmp_path / "density.png").exists()
    assert "pip install 'mineshafted[plots]'" in result.stderr


@pytest.mark.usefixtures("no_plots")
def test_presets_prints_a_table_and_writes_its_csv(tmp_path: Path) -> None:
    args = ["experiment", "presets", "--games", "3", "--agents", "kb,csp", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for preset in PRESETS:
        assert preset in result.stdout
    rows = rows_of(tmp_path / "presets.csv")
    assert list(rows[0]) == [
        "agent", "preset", "rows", "cols", "mines", "games", "wins", "win_rate", "ci_low", "ci_high"
    ]  # fmt: skip
    assert len(rows) == 2 * len(PRESETS)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["density", "--agents", "basic,oracle"], "no agent named 'oracle'"),
        (["density", "--densities", "0.5:0.1:-1"], "--densities"),
        (["density", "--runs", "0"], "--runs must be at least 1"),
        (["density", "--size", "-3"], "--size must be at least 1"),
        (["presets", "--games", "0"], "--games must be at least 1"),
        (["presets", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["experiment", *args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and message in line
    assert not (tmp_path / "out").exists()


def test_preset_game_replays_the_studys_own_game() -> None:
    rows = presets_study(games=1, agents=["kb", "best"], presets=["easy-8x8"], seed=3)
    for row in rows:
        assert preset_game("easy-8x8", row.agent, seed=3).won == (row.wins == 1)


@pytest.mark.usefixtures("no_plots")
def test_experiment_presets_record_writes_one_record_per_preset_and_agent(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from mineshafted.cli import app
    from mineshafted.game import read_record, rebuild

    out = tmp_path / "out"
    arguments = ["experiment", "presets", "--games", "1", "--agents", "kb", "--out", str(out)]
    result = CliRunner().invoke(app, [*arguments, "--record"])
    assert result.exit_code == 0, result.output
    records = sorted(out.glob("*-*.jsonl"))  # presets.jsonl is the study's journal
    assert [p.name for p in records][:2] == ["easy-10x10-kb.jsonl", "easy-8x8-kb.jsonl"]
    assert len(records) == 6 and all(rebuild(read_record(p)).over for p in records)
    again = CliRunner().invoke(app, [*arguments, "--record"])
    assert again.exit_code == 2
    assert again.stderr == f"error: {out / 'presets.csv'}: exists (use --force to replace it)\n"


# -- the labs on the one runner -----------------------------------------------------------------


def journal_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


@pytest.mark.slow
def test_a_lab_study_on_dask_writes_the_csv_of_two_processes(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    args = ["experiment", "density", *SMALL]
    two = runner.invoke(app, [*args, "--jobs", "2", "--out", str(tmp_path / "two")])
    dask = runner.invoke(app, [*args, "--dask", "local", "--out", str(tmp_path / "dask")])
    assert two.exit_code == dask.exit_code == 0, two.output + dask.output
    csv_two = (tmp_path / "two" / "density.csv").read_bytes()
    assert (tmp_path / "dask" / "density.csv").read_bytes() == csv_two


@pytest.mark.usefixtures("no_plots")
def test_an_interrupted_lab_study_resumes_from_out_to_the_same_csv(tmp_path: Path) -> None:
    from mineshafted.cli.status import EXIT_INTERRUPTED
    from mineshafted.studies import DensityStudy

    args = ["experiment", "density", *SMALL, "--out"]
    assert runner.invoke(app, [*args, str(tmp_path / "whole")]).exit_code == 0
    played = DensityStudy.play

    def interrupted_at_three(study: DensityStudy, index: int) -> object:
        if index == 3:
            raise KeyboardInterrupt
        return played(study, index)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DensityStudy, "play", interrupted_at_three)
        cut = runner.invoke(app, [*args, str(tmp_path / "cut")])
    assert cut.exit_code == EXIT_INTERRUPTED
    assert cut.stderr.strip().splitlines() == [
        "error: interrupted: 3 of 6 board(s) done; run the same command to resume"
    ]
    assert not (tmp_path / "cut" / "density.csv").exists()
    assert len(journal_of(tmp_path / "cut" / "density.jsonl")) == 1 + 3
    again = runner.invoke(app, [*args, str(tmp_path / "cut")])
    assert again.exit_code == 0, again.output
    whole = (tmp_path / "whole" / "density.csv").read_bytes()
    assert (tmp_path / "cut" / "density.csv").read_bytes() == whole


@pytest.mark.usefixtures("no_plots")
def test_a_lab_journal_cut_short_is_resumed_to_the_same_csv(tmp_path: Path) -> None:
    args = ["experiment", "presets", "--games", "2", "--agents", "kb,csp", "--out"]
    assert runner.invoke(app, [*args, str(tmp_path / "whole")]).exit_code == 0
    lines = journal_of(tmp_path / "whole" / "presets.jsonl")
    assert len(lines) == 1 + 2 * len(PRESETS)
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "presets.jsonl").write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    again = runner.invoke(app, [*args, str(cut)])
    assert again.exit_code == 0, again.output
    whole = (tmp_path / "whole" / "presets.csv").read_bytes()
    assert (cut / "presets.csv").read_bytes() == whole


@pytest.mark.usefixtures("no_plots")
def test_a_lab_journal_of_other_arguments_is_refused_unless_forced(tmp_path: Path) -> None:
    assert (
        runner.invoke(app, ["experiment", "density", *SMALL, "--out", str(tmp_path)]).exit_code == 0
    )
    (tmp_path / "density.csv").unlink()
    (tmp_path / "density.png").unlink(missing_ok=True)
    other = ["experiment", "density", *SMALL, "--seed", "1", "--out", str(tmp_path)]
    refused = runner.invoke(app, other)
    assert refused.exit_code == 2
    (line,) = refused.stderr.strip().splitlines()
    assert "written by another study (seed 0, not 1)" in line and "--force" in line
    forced = runner.invoke(app, [*other, "--force"])
    assert forced.exit_code == 0, forced.output
    assert '"seed": 1' in journal_of(tmp_path / "density.jsonl")[0]


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_densities("a:b:c"),
        lambda: density_study(runs=0),
        lambda: density_study(size=0),
        lambda: density_study(jobs=0),
        lambda: density_study(densities=[1.5]),
        lambda: density_study(agents=[]),
        lambda: density_study(agents=["basic", "basic"]),
        lambda: density_study(agents=["oracle"]),
        lambda: presets_study(games=0),
        lambda: presets_study(presets=["huge"]),
        lambda: presets_study(agents=["oracle"]),
        lambda: preset_game("huge", "kb"),
        lambda: preset_game("easy-8x8", "oracle"),
    ],
)
def test_every_error_the_labs_raise_is_a_study_error(call: Callable[[], object]) -> None:
    import mineshafted.studies

    with pytest.raises(mineshafted.studies.StudyError):
        call()


def test_a_lab_results_file_of_another_study_is_a_study_error(tmp_path: Path) -> None:
    import mineshafted.studies
    from mineshafted.studies import DensityStudy, PresetsStudy, run_study

    out = tmp_path / "study.jsonl"
    run_study(PresetsStudy(games=1, agents=("kb",), presets=("easy-8x8",)), out=out)
    with pytest.raises(mineshafted.studies.StudyError, match="kind 'presets', not 'density'"):
        run_study(DensityStudy(size=6, densities=(0.2,), runs=1, agents=("kb",)), out=out)


def test_a_missing_extra_is_named_with_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mineshafted.studies import DensityStudy, MissingExtraError, run_study
    from mineshafted.studies.figures import density_figure

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'mineshafted\[plots\]'") as plots:
        density_figure([], tmp_path / "density.png", size=6)
    assert plots.value.extra == "plots"
    monkeypatch.setitem(sys.modules, "distributed", None)
    study = DensityStudy(size=6, densities=(0.2,), runs=1, agents=("kb",))
    with pytest.raises(MissingExtraError, match=r"pip install 'mineshafted\[dask\]'") as dask:
        run_study(study, dask="local")
    assert dask.value.extra == "dask"


def test_a_lab_study_on_dask_without_dask_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    args = ["experiment", "density", *SMALL, "--dask", "local", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "pip install 'mineshafted[dask]'" in line


def test_a_board_line_round_trips_and_a_bad_one_is_refused() -> None:
    from mineshafted.studies import BoardLine

    line = BoardLine(4, (0.1 + 0.2, 1.0), (False, True), 0.5)
    assert BoardLine.from_json(json.loads(json.dumps(line.to_json())), 2) == line
    for bad in ({"index": 4, "scores": [0.5], "won": [True], "seconds": 1}, [], {"index": "4"}):
        with pytest.raises(ValueError):
            BoardLine.from_json(bad, 2)
