"""Where search's advantage over an improved preset sits, by decision kind (issue 36), read from `sim improve`'s
work folders (iter_<i>/positions.parquet; nothing is played).

    python bench/improve_by_kind.py WORK [WORK ...] [--min-regret 0.02]

Per decision kind (the kind of the move the preset played there), over every iteration of every folder given:
positions, their weight share (the audit's sampling weights: the share of all decisions), the preset's agreement
with search's choice at the start of the first iteration, the best agreement any tuned preset reached (the highest
iteration mean of the tuned preset's agreement), the weighted mean regret (search's choice over the preset's, in win
share) and its share of the total.  Then per kind of search's choice: the regret held there and the share of
positions where the iteration's tuned preset still plays otherwise although search's choice was better by more
than --min-regret (the misses tuning left)."""

import argparse
import json
from pathlib import Path

import pandas as pd


def positions(work):
    work = Path(work)
    log = json.loads((work / "log.json").read_text())
    frames = []
    for e in log:
        f = pd.read_parquet(work / f"iter_{e['iteration']}" / "positions.parquet")
        frames.append(f.assign(run=work.name, iteration=e["iteration"]))
    return pd.concat(frames, ignore_index=True)


def _wmean(v, w):
    return float((v * w).sum() / w.sum()) if w.sum() else float("nan")


def by_kind(f):
    total = float((f.regret * f.weight).sum())
    first = f[f.iteration == 0]
    rows = []
    for kind, g in f.groupby("kind"):
        g0 = first[first.kind == kind]
        rows.append(
            {
                "kind": kind,
                "positions": len(g),
                "weight_share": float(g.weight.sum() / f.weight.sum()),
                "agreement_start": float(g0.agree_before.mean()) if len(g0) else float("nan"),
                "best_tuned_agreement": float(g.groupby(["run", "iteration"]).agree_after.mean().max()),
                "regret": _wmean(g.regret, g.weight),
                "regret_share": float((g.regret * g.weight).sum() / total) if total else float("nan"),
            }
        )
    return pd.DataFrame(rows).sort_values("regret_share", ascending=False)


def by_search_kind(f, min_regret):
    total = float((f.regret * f.weight).sum())
    rows = []
    for kind, g in f.groupby("search_kind"):
        missed = (g.tuned != g.search) & (g.regret > min_regret)
        rows.append(
            {
                "search_kind": kind,
                "positions": len(g),
                "regret_share": float((g.regret * g.weight).sum() / total) if total else float("nan"),
                "preset_differs": float((g.preset != g.search).mean()) if "preset" in g else float("nan"),
                "missed_after_tuning": float(missed.mean()),
            }
        )
    return pd.DataFrame(rows).sort_values("regret_share", ascending=False)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("work", nargs="+", help="sim improve work folders (of one game)")
    ap.add_argument("--min-regret", type=float, default=0.02, help="a miss: search better by more than this")
    a = ap.parse_args()
    f = pd.concat([positions(w) for w in a.work], ignore_index=True)
    if "preset" not in f:  # folders written before the preset's own choice was stored: the game's choice
        f["preset"] = f["chosen"]
    f["preset"] = f["preset"].fillna(f["chosen"])
    fmt = {"float_format": lambda x: f"{x:.3f}", "index": False}
    print(f"{len(f)} positions from {', '.join(sorted(set(f.run)))}")
    print(by_kind(f).to_string(**fmt))
    print(by_search_kind(f, a.min_regret).to_string(**fmt))
