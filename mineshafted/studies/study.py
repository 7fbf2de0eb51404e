"""Study: the one runner, many games of one kind played here, in processes, or on Dask.

A study kind (:class:`Kind`: classic play's :class:`~mineshafted.studies.classic.Study`, the
labs' :class:`~mineshafted.studies.density.DensityStudy` and
:class:`~mineshafted.studies.presets.PresetsStudy`) says how many games it has and plays game
``i`` from its own seed and ``i`` alone; the runner plays them in this process, in a pool of
processes or on a Dask cluster, keeps each finished game in a resumable results file
(:mod:`.journal`) and stops cleanly on Ctrl-C or SIGTERM. So a study's results are the same
whichever way it runs, and however it is split or resumed; only the order in which games
finish, and their times, differ.

Glossary
--------
kind
    What the games of a study are: classic games of one size and policy, or the labs' boards
    each played by every agent. A new kind is one module with one class (the :class:`Kind`
    protocol) and one command that runs it.
chunk
    A run of game indices sent to one worker at once, so that a worker's round trip is paid
    per chunk, not per game.
part
    What a worker is sent with a chunk: the study itself, or, for a kind that has
    :class:`Parts` (the boards of a file), only the chunk's games with their data.
fold
    What a study's results are kept as, given each game as it arrives: a fold of counts and
    sums (the summary, a lab table), never the list of games, so that a study of any length
    runs in bounded memory.
"""

from __future__ import annotations

import itertools
import logging
import signal
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

from .cluster import LOCAL, SCHEMES, check_address, on_dask
from .indices import Indices
from .journal import open_journal
from .kind import Fold, Kind, L, OnGame, Parts, Player
from .stopping import Stopping, Terminated
from .workers import in_processes

__all__ = [
    "LOCAL",
    "SCHEMES",
    "Finished",
    "Fold",
    "Kind",
    "Parts",
    "Player",
    "check_address",
    "run_study",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Finished:
    """How a study ended: how many of its games are done, and how many were resumed.

    The games themselves went to the ``fold`` given to :func:`run_study`, as they arrived.
    """

    games: int
    """How many of the study's games are done (those run now and those resumed from its
    file)."""
    interrupted: bool
    """Stopped early (Ctrl-C or SIGTERM): only :attr:`games` of the study's games are done."""
    resumed: int
    """How many of the games were already in the results file."""
    stopped_by: signal.Signals | None = None
    """The signal that stopped the study early: ``SIGINT`` (Ctrl-C, or ``on_game`` raising
    ``KeyboardInterrupt``) or ``SIGTERM``; ``None`` when it ran to its end."""


def run_study(
    study: Kind[L],
    *,
    fold: Fold[L] | None = None,
    jobs: int = 1,
    dask: str | None = None,
    dask_processes: bool = True,
    out: Path | None = None,
    on_game: OnGame[L] | None = None,
) -> Finished:
    """Play the games of ``study`` not yet in ``out``, giving every game to ``fold``.

    Parameters
    ----------
    study:
        The games: any :class:`Kind`.
    fold:
        Called with each game of the study once, in the calling process: first those already
        in ``out`` (as the file is read), then each game as it finishes. What it keeps of them
        is up to it: a fold of the results
        (:class:`~mineshafted.studies.summary.SummaryFold`, a lab study's
        :meth:`~mineshafted.studies.paired.LabStudy.fold`) keeps memory bounded
        whatever the number of games; ``lines.append`` keeps them all.
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
        Called after each game played now (not those resumed), with how many of the study's
        games are done; an exception it raises stops the study (a ``KeyboardInterrupt``
        stops it cleanly, as Ctrl-C does).

        The study stops cleanly on Ctrl-C and, when it runs in the main thread and nothing
        else has set a handler for it, on SIGTERM (a second SIGTERM ends the process at
        once, as usual).

    Returns
    -------
    Finished
        How many of the study's games are done, how many were resumed, and whether it was
        interrupted.

    Raises
    ------
    StudyError
        The study cannot be played (from its :meth:`Kind.check`), and the subclasses below.
    MissingExtraError
        ``dask`` is given but Dask is not installed.
    SchedulerError
        ``dask`` is not an address of a Dask scheduler, or the scheduler cannot be reached
        (within 10 s).
    JournalError
        ``out`` belongs to another study or is malformed.

    Examples
    --------
    >>> from mineshafted.studies import Study, SummaryFold
    >>> fold = SummaryFold()
    >>> run_study(Study(9, 9, 10, games=3, seed=1), fold=fold.add)
    Finished(games=3, interrupted=False, resumed=0, stopped_by=None)
    >>> fold.summary().wins
    3

    Notes
    -----
    ``O(1)`` memory per game: the games are generated lazily, at most a few chunks per worker
    are under way, the results file is read as a stream, and the finished games' indices are
    kept as runs of consecutive ones (:class:`~mineshafted.studies.indices.Indices`; chunks
    finish nearly in order, so there are few), never as a list. What ``fold`` keeps is its
    own.

    Ctrl-C (``KeyboardInterrupt``) or SIGTERM in the calling process cancels the chunks not
    yet started; worker processes ignore both, and the games they are playing are dropped.
    With ``jobs`` > 1 a worker returns its games a chunk at a time (up to 16), so what a crash
    of the calling process (``kill -9``) loses is the chunks under way: at most
    ``16 * 4 * jobs`` games' work, never a line already written.
    """
    if dask is not None and dask != LOCAL:
        check_address(dask)  # before anything is made or written
    study.check()
    count = study.count

    def keep(line: L) -> None:
        if fold is not None and 0 <= line.index < count:
            fold(line)

    where = _Where(jobs, dask, dask_processes)
    if out is None:
        return _run(study, Indices(), where, record=None, fold=keep, on_game=on_game)
    with open_journal(out, study.key, study.read, keep) as journal:
        done, record = journal.done, journal.append
        return _run(study, done, where, record=record, fold=keep, on_game=on_game)


@dataclass(frozen=True)
class _Where:
    """Where a study's games are played: here (``jobs`` 1), in ``jobs`` processes, or on the
    Dask cluster at ``dask`` (its workers processes, or threads of one)."""

    jobs: int
    dask: str | None
    processes: bool

    def batches(
        self, study: Kind[L], todo: Iterator[int], left: int
    ) -> Generator[list[L], None, None]:
        """Finished games, a chunk at a time, in the order chunks finish (``left`` of them)."""
        jobs = self.jobs
        if self.dask is not None:
            return on_dask(study, _chunks(todo, left, jobs), self.dask, jobs, self.processes)
        if jobs <= 1:
            return ([study.play(i)] for i in todo)
        return in_processes(study, _chunks(todo, left, jobs), jobs)


def _run(
    study: Kind[L],
    done: Indices,
    where: _Where,
    *,
    record: Callable[[L], None] | None,
    fold: Callable[[L], None],
    on_game: OnGame[L] | None,
) -> Finished:
    """Play the games not in ``done``, recording and folding each, until all are done or
    interrupted."""
    resumed = done.below(study.count)
    left = study.count - resumed
    todo = done.missing(study.count)  # lazily: a study may be endless
    games = resumed
    stopped_by = None
    if left:
        log.info("study: %d game(s) to play, %d resumed", left, resumed)
    batches = where.batches(study, todo, left)
    try:
        with Stopping() as stopping:
            try:
                for batch in batches:
                    for line in batch:
                        with stopping.step():  # the file and the fold agree on every stop
                            games += 1
                            if record is not None:
                                record(line)
                            fold(line)
                        if on_game is not None:
                            on_game(line, games)
            finally:
                batches.close()
    except KeyboardInterrupt as stop:
        stopped_by = signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT
        log.info("study stopped by %s after %d game(s)", stopped_by.name, games)
    return Finished(games, stopped_by is not None, resumed, stopped_by)


def _chunks(todo: Iterator[int], left: int, jobs: int) -> Iterator[list[int]]:
    """``todo`` (``left`` indices) cut in runs, lazily: about 16 per worker, at most 16 games
    each (so that Ctrl-C, which lets the chunks under way finish, stops within a few games'
    time)."""
    size = max(1, min(16, left // (max(jobs, 1) * 16)))
    while chunk := list(itertools.islice(todo, size)):
        yield chunk
