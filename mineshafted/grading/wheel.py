"""The wheel of the installed ``mineshafted``: built from the package as it is installed.

An autograder's image must not need this repository: it installs a wheel. The wheel is built
from the package this process runs (the files of its folder, the shipped puzzles, and the
metadata of its installed distribution: name, version, dependencies, the console script), so
it works from an installed wheel as from an editable checkout, with no build tool and no
network. A wheel is a zip with a ``.dist-info`` folder (its ``METADATA``, ``WHEEL`` and a
``RECORD`` of every file's SHA-256 and size).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import zipfile
from pathlib import Path

__all__ = ["build_wheel", "wheel_name"]

_WHEEL = "Wheel-Version: 1.0\nGenerator: mineshafted\nRoot-Is-Purelib: true\nTag: py3-none-any\n"

_SKIPPED_PARTS = {"__pycache__"}
_SKIPPED_SUFFIXES = {".pyc", ".pyo"}

_EPOCH = (1980, 1, 1, 0, 0, 0)
"""The date every member is given: the same package makes the same wheel, byte for byte."""


def wheel_name() -> str:
    """The wheel's file name: ``mineshafted-VERSION-py3-none-any.whl``."""
    version = importlib.metadata.version("mineshafted")
    return f"mineshafted-{version}-py3-none-any.whl"


def build_wheel(folder: Path) -> Path:
    """Write the installed package's wheel into ``folder`` and return its path.

    Raises
    ------
    OSError
        It cannot be written.
    importlib.metadata.PackageNotFoundError
        ``mineshafted`` is not installed as a distribution (run from a bare source tree).

    Notes
    -----
    O(size of the package): about 2 MB, a fraction of a second.
    """
    from .grade import shipped_puzzles_root

    distribution = importlib.metadata.distribution("mineshafted")
    version = distribution.version
    package = Path(__file__).resolve().parent.parent
    members: list[tuple[str, bytes]] = []
    for path in sorted(package.rglob("*")):
        if path.is_file() and _kept(path.relative_to(package)):
            members.append(
                (f"mineshafted/{path.relative_to(package).as_posix()}", path.read_bytes())
            )
    puzzles = shipped_puzzles_root()
    if puzzles is not None and not puzzles.resolve().is_relative_to(package):
        for path in sorted(puzzles.rglob("*")):
            if path.is_file() and _kept(path.relative_to(puzzles)):
                relative = path.relative_to(puzzles).as_posix()
                members.append((f"mineshafted/puzzles/{relative}", path.read_bytes()))
    info = f"mineshafted-{version}.dist-info"
    metadata = (
        distribution.read_text("METADATA")
        or distribution.read_text("PKG-INFO")  # a source tree's egg-info (setuptools' build)
        or f"Metadata-Version: 2.1\nName: mineshafted\nVersion: {version}\n"
    )
    members.append((f"{info}/METADATA", metadata.encode()))
    members.append((f"{info}/WHEEL", _WHEEL.encode()))
    entry_points = distribution.read_text("entry_points.txt")
    if entry_points:
        members.append((f"{info}/entry_points.txt", entry_points.encode()))
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n" for name, data in members)
    record += f"{info}/RECORD,,\n"
    members.append((f"{info}/RECORD", record.encode()))
    target = folder / wheel_name()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in members:
            member = zipfile.ZipInfo(name, _EPOCH)
            member.external_attr = 0o644 << 16
            member.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(member, data)
    return target


def _kept(relative: Path) -> bool:
    return not (_SKIPPED_PARTS & set(relative.parts)) and relative.suffix not in _SKIPPED_SUFFIXES


def _digest(data: bytes) -> str:
    """A RECORD's hash: SHA-256 in URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
