"""The old path of :mod:`.weights`, kept for code written against it (issue 38).

A component's placements by number of mines are its *weights*; *count* is the ladder's
weakest rung. ``Count`` is :class:`~.weights.Weights`, ``count_component``
:func:`~.weights.weigh` and ``counted`` :func:`~.weights.weighed`.
"""

from __future__ import annotations

from .weights import MEMORY, CountTooLargeError, convolve, memory_budget
from .weights import Weights as Count
from .weights import weigh as count_component
from .weights import weighed as counted

__all__ = [
    "MEMORY",
    "Count",
    "CountTooLargeError",
    "convolve",
    "count_component",
    "counted",
    "memory_budget",
]
