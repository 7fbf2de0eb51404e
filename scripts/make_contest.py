"""Remake the S4 contest set, puzzles/contest/: 24 boards of 30x30 at 20-25% mines.

Each square of a board is a mine with the board's chance, as PatternEval drew them; every
board records its seed, drawn from the base seed below, so running this again writes the same
files:

    python scripts/make_contest.py            # rewrite puzzles/contest/
    python scripts/make_contest.py --check    # verify the files on disk match
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mineshafted.formats import Puzzle, format_puzzle
from mineshafted.rules import chance_board

BASE_SEED = 6871
ROOT = Path(__file__).resolve().parent.parent / "puzzles" / "contest"
PERCENTS = (20, 21, 22, 23, 24, 25)
"""Mine chances, in percent; the boards cycle through them."""
COUNT = 24


def boards() -> dict[str, str]:
    """File name -> contents of every board of the set.

    >>> files = boards()
    >>> len(files), sorted(files)[0]
    (24, '30x30-20pct-01.json')
    """
    files: dict[str, str] = {}
    for number in range(1, COUNT + 1):
        percent = PERCENTS[(number - 1) % len(PERCENTS)]
        seed = BASE_SEED * 1000 + number
        board = chance_board(30, 30, percent, seed=seed)
        name = f"30x30-{percent}pct-{number:02d}"
        start = next(c for c in range(board.geometry.cells) if c not in board.mines)
        puzzle = Puzzle(
            board, name=name, source="scripts/make_contest.py", start=start, extra={"seed": seed}
        )
        files[f"{name}.json"] = format_puzzle(puzzle) + "\n"
    return files


def main() -> None:
    """Write the set, or with ``--check`` compare it with the files on disk."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with puzzles/contest/ instead of writing"
    )
    args = parser.parse_args()
    files = boards()
    if args.check:
        stale = [
            n
            for n, text in files.items()
            if not (ROOT / n).is_file() or (ROOT / n).read_text() != text
        ]
        if stale:
            sys.exit(f"out of date: {', '.join(stale)}")
        print(f"{len(files)} contest boards match")
        return
    ROOT.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (ROOT / name).write_text(text)
    print(f"wrote {len(files)} boards to {ROOT}")


if __name__ == "__main__":
    main()
