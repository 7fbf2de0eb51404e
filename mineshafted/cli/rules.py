"""``mineshafted rules``: run S4 rule files on boards (PatternEval) and prove their rules sound."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

import typer

from .options import force_option, record_option
from .output import emit, fail, fail_on_error, note
from .targets import check_record, save_record
from .usage import Command, group

if TYPE_CHECKING:
    from ..board import Board

__all__ = ["EXIT_UNSOUND", "HELP", "app"]

HELP = (
    "The S4 rule language of MIT 6.871's SmartSweeper: evaluate a rule file on boards, or "
    "check that its rules can never click a mine or mark a safe square."
)
"""The sub-app's ``--help`` text."""

EVAL_HELP = (
    "PatternEval: play boards with the rules in RULES and score them.\n\n"
    "Each board scores C - G + T when won in time (C safe squares clicked, G free guesses, T "
    "the fraction of the time limit left), otherwise -R - G (R safe squares left). The last "
    "line sums up: 'SCORE pts, WINS-LOSSES-TIMEOUTS; Avg Guesses: G Avg Time: MS'.\n\n"
    "DEBUG-LEVEL (0-6): 0 the final score; 1 each board's score; 2 rule usage; 3 the board "
    "whenever no rule applies; 4 each rule that fires; 5 the board after each; 6 each rule "
    "tried at each position and why it failed. BOARD is a puzzle file or a directory of them; "
    "without it, one random 30x30 board, each square a mine with chance 25%.\n\n"
    "Exit status: 0 evaluated (whatever the score); 2 bad input (one line, with "
    "file:line:column for rule files)."
)

CHECK_HELP = (
    "Check each rule of RULES: 'sound' (its action never clicks a mine or marks a safe square "
    "wherever it matches), 'unsound' with a counterexample board, or 'not proven' (it rests "
    "on the board-wide totals, which are left unknown, or its search ran past --time-limit: "
    "the search is exponential in the wildcards).\n\n"
    "Exit status: 0 no rule unsound; 1 some rule unsound; 2 bad input."
)

EXIT_UNSOUND: Final = 1
"""``rules check`` found a rule that can click a mine or mark a safe square."""

app = group("rules", HELP)

_RULES_ARGUMENT = typer.Argument(
    metavar="RULES",
    help="An S4 rule file; a shipped one may be named as rules/champion.s4 or "
    "rules/examples/corner.s4 from anywhere.",
    show_default=False,
)


@app.command("eval", help=EVAL_HELP, cls=Command)
def evaluate(
    rules: Annotated[Path, _RULES_ARGUMENT],
    level: Annotated[
        str | None,
        typer.Argument(metavar="DEBUG-LEVEL", help="0-6 (default 0).", show_default=False),
    ] = None,
    board: Annotated[
        Path | None,
        typer.Argument(
            metavar="BOARD",
            help="A puzzle file (JSON or JSON Lines) or a directory of them.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seeds the free guesses (and the random board). Default: a random one."),
    ] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.0, help="Seconds allowed per board.")
    ] = 30.0,
    no_expand: Annotated[
        bool, typer.Option("--no-expand", help="Do not reveal the squares around a zero.")
    ] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print per-board results and the totals as JSON.")
    ] = False,
    record: Annotated[
        Path | None, record_option("board", "each move with the rule that made it")
    ] = None,
    force: Annotated[bool, force_option("--record file")] = False,
) -> None:
    """Play every board with the rules and print PatternEval's report."""
    import random

    from ..rules import Evaluation, chance_board, play, read_rules, rule_usage, summary_line

    debug = 0
    if level is not None:
        if level.lstrip("-").isdigit():
            debug = int(level)
            if not 0 <= debug <= 6:
                fail(f"debug level {debug} is not in 0..6")
        elif board is None:
            board = Path(level)
        else:
            fail(f"debug level {level!r} is not an integer 0..6")
    with fail_on_error():
        ruleset = read_rules(_shipped(rules))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    boards: list[tuple[str, Board]]
    if board is None:
        boards = [("random 30x30 at 25%", chance_board(30, 30, 25, seed=seed))]
    else:
        boards = _read_boards(board)
    inputs = [_shipped(rules), *([board] if board is not None else [])]
    check_record(record, len(boards), "board", force=force, inputs=inputs)
    echo = note if json_output else emit  # with --json, stdout holds the JSON alone

    evaluation = Evaluation()
    for number, (name, hidden) in enumerate(boards):
        if debug >= 3:
            echo(f"board {name}")
        result = play(
            ruleset,
            hidden,
            seed=seed + number,
            time_limit=time_limit,
            auto_expand=not no_expand,
            debug=debug,
            echo=echo,
        )
        evaluation.plays.append((name, result))
        if record is not None and result.record is not None:
            save_record(result.record, record, force=force, inputs=inputs)
        if debug >= 1:
            echo(
                f"{name}: {result.finish.value}, {result.score:.4f} pts; clicked "
                f"{result.clicked}, guesses {result.guesses}, remaining {result.remaining}, "
                f"{result.seconds * 1000:.1f} ms"
            )
    if debug >= 2:
        echo("rule usage:")
        usage = rule_usage(p for _, p in evaluation.plays)
        for rule in ruleset.rules:
            echo(f"  {rule.name}: fired {usage[rule.name]} time(s)")
        echo(f"  free guesses: {sum(p.guesses for _, p in evaluation.plays)}")
    if json_output:
        emit(json.dumps({"rules": str(rules), "seed": seed, **evaluation.to_json()}))
    else:
        emit(summary_line(evaluation))


@app.command("check", help=CHECK_HELP, cls=Command)
def check(
    rules: Annotated[Path, _RULES_ARGUMENT],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print each rule's verdict as JSON.")
    ] = False,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", min=0.0, help="Seconds allowed per rule; past them: not proven."
        ),
    ] = 10.0,
) -> None:
    """Check every rule of the file and print its verdict."""
    from ..rules import Verdict, check_rules, read_rules

    with fail_on_error():
        ruleset = read_rules(_shipped(rules))
    findings = check_rules(ruleset, time_limit=time_limit)
    if json_output:
        emit(json.dumps({"rules": [f.to_json() for f in findings]}))
    elif not findings:
        emit(f"{rules}: no rules to check")
    else:
        for finding in findings:
            emit(f"{finding.rule}: {finding.verdict.value}: {finding.reason}")
            if finding.board is not None:
                emit("\n".join("    " + line for line in finding.board.splitlines()))
    if any(f.verdict is Verdict.UNSOUND for f in findings):
        raise typer.Exit(EXIT_UNSOUND)


def _shipped(path: Path) -> Path:
    """``path``, or the shipped rule file it names (``rules/...``) when it does not exist."""
    if path.exists():
        return path
    from importlib.resources import files

    parts = path.parts[1:] if path.parts[:1] == ("rules",) else path.parts
    data = Path(str(files("mineshafted.rules"))) / "data"
    shipped = data.joinpath(*parts)
    return shipped if parts and shipped.is_file() else path


def _read_boards(path: Path) -> list[tuple[str, Board]]:
    """Every board in the puzzle file or directory at ``path``, named."""
    from ..formats import find_puzzle_files, read_puzzles

    boards: list[tuple[str, Board]] = []
    with fail_on_error():
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
        for file in find_puzzle_files([path]):
            puzzles = read_puzzles(file)
            for number, puzzle in enumerate(puzzles):
                name = puzzle.name or (
                    file.stem if len(puzzles) == 1 else f"{file.stem}#{number + 1}"
                )
                boards.append((name, puzzle.board))
    if not boards:
        fail(f"{path}: no puzzle files (*.json, *.jsonl) there")
    return boards
