"""--similarity: the same figures on every run, and code given to the whole class counted for no
one, with or without --starter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mineshafted.grading.similarity import COMMON_LEAST, compare

from .conftest import SOLVE

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

STARTER = (EXAMPLES / "starter.py").read_bytes()


def example_class() -> dict[str, bytes]:
    """The example class's Python files, by student."""
    folder = EXAMPLES / "class"
    found = {path.stem: path.read_bytes() for path in folder.glob("*.py")}
    found["bob"] = (folder / "bob" / "lab.py").read_bytes()
    return found


FIGURES = """
import json, sys
from mineshafted.grading.similarity import compare
sources = {name: code.encode() for name, code in json.loads(sys.stdin.read()).items()}
starter = sources.pop("--starter")
for given in (None, starter):
    pairs, best = compare(sources, given, threshold=0.0)
    shown = [[p.first, p.second, repr(p.first_share), repr(p.second_share)] for p in pairs]
    print(json.dumps({"pairs": shown, "best": {k: [v[0], repr(v[1])] for k, v in best.items()}}))
"""
"""Prints every pair's figures (to the last bit) for the sources on stdin, without the starter
and with it."""


def figures_in_a_process(sources: dict[str, bytes], seed: str) -> list[dict[str, object]]:
    """What :data:`FIGURES` prints for ``sources`` in a fresh interpreter hashing with ``seed``."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    text = json.dumps({name: code.decode() for name, code in sources.items()})
    done = subprocess.run(
        [sys.executable, "-c", FIGURES],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_the_same_class_gives_the_same_figures_whatever_python_s_hash_seed() -> None:
    sources = {**example_class(), "--starter": STARTER}
    first, second = (figures_in_a_process(sources, seed) for seed in ("1", "2"))
    assert first == second
    assert len(first) == 2 and all(run["pairs"] for run in first)  # figures, not nothing


OWN = {
    "ann": "\n\ndef sweep_mines(bm):\n    return [[bm.move(0)]]\n",
    "bob": "\n\ndef sweep_mines(bm):\n    for cell in range(3):\n        print(cell, bm.size)\n",
    "cy": "\n\ndef sweep_mines(bm):\n    raise NotImplementedError('later')\n",
    "dee": "\n\nclass Solver:\n    def __init__(self, bm):\n        self.bm = bm\n",
}
"""A few lines of each student's own after the starter, unlike each other's."""


@pytest.mark.slow
def test_without_the_starter_the_starter_alone_pairs_no_one_and_a_real_pair_is_found() -> None:
    starter = STARTER.decode()
    sources = {name: (starter + own).encode() for name, own in OWN.items()}
    copied = starter + SOLVE + "\nsweep_mines = solve\n"
    sources["eve"] = copied.encode()
    sources["fay"] = copied.replace("clues", "seen").replace("mines", "bombs").encode()
    pairs, best = compare(sources)
    assert [(p.first, p.second) for p in pairs] == [("eve", "fay")]
    assert pairs[0].share > 0.9 and best["eve"] == ("fay", pairs[0].first_share)
    assert all(share < 0.33 for name, (_, share) in best.items() if name not in ("eve", "fay"))
    with_starter, _ = compare(sources, STARTER)
    assert [(p.first, p.second) for p in with_starter] == [("eve", "fay")]
    everyone, _ = compare(sources, common=1.0)  # nothing is common: the starter pairs them all
    assert len(everyone) == 15


@pytest.mark.slow
def test_a_passage_only_a_few_hold_is_theirs_however_small_the_class() -> None:
    shared = (SOLVE + "\nsweep_mines = solve\n").encode()
    other = b"def sweep_mines(bm):\n    rows, cols = bm.size\n    return [[0] * cols] * rows\n"
    sources = {"ann": shared, "bob": shared, "cy": other}  # 2 of 3: more than half
    assert COMMON_LEAST == 3
    assert [(p.first, p.second) for p in compare(sources)[0]] == [("ann", "bob")]
