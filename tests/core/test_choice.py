"""Which core runs: the compiled one where it was built, the plain one where it was not or
where it is chosen, by MINESHAFTED_CORE, --core or core.use; a choice that cannot be
honoured is refused in one line."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from mineshafted import core
from mineshafted.cli import app
from mineshafted.solver import count_component

runner = CliRunner()


@pytest.fixture
def reloaded(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Reload mineshafted.core after the test's changes (the environment, the module), and
    again after the test, as it was."""
    yield monkeypatch
    monkeypatch.undo()
    importlib.reload(core)


def test_without_the_compiled_module_the_plain_core_runs(reloaded: pytest.MonkeyPatch) -> None:
    reloaded.setitem(sys.modules, core.MODULE, None)  # importing it now fails
    importlib.reload(core)
    assert not core.available()
    assert core.active() == "plain" and core.kernels is None
    assert "the compiled core is not built here" in core.describe()
    assert count_component([((1, 2), 1)]).placements == (0, 2)  # the plain count runs
    with pytest.raises(core.CoreError, match="not built here") as caught:
        core.select("compiled")
    assert caught.value.choice == "compiled" and caught.value.why
    assert core.active() == "plain"


@pytest.mark.skipif(not core.available(), reason=core.describe())
def test_where_it_was_built_the_compiled_core_runs_by_default(
    reloaded: pytest.MonkeyPatch,
) -> None:
    reloaded.delenv(core.ENV, raising=False)
    importlib.reload(core)
    assert core.active() == "compiled"
    assert core.describe() == f"core: compiled (C, {core.MODULE})"


@pytest.mark.parametrize("value", ["plain", "PLAIN", " plain "])
def test_the_environment_chooses_the_plain_core(reloaded: pytest.MonkeyPatch, value: str) -> None:
    reloaded.setenv(core.ENV, value)
    importlib.reload(core)
    assert core.active() == "plain"
    assert core.describe() == "core: plain (Python), chosen"


def test_an_environment_value_that_cannot_be_honoured_leaves_the_default_and_says_so(
    reloaded: pytest.MonkeyPatch,
) -> None:
    reloaded.setenv(core.ENV, "fast")
    importlib.reload(core)
    assert core.active() == ("compiled" if core.available() else "plain")
    assert core.describe().endswith(
        "MINESHAFTED_CORE='fast' ignored: core 'fast': choose one of auto, plain, compiled"
    )


def test_an_unknown_core_is_refused_and_nothing_changes() -> None:
    before = core.active()
    with pytest.raises(core.CoreError, match="choose one of auto, plain, compiled"):
        core.select("turbo")
    assert core.active() == before


def test_a_block_runs_its_core_and_then_the_one_before() -> None:
    before = core.active()
    with core.use("plain"):
        assert core.active() == "plain" and core.kernels is None
    assert core.active() == before


# The command line.


def test_version_says_which_core_runs() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == core.describe()


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--core", "plain", "--version"], {}), (["--version"], {"MINESHAFTED_CORE": "plain"})],
)
def test_the_core_option_or_its_variable_chooses_the_core(
    args: list[str], env: dict[str, str]
) -> None:
    before = core.active()
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] in (
        "core: plain (Python), chosen",  # --core, eager, before --version
        core.describe(),  # the variable read at import (this process imported before)
    )
    assert core.active() == before  # the choice lasts as long as the command


def test_a_command_s_core_is_set_for_its_workers_and_then_unset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mineshafted.cli import _chosen_core

    monkeypatch.delenv(core.ENV, raising=False)
    before = core.active()
    with _chosen_core("plain"):
        assert core.active() == "plain"
        assert os.environ[core.ENV] == "plain"  # a spawned worker reads it at import
    assert core.ENV not in os.environ and core.active() == before


def test_an_unknown_core_is_one_line_and_status_2() -> None:
    result = runner.invoke(app, ["--core", "turbo", "--version"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "'turbo' is not one of 'auto', 'plain', 'compiled'" in result.stderr


def test_the_compiled_core_where_it_was_not_built_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(core, "_compiled", None)
    monkeypatch.setattr(core, "_missing", "No module named 'mineshafted.core._compiled'")
    result = runner.invoke(app, ["--core", "compiled", "--version"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "the compiled core is not built here" in result.stderr
