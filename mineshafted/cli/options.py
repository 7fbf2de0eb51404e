"""Options shared by several commands, written once: ``--record``, ``--start``, limits."""

from __future__ import annotations

from typing import Any

import typer

__all__ = [
    "MAX_COUNT",
    "MAX_JOBS",
    "at_least",
    "check_cells",
    "check_jobs",
    "dask_option",
    "parse_cell",
    "record_option",
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
        path with :func:`~mineshafted.cli.output.check_record` and writes it with
        :func:`~mineshafted.cli.output.save_record`.

    Examples
    --------
    >>> print(record_option("board", "each move with the rule that made it").help)
    With one board: write its game record (each move with the rule that made it) for \
`mineshafted replay`. An existing file is kept.
    """
    return typer.Option(
        "--record",
        metavar="FILE.jsonl",
        dir_okay=False,
        help=f"With one {one}: write its game record ({holding}) for `mineshafted replay`. "
        "An existing file is kept.",
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


def check_jobs(jobs: int) -> None:
    """Refuse ``--jobs`` below 1 or above :data:`MAX_JOBS`, in one line."""
    from .output import fail

    if jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if jobs > MAX_JOBS:
        fail(f"--jobs must be at most {MAX_JOBS}, not {jobs}")


def at_least(**arguments: tuple[float, float]) -> None:
    """Refuse the first argument below its least value, in one line naming it.

    Each keyword is an argument's name as help shows it, with its value and least value:
    ``at_least(ROWS=(rows, 1))`` fails with ``ROWS must be at least 1, not -1``.
    """
    from .output import fail

    for name, (value, least) in arguments.items():
        if value < least:
            fail(f"{name} must be at least {least:g}, not {value:g}")


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
        raise typer.BadParameter(f"{text!r} is not ROW,COL (e.g. 0,0)") from None
    return row, col


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
