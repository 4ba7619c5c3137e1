"""Run a study: N games per player count, in chunks, on all cores, streamed to parquet, resumable."""

import contextlib
import math
import platform
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

import numpy as np

from . import __version__, source_hash
from .errors import UserError
from .inputs import set_threads
from .game import get_game
from .knobs import describe_strategies
from .kernel import STATE_BLOCKS, TRACE_ROWS, has_standings, load_kernel, load_traced, new_states
from .lock import FolderLock
from .check import MAX_CHUNKS, MAX_GAMES, read_record, request_id
from .results import (
    chunk_tables,
    clean_temp_files,
    old_manifest,
    write_chunk,
    write_final_json,
    write_json,
)
from .seating import make_design

DEFAULT_CHUNK = 50_000
DEFAULT_GAMES = 10_000  # games per player count of a run
TRACED_CHUNK = 5_000  # default chunk of a --standings run: its trace buffers hold up to TRACE_ROWS rows a game
PACKAGES = ("numpy", "numba", "pyarrow", "pandas", "scipy", "statsmodels")


def package_versions():
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def check_seed(seed):
    try:
        if isinstance(seed, bool) or isinstance(seed, float) and not (math.isfinite(seed) and seed == int(seed)):
            raise ValueError
        seed = int(seed)
    except (TypeError, ValueError):
        raise UserError(f"--seed must be a whole number between 0 and 2**64-1 (got '{seed}')") from None
    if not 0 <= seed < 2**64:
        raise UserError(f"--seed must be between 0 and 2**64-1 (got {seed})")
    return seed


def output_buffers(game, n, standings=False):
    """The kernel's output arrays for up to n games.  A run allocates them once and passes them to every
    `simulate` call: fresh arrays each chunk cost page faults (several % of the run time).  standings: also the
    trace of `--standings` (sim.kernel_traced): per game up to TRACE_ROWS rows of a round and every seat's
    standing (float32: 9 KB a game at 8 seats, hence the smaller chunks of a traced run)."""
    eng = game.engine_module()
    out = {
        "game_int": np.empty((n, len(game.game_columns)), np.int64),
        "seat_int": np.empty((n, eng.MAX_PLAYERS, len(game.seat_columns)), np.int64),
        "seat_f": np.empty((n, eng.MAX_PLAYERS, 2), np.float64),
        "items": np.empty((n, eng.MAX_ITEMS, 3 + len(game.item_columns)), np.int64),
        "n_items": np.empty(n, np.int64),
        "steps": np.empty(n, np.int64),
    }
    if standings:
        out.update(
            {
                "t_round": np.empty((n, TRACE_ROWS), np.int32),
                "t_val": np.empty((n, TRACE_ROWS, eng.MAX_PLAYERS), np.float32),
                "t_rows": np.empty(n, np.int64),
            }
        )
    return out


def kernel_args(game, design, pvec, seed, start, stop, buffers=None, standings=False):
    """(output arrays, states, arguments) of the kernel's play_batch(states, *arguments) for games [start, stop)
    (standings: of its play_traced_batch, the trace arrays last)."""
    eng = game.engine_module()
    n = stop - start
    players, seed_index, rotation, strat = design.assign(start, stop, eng.MAX_PLAYERS)
    sids, weights = design.strategy_rows(game)  # the presets' knobs, with any strategy.* overrides
    if buffers is None or len(buffers["steps"]) < n or standings != ("t_rows" in buffers):
        buffers = output_buffers(game, n, standings)
    out = {
        "players": players,
        "seed_index": seed_index,
        "rotation": rotation,
        "strat": strat,
        **{k: v[:n] for k, v in buffers.items()},
    }
    states = new_states(eng, min(n, STATE_BLOCKS))  # reused block by block (see the kernel's play_blocks)
    args = (
        pvec,
        np.uint64(seed),
        seed_index,
        players,
        strat,
        sids,
        weights,
        out["game_int"],
        out["seat_int"],
        out["seat_f"],
        out["items"],
        out["n_items"],
        out["steps"],
    )
    if standings:
        args += (out["t_round"], out["t_val"], out["t_rows"])
    return out, states, args


def simulate(game, design, pvec, seed, start, stop, buffers=None, standings=False):
    """Play games [start, stop) of a design with parameter vector pvec; returns the kernel's output arrays.
    buffers: arrays from output_buffers() to play into (views of them are returned), else new ones.  The kernel
    writes every entry it returns, so reused buffers give the same results as fresh ones.  standings: play with
    the standings trace (the same games; the arrays t_round, t_val and t_rows added)."""
    out, states, args = kernel_args(game, design, pvec, seed, start, stop, buffers, standings)
    if standings:
        load_traced(game).play_traced_batch(states, *args)
    else:
        load_kernel(game).play_batch(states, *args)
    check_overflow(game, out)
    return out


def check_overflow(game, out):
    """Stop a run whose engine listed more legal actions than its MAX_ACTIONS (sim.toolkit.push): its games would
    otherwise be decided from a truncated list.  Nothing of the chunk is written."""
    from .kernel import LEGAL_OVERFLOW

    bad = np.flatnonzero(out["steps"] == LEGAL_OVERFLOW)
    if len(bad):
        i = int(bad[0])
        raise RuntimeError(
            f"{game.name}: a legal-action list outgrew MAX_ACTIONS={game.engine_module().MAX_ACTIONS} in "
            f"{len(bad)} game(s) of this chunk (first: seed index {int(out['seed_index'][i])}, "
            f"{int(out['players'][i])} players); the engine must raise MAX_ACTIONS"
        )


# MAX_GAMES (sim.check): per run or configuration; beyond it a run would take weeks and its ids outgrow the tables


def check_games(games, where="--games"):
    """A whole number of games from 1 to MAX_GAMES (UserError otherwise), refused before anything is written."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        try:
            if isinstance(games, float) and (not math.isfinite(games) or games != int(games)):
                raise ValueError
            games = int(games)
        except (TypeError, ValueError, OverflowError):
            raise UserError(f"{where} must be a whole number from 1 to {MAX_GAMES:.0e} (got {games!r})") from None
    games = int(games)
    if games < 1:
        raise UserError(f"{where} must be at least 1 (got {games})")
    if games > MAX_GAMES:
        raise UserError(f"{where} must be at most {MAX_GAMES:,} (got {games}): split the study into runs")
    return games


def bytes_per_game(game, standings=False):
    """Memory one game of a chunk takes while it is played and written, estimated from the design of the game's
    outputs: the two sets of kernel output buffers (output_buffers) plus the chunk's tables built from one of them
    (at most as large as the buffers)."""
    eng = game.engine_module()
    per = 8 * (
        len(game.game_columns)
        + eng.MAX_PLAYERS * (len(game.seat_columns) + 2)
        + eng.MAX_ITEMS * (3 + len(game.item_columns))
        + 2
    )
    if standings:
        per += TRACE_ROWS * (4 + 4 * eng.MAX_PLAYERS) + 8
    per += 8 * (3 + eng.MAX_PLAYERS)  # the design's per-game arrays (players, seed index, rotation, strategies)
    return 3 * per


def available_memory():
    """Bytes of memory available now (Linux MemAvailable, else physical memory), or None when unknown."""
    import os

    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def check_chunks(game, chunk_size, total, where="--chunk-size", standings=False):
    """Refuse, before anything is written, a chunk size that would need more memory than this machine has now
    (estimated from the game's design) or that splits the games into more than MAX_CHUNKS part files."""
    n_chunks = -(-total // chunk_size)
    if n_chunks > MAX_CHUNKS:
        raise UserError(
            f"{where} {chunk_size:,} splits {total:,} games into {n_chunks:,} chunks; at most {MAX_CHUNKS:,}: "
            f"use larger chunks"
        )
    need = bytes_per_game(game, standings) * min(chunk_size, total)
    have = available_memory()
    if have is not None and need > have:
        fit = max(1, have // bytes_per_game(game, standings))
        raise UserError(
            f"{where} {chunk_size:,}: a chunk of {min(chunk_size, total):,} {game.name} games needs about "
            f"{need / 1e9:,.1f} GB of memory and {have / 1e9:.1f} GB are available; use at most {fit:,} games "
            f"per chunk (the default is {DEFAULT_CHUNK:,})"
        )


def settings_hash(spec, design, pvec):
    """A short hash of every setting that differs from the game's defaults (parameters, line-up or fixed seats,
    rotations, strategy knobs), or '' when none does: part of the default --out name."""
    import hashlib
    import json

    changed = {}
    if spec.params.changed(pvec):
        changed["params"] = spec.params.changed(pvec)
    if design.mode != "rotate" or tuple(design.lineup) != tuple(spec.default_lineup):
        changed["seats"] = [design.mode, list(design.lineup)]
    if design.all_rotations:
        changed["all_rotations"] = True
    if design.mirror:
        changed["mirror"] = True
    if design.custom:  # strategy knobs changed (--set strategy.<preset>.<knob>, preset files)
        changed["knobs"] = design.to_dict()["custom_strategies"]
    if not changed:
        return ""
    return hashlib.sha1(json.dumps(changed, sort_keys=True, default=str).encode()).hexdigest()[:6]


def prepare(
    game, players=None, games=10_000, lineup=None, strategies=None, all_rotations=False, params=None, mirror=False
):
    """Validate a request: (GameSpec, Design, parameter vector). Raises UserError before anything is written."""
    spec = get_game(game) if isinstance(game, str) else game
    players = tuple(players) if players else (spec.default_players,)
    games = check_games(games)
    from .knobs import split_overrides

    params, knobs = split_overrides(params)  # strategy.<preset>.<knob> go to the design
    design = make_design(spec, players, games, lineup, strategies, all_rotations, knobs, mirror)
    pvec = spec.params.resolve(params)
    return spec, design, pvec


def open_run_folder(out, request, overwrite):
    """Create the run folder or check that an existing one holds the same request (then it is resumed, also with
    overwrite: it replaces only a different run, so a command that always passes it still resumes).  A corrupt
    manifest is refused, or replaced with overwrite.  The caller holds the folder's lock."""
    out = Path(out)
    old = old_manifest(out, overwrite)
    if old is not None and old.get("kind") != "sweep" and old.get("request") == request:
        return old
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            what = "a different run" if old is not None else "other files"
            diff = ""
            if old is not None:
                keys = sorted(
                    k
                    for k in set(old.get("request", {})) | set(request)
                    if old.get("request", {}).get(k) != request.get(k)
                )
                diff = f" (differs in: {', '.join(keys)})"
            raise UserError(f"{out} already holds {what}{diff}; choose another --out or pass --overwrite")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return None


def run_study(
    game,
    out,
    games=10_000,
    players=None,
    lineup=None,
    strategies=None,
    all_rotations=False,
    seed=0,
    params=None,
    chunk_size=None,
    threads=None,
    progress=True,
    overwrite=False,
    command=None,
    standings=False,
    mirror=False,
    scheduler=None,
):
    """`run` with the study given as keywords (the notebooks' and tests' form): see `run`."""
    from .study import Study

    study = Study(
        game,
        players=players or (),
        games=games,
        seed=seed,
        lineup=lineup,
        strategies=strategies,
        all_rotations=all_rotations,
        mirror=mirror,
        params=params or {},
        threads=threads,
        chunk_size=chunk_size,
        out=out,
        progress=progress,
        command=command,
    )
    return run(study, overwrite=overwrite, standings=standings, scheduler=scheduler)


def run(study, overwrite=False, standings=False, scheduler=None):
    """Play the study's games (default 10,000) per player count and write games/seats/items parquet tables plus
    manifest.json to `study.out` (standings: also the per-round standings table, for the report's arc; the games
    are the same).  scheduler: a dask.distributed scheduler's address (or a Client) that plays the chunks instead of
    this machine, with the same per-game seeds and so the same results; the folder must be shared with its workers.

    Re-running the same request on the same folder resumes it: finished chunks (validated by sim.check) are kept,
    the rest are played.  The folder is locked for the whole run (sim.lock).  Returns the run folder.
    """
    if study.out is None:
        raise ValueError("run(study): the study names no output folder (study.out)")
    spec, design, pvec = prepare(
        study.spec,
        study.players or None,
        study.games_or(DEFAULT_GAMES),
        list(study.lineup) if study.lineup else None,
        list(study.strategies) if study.strategies else None,
        study.all_rotations,
        study.overrides,
        study.mirror,
    )
    seed, chunk_size, threads, out = study.seed, study.chunk_size, study.threads, study.out
    progress, command = study.progress, study.command
    if standings and not has_standings(spec):
        raise UserError(
            f"--standings: {spec.name} records no standings (its engine defines no standings(s, p, "
            f"out)); run without --standings"
        )
    if standings and scheduler is not None:
        raise UserError("--standings runs play on this machine only; run without --scheduler")
    if chunk_size is None:  # (0 is refused by the Study, not taken for the default)
        chunk_size = TRACED_CHUNK if standings else DEFAULT_CHUNK
    chunk_size = min(chunk_size, max(design.total, 1))
    check_chunks(spec, chunk_size, design.total, standings=standings)
    set_threads(threads)
    request = {
        "game": spec.name,
        "design": design.to_dict(),
        "seed": seed,
        "params": spec.params.describe(pvec),
        "game_code": spec.code_version(),
    }
    if standings:
        request["standings"] = True  # only when asked: the request of a plain run is what it always was
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; choose another --out")
    from .distributed import cluster_client

    with cluster_client(scheduler) as client, FolderLock(out, "sim run"):  # the cluster reached before any write
        old = open_run_folder(out, request, overwrite)
        clean_temp_files(out)  # left by a run killed mid-write; we hold the lock, so none is live
        return _run_locked(spec, design, pvec, seed, out, old, request, chunk_size, progress, command, client)


def _run_locked(spec, design, pvec, seed, out, old, request, chunk_size, progress, command, client=None):
    import numba

    chunks = {}
    if old is not None:
        chunk_size, chunks = old.get("chunk_size"), old.get("chunks") or {}
        if (
            isinstance(chunk_size, bool)
            or not isinstance(chunk_size, int)
            or chunk_size < 1
            or not isinstance(chunks, dict)
        ):
            raise UserError(
                f"{out}/manifest.json is edited (chunk_size {chunk_size!r}); pass --overwrite to start the run afresh"
            )
    n_chunks = -(-design.total // chunk_size)
    manifest = {
        "game": spec.name,
        "title": spec.title,
        "rules_version": spec.rules_version,
        "request": request,
        "players": list(design.player_counts),
        "games_per_player_count": design.games,
        "total_games": design.total,
        "seed": seed,
        "seating": design.to_dict(),
        "strategies": describe_strategies(spec, design),
        "params": request["params"],
        "params_changed": spec.params.changed(pvec),
        "assumed_components": spec.assumed_components,
        "assumed_params": spec.params.assumed(),
        "chunk_size": chunk_size,
        "n_chunks": n_chunks,
        "status": "running",
        "command": command or " ".join(sys.argv),
        "code_version": __version__,
        "source_hash": source_hash(),
        "packages": package_versions(),
        "threads": numba.get_num_threads(),
        "timings": {},
        "chunks": chunks,
    }
    if old is not None and old.get("status") == "complete":
        manifest["timings"] = old.get("timings", {})  # a no-op rerun keeps the timings of the run that played
    try:
        todo = _chunks_to_play(out, manifest, old is not None)
        if old is not None and old.get("status") == "complete" and not todo:
            return out  # nothing to do: the folder (and its manifest) is left exactly as it was
        write_json(out / "manifest.json", manifest)
        return _play(spec, design, pvec, seed, out, manifest, todo, progress, client)
    except KeyboardInterrupt:
        _final(out, manifest, "interrupted", "interrupted (Ctrl-C); run the same command again to resume")
        raise
    except UserError as e:
        _final(out, manifest, "failed", str(e))
        raise
    except OSError as e:
        why = f"{e.strerror or e.__class__.__name__}" + (f": {e.filename}" if e.filename else "")
        _final(out, manifest, "failed", why)
        raise UserError(
            f"writing {out} failed ({why}); finished chunks are kept: free space or fix the folder, "
            f"then run the same command again to resume"
        ) from None
    except BaseException as e:  # a bug or a signal turned exception: the status still says what happened
        _final(out, manifest, "failed", f"{e.__class__.__name__}: {str(e)[:200]}")
        raise


def _final(out, manifest, status, reason):
    """Record a final status and its reason; a folder we cannot even write keeps its last manifest."""
    manifest["status"] = status
    manifest["reason"] = reason
    write_final_json(out / "manifest.json", manifest)


def _chunks_to_play(out, manifest, resumed):
    """Chunks that are not done: never played, or bad (reported on stderr and replayed).  Stray part files (a
    hand-edited chunk size) are removed so they cannot be read as games of this run."""
    from .check import check_folder

    if not resumed:
        return list(range(manifest["n_chunks"]))
    verdict = check_folder(out)
    for _, c, why in verdict.bad:
        print(f"note: replaying chunk {c}: {why}", file=sys.stderr)
        manifest["chunks"].pop(str(c), None)
    for path in verdict.stray:
        print(f"note: removing {path}: no chunk of this run", file=sys.stderr)
        Path(path).unlink(missing_ok=True)
    done = {c for _, c in verdict.done}
    for c in done:  # a chunk finished after the manifest's last write: its record file has it
        saved = read_record(out, c)
        if saved and saved.get("tables"):
            manifest["chunks"][str(c)] = saved["tables"]
    return [c for c in range(manifest["n_chunks"]) if c not in done]


def _play(spec, design, pvec, seed, out, manifest, todo, progress, client=None):
    chunk_size = manifest["chunk_size"]
    t0 = time.perf_counter()
    standings = bool(manifest["request"].get("standings"))
    if client is None:
        simulate(spec, design, pvec, seed, 0, 1, standings=standings)  # compile, or load from the cache
    compile_s = time.perf_counter() - t0
    done_games = design.total - sum(min(chunk_size, design.total - c * chunk_size) for c in todo)
    bar = _progress(design.total, done_games, progress, spec.name)
    timing = {"simulate": 0.0, "write": 0.0, "played": 0, "capped": 0}
    run_id = request_id(manifest["request"])

    def record(c, rec, games):
        # the chunk's record (rows, CRC-32) goes into the manifest as soon as it is written: a resume compares
        # the files with it
        manifest["chunks"][str(c)] = rec
        write_json(out / "manifest.json", manifest)
        bar.update(games)

    try:
        if client is None:
            _play_here(spec, design, pvec, seed, out, todo, chunk_size, standings, run_id, timing, record)
        else:
            _play_on_cluster(client, spec, design, pvec, seed, out, todo, chunk_size, run_id, timing, record)
    except KeyboardInterrupt:
        bar.close()
        print(f"interrupted: finished chunks are kept; run the same command again to resume {out}", file=sys.stderr)
        raise
    sim_s, write_s, played = timing["simulate"], timing["write"], timing["played"]
    if timing["capped"]:
        manifest["capped_games"] = timing["capped"]
    bar.close()
    total_s = time.perf_counter() - t0
    manifest["status"] = "complete"
    manifest.pop("reason", None)
    manifest["timings"] = {
        "compile_or_cache_load_s": round(compile_s, 3),
        "simulate_s": round(sim_s, 3),
        "write_s": round(write_s, 3),
        "total_s": round(total_s, 3),
        "games_played": played,
        "games_per_s": round(played / max(total_s - compile_s, 1e-9), 1),
        **({"executor": getattr(client.scheduler, "address", "dask")} if client is not None else {}),
    }
    write_json(out / "manifest.json", manifest)
    if manifest.get("capped_games"):
        print(
            f"warning: {manifest['capped_games']} games hit the step cap and were recorded as capped", file=sys.stderr
        )
    return out


def _play_here(spec, design, pvec, seed, out, todo, chunk_size, standings, run_id, timing, record):
    """The chunks on this machine's cores.  One writer thread: chunk c is written while chunk c+1 is simulated (the
    kernel releases the GIL).  At most one chunk waits to be written, so memory stays flat however many games are
    asked for.  Two sets of output buffers, used in turn: one is being written while the other is played into."""

    def write(c, start, arrays):
        t = time.perf_counter()
        rec = write_chunk(out, c, chunk_tables(spec, design, start, arrays), run_id=run_id)
        timing["write"] += time.perf_counter() - t
        timing["capped"] += int((arrays["steps"] < 0).sum())
        record(c, rec, len(arrays["steps"]))

    pending = None
    buffers = [output_buffers(spec, min(chunk_size, design.total), standings) for _ in range(min(2, len(todo)))]
    with ThreadPoolExecutor(max_workers=1) as writer:
        try:
            for k, c in enumerate(todo):
                start, stop = c * chunk_size, min(design.total, (c + 1) * chunk_size)
                t = time.perf_counter()
                arrays = simulate(spec, design, pvec, seed, start, stop, buffers[k % 2], standings)
                timing["simulate"] += time.perf_counter() - t
                timing["played"] += stop - start
                if pending is not None:
                    pending.result()
                pending = writer.submit(write, c, start, arrays)
            if pending is not None:
                pending.result()
        except KeyboardInterrupt:
            if pending is not None:
                with contextlib.suppress(Exception):  # its error matters less than the interrupt being reported
                    pending.result()
            raise


def _play_on_cluster(client, spec, design, pvec, seed, out, todo, chunk_size, run_id, timing, record):
    """The chunks as Dask tasks (sim.distributed: the sweep's executor, its failure handling and messages); each
    worker plays and writes its chunk to the shared folder, and this process records them as they finish."""
    from .distributed import run_on_cluster
    from .sweep.task import Task, game_ref

    tasks = [
        Task(game_ref(spec), design, pvec, seed, str(Path(out).resolve()), None, c, c * chunk_size,
             min(design.total, (c + 1) * chunk_size), run_id=run_id)
        for c in todo
    ]  # fmt: skip

    class Once:  # run_on_cluster's planner: every task at once, nothing follows
        def ready(self):
            batch, tasks[:] = list(tasks), []
            return batch

    def done(task, stats):
        timing["played"] += task.stop - task.start
        timing["capped"] += int(stats["capped_rate.s"])
        record(task.chunk, stats["_record"], task.stop - task.start)

    t = time.perf_counter()
    run_on_cluster(client, Once(), done)
    timing["simulate"] += time.perf_counter() - t


class _NoProgress:
    def update(self, n):
        pass

    def close(self):
        pass


def _progress(total, initial, enabled, name):
    if not enabled:
        return _NoProgress()  # tqdm not even imported: no widget warnings inside notebooks
    from tqdm.auto import tqdm

    return tqdm(
        total=total, initial=initial, unit=" games", unit_scale=True, desc=name, smoothing=0.1, dynamic_ncols=True
    )
