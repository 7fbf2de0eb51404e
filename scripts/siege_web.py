"""Attack the live web environment over loopback and measure what holds (issue 28's server items).

Serves the app in this process on a free port of 127.0.0.1 (two workers, the default limits
unless ``--seconds`` says otherwise), then runs each part named by ``--only`` (all by
default) and prints one line of figures per part (``--json``: one object):

busy
    ``--heavy`` analyses at once of a position no budget counts (a 24x24 frontier of 432
    unknowns), and beside them another client's 3x3 position: the seconds to each heavy
    answer (min / median / max, and their statuses) and to the 3x3's.
gone
    ``--heavy`` such analyses whose clients close their connections as soon as each request
    is sent; then the seconds the worker processes keep computing with nobody waiting (their
    CPU time, read from ``/proc``, until it stops growing).
slow
    ``--slow`` connections sending a request head a byte a second, and as many sending a
    body a byte a second: how many of each the server still holds open after
    ``--slow-seconds``.
disconnect
    ``--drops`` clients that close halfway through a body: the log lines the server writes
    per disconnect, and how many records are errors.
malformed
    A malformed header line, a bad ``Content-Length``, two ``Host`` headers: the status of
    each answer and how many of the four security headers it carries.
flood
    A game with a move made, then 100 new games: whether the first game is still there, and
    how the new ones were answered.
secret
    A live game after its first move: whether any answer shows its seed, and what ``POST
    /api/watch`` answers for its id.
big
    A 1,000x1,000 position with two clues and 200,000 mines: status and seconds of ``POST
    /api/analyze``.
watch
    A 200x200 board with 4,000 mines watched (the best policy): status and seconds.

    python scripts/siege_web.py                     # every part
    python scripts/siege_web.py --only busy,gone --heavy 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mineshafted.web.limits import Limits
from mineshafted.web.server import in_background

PARTS = ("busy", "gone", "slow", "disconnect", "malformed", "flood", "secret", "big", "watch")

SECURITY = ("content-security-policy", "x-content-type-options", "referrer-policy", "cache-control")
"""The headers every answer should carry."""

SIDE = 24
HEAVY = json.dumps(
    {
        "board": [
            [1 if r % 2 == 0 and c % 2 == 0 else None for c in range(SIDE)] for r in range(SIDE)
        ],
        "mines": 144,
    }
).encode()
"""A position whose one frontier of 432 unknowns no compute budget counts."""

SMALL = json.dumps({"board": [[1, None, None], [None, None, None], [None, None, 0]], "mines": 1})
"""Another client's 3x3 position."""


def request(method: str, path: str, body: bytes = b"", *, close: bool = False) -> bytes:
    """An HTTP/1.1 request's bytes, as JSON when it has a body."""
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    if body or method == "POST":
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    if close:
        head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def exchange(
    port: int, data: bytes, *, timeout: float = 300.0
) -> tuple[int, dict[str, str], bytes, float]:
    """Send ``data`` on a new connection and read one answer: status, headers, body, seconds."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        body = await asyncio.wait_for(reader.readexactly(length), timeout) if length else b""
        return status, headers, body, time.perf_counter() - began
    finally:
        writer.close()


async def json_call(port: int, method: str, path: str, data: object = None) -> tuple[int, Any]:
    """One API call: status and decoded answer (``None`` for an empty one)."""
    body = b"" if data is None else json.dumps(data).encode()
    status, _, answer, _ = await exchange(port, request(method, path, body, close=True))
    return status, json.loads(answer) if answer else None


def spread(values: list[float]) -> str:
    """``min / median / max`` of seconds."""
    if not values:
        return "none"
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f} s"


# -- the parts ----------------------------------------------------------------------------


async def busy(port: int, heavy: int) -> dict[str, Any]:
    tasks = [
        asyncio.ensure_future(exchange(port, request("POST", "/api/analyze", HEAVY, close=True)))
        for _ in range(heavy)
    ]
    await asyncio.sleep(0.5)  # the heavy requests are in: now another client comes
    small = await exchange(port, request("POST", "/api/analyze", SMALL.encode(), close=True))
    answers = await asyncio.gather(*tasks)
    statuses: dict[int, int] = {}
    for status, *_ in answers:
        statuses[status] = statuses.get(status, 0) + 1
    return {
        "heavy_seconds": spread([a[3] for a in answers]),
        "heavy_statuses": statuses,
        "small_status": small[0],
        "small_seconds": round(small[3], 2),
    }


def worker_cpu() -> float:
    """The CPU seconds of this process's worker processes (children named as the pool names
    them), from ``/proc``."""
    total = 0
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me:  # the parent's pid
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


async def gone(port: int, heavy: int) -> dict[str, Any]:
    writers = []
    for _ in range(heavy):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request("POST", "/api/analyze", HEAVY))
        await writer.drain()
        writers.append(writer)
    await asyncio.sleep(0.5)
    for writer in writers:
        writer.close()
    left = time.perf_counter()
    last = worker_cpu()
    busy_until = left
    while time.perf_counter() - left < 120:
        await asyncio.sleep(1.0)
        now = worker_cpu()
        if now - last > 0.2:  # a worker computed most of that second
            busy_until = time.perf_counter()
        elif time.perf_counter() - busy_until > 3:
            break
        last = now
    return {"clients": heavy, "workers_busy_after_clients_left": round(busy_until - left, 1)}


async def slow(port: int, count: int, seconds: float) -> dict[str, Any]:
    heads, bodies = [], []
    for _ in range(count):
        heads.append(await asyncio.open_connection("127.0.0.1", port))
        bodies.append(await asyncio.open_connection("127.0.0.1", port))
    head = request("POST", "/api/analyze", SMALL.encode())
    cut = head.index(b"\r\n\r\n") + 4
    for _, writer in bodies:
        writer.write(head[:cut])  # the head whole, then the body a byte a second
    began = time.perf_counter()
    step = 0
    while time.perf_counter() - began < seconds:
        for _, writer in heads:
            if not writer.is_closing() and step < cut - 4:
                writer.write(head[step : step + 1])
        for _, writer in bodies:
            if not writer.is_closing() and cut + step < len(head) - 1:
                writer.write(head[cut + step : cut + step + 1])
        step += 1
        await asyncio.sleep(1.0)

    async def is_open(reader: asyncio.StreamReader) -> bool:
        try:
            while True:
                data = await asyncio.wait_for(reader.read(65536), 0.2)
                if not data:
                    return False
        except TimeoutError:
            return True
        except ConnectionError:
            return False

    open_heads = sum([await is_open(r) for r, _ in heads])
    open_bodies = sum([await is_open(r) for r, _ in bodies])
    for _, writer in heads + bodies:
        writer.close()
    return {
        "after_seconds": seconds,
        "slow_heads_open": f"{open_heads}/{count}",
        "slow_bodies_open": f"{open_bodies}/{count}",
    }


class Lines(logging.Handler):
    """Every record the server logs, with its formatted line count."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.lines = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.lines += len(logging.Formatter().format(record).splitlines())


async def disconnect(port: int, drops: int) -> dict[str, Any]:
    handler = Lines()
    root = logging.getLogger()
    root.addHandler(handler)
    level = root.level
    root.setLevel(logging.INFO)
    try:
        body = b'{"board": [[1, null]], "mines": 1}' * 10
        for _ in range(drops):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            data = request("POST", "/api/analyze", body)
            writer.write(data[: len(data) - len(body) // 2])
            await writer.drain()
            await asyncio.sleep(0.05)
            writer.close()
        await asyncio.sleep(1.0)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    errors = sum(r.levelno >= logging.ERROR for r in handler.records)
    return {
        "drops": drops,
        "lines_per_drop": round(handler.lines / drops, 1),
        "error_records": errors,
    }


MALFORMED = {
    "header line": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
    "content-length": b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Length: 1x\r\n\r\n",
    "two hosts": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
}


async def malformed(port: int) -> dict[str, Any]:
    found = {}
    for name, data in MALFORMED.items():
        status, headers, _, _ = await exchange(port, data)
        found[name] = f"{status}, {sum(h in headers for h in SECURITY)}/{len(SECURITY)} headers"
    return found


async def flood(port: int) -> dict[str, Any]:
    _, game = await json_call(port, "POST", "/api/games", {"rows": 9, "cols": 9, "mines": 10})
    await json_call(port, "POST", f"/api/games/{game['id']}/reveal", {"cell": [4, 4]})
    statuses: dict[int, int] = {}
    made = [game["id"]]
    for _ in range(100):
        status, new = await json_call(
            port, "POST", "/api/games", {"rows": 9, "cols": 9, "mines": 10}
        )
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200:
            made.append(new["id"])
    status, _ = await json_call(port, "GET", f"/api/games/{game['id']}")
    for key in made:  # room for the parts after this one
        await json_call(port, "DELETE", f"/api/games/{key}")
    return {"first_game_after_100_new": status, "new_games": statuses}


async def secret(port: int) -> dict[str, Any]:
    _, game = await json_call(port, "POST", "/api/games", {"rows": 9, "cols": 9, "mines": 10})
    _, move = await json_call(port, "POST", f"/api/games/{game['id']}/reveal", {"cell": [0, 0]})
    _, view = await json_call(port, "GET", f"/api/games/{game['id']}")
    seed = view["settings"]["seed"]
    replayed = "no seed to replay"
    if seed is not None:
        _, made = await json_call(
            port,
            "POST",
            "/api/watch",
            {"player": "policy:best", "rows": 9, "cols": 9, "mines": 10, "seed": seed},
        )
        _, steps = await json_call(port, "POST", f"/api/watch/{made['id']}/step", {"count": 1000})
        mines = steps["steps"][-1].get("mines") or []
        replayed = f"{len(mines)} mines of the live board listed"
    status, answer = await json_call(
        port, "POST", "/api/watch", {"player": "policy:best", "game": game["id"]}
    )
    return {
        "seed_shown_while_playing": seed is not None,
        "replay_by_seed": replayed,
        "watch_by_id": f"{status} {answer.get('error', '')[:50]}",
        "first_move_status": move["status"],
    }


async def big(port: int) -> dict[str, Any]:
    grid: list[list[int | None]] = [[None] * 1000 for _ in range(1000)]
    grid[0][0] = 1
    grid[500][500] = 2
    body = json.dumps({"board": grid, "mines": 200_000}).encode()
    status, _, answer, seconds = await exchange(
        port, request("POST", "/api/analyze", body, close=True)
    )
    shown = (
        json.loads(answer).get("error", "")[:80]
        if status != 200
        else f"best {json.loads(answer)['best']}"
    )
    return {"status": status, "seconds": round(seconds, 1), "answer": shown}


async def watch(port: int) -> dict[str, Any]:
    body = {"player": "policy:best", "rows": 200, "cols": 200, "mines": 4000, "seed": 1}
    began = time.perf_counter()
    status, answer = await json_call(port, "POST", "/api/watch", body)
    shown = answer.get("error", "")[:80] if status != 200 else f"{answer['total']} steps"
    return {"status": status, "seconds": round(time.perf_counter() - began, 1), "answer": shown}


async def siege(port: int, parts: list[str], options: argparse.Namespace) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for part in parts:
        if part in ("busy", "gone"):
            found[part] = await globals()[part](port, options.heavy)
        elif part == "slow":
            found[part] = await slow(port, options.slow, options.slow_seconds)
        elif part == "disconnect":
            found[part] = await disconnect(port, options.drops)
        else:
            found[part] = await globals()[part](port)
        if not options.json:
            print(f"{part}: {json.dumps(found[part])}", flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help="Parts, comma-separated.")
    parser.add_argument("--heavy", type=int, default=100, help="Heavy analyses (busy, gone).")
    parser.add_argument("--slow", type=int, default=100, help="Slow heads, and slow bodies.")
    parser.add_argument("--slow-seconds", type=float, default=60.0, help="How long to stall.")
    parser.add_argument("--drops", type=int, default=20, help="Clients gone mid-body.")
    parser.add_argument("--seconds", type=float, default=5.0, help="The compute budget.")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    options = parser.parse_args()
    parts = [p for p in options.only.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"no such part: {', '.join(sorted(unknown))} (parts: {', '.join(PARTS)})")
    with in_background(Limits(seconds=options.seconds)) as url:
        port = urlsplit(url).port
        assert port is not None
        found = asyncio.run(siege(port, parts, options))
    if options.json:
        print(json.dumps(found))


if __name__ == "__main__":
    main()
