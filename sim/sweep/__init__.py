"""Balance sweeps: many configurations of one game, played in resumable chunks, locally or on a Dask cluster.

A sweep is a TOML file (or the same thing as command-line flags) naming a game, player counts, line-ups, games
per configuration, a seed, fixed parameter overrides and a grid over parameters by dotted name::

    game = "toy_pig"
    players = "2-4"            # each player count is its own configuration
    games = 20000              # games per configuration (the first round when adaptive)
    seed = 1
    lineup = ["hold20", "hold10"]          # or lineups = [[...], [...]] to sweep line-ups
    chunk_size = 5000          # games per task (one part file)

    [set]                      # fixed overrides for every configuration
    turn_cap = 300

    [grid]                     # cartesian product of these lists
    target = [20, 40, 60]

    [zip]                      # lists of equal length, taken together (one more axis of the product)
    bust_face = [1, 2]
    turn_cap = [200, 400]

    [adaptive]                 # optional: add games until the interval is narrow enough
    metric = "order0_win_share"
    width = 0.02               # full width of the interval
    max_games = 200000

Configurations are numbered in the order of the product: grid axes in file order, then the zipped rows, then
player counts, then line-ups (the last varies fastest).  Every configuration uses the sweep's seed with the same
per-game seed scheme as a run (game k of every configuration plays seed index k: common random numbers across
configurations, so differences between configurations are measured on the same dice), which also makes the
results independent of where and in which order the tasks run.

Output folder::

    manifest.json                      the normalised sweep, every configuration's resolved parameters, status
    games/config=K/part-NNNNN.parquet  the run tables, hive-partitioned by configuration
    seats/config=K/...   items/config=K/...
    summary.parquet                    one row per configuration: parameters, games, key metrics with intervals

One task is one configuration chunk; its part files are written atomically (games last), so re-running the same
sweep after any interruption plays only the missing chunks.

The package is split by concern: `spec` parses and validates a sweep, `plan` expands its configurations and
budgets, `task` is one chunk (what a Dask worker runs), `run` executes and resumes, `folder` is the output
folder, `stats` the analysis of the results.
"""

from .folder import clean_partial_files, open_sweep_folder, read_sweep, write_summary
from .plan import MAX_CONFIGS, Config, Planner, describe, dry_run, estimate_seconds_per_game, expand
from .run import run_sweep, set_threads
from .spec import (
    ADAPTIVE_KEYS,
    DEFAULT_CHUNK,
    FILE_KEYS,
    Sweep,
    build_sweep,
    expand_values,
    field_digest,
    load_sweep_file,
    parse_player_counts,
    raw_from_study,
    sweep_hash,
    sweep_source,
)
from .stats import (
    DEFAULT_CONFIDENCE,
    MEAN_METRICS,
    PROPORTION_METRICS,
    add_stats,
    check_metric,
    chunk_stats,
    metric_interval,
    metric_variance,
    print_summary,
    summary_frame,
)
from .task import Task, execute_task, read_part_stats, task_expect

__all__ = [
    "ADAPTIVE_KEYS",
    "DEFAULT_CHUNK",
    "DEFAULT_CONFIDENCE",
    "FILE_KEYS",
    "MAX_CONFIGS",
    "MEAN_METRICS",
    "PROPORTION_METRICS",
    "Config",
    "Planner",
    "Sweep",
    "Task",
    "add_stats",
    "build_sweep",
    "check_metric",
    "chunk_stats",
    "clean_partial_files",
    "describe",
    "dry_run",
    "estimate_seconds_per_game",
    "execute_task",
    "expand",
    "expand_values",
    "field_digest",
    "load_sweep_file",
    "metric_interval",
    "metric_variance",
    "open_sweep_folder",
    "parse_player_counts",
    "print_summary",
    "raw_from_study",
    "read_part_stats",
    "read_sweep",
    "run_sweep",
    "set_threads",
    "summary_frame",
    "sweep_hash",
    "sweep_source",
    "task_expect",
    "write_summary",
]
