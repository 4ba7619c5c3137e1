"""The Dask executor: a sweep's tasks on an existing dask.distributed cluster.

One task is one configuration chunk (`sim.sweep.Task`): a worker plays it with the same jitted kernel and the
same per-game seeds as a local run and writes its part files atomically to the sweep folder, which must be a
path every worker can reach (a shared file system).  The driver only schedules tasks and keeps the statistics
they return, so a cluster run gives exactly the local results.

If a worker dies, Dask re-runs its tasks on another worker; if a task fails for good (for example
`KilledWorker` after repeated losses), the sweep stops with a one-line message and the same command resumes it:
finished part files are kept, a task whose part already exists is read instead of replayed.

Workers should run one task at a time per machine (`--nthreads 1`): each task already uses every core.
"""
import uuid

from .errors import UserError

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
        raise UserError(f"cannot reach the Dask scheduler at {scheduler} ({why}); "
                        f"start one with `dask scheduler` and workers with `dask worker {scheduler}`") from None


def run_on_cluster(client, planner, done):
    """Submit the planner's tasks to the cluster, feed results back as they finish, submit follow-up rounds.

    done(task, stats) is called on the driver for every finished task.
    """
    from distributed import as_completed

    from .sweep import execute_task

    session = uuid.uuid4().hex[:8]  # a fresh key per session: a resumed sweep never meets its cancelled keys
    running = {}
    try:
        def submit(tasks):
            futures = []
            for task in tasks:
                fut = client.submit(execute_task, task, key=f"{task.key}-{session}")
                running[fut.key] = (task, fut)
                futures.append(fut)
            return futures

        queue = as_completed(submit(planner.ready()), with_results=False)
        for fut in queue:
            task, _ = running.pop(fut.key)
            try:
                stats = fut.result()
            except Exception as e:  # a lost task (KilledWorker) or an error raised by the task itself
                raise UserError(f"task config={task.config} chunk={task.chunk} failed on the cluster "
                                f"({e.__class__.__name__}: {str(e).splitlines()[0] if str(e) else ''})") from e
            done(task, stats)
            for new in submit(planner.ready()):
                queue.add(new)
    finally:
        if running:
            client.cancel([fut for _, fut in running.values()])
