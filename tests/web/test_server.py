"""The server over loopback, as an attacker meets it: the wait for a worker holds under a flood,
the computing of clients that went away stops, slow heads and bodies are timed out, a client
gone mid-body is one line in the log, and every answer, uvicorn's own included, carries the
security headers.

Each test serves the app on a free port of 127.0.0.1 in a thread (the real uvicorn and h11).
Verdicts rest on the server's own accounting (the worker pool's counts) or on what the server
answered; the few time bounds are generous, and say so.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from mineshafted.web.app import HEADERS, create_app
from mineshafted.web.limits import LOOPBACK, Limits
from mineshafted.web.server import in_background
from mineshafted.web.workers import Workers

pytestmark = pytest.mark.slow  # each test starts a server and its worker processes

SIDE = 24
HEAVY = json.dumps(
    {
        "board": [
            [1 if r % 2 == 0 and c % 2 == 0 else None for c in range(SIDE)] for r in range(SIDE)
        ],
        "mines": 144,
    }
).encode()
"""A position whose one frontier of 432 unknowns no budget here counts."""

SMALL = b'{"board": [[1, null, null], [null, null, null], [null, null, 0]], "mines": 1}'


def _request(path: str, body: bytes, *, length: int | None = None) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
    )
    return head.encode() + body


def _answer(data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP answer's bytes."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _refusal(data: bytes, status: int) -> str:
    """The one-line refusal in ``data``, after checking its status and security headers."""
    found, headers, body = _answer(data)
    assert found == status, data[:300]
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (name, data[:300])
    message = json.loads(body)["error"]
    assert isinstance(message, str) and "\n" not in message
    return message


def _read_to_close(sock: socket.socket, *, within: float = 60.0) -> bytes:
    """Everything the server sends until it closes the connection (at most ``within``
    seconds: a generous bound)."""
    sock.settimeout(within)
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


@contextmanager
def _serving(limits: Limits) -> Iterator[tuple[Workers, int]]:
    """A server under ``limits`` (answering to the loopback hosts): its workers and its port."""
    app = create_app(limits, hosts=list(LOOPBACK))
    with in_background(limits, app=app) as url:
        found = urlsplit(url).port
        assert found is not None
        yield app.state.workers, found


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """A server with deadlines of 1 s on heads and bodies."""
    with _serving(Limits(seconds=5.0, workers=1, head_seconds=1.0, body_seconds=1.0)) as (_, found):
        yield found


def _trickled(sock: socket.socket, pieces: Iterable[bytes]) -> bytes:
    """Send ``pieces`` one at a time, 0.2 s apart, until the server answers or closes; then
    what it sends to the close."""
    sock.settimeout(0.2)
    answer = b""
    for piece in pieces:
        try:
            sock.sendall(piece)
            answer = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionError:
            break
        break
    return answer + _read_to_close(sock)


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=60)


# -- timeouts ---------------------------------------------------------------------------------


def test_a_head_sent_a_byte_at_a_time_is_timed_out_with_a_408(port: int) -> None:
    head = b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with _connect(port) as sock:
        # at most 200 rounds of 0.2 s: past the 1 s deadline many times over
        answer = _trickled(sock, (bytes([byte]) for byte in head))
    assert "head did not arrive within 1 s" in _refusal(answer, 408)


def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    with _connect(port) as sock:
        assert _read_to_close(sock) == b""


def test_a_body_sent_a_byte_at_a_time_is_timed_out_with_a_408(port: int) -> None:
    with _connect(port) as sock:
        sock.sendall(_request("/api/analyze", b"{", length=200))
        answer = _trickled(sock, [b" "] * 199)  # at most 199 rounds of 0.2 s
    assert _refusal(answer, 408) == "the body did not arrive within 1 s"


@pytest.mark.parametrize(
    ("content_type", "status"), [("text/plain", 415), ("application/json", 413)]
)
def test_a_request_refused_before_its_body_closes_the_connection(
    port: int, content_type: str, status: int
) -> None:
    # A client refused early that goes on trickling its body is not served by it for ever.
    length = 100 if status == 415 else 2**30
    with _connect(port) as sock:
        sock.sendall(
            f"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}"
            f"\r\nContent-Length: {length}\r\n\r\n{{".encode()
        )
        sock.settimeout(0.2)
        answer = b""
        for _ in range(99):  # a byte each 0.2 s while the connection lasts: closed at once
            try:
                sock.sendall(b" ")
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except ConnectionError:
                break
            if not chunk:
                break
            answer += chunk
        else:
            raise AssertionError("the connection stayed open")
    found, headers, _ = _answer(answer)
    assert found == status and headers.get("connection") == "close"


def test_a_kept_alive_connection_is_served_and_then_closed_when_idle(port: int) -> None:
    with _connect(port) as sock:
        sock.sendall(b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, headers, body = _answer(_read_to_close(sock))  # closed: uvicorn's keep-alive
    assert status == 200 and len(body) == int(headers["content-length"])
    assert "connection" not in headers  # kept alive until then


# -- uvicorn's own answers --------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
        b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    ],
    ids=["header line", "content-length", "two hosts", "two lengths", "tls"],
)
def test_a_malformed_request_is_a_400_with_the_security_headers(port: int, data: bytes) -> None:
    with _connect(port) as sock:
        sock.sendall(data)
        answer = _read_to_close(sock)
    assert "not valid HTTP/1.1" in _refusal(answer, 400)


def test_every_kind_of_answer_carries_the_security_headers(port: int) -> None:
    asked = {
        200: b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        404: b"GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        405: b"DELETE /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        413: _request("/api/analyze", b"", length=2**30),
        415: b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 2\r\nConnection: close\r\n\r\n{}",
        422: _request("/api/analyze", b'{"board": [[9]], "mines": 0}'),
    }
    for status, data in asked.items():
        with _connect(port) as sock:
            sock.sendall(data)
            sock.settimeout(60)
            answer = sock.recv(65536)
        found, headers, _ = _answer(answer)
        assert found == status, answer[:200]
        assert all(headers.get(name) == value for name, value in HEADERS.items()), status


# -- a client gone mid-body -------------------------------------------------------------------


def test_a_client_gone_mid_body_is_one_info_line(
    port: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with _connect(port) as sock:
        sock.sendall(_request("/api/analyze", b'{"board": [[1,', length=1000))
    began = time.monotonic()
    while not any("went away" in r.getMessage() for r in caplog.records):
        assert time.monotonic() - began < 60, "the disconnect was never logged"
        time.sleep(0.02)
    gone = [r for r in caplog.records if "went away" in r.getMessage()]
    assert len(gone) == 1 and gone[0].levelno == logging.INFO and gone[0].exc_info is None
    assert "\n" not in gone[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# -- the workers under load -------------------------------------------------------------------


async def _ask(port: int, data: bytes) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        answer = await asyncio.wait_for(reader.read(), 300)  # a generous bound on no hang
    finally:
        writer.close()
    status, _, body = _answer(answer)
    return status, body.decode()


def test_a_flood_of_heavy_analyses_waits_no_longer_than_the_budget_of_its_arrival() -> None:
    # 150 heavy analyses at once on one worker with a 2 s budget, and another client's 3x3.
    # The pool counts each wait from the request's arrival to its worker or its refusal:
    # every one is within the budget, give or take a generous 2 s for a loaded machine (a
    # pool taken up by 40 threads waited 3 budgets here, and a client saw 20 s for 5).
    limits = Limits(seconds=2.0, workers=1, requests=1000)
    with _serving(limits) as (workers, port):

        async def flood() -> tuple[list[tuple[int, str]], tuple[int, str]]:
            heavy = [
                asyncio.ensure_future(_ask(port, _request("/api/analyze", HEAVY) + b""))
                for _ in range(150)
            ]
            small = await _ask(port, _request("/api/analyze", SMALL))
            return await asyncio.gather(*heavy), small

        answers, small = asyncio.run(flood())
        counts = workers.counts
    assert all(status == 503 for status, _ in answers)
    assert small[0] in (200, 503)
    assert counts.busy >= 140 and counts.longest_wait <= limits.seconds + 2.0, counts


def test_the_computing_of_clients_that_went_away_stops() -> None:
    # A 60 s budget: a job nobody stops runs for a minute. Twenty clients send a heavy
    # analysis each and leave once both workers compute for them; the pool stops every job.
    with _serving(Limits(seconds=60.0, workers=2, requests=1000)) as (workers, port):
        counts = workers.counts
        clients = [_connect(port) for _ in range(20)]
        for sock in clients:
            sock.sendall(_request("/api/analyze", HEAVY))
        began = time.monotonic()
        while counts.running < 2:
            assert time.monotonic() - began < 60, "the workers never started"
            time.sleep(0.02)
        for sock in clients:
            sock.close()
        while counts.running or workers.waiting:
            assert time.monotonic() - began < 40, f"jobs still run for nobody: {counts}"
            time.sleep(0.02)
    assert counts.cancelled >= 2 and counts.late == 0 and counts.served == 0
