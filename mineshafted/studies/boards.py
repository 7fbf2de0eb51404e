"""Boards: the study kind of ``mineshafted play --boards``, classic games on the boards of a file.

Game ``i`` is the board on line ``i + 1`` of a boards file, played exactly as given (no mine
drawn or moved) from its first reveal, by :func:`~mineshafted.probability.play_board`; the
policy's random choices come from :func:`~mineshafted.studies.classic.game_seed` of the base
seed and ``i``, as in a drawn study. So the same file and seed give the same games, and two
policies (or two programs) given the same file play the same boards.

The file is never held whole: :func:`boards_study` reads it once, a line at a time, to check
every board before any game is played; games then read their lines as they are handed out,
and a worker is sent the lines of its chunk, never the file (so a Dask worker on another
machine needs no copy of it).

Glossary
--------
boards file
    JSON Lines, one board a line: a mine list ``{"rows", "cols", "mines", "first"}`` or a
    puzzle (``board``, optional ``start``), read by :func:`~mineshafted.formats.parse_board`.
fingerprint
    The SHA-256 of the file's bytes, in the study's key: a results file resumes only on the
    same boards.
part
    Some games of the study with their lines (:class:`BoardsPart`): what a worker is sent.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import IllegalMoveError, InputError, PuzzleFormatError
from ..formats import Puzzle, parse_board, read_lines
from ..game import FirstMove
from ..probability import Played, PolicyName, check_board, play_board
from .classic import GameLine, check_policy, game_seed, play_one
from .errors import BoardsError, StudyError

__all__ = ["BoardsPart", "BoardsStudy", "boards_study"]


@dataclass(frozen=True)
class BoardsStudy:
    """The boards of a file, each played once: game ``i`` is line ``i + 1``.

    Made by :func:`boards_study`, which checks the file; a study kind of
    :func:`~mineshafted.studies.run_study`.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "boards.jsonl"
    >>> _ = path.write_text('{"rows": 4, "cols": 4, "mines": [[3, 3]], "first": [0, 0]}\\n'
    ...                     '{"board": [[0, 0, 0], [1, 1, 0], [-1, 1, 0]]}\\n')
    >>> study = boards_study(path)
    >>> study.count, study.size
    (2, None)
    >>> [study.play(i).outcome.value for i in range(study.count)]
    ['won', 'won']
    """

    path: Path
    lines: int
    """How many boards the file holds."""
    sha256: str
    """The fingerprint of the file: the SHA-256 of its bytes, in hex."""
    size: tuple[int, int, int] | None
    """The rows, columns and mines every board shares; ``None`` when they differ."""
    first: FirstMove = FirstMove.SAFE
    policy: str = PolicyName.BEST.value
    seed: int = 0
    """The base seed of the policy's random choices (game ``i``: :func:`game_seed` of it and
    ``i``)."""
    games: int | None = None
    """Play only the first ``games`` boards; all of them when ``None``."""
    stamp: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)
    """The file's size and modification time when it was checked: a file changed since is
    refused rather than played."""
    _cursor: _Cursor = field(default_factory=lambda: _Cursor(), compare=False, repr=False)

    @property
    def count(self) -> int:
        """How many games: :attr:`games`, or every board of the file."""
        return self.lines if self.games is None else self.games

    @property
    def key(self) -> dict[str, Any]:
        """What a results file must match to be resumed: the file's fingerprint, the first
        move, the policy and the seed (not the number of games)."""
        return {
            "boards": f"sha256:{self.sha256}",
            "first": self.first.value,
            "policy": self.policy,
            "seed": self.seed,
        }

    def check(self) -> None:
        """Refuse a study that cannot be played (the boards were checked when it was made).

        Raises
        ------
        StudyError
            No policy has that name, or more games than boards are asked for.
        """
        check_policy(self.policy)
        if self.games is not None and not 0 <= self.games <= self.lines:
            raise StudyError(
                f"--games {self.games}: {self.path} holds {self.lines} board(s), one a line"
            )

    def game(self, index: int, *, record_odds: bool = False, flag: bool = False) -> Played:
        """Game ``index``: the board on line ``index + 1`` played to its end."""
        return self.part([index]).game(index, record_odds=record_odds, flag=flag)

    def play(self, index: int) -> GameLine:
        """Play game ``index`` (:func:`~mineshafted.studies.classic.play_one`)."""
        return play_one(self, index)

    def read(self, data: Any) -> GameLine:
        """A line of this study's results file (:meth:`GameLine.from_json`)."""
        return GameLine.from_json(data)

    def part(self, indices: Sequence[int]) -> BoardsPart:
        """The games ``indices`` with their lines, read from the file now.

        Raises
        ------
        BoardsError
            The file cannot be read, or has changed since it was checked (its size or time of
            change differ).

        Notes
        -----
        The file is read forward from where the last part ended; a part that starts before
        that reads it again from the top. So parts asked for in order (as the runner asks)
        read the file once in all.
        """
        if _stamp(self.path) != self.stamp:
            raise BoardsError(
                f"{self.path}: changed since it was checked: run the command again",
                path=self.path,
            )
        lines = {i: self._cursor.line(self, i + 1) for i in sorted(indices)}
        return BoardsPart(str(self.path), self.first, self.policy, self.seed, lines)


@dataclass(frozen=True)
class BoardsPart:
    """Some games of a :class:`BoardsStudy`, with the text of their lines."""

    path: str
    """The boards file, to name in a message."""
    first: FirstMove
    policy: str
    seed: int
    lines: dict[int, str]
    """Each game's line, by the game's index."""

    def game(self, index: int, *, record_odds: bool = False, flag: bool = False) -> Played:
        """Game ``index`` played to its end."""
        puzzle = _board(self.path, index + 1, self.lines[index], self.first)
        return play_board(
            puzzle.board,
            start=puzzle.start,
            seed=game_seed(self.seed, index),
            first=self.first,
            policy=self.policy,
            record_odds=record_odds,
            flag=flag,
        )

    def play(self, index: int) -> GameLine:
        """Play game ``index`` (:func:`~mineshafted.studies.classic.play_one`)."""
        return play_one(self, index)


def boards_study(
    path: str | Path,
    *,
    first: FirstMove = FirstMove.SAFE,
    policy: str = PolicyName.BEST.value,
    seed: int = 0,
    games: int | None = None,
) -> BoardsStudy:
    """The study of the boards file at ``path``, every line checked.

    Parameters
    ----------
    path:
        A regular file of JSON Lines, one board a line
        (:func:`~mineshafted.formats.parse_board`).
    first:
        ``SAFE``: each first reveal must be safe (it always must); ``OPENING``: it must show
        a 0.
    policy, seed:
        Who guesses, and the base seed of its random choices.
    games:
        Play only the first ``games`` boards (default: all).

    Returns
    -------
    BoardsStudy

    Raises
    ------
    BoardsError
        The file cannot be read (missing, not a regular file, a line too long or not UTF-8),
        holds no board, or a line is not a board to play under ``first``: the message names
        the file and the line.

    Notes
    -----
    Reads the file once, one line at a time: ``O(its size)`` time, ``O(its longest line)``
    memory. Each board is parsed and built once here and once more when it is played.
    """
    where = Path(path)
    digest = hashlib.sha256()
    count = 0
    sizes: set[tuple[int, int, int]] = set()
    for number, text in _lines(where):
        digest.update(text.encode("utf-8"))
        board = _board(str(where), number, text, first).board
        sizes.add((board.geometry.rows, board.geometry.cols, board.mine_total))
        count = number
    if not count:
        raise BoardsError(f"{where}: no boards: the file is empty", path=where)
    stamp = _stamp(where)
    size = next(iter(sizes)) if len(sizes) == 1 else None
    return BoardsStudy(where, count, digest.hexdigest(), size, first, policy, seed, games, stamp)


class _Cursor:
    """Where the boards file is being read: an open run of its lines and the next number.

    Not sent to other processes: a copy starts afresh (and opens the file if it must).
    """

    def __init__(self) -> None:
        self._lines: Iterator[tuple[int, str]] | None = None
        self._next = 1

    def line(self, study: BoardsStudy, number: int) -> str:
        """The text of line ``number`` of ``study``'s file.

        Raises
        ------
        BoardsError
            The file cannot be read, or is too short.
        """
        if self._lines is None or number < self._next:
            self._lines, self._next = _lines(study.path), 1
        for found, text in self._lines:
            self._next = found + 1
            if found == number:
                return text
        self._lines = None
        raise BoardsError(
            f"{study.path}: line {number}: no such line", path=study.path, line=number
        )

    def __reduce__(self) -> tuple[type[_Cursor], tuple[()]]:
        """A fresh cursor: a copy (in another process) starts from the top of the file."""
        return (_Cursor, ())


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """The lines of the boards file, a reading error as a :class:`BoardsError`."""
    try:
        yield from read_lines(path)
    except InputError as error:
        raise BoardsError(str(error), path=path) from None


def _board(path: str, number: int, text: str, first: FirstMove) -> Puzzle:
    """Line ``number`` of the boards file at ``path`` as a puzzle to play under ``first``.

    Raises
    ------
    BoardsError
        The line is not a board (see :func:`~mineshafted.formats.parse_board`), or its first
        reveal is not what ``first`` promises.
    """
    where = f"{path}: line {number}"
    try:
        puzzle = parse_board(text, where=where)
        check_board(puzzle.board, first=first, start=puzzle.start)
    except PuzzleFormatError as error:
        raise BoardsError(str(error), path=Path(path), line=number) from None
    except IllegalMoveError as error:
        raise BoardsError(f"{where}: {error}", path=Path(path), line=number) from None
    return puzzle


def _stamp(path: Path) -> tuple[int, int]:
    """The file's size and modification time, in nanoseconds; ``(-1, -1)`` if it is gone."""
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_size, status.st_mtime_ns)
