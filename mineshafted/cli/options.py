"""Options shared by several commands, written once: ``--record``."""

from __future__ import annotations

from typing import Any

import typer

__all__ = ["record_option"]


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
