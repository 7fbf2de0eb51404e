"""Targets at the command line: :mod:`mineshafted.files`'s guard of the files a command
writes (``--out``, ``--record``), each refusal one line on stderr naming the path, exit
status 2 (:func:`~mineshafted.cli.output.fail`): ``PATH: exists (use --force to replace
it)``, ``PATH: not a regular file (a FIFO)``.

The words (target, results file, output folder) are :mod:`mineshafted.files`'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .output import fail

if TYPE_CHECKING:
    from ..files import PathText
    from ..game import GameRecord

__all__ = [
    "check_folder",
    "check_record",
    "check_results",
    "check_target",
    "refused",
    "replacing",
    "save_record",
]


@contextmanager
def refused() -> Iterator[None]:
    """End the command in one line for a :class:`~mineshafted.errors.TargetError` raised in
    the block (the guard refused a target, or writing it failed).

    Raises
    ------
    typer.Exit
        Status 2, through :func:`~mineshafted.cli.output.fail`.
    """
    from ..errors import TargetError

    try:
        yield
    except TargetError as error:
        fail(str(error))


def check_target(path: PathText, *, force: bool = False, inputs: Iterable[PathText] = ()) -> None:
    """:func:`mineshafted.files.check_target`, a refusal ending the command in one line.

    Raises
    ------
    typer.Exit
        Status 2: ``PATH: exists (use --force to replace it)``, ``PATH: not a regular file
        (a directory)``, ...

    Examples
    --------
    >>> check_target("/dev/null", force=True)
    Traceback (most recent call last):
    ...
    typer.exceptions.Exit: 2
    """
    from .. import files

    with refused():
        files.check_target(path, force=force, inputs=inputs)


@contextmanager
def replacing(
    path: PathText, *, force: bool = False, inputs: Iterable[PathText] = ()
) -> Iterator[Path]:
    """:func:`mineshafted.files.replacing`, a refusal or failed write ending the command in
    one line: the block writes the file yielded, which takes the target's name once whole.

    Raises
    ------
    typer.Exit
        Status 2, one line naming ``path`` (never the file beside it).
    """
    from .. import files

    with refused(), files.replacing(path, force=force, inputs=inputs) as beside:
        yield beside


def check_results(path: PathText) -> None:
    """:func:`mineshafted.files.check_results`, a refusal ending the command in one line."""
    from .. import files

    with refused():
        files.check_results(path)


def check_folder(path: PathText) -> None:
    """:func:`mineshafted.files.check_folder`, a refusal ending the command in one line."""
    from .. import files

    with refused():
        files.check_folder(path)


def check_record(
    path: Path | None,
    count: int,
    what: str,
    *,
    force: bool = False,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Refuse a ``--record`` that could not be kept: more than one ``what``, or a target that
    cannot be written (:func:`check_target`: an existing file without
    ``force``, a device, a FIFO, a folder, a link, one of ``inputs``).

    Raises
    ------
    typer.Exit
        Through :func:`~mineshafted.cli.output.fail`, with one line naming the problem.
    """
    if path is None:
        return
    if count != 1:
        fail(f"--record takes one {what}, not {count}")
    check_target(path, force=force, inputs=inputs)


def save_record(
    record: GameRecord,
    path: Path,
    *,
    force: bool = False,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Write a game record to ``path`` (JSON Lines) through the guard of targets
    (:func:`replacing`): whole or not at all, an error as one line
    naming the file."""
    from ..game import write_record

    with replacing(path, force=force, inputs=inputs) as beside:
        write_record(record, beside)
