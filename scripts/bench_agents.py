"""Benchmark the lab agents: CPU time per game on each preset and at each density, and the studies.

For every agent, play a sample of the studies' own games (the same paired boards, the same code
path as ``mineshafted experiment``) in this process and take the CPU time per game
(``time.process_time``, so a busy machine does not inflate it). From those, project the two
studies' costs against the issue's targets:

- the default density study (19 densities x 30 runs x 6 agents at d=20) in at most 2 minutes
  with ``--jobs 2``: the CPU total over 2;
- the presets study at 1,000 games per preset per agent (8 agents) in at most 5 minutes: the
  CPU total, over 1 and over 2 processes.

``--full`` also runs both studies as the command does (``--jobs 2``) and reports their wall time.
The projection assumes two free cores; on a shared machine, compare the CPU figures. The cost of
a ``csp`` or ``best`` game between densities 0.3 and 0.6 is heavy-tailed (a few games cost
seconds), so a projection from a few runs understates the density study: for the verdict, use
``--full`` or ``--runs 30``.

    python scripts/bench_agents.py                     # the sample: ~1 minute
    python scripts/bench_agents.py --games 200 --runs 10
    python scripts/bench_agents.py --full              # and the studies themselves
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from functools import partial

from mineshafted.studies import density_study, presets_study
from mineshafted.studies.labs import DENSITY_AGENTS, PRESET_AGENTS, PRESETS, parse_densities

DENSITY_TARGET = 120.0
"""Seconds allowed for the default density study with two processes."""
PRESETS_TARGET = 300.0
"""Seconds allowed for the presets study at 1,000 games per preset per agent."""


def cpu_per_game(play: Callable[[], object], games: int) -> float:
    """CPU seconds per game of ``play``, which plays ``games`` games.

    >>> cpu_per_game(lambda: None, 4) >= 0
    True
    """
    began = time.process_time()
    play()
    return (time.process_time() - began) / games


def bench_presets(agents: Sequence[str], games: int, seed: int) -> dict[tuple[str, str], float]:
    """(agent, preset) -> CPU seconds per game over ``games`` games."""
    return {
        (name, preset): cpu_per_game(
            partial(presets_study, games=games, agents=[name], presets=[preset], seed=seed), games
        )
        for name in agents
        for preset in PRESETS
    }


def bench_density(
    agents: Sequence[str], densities: Sequence[float], runs: int, size: int, seed: int
) -> dict[tuple[str, float], float]:
    """(agent, density) -> CPU seconds per game over ``runs`` games."""
    return {
        (name, d): cpu_per_game(
            partial(density_study, size=size, densities=[d], runs=runs, agents=[name], seed=seed),
            runs,
        )
        for name in agents
        for d in densities
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="sample games per preset and agent")
    parser.add_argument("--runs", type=int, default=4, help="sample games per density and agent")
    parser.add_argument("--size", type=int, default=20, help="the density study's board side")
    parser.add_argument("--seed", type=int, default=0, help="the studies' seed")
    parser.add_argument("--full", action="store_true", help="also run both studies, --jobs 2")
    args = parser.parse_args(argv)
    densities = parse_densities("0.05:0.95:0.05")

    presets = bench_presets(PRESET_AGENTS, args.games, args.seed)
    print(f"CPU ms per game, presets study (sample of {args.games} games per cell):")
    print(f"{'agent':<12}" + "".join(f"{p:>14}" for p in PRESETS))
    for name in PRESET_AGENTS:
        cells = "".join(f"{presets[name, p] * 1000:>14.2f}" for p in PRESETS)
        print(f"{name:<12}{cells}")
    presets_cpu = sum(presets.values()) * 1000
    print(
        f"projected presets study, 1,000 games x {len(PRESETS)} presets x "
        f"{len(PRESET_AGENTS)} agents: {presets_cpu:.0f} s CPU; "
        f"--jobs 1 {_verdict(presets_cpu, PRESETS_TARGET)}, "
        f"--jobs 2 {_verdict(presets_cpu / 2, PRESETS_TARGET)}"
    )

    density = bench_density(DENSITY_AGENTS, densities, args.runs, args.size, args.seed)
    print(f"\nCPU ms per game, density study at d={args.size} (sample of {args.runs} games):")
    print(f"{'density':<8}" + "".join(f"{name:>12}" for name in DENSITY_AGENTS))
    for d in densities:
        cells = "".join(f"{density[name, d] * 1000:>12.1f}" for name in DENSITY_AGENTS)
        print(f"{d:<8}{cells}")
    density_cpu = sum(density.values()) * 30
    print(
        f"projected density study, {len(densities)} densities x 30 runs x "
        f"{len(DENSITY_AGENTS)} agents: {density_cpu:.0f} s CPU; "
        f"--jobs 2 {_verdict(density_cpu / 2, DENSITY_TARGET)}"
    )

    if args.full:
        began = time.perf_counter()
        density_study(size=args.size, densities=densities, seed=args.seed, jobs=2)
        print(f"\nfull density study, --jobs 2: {_verdict(time.perf_counter() - began, 120)}")
        began = time.perf_counter()
        presets_study(seed=args.seed, jobs=2)
        print(f"full presets study, --jobs 2: {_verdict(time.perf_counter() - began, 300)}")


def _verdict(seconds: float, target: float) -> str:
    """``seconds`` against ``target``, as ``12 s (target 120 s: met)``."""
    met = "met" if seconds <= target else "NOT met"
    return f"{seconds:.0f} s (target {target:.0f} s: {met})"


if __name__ == "__main__":
    main()
