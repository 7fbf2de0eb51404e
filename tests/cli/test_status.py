"""Library errors map to exit statuses in one place."""

from __future__ import annotations

import pytest

from mineshafted.cli.status import EXIT_INVALID, EXIT_NEEDS_GUESS, exit_status
from mineshafted.errors import (
    ContradictionError,
    InvalidBoardError,
    MineshaftedError,
    NeedsGuess,
    PuzzleFormatError,
)


def test_needs_guess_maps_to_exit_needs_guess() -> None:
    assert exit_status(NeedsGuess([[None]], [0], [0], 0)) == EXIT_NEEDS_GUESS


@pytest.mark.parametrize(
    "error",
    [
        MineshaftedError("anything"),
        InvalidBoardError("not a board"),
        PuzzleFormatError("x.json: no such file"),
        ContradictionError("no placement"),
        FileNotFoundError(2, "No such file or directory", "x.json"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_other_errors_map_to_exit_invalid(error: MineshaftedError | OSError) -> None:
    assert exit_status(error) == EXIT_INVALID
