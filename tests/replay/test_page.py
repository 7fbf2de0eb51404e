"""page and write_page: one self-contained document, small enough, never overwriting by accident."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mineshafted.game import GameRecord
from mineshafted.replay import PageExistsError, page, script, write_page


def test_the_page_embeds_the_script_data_and_loads_nothing(guessing_game: GameRecord) -> None:
    document = page(guessing_game, title="game")
    block = re.search(r'<script type="application/json" id="data">(.*?)</script>', document, re.S)
    assert block is not None
    assert json.loads(block.group(1)) == script(guessing_game, title="game")
    assert "://" not in document
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", document)
    assert "default-src 'none'" in document  # the page may not fetch anything, by policy


def test_a_title_cannot_break_out_of_the_page(small_solve: GameRecord) -> None:
    title = "</script><script>alert(1)</script>"
    document = page(small_solve, title=title)
    assert document.count("<script") == 2
    block = re.search(r'id="data">(.*?)</script>', document, re.S)
    assert block is not None and json.loads(block.group(1))["title"] == title


def test_an_expert_game_page_is_at_most_300_kb(expert_game: GameRecord) -> None:
    size = len(page(expert_game).encode())
    assert size <= 300_000, size


def test_write_page_refuses_to_overwrite_unless_forced(
    small_solve: GameRecord, tmp_path: Path
) -> None:
    target = tmp_path / "r.html"
    target.write_text("mine")
    with pytest.raises(PageExistsError, match="use --force"):
        write_page(small_solve, target)
    assert target.read_text() == "mine"
    assert write_page(small_solve, target, force=True) == target
    assert target.read_text().startswith("<!DOCTYPE html>")
