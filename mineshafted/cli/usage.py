"""Usage: how the command line reads its arguments and reports a mistake in them, and how its
help names them, on typer's documented extension points (``cls=``, ``context_settings``).

Glossary
--------
usage error
    A mistake in the command line's form, found by the parser: a missing argument, a value of
    the wrong type, an unknown option or command. Reported as one line on stderr naming the
    command's help, exit status 2, like every other bad input.
output error
    A write to standard output (or to a file a command writes) that fails: a closed pipe ends
    the command quietly, anything else (a full disk) in one line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from .output import say, written

__all__ = ["NUMBERS", "App", "Command", "group", "show_help_without_command"]

NUMBERS: dict[str, Any] = {"ignore_unknown_options": True}
"""The ``context_settings`` of a command whose arguments are numbers that may be negative
(``generate -1 5 1``): a word the parser does not know as an option is kept as an argument,
so ``-1`` reaches the argument's own check (``ROWS must be at least 1, not -1``) instead of
the parser's ``No such option: -1``. An unknown option given there lands in an argument, whose
parser names it (``'--frob' is not a whole number, nor an option of this command``:
:func:`~mineshafted.cli.options.parse_whole`), or is an extra argument."""


class App(TyperGroup):
    """The root group: ``-v``/``--verbose`` may follow the command, and every usage error or
    failed write below it is one line on stderr.

    ``mineshafted solve -v X`` means what ``mineshafted -v solve X`` means: the flags are moved
    in front of the command before parsing (no command has a ``-v`` of its own, and nothing
    after a ``--`` is touched).

    The app runs with ``standalone_mode=False`` (documented by the parser typer is built on),
    so a usage error comes back here instead of being printed as the parser's three-line block:
    :meth:`main` prints it as ``error: <the parser's message> (see 'mineshafted solve --help')``
    and exits with its status (2). A write to standard output that fails, wherever in a command
    it happens, ends in :meth:`invoke` (:func:`written`).
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse ``args`` with every verbosity flag moved to the front."""
        end = args.index("--") if "--" in args else len(args)
        flags = [a for a in args[:end] if _VERBOSE.fullmatch(a)]
        rest = [a for a in args[:end] if not _VERBOSE.fullmatch(a)]
        return super().parse_args(ctx, [*flags, *rest, *args[end:]])

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; a usage error is one line, and the process exits with the
        command's status (unless ``standalone_mode`` is false: then as the parser does)."""
        arguments = (args, prog_name, complete_var, False, windows_expand_args)
        if not standalone_mode:
            return super().main(*arguments, **extra)
        try:
            with written():  # --help or --version writing, before any command runs
                status = super().main(*arguments, **extra)
        except typer.Exit as stop:
            status = stop.exit_code
        except Exception as error:
            if not _is_usage_error(error):
                raise
            ctx = getattr(error, "ctx", None)
            where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            say(f"{error.format_message()}{where}")  # type: ignore[attr-defined]
            status = error.exit_code  # type: ignore[attr-defined]
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Run the command named, its output flushed at the end and a failed write reported
        (:func:`written`)."""
        with written():
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()


class Command(TyperCommand):
    """A command whose help names each argument by its metavar alone.

    typer writes a required argument as ``{PUZZLE}`` in the usage line and adds its Python type
    to the argument's row (``PUZZLE <list[str]>``); here the usage line reads
    ``mineshafted rate [OPTIONS] PUZZLE...`` and the row ``PUZZLE...``, the help text saying
    what the argument is. Options keep typer's rows (a metavar given replaces the type).
    """

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line's words after the command's name: ``[OPTIONS] ROWS [BOARD]...``."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = _argument(param)
                pieces.append(name if param.required else f"[{name}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The ``Arguments`` and ``Options`` sections, each argument named by its metavar."""
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((_argument(param), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def group(name: str, help: str) -> typer.Typer:
    """A command group (``mineshafted rules``, ``experiment``, ``autograder``), set as the main
    app is: no completion, no rich tracebacks or markup, and its help (on stdout, exit 0) when
    named without a command."""
    app = typer.Typer(
        name=name,
        help=help,
        invoke_without_command=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback()(show_help_without_command)
    return app


def show_help_without_command(ctx: typer.Context) -> None:
    """For a group's callback (``invoke_without_command=True``): named without a command
    (``mineshafted``, ``mineshafted rules``), print the group's help on stdout and exit 0.

    The name alone asks what the program does, and the help is that answer: nothing failed, so
    it goes where ``--help`` goes, to stdout (``mineshafted | less`` pages it), with status 0,
    as bare ``pip`` answers (bare ``git`` prints to stdout too, with status 1). The parser's
    own ``no_args_is_help`` treats it as a usage error instead (the whole help on stderr, status
    2), which would break the rule that an error is one line; a real usage error (an unknown
    command) still is one line, status 2.
    """
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def _is_usage_error(error: Exception) -> bool:
    """Whether ``error`` is one of the parser's usage errors: they carry an ``exit_code`` and
    a ``format_message()``, the parser's documented interface for them (typer keeps its copy of
    the parser private, so they are told apart by that interface, not by class).
    """
    return isinstance(getattr(error, "exit_code", None), int) and callable(
        getattr(error, "format_message", None)
    )


def _argument(param: Any) -> str:
    """An argument as help names it: its metavar (else its name in capitals), ``...`` after
    one that takes several words."""
    name = str(param.metavar or param.name.upper())
    return f"{name}..." if param.nargs != 1 else name


_VERBOSE = re.compile(r"-v+|--verbose")
"""A verbosity flag as typed: ``-v``, ``-vv``, ... or ``--verbose``."""
