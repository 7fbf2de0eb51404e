"""Studies: many games of one kind across processes or a Dask cluster; results files; figures.

:mod:`.study` (the one runner: any study kind, here, in processes or on Dask, resumably, in
bounded memory), :mod:`.kind` (what a study is to the runner), :mod:`.workers` (the processes
chunks are played in), :mod:`.cluster` (Dask), :mod:`.journal` (its results file, one line per
game), :mod:`.indices` (the finished games' indices, as runs), :mod:`.errors`; the study kinds:
:mod:`.classic` (classic games, ``mineshafted play``), :mod:`.boards` (classic games on the
boards of a file, ``play --boards``), :mod:`.density` and :mod:`.presets` (the course labs'
studies of the agents, on :mod:`.paired` boards); what a study's games are folded into as they
arrive: :mod:`.summary` (win rate with a 95% Wilson interval, its :class:`SummaryFold`),
:mod:`.labs` (the labs' presets, table rows and score moments) and :class:`TableFold`;
:mod:`.figures` (the labs' plots, with the optional matplotlib); :mod:`.compare` (two players'
results on the same games, paired game by game).
"""

from __future__ import annotations

from .boards import BoardsPart, BoardsStudy, boards_study
from .classic import ClassicGames, GameLine, Study, game_seed, play_one
from .cluster import LOCAL, SCHEMES, check_address
from .compare import Paired, Results, compare, mcnemar, newcombe, pair, read_results
from .density import DensityStudy, density_study
from .errors import BoardsError, JournalError, MissingExtraError, SchedulerError, StudyError
from .indices import Indices
from .journal import Journal, Line, open_journal
from .kind import Fold, Kind, Parts, Player
from .paired import BoardLine, LabStudy, PairedBoard, TableFold
from .presets import PresetsStudy, preset_game, presets_study
from .study import Finished, run_study
from .summary import Summary, SummaryFold, summarise, wilson

__all__ = [
    "LOCAL",
    "SCHEMES",
    "BoardLine",
    "BoardsError",
    "BoardsPart",
    "BoardsStudy",
    "ClassicGames",
    "DensityStudy",
    "Finished",
    "Fold",
    "GameLine",
    "Indices",
    "Journal",
    "JournalError",
    "Kind",
    "LabStudy",
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
    "SummaryFold",
    "TableFold",
    "boards_study",
    "check_address",
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
