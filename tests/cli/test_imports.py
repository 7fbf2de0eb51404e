"""The command line loads only what a command needs: lazy command modules, the Windows case."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test starts a fresh interpreter (a CLI subprocess)

SHIPPED = Path(__file__).resolve().parents[2] / "puzzles" / "no-guess" / "4x3-sample" / "01.json"

# Runs the console script's main on the arguments after -c, then prints, on the last line, the
# exit status and which of the package's heavy parts were imported. With "--no-resource" first,
# the "resource" module (absent on Windows) is made unimportable before the package is imported.
RUN = """
import json, sys
args = sys.argv[1:]
if args[:1] == ["--no-resource"]:
    sys.modules["resource"] = None
    args = args[1:]
from mineshafted.cli import main
sys.argv = ["mineshafted", *args]
try:
    main()
    status = 0
except SystemExit as done:
    status = done.code
heavy = ("mineshafted.grading", "mineshafted.generate")
print(json.dumps({"status": status, "loaded": [m for m in heavy if m in sys.modules]}))
"""


def run(*args: str) -> dict[str, object]:
    """Run the command line in a fresh interpreter; its exit status and heavy modules loaded."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    last: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return last


@pytest.mark.parametrize("args", [["--help"], ["solve", str(SHIPPED)]], ids=["help", "solve"])
def test_help_and_solve_load_neither_grading_nor_the_generator(args: list[str]) -> None:
    assert run(*args) == {"status": 0, "loaded": []}


def test_solve_runs_where_resource_cannot_be_imported() -> None:
    assert run("--no-resource", "solve", str(SHIPPED))["status"] == 0
