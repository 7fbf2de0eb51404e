"""Similarity: pairs of submissions whose code is alike, the code given to the class left out.

Each file is fingerprinted as MOSS does, with copydetect's parts (an optional extra: ``pip
install 'mineshafted[similarity]'``): its tokeniser (``copydetect.utils.filter_code``: names
become ``V``, ``F`` or ``O``, strings ``S``, comments and whitespace go, so renamed variables
and moved lines still match), then every k-gram of the normalised code is hashed and
winnowed (``copydetect.utils.winnow``: the rightmost least hash of each window is kept).

The hash is ours, not copydetect's: its ``hashed_kgrams`` is Python's ``hash()`` of each
k-gram, salted afresh in every process (``PYTHONHASHSEED``), so which fingerprints winnowing
kept, and so every figure, changed between two runs on the same class (by up to 12 points).
:func:`_kgram_hashes` is BLAKE2b of the k-gram's UTF-8 (53 bits of it, so the float buffer
of copydetect's winnowing holds it exactly): the same on every run and every machine with
the same copydetect and Pygments.

Code given to the class counts for no one: the starter file's fingerprints (``--starter``),
and, even without it, every fingerprint found in more than :data:`COMMON` of the submissions
(and in at least :data:`COMMON_LEAST` of them), as MOSS's ``-m`` ignores a passage found in
more than m files. Students keep the starter, so its code is in every file; a copied passage
is in a few. So the starter alone never pairs two students.

For a pair, each side's share is the part of its own tokens (those left once the given code
is out) found in the other, as copydetect counts it (``get_copied_slices`` over the shared
fingerprints, over ``get_token_coverage``); a pair is reported when either share reaches
:data:`THRESHOLD`, and each student's most similar peer is the one holding the largest share
of their code.

Glossary
--------
given code
    Fingerprints that count for no one: the starter's, and those common to the class.
share
    The part of one student's tokens found in another's code, from 0 to 1.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GradingError

__all__ = [
    "COMMON",
    "COMMON_LEAST",
    "NOISE",
    "THRESHOLD",
    "WINDOW",
    "Pair",
    "SimilarityUnavailable",
    "compare",
]

logger = logging.getLogger(__name__)

NOISE = 25
"""Matches shorter than this many characters of normalised code are ignored (copydetect's
``noise_t``): the k of its k-grams."""

WINDOW = 6
"""The winnowing window (copydetect's ``guarantee_t`` of 30 less ``noise_t``, plus one): a
match of 30 characters is always found."""

THRESHOLD = 0.33
"""The share from which a pair is reported (copydetect's own display threshold)."""

COMMON = 0.5
"""A fingerprint found in more than this part of the submissions is given code (common to
the class), counted for no one."""

COMMON_LEAST = 3
"""...and only when at least this many submissions hold it: in a class of two or three, a
passage two students share is theirs, not the class's (give ``--starter`` there)."""

_HASH_BITS = 53
"""Bits of each k-gram's hash kept: a float (copydetect's winnowing buffer) holds them exactly."""


class SimilarityUnavailable(GradingError):
    """copydetect is not installed."""


@dataclass(frozen=True)
class Pair:
    """Two students whose code is alike."""

    first: str
    second: str
    first_share: float
    """The part of ``first``'s code found in ``second``'s (0 to 1)."""
    second_share: float
    tokens: int
    """Tokens of ``first``'s code found in ``second``'s."""

    @property
    def share(self) -> float:
        """The larger of the two shares."""
        return max(self.first_share, self.second_share)


@dataclass(frozen=True)
class _Fingerprints:
    """One file's fingerprints: each hash kept, with where it starts in the normalised code."""

    at: dict[int, list[int]]
    length: int
    """Characters of normalised code."""


def compare(
    sources: Mapping[str, bytes],
    starter: bytes | None = None,
    *,
    threshold: float = THRESHOLD,
    common: float = COMMON,
) -> tuple[list[Pair], dict[str, tuple[str, float]]]:
    """Compare every two submissions, the code given to the class left out.

    Parameters
    ----------
    sources:
        Each student's code.
    starter:
        The starter code every student was given: its fingerprints count for no one.
    threshold:
        The share from which a pair is reported.
    common:
        The part of the submissions past which a fingerprint is common to the class and
        counts for no one (with at least :data:`COMMON_LEAST` submissions holding it); 1
        keeps every fingerprint.

    Returns
    -------
    tuple
        The pairs at or above ``threshold``, most similar first; and each student's most
        similar peer with the share of their code found in it (students with no peer, or
        with nothing in common with anyone, are left out). The same sources give the same
        figures on every run.

    Raises
    ------
    SimilarityUnavailable
        copydetect is not installed.

    Notes
    -----
    O(c) to fingerprint c characters of code in all, then O(n²) comparisons of fingerprint
    sets for n students (each O(fingerprints)); a file that cannot be tokenised is left out,
    with a warning.
    """
    utils = _copydetect()
    prints: dict[str, _Fingerprints] = {}
    for name, code in sources.items():
        try:
            prints[name] = _fingerprints(utils, code)
        except Exception as error:  # copydetect's tokenizer on any text
            logger.warning("%s: left out of the similarity check: %s", name, error)
    given = _common(prints.values(), common)
    if starter is not None:
        given |= set(_fingerprints(utils, starter).at)
    kept = {name: _without(found, given) for name, found in prints.items()}
    coverage = {
        name: float(utils.get_token_coverage(found.at, NOISE, found.length))
        for name, found in kept.items()
    }
    names = sorted(kept)
    pairs: list[Pair] = []
    best: dict[str, tuple[str, float]] = {}
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            tokens_1, tokens_2 = _overlap(utils, kept[first], kept[second])
            if not tokens_1:
                continue
            share_1, share_2 = tokens_1 / coverage[first], tokens_2 / coverage[second]
            for me, peer, share in ((first, second, share_1), (second, first, share_2)):
                if share > best.get(me, ("", 0.0))[1]:
                    best[me] = (peer, share)
            if max(share_1, share_2) >= threshold:
                pairs.append(Pair(first, second, share_1, share_2, tokens_1))
    pairs.sort(key=lambda pair: (-pair.share, pair.first, pair.second))
    return pairs, best


def require() -> None:
    """Refuse at once, before any grading, when copydetect (the ``similarity`` extra) is not
    installed.

    Raises
    ------
    SimilarityUnavailable
        copydetect cannot be imported; the message names the extra to install.
    """
    _copydetect()


def _copydetect() -> Any:
    """copydetect's ``utils`` module, or :class:`SimilarityUnavailable`."""
    try:
        from copydetect import utils  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise SimilarityUnavailable(
            "--similarity needs copydetect: pip install 'mineshafted[similarity]'"
        ) from None
    return utils


def _fingerprints(utils: Any, code: bytes) -> _Fingerprints:
    """The winnowed fingerprints of one file's code (Python, normalised by copydetect)."""
    import numpy as np

    normalised, _ = utils.filter_code(code.decode("utf-8", "replace"), "submission.py")
    hashes = np.array(_kgram_hashes(normalised, NOISE), dtype=np.int64)
    kept, starts = utils.winnow(hashes, WINDOW, remove_duplicates=False)
    at: dict[int, list[int]] = {}
    for value, start in zip(kept.tolist(), starts.tolist(), strict=True):
        at.setdefault(value, []).append(start)
    return _Fingerprints(at, len(normalised))


def _kgram_hashes(text: str, k: int) -> list[int]:
    """A stable hash of every k-gram of ``text``, in order.

    Examples
    --------
    >>> _kgram_hashes("abcd", 3) == [_kgram_hashes("abc", 3)[0], _kgram_hashes("bcd", 3)[0]]
    True
    """
    data = text.encode("utf-8", "surrogatepass")
    if len(data) == len(text):  # ASCII: byte offsets are character offsets
        grams: Iterable[bytes] = (data[i : i + k] for i in range(len(text) - k + 1))
    else:
        grams = (text[i : i + k].encode("utf-8", "surrogatepass") for i in range(len(text) - k + 1))
    shift = 64 - _HASH_BITS
    return [
        int.from_bytes(hashlib.blake2b(gram, digest_size=8).digest(), "big") >> shift
        for gram in grams
    ]


def _common(prints: Iterable[_Fingerprints], share: float) -> set[int]:
    """The fingerprints found in more than ``share`` of the files (and in at least
    :data:`COMMON_LEAST` of them)."""
    listed = list(prints)
    holding = Counter(value for found in listed for value in found.at)
    least = max(COMMON_LEAST, int(share * len(listed)) + 1)
    return {value for value, files in holding.items() if files >= least}


def _without(found: _Fingerprints, given: set[int]) -> _Fingerprints:
    """``found`` less the given fingerprints."""
    return _Fingerprints({h: at for h, at in found.at.items() if h not in given}, found.length)


def _overlap(utils: Any, first: _Fingerprints, second: _Fingerprints) -> tuple[int, int]:
    """Tokens of each side's code covered by the fingerprints the two share."""
    if not first.at.keys() & second.at.keys():
        return 0, 0
    at_1, at_2 = utils.find_fingerprint_overlap(set(first.at), set(second.at), first.at, second.at)
    slices_1 = utils.get_copied_slices(at_1, NOISE)
    slices_2 = utils.get_copied_slices(at_2, NOISE)
    return int((slices_1[1] - slices_1[0]).sum()), int((slices_2[1] - slices_2[0]).sum())
