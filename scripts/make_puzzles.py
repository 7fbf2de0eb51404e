"""Remake the shipped puzzle sets under puzzles/ with the package's own generator.

Every board records its own seed; the sets are drawn from the base seed below, so running
this script again writes the same files:

    python scripts/make_puzzles.py            # rewrite puzzles/
    python scripts/make_puzzles.py --check    # verify the files on disk match

No-guess sets are certified by the generator (the sweep solves them from the start cell
without the mine total). Needs-guess boards are random draws on which the sweep stalls.
Every puzzle records its rating (``"technique"``: the weakest technique that solves it, see
``mineshafted rate``); ``--check`` also rates every file again and compares.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from mineshafted import Board, BoardManager, Puzzle, Sweep, parse_puzzles, rate
from mineshafted.formats import format_puzzle
from mineshafted.generate import generate_many

BASE_SEED = 20261121

OTHER_SETS = {"contest"}
"""Sets under puzzles/ that another script makes and checks (scripts/make_contest.py)."""
ROOT = Path(__file__).resolve().parent.parent / "puzzles"

SAMPLE = [[0, 1, 1], [0, 2, -1], [0, 2, -1], [0, 1, 1]]

# (rows, cols, mines, how many)
NO_GUESS = [
    (9, 9, 10, 10),
    (16, 16, 40, 10),
    (30, 16, 99, 10),
    (30, 16, 130, 3),
    (60, 60, 540, 2),
    (200, 200, 5000, 1),
]

# The grading rubric's tiers: small boards with exactly this many mines.
TIERS = [(1, 4, 4), (2, 5, 5), (3, 6, 6), (4, 6, 6), (5, 8, 8)]
TIER_BOARDS = 4

NEEDS_GUESS = [(5, 5, 4, 2), (9, 9, 10, 2), (16, 16, 40, 2), (30, 16, 99, 2)]


def puzzles() -> dict[str, str]:
    """Every shipped file: path relative to puzzles/ -> its content."""
    files: dict[str, str] = {}
    grid = Board.from_grid(SAMPLE)
    sample = Puzzle(
        grid,
        name="assignment sample",
        source="Mine Shafted assignment",
        extra={"technique": rate(grid).technique.value},
    )
    files["no-guess/4x3-sample/01.json"] = format_puzzle(sample) + "\n"
    rng = random.Random(BASE_SEED)
    for rows, cols, mines, count in NO_GUESS:
        folder = f"no-guess/{rows}x{cols}-{mines}"
        made = generate_many(rows, cols, mines, count, seed=rng.randrange(2**63), timeout=None)
        for number, board in enumerate(made, 1):
            name = f"{rows}x{cols}-{mines}-{number:02d}"
            files[f"{folder}/{number:02d}.json"] = format_puzzle(board.to_puzzle(name)) + "\n"
    for mines, rows, cols in TIERS:
        folder = f"no-guess/tier-{mines}-mine{'s' if mines > 1 else ''}"
        made = generate_many(
            rows, cols, mines, TIER_BOARDS, seed=rng.randrange(2**63), timeout=None
        )
        for number, board in enumerate(made, 1):
            name = f"{rows}x{cols}-{mines}-{number:02d}"
            files[f"{folder}/{number:02d}.json"] = format_puzzle(board.to_puzzle(name)) + "\n"
    for rows, cols, mines, count in NEEDS_GUESS:
        for number, puzzle in enumerate(stalling(rows, cols, mines, count, rng), 1):
            files[f"needs-guess/{rows}x{cols}-{mines}-{number:02d}.json"] = (
                format_puzzle(puzzle) + "\n"
            )
    return files


def stalling(rows: int, cols: int, mines: int, count: int, rng: random.Random) -> list[Puzzle]:
    """Random boards (start at a 0 in the corner) on which the sweep stalls."""
    found: list[Puzzle] = []
    clear = {0, 1, cols, cols + 1}
    while len(found) < count:
        seed = rng.randrange(2**63)
        draw = random.Random(seed)
        board = Board.from_mines(
            rows, cols, draw.sample([c for c in range(rows * cols) if c not in clear], mines)
        )
        if not Sweep(BoardManager(board)).run().solved:
            name = f"{rows}x{cols}-{mines}-guess-{len(found) + 1:02d}"
            found.append(
                Puzzle(
                    board,
                    name=name,
                    source="random draw that needs a guess",
                    extra={"seed": seed, "technique": rate(board).technique.value},
                )
            )
    return found


def misrating(text: str) -> str | None:
    """Why a puzzle file's recorded ``technique`` is not its rating; ``None`` when it is."""
    (puzzle,) = parse_puzzles(text)
    recorded = puzzle.extra.get("technique")
    rated = rate(puzzle.board, start=puzzle.start).technique.value
    if recorded != rated:
        return f"records technique {recorded!r}, rated {rated!r}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with puzzles/ instead of writing"
    )
    args = parser.parse_args()
    files = puzzles()
    if args.check:
        stale = [
            p
            for p, text in files.items()
            if not (ROOT / p).is_file() or (ROOT / p).read_text() != text
        ]
        extra = sorted(
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*.json")
            if str(p.relative_to(ROOT)) not in files and p.parent.name not in OTHER_SETS
        )
        for path in stale + extra:
            print(f"differs: puzzles/{path}")
        misrated = [f"{path}: {why}" for path, text in files.items() if (why := misrating(text))]
        for line in misrated:
            print(f"rating: puzzles/{line}")
        sys.exit(1 if stale or extra or misrated else 0)
    for path, text in files.items():
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    print(f"wrote {len(files)} puzzle files under {ROOT}")


if __name__ == "__main__":
    main()
