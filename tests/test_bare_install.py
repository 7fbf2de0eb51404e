"""A bare install: the wheel with no extras in a new virtual environment runs every command.

The README's ``pip install .`` brings the declared dependencies and nothing else; a command
that imports anything more fails there while the test environment (with every extra) hides
it. So the wheel (:func:`mineshafted.grading.wheel.build_wheel`) is installed, offline, into
a new virtual environment by pip itself, resolving its dependencies from a folder of wheels
that holds the declared ones only (each repacked from this environment's installed copy, the
way pip would have unpacked it), and each command runs there: its smallest real use, and,
for a command that needs an extra, the one line naming it.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import subprocess
import sys
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.tags import sys_tags

from mineshafted.grading.wheel import build_wheel

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # a new environment and a process per command: about a minute


def declared() -> list[Requirement]:
    """The dependencies pyproject.toml declares (no extra)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"]]


def closure(requirements: list[Requirement]) -> list[importlib.metadata.Distribution]:
    """The installed distributions ``requirements`` need, theirs included, markers evaluated
    (for the extras each one is asked with)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [(requirement, set(requirement.extras)) for requirement in requirements]
    while todo:
        requirement, extras = todo.pop()
        name = _normal(requirement.name)
        if name in found:
            continue
        distribution = importlib.metadata.distribution(requirement.name)
        found[name] = distribution
        for text in distribution.requires or []:
            needed = Requirement(text)
            asked = [{"extra": extra} for extra in extras] or [{"extra": ""}]
            if needed.marker is None or any(needed.marker.evaluate(a) for a in asked):
                todo.append((needed, set(needed.extras)))
    return list(found.values())


def repack(distribution: importlib.metadata.Distribution, folder: Path) -> Path:
    """A wheel of an installed distribution: its files under site-packages, as its RECORD
    lists them (the scripts pip made are left out: pip makes them again)."""
    info = next(
        path.parent.name
        for path in distribution.files or []
        if path.parent.name.endswith(".dist-info")
    )
    supported = {str(tag) for tag in sys_tags()}
    tags = [
        tag
        for line in (distribution.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:") and (tag := line.split(":", 1)[1].strip()) in supported
    ] or ["py3-none-any"]
    name = _normal(distribution.metadata["Name"]).replace("-", "_")
    wheel = folder / f"{name}-{distribution.version}-{tags[0]}.whl"  # a tag this Python runs
    skipped = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
    record = []
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in distribution.files or []:
            parts = path.parts
            if ".." in parts or "__pycache__" in parts:
                continue
            if parts[0] == info and parts[-1] in skipped:
                continue
            data = Path(str(distribution.locate_file(path))).read_bytes()
            archive.writestr(path.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{path.as_posix()},sha256={digest.decode()},{len(data)}")
        record.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def _named(arguments: list[str]) -> str:
    """A test id: the command and its subcommand."""
    return " ".join(arguments[:2] if arguments[0] in ("rules", "autograder") else arguments[:1])


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A new virtual environment holding the wheel and its declared dependencies only; its
    ``bin`` folder."""
    requires = [
        Requirement(text)
        for text in importlib.metadata.requires("mineshafted") or []
        if "extra ==" not in text
    ]
    assert sorted(map(str, requires)) == sorted(map(str, declared())), (
        "the installed metadata is not pyproject.toml's: reinstall (pip install -e .)"
    )
    root = tmp_path_factory.mktemp("bare")
    wheels = root / "wheels"
    wheels.mkdir()
    own = build_wheel(wheels)
    for distribution in closure(declared()):
        repack(distribution, wheels)
    environment = root / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    quiet = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    quiet["PIP_CONFIG_FILE"] = os.devnull  # the machine's own indexes and links stay out
    install = ["install", "-q", "--no-index", "--find-links", str(wheels), str(own)]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        env=quiet,
    )
    yield environment / "bin"


def run(folder: Path, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``mineshafted ARGUMENTS`` in the bare environment (its own interpreter, nothing from
    this checkout on the path)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(folder / "mineshafted"), *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_only_the_declared_dependencies_are_there(bare: Path) -> None:
    listed = subprocess.run(
        [str(bare / "python"), "-c", _LIST], capture_output=True, text=True, check=True
    ).stdout.split()
    wanted = {_normal(d.metadata["Name"]) for d in closure(declared())} | {"mineshafted"}
    assert set(listed) == wanted
    for extra in ("numpy", "fastapi", "matplotlib", "dask", "copydetect"):
        assert extra not in listed
    where = subprocess.run(
        [str(bare / "python"), "-c", "import mineshafted; print(mineshafted.__file__)"],
        cwd=bare,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert not where.startswith(str(ROOT / "mineshafted")), where  # the wheel's code


PUZZLE = str(ROOT / "puzzles" / "no-guess" / "9x9-10" / "01.json")
SUBMISSION = str(ROOT / "examples" / "mineshafted_submission.py")

USES: list[tuple[list[str], str]] = [
    (["--version"], "mineshafted "),
    (["solve", PUZZLE], "9x9-10-01: 9x9, 10 mines"),
    (["generate", "5", "5", "3", "--seed", "1"], '"technique": '),
    (["rate", PUZZLE], "9x9-10-01: "),
    (["trace", PUZZLE], "round 1"),
    (["probabilities", "position.json"], "placements: 3"),
    (["play", "5", "5", "3", "--seed", "1", "--record", "game.jsonl"], "policy best"),
    (["optimal", "3", "3", "2"], "best play wins 24 of 28 placements"),
    (["replay", PUZZLE, "--out", "page.html"], "wrote page.html"),
    (["rules", "eval", "rules/champion.s4", "0", PUZZLE, "--seed", "1"], " pts, 1-0-0"),
    (["rules", "check", "rules/champion.s4"], ": sound"),
    (["board", "5", "5", "20"], '"board": '),
    (["grade", SUBMISSION, PUZZLE, "--sandbox", "none", "--json"], '"score": '),
    (["autograder", "gradescope", "--out", "autograder.zip"], "wrote autograder.zip"),
    (["serve", "--help"], "Usage: mineshafted serve"),
]
"""Each command's smallest real use (a correct submission only, graded unsandboxed: it imports
the installed package, which the sandbox hides), and what its output shows."""

MISSING: list[tuple[list[str], str]] = [
    (["serve"], "web"),
    (["play", "5", "5", "3", "-n", "2", "--dask", "local"], "dask"),
    (["experiment", "density", "--size", "5", "--runs", "1", "--dask", "local"], "dask"),
    (["grade", "class", "class", "--similarity", "--sandbox", "none"], "similarity"),
]
"""Uses that need an extra the bare install lacks, and the extra."""


@pytest.fixture
def here(tmp_path: Path) -> Path:
    """A working folder with a position file and a class of one student."""
    position = {"board": [[1, None, None], [None, None, None]], "mines": 1}
    (tmp_path / "position.json").write_text(json.dumps(position))
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ann.py").write_text(Path(SUBMISSION).read_text())
    return tmp_path


@pytest.mark.parametrize(("arguments", "shown"), USES, ids=[_named(a) for a, _ in USES])
def test_each_command_runs_bare(bare: Path, here: Path, arguments: list[str], shown: str) -> None:
    result = run(bare, *arguments, cwd=here)
    assert result.returncode == 0, result.stderr
    assert shown in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("arguments", "extra"), MISSING, ids=[_named(a) for a, _ in MISSING])
def test_a_missing_extra_is_one_line_naming_it(
    bare: Path, here: Path, arguments: list[str], extra: str
) -> None:
    result = run(bare, *arguments, cwd=here)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"pip install 'mineshafted[{extra}]'" in result.stderr


def test_a_study_runs_bare_and_says_its_figure_needs_the_plots_extra(
    bare: Path, here: Path
) -> None:
    arguments = ["experiment", "density", "--size", "5", "--densities", "0.1", "--runs", "2"]
    result = run(bare, *arguments, "--out", "study", cwd=here)
    assert result.returncode == 0, result.stderr
    assert (here / "study" / "density.csv").is_file()
    assert not (here / "study" / "density.png").exists()
    assert "pip install 'mineshafted[plots]'" in result.stderr
    assert "Traceback" not in result.stderr


_LIST = (
    "import importlib.metadata as m\n"
    "print(' '.join(d.metadata['Name'].lower().replace('_', '-').replace('.', '-') "
    "for d in m.distributions()))"
)
