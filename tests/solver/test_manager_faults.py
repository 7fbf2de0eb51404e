"""A manager that lies is bad input: each lie is named by a ManagerError before it does harm."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mineshafted import Board, BoardManager, ContradictionError, Sweep
from mineshafted.errors import ManagerError, MineshaftedError, StartError

from ..conftest import CourseManager

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core

OPEN = Board.from_mines(6, 7, [40, 41, 33])
"""A 6x7 board whose mines are far from the start, so a sweep reads many rings."""


class Liar:
    """A true ``BoardManager`` behind one lie: ``size``, ``move`` or ``get_adjacent`` replaced.

    ``move`` onto a mine raises ``RuntimeError``, as the course's manager does, so a test sees
    a sweep misled into stepping on a mine.
    """

    def __init__(self, board: Board) -> None:
        self.true = BoardManager(board)
        self.size: object = self.true.size

    def move(self, index: int) -> object:
        return self.true.move(index)

    def get_adjacent(self, index: int) -> Iterable[object]:
        return self.true.get_adjacent(index)


def _sweep(manager: object, **options: object) -> None:
    Sweep(manager, **options).run()  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [(-4, -3), (0, 3), (3,), (2.0, 3), "23", None, (True, 2)])
def test_a_size_that_is_not_two_positive_ints_is_refused(size: object) -> None:
    liar = Liar(OPEN)
    liar.size = size
    with pytest.raises(ManagerError, match=r"size is .* not two positive ints") as caught:
        _sweep(liar)
    assert caught.value.value == size


def test_a_swapped_size_is_caught_at_the_first_ring() -> None:
    liar = Liar(OPEN)
    liar.size = (7, 6)
    with pytest.raises(ManagerError, match=r"get_adjacent\(0\) on the 7x6 board") as caught:
        _sweep(liar)
    assert caught.value.cell == 0


class ShiftedRing(Liar):
    """Every neighbour list moved one cell along: the ring of the next cell."""

    def get_adjacent(self, index: int) -> list[int]:
        return self.true.get_adjacent(min(index + 1, OPEN.geometry.cells - 1))


class ShiftedMembers(Liar):
    """Every neighbour in the list one more than the truth."""

    def get_adjacent(self, index: int) -> list[int]:
        return [n + 1 for n in self.true.get_adjacent(index)]


class Wrapped(Liar):
    """Neighbours as ``index +- 1, +- cols`` without a column check: rows wrap round."""

    def get_adjacent(self, index: int) -> list[int]:
        cols, cells = OPEN.geometry.cols, OPEN.geometry.cells
        offsets = (-cols - 1, -cols, -cols + 1, -1, 1, cols - 1, cols, cols + 1)
        return [index + d for d in offsets if 0 <= index + d < cells]


@pytest.mark.parametrize("liar", [ShiftedRing, ShiftedMembers, Wrapped])
def test_wrong_neighbours_are_caught_before_a_move_onto_a_mine(liar: type[Liar]) -> None:
    with pytest.raises(ManagerError, match=r"get_adjacent\(\d+\)"):
        _sweep(liar(OPEN))  # a RuntimeError here would be a move onto a mine


def test_an_endless_neighbour_iterator_is_read_no_further_than_nine() -> None:
    class Endless(Liar):
        def get_adjacent(self, index: int) -> Iterable[int]:
            return itertools.count()

    with pytest.raises(ManagerError, match=r"get_adjacent\(0\) lists more than 8 cells"):
        _sweep(Endless(OPEN))


@pytest.mark.parametrize(
    ("ring", "why"),
    [([1.0, 7.0, 8.0], "lists 1.0, not a cell index"), (None, "not a list of cells")],
)
def test_neighbours_that_are_not_cells_are_named(ring: object, why: str) -> None:
    class Odd(Liar):
        def get_adjacent(self, index: int) -> object:
            return ring

    with pytest.raises(ManagerError, match=why):
        _sweep(Odd(OPEN))


@pytest.mark.parametrize("clue", [0.0, 1.5, True, None, "0"])
def test_a_clue_that_is_not_an_int_is_refused(clue: object) -> None:
    class Odd(Liar):
        def move(self, index: int) -> object:
            return clue

    with pytest.raises(ManagerError, match=r"move\(0\) answered .*not a clue") as caught:
        _sweep(Odd(OPEN))
    assert caught.value.cell == 0 and caught.value.value is clue


@pytest.mark.parametrize("clue", [-1, 4, 9])
def test_a_clue_outside_0_to_its_neighbours_is_refused(clue: int) -> None:
    class Odd(Liar):
        def move(self, index: int) -> object:
            return clue

    with pytest.raises(ManagerError, match=f"clue {clue} at cell 0, which has 3 neighbour"):
        _sweep(Odd(OPEN))


def test_a_numpy_style_integer_clue_is_taken_as_an_int() -> None:
    class Integral(int):
        pass

    class Odd(Liar):
        def move(self, index: int) -> object:
            return Integral(self.true.move(index))

    sweep = Sweep(Odd(OPEN))  # type: ignore[arg-type]
    report = sweep.run()
    assert report.solved and all(type(v) is int for row in report.board for v in row)


@pytest.mark.parametrize("start", [5, -1, 2, 1.0, "0", None])
def test_a_start_off_the_board_is_named_with_the_board_size(start: object) -> None:
    with pytest.raises(StartError, match=r"start .* is not a cell of the 1x2 board") as caught:
        Sweep(BoardManager([[0, 0]]), start=start)  # type: ignore[arg-type]
    assert caught.value.start == start and (caught.value.rows, caught.value.cols) == (1, 2)
    assert isinstance(caught.value, MineshaftedError)


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_honest_managers_in_any_order_pass_every_check(
    rows: int, cols: int, data: st.DataObject
) -> None:
    cells = rows * cols
    mines = data.draw(st.sets(st.integers(1, cells - 1), max_size=cells // 3)) if cells > 1 else []
    board = Board.from_mines(rows, cols, mines)
    Sweep(CourseManager(board.to_grid())).run()  # reverse row-major rings, no error


# Each lie named exactly: the reason, the cell and the answer.

WHERE = "the board manager is at fault: get_adjacent(0) on the 6x7 board the manager's size gives"


class Lying(Liar):
    """A true ``BoardManager`` that gives a chosen ring for cell 0 and chosen clues."""

    def __init__(
        self, board: Board, ring: object = None, clues: dict[int, int] | None = None
    ) -> None:
        super().__init__(board)
        self.ring = ring
        self.clues = clues or {}

    def move(self, index: int) -> object:
        clue = self.true.move(index)
        return self.clues.get(index, clue)

    def get_adjacent(self, index: int) -> Iterable[object]:
        if index == 0 and self.ring is not None:
            return self.ring  # type: ignore[return-value]
        return self.true.get_adjacent(index)


@pytest.mark.parametrize(
    ("ring", "why"),
    [
        ([1, 7, 42], "lists 42 off the board"),
        ([0, 1, 42], "lists 42 off the board"),
        ([-1, 7, 8], "lists -1 off the board"),
        ([7, 8, 1, 42, 43], "lists 42 off the board"),
        ([0, 1, 8], "lists the cell itself"),
        ([1, 1, 7], "lists a cell twice"),
        ([1, 7, 9], "lists [9] (not neighbours) and misses [8]"),
        ([1, 7], "misses [8]"),
        ([1, 7, 8, 9], "lists [9] (not neighbours)"),
    ],
)
def test_a_wrong_ring_is_named_with_its_reason_cell_and_value(ring: list[int], why: str) -> None:
    with pytest.raises(ManagerError) as caught:
        _sweep(Lying(OPEN, ring))
    assert str(caught.value) == f"{WHERE} {why}"
    assert caught.value.cell == 0
    assert caught.value.value == tuple(ring)


def test_a_ring_that_cannot_be_iterated_is_named_with_its_cell_and_value() -> None:
    with pytest.raises(ManagerError, match=r"get_adjacent\(0\) answered 5, not a list") as caught:
        _sweep(Lying(OPEN, 5))
    assert caught.value.cell == 0
    assert caught.value.value == 5


def test_a_ring_of_nine_is_named_with_its_cell_and_the_nine_read() -> None:
    with pytest.raises(ManagerError, match="lists more than 8 cells") as caught:
        _sweep(Lying(OPEN, iter(range(1, 20))))
    assert caught.value.cell == 0
    assert caught.value.value == tuple(range(1, 10))


class Tuples(Liar):
    """An honest manager whose rings are tuples, not lists: they go through the slow reader."""

    def get_adjacent(self, index: int) -> Iterable[int]:
        return tuple(self.true.get_adjacent(index))


def test_an_inner_cell_with_eight_neighbours_as_a_tuple_is_accepted() -> None:
    board = Board.from_mines(4, 4, [15])
    report = Sweep(Tuples(board)).run()  # type: ignore[arg-type]
    assert report.solved
    assert report.board == board.to_grid()


def test_a_clue_too_large_for_its_ring_is_named_with_its_cell_and_value() -> None:
    with pytest.raises(ManagerError, match="clue 4 at cell 0, which has 3 neighbour") as caught:
        _sweep(Lying(OPEN, clues={0: 4}))
    assert caught.value.cell == 0
    assert caught.value.value == 4


def test_a_clue_the_others_leave_no_room_for_names_its_cell() -> None:
    # 2x2, no mines: 0 says 0, so 1, 2 and 3 are safe; then 1 says 1 with no unknown neighbour.
    board = Board.from_mines(2, 2, [])
    with pytest.raises(ContradictionError) as caught:
        _sweep(Lying(board, clues={1: 1}))
    assert str(caught.value) == (
        "clue 1 at cell 1 cannot hold: 1 mine(s) left to place among 0 unknown neighbour(s)"
    )
    assert caught.value.cells == (1,)
