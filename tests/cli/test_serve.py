"""``mineshafted serve``: serves until Ctrl-C and stops cleanly, warns off loopback, and says in
one line what is missing or in the way."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

runner = CliRunner()


@contextmanager
def _serving(*args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``mineshafted serve --port 0 --no-browser ARGS`` in a child, and the address it gives."""
    child = subprocess.Popen(
        [sys.executable, "-m", "mineshafted", "serve", "--port", "0", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("serving on http://"), line + (
            child.stderr.read() if child.stderr else ""
        )
        yield child, line.split()[2]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return answer.status, answer.read()


@pytest.mark.slow
def test_serve_answers_until_ctrl_c_and_then_stops_cleanly() -> None:
    with _serving() as (child, url):
        assert url.startswith("http://127.0.0.1:")
        status, page = _get(url)
        assert status == 200 and b"<title>" in page
        status, config = _get(url + "api/config")
        assert "policy:best" in json.loads(config)["players"]
        request = urllib.request.Request(
            url + "api/analyze",
            data=json.dumps({"board": [[1, None]], "mines": 1}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert json.loads(answer.read())["mines"] == [[0, 1]]
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.strip().endswith("stopped")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.slow
def test_serve_off_this_machine_warns_that_anyone_can_use_it() -> None:
    with _serving("--host", "0.0.0.0") as (child, _):
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    assert "warning: listening on 0.0.0.0: anyone who can reach this address" in err
    assert child.returncode == 0


def test_serve_on_a_port_in_use_says_so_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--no-browser"])
    assert result.exit_code == 2
    assert result.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_without_the_web_extra_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if it were not installed
    result = runner.invoke(app, ["serve", "--no-browser"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: serve needs FastAPI, which is not installed: pip install 'mineshafted[web]'\n"
    )
