"""Feedback: what a student reads about their grade, as Markdown and as one HTML page.

Per board the outcome; then what went wrong, in the student's own terms and in the words of
:mod:`.wording`, the boards that failed the same way grouped into one message with the list of
boards (the exception raised, with the line of the student's own code; the cells of the board
returned wrong and what they are; the safe cells never moved onto; the move onto a mine with
the board as the sweep had uncovered it then; the time limit, and the cells the sweep went
back over; a ``sweep_mines`` that does not fit the contract); and for the first board not solved,
a replay of the student's own moves (drawn by the caller, which may use
:mod:`mineshafted.replay` and :func:`~.accounts.replay_words`: grading does not).

The feedback names the board set and shows its boards: a student's next grading is on other
boards (a class run's key is fresh; an autograder's boards are made per submission).

Both forms are made from one list of blocks (:class:`Block`), so they say the same thing;
every string that came from the submission is escaped for each (and made visible:
:func:`mineshafted.text.visible`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..formats import Puzzle
from ..text import visible
from .accounts import PICTURE, Group, groups
from .result import BoardResult
from .student import StudentGrade

__all__ = ["Block", "ReplayDrawer", "blocks", "html_text", "markdown_text"]

ReplayDrawer = Callable[[BoardResult, Puzzle, str], str]
"""Draws the replay page of a board's moves: ``(result, puzzle, title) -> HTML document``."""

_SHOWN_BOARDS = 3
"""Boards of a group whose own cells are told (the others are named)."""


@dataclass(frozen=True)
class Block:
    """One piece of the feedback: a heading, a paragraph, a table, a board or a replay."""

    kind: str
    """``"h1"``, ``"h2"``, ``"h3"``, ``"p"``, ``"table"``, ``"pre"`` or ``"replay"``."""
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    """For a table: the header row, then the rows."""


def blocks(
    grade: StudentGrade,
    board_set: str,
    puzzles: Mapping[str, Puzzle],
    replay: ReplayDrawer | None = None,
) -> list[Block]:
    """The feedback of one student, as blocks (see :func:`markdown_text`, :func:`html_text`).

    Parameters
    ----------
    puzzles:
        The boards graded on, by label (to show what the sweep had uncovered).
    replay:
        Draws the replay page of the first board not solved (none without it).
    """
    name = visible(grade.name)
    out = [Block("h1", f"Feedback for {name}")]
    out.append(
        Block(
            "p",
            f"Submission {visible(grade.source)}, graded on board set {board_set}: boards made "
            "for this grading only. Your next grading is on other boards.",
        )
    )
    if grade.imports:
        shown = "; ".join(visible(i) for i in grade.imports)
        out.append(Block("p", f"Imports the assignment does not allow: {shown}."))
    report = grade.report
    if report is None:
        out.append(
            Block("p", f"Score: 0%. Your submission could not be graded: {visible(grade.problem)}.")
        )
        return out
    earned = sum(a.earned for a in report.achievements)
    out.append(
        Block("p", f"Score: {report.score}% ({earned} of {len(report.achievements)} achievements).")
    )
    rubric = [["achievement", "boards solved", "earned", "weight"]]
    for a in report.achievements:
        verdict = "yes" if a.earned else "not graded" if not a.graded else "no"
        rubric.append([a.name, f"{a.solved}/{a.graded}", verdict, f"{a.weight}%"])
    out.append(Block("table", rows=rubric))
    table = [["board", "size", "mines", "outcome", "moves", "seconds"]]
    for b in report.boards:
        size = f"{b.rows}x{b.cols}"
        table.append(
            [
                visible(b.puzzle),
                size,
                str(b.mines),
                b.outcome.value,
                str(b.moves),
                f"{b.seconds:.3f}",
            ]
        )
    out.append(Block("h2", "Boards"))
    out.append(Block("table", rows=table))
    found = groups(report.boards, puzzles)
    if not found:
        out.append(Block("p", "Every board was solved."))
        return out
    out.append(Block("h2", "What went wrong"))
    for group in found:
        out += _told(group)
    first = found[0].boards[0][0]
    puzzle = puzzles.get(first.puzzle)
    if replay is not None and puzzle is not None and first.opened:
        out.append(Block("h2", f"Your moves on {visible(first.puzzle)}"))
        out.append(
            Block(
                "p",
                "A replay of your sweep on the first board it did not solve: each cell the "
                "first time your sweep moved onto it (step through it with the arrow keys).",
            )
        )
        out.append(Block("replay", replay(first, puzzle, f"{name}: {visible(first.puzzle)}")))
    return out


def _told(group: Group) -> list[Block]:
    """One group of boards that failed the same way: its boards, its headline, and what each
    of its first :data:`_SHOWN_BOARDS` boards adds."""
    out = [Block("h3", group.title), Block("p", group.headline)]
    several = len(group.boards) > 1
    told = [(b, said) for b, said in group.boards if said.specifics or said.loop or said.picture]
    for b, said in told[:_SHOWN_BOARDS]:
        lines = [*said.specifics, *([said.loop] if said.loop else [])]
        if lines:
            prefix = f"On {visible(b.puzzle)}: " if several else ""
            out.append(Block("p", prefix + " ".join(lines)))
        if said.picture:
            out += [Block("p", PICTURE), Block("pre", said.picture)]
    rest = told[_SHOWN_BOARDS:]
    if rest:
        names = ", ".join(visible(b.puzzle) for b, _ in rest)
        out.append(
            Block(
                "p", f"The other {len(rest)} boards ({names}) failed the same way, at other cells."
            )
        )
    return out


def markdown_text(parts: list[Block], replay_file: str | None = None) -> str:
    """The feedback as Markdown (a replay is pointed to in ``replay_file``, the HTML page)."""
    out: list[str] = []
    for block in parts:
        if block.kind in ("h1", "h2", "h3"):
            out.append(f"{'#' * int(block.kind[1])} {_md(block.text)}")
        elif block.kind == "p":
            out.append(_md(block.text, block=True))
        elif block.kind == "pre":
            out.append("```text\n" + block.text + "\n```")
        elif block.kind == "table":
            header, *rows = block.rows
            lines = ["| " + " | ".join(_md(cell) for cell in header) + " |"]
            lines.append("|" + "---|" * len(header))
            lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in rows]
            out.append("\n".join(lines))
        elif block.kind == "replay":
            where = f" in {replay_file}" if replay_file else ""
            out.append(f"The replay is{where} (open it in a browser).")
    return "\n\n".join(out) + "\n"


def html_text(parts: list[Block], title: str) -> str:
    """The feedback as one self-contained HTML page (a replay embedded in it)."""
    body: list[str] = []
    for block in parts:
        if block.kind in ("h1", "h2", "h3"):
            body.append(f"<{block.kind}>{html.escape(block.text)}</{block.kind}>")
        elif block.kind == "p":
            body.append(f"<p>{_code(html.escape(block.text))}</p>")
        elif block.kind == "pre":
            body.append(f"<pre>{html.escape(block.text)}</pre>")
        elif block.kind == "table":
            header, *rows = block.rows
            head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
            lines = "".join(
                "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
                for row in rows
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{lines}</tbody></table>")
        elif block.kind == "replay":
            page = html.escape(block.text)
            body.append(f'<iframe title="replay" sandbox="allow-scripts" srcdoc="{page}"></iframe>')
    return _PAGE.format(title=html.escape(title), body="\n".join(body))


def _md(text: str, *, block: bool = False) -> str:
    """``text`` with every character Markdown would read as markup escaped (inline markup
    anywhere; with ``block``, a block's markup at the start too).

    Examples
    --------
    >>> print(_md("# 1. a*b_c | `d` [e](f) <g>", block=True))
    \\# 1. a\\*b\\_c \\| \\`d\\` \\[e\\](f) \\<g\\>
    """
    out = ["\\" + char if char in _MARKDOWN else char for char in text.replace("\n", " ")]
    if block and out and out[0] in _BLOCK_START:
        out[0] = "\\" + out[0]
    return "".join(out)


_MARKDOWN = set("\\`*_[]<>|~")
_BLOCK_START = set("#+-=>0123456789")


def _code(escaped: str) -> str:
    """The grader's own `#` and `X` marks in a paragraph, as code."""
    return escaped.replace("`#`", "<code>#</code>").replace("`X`", "<code>X</code>")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }}
table {{ border-collapse: collapse; margin: 1rem 0; }}
th, td {{ border: 1px solid #bbb; padding: 0.2rem 0.6rem; text-align: left; }}
pre {{ background: #f4f4f4; padding: 0.6rem; line-height: 1.2; }}
iframe {{ width: 100%; height: 48rem; border: 1px solid #bbb; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""
