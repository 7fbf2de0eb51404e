"""The limits a grading child runs under: time, memory, CPU, files, disk, processes, output."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from .errors import GradingError

__all__ = [
    "MIB",
    "MICROSECONDS_PER_CELL",
    "MIN_TIMEOUT",
    "RESULT_LISTS",
    "Limits",
    "board_timeout",
]

MIB = 1024 * 1024
"""Bytes in a mebibyte."""

MIN_TIMEOUT = 30.0
"""The default wall-clock limit of a board, in seconds, whatever its size."""

MICROSECONDS_PER_CELL = 100
"""The default wall-clock allowance per cell, in microseconds: about 4 times what a move costs
over the pipe (about 23 µs), so a solver that opens every cell once stays far below it."""


RESULT_LISTS = 4096
"""Lists (and objects) a result line may hold whatever the board: enough to describe a wrong
board of a few thousand rows, at most about 230 KiB once parsed."""


def board_timeout(cells: int) -> float:
    """The default wall-clock limit of a board: ``max(30 s, cells x 100 µs)``.

    Examples
    --------
    >>> board_timeout(16 * 30), board_timeout(1000 * 1000)
    (30.0, 100.0)
    """
    return max(MIN_TIMEOUT, cells * MICROSECONDS_PER_CELL / 1_000_000)


@dataclass(frozen=True)
class Limits:
    """What one grading child may use, and what the grader accepts from it.

    The child sets its own operating-system limits (memory, CPU time, file size, processes,
    no core file) from its command line before it imports the submission; the parent
    enforces the wall-clock time and the caps on what it reads, and, where it can make a
    control group for the board (:mod:`.cgroup`), the memory and the number of all the
    board's processes together; bubblewrap, where it is the sandbox, the size of the
    child's ``/tmp``.

    Parameters
    ----------
    timeout:
        Wall-clock seconds from the start of the child to its import's end, and again from
        the call of ``sweep_mines`` to its answer.
    memory_mb:
        Address-space limit of each process (``RLIMIT_AS``), in MiB; in a board's control
        group, also the memory of all its processes together, with its ``/tmp``
        (:attr:`group_memory_bytes`).
    file_mb:
        Largest file the child may write (``RLIMIT_FSIZE``), in MiB.
    disk_mb:
        Size of the sandbox's private ``/tmp``, in MiB: all the child may write, in all.
    processes:
        Processes and threads the board may run at once: its control group's ``pids.max``
        where one is made, else the child's user's ``RLIMIT_NPROC`` (which counts every
        process of that user, and which the kernel does not hold root to; a root grader's
        board without a sandbox has a user of its own, :mod:`.users`, so it counts that board
        alone). A PID namespace or the grader's sweep still ends them all with the board.
    output_cap:
        Bytes of the child's output kept; the rest is counted, not kept.
    message_cap:
        Longest protocol message accepted from the child, in bytes, but for a result, which
        may be as long as the board needs (:meth:`result_caps`).
    grace:
        Seconds the child may take to exit once its game is decided.

    Raises
    ------
    GradingError
        A limit is not positive.

    Examples
    --------
    >>> limits = Limits(timeout=1.5, memory_mb=256)
    >>> limits.cpu_seconds, limits.memory_bytes == 256 * MIB
    (5, True)
    >>> limits.child_arguments()[:2]
    ['--memory', '268435456']
    """

    timeout: float = 30.0
    memory_mb: int = 1024
    file_mb: int = 64
    disk_mb: int = 64
    processes: int = 64
    output_cap: int = 64 * 1024
    message_cap: int = 64 * 1024
    grace: float = 2.0

    def __post_init__(self) -> None:
        for limit in fields(self):  # every field is a limit, and positive
            if not getattr(self, limit.name) > 0:
                raise GradingError(f"the grading limit {limit.name} must be positive")

    @property
    def memory_bytes(self) -> int:
        """The address-space limit in bytes."""
        return self.memory_mb * MIB

    @property
    def group_memory_bytes(self) -> int:
        """The memory of a board's processes together: :attr:`memory_mb` and its ``/tmp``.

        A file written to the sandbox's ``/tmp`` (at most :attr:`disk_mb`) is memory charged
        to the board, so it is added: a single process gets its full address space as before.

        Examples
        --------
        >>> Limits(memory_mb=512, disk_mb=64).group_memory_bytes // MIB
        576
        """
        return (self.memory_mb + self.disk_mb) * MIB

    @property
    def file_bytes(self) -> int:
        """The file-size limit in bytes."""
        return self.file_mb * MIB

    @property
    def cpu_seconds(self) -> int:
        """The CPU-time limit: twice the wall-clock limit rounded up (the import's and the
        sweep's), plus one second.

        A busy child meets the wall-clock limit first; the CPU limit stops a child the
        parent could not stop in time.
        """
        return 2 * math.ceil(self.timeout) + 1

    def result_caps(self, rows: int, cols: int) -> tuple[int, int]:
        """The longest result line read on a ``rows x cols`` board, and its most lists.

        A right board is ``rows`` lists of ``cols`` ints of one or two characters, so its
        line is under ``4 x (cells + rows) + 64`` bytes with ``rows + 1`` lists; anything
        bigger is refused unparsed, so what the grader builds from a line stays within a
        small multiple of the board (at least :attr:`message_cap` bytes and
        :data:`RESULT_LISTS` lists are allowed, so that a small wrong board is still
        described).

        Examples
        --------
        >>> Limits().result_caps(1000, 1000)
        (4004064, 4096)
        >>> Limits().result_caps(5000, 2)
        (65536, 5002)
        """
        size = 4 * (rows * cols + rows) + 64
        return max(size, self.message_cap), max(rows + 2, RESULT_LISTS)

    def child_arguments(self) -> list[str]:
        """The options that pass these limits to the child script."""
        return [
            "--memory",
            str(self.memory_bytes),
            "--cpu",
            str(self.cpu_seconds),
            "--file-size",
            str(self.file_bytes),
            "--processes",
            str(self.processes),
        ]
