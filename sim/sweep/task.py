"""One chunk as a task: what a local sweep and a Dask worker (sim.distributed) both execute.  A sweep's chunk belongs
to one configuration (part files under `<table>/config=K/`); a run's chunk (config None, `sim run --scheduler`) to
the run folder itself."""

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from ..check import Expect, chunk_state, expected_columns, seat_rows
from ..game import get_game
from ..results import chunk_tables, part_name, write_chunk
from ..runner import simulate
from .stats import chunk_stats


@dataclass
class Task:
    """One configuration chunk: plays games [start, stop) of configuration `config` and writes one part file
    per table under `<folder>/<table>/config=K/`.  Everything a remote worker needs travels in the task."""

    game: object  # a game name, or the GameSpec itself for games registered outside sim/games
    design: object
    pvec: np.ndarray
    seed: int
    folder: str
    config: int  # the sweep configuration; None: a chunk of a run folder
    chunk: int
    start: int
    stop: int
    replay: bool = False  # the chunk's files on disk failed sim.check: play it again whatever is there
    run_id: str = None  # the sweep's request id (sim.check.request_id), written into each chunk's record

    @property
    def partition(self):
        return None if self.config is None else f"config={self.config}"

    @property
    def where(self):
        """The task in messages: 'config=2 chunk=5' (a sweep's), 'chunk 5' (a run's)."""
        return f"chunk {self.chunk}" if self.config is None else f"config={self.config} chunk={self.chunk}"

    @property
    def key(self):
        return f"sweep-{hashlib.sha1(self.folder.encode()).hexdigest()[:8]}-c{self.config}-k{self.chunk}"


def game_ref(spec):
    """How a task names its game: by name if it is one of sim/games (a worker imports it), else the GameSpec itself
    (a game registered in this process only, such as the tests' toys, travels whole)."""
    from ..game import game_names

    return spec.name if spec.name in game_names() else spec


_KERNEL_LOCK = threading.Lock()  # one kernel call at a time per process: each already uses all cores


def read_part_stats(spec, folder, config, chunk):
    """Statistics of a chunk already on disk."""
    part = f"config={config}"
    tables = {name: pq.read_table(Path(folder) / name / part / part_name(chunk)) for name in ("games", "seats")}
    return chunk_stats(spec, tables)


def execute_task(task):
    """Play and write one task (idempotent: a finished chunk is read, not replayed); returns its statistics."""
    spec = get_game(task.game) if isinstance(task.game, str) else task.game
    state, _ = chunk_state(task.folder, task.chunk, task_expect(spec, task, run_id=task.run_id), task.partition)
    if state == "done" and not task.replay:  # (a task run twice: Dask re-runs a lost worker's tasks)
        return read_part_stats(spec, task.folder, task.config, task.chunk)
    with _KERNEL_LOCK:
        arrays = simulate(spec, task.design, task.pvec, task.seed, task.start, task.stop)
    tables = chunk_tables(spec, task.design, task.start, arrays)
    record = write_chunk(task.folder, task.chunk, tables, task.partition, task.run_id)
    return {**chunk_stats(spec, tables), "_record": record}


def task_expect(spec, task, record=None, checksum=True, run_id=None):
    """What the task's part files must hold (sim.check): one player count per configuration; a run's chunk may
    span several."""
    d = task.design
    if task.config is None:
        rows = seat_rows(d.player_counts, d.games, task.start, task.stop)
    else:
        rows = (task.stop - task.start) * d.player_counts[0]
    return Expect(task.start, task.stop, rows, expected_columns(spec), record, checksum, run_id)
