"""The Dask executor: a sweep's or a run's chunks on an existing dask.distributed cluster.

One task is one chunk (`sim.sweep.task.Task`: of a sweep configuration, or of a run folder, `sim run --scheduler`):
a worker plays it with the same jitted kernel and the same per-game seeds as a local run and writes its part files
atomically to the folder, which must be a path every worker can reach (a shared file system).  The driver only
schedules tasks and keeps the statistics and checksums they return, so a cluster run gives exactly the local results.

If a worker dies, Dask re-runs its tasks on another worker; if a task fails for good (for example
`KilledWorker` after repeated losses), the command stops with a one-line message and the same command resumes it:
finished part files are kept, a task whose part already exists is read instead of replayed.

Workers should run one task at a time per machine (`--nthreads 1`): each task already uses every core.
"""

import contextlib
import uuid

from .errors import UserError
from .sweep.task import execute_task

CONNECT_TIMEOUT = "20s"


def connect(scheduler):
    """A distributed.Client for an address, or the given client; returns (client, owned)."""
    from distributed import Client

    if not isinstance(scheduler, str):
        return scheduler, False
    if not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")):
        raise UserError(f"--scheduler takes an address like tcp://host:8786 (got '{scheduler}')")
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError) as e:
        why = str(e).splitlines()[0] if str(e) else e.__class__.__name__
        raise UserError(
            f"cannot reach the Dask scheduler at {scheduler} ({why}); "
            f"start one with `dask scheduler` and workers with `dask worker {scheduler}`"
        ) from None


NO_WORKERS_S = 120  # a sweep with no worker for this long stops (one line) instead of waiting without a word


@contextlib.contextmanager
def cluster_client(scheduler):
    """A client for `scheduler` (an address, a distributed.Client, or None: yields None, this machine) with dask's
    logging quiet, reached before the caller writes anything and closed after (a client it was given stays open)."""
    if scheduler is None:
        yield None
        return
    with quiet_client():  # dask's reconnection tracebacks stay off stderr, also while the client closes
        client, owned = connect(scheduler)
        try:
            yield client
        finally:
            if owned:
                with contextlib.suppress(Exception):  # a lost scheduler: closing may fail; the error is said
                    client.close(timeout=5)


LOST_SCHEDULER_S = 30  # the client disconnected for this long: the scheduler is gone
POLL_S = 2.0


def run_on_cluster(client, planner, done):
    """Submit the planner's tasks to the cluster, feed results back as they finish, submit follow-up rounds.

    done(task, stats) is called on the driver for every finished task.  Stops with a one-line UserError when a
    task fails for good, when the cluster has had no worker for NO_WORKERS_S seconds, or when the scheduler has
    been unreachable for LOST_SCHEDULER_S seconds; finished chunks are kept either way.
    """
    import time

    from distributed import wait

    session = uuid.uuid4().hex[:8]  # a fresh key per session: a resumed sweep never meets its cancelled keys
    running = {}
    address = getattr(getattr(client, "scheduler", None), "address", "the scheduler")

    def submit(tasks):
        for task in tasks:
            fut = client.submit(execute_task, task, key=f"{task.key}-{session}")
            running[fut.key] = (task, fut)

    try:
        submit(planner.ready())
        no_workers = lost = None
        while running:
            finished = _wait_some(wait, [f for _, f in running.values()])
            if not finished:
                now = time.monotonic()
                if client.status != "running":
                    lost = lost or now
                    if now - lost > LOST_SCHEDULER_S:
                        raise UserError(
                            f"lost the Dask scheduler at {address} ({client.status} for "
                            f"{LOST_SCHEDULER_S} s); restart the scheduler and its workers"
                        )
                    continue
                lost = None
                try:
                    workers = len(client.scheduler_info().get("workers", {}))
                except Exception:  # noqa: BLE001 - the scheduler went away between two polls: the status check above decides
                    workers = -1
                if workers == 0:
                    no_workers = no_workers or now
                    if now - no_workers > NO_WORKERS_S:
                        raise UserError(
                            f"no Dask worker has been connected to {address} for {NO_WORKERS_S} s; "
                            f"start workers with `dask worker {address}` and run the same command "
                            f"again"
                        )
                else:
                    no_workers = None
                continue
            for fut in finished:
                task, _ = running.pop(fut.key)
                try:
                    stats = fut.result()
                except Exception as e:  # noqa: BLE001 - a lost task (KilledWorker) or the task's own error
                    lost_link = "CommClosed" in e.__class__.__name__ or isinstance(e, (OSError, TimeoutError))
                    if "Cancelled" in e.__class__.__name__ or (lost_link and client.status != "running"):
                        # what a lost scheduler does to every pending task (or to the result being fetched)
                        raise UserError(
                            f"lost the Dask scheduler at {address} (task {task.where} was "
                            f"cancelled); restart the scheduler and its workers"
                        ) from None
                    raise UserError(
                        f"task {task.where} failed on the cluster "
                        f"({e.__class__.__name__}: {str(e).splitlines()[0] if str(e) else ''})"
                    ) from None
                done(task, stats)
                submit(planner.ready())
    finally:
        if running:
            with contextlib.suppress(Exception):  # a lost scheduler cannot cancel; the tasks die with it
                client.cancel([fut for _, fut in running.values()])


QUIET_LOGGERS = ("distributed", "tornado", "asyncio")


@contextlib.contextmanager
def quiet_client():
    """Keep dask's own logging off stderr while this process holds a client, up to and including its close: a
    lost scheduler makes the client log reconnection tracebacks (32 lines of them, some while the client closes
    after our one-line error), which say nothing the one line does not."""
    import logging

    import distributed  # noqa: F401 - its import configures its loggers' levels: quiet them after that

    names = set(QUIET_LOGGERS) | {
        n for n in logging.root.manager.loggerDict if n.split(".")[0] in QUIET_LOGGERS
    }  # each: dask's logging configuration gives some children a level of their own
    quiet = [logging.getLogger(n) for n in sorted(names)]
    levels = [lg.level for lg in quiet]
    for lg in quiet:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(quiet, levels):
            lg.setLevel(level)


def _wait_some(wait, futures):
    """The futures finished within POLL_S seconds (possibly none)."""
    try:
        done, _ = wait(futures, timeout=POLL_S, return_when="FIRST_COMPLETED")
    except TimeoutError:
        return []
    except Exception as e:  # dask's own TimeoutError on older versions; cancelled futures (re-raised otherwise)
        if "Timeout" in e.__class__.__name__:
            return []
        # a lost scheduler cancels every pending future and wait() raises (FuturesCancelledError, or an
        # UnboundLocalError from inside distributed while it reports that): hand the cancelled ones back, whose
        # result() then names the loss in one line
        gone = [f for f in futures if f.cancelled() or f.status in ("cancelled", "lost", "error")]
        if gone:
            return gone
        raise
    return list(done)
