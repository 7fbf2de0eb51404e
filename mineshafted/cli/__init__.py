"""The command line: the ``mineshafted`` app, one module per command, imported lazily.

Each command lives in ``cli/<name>.py`` with a ``command`` function and its ``HELP`` text. A
command module imports only typer, the small ``output``, ``options`` and ``status`` helpers and
the library's enums its options take (``FirstMove``) at its top; the library parts it needs
(solver, generator, grading, rich tables) are imported inside ``command``, so ``mineshafted
--help`` or ``mineshafted solve`` never load the grading harness or the generator. A new
command is one new module and one registration line below.

How the command line reads its arguments and reports usage errors and failed writes lives in
:mod:`.usage` (the root group and the command class, on typer's documented ``cls=`` and
``context_settings``); what it prints, in :mod:`.output`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Annotated

import typer

from . import (
    autograder,
    board,
    experiment,
    generate,
    grade,
    optimal,
    play,
    probabilities,
    rate,
    replay,
    rules,
    serve,
    solve,
    trace,
)
from .logs import verbose_logging
from .usage import NUMBERS, App, Command, show_help_without_command

__all__ = ["app", "main"]

app = typer.Typer(
    cls=App,
    name="mineshafted",
    help="Solve Minesweeper boards by constraint propagation and search, never guessing.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# The commands, in the order --help lists them: one line per command module. A command whose
# arguments are numbers takes the NUMBERS settings (a negative one is an argument, not an
# option).
app.command("solve", help=solve.HELP, cls=Command)(solve.command)
app.command("generate", help=generate.HELP, cls=Command, context_settings=NUMBERS)(generate.command)
app.command("rate", help=rate.HELP, cls=Command)(rate.command)
app.command("trace", help=trace.HELP, cls=Command)(trace.command)
app.add_typer(grade.app, name="grade", help=grade.HELP)
app.command("probabilities", help=probabilities.HELP, cls=Command)(probabilities.command)
app.command("play", help=play.HELP, cls=Command, context_settings=NUMBERS)(play.command)
app.command("optimal", help=optimal.HELP, cls=Command, context_settings=NUMBERS)(optimal.command)
app.command("replay", help=replay.HELP, cls=Command)(replay.command)
app.add_typer(rules.app, name="rules", help=rules.HELP)
app.command("board", help=board.HELP, cls=Command, context_settings=NUMBERS)(board.command)
app.add_typer(experiment.app, name="experiment", help=experiment.HELP)
app.command("serve", help=serve.HELP, cls=Command)(serve.command)
app.add_typer(autograder.app, name="autograder", help=autograder.HELP)


def main() -> None:
    """Run the command line (the ``mineshafted`` console script and ``python -m mineshafted``)."""
    app()


class CoreChoice(StrEnum):
    """``--core``: the choices of :mod:`mineshafted.core` (imported when one is given)."""

    AUTO = "auto"
    PLAIN = "plain"
    COMPILED = "compiled"


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            show_default=False,
            help="Log the solver's stages to stderr (-vv: more).",
        ),
    ] = 0,
    core_choice: Annotated[
        CoreChoice | None,
        typer.Option(
            "--core",
            envvar="MINESHAFTED_CORE",
            case_sensitive=False,
            callback=_core,
            is_eager=True,
            show_default=False,
            help="What the hot paths run in: auto (the compiled core where it was built, "
            "else plain), plain (Python) or compiled (C). Default: auto.",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and the core in use, and exit.",
        ),
    ] = False,
) -> None:
    """Set up the invocation: its logging lives exactly as long as the command does. Without a
    command, show the help."""
    show_help_without_command(ctx)
    ctx.with_resource(verbose_logging(verbose))


def _version(value: bool) -> None:
    """Print the version and the core in use, and stop, for ``--version``."""
    if value:
        from .. import __version__, core

        typer.echo(f"mineshafted {__version__}")
        typer.echo(core.describe())
        raise typer.Exit()


def _core(ctx: typer.Context, choice: CoreChoice | None) -> CoreChoice | None:
    """Run the invocation under the core ``--core`` (or ``MINESHAFTED_CORE``) names.

    Eager, so that ``--version`` after it reports it. The choice lasts as long as the
    command, and worker processes started meanwhile inherit it through the environment.

    Raises
    ------
    typer.BadParameter
        ``compiled`` where the compiled core was not built.
    """
    if choice is not None:
        from .. import core

        try:
            ctx.with_resource(_chosen_core(choice.value))
        except core.CoreError as error:
            raise typer.BadParameter(str(error)) from None
    return choice


@contextmanager
def _chosen_core(choice: str) -> Iterator[None]:
    """:func:`mineshafted.core.use`, with ``MINESHAFTED_CORE`` set for worker processes."""
    from .. import core

    before = os.environ.get(core.ENV)
    with core.use(choice):
        os.environ[core.ENV] = choice
        try:
            yield
        finally:
            if before is None:
                del os.environ[core.ENV]
            else:
                os.environ[core.ENV] = before
