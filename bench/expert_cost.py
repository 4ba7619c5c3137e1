"""What `sim field` and `sim improve` cost, read from what they recorded (issue 36): CPU hours per game of a field
and of an improvement iteration, at the budgets they were run with.  Nothing is played or timed here.

    python bench/expert_cost.py [FOLDER_OR_FILE ...] [--json F]

Reads (default: the shipped strategies/*/fields/*p.json and the work folders results/improve_*/, results/field_*/):
- a field file (strategies/<game>/fields/<n>p.json) or a field work folder (request.json + cpu.json): its
  process_cpu_seconds (files written before it was recorded give only their session's wall time, shown as such);
- an improvement work folder (request.json + log.json): each iteration's process_cpu_seconds and budget.
Prints one line per field and per improvement iteration; with --json, the rows as a JSON list."""

import argparse
import glob
import json
from pathlib import Path

FIELD_BUDGET = ("games", "iterations", "evals", "games_per_eval", "final_games")
IMPROVE_BUDGET = ("positions", "rollouts", "cap", "evals", "games_per_eval", "final_games", "search_rollouts")


def field_row(doc, where, cpu=None):
    """A field's cost: from its file (doc) or its work folder's request (doc) with the folder's cpu.json (cpu)."""
    cpu = cpu if cpu is not None else doc.get("process_cpu_seconds")
    budget = doc.get("budget") or {k: doc[k] for k in FIELD_BUDGET if k in doc}
    return {
        "what": "field",
        "game": doc["game"],
        "players": doc["players"],
        "where": str(where),
        "budget": budget,
        "cpu_hours": None if cpu is None else cpu / 3600,
        "wall_hours_of_a_session": _hours(doc.get("wall_seconds_this_session", doc.get("cpu_seconds"))),
    }


def _hours(seconds):
    return None if seconds is None else seconds / 3600


def improve_rows(folder):
    request = json.loads((folder / "request.json").read_text())
    log = json.loads((folder / "log.json").read_text()) if (folder / "log.json").exists() else []
    budget = {k: request[k] for k in IMPROVE_BUDGET} | {"search_games": request["search_games"]}
    return [
        {
            "what": f"improve iteration {e['iteration'] + 1}",
            "game": request["game"],
            "players": request["players"],
            "where": str(folder),
            "strategy": e["from"],
            "budget": budget,
            "cpu_hours": e["process_cpu_seconds"] / 3600 if "process_cpu_seconds" in e else None,
            "wall_hours_of_a_session": e["seconds"] / 3600,
        }
        for e in log
    ]


def rows_of(path):
    path = Path(path)
    if path.is_file():
        return [field_row(json.loads(path.read_text()), path)]
    request = path / "request.json"
    if not request.exists():
        return []
    req = json.loads(request.read_text())
    if "strategy" in req:
        return improve_rows(path)
    cpu = path / "cpu.json"
    return [field_row(req, path, json.loads(cpu.read_text())["process_cpu_seconds"] if cpu.exists() else None)]


def line(r):
    budget = " ".join(f"{k}={v}" for k, v in r["budget"].items())
    cost = f"{r['cpu_hours']:.3f} CPU hours" if r["cpu_hours"] is not None else "CPU not recorded"
    wall = r["wall_hours_of_a_session"]
    wall = f" (a session's wall {wall:.3f} h)" if wall is not None else ""
    return f"{r['game']} {r['players']}p {r['what']}: {cost}{wall}; {budget}; {r['where']}"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="field files or work folders (default: the shipped fields and results/)")
    ap.add_argument("--json", help="write the rows to this file")
    a = ap.parse_args()
    paths = a.paths or sorted(
        glob.glob("strategies/*/fields/*p.json") + glob.glob("results/improve_*") + glob.glob("results/field_*")
    )
    rows = [r for p in paths for r in rows_of(p)]
    for r in rows:
        print(line(r))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
