"""Targets at the command line: :mod:`mineshafted.files`'s guard of the files a command
writes (``--out``, ``--record``), each refusal one line on stderr naming the path, exit
status 2 (:func:`~mineshafted.cli.output.fail`): ``PATH: exists (use --force to replace
it)``, ``PATH: not a regular file (a FIFO)``.

The words (target, results file, output folder) are :mod:`mineshafted.files`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .output import fail

if TYPE_CHECKING:
    from ..files import PathText

__all__ = ["check_folder", "check_results", "check_target", "refused", "replacing"]


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
