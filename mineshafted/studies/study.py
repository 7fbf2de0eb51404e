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
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..lifetime import end_with_parent
from .errors import MissingExtraError, SchedulerError
from .indices import Indices
from .journal import Line, open_journal
from .stopping import Stopping, Terminated

__all__ = [
    "CONNECT_SECONDS",
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

LOCAL = "local"
"""The ``dask`` address that starts a :class:`distributed.LocalCluster` for the study."""

CONNECT_SECONDS = 10
"""How long a scheduler has to answer (Dask's connection timeout; its greeting gets 5 s
more)."""

SCHEMES = ("tcp", "tls", "ws", "wss")
"""The schemes of a scheduler's address the runner takes: those of Dask's own network
transports (``inproc`` reaches only a scheduler in the same process, ``ucx`` needs a package
of its own)."""

L = TypeVar("L", bound=Line)
L_co = TypeVar("L_co", bound=Line, covariant=True)


class Player(Protocol[L_co]):
    """What a worker is sent: something that plays game ``i`` of a study."""

    def play(self, index: int) -> L_co:
        """Play game ``index``."""
        ...  # pragma: no cover - protocol


@runtime_checkable
class Parts(Protocol[L_co]):
    """A kind whose games are data (the boards of a file): a worker is sent only its chunk's
    games, not the whole study, so that the study is read as it is played, in bounded memory,
    and a worker needs nothing but what it is sent."""

    def part(self, indices: Sequence[int]) -> Player[L_co]:
        """The games ``indices`` (ascending), ready to send; the runner asks for them in
        order, as it starts them."""
        ...  # pragma: no cover - protocol


class Kind(Protocol[L_co]):
    """A kind of study: ``count`` games, game ``i`` played from the study and ``i`` alone.

    A kind must pickle (it is sent to worker processes) and play the same game for the same
    index wherever it runs; one with :class:`Parts` sends its parts instead.
    """

    @property
    def count(self) -> int:
        """How many games the study has (indices ``0 .. count - 1``); the runner starts them
        in index order, so a kind puts its costliest games first."""
        ...  # pragma: no cover - protocol

    @property
    def key(self) -> dict[str, Any]:
        """What fixes every game, as JSON: a results file must match it to be resumed."""
        ...  # pragma: no cover - protocol

    def check(self) -> None:
        """Raise if the study cannot be played (before any game is)."""
        ...  # pragma: no cover - protocol

    def play(self, index: int) -> L_co:
        """Play game ``index``."""
        ...  # pragma: no cover - protocol

    def read(self, data: Any) -> L_co:
        """A game line back from its JSON in the results file (``ValueError`` if it is not)."""
        ...  # pragma: no cover - protocol


OnGame = Callable[[L, int], None]
"""Called in the calling process after each finished game, with how many are done so far."""

Fold = Callable[[L], object]
"""Given every game of a study once: those resumed from its results file, then each game as
it finishes (in the order games finish, not by index)."""


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

    if out is None:
        return _run(study, Indices(), None, jobs, dask, dask_processes, keep, on_game)
    with open_journal(out, study.key, study.read, keep) as journal:
        return _run(study, journal.done, journal.append, jobs, dask, dask_processes, keep, on_game)


def check_address(address: str) -> str:
    """``address`` once it reads as a scheduler's: ``SCHEME://HOST:PORT`` or ``HOST:PORT``
    (over TCP), with a scheme of :data:`SCHEMES` and a port that is a number.

    Raises
    ------
    SchedulerError
        Any other address; the message says what is wrong and lists the schemes.

    Examples
    --------
    >>> check_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_address("bogus://x")
    Traceback (most recent call last):
    ...
    mineshafted.studies.errors.SchedulerError: 'bogus://x' is not a Dask scheduler's address \
(no scheme 'bogus'): give 'local' for a local cluster, or SCHEME://HOST:PORT with SCHEME one \
of tcp, tls, ws, wss
    """
    scheme, _, location = address.strip().rpartition("://")
    host, colon, port = location.rpartition(":")
    reason = None
    if not address.strip():
        reason = "it is empty"
    elif scheme and scheme not in SCHEMES:
        reason = f"no scheme {scheme!r}"
    elif not location or (colon and not host):
        reason = "no host"
    elif colon and not (port.isdigit() and 0 < int(port) < 65536):
        reason = f"the port {port!r} is not a number from 1 to 65535"
    if reason is not None:
        raise SchedulerError(
            f"{address!r} is not a Dask scheduler's address ({reason}): give 'local' for a "
            f"local cluster, or SCHEME://HOST:PORT with SCHEME one of {', '.join(SCHEMES)}",
            address=address,
        )
    return address


def _run(
    study: Kind[L],
    done: Indices,
    record: Callable[[L], None] | None,
    jobs: int,
    dask: str | None,
    dask_processes: bool,
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
    batches = _batches(study, todo, left, jobs, dask, dask_processes)
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


def _batches(
    study: Kind[L],
    todo: Iterator[int],
    left: int,
    jobs: int,
    dask: str | None,
    dask_processes: bool,
) -> Generator[list[L], None, None]:
    """Finished games, a chunk at a time, in the order chunks finish (``left`` of them)."""
    if dask is not None:
        return _on_dask(study, _chunks(todo, left, jobs), dask, jobs, dask_processes)
    if jobs <= 1:
        return ([study.play(i)] for i in todo)
    return _in_processes(study, _chunks(todo, left, jobs), jobs)


def _chunks(todo: Iterator[int], left: int, jobs: int) -> Iterator[list[int]]:
    """``todo`` (``left`` indices) cut in runs, lazily: about 16 per worker, at most 16 games
    each (so that Ctrl-C, which lets the chunks under way finish, stops within a few games'
    time)."""
    size = max(1, min(16, left // (max(jobs, 1) * 16)))
    while chunk := list(itertools.islice(todo, size)):
        yield chunk


def _play_chunk(study: Player[L], indices: Sequence[int]) -> list[L]:
    """Play the games ``indices`` of ``study`` (in a worker)."""
    return [study.play(i) for i in indices]


def _part(study: Kind[L], chunk: Sequence[int]) -> Player[L]:
    """What a worker is sent to play ``chunk``: the study, or the chunk's part of it."""
    if isinstance(study, Parts):
        part: Player[L] = study.part(chunk)
        return part
    return study


def _worker_setup() -> None:
    """In a worker process: leave Ctrl-C and SIGTERM to the parent, which stops the study
    cleanly, and end when the parent ends, however it ends (``kill -9`` included)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _end_with_parent()


def _end_with_parent() -> None:
    """End this process when its parent dies.

    On Linux the kernel is asked to send ``SIGKILL`` on the parent's death
    (``PR_SET_PDEATHSIG``); everywhere, a daemon thread also watches the parent's pid
    (every 0.2 s) and ends the process once it has been re-parented.
    """
    parent = os.getppid()
    end_with_parent(parent)

    def watch() -> None:
        while True:
            time.sleep(0.2)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _in_processes(
    study: Kind[L], chunks: Iterator[list[int]], jobs: int
) -> Generator[list[L], None, None]:
    """Chunks played by a pool of ``jobs`` processes, started in order, at most
    :data:`_AHEAD` per worker submitted at once (so an endless study runs in bounded memory)."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_setup)
    try:
        pending: set[Future[list[L]]] = set()
        for chunk in itertools.islice(chunks, jobs * _AHEAD):
            pending.add(pool.submit(_play_chunk, _part(study, chunk), chunk))
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=id):
                for chunk in itertools.islice(chunks, 1):
                    pending.add(pool.submit(_play_chunk, _part(study, chunk), chunk))
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_AHEAD = 4
"""Chunks submitted ahead per worker: enough to keep every worker busy."""

_DASK_AHEAD = 64
"""Chunks submitted ahead to a Dask cluster at least, however few workers it has when the
study starts (more may join)."""


def _on_dask(
    study: Kind[L], chunks: Iterator[list[int]], address: str, jobs: int, processes: bool
) -> Generator[list[L], None, None]:
    """Chunks played on a Dask cluster: a local one, or the scheduler at ``address``; at most
    :data:`_AHEAD` per worker thread at the start (and at least :data:`_DASK_AHEAD` in all)
    submitted at once, so that a study of any length runs in bounded memory."""
    try:
        import distributed  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise MissingExtraError("dask", package="Dask", needed_by="--dask") from None
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
            client = _client(distributed, address)
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()  # type: ignore[no-untyped-call,unused-ignore]
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {address}: {error}", address=address
        ) from None
    except ValueError as error:  # an address Dask cannot read further
        raise SchedulerError(
            f"{address!r} is not a Dask scheduler's address ({error})", address=address
        ) from None
    try:

        def submit(chunk: list[int]) -> Any:
            return client.submit(_play_chunk, _part(study, chunk), chunk, pure=False)

        nthreads = client.nthreads()  # type: ignore[no-untyped-call,unused-ignore]
        threads = sum(nthreads.values())  # every worker's, however many
        ahead = max(jobs * _AHEAD, threads * _AHEAD, _DASK_AHEAD)
        done = distributed.as_completed(  # type: ignore[no-untyped-call,unused-ignore]
            [submit(chunk) for chunk in itertools.islice(chunks, ahead)]
        )
        for future in done:
            for chunk in itertools.islice(chunks, 1):
                done.add(submit(chunk))  # type: ignore[no-untyped-call,unused-ignore]
            yield future.result()
    finally:
        client.close()  # type: ignore[no-untyped-call,unused-ignore]
        if cluster is not None:
            cluster.close()  # type: ignore[no-untyped-call,unused-ignore]


def _client(distributed: Any, address: str) -> Any:
    """A client of the Dask scheduler at ``address``, connected within :data:`CONNECT_SECONDS`.

    Dask bounds the connection with its ``timeout``, but not the greeting that follows: a
    server that accepts the connection and never answers would hold ``Client`` forever. So the
    client is made in a daemon thread, waited for a little longer than its own timeout, and
    left behind if it has not answered by then.

    Raises
    ------
    TimeoutError
        No answer in time.
    OSError, ValueError
        From Dask: no connection, an address it cannot read.
    """
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = distributed.Client(
                address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False
            )
        except Exception as error:  # handed to the caller
            made["error"] = error

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    waited = CONNECT_SECONDS + 5
    thread.join(waited)
    if "error" in made:
        raise made["error"]
    if "client" not in made:
        raise TimeoutError(f"no answer within {waited} s")
    return made["client"]
