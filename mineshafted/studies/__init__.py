"""Studies: many games across processes or a Dask cluster; results files; summaries; figures.

:mod:`.study` (run the games of a classic-play study, resumably), :mod:`.journal` (its
results file, one line per game), :mod:`.summary` (win rate with a 95% Wilson interval),
:mod:`.errors`; :mod:`.labs` (the course labs' density and presets studies of the agents)
and :mod:`.figures` (their plots, with the optional matplotlib).
"""

from __future__ import annotations

from .errors import JournalError, MissingExtraError, SchedulerError, StudyError
from .journal import GameLine, Journal, StudyKey, open_journal
from .study import LOCAL, Finished, Study, game_seed, play_one, run_study
from .summary import Summary, summarise, wilson

__all__ = [
    "LOCAL",
    "Finished",
    "GameLine",
    "Journal",
    "JournalError",
    "MissingExtraError",
    "SchedulerError",
    "Study",
    "StudyError",
    "StudyKey",
    "Summary",
    "game_seed",
    "open_journal",
    "play_one",
    "run_study",
    "summarise",
    "wilson",
]
