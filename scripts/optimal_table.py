"""Write the tables of docs/optimal.md: best possible play against ``best`` and ``safest``.

For every board of at most 5 rows and 5 columns (one of each transposed pair) with at most
60,000 placements, and 6x6 with 4 mines, under each first-click rule (``none``, ``safe``,
``opening``): the exact chance that best play wins with the best first reveal, and with the
first reveal at the corner; and the exact chances of the ``best`` and ``safest`` policies
with the first reveal at the corner (as ``mineshafted play`` reveals it), their play followed
over every placement with ties broken by the lowest cell. Every figure is a fraction of
placements won, all placements equally likely.

    python scripts/optimal_table.py                     # rewrite the tables (an hour or more)
    python scripts/optimal_table.py --out bench/optimal.jsonl   # keep rows; a rerun resumes
    python scripts/optimal_table.py --check             # recompute the small rows, compare
    python scripts/optimal_table.py --boards 4x4x4,3x3x2 --print   # some rows, printed

``--check`` recomputes every row of at most ``--check-placements`` placements (2,000 by
default: 79 boards, 4x4 with 4 mines among them, in about 1.4 s of processor time here) and
fails if a row of the page differs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from pathlib import Path

from mineshafted.board import Geometry
from mineshafted.game import FirstMove
from mineshafted.probability import Best, Safest
from mineshafted.probability.optimal import OptimalPlay, board_symmetries
from mineshafted.probability.optimal.scoring import PolicyPlay, Score

DOC = Path(__file__).resolve().parent.parent / "docs" / "optimal.md"
BEGIN = "<!-- tables: written by scripts/optimal_table.py -->\n"
END = "<!-- end of the tables -->\n"

MOST_PLACEMENTS = 60_000
"""The table's boards of at most 5x5 have at most this many placements."""

EXTRA = [(6, 6, 4)]
"""Boards beyond 5x5 in the table."""

RULES = (FirstMove.NONE, FirstMove.SAFE, FirstMove.OPENING)

HEADING = [
    "| board | mines | placements | best play | best first reveals | best play, corner "
    "| `best`, corner | `safest`, corner | `best`'s gap |",
    "|---|---:|---:|---:|---|---:|---:|---:|---:|",
]


@dataclass(frozen=True)
class Row:
    """One board under one rule: each chance as ``wins/placements``."""

    rows: int
    cols: int
    mines: int
    first: str
    placements: int
    optimum: str
    starts: list[list[int]]
    """One first reveal of each set the board's symmetries map onto each other."""
    corner: str
    best: str
    safest: str
    seconds: float


def boards() -> list[tuple[int, int, int]]:
    """Every board of the table, smallest first."""
    found = [
        (rows, cols, mines)
        for rows in range(1, 6)
        for cols in range(rows, 6)
        for mines in range(1, rows * cols)
        if math.comb(rows * cols, mines) <= MOST_PLACEMENTS
    ]
    return [*found, *EXTRA]


def compute(rows: int, cols: int, mines: int, known: list[Row] | None = None) -> list[Row]:
    """The rows of one board, one a rule the mines fit; with ``known`` (rows computed
    before), only ``best``'s column anew."""
    began = time.perf_counter()
    best = PolicyPlay(Best(), rows, cols, mines)
    if known is not None:
        found = [replace(row, best=_fraction(best.at(FirstMove(row.first), 0))) for row in known]
        took = round(time.perf_counter() - began, 2)
        return [replace(row, seconds=took) for row in found]
    play = OptimalPlay(rows, cols, mines)
    safest = PolicyPlay(Safest(), rows, cols, mines)
    classes = board_symmetries(rows, cols)
    around = Geometry(rows, cols).neighbours(0)
    found = []
    for first in RULES:
        zone = {FirstMove.NONE: 0, FirstMove.SAFE: 1}.get(first, 1 + len(around))
        if mines > rows * cols - zone:
            continue
        optimum = play.best(first)
        corner = play.at(first, 0)
        starts = sorted({min(image[c] for image in classes) for c in optimum.moves})
        found.append(
            Row(
                rows,
                cols,
                mines,
                first.value,
                corner.placements,
                f"{optimum.wins}/{optimum.placements}",
                [list(divmod(c, cols)) for c in starts],
                f"{corner.wins}/{corner.placements}",
                _fraction(best.at(first, 0)),
                _fraction(safest.at(first, 0)),
                0.0,
            )
        )
    took = time.perf_counter() - began
    return [Row(**{**asdict(row), "seconds": round(took, 2)}) for row in found]


def _fraction(score: Score) -> str:
    return f"{score.wins}/{score.placements}"


def took(rows: list[Row]) -> str:
    """The seconds a board's rows took, or why it has none."""
    return f"{rows[0].seconds:.1f} s" if rows else "no rule fits"


def _chance(text: str) -> Fraction:
    wins, placements = (int(part) for part in text.split("/"))
    return Fraction(wins, placements)


def _cell(text: str) -> str:
    chance = _chance(text)
    return f"{text} ({float(chance) * 100:.2f}%)"


def line(row: Row) -> str:
    """A row of the Markdown table."""
    gap = (_chance(row.corner) - _chance(row.best)) * 100
    starts = " ".join(f"({r},{c})" for r, c in row.starts)
    return (
        f"| {row.rows}x{row.cols} | {row.mines} | {row.placements:,} | {_cell(row.optimum)} | "
        f"{starts} | {_cell(row.corner)} | {_cell(row.best)} | {_cell(row.safest)} | "
        f"{float(gap):.2f} |"
    )


def distance(rows: list[Row]) -> str:
    """How far ``best`` is from best play with the same first reveal, over ``rows``: the
    figures docs/optimal.md quotes."""
    gaps = [(_chance(row.corner) - _chance(row.best)) * 100 for row in rows]
    far = [(gap, row) for gap, row in zip(gaps, rows, strict=True) if gap > Fraction(1, 2)]
    text = (
        f"best plays as best play from its first reveal on {sum(g == 0 for g in gaps)} of "
        f"{len(rows)} rows; mean gap {float(sum(gaps) / max(len(gaps), 1)):.3f} points; "
        f"{len(far)} row(s) further than 0.5 points"
    )
    for gap, row in sorted(far, key=lambda pair: -pair[0]):
        text += f"\n  {row.rows}x{row.cols}/{row.mines} --first {row.first}: {float(gap):.2f}"
    return text


def tables(rows: list[Row]) -> str:
    """The generated part of the page: a table a rule."""
    names = {
        "none": "First reveal unprotected (`--first none`: a mine under it loses)",
        "safe": "First reveal safe (`--first safe`, as `mineshafted play`)",
        "opening": "First reveal an opening (`--first opening`: it shows a 0)",
    }
    parts = [BEGIN]
    for first in RULES:
        chosen = [row for row in rows if row.first == first.value]
        parts.append(f"\n### {names[first.value]}\n\n")
        parts.extend(f"{text}\n" for text in [*HEADING, *map(line, chosen)])
    parts.append("\n" + END)
    return "".join(parts)


def load(path: Path | None) -> dict[tuple[int, int, int], list[Row]]:
    """The rows kept in ``path`` (one JSON line a row), by board."""
    kept: dict[tuple[int, int, int], list[Row]] = {}
    if path is None or not path.exists():
        return kept
    for text in path.read_text(encoding="utf-8").splitlines():
        row = Row(**json.loads(text))
        kept.setdefault((row.rows, row.cols, row.mines), []).append(row)
    return kept


def generated(text: str) -> str:
    """The generated part of the page's text."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def main(argv: list[str] | None = None) -> None:
    """Compute the rows; write the page, print them, or check the small ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="recompute the small rows, compare")
    parser.add_argument("--check-placements", type=int, default=2000, help="rows --check redoes")
    parser.add_argument("--out", type=Path, default=None, help="keep rows here; resume from it")
    parser.add_argument("--boards", default=None, help="only these, e.g. 4x4x4,3x3x2")
    parser.add_argument("--print", action="store_true", help="print the rows; write nothing")
    parser.add_argument(
        "--reuse",
        type=Path,
        default=None,
        help="take best play and safest from the rows kept in this file; compute best anew",
    )
    args = parser.parse_args(argv)
    chosen = boards()
    if args.boards:
        chosen = [tuple(int(p) for p in b.split("x")) for b in args.boards.split(",")]  # type: ignore[misc]
    if args.check:
        chosen = [b for b in chosen if math.comb(b[0] * b[1], b[2]) <= args.check_placements]
    kept = {} if args.check else load(args.out)
    reused = load(args.reuse)
    rows: list[Row] = []
    for board in chosen:
        if board not in kept:
            kept[board] = compute(*board, known=reused.get(board))
            if not args.check:  # the progress of a long run
                print(f"{board[0]}x{board[1]}/{board[2]}: {took(kept[board])}", file=sys.stderr)
            if args.out is not None:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                with args.out.open("a", encoding="utf-8") as stream:
                    for row in kept[board]:
                        stream.write(json.dumps(asdict(row)) + "\n")
        rows.extend(kept[board])
    if args.check:
        written = generated(DOC.read_text(encoding="utf-8")).splitlines()
        wrong = [line(row) for row in rows if line(row) not in written]
        if wrong:
            print(f"{DOC}: {len(wrong)} row(s) differ from the computed ones:", file=sys.stderr)
            for text in wrong:
                print(f"  {text}", file=sys.stderr)
            raise SystemExit(1)
        print(
            f"{len(rows)} rows of {len(chosen)} boards (at most {args.check_placements:,} "
            "placements) match docs/optimal.md"
        )
        return
    if args.print:
        print(tables(rows), end="")
        print(distance(rows))
        return
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text.replace(generated(text), tables(rows)), encoding="utf-8")
    print(f"wrote {len(rows)} rows to {DOC}")
    print(distance(rows))


if __name__ == "__main__":
    main()
