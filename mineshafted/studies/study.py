"""Study: many games of one kind played in this process, in a pool of processes, or on Dask.

Game ``i`` of a study is played from the base seed and ``i`` alone (:func:`game_seed`), so a
study's games and wins are the same whichever way it runs, and however it is split or
resumed; only the order in which games finish, and their times, differ.

Glossary
--------
chunk
    A run of game indices sent to one worker at once, so that a worker's round trip is paid
    per chunk, not per game.
"""

from __future__ import annotations

import hashlib
import logging
import signal
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from ..game import FirstMove, GameStatus
from ..probability import PolicyName, check_game, play_game, policy_named, start_cell
from .errors import MissingExtraError, SchedulerError
from .journal import GameLine, StudyKey, open_journal
from .summary import Summary, summarise

__all__ = ["LOCAL", "Finished", "Study", "game_seed", "play_one", "run_study"]

log = logging.getLogger(__name__)

LOCAL = "local"
"""The ``dask`` address that starts a :class:`distributed.LocalCluster` for the study."""

OnGame = Callable[[GameLine, int], None]
"""Called in the calling process after each finished game, with how many are done so far."""


@dataclass(frozen=True)
class Study:
    """``games`` games on a ``rows`` x ``cols`` board with ``mines`` mines, all alike.

    Examples
    --------
    >>> study = Study(9, 9, 10, games=3, seed=1)
    >>> [line.outcome.value for line in run_study(study).lines]
    ['won', 'won', 'won']
    """

    rows: int
    cols: int
    mines: int
    games: int = 1
    seed: int = 0
    """The base seed: game ``i`` is played from :func:`game_seed` of it and ``i``."""
    first: FirstMove = FirstMove.SAFE
    start: str = "corner"
    """``corner``, ``centre`` or ``R,C``."""
    policy: str = PolicyName.BEST.value
    """A name :func:`~mineshafted.probability.policy_named` knows."""

    def check(self) -> None:
        """Refuse a study that cannot be played.

        Raises
        ------
        InvalidBoardError
            No cells, or the mines do not fit.
        IllegalMoveError
            The start is off the board.
        ValueError
            Fewer than 0 games, or no policy has that name.
        """
        if self.games < 0:
            raise ValueError(f"games must be 0 or more, not {self.games}")
        policy_named(self.policy)
        cell = start_cell(self.start, self.rows, self.cols)
        check_game(self.rows, self.cols, self.mines, first=self.first, start=cell)

    @property
    def key(self) -> StudyKey:
        """What a results file must match to be resumed by this study."""
        return StudyKey(
            self.rows, self.cols, self.mines, self.first.value, self.start, self.policy, self.seed
        )


@dataclass(frozen=True)
class Finished:
    """A study's games (those run now and those resumed from its file) and how it ended."""

    lines: list[GameLine]
    """Every finished game of the study, by index."""
    summary: Summary
    interrupted: bool
    """Stopped early (Ctrl-C): the summary covers only the games done."""
    resumed: int
    """How many of the games were already in the results file."""


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` of a study with base seed ``base``: a 63-bit hash of both.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    digest = hashlib.blake2b(f"mineshafted:{base}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_one(study: Study, index: int) -> GameLine:
    """Play game ``index`` of ``study``."""
    seed = game_seed(study.seed, index)
    played = play_game(
        study.rows,
        study.cols,
        study.mines,
        seed=seed,
        first=study.first,
        start=study.start,
        policy=study.policy,
    )
    outcome = GameStatus.WON if played.won else GameStatus.LOST
    return GameLine(index, seed, outcome, len(played.guesses), played.seconds)


def run_study(
    study: Study,
    *,
    jobs: int = 1,
    dask: str | None = None,
    dask_processes: bool = True,
    out: Path | None = None,
    on_game: OnGame | None = None,
) -> Finished:
    """Play the games of ``study`` not yet in ``out``; return them all, summarised.

    Parameters
    ----------
    study:
        The games.
    jobs:
        Worker processes (1: play in this process). With ``dask="local"``, the local
        cluster's workers.
    dask:
        ``"local"`` to start a :class:`distributed.LocalCluster`, or a scheduler's address
        (``tcp://host:port``) to send the games there; ``None`` not to use Dask.
    dask_processes:
        Whether a local cluster's workers are processes (threads otherwise: for tests).
    out:
        The results file: each finished game is appended as one JSON line, flushed; the
        games already in it are skipped (resume).
    on_game:
        Called after each finished game; an exception it raises stops the study (a
        ``KeyboardInterrupt`` stops it cleanly, as Ctrl-C does).

    Returns
    -------
    Finished
        All of the study's games done so far, their summary, and whether it was interrupted.

    Raises
    ------
    MissingExtraError
        ``dask`` is given but Dask is not installed.
    SchedulerError
        The Dask scheduler cannot be reached.
    JournalError
        ``out`` belongs to another study or is malformed.

    Notes
    -----
    Ctrl-C (``KeyboardInterrupt``) in the calling process cancels the chunks not yet
    started; worker processes ignore it, and the games they are playing are dropped.
    """
    study.check()
    if out is None:
        return _run(study, {}, None, jobs, dask, dask_processes, on_game)
    with open_journal(out, study.key) as journal:
        done = {i: line for i, line in journal.done.items() if i < study.games}
        return _run(study, done, journal.append, jobs, dask, dask_processes, on_game)


def _run(
    study: Study,
    done: dict[int, GameLine],
    record: Callable[[GameLine], None] | None,
    jobs: int,
    dask: str | None,
    dask_processes: bool,
    on_game: OnGame | None,
) -> Finished:
    """Play the games not in ``done``, recording each, until all are done or interrupted."""
    resumed = len(done)
    todo = [i for i in range(study.games) if i not in done]
    lines = dict(done)
    interrupted = False
    if todo:
        log.info("study: %d game(s) to play, %d resumed", len(todo), resumed)
    batches = _batches(study, todo, jobs, dask, dask_processes)
    try:
        for batch in batches:
            for line in batch:
                lines[line.index] = line
                if record is not None:
                    record(line)
                if on_game is not None:
                    on_game(line, len(lines))
    except KeyboardInterrupt:
        interrupted = True
        log.info("study interrupted after %d game(s)", len(lines))
    finally:
        batches.close()
    ordered = [lines[i] for i in sorted(lines)]
    return Finished(ordered, summarise(ordered), interrupted, resumed)


def _batches(
    study: Study, todo: list[int], jobs: int, dask: str | None, dask_processes: bool
) -> Generator[list[GameLine], None, None]:
    """Finished games, a chunk at a time, in the order chunks finish."""
    if dask is not None:
        return _on_dask(study, _chunks(todo, jobs), dask, jobs, dask_processes)
    if jobs <= 1:
        return ([play_one(study, i)] for i in todo)
    return _in_processes(study, _chunks(todo, jobs), jobs)


def _chunks(todo: list[int], jobs: int) -> list[list[int]]:
    """``todo`` cut in runs: about 16 per worker, at most 16 games each (so that Ctrl-C,
    which lets the chunks under way finish, stops within a few games' time)."""
    size = max(1, min(16, len(todo) // (max(jobs, 1) * 16)))
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def _play_chunk(study: Study, indices: Sequence[int]) -> list[GameLine]:
    """Play the games ``indices`` of ``study`` (in a worker)."""
    return [play_one(study, i) for i in indices]


def _ignore_interrupt() -> None:
    """In a worker process: leave Ctrl-C to the parent, which stops the study cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_processes(
    study: Study, chunks: list[list[int]], jobs: int
) -> Generator[list[GameLine], None, None]:
    """Chunks played by a pool of ``jobs`` processes."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupt)
    try:
        futures: list[Future[list[GameLine]]] = [
            pool.submit(_play_chunk, study, chunk) for chunk in chunks
        ]
        for future in as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _on_dask(
    study: Study, chunks: list[list[int]], address: str, jobs: int, processes: bool
) -> Generator[list[GameLine], None, None]:
    """Chunks played on a Dask cluster: a local one, or the scheduler at ``address``."""
    try:
        import distributed  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise MissingExtraError(
            "--dask needs Dask, which is not installed: pip install 'mineshafted[dask]'",
            extra="dask",
        ) from None
    cluster = None
    try:
        if address == LOCAL:
            cluster = distributed.LocalCluster(  # type: ignore[no-untyped-call,unused-ignore]
                n_workers=max(jobs, 1),
                threads_per_worker=1,
                processes=processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(cluster)  # type: ignore[no-untyped-call,unused-ignore]
        else:
            client = distributed.Client(  # type: ignore[no-untyped-call,unused-ignore]
                address, timeout="10s"
            )
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()  # type: ignore[no-untyped-call,unused-ignore]
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {address}: {error}", address=address
        ) from None
    try:
        futures = client.map(_play_chunk, [study] * len(chunks), chunks, pure=False)
        done = distributed.as_completed(futures)  # type: ignore[no-untyped-call,unused-ignore]
        for future in done:
            yield future.result()
    finally:
        client.close()  # type: ignore[no-untyped-call,unused-ignore]
        if cluster is not None:
            cluster.close()  # type: ignore[no-untyped-call,unused-ignore]
