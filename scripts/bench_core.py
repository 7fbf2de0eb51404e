"""Benchmark the compiled core against the plain one, kernel by kernel and end to end.

Each measure runs the same items under both cores (:mod:`mineshafted.core`), checks that both
give the same answers, and times them alternating plain and compiled on every item (best of
``--repeats``); printed: the median time per item under each core, and the ratio plain /
compiled of the medians and of the sums over all items. ``--instructions`` counts
instructions instead (valgrind's callgrind, one child process per measure and core, counting
only the timed calls): on a shared machine wall time moves with the load, instruction counts
do not.

The measures, on seeded items (the same every run):

- ``count``: :func:`mineshafted.solver.count_component` on every component of the stalls
  of ``--games`` expert games (bench_probability.py's boards and play);
- ``odds``: :func:`mineshafted.probability.odds` on each of those stalls, from cold (the
  cache of counts emptied first), as bench_probability.py's *cold*;
- ``reveal``: a classic expert game drawn, then revealed cell by cell (a safe first reveal at
  the corner, then every safe cell in index order): the game engine alone (drawing the
  board, zero regions, events, the record);
- ``opening``: the first reveal of a 200x200 board with 400 mines (a fixed board, nothing
  drawn), at a cell whose zero region opens most of the board;
- ``sweep``: :func:`mineshafted.sweep_mines` on no-guess expert boards (bench_sweep.py's);
- ``best``: one classic expert game played by ``best`` (bench_play.py --speed's games);
- ``regions``: :func:`mineshafted.probability.regions.regions` on each of the stalls of
  ``odds``;
- ``endgame``: the endgame's search (its layout made, then searched) at each stall where
  ``best`` searches one, in those games (``--games`` of them, played first with the plain
  core).

    python scripts/bench_core.py                          # every measure, wall time
    python scripts/bench_core.py --measures count,odds --games 300
    python scripts/bench_core.py --instructions --games 100
"""

from __future__ import annotations

import argparse
import functools
import gc
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_probability import draw

from mineshafted import MINE, Board, BoardManager, Sweep, core, sweep_mines
from mineshafted.game import FirstMove, Game, Rules
from mineshafted.generate import generate_many
from mineshafted.probability import endgame, odds, play_game, policy_named, regions
from mineshafted.solver import Position, count_component, counted
from mineshafted.studies import game_seed

CORES = ("plain", "compiled")

EXPERT = (16, 30, 99)
"""Expert as the policies play it (rows, cols, mines); bench_probability.py draws 30x16."""


@dataclass(frozen=True)
class Measure:
    """Items and one call on an item: what is timed, and its answer (compared across cores)."""

    items: Callable[[int], list[Any]]
    run: Callable[[Any], object]
    unit: str


def stalls(games: int) -> list[Position]:
    """The stalls of ``games`` expert games of bench_probability.py (seeds 0, 1, ...)."""
    found = []
    for game in range(games):
        board = draw(30, 16, 99, game)
        sweep = Sweep(BoardManager(board.to_grid()))
        report = sweep.run()
        while not report.solved:
            position = sweep.position()
            found.append(position)
            result = odds(position, 99)
            facts = result.certain()
            if facts:
                for cell, mine in facts:
                    sweep.tell(cell, mine=mine)
            else:
                cell = result.safest()[0]
                if board.values[cell] == MINE:
                    break
                sweep.guess(cell)
            report = sweep.advance()
    return found


def components(games: int) -> list[tuple[tuple[tuple[int, ...], int], ...]]:
    """Every component of those stalls."""
    return [tuple(part) for stall in stalls(games) for part in stall.components]


def counting(component: tuple[tuple[tuple[int, ...], int], ...]) -> object:
    """One count, its parts."""
    found = count_component(component)
    return found.classes, found.placements, found.mined


def cold_odds(position: Position) -> object:
    """The odds of a stall with the cache of counts emptied first."""
    counted.cache_clear()
    found = odds(position, 99)
    return found.placements, sorted(found.mined.items())


def revealed(seed: int) -> object:
    """An expert game revealed cell by cell: every safe cell, in index order."""
    rows, cols, mines = EXPERT
    game = Game.draw(rows, cols, mines, rules=Rules.CLASSIC, seed=seed)
    game.reveal(0)
    board = game.board
    assert board is not None
    for cell, value in enumerate(board.values):
        if value != MINE and not game.over:
            game.reveal(cell)
    return len(game.record.events), game.status


def sparse_boards(count: int) -> list[Any]:
    """200x200 boards with 400 mines (seeded), each with the first cell whose clue is 0."""
    found = []
    for seed in range(count):
        board = Board.from_mines(200, 200, random.Random(seed).sample(range(40_000), 400))
        found.append((board, board.values.index(0)))
    return found


def opened(item: tuple[Any, int]) -> object:
    """The first reveal of a fixed board at a zero: one large zero region."""
    board, zero = item
    game = Game.on(board, rules=Rules(FirstMove.NONE, auto_expand=True))
    return game.reveal(zero).revealed


def no_guess_boards(count: int) -> list[Any]:
    """bench_sweep.py's expert boards (seed 2026)."""
    return [g.board for g in generate_many(30, 16, 99, count, seed=2026)]


def swept(board: Any) -> object:
    return sweep_mines(BoardManager(board))


def best_game(index: int) -> object:
    """One expert game of bench_play.py --speed (seed 0), played by ``best``."""
    rows, cols, mines = EXPERT
    played = play_game(rows, cols, mines, seed=game_seed(0, index), policy=policy_named("best"))
    return played.won, played.guesses


def endgames(games: int) -> list[tuple[tuple[Any, ...], int]]:
    """What the endgame searches in ``games`` of bench_play.py --speed's games: each
    layout's cells, placements and weights, and its node budget."""
    found: list[tuple[tuple[Any, ...], int]] = []
    searched = endgame._searched

    def recorded(layout: Any, nodes: int) -> object:
        alike = (((1 << len(layout.placements)) - 1, 1),)
        weights = None if layout.weights == alike else layout.weights
        found.append(((layout.cells, layout.placements, weights), nodes))
        return searched(layout, nodes)

    endgame._searched = recorded  # type: ignore[assignment]
    try:
        with core.use("plain"):
            for index in range(games):
                best_game(index)
    finally:
        endgame._searched = searched
    return found


def search(item: tuple[tuple[Any, ...], int]) -> object:
    """An endgame's layout made and searched."""
    (cells, placements, weights), nodes = item
    rows, cols, _ = EXPERT
    board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    by_mines = None if weights is None else dict(_weights_by_mines(placements, weights))
    return endgame._searched(endgame._Layout.of(cells, placements, board, by_mines), nodes)


def _weights_by_mines(placements: Sequence[int], weights: Any) -> list[tuple[int, int]]:
    """A layout's weights back by number of mines (each class's placements share one)."""
    pairs = []
    for mask, weight in weights:
        first = (mask & -mask).bit_length() - 1
        pairs.append((placements[first].bit_count(), weight))
    return pairs


MEASURES: dict[str, Measure] = {
    "count": Measure(components, counting, "a component"),
    "odds": Measure(stalls, cold_odds, "a stall, cold"),
    "reveal": Measure(lambda games: list(range(games)), revealed, "a game revealed"),
    "opening": Measure(lambda games: sparse_boards(max(5, games // 5)), opened, "a reveal"),
    "sweep": Measure(lambda games: no_guess_boards(max(10, games // 10)), swept, "a board"),
    "best": Measure(lambda games: list(range(games)), best_game, "a game"),
    "regions": Measure(
        stalls, lambda position: regions.regions(position, position.board), "a stall"
    ),
    "endgame": Measure(endgames, search, "a search"),
}


def timed(measure: Measure, items: Sequence[Any], repeats: int) -> dict[str, list[float]]:
    """Best of ``repeats`` per item under each core, alternating; answers compared."""
    best: dict[str, list[float]] = {name: [] for name in CORES}
    gc.disable()
    try:
        for item in items:
            answers = {}
            fastest = dict.fromkeys(CORES, float("inf"))
            for repeat in range(repeats):
                for name in CORES if repeat % 2 == 0 else CORES[::-1]:
                    counted.cache_clear()  # each call from cold: no count of the other core
                    with core.use(name):
                        began = time.perf_counter()
                        answers[name] = measure.run(item)
                        fastest[name] = min(fastest[name], time.perf_counter() - began)
            if answers["plain"] != answers["compiled"]:
                sys.exit(f"the cores differ on {item!r}")
            for name in CORES:
                best[name].append(fastest[name])
            gc.collect()
    finally:
        gc.enable()
    return best


def instructions(name: str, core_name: str, games: int) -> int:
    """Instructions the measure's calls take under ``core_name``, counted by callgrind in a
    child process (only inside :func:`functools.reduce`, which wraps the timed calls)."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--collect-atstart=no",
        "--toggle-collect=functools_reduce",
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        name,
        core_name,
        str(games),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise RuntimeError(f"no count from callgrind:\n{done.stderr}")


def child(name: str, core_name: str, games: int) -> None:
    """Run the measure's calls once under ``core_name`` inside functools.reduce (for
    callgrind), after preparing the items outside it; print the number of items."""
    measure = MEASURES[name]
    items = measure.items(games)
    core.select(core_name)
    run = measure.run
    pickle.dumps(items)  # the items are plain data: nothing lazy is left to build inside

    def calls(_first: list[object], _second: list[object]) -> list[object]:
        return [run(item) for item in items]

    pair: list[list[object]] = [[], []]
    functools.reduce(calls, pair)  # reduce calls it once: callgrind counts inside
    print(len(items))


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, print the table."""
    if argv is None and sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measures", default=",".join(MEASURES), help="comma-separated")
    parser.add_argument(
        "--games", type=int, default=100, help="expert games (stalls, reveals, best games)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timings per item, best kept")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (callgrind) instead"
    )
    args = parser.parse_args(argv)
    if not core.available():
        sys.exit(f"nothing to compare: {core.describe()}")
    names = [name.strip() for name in args.measures.split(",") if name.strip()]
    unknown = [name for name in names if name not in MEASURES]
    if unknown:
        parser.error(f"unknown measure(s) {unknown}: choose among {', '.join(MEASURES)}")
    print(f"# python {sys.version.split()[0]}, {args.games} games")
    if args.instructions:
        print("| measure | items | plain (instructions / item) | compiled | plain / compiled |")
        print("|---|---:|---:|---:|---:|")
    else:
        print(
            "| measure | items | plain (median) | compiled (median) | plain / compiled "
            "| plain / compiled, all items |"
        )
        print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        measure = MEASURES[name]
        if args.instructions:
            plain = instructions(name, "plain", args.games)
            compiled = instructions(name, "compiled", args.games)
            size = len(measure.items(args.games))
            print(
                f"| {name} ({measure.unit}) | {size} | {plain / size:,.0f} | "
                f"{compiled / size:,.0f} | {plain / compiled:.1f}x |",
                flush=True,
            )
            continue
        items = measure.items(args.games)
        best = timed(measure, items, args.repeats)
        plain_ms = statistics.median(best["plain"]) * 1e3
        compiled_ms = statistics.median(best["compiled"]) * 1e3
        total = sum(best["plain"]) / sum(best["compiled"])
        print(
            f"| {name} ({measure.unit}) | {len(items)} | {plain_ms:.3f} ms | "
            f"{compiled_ms:.3f} ms | {plain_ms / compiled_ms:.1f}x | {total:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
