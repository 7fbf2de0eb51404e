"""Studies: many games of one kind across processes or a Dask cluster; results files; figures.

:mod:`.study` (the one runner: any study kind, here, in processes or on Dask, resumably),
:mod:`.journal` (its results file, one line per game), :mod:`.errors`; the study kinds:
:mod:`.classic` (classic games, ``mineshafted play``), :mod:`.boards` (classic games on the
boards of a file, ``play --boards``), :mod:`.density` and :mod:`.presets`
(the course labs' studies of the agents, on :mod:`.paired` boards); :mod:`.summary` (win rate
with a 95% Wilson interval), :mod:`.labs` (the labs' presets and table rows) and
:mod:`.figures` (their plots, with the optional matplotlib); :mod:`.compare` (two players'
results on the same games, paired game by game).
"""

from __future__ import annotations

from .boards import BoardsPart, BoardsStudy, boards_study
from .classic import ClassicGames, GameLine, Study, game_seed, play_one
from .compare import Paired, Results, compare, mcnemar, newcombe, pair, read_results
from .density import DensityStudy, density_study
from .errors import BoardsError, JournalError, MissingExtraError, SchedulerError, StudyError
from .journal import Journal, Line, open_journal
from .paired import BoardLine, PairedBoard
from .presets import PresetsStudy, preset_game, presets_study
from .study import LOCAL, Finished, Kind, Parts, Player, run_study
from .summary import Summary, summarise, wilson

__all__ = [
    "LOCAL",
    "BoardLine",
    "BoardsError",
    "BoardsPart",
    "BoardsStudy",
    "ClassicGames",
    "DensityStudy",
    "Finished",
    "GameLine",
    "Journal",
    "JournalError",
    "Kind",
    "Line",
    "MissingExtraError",
    "Paired",
    "PairedBoard",
    "Parts",
    "Player",
    "PresetsStudy",
    "Results",
    "SchedulerError",
    "Study",
    "StudyError",
    "Summary",
    "boards_study",
    "compare",
    "density_study",
    "game_seed",
    "mcnemar",
    "newcombe",
    "open_journal",
    "pair",
    "play_one",
    "preset_game",
    "presets_study",
    "read_results",
    "run_study",
    "summarise",
    "wilson",
]
