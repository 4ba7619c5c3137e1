"""A sweep's output folder: opening (resume or refuse), its manifest, the summary file, reading its tables."""

import os
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import UserError
from ..knobs import describe_strategies
from ..results import clean_temp_files, old_manifest
from ..runner import package_versions


def clean_partial_files(folder):
    """Remove temp files left by a process killed while writing (see sim.results.clean_temp_files)."""
    clean_temp_files(folder)


def open_sweep_folder(out, sweep, fresh):
    """Create the folder, or check that it holds the same sweep (then it is resumed).  Returns the old manifest."""
    out = Path(out)
    old = old_manifest(out, fresh)  # --fresh recovers a folder whose manifest is corrupt
    request = sweep.request()
    if old is not None and old.get("request") == request and not fresh:
        return old
    if out.exists() and any(out.iterdir()):
        if not fresh:
            if old is None:
                raise UserError(f"{out} already holds other files; choose another --out or pass --fresh")
            if old.get("kind") != "sweep":
                raise UserError(f"{out} holds a single run, not a sweep; choose another --out or pass --fresh")
            before = old.get("request", {})
            keys = sorted(k for k in set(before) | set(request) if before.get(k) != request.get(k))
            raise UserError(
                f"{out} holds a different sweep (changed: {', '.join(keys)}); re-run the original "
                f"sweep to resume it, choose another --out, or pass --fresh to discard it"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return None


def _manifest(sweep, planner, status, command, timings=None):
    from .. import __version__, source_hash

    spec = sweep.spec
    configs = []
    for cfg in sweep.configs:
        configs.append(
            {
                "config": cfg.index,
                "partition": f"config={cfg.index}",
                "players": cfg.players,
                "lineup": list(cfg.lineup),
                "seating": "fixed" if cfg.fixed else "rotate",
                "swept": cfg.values,
                "params_changed": spec.params.changed(cfg.pvec),
                "params": spec.params.describe(cfg.pvec),
                "strategies": describe_strategies(spec, cfg.design),
                "games_planned": planner.games_planned(cfg.index),
                "games_done": planner.games_done(cfg.index),
                "finished": planner.finished.get(cfg.index),
                "rounds": planner.rounds[cfg.index],
            }
        )
    return {
        "kind": "sweep",
        "game": spec.name,
        "title": spec.title,
        "rules_version": spec.rules_version,
        "request": sweep.request(),
        "fingerprint": sweep.fingerprint(),
        "seed": sweep.seed,
        "chunk_size": sweep.chunk_size,
        "n_configs": len(sweep.configs),
        "configs": configs,
        "assumed_components": spec.assumed_components,
        "assumed_params": spec.params.assumed(),
        "status": status,
        "command": command or " ".join(sys.argv),
        "code_version": __version__,
        "source_hash": source_hash(),
        "packages": package_versions(),
        "timings": timings or {},
        "chunks": planner.records,
    }


# ----------------------------------------------------------------------------------------------- summary


def write_summary(folder, frame):
    path = Path(folder) / "summary.parquet"
    tmp = path.with_name(f".summary.parquet.tmp{os.getpid()}")
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
    os.replace(tmp, path)
    return path


def read_sweep(folder, table="seats"):
    """One table of a sweep as a pandas DataFrame with its `config` column (the hive partition key): the done
    chunks only, their checksums verified first (a damaged chunk: one-line UserError)."""
    import pyarrow.dataset as ds

    from ..check import verified

    files = verified(folder).files(folder, table)
    base = str(Path(folder) / table)
    return ds.dataset(files, format="parquet", partitioning="hive", partition_base_dir=base).to_table().to_pandas()


# ----------------------------------------------------------------------------------------------- running
