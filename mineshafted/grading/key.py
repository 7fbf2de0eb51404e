"""The board key: the instructor's secret the grading boards are made from; the sets it names.

A grading's default boards are made from a seed; a seed that anyone can read (in a report, a
feedback page) lets a student build a submission that carries those boards and scores full
marks on any grading made from the same seed, solving nothing. So the boards are derived
from a secret that only the instructor keeps, and reports name the set by a tag that is
derived from the same secret by another one-way function: the name tells board sets apart and
reveals nothing that rebuilds the boards.

Glossary
--------
board key
    32 random bytes (:class:`BoardKey`). Made fresh for each grading unless the instructor
    passes one on purpose; kept only where the instructor writes it (a key file, mode 0600).
board set
    The boards one key makes for one *context* (:class:`BoardSet`): the empty context for
    a grading or a class run (every student the same boards), a submission's own id in an
    autograder (each submission its own boards, from one key kept inside the autograder).
name
    A board set's public tag, like ``3f9a-c21b-7e04-55d1``: printed in every report.
key file
    One line, ``mineshafted board key 1 <64 hex digits>``; written once, replaced only when
    asked (``--force``).

Examples
--------
>>> key = BoardKey(bytes(32))
>>> key
BoardKey(<secret>)
>>> key.board_set().name, key.board_set("submission 7").name
('0eec-e80e-d1ee-d7fa', '4d06-6680-36f2-ed1a')
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..files import read_regular
from ..formats import Puzzle
from .boards import fresh_boards
from .errors import GraderFileError
from .files import write_atomically

__all__ = ["KEY_BYTES", "KEY_FILE_HEADER", "BoardKey", "BoardSet", "board_set_for"]

KEY_BYTES = 32
"""Bytes of secret in a board key: 256 bits."""

KEY_FILE_HEADER = "mineshafted board key 1"
"""How a key file's one line begins (then a space and the key as 64 hex digits)."""

_KEY_LINE = re.compile(rf"{re.escape(KEY_FILE_HEADER)} ([0-9a-f]{{{2 * KEY_BYTES}}})\n?")

_READ_AT_MOST = 4096
"""Bytes read from a key file: a key file is one short line."""

_KEY_READING = {
    "no such file": "no such key file",
    "is a directory, not a file to read": "is a directory, not a key file",
}
"""The reasons :func:`mineshafted.files.read_regular` gives, as a key file's."""

_NAME_PURPOSE = b"mineshafted board set name\0"
_BOARDS_PURPOSE = b"mineshafted board set boards\0"
"""What each keyed hash is for: the name and the boards come from different functions of the
key, so the one printed says nothing about the other."""


@dataclass(frozen=True)
class BoardKey:
    """A secret the grading boards are made from. Its ``repr`` never shows it.

    Parameters
    ----------
    secret:
        :data:`KEY_BYTES` bytes.

    Raises
    ------
    ValueError
        ``secret`` is not :data:`KEY_BYTES` bytes long.
    """

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != KEY_BYTES:
            raise ValueError(f"a board key is {KEY_BYTES} bytes, not {len(self.secret)}")

    def __repr__(self) -> str:
        return "BoardKey(<secret>)"

    @classmethod
    def new(cls) -> BoardKey:
        """A fresh key from the system's entropy."""
        return cls(secrets.token_bytes(KEY_BYTES))

    def board_set(self, context: str = "") -> BoardSet:
        """The boards this key makes for ``context`` (``""``: the grading's own set)."""
        return BoardSet(self, context)

    @classmethod
    def read(cls, path: Path) -> BoardKey:
        """The key in a key file.

        Raises
        ------
        GraderFileError
            The file is missing, a folder, not a regular file (a FIFO is never waited on:
            :func:`mineshafted.files.read_regular`), unreadable, or not a key file (one line
            each).
        """
        try:
            data = read_regular(path, limit=_READ_AT_MOST, hint=", not a key file")
        except InputError as error:
            raise GraderFileError(path, _KEY_READING.get(error.reason, error.reason)) from None
        found = _KEY_LINE.fullmatch(data.decode("ascii", "replace"))
        if found is None:
            shape = f"'{KEY_FILE_HEADER} <64 hex digits>'"
            raise GraderFileError(path, f"not a board key: a key file is one line, {shape}")
        return cls(bytes.fromhex(found.group(1)))

    def write(self, path: Path, *, force: bool = False, protect: Iterable[Path] = ()) -> None:
        """Write the key to a new file that only its owner can read (mode 0600).

        A path that is not a regular file (a device, a FIFO, a folder, a symbolic link, even
        one to nowhere) is never written; an existing file only with ``force``, and never
        one of ``protect`` (the submission graded): :func:`mineshafted.files.check_target`,
        through :func:`.files.write_atomically`.

        Raises
        ------
        TargetError
            ``path`` may not be written, or could not be (nothing is left half-written).
        """
        line = f"{KEY_FILE_HEADER} {self.secret.hex()}\n".encode()
        write_atomically(path, line, 0o600, force=force, inputs=protect)


def board_set_for(
    key: Path | None,
    save_key: Path | None = None,
    context: str | None = None,
    *,
    force: bool = False,
    protect: Iterable[Path] = (),
) -> tuple[BoardSet, str]:
    """The board set a grading is on, and where its key came from, as a report says it.

    Parameters
    ----------
    key:
        A key file to grade on (``--key``); ``None``: a fresh key.
    save_key:
        Where to keep the fresh key (``--save-key``; with ``force``, replacing a file).
    context:
        The key's board set for this context (an autograder's submission id).

    Raises
    ------
    GraderFileError
        The key file cannot be read.
    TargetError
        The fresh key cannot be saved there.
    """
    if key is not None:
        chosen = BoardKey.read(key)
        if context is not None:
            return chosen.board_set(context), f"from the key in {key} for {context}"
        return chosen.board_set(), f"from the key in {key}"
    fresh = BoardKey.new()
    if save_key is None:
        return fresh.board_set(), "from a fresh key that was not kept (--save-key FILE keeps one)"
    fresh.write(save_key, force=force, protect=protect)
    return (
        fresh.board_set(),
        f"from a fresh key saved in {save_key} (--key {save_key} grades on these boards again)",
    )


@dataclass(frozen=True)
class BoardSet:
    """The boards one key makes for one context, and the set's public name.

    Examples
    --------
    >>> chosen = BoardKey(bytes(32)).board_set()
    >>> boards = chosen.boards()
    >>> len(boards), boards[0][0]
    (32, '4x4-1-1')
    >>> [p.board for _, p in chosen.boards()] == [p.board for _, p in boards]
    True
    """

    key: BoardKey
    context: str = ""

    @property
    def name(self) -> str:
        """Sixteen hex digits in groups of four, from a keyed hash: safe to print anywhere."""
        digits = self._digest(_NAME_PURPOSE)[:8].hex()
        return "-".join(digits[i : i + 4] for i in range(0, 16, 4))

    def boards(self) -> list[tuple[str, Puzzle]]:
        """The set's boards, labelled ``ROWSxCOLS-MINES-N`` (:func:`~.boards.fresh_boards`).

        Notes
        -----
        The generator's seed is a 256-bit keyed hash of the context: without the key it
        cannot be found, whatever name or report is known.
        """
        return fresh_boards(int.from_bytes(self._digest(_BOARDS_PURPOSE), "big"))

    def _digest(self, purpose: bytes) -> bytes:
        message = purpose + self.context.encode("utf-8", "surrogatepass")
        return hmac.new(self.key.secret, message, hashlib.sha256).digest()
