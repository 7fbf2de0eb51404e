"""A board's processes bounded together: its control group, where one can be made, and a
warning in the report where none can.

The first tests read made-up ``/proc/self/cgroup`` and ``mountinfo`` texts over folders in
``tmp_path`` (any user, any machine); the hostile ones need a kernel that lets this user make
groups (root, with cgroup v1 or v2 memory and pids) and skip with the reason elsewhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mineshafted import Puzzle
from mineshafted.cli import app
from mineshafted.formats import format_puzzle
from mineshafted.grading import Sandbox, Verdict, cgroup, grade, process
from mineshafted.grading.cgroup import GROUP_PREFIX, BoardGroup, Place, Plan, plan_from
from mineshafted.grading.limits import MIB, Limits

from .conftest import SANDBOXES, TWO

HOSTILE = Path(__file__).with_name("hostile")

MEMORY_MB = 512
"""The ``--memory`` the hostile files are graded with: each child's share fits in it alone."""

PLAN = cgroup.group_plan()
needs_groups = pytest.mark.skipif(
    bool(PLAN.missing), reason=f"no cgroup for a board here: {PLAN.missing_text()}"
)


def _mount(number: int, root: str, point: Path, kind: str, options: str) -> str:
    return f"{number} 1 0:{number} {root} {point} rw,relatime - {kind} {kind} {options}"


def _folder(path: Path, **files: str) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name.replace("_", ".", 1)).write_text(text)
    return path


def test_hybrid_v1_memory_and_pids_are_the_places_when_v2_offers_neither(tmp_path: Path) -> None:
    # This machine's layout: the unified hierarchy offers only hugetlb.
    _folder(tmp_path / "unified", cgroup_controllers="hugetlb\n", cgroup_subtree_control="")
    own = _folder(tmp_path / "memory" / "api" / "job")
    mounts = "\n".join(
        [
            _mount(35, "/", tmp_path / "memory", "cgroup", "rw,memory"),
            _mount(39, "/", tmp_path / "pids", "cgroup", "rw,pids"),
            _mount(41, "/", tmp_path / "unified", "cgroup2", "rw"),
        ]
    )
    cgroups = "8:pids:/\n4:memory:/api/job\n1:cpu:/\n0::/\n"
    plan = plan_from(cgroups, mounts)
    assert plan == Plan(
        (Place(own, 1, ("memory",)), Place(tmp_path / "pids", 1, ("pids",))), missing={}
    )


def test_v2_is_the_place_where_the_grader_s_cgroup_passes_memory_and_pids_on(
    tmp_path: Path,
) -> None:
    own = _folder(
        tmp_path / "grading",
        cgroup_controllers="cpu io memory pids\n",
        cgroup_subtree_control="memory pids\n",
    )
    plan = plan_from("0::/grading\n", _mount(30, "/", tmp_path, "cgroup2", "rw"))
    assert plan == Plan((Place(own, 2, ("memory", "pids")),), missing={})


def test_a_mount_of_part_of_a_hierarchy_is_read_from_its_root(tmp_path: Path) -> None:
    own = _folder(tmp_path / "board", cgroup_controllers="memory pids", cgroup_subtree_control="")
    mounts = _mount(30, "/docker/abc", tmp_path, "cgroup2", "rw")
    plan = plan_from("0::/docker/abc/board\n", mounts)
    assert plan.places == (Place(own, 2, ("memory", "pids")),)
    outside = plan_from("0::/elsewhere\n", mounts)
    assert not outside.places and set(outside.missing) == {"memory", "pids"}


def test_each_controller_no_hierarchy_offers_is_named_with_why(tmp_path: Path) -> None:
    _folder(tmp_path, cgroup_controllers="hugetlb\n", cgroup_subtree_control="")
    plan = plan_from("0::/\n", _mount(30, "/", tmp_path, "cgroup2", "rw"))
    assert plan.places == ()
    assert plan.missing == {
        "memory": "cgroup v2 here offers only hugetlb",
        "pids": "cgroup v2 here offers only hugetlb",
    }
    assert plan_from("", "").missing_text() == (
        "memory: no cgroup v2 or v1 hierarchy offers the memory controller; "
        "pids: no cgroup v2 or v1 hierarchy offers the pids controller"
    )


def test_a_v2_cgroup_that_cannot_pass_controllers_on_leaves_them_to_v1(tmp_path: Path) -> None:
    own = _folder(tmp_path / "v2" / "session", cgroup_controllers="memory pids\n")
    (own / "cgroup.subtree_control").mkdir()  # neither read nor written, like a refusal
    mounts = "\n".join(
        [
            _mount(30, "/", tmp_path / "v2", "cgroup2", "rw"),
            _mount(39, "/", tmp_path / "pids", "cgroup", "rw,pids"),
        ]
    )
    plan = plan_from("1:pids:/\n0::/session\n", mounts)
    assert plan.places == (Place(tmp_path / "pids", 1, ("pids",)),)
    assert plan.missing["memory"].startswith(
        f"cgroup v2 at {own} does not pass memory and pids on to its children and cannot be "
        "made to ("
    )


def test_a_group_s_limits_are_written_in_each_place(tmp_path: Path) -> None:
    v2 = Place(_folder(tmp_path / "v2"), 2, ("memory",))
    v1 = Place(_folder(tmp_path / "v1"), 1, ("pids",))
    group = BoardGroup(100 * MIB, 66, Plan((v2, v1)))
    (_, memory), (_, pids) = group.folders
    assert memory.name == pids.name and memory.name.startswith(f"{GROUP_PREFIX}{os.getpid()}-")
    assert (memory / "memory.max").read_text() == str(100 * MIB)
    assert (pids / "pids.max").read_text() == "66"
    assert group.bounds == ("memory", "pids")


@pytest.mark.parametrize("root", [True, False])
def test_what_is_not_enforced_is_said_as_it_is(root: bool) -> None:
    plan = Plan(missing={"memory": "m", "pids": "p"})
    memory, tasks = cgroup.unenforced(plan, root=root)
    assert memory.startswith("the memory of a board's processes together is not bounded")
    assert ("does not hold root" in tasks) is root
    assert cgroup.unenforced(Plan()) == []


@pytest.fixture
def no_groups(monkeypatch: pytest.MonkeyPatch) -> Plan:
    plan = Plan(missing={"memory": "none made in this test", "pids": "none made in this test"})
    for module in (cgroup, process):
        monkeypatch.setattr(module, "group_plan", lambda: plan)
    return plan


@pytest.mark.slow
def test_without_a_group_boards_are_graded_and_the_report_warns(
    no_groups: Plan, tmp_path: Path
) -> None:
    puzzle = tmp_path / "two.json"
    puzzle.write_text(format_puzzle(Puzzle(TWO)))
    submission = HOSTILE / "unexplored.py"
    done = CliRunner().invoke(app, ["grade", str(submission), str(puzzle), "--sandbox", "none"])
    assert done.exit_code == 0, done.output
    warnings = [line for line in done.stdout.splitlines() if line.startswith("warning: ")]
    # A root grader's boards run as users of their own: RLIMIT_NPROC bounds each board alone.
    root = os.geteuid() == 0
    assert len(warnings) == 2 - root and all("none made in this test" in w for w in warnings)
    report = grade(submission, [("two", Puzzle(TWO))], sandbox=Sandbox.NONE)
    assert report.to_json()["warnings"] == cgroup.unenforced(no_groups, own_user=root)


def _graded(name: str, sandbox: Sandbox) -> tuple[Verdict, str]:
    report = grade(HOSTILE / name, [("two", Puzzle(TWO))], sandbox=sandbox, memory_mb=MEMORY_MB)
    assert report.warnings == []
    (board,) = report.boards
    return board.outcome, board.detail


@pytest.mark.slow
@needs_groups
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_board_s_processes_hold_no_more_memory_together_than_its_limit(
    sandbox: Sandbox,
) -> None:
    # Four children of 300 MiB each, all under a 512 MiB address space: 1232 MiB held before.
    outcome, detail = _graded("hogs.py", sandbox)
    found = re.match(r"RuntimeError: held (\d+) MiB in (\d) children \(in hogs.py, ", detail)
    assert outcome is Verdict.CRASHED and found, detail
    held, children = map(int, found.groups())
    assert held * MIB <= Limits(memory_mb=MEMORY_MB).group_memory_bytes and children <= 1


@pytest.mark.slow
@needs_groups
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_board_s_processes_are_bounded_in_number_even_for_root(sandbox: Sandbox) -> None:
    # As root, RLIMIT_NPROC held nothing: 200 of 200 forks.
    outcome, detail = _graded("forks.py", sandbox)
    found = re.match(r"RuntimeError: forked (\d+) of 200 \(in forks.py, ", detail)
    assert outcome is Verdict.CRASHED and found, detail
    assert int(found.group(1)) < Limits().processes


@pytest.mark.slow
@needs_groups
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_board_ended_for_memory_says_so(sandbox: Sandbox) -> None:
    outcome, detail = _graded("swells.py", sandbox)
    assert outcome is Verdict.CRASHED
    assert detail == (
        "killed by SIGKILL (the out-of-memory killer ended 1 of its processes: "
        f"the board may hold {MEMORY_MB + Limits().disk_mb} MiB in all)"
    )


@pytest.mark.slow
@needs_groups
def test_no_group_is_left_after_a_board() -> None:
    _graded("forks.py", Sandbox.NONE)
    for place in PLAN.places:
        assert not list(place.folder.glob(f"{GROUP_PREFIX}{os.getpid()}-*")), place.folder
