"""The limits a grading child runs under: wall-clock time, memory, CPU, file size, output."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import GradingError

__all__ = ["MIB", "Limits"]

MIB = 1024 * 1024
"""Bytes in a mebibyte."""


@dataclass(frozen=True)
class Limits:
    """What one grading child may use, and what the grader accepts from it.

    The child sets its own operating-system limits (memory, CPU time, file size, no core
    file) from its command line before it imports the submission; the parent enforces the
    wall-clock time and the caps on what it reads.

    Parameters
    ----------
    timeout:
        Wall-clock seconds from the start of the child to its answer.
    memory_mb:
        Address-space limit (``RLIMIT_AS``), in MiB.
    file_mb:
        Largest file the child may write (``RLIMIT_FSIZE``), in MiB.
    output_cap:
        Bytes of the child's output kept; the rest is counted, not kept.
    message_cap:
        Longest protocol message accepted from the child, in bytes.
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
    (3, True)
    >>> limits.child_arguments()[:2]
    ['--memory', '268435456']
    """

    timeout: float = 30.0
    memory_mb: int = 1024
    file_mb: int = 64
    output_cap: int = 64 * 1024
    message_cap: int = 64 * MIB
    grace: float = 2.0

    def __post_init__(self) -> None:
        for name in ("timeout", "memory_mb", "file_mb", "output_cap", "message_cap", "grace"):
            if not getattr(self, name) > 0:
                raise GradingError(f"the grading limit {name} must be positive")

    @property
    def memory_bytes(self) -> int:
        """The address-space limit in bytes."""
        return self.memory_mb * MIB

    @property
    def file_bytes(self) -> int:
        """The file-size limit in bytes."""
        return self.file_mb * MIB

    @property
    def cpu_seconds(self) -> int:
        """The CPU-time limit: the wall-clock limit rounded up, plus one second.

        A busy child meets the wall-clock limit first; the CPU limit stops a child the
        parent could not stop in time.
        """
        return math.ceil(self.timeout) + 1

    def child_arguments(self) -> list[str]:
        """The options that pass these limits to the child script."""
        return [
            "--memory",
            str(self.memory_bytes),
            "--cpu",
            str(self.cpu_seconds),
            "--file-size",
            str(self.file_bytes),
        ]
