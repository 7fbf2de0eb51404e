"""Every command against a catalogue of hostile inputs (issue 19 §4, issue 33): exit status 2,
one line on stderr, no traceback, within a time bound (and, where a run could grow, a memory
bound).

Each row is a command with one input slot (``{}``) and a kind of bad input put there. The
commands run in this process through typer's runner, except where a real file descriptor and
a memory limit matter (``/dev/zero``, ``/dev/full``, a range of densities that once made an
endless list): those run in a child under a 1 GiB address-space limit.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted.cli import app

runner = CliRunner()

SAMPLE = Path(__file__).resolve().parents[1] / "puzzles" / "no-guess" / "4x3-sample" / "01.json"
"""A shipped puzzle, solved from its start."""

SECONDS = 20.0
"""The most any row may take."""

COMMANDS: dict[str, list[str]] = {
    "solve": ["solve", "{}"],
    "probabilities": ["probabilities", "{}"],
    "replay": ["replay", "{}", "--out", "{tmp}/page.html"],
    "rules eval": ["rules", "eval", "{}", "0"],
    "rules check": ["rules", "check", "{}"],
    "rules eval BOARD": ["rules", "eval", "rules/examples/corner.s4", "0", "{}"],
    "play --out": ["play", "4", "4", "2", "-n", "2", "--out", "{}"],
    "experiment density --out": [
        "experiment",
        "density",
        "--size",
        "5",
        "--runs",
        "1",
        "--densities",
        "0.1:0.2:0.1",
        "--out",
        "{}",
    ],
    "experiment presets --out": ["experiment", "presets", "--games", "1", "--out", "{}"],
}
"""Each command, with ``{}`` where the bad input goes."""

DEEP = "[" * 100_000 + "]" * 100_000

INPUTS: dict[str, Callable[[Path], str]] = {}
"""Each kind of bad input: a maker that leaves it under a folder and returns its path."""


def _kind(name: str) -> Callable[[Callable[[Path], str]], Callable[[Path], str]]:
    def register(maker: Callable[[Path], str]) -> Callable[[Path], str]:
        INPUTS[name] = maker
        return maker

    return register


def _file(folder: Path, name: str, content: bytes) -> str:
    path = folder / name
    path.write_bytes(content)
    return str(path)


@_kind("empty")
def _empty(folder: Path) -> str:
    return _file(folder, "empty.json", b"")


@_kind("binary")
def _binary(folder: Path) -> str:
    return _file(folder, "binary.json", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)


@_kind("truncated")
def _truncated(folder: Path) -> str:
    return _file(folder, "cut.json", b'{"board": [[0, 1, -1], [0, 1')


@_kind("wrong shape")
def _wrong_shape(folder: Path) -> str:
    return _file(folder, "shape.json", b'{"board": {"rows": 3}, "mines": [1]}\n')


@_kind("huge")
def _huge(folder: Path) -> str:
    path = folder / "huge.json"
    with open(path, "wb") as sparse:  # 65 MiB of nothing, made at once
        sparse.truncate(65 * 1024 * 1024)
    return str(path)


@_kind("deep")
def _deep(folder: Path) -> str:
    return _file(folder, "deep.json", DEEP.encode() + b"\n")


@_kind("5000 digits")
def _digits(folder: Path) -> str:
    return _file(folder, "digits.json", b'{"board": [[0, ' + b"9" * 5000 + b']], "mines": 1}\n')


@_kind("directory")
def _directory(folder: Path) -> str:
    (folder / "a folder").mkdir()
    (folder / "a folder" / "x.json").write_text("[")
    return str(folder / "a folder")


@_kind("missing")
def _missing(folder: Path) -> str:
    return str(folder / "no" / "such" / "file.json")


@_kind("odd name")
def _odd_name(folder: Path) -> str:
    return _file(folder, "line\nbreak \x1b[2J é.json", b"{")


@_kind("fifo")
def _fifo(folder: Path) -> str:
    path = folder / "fifo.json"
    os.mkfifo(path)  # no writer: a command that opened it would wait for ever
    return str(path)


NOT_BAD: dict[str, set[str]] = {
    # A results file that does not exist yet, or is empty, is simply started.
    "play --out": {"empty", "missing"},
    # --out is a folder: one that does not exist is made; a folder is what it wants.
    "experiment density --out": {"missing", "directory"},
    "experiment presets --out": {"missing", "directory"},
    # An empty rule file holds no rules, which is S4.
    "rules eval": {"empty"},
    "rules check": {"empty"},
}
"""The rows that are not bad input for that command: left out of the table."""

ROWS = [
    pytest.param(command, kind, id=f"{command}: {kind}")
    for command in COMMANDS
    for kind in INPUTS
    if kind not in NOT_BAD.get(command, set())
]


def _args(command: str, path: str, tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)).replace("{}", path) for a in COMMANDS[command]]


@pytest.mark.parametrize(("command", "kind"), ROWS)
@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, command: str, kind: str) -> None:
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    folder = tmp_path / "in"
    folder.mkdir()
    path = INPUTS[kind](folder)
    before = _snapshot(folder)
    started = time.perf_counter()
    result = _invoke_freeing(_args(command, path, tmp_path), path if kind == "fifo" else None)
    took = time.perf_counter() - started
    assert result.exit_code == 2, (result.exit_code, result.output[-500:], result.exception)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    assert took < SECONDS, f"took {took:.1f} s"
    assert _snapshot(folder) == before, "the bad input was changed"


def _invoke_freeing(args: list[str], fifo: str | None) -> Any:
    """``runner.invoke(app, args)``; a command still waiting on ``fifo`` after
    :data:`SECONDS` is given a writer that leaves at once, so the row ends (and fails on its
    time) instead of hanging the run."""
    if fifo is None:
        return runner.invoke(app, args)
    results: list[Any] = []
    run = threading.Thread(target=lambda: results.append(runner.invoke(app, args)), daemon=True)
    run.start()
    run.join(SECONDS)
    if run.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        run.join(SECONDS)
    return results[0]


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` with its bytes (``None`` for what is not a plain file)."""
    return {
        str(p): (p.read_bytes() if p.is_file() and p.stat().st_size < 1 << 20 else None)
        for p in sorted(folder.rglob("*"))
    }


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.slow
def test_an_endless_device_is_one_line_in_bounded_time_and_memory(
    tmp_path: Path, command: str
) -> None:
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-m", "mineshafted", *_args(command, "/dev/zero", tmp_path)],
        capture_output=True,
        timeout=60,
        preexec_fn=_limit_memory,
        check=False,
    )
    took = time.perf_counter() - started
    stderr = child.stderr.decode(errors="replace")
    assert child.returncode == 2, stderr[-500:]
    assert stderr.startswith("error: /dev/zero") and stderr.count("\n") == 1, stderr[-500:]
    assert took < SECONDS


# -- inputs that ran away or ended in a traceback (issue 33) ----------------------------------


def _limited(
    args: list[str], *, stdout: Any = subprocess.PIPE, seconds: float = SECONDS
) -> tuple[subprocess.CompletedProcess[bytes], float, str]:
    """Run the command line in a child under a 1 GiB address-space limit, killed after
    ``seconds``; the finished child, the seconds it took and its stderr."""
    started = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-m", "mineshafted", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=seconds,
        preexec_fn=_limit_memory,
        check=False,
    )
    return child, time.perf_counter() - started, child.stderr.decode(errors="replace")


def _one_line(stderr: str) -> str:
    """The one line of ``stderr``, checked to be one ``error:`` line and no traceback."""
    assert stderr.startswith("error: ") and stderr.count("\n") == 1, stderr[-500:]
    return stderr


@pytest.mark.parametrize(
    "densities", ["1e-300:1:1e-300", "-1e300:1e300:1", ",".join(["0.5"] * 1001)]
)
@pytest.mark.slow
def test_too_many_densities_are_refused_before_any_is_made(tmp_path: Path, densities: str) -> None:
    args = ["experiment", "density", "--densities", densities, "--runs", "1", "--size", "5"]
    child, took, stderr = _limited([*args, "--out", str(tmp_path / "D")])
    assert child.returncode == 2
    assert "--densities" in _one_line(stderr) and "at most 1,000" in stderr
    assert took < SECONDS and not (tmp_path / "D").exists()


BAD_ADDRESSES = ["bogus://x", "", "   ", "tcp://", "tcp://:8786", "tcp://host:port", "ucx://h:1"]
"""Addresses no Dask scheduler has: an unknown scheme, empty, no host, a port that is no
number, a scheme the runner does not take."""


@pytest.mark.parametrize("address", BAD_ADDRESSES)
@pytest.mark.parametrize(
    "command",
    [
        ["play", "9", "9", "10", "--games", "5"],
        ["experiment", "presets", "--games", "1", "--out", "{tmp}"],
        ["experiment", "density", "--runs", "1", "--size", "5", "--out", "{tmp}"],
    ],
    ids=["play", "presets", "density"],
)
def test_a_bad_dask_address_is_one_line_naming_the_schemes(
    tmp_path: Path, command: list[str], address: str
) -> None:
    args = [a.replace("{tmp}", str(tmp_path / "out")) for a in command]
    started = time.perf_counter()
    result = runner.invoke(app, [*args, "--dask", address])
    assert result.exit_code == 2, result.output
    line = _one_line(result.stderr)
    assert line.startswith(
        f"error: Invalid value for '--dask': {address!r} is not a Dask scheduler's address"
    )
    assert "'local'" in line and "tcp, tls, ws, wss" in line
    assert time.perf_counter() - started < 9  # refused before a connection (CONNECT_SECONDS: 10)
    assert not (tmp_path / "out").exists(), "nothing is written for a bad address"


@pytest.mark.slow
def test_a_scheduler_that_never_answers_is_one_line_within_the_timeout() -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # connects, never speaks
        port = silent.getsockname()[1]
        args = ["play", "9", "9", "10", "--games", "5", "--dask", f"tcp://127.0.0.1:{port}"]
        child, took, stderr = _limited(args, seconds=60)
    assert child.returncode == 2
    assert _one_line(stderr).startswith("error: --dask: cannot reach the Dask scheduler at")
    assert took < 30, f"took {took:.1f} s"


FULL_OUTPUT: dict[str, list[str]] = {
    "--help": ["--help"],
    "--version": ["--version"],
    "solve --help": ["solve", "--help"],
    "solve": ["solve", "{sample}"],
    "generate": ["generate", "5", "5", "3", "--seed", "1"],
    "rate": ["rate", "{sample}"],
    "board": ["board", "5", "5", "10", "--seed", "1"],
    "probabilities": ["probabilities", "{position}"],
    "play": ["play", "9", "9", "10"],
    "play -n": ["play", "9", "9", "10", "-n", "3"],
    "replay": ["replay", "{sample}", "--out", "{tmp}/page.html"],
    "rules eval": ["rules", "eval", "rules/examples/corner.s4", "1", "{sample}"],
    "rules check": ["rules", "check", "rules/examples/corner.s4"],
    "experiment presets": ["experiment", "presets", "--games", "1", "--out", "{tmp}/out"],
}
"""Every command that prints on standard output, with arguments that make it print."""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", list(FULL_OUTPUT))
@pytest.mark.slow
def test_a_full_output_is_one_line_and_no_traceback(tmp_path: Path, command: str) -> None:
    position = tmp_path / "position.json"
    position.write_text('{"board": [[1, null], [null, null]], "mines": 1}')
    args = [
        a.replace("{sample}", str(SAMPLE)).replace("{position}", str(position))
        for a in FULL_OUTPUT[command]
    ]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with open("/dev/full", "w") as full:
        child, took, stderr = _limited(args, stdout=full)
    assert child.returncode == 2, stderr[-500:]
    assert _one_line(stderr) == "error: cannot write the output: no space left on device\n"
    assert took < SECONDS


# -- output paths (issue 40 item 1) -------------------------------------------------------------

OUTPUTS: dict[str, list[str]] = {
    "solve --record": ["solve", "{sample}", "--record", "{}"],
    "play --record": ["play", "4", "4", "2", "--record", "{}"],
    "play --out": ["play", "4", "4", "2", "-n", "2", "--out", "{}"],
    "replay --out": ["replay", "{sample}", "--out", "{}"],
    "rules eval --record": [
        "rules",
        "eval",
        "rules/examples/corner.s4",
        "0",
        "{sample}",
        "--record",
        "{}",
    ],
    "generate --out": ["generate", "3", "3", "1", "--seed", "1", "--out", "{dir}"],
    "experiment density --out": [
        "experiment",
        "density",
        "--size",
        "5",
        "--runs",
        "1",
        "--densities",
        "0.1:0.2:0.1",
        "--out",
        "{dir}",
    ],
    "experiment presets --record": [
        "experiment",
        "presets",
        "--games",
        "1",
        "--agents",
        "kb",
        "--record",
        "--out",
        "{dir}",
    ],
}
"""Every option that names a file a command writes: ``{}`` the file, or ``{dir}`` the folder
whose file (:data:`IN_FOLDER`) is the target."""

IN_FOLDER = {
    "generate --out": "3x3-1-001.json",
    "experiment density --out": "density.csv",
    "experiment presets --record": "easy-8x8-kb.jsonl",
}
"""The file an output folder's command writes first, for the rows that name a folder."""

APPENDED = {"play --out"}
"""Results files: appended to and resumed, so an existing regular file is not a refusal."""


def _target(kind: str, path: Path) -> str:
    """Leave a bad target of ``kind`` at ``path``; the line that refuses it (after ``PATH: ``)."""
    if kind == "fifo":
        os.mkfifo(path)
        return "not a regular file (a FIFO)"
    if kind == "folder":
        path.mkdir()
        return "not a regular file (a directory)"
    if kind == "link to a file":
        (path.parent / "elsewhere").write_text("kept")
        path.symlink_to(path.parent / "elsewhere")
        return (
            f"a symbolic link (to {path.parent / 'elsewhere'}), not followed: name the file itself"
        )
    if kind == "dangling link":
        path.symlink_to(path.parent / "nowhere")
        return f"a symbolic link (to {path.parent / 'nowhere'}), not followed: name the file itself"
    path.write_text("kept")
    return "exists (use --force to replace it)"


TARGETS = ["existing file", "fifo", "folder", "link to a file", "dangling link"]


@pytest.mark.parametrize(
    ("output", "kind"),
    [
        pytest.param(output, kind, id=f"{output}: {kind}")
        for output in OUTPUTS
        for kind in TARGETS
        if not (kind == "existing file" and output in APPENDED)  # resumed, not replaced
    ],
)
@pytest.mark.slow  # 40 commands
def test_an_output_is_never_written_over_what_it_may_not_replace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str, kind: str
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # rules/examples/...
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / IN_FOLDER.get(output, "target")
    why = _target(kind, target)
    before = _snapshot(tmp_path)
    args = [
        a.replace("{sample}", str(SAMPLE)).replace("{dir}", str(folder)).replace("{}", str(target))
        for a in OUTPUTS[output]
    ]
    forced = ["--force"] if kind != "existing file" else []  # --force changes none of these
    result = runner.invoke(app, [*args, *forced])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {target}: {why}\n"
    assert _snapshot(tmp_path) == before, "the target or what it points to was changed"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("output", [o for o in OUTPUTS if o not in IN_FOLDER])
@pytest.mark.slow  # five commands
def test_an_output_naming_a_device_leaves_the_device(
    monkeypatch: pytest.MonkeyPatch, output: str
) -> None:
    import stat

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    args = [a.replace("{sample}", str(SAMPLE)).replace("{}", "/dev/full") for a in OUTPUTS[output]]
    result = runner.invoke(app, [*args, "--force"] if output not in APPENDED else args)
    assert result.exit_code == 2, result.output
    assert result.stderr == "error: /dev/full: not a regular file (a character device)\n"
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)
