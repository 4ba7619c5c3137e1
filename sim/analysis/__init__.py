"""Analysis of simulation results: pandas in, pandas out, for every game (no per-game code).

    from sim.analysis import load_run, win_rates, seat_advantage, equality_tests, item_strength
    run = load_run("results/my_run")
    seats = run.seats(columns=["game", "players", "strategy", "order", "win", "win_share", "rank", "score"])
    seat_advantage(seats)        # win share by turn order vs 1/n, Wilson intervals, Holm-flagged
    equality_tests(seats)        # per player count: equal shares across positions? largest gap

Modules: load (reading runs and sweeps), stats (intervals and tests shared by all), winrates, seats (first-player
advantage), items (card / item strength), matchups (head-to-head, Bradley-Terry), shape (length, margins, ties,
points by source, end reasons), arc (lead changes, comebacks and runaway leads from the standings table of
`sim run --standings`), plotting (the lab's chart style), synthetic (fake results with known answers).
Each function's docstring says which outcome it uses (win or win_share) and what its interval means.
"""

from .load import Run, RunSet, game_key, load_run, load_runs, load_tables
from .winrates import win_rates, win_rates_by_players
from .seats import advantage_by, equality_tests, first_player_summary, indicator_effect, seat_advantage
from .items import (
    adjusted_effect,
    item_effects,
    item_strength,
    seat_attribute_strength,
    seat_label_columns,
    stratified_difference,
)
from .matchups import as_matrix, bradley_terry, matchup_matrix, pairwise_records
from .sides import downtime, parse_targets, side_rates
from .shape import end_reasons, length_distribution, length_summary, points_by_source, score_margins, tie_rates
from .stats import cluster_difference, cluster_rate, wilson
from .arc import comebacks, game_arcs, lead_changes, runaway_leads

__all__ = [
    "Run",
    "RunSet",
    "game_key",
    "load_run",
    "load_runs",
    "load_tables",
    "win_rates",
    "win_rates_by_players",
    "advantage_by",
    "equality_tests",
    "first_player_summary",
    "indicator_effect",
    "seat_advantage",
    "adjusted_effect",
    "item_strength",
    "item_effects",
    "stratified_difference",
    "seat_attribute_strength",
    "seat_label_columns",
    "as_matrix",
    "bradley_terry",
    "matchup_matrix",
    "pairwise_records",
    "end_reasons",
    "length_distribution",
    "length_summary",
    "points_by_source",
    "score_margins",
    "tie_rates",
    "cluster_difference",
    "cluster_rate",
    "wilson",
    "side_rates",
    "downtime",
    "parse_targets",
    "game_arcs",
    "lead_changes",
    "comebacks",
    "runaway_leads",
]
