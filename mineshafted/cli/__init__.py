"""The command line: the ``mineshafted`` app, one module per command, imported lazily.

Each command lives in ``cli/<name>.py`` with a ``command`` function and its ``HELP`` text. A
command module imports only typer and the small ``output`` and ``status`` helpers at its top;
the library parts it needs (solver, generator, grading, rich tables) are imported inside
``command``, so ``mineshafted --help`` or ``mineshafted solve`` never load the grading harness
or the generator. A new command is one new module and one registration line below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from . import (
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
)
from .logs import verbose_logging
from .output import fail

try:  # a recent typer keeps its own copy of click; an older one used click itself
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - an older typer
    from click.exceptions import UsageError  # type: ignore[assignment]

if TYPE_CHECKING:  # typer carries its own copy of click; its Context is what groups parse with
    from typer._click import Context

__all__ = ["app", "main"]


class _App(TyperGroup):
    """The root group: ``-v``/``-vv``/``--verbose`` work after the command too, and every
    command's help is shown as it is written.

    ``mineshafted solve -v X`` means what ``mineshafted -v solve X`` means: the flags are
    moved in front of the command before parsing (none of the commands has a ``-v`` of its
    own, and nothing after a ``--`` is touched).

    Help texts are plain text: typer renders them as rich markup, which would swallow
    ``[dask]`` in ``pip install 'mineshafted[dask]'`` and break lines where the source string
    does. Each command handed out is made literal first (:func:`_literal`).

    A usage error (a missing argument, a value of the wrong type, an unknown option or
    command), raised while the root or any command below it parses its arguments, is one line
    on stderr like every other bad input (:func:`_one_line_usage_errors`), not typer's box.
    """

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """Parse ``args`` with every verbosity flag moved to the front."""
        end = args.index("--") if "--" in args else len(args)
        flags = [a for a in args[:end] if _VERBOSE.fullmatch(a)]
        rest = [a for a in args[:end] if not _VERBOSE.fullmatch(a)]
        return super().parse_args(ctx, [*flags, *rest, *args[end:]])

    def make_context(self, info_name: str | None, args: list[str], *rest: Any, **extra: Any) -> Any:
        """The root's context, once its own help is made literal too."""
        _literal(self)
        with _one_line_usage_errors():
            return super().make_context(info_name, args, *rest, **extra)

    def invoke(self, ctx: Context) -> Any:
        """Run the command named, a usage error below the root made one line."""
        with _one_line_usage_errors():
            return super().invoke(ctx)

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        """The command ``cmd_name``, its help (and its commands', for a group) made literal."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _literal(command)
            _negative_numbers(command)
        return command


@contextmanager
def _one_line_usage_errors() -> Iterator[None]:
    """Turn a usage error raised in the block into :func:`~.output.fail`'s one line, exit 2.

    The line is click's message and the command's help to try:
    ``error: Invalid value for '--jobs' / '-j': ... (see 'mineshafted grade --help')``. A
    group named without a command (``mineshafted rules``) still shows its help.

    Raises
    ------
    typer.Exit
        For a usage error, with its exit status (2).
    """
    try:
        yield
    except UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # the help, shown as it always was
            raise
        ctx = getattr(error, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        fail(f"{error.format_message()}{where}", error.exit_code)


_VERBOSE = re.compile(r"-v+|--verbose")
"""A verbosity flag as typed: ``-v``, ``-vv``, ... or ``--verbose``."""

_MARKUP = re.compile(r"(?<!\\)\[")
"""An opening bracket rich would read as the start of a markup tag (not already escaped)."""

_LINE_BREAK = re.compile(r"(?<!\n)\n(?!\n)")
"""A single line break: where a source string was wrapped, not a paragraph's end."""


def _literal(command: Any) -> None:
    """Make ``command``'s help texts show as written: brackets escaped, a paragraph one line
    (the terminal wraps it), a flag's or a counter's type not shown (``<bool>``, ``<int>``).

    Applied once to a command and, for a group, to each of its commands.
    """
    if getattr(command, "_mineshafted_literal", False):
        return
    command._mineshafted_literal = True
    if command.help:
        command.help = _MARKUP.sub(r"\\[", _LINE_BREAK.sub(" ", command.help))
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _MARKUP.sub(r"\\[", _LINE_BREAK.sub(" ", param.help))
        _untyped_flag(param)
    help_option = command.get_help_option

    def get_help_option(ctx: Context) -> Any:
        return _untyped_flag(help_option(ctx))

    command.get_help_option = get_help_option  # click makes --help afresh for each context
    for sub in getattr(command, "commands", {}).values():
        _literal(sub)


def _negative_numbers(command: Any) -> None:
    """Let ``command`` (and, for a group, its commands) take a negative number as an argument.

    Click reads ``-1`` as an option's name (``No such option: -1``); no command has an
    option named by digits, so a word that is a number (``-1``, ``-0.5``) and names no option
    is an argument, and the command's own check says what is wrong with it (``ROWS must be at
    least 1, not -1``). An option's value (``--seed -5``) was already read as a value.
    """
    if getattr(command, "_mineshafted_numbers", False):
        return
    command._mineshafted_numbers = True
    make_parser = command.make_parser

    def numbers_as_arguments(ctx: Context) -> Any:
        parser = make_parser(ctx)
        process_opts = parser._process_opts

        def process(arg: str, state: Any) -> None:
            if _NUMBER.fullmatch(arg) and arg not in parser._short_opt:
                state.largs.append(arg)
                return
            process_opts(arg, state)

        parser._process_opts = process
        return parser

    command.make_parser = numbers_as_arguments
    for sub in getattr(command, "commands", {}).values():
        _negative_numbers(sub)


_NUMBER = re.compile(r"-\d+(\.\d+)?")
"""A negative number as typed: ``-1``, ``-0.5``."""


def _untyped_flag(param: Any) -> Any:
    """``param``, with no type shown in help if it is a flag or a counter (it takes no value)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        param.metavar = ""
    return param


app = typer.Typer(
    cls=_App,
    name="mineshafted",
    help="Solve Minesweeper boards by constraint propagation and search, never guessing.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# The commands, in the order --help lists them: one line per command module.
app.command("solve", help=solve.HELP)(solve.command)
app.command("generate", help=generate.HELP)(generate.command)
app.command("rate", help=rate.HELP)(rate.command)
app.command("grade", help=grade.HELP)(grade.command)
app.command("probabilities", help=probabilities.HELP)(probabilities.command)
app.command("play", help=play.HELP)(play.command)
app.command("optimal", help=optimal.HELP)(optimal.command)
app.command("replay", help=replay.HELP)(replay.command)
app.add_typer(rules.app, name="rules", help=rules.HELP)
app.command("board", help=board.HELP)(board.command)
app.add_typer(experiment.app, name="experiment", help=experiment.HELP)
app.command("serve", help=serve.HELP)(serve.command)


def main() -> None:
    """Run the command line (the ``mineshafted`` console script and ``python -m mineshafted``)."""
    app()


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose", "-v", count=True, help="Log the solver's stages to stderr (-vv: more)."
        ),
    ] = 0,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Set up the invocation: its logging lives exactly as long as the command does."""
    ctx.with_resource(verbose_logging(verbose))


def _version(value: bool) -> None:
    """Print the version and stop, for ``--version``."""
    if value:
        from .. import __version__

        typer.echo(f"mineshafted {__version__}")
        raise typer.Exit()
