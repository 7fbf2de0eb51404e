"""Files the package reads and writes at paths it is given: read only when regular, written
whole beside themselves, and never over what may not be replaced.

Glossary
--------
regular file
    What ``stat`` calls one: not a folder, device, FIFO or socket. Only a regular file is
    read (a FIFO would wait for a writer, a device may never end) or replaced.
target
    A file written at a path given from outside (``--out``, ``--record``, ``--log``). An
    existing target is replaced only when asked (``force``), and only when it is a regular
    file: a device, a FIFO, a socket or a folder is refused, and so is a symbolic link (it is
    not followed, even to a regular file). What is written goes to a file beside the target
    and takes its name only once it is whole: a failure leaves the target as it was and
    nothing half-written behind.
results file
    A target that is appended to and resumed (``play --out``, an experiment's
    ``STUDY.jsonl``): it may exist, but only as a regular file.
output folder
    A folder targets are written into (``generate --out``): it may exist, but only as a
    folder (one reached through a symbolic link is a folder).

Every refusal is an :class:`~mineshafted.errors.InputError` (reading) or a
:class:`~mineshafted.errors.TargetError` (writing) whose message is one line starting with the
path: ``PATH: not a regular file (a FIFO)``, ``PATH: exists (use --force to replace it)``.
"""

from __future__ import annotations

from .regular import NOT_REGULAR, PathText, file_kind, open_regular, read_regular
from .targets import EXISTS, check_folder, check_results, check_target, replacing, write_whole

__all__ = [
    "EXISTS",
    "NOT_REGULAR",
    "PathText",
    "check_folder",
    "check_results",
    "check_target",
    "file_kind",
    "open_regular",
    "read_regular",
    "replacing",
    "write_whole",
]
