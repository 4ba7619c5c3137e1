"""Executing a sweep: locally or on a Dask cluster, under the folder's lock, resumable after any interruption."""

import sys
import time
from pathlib import Path

from ..errors import UserError
from ..lock import FolderLock
from ..results import write_final_json, write_json
from ..runner import simulate
from .folder import _manifest, clean_partial_files, open_sweep_folder, write_summary
from .plan import Planner
from .stats import summary_frame
from .task import execute_task


def set_threads(threads):
    """Threads of the local kernel (None: all cores)."""
    from ..inputs import set_threads as use

    use(threads)


def run_sweep(sweep, out, scheduler=None, fresh=False, progress=True, threads=None, command=None, on_task=None):
    """Play every configuration of the sweep into `out` (resuming whatever is already there).

    scheduler: None (this machine, all cores), a 'tcp://host:port' address of a dask.distributed scheduler, or
    a distributed.Client.  on_task(task, planner) is called after every finished task (used by tests).
    Writes summary.parquet and returns the summary DataFrame.
    """
    set_threads(threads)
    from ..distributed import cluster_client

    with cluster_client(scheduler if scheduler is not None else sweep.scheduler) as client:
        return _run(sweep, Path(out).resolve(), client, fresh, progress, command, on_task)


def _run(sweep, out, client, fresh, progress, command, on_task):
    with FolderLock(out, "sim sweep"):
        return _run_locked(sweep, out, client, fresh, progress, command, on_task)


def _run_locked(sweep, out, client, fresh, progress, command, on_task):
    old = open_sweep_folder(out, sweep, fresh)
    clean_partial_files(out)  # we hold the folder's lock: every temp file there is a killed writer's
    planner = Planner(sweep, out, (old or {}).get("chunks"))
    if (
        old is not None
        and old.get("status") == "complete"
        and not planner.replayed
        and planner.total_done >= planner.total_planned
        and all(planner.missing(c.index) == [] for c in sweep.configs)
    ):
        # a no-op rerun: the folder is left exactly as it was (timings of the session that played, status)
        return summary_frame(sweep, planner)
    write_json(out / "manifest.json", _manifest(sweep, planner, "running", command))
    bar = _progress(planner, progress)
    done_before = planner.total_done
    last_save = [time.monotonic()]

    def done(task, stats):
        planner.complete(task, stats)
        planner.missing(task.config)  # settles the configuration's round (adaptive: may schedule more)
        bar.total = planner.total_planned
        bar.update(planner.total_done - bar.n)
        bar.set_postfix_str(f"configs {len(planner.finished)}/{len(sweep.configs)}", refresh=False)
        if time.monotonic() - last_save[0] > 30:  # the chunks' records reach the manifest now and then
            write_json(out / "manifest.json", _manifest(sweep, planner, "running", command))
            last_save[0] = time.monotonic()
        if on_task is not None:
            on_task(task, planner)

    def final(status, reason):
        bar.close()
        m = _manifest(sweep, planner, status, command)
        m["reason"] = reason
        write_final_json(out / "manifest.json", m)

    t0 = time.perf_counter()
    try:
        if client is None:
            if planner.total_done < planner.total_planned:  # compile (or load the cache) before the clock runs
                cfg = sweep.configs[0]
                simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, 1)
            _run_local(planner, done)
        else:
            from ..distributed import run_on_cluster

            run_on_cluster(client, planner, done)
        bar.close()
        frame = summary_frame(sweep, planner)
        write_summary(out, frame)
    except KeyboardInterrupt:
        final("interrupted", "interrupted (Ctrl-C); run the same command again to resume")
        print(f"interrupted: finished chunks are kept; run the same command again to resume {out}", file=sys.stderr)
        raise
    except UserError as e:
        final("failed", str(e))
        raise UserError(f"{e}; finished chunks are kept: run the same command again to resume {out}") from None
    except OSError as e:
        why = f"{e.strerror or e.__class__.__name__}" + (f": {e.filename}" if e.filename else "")
        final("failed", why)
        raise UserError(
            f"writing {out} failed ({why}); finished chunks are kept: free space or fix the folder, "
            f"then run the same command again to resume"
        ) from None
    except BaseException as e:  # a bug or a signal turned exception: the status still says what happened
        final("failed", f"{e.__class__.__name__}: {str(e)[:200]}")
        raise
    elapsed = time.perf_counter() - t0
    timings = {
        "total_s": round(elapsed, 3),
        "games_this_session": planner.total_done - done_before,
        "executor": "local" if client is None else client.scheduler.address,
    }
    write_json(out / "manifest.json", _manifest(sweep, planner, "complete", command, timings))
    return frame


def _run_local(planner, done):
    """This machine: tasks one after the other, each on all cores (the kernel is parallel over games)."""
    while True:
        tasks = planner.ready()
        if not tasks:
            return
        for task in tasks:
            done(task, execute_task(task))


def _progress(planner, enabled):
    from tqdm.auto import tqdm

    bar = tqdm(
        total=planner.total_planned,
        initial=planner.total_done,
        disable=not enabled,
        unit=" games",
        unit_scale=True,
        desc="sweep",
        smoothing=0.1,
        dynamic_ncols=True,
    )
    bar.set_postfix_str(f"configs {len(planner.finished)}/{len(planner.sweep.configs)}")
    return bar
