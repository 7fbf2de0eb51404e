"""Cluster: a study's chunks played on Dask, a local cluster or a scheduler's, and the
addresses the runner takes."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Generator, Iterator
from typing import Any

from .errors import MissingExtraError, SchedulerError
from .kind import Kind, L
from .workers import AHEAD, part_of, play_chunk

__all__ = ["CONNECT_SECONDS", "DASK_AHEAD", "LOCAL", "SCHEMES", "check_address", "on_dask"]

LOCAL = "local"
"""The ``dask`` address that starts a :class:`distributed.LocalCluster` for the study."""

CONNECT_SECONDS = 10
"""How long a scheduler has to answer (Dask's connection timeout; its greeting gets 5 s
more)."""

SCHEMES = ("tcp", "tls", "ws", "wss")
"""The schemes of a scheduler's address the runner takes: those of Dask's own network
transports (``inproc`` reaches only a scheduler in the same process, ``ucx`` needs a package
of its own)."""

DASK_AHEAD = 64
"""Chunks submitted ahead to a Dask cluster at least, however few workers it has when the
study starts (more may join)."""


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


def on_dask(
    study: Kind[L], chunks: Iterator[list[int]], address: str, jobs: int, processes: bool
) -> Generator[list[L], None, None]:
    """Chunks played on a Dask cluster: a local one, or the scheduler at ``address``; at most
    :data:`~.workers.AHEAD` per worker thread at the start (and at least :data:`DASK_AHEAD` in all)
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
            return client.submit(play_chunk, part_of(study, chunk), chunk, pure=False)

        nthreads = client.nthreads()  # type: ignore[no-untyped-call,unused-ignore]
        threads = sum(nthreads.values())  # every worker's, however many
        ahead = max(jobs * AHEAD, threads * AHEAD, DASK_AHEAD)
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
