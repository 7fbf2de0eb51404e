"""Without a sandbox a root grader runs each board as a fresh unprivileged user of its own, in its
own session: ``kill(-1, SIGKILL)`` from a board ends that board's processes and nothing else.

The test that sends ``kill(-1, SIGKILL)`` first checks, with a harmless probe through the
grader, that a board runs as a user of its own in a session of its own and cannot signal the
grader; and the hostile file refuses to kill unless no other process shares its user id.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.grading import GradingError, Sandbox, Verdict, grade, process, sandbox, users
from mineshafted.grading.cgroup import Plan
from mineshafted.grading.sandbox import choose_sandbox, none_warning

from .conftest import CORRECT, TWO, submission

HOSTILE = Path(__file__).with_name("hostile")

ROOT = os.geteuid() == 0

needs_root = pytest.mark.skipif(not ROOT, reason="boards run as users of their own only for root")

PROBE = """
import json, os

def sweep_mines(bm):
    def tried(call):
        try:
            call()
            return "allowed"
        except OSError as error:
            return error.strerror

    grader = os.getppid()
    print(json.dumps({
        "uid": os.getresuid(), "gid": os.getresgid(), "groups": os.getgroups(),
        "pid": os.getpid(), "sid": os.getsid(0), "pgid": os.getpgid(0), "grader": grader,
        "signal grader": tried(lambda: os.kill(grader, 0)),
        "signal init": tried(lambda: os.kill(1, 0)),
        "open grader's stdout": tried(
            lambda: os.close(os.open(f"/proc/{grader}/fd/1", os.O_WRONLY | os.O_APPEND))
        ),
        "capabilities": [line.split()[1] for line in open("/proc/self/status")
                         if line.startswith(("CapPrm", "CapEff", "CapAmb"))],
        "imports": __import__("fractions").Fraction(1, 3).denominator,
    }))
    return None
"""
"""Reports who the board runs as and what it may touch: it signals nothing (signal 0 only
asks) and writes nothing."""


def probe(tmp_path: Path, boards: int = 1) -> list[dict[str, Any]]:
    path = submission(tmp_path, PROBE, name="probe.py")
    report = grade(path, [(f"b{n}", Puzzle(TWO)) for n in range(boards)], sandbox=Sandbox.NONE)
    return [json.loads(board.output) for board in report.boards]


@pytest.mark.slow
@needs_root
def test_a_root_grader_s_board_runs_as_a_user_of_its_own_in_a_session_of_its_own(
    tmp_path: Path,
) -> None:
    seen = probe(tmp_path, boards=2)
    grader = os.getpid()
    for who in seen:
        user = who["uid"][0]
        assert user != 0 and who["uid"] == [user] * 3 and who["gid"] == [user] * 3
        assert who["groups"] == [] and who["sid"] == who["pid"] == who["pgid"]
        assert who["grader"] == grader
        assert who["signal grader"] == who["signal init"] == "Operation not permitted"
        assert who["open grader's stdout"] == "Permission denied"
        assert who["capabilities"] == ["0000000000000000"] * 3
        assert who["imports"] == 3  # the Python installation still serves it, wherever it is
    assert seen[0]["uid"] != seen[1]["uid"]


@needs_root
@pytest.mark.slow
def test_kill_all_from_a_board_ends_only_that_board_s_processes(tmp_path: Path) -> None:
    # The harmless probe first: were a board to run as root, the kill below would end every
    # process on this machine.
    (who,) = probe(tmp_path)
    assert who["uid"][0] != 0 and who["sid"] == who["pid"]
    assert who["signal grader"] == "Operation not permitted"
    sentinel = subprocess.Popen(["sleep", "60"])
    try:
        items = [(f"b{n}", Puzzle(TWO)) for n in range(3)]
        report = grade(HOSTILE / "kills_all.py", items, sandbox=Sandbox.NONE, jobs=3)
        assert sentinel.poll() is None
    finally:
        sentinel.kill()
        sentinel.wait()
    for board in report.boards:  # each answered: no board's kill reached another board
        assert (board.outcome, board.detail) == (
            Verdict.WRONG,
            "returned NoneType, not a list of rows",
        )
        assert board.output == "helper ended by signal 9\n"


@pytest.mark.slow
@needs_root
def test_what_a_board_user_leaves_running_is_killed_however_it_hides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No group to end it, no marker variable to find it by, out of the board's session.
    monkeypatch.setattr(process, "group_plan", lambda: Plan(missing={"pids": "none here"}))
    code = """
        import os

        def sweep_mines(bm):
            if os.fork() == 0:
                os.setsid()
                os.execve("/bin/sleep", ["/bin/sleep", "60"], {})  # no marker variable
            print(os.getuid())
            return None
        """
    report = grade(submission(tmp_path, code), [("two", Puzzle(TWO))], sandbox=Sandbox.NONE)
    user = int(report.boards[0].output)
    assert users.processes_of(user) == []


def test_a_board_user_is_none_that_a_process_an_account_or_a_board_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(users, "_pool", lambda: range(5_000_000, 5_000_004))
    monkeypatch.setattr(users, "_running_ids", lambda: {5_000_000})
    monkeypatch.setattr(users, "_named", lambda user: user == 5_000_001)
    held = users.board_user()
    assert held in (5_000_002, 5_000_003)
    other = users.board_user()
    assert {held, other} == {5_000_002, 5_000_003}
    with pytest.raises(GradingError, match="no unused user id is left to run a board as"):
        users.board_user()
    users.release(held)
    assert users.board_user() == held
    for user in (held, other):
        users.release(user)


@pytest.mark.parametrize(
    ("uid_map", "pool"),
    [
        ([range(0, 2**32 - 1)], users.BOARD_USERS),
        ([range(0, 1), range(1, 65537)], range(65537 - 4096, 65537)),
        ([range(0, 1), range(1000, 3000)], range(1000, 3000)),
    ],
    ids=["host", "rootless-container", "small"],
)
def test_board_users_come_from_ids_the_namespace_maps(
    monkeypatch: pytest.MonkeyPatch, uid_map: list[range], pool: range
) -> None:
    monkeypatch.setattr(users, "_mapped", lambda name: uid_map)
    assert users._pool() == pool


def test_a_namespace_that_maps_no_unprivileged_id_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(users, "_mapped", lambda name: [range(0, 1)])
    with pytest.raises(GradingError, match="no unprivileged user id is mapped here"):
        users._pool()


@needs_root
def test_the_probe_finds_that_boards_can_run_as_users_of_their_own_here() -> None:
    assert users.unprivileged_problem() is None


@needs_root
@pytest.mark.parametrize("requested", [Sandbox.NONE, None], ids=["none", "default"])
def test_where_a_board_cannot_run_unprivileged_a_root_grader_refuses(
    monkeypatch: pytest.MonkeyPatch, requested: Sandbox | None
) -> None:
    monkeypatch.setattr(sandbox, "unprivileged_problem", lambda: "permission denied")
    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: "bwrap is not installed")
    with pytest.raises(GradingError) as raised:
        choose_sandbox(requested)
    start = "with --sandbox none " if requested else "bwrap cannot run here "
    assert str(raised.value).startswith(start)
    assert str(raised.value).endswith(
        "a grader running as root runs each board as a fresh unprivileged user, which fails "
        "here: permission denied; install bubblewrap (apt-get install bubblewrap) to run each "
        "board in a sandbox, or grade as an ordinary user"
    )


def test_the_warning_says_exactly_what_a_board_without_a_sandbox_can_do() -> None:
    as_root, as_user = none_warning(root=True), none_warning(root=False)
    assert "never as root" in as_root and "cannot signal" in as_root
    assert "kill(-1, SIGKILL) ends this grader, your shell" in as_user
    assert all(w.endswith("grade untrusted code with bwrap") for w in (as_root, as_user))


@pytest.mark.slow
def test_sandbox_none_prints_the_warning_for_who_the_grader_is(tmp_path: Path) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(json.dumps({"board": TWO.to_grid()}))
    args = ["grade", "--sandbox", "none", str(submission(tmp_path, CORRECT)), str(puzzle)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines()[0] == f"warning: {none_warning(root=ROOT)}"


def test_the_probe_runs_the_script_every_child_runs() -> None:
    assert users._CHILD == process.CHILD and process.CHILD.is_file()
