"""A session's ending when the child is killed by a signal, closes its output, writes while it
is imported, or sends an endless message; the time it measures; how messages are cut at the cap
(no sandbox)."""

from __future__ import annotations

import logging
import signal
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from mineshafted import Board
from mineshafted.grading import session as session_module
from mineshafted.grading.limits import Limits
from mineshafted.grading.protocol import Oversized
from mineshafted.grading.referee import Referee
from mineshafted.grading.session import Ending, Session, SessionEnd

from .conftest import submission

BOARD = Board.from_grid([[0, 0], [0, 0]])


def run(tmp_path: Path, code: str, **limits: float) -> SessionEnd:
    path = submission(tmp_path, code)
    options: dict[str, float] = {"timeout": 10.0, **limits}
    return Session(path, Limits(**options), Referee(BOARD)).run()  # type: ignore[arg-type]


def test_a_child_killed_by_a_signal_is_named_by_it(tmp_path: Path) -> None:
    end = run(tmp_path, "import os, signal\ndef sweep_mines(bm):\n    os.kill(os.getpid(), 15)\n")
    assert (end.ending, end.detail, end.status) == (Ending.EXITED, "killed by SIGTERM", -15)


def test_a_signal_without_a_name_is_named_by_its_number(tmp_path: Path) -> None:
    number = signal.SIGRTMIN + 1
    code = f"import os\ndef sweep_mines(bm):\n    os.kill(os.getpid(), {number})\n"
    end = run(tmp_path, code)
    assert (end.ending, end.detail) == (Ending.EXITED, f"killed by signal {number}")


@pytest.mark.slow  # it times a child against a wall-clock bound
def test_the_time_of_sweep_mines_is_measured(tmp_path: Path) -> None:
    code = "import time\ndef sweep_mines(bm):\n    time.sleep(0.3)\n    return [[0, 0], [0, 0]]\n"
    end = run(tmp_path, code)
    assert end.ending is Ending.RESULT
    assert 0.3 <= end.seconds < 10


@pytest.mark.slow
def test_the_graders_clock_runs_from_before_the_call_to_after_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The child reads the same system-wide clock: its call lies within the grader's reading,
    # however late the grader hears of the start (a busy machine).
    readings: list[float] = []

    def reading() -> float:
        readings.append(time.perf_counter())
        return readings[-1]

    clock = SimpleNamespace(monotonic=time.monotonic, perf_counter=reading)
    monkeypatch.setattr(session_module, "time", clock)
    code = "import time\ndef sweep_mines(bm):\n    print(time.perf_counter())\n"
    code += "    answer = [[0, 0], [0, 0]]\n    print(time.perf_counter())\n    return answer\n"
    end = run(tmp_path, code)
    assert end.ending is Ending.RESULT
    called, returned = (float(line) for line in end.output.split())
    assert readings[0] <= called <= returned <= readings[-1]
    assert end.seconds == readings[-1] - readings[0]


@pytest.mark.slow
def test_closing_its_output_is_not_closing_its_channel(tmp_path: Path) -> None:
    code = "import os, time\ndef sweep_mines(bm):\n    os.close(1)\n    os.close(2)\n"
    code += "    time.sleep(60)\n"
    end = run(tmp_path, code, timeout=1.0)
    assert (end.ending, end.detail) == (Ending.TIMED_OUT, "no answer within 1 s")


@pytest.mark.slow
def test_an_unfinished_result_over_the_cap_is_refused_unparsed(tmp_path: Path) -> None:
    code = "import time\ndef sweep_mines(bm):\n"
    code += "    bm._channel._out.write(b'{\"result\": \"' + b'x' * 5000)\n"
    code += "    bm._channel._out.flush()\n    time.sleep(60)\n"
    end = run(tmp_path, code, message_cap=1000)
    assert end.ending is Ending.RESULT and isinstance(end.answer, Oversized)
    assert end.answer.size > 1000 and end.answer.lists == 0


@pytest.mark.slow
def test_only_checking_ends_ready_with_nothing_played(tmp_path: Path) -> None:
    path = submission(tmp_path, "def sweep_mines(bm):\n    return []\n")
    end = Session(path, Limits(timeout=10.0), None).run()
    assert (end.ending, end.detail, end.answer) == (Ending.READY, "", None)
    assert (end.moves, end.seconds, end.status) == (0, 0.0, 0)


WRITES_AT_IMPORT = "import os, sys\nos.write(int(sys.argv[-1]), {line!r})\n"
"""A submission that writes ``line`` to the grader's channel while it is imported (the
channel's descriptor is the child's last argument)."""


def test_a_start_while_importing_is_a_protocol_break(tmp_path: Path) -> None:
    code = WRITES_AT_IMPORT.format(line=b'{"start": true}\n') + "def sweep_mines(bm):\n    pass\n"
    end = run(tmp_path, code)
    assert (end.ending, end.detail) == (
        Ending.PROTOCOL,
        "broke the protocol: sent a 'start' message while importing",
    )


def test_an_answer_while_importing_is_a_protocol_break(tmp_path: Path) -> None:
    code = WRITES_AT_IMPORT.format(line=b'{"result": 1}\n') + "def sweep_mines(bm):\n    pass\n"
    end = run(tmp_path, code)
    assert (end.ending, end.detail) == (
        Ending.PROTOCOL,
        "broke the protocol: sent a 'result' message while importing",
    )


@pytest.mark.slow
def test_a_child_cut_off_at_the_deadline_is_killed(tmp_path: Path) -> None:
    end = run(tmp_path, "import time\ndef sweep_mines(bm):\n    time.sleep(60)\n", timeout=1.0)
    assert (end.ending, end.status) == (Ending.TIMED_OUT, -signal.SIGKILL)


def test_the_end_of_a_session_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="mineshafted.grading.session")
    end = run(tmp_path, "def sweep_mines(bm):\n    raise KeyError('k')\n")
    assert [r.getMessage() for r in caplog.records] == [
        f"{tmp_path / 'sub.py'} ended: error {end.detail}"
    ]


def raw_then_answer(*writes: bytes, pause: float = 0.0, replies: int = 0) -> str:
    """A submission that writes each of ``writes`` raw to its channel (pausing between
    them), reads ``replies`` replies, then answers the 2x2 board of zeros."""
    code = "import time\ndef sweep_mines(bm):\n"
    for data in writes:
        code += f"    bm._channel._out.write({data!r})\n    bm._channel._out.flush()\n"
        code += f"    time.sleep({pause})\n"
    code += f"    for _ in range({replies}):\n        bm._channel._in.readline()\n"
    return code + "    return [[0, 0], [0, 0]]\n"


def test_an_empty_line_is_not_a_message(tmp_path: Path) -> None:
    end = run(tmp_path, raw_then_answer(b"\n"))
    assert (end.ending, end.detail) == (
        Ending.PROTOCOL,
        "broke the protocol: wrote something other than a message: b''",
    )


@pytest.mark.slow
def test_many_small_messages_at_once_are_each_under_the_cap(tmp_path: Path) -> None:
    code = raw_then_answer(b'{"move": 0}\n' * 200, replies=200)
    end = run(tmp_path, code, message_cap=1000)
    assert (end.ending, end.answer, end.moves) == (Ending.RESULT, [[0, 0], [0, 0]], 200)


@pytest.mark.slow
def test_a_message_of_exactly_the_cap_is_accepted(tmp_path: Path) -> None:
    message = b'{"move": 0' + b" " * 989 + b"}"
    assert len(message) == 1000
    end = run(tmp_path, raw_then_answer(message + b"\n", replies=1), message_cap=1000)
    assert (end.ending, end.moves) == (Ending.RESULT, 1)


@pytest.mark.slow
def test_a_message_of_exactly_the_cap_may_arrive_in_two_parts(tmp_path: Path) -> None:
    message = b'{"move": 0' + b" " * 989 + b"}"
    code = raw_then_answer(message, b"\n", pause=0.3, replies=1)
    end = run(tmp_path, code, message_cap=1000)
    assert (end.ending, end.moves) == (Ending.RESULT, 1)
