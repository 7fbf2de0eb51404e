"""Options shared by several commands, written once: ``--record``, ``--jobs``, ``--dask``,
``--start``, the numbers commands take and the ranges they must fall in."""

from __future__ import annotations

import math
from typing import Any

import typer

__all__ = [
    "MAX_COUNT",
    "MAX_JOBS",
    "check_cells",
    "dask_option",
    "force_option",
    "jobs_option",
    "parse_cell",
    "parse_number",
    "parse_whole",
    "record_option",
    "within",
]

MAX_JOBS = 256
"""The most worker processes a command starts (``--jobs``)."""

MAX_COUNT = 1_000_000
"""The most games or runs a lab study takes: its table is made from every game at once."""


def record_option(one: str, holding: str) -> Any:
    """The ``--record FILE.jsonl`` option: write the game of one ``one`` as a game record.

    Parameters
    ----------
    one:
        What the command plays one of when it records (``game``, ``puzzle``, ``board``).
    holding:
        What the record holds beyond the moves, for the help text.

    Returns
    -------
    typer.models.OptionInfo
        For ``Annotated[Path | None, record_option(...)] = None``; the command checks the
        path with :func:`~mineshafted.cli.targets.check_record` and writes it with
        :func:`~mineshafted.cli.targets.save_record`.

    Examples
    --------
    >>> print(record_option("board", "each move with the rule that made it").help)
    With one board: write its game record (each move with the rule that made it) for \
`mineshafted replay`. An existing file is replaced only with --force.
    """
    return typer.Option(
        "--record",
        metavar="FILE.jsonl",
        help=f"With one {one}: write its game record ({holding}) for `mineshafted replay`. "
        "An existing file is replaced only with --force.",
    )


def force_option(what: str) -> Any:
    """The ``--force`` option: replace an existing ``what`` (a regular file; never a device,
    a FIFO, a folder or a link: :mod:`~mineshafted.cli.targets`).

    Returns
    -------
    typer.models.OptionInfo
        For ``Annotated[bool, force_option(...)] = False``.

    Examples
    --------
    >>> print(force_option("--record file").help)
    Replace an existing --record file (a regular file; a device, FIFO, folder or link is \
never replaced).
    """
    return typer.Option(
        "--force",
        help=f"Replace an existing {what} (a regular file; a device, FIFO, folder or link is "
        "never replaced).",
    )


def whole_argument(metavar: str, help: str, *, least: int | None = None) -> Any:
    """A whole-number argument (``ROWS``, ``COLS``, ``MINES``), read by :func:`parse_whole`
    and, with ``least``, refused below it in one line (:func:`within`).

    Returns
    -------
    typer.models.ArgumentInfo
        For ``Annotated[int, whole_argument(...)]``.

    Examples
    --------
    >>> whole_argument("ROWS", "Board rows.", least=1).metavar
    'ROWS'
    """
    return typer.Argument(
        metavar=metavar,
        parser=parse_whole,
        callback=None if least is None else within(least),
        help=help,
        show_default=False,
    )


def dask_option() -> Any:
    """The ``--dask local|ADDRESS`` option of the commands that run studies, its address
    checked as it is read (:func:`mineshafted.studies.check_address`): a bad one is a usage
    error naming ``--dask`` and the schemes it takes, before anything is made.

    Returns
    -------
    typer.models.OptionInfo
        For ``Annotated[str | None, dask_option()] = None``.
    """
    return typer.Option(
        "--dask",
        metavar="local|ADDRESS",
        callback=_dask_address,
        help="Play on Dask: 'local' starts a LocalCluster of --jobs workers; tcp://host:port "
        "uses that scheduler. Needs pip install 'mineshafted[dask]'.",
    )


def jobs_option() -> Any:
    """The ``--jobs``/``-j N`` option of the commands that run studies: worker processes,
    from 1 to :data:`MAX_JOBS`.

    Returns
    -------
    typer.models.OptionInfo
        For ``Annotated[int, jobs_option()] = 1``.
    """
    return typer.Option(
        "--jobs", "-j", metavar="N", callback=within(1, MAX_JOBS), help="Worker processes."
    )


def check_cells(rows: int, cols: int, what: str = "a board") -> None:
    """Refuse a board of more cells than a puzzle file may hold, before anything is made.

    Raises
    ------
    typer.Exit
        Through :func:`~mineshafted.cli.output.fail`: one line, exit status 2.
    """
    from ..formats import MAX_CELLS
    from .output import fail

    if rows > 0 and cols > 0 and rows * cols > MAX_CELLS:
        fail(f"{what} of {rows}x{cols}: more than {MAX_CELLS:,} cells")


def within(least: float | None = None, most: float | None = None) -> Any:
    """A parameter callback that refuses a value below ``least`` or above ``most`` in one
    line naming the parameter as help shows it: ``ROWS must be at least 1, not -1``,
    ``--jobs must be at most 256, not 1000``.

    typer's ``min=``/``max=`` would check the same through the range types of the parser typer
    is built on, in its words (``Invalid value for '--jobs' / '-j': 0 is not in the range
    1<=x<=256``); these words are the ones the command line has always used, which scripts and
    tests rely on.

    Returns
    -------
    Callable
        For ``typer.Option(..., callback=within(1, MAX_JOBS))`` (or an argument's).

    Examples
    --------
    >>> jobs = typer.Option("--jobs", callback=within(1, MAX_JOBS))
    """

    def check(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
        from .output import fail

        if value is None or ctx.resilient_parsing:
            return value
        name = param.opts[0] if param.opts and param.opts[0].startswith("-") else None
        name = name or str(param.metavar or (param.name or "").upper())
        if least is not None and value < least:
            fail(f"{name} must be at least {_number(least)}, not {_number(value)}")
        if most is not None and value > most:
            fail(f"{name} must be at most {_number(most)}, not {_number(value)}")
        return value

    return check


def parse_cell(text: str) -> tuple[int, int]:
    """``ROW,COL`` (a ``--start`` option's value) as a pair of ints.

    Examples
    --------
    >>> parse_cell("2, 5")
    (2, 5)

    Raises
    ------
    typer.BadParameter
        If ``text`` is not two integers separated by a comma.
    """
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not ROW,COL (e.g. 0,0)", param_hint="'--start'"
        ) from None
    return row, col


def parse_whole(text: str) -> int:
    """A whole-number argument as typed, for a command whose arguments may be negative
    (:data:`~mineshafted.cli.usage.NUMBERS`: a word the parser does not know as an option is
    an argument there, so a mistyped option lands here and is named as one).

    Examples
    --------
    >>> parse_whole("-3")
    -3

    Raises
    ------
    typer.BadParameter
        ``text`` is not a whole number.
    """
    try:
        return int(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a whole number{_option_like(text)}") from None


def parse_number(text: str) -> float:
    """A number argument as typed (see :func:`parse_whole`).

    Examples
    --------
    >>> parse_number("-0.5")
    -0.5

    Raises
    ------
    typer.BadParameter
        ``text`` is not a finite number.
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise typer.BadParameter(f"{text!r} is not a number{_option_like(text)}")
    return value


def _option_like(text: str) -> str:
    """What to add when a word that is not a number looks like an option."""
    return ", nor an option of this command" if text.startswith("-") else ""


def _dask_address(address: str | None) -> str | None:
    """``--dask`` as given, once it names a local cluster or reads as a scheduler's address.

    Raises
    ------
    typer.BadParameter
        Not an address of a Dask scheduler.
    """
    from ..studies import LOCAL, StudyError, check_address

    if address is None or address == LOCAL:
        return address
    try:
        return check_address(address)
    except StudyError as error:
        raise typer.BadParameter(str(error)) from None


def _number(value: float) -> str:
    """A bound or a value as a message shows it: ``1,000,000``, ``-0.5``."""
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"
