"""Reading a results folder for the report: the run, the game's conventions, the columns and samples used."""

import glob
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from .. import analysis as sa
from ..errors import UserError
from . import verdicts as vd
from . import model
from .model import ITEM_COLUMNS, ItemSample


def open_results(path):
    """The results folder as a sim.analysis Run, or a one-line UserError saying what is wrong."""
    p = Path(str(path))
    hint = "pass the folder written by `sim run` or `sim sweep` (it holds manifest.json and games/ seats/ tables)"
    if not p.exists():
        raise UserError(f"no such results folder: {p}; {hint}")
    if not p.is_dir():
        raise UserError(f"{p} is not a results folder; {hint}")
    from ..check import read_manifest_checked, refuse_audit, refuse_damaged

    if (p / "manifest.json").is_file():
        refuse_audit(p, read_manifest_checked(p), "sim report")  # a corrupt manifest: one line, the recovery flag
    missing = [n for n in ("manifest.json", "games", "seats") if not (p / n).exists()]
    if missing:
        raise UserError(f"{p} is not a results folder (no {', '.join(missing)}); {hint}")
    try:
        run = sa.load_run(p)
        if run.manifest.get("chunk_size"):  # checksums verified before anything is read: a damaged chunk refuses
            refuse_damaged(p, run.verdict(quiet=True))
            run.note()  # (unfinished chunks left out)
        run.columns("seats")
    except (OSError, ValueError) as e:
        raise UserError(f"{p}: cannot read the results ({type(e).__name__}: {str(e).splitlines()[0]})") from None
    if not run.manifest.get("game"):
        raise UserError(f"{p}/manifest.json names no game; {hint}")
    return run


def _spec(name):
    from ..game import get_game

    try:
        return get_game(name)
    except (UserError, ImportError):
        return None


def _solve_results(path, extra):
    """Solve results (JSON written by `sim solve --out`) found in the results folder or given explicitly."""
    files = [Path(f) for f in extra or []]
    for f in files:
        if not f.is_file():
            raise UserError(f"no such solve result file: {f}")
    files += [
        Path(f) for f in sorted(glob.glob(os.path.join(str(path), "*.json"))) if os.path.basename(f) != "manifest.json"
    ]
    out = []
    for f in dict.fromkeys(files):
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError):
            if f in (extra or []):
                raise UserError(f"{f} is not a solve result (not readable JSON)") from None
            continue
        if isinstance(d, dict) and {"param", "value", "evaluations", "target"} <= set(d):
            out.append(d)
        elif str(f) in [str(e) for e in extra or []]:
            raise UserError(f"{f} is not a solve result (written by `sim solve --out FILE`)")
    return out


def declared(spec, name):
    """A convention of the results tables the game declares in its GameSpec (which column measures length, which
    seat columns are roles...), or the GameSpec default for a game this code does not know."""
    from ..game import GameSpec

    return getattr(spec, name) if spec is not None else GameSpec.__dataclass_fields__[name].default


def _length_column(spec):
    return declared(spec, "length_column")


def _points(spec, columns):
    """The game's points-by-source prefix when its seat columns hold such points, else ''."""
    prefix = declared(spec, "points_prefix")
    return prefix if prefix and any(c.startswith(prefix) for c in columns) else ""


def _seat_columns(names, spec):
    """The seat columns the report uses (large runs: read only these)."""
    base = {
        "config",
        "game",
        "seat",
        "players",
        "strategy",
        "win_share",
        "rank",
        "win",
        "order",
        "eliminated",
        "elim_turn",
        declared(spec, "money_column"),
        *declared(spec, "role_columns"),
    }
    prefix = _points(spec, names)
    if prefix:
        base.add("score")  # score margins and ties (the shape section) need it, nothing else
    return [c for c in names if c in base or (prefix and c.startswith(prefix))]


def _role_columns(seats, spec):
    """The game's role columns (labels dealt to a seat at setup, GameSpec.role_columns) the seats table holds."""
    return sa.seat_label_columns(seats, declared(spec, "role_columns"))


def _reference_players(seats, spec):
    values, n = np.unique(seats["players"].to_numpy(), return_counts=True)  # (no row-sized group index)
    counts = pd.Series(n, index=values)
    if spec is not None and spec.default_players in counts.index:
        return int(spec.default_players)
    return int(counts.idxmax())


def _config_frame(manifest):
    rows = []
    for i, c in enumerate(manifest.get("configs", []) or []):
        swept = c.get("swept", {}) or {}
        rows.append(
            {
                "config": int(c.get("config", i)),
                "players_cfg": c.get("players"),
                "lineup": ",".join(c.get("lineup", []) or []),
                **{f"p:{k}": v for k, v in swept.items()},
            }
        )
    return pd.DataFrame(rows)


def _as_numbers(values):
    try:
        return [float(v) for v in values], True
    except (TypeError, ValueError):
        return list(values), False


def _reference_configs(manifest, cf):
    """Configs whose swept values are those of the printed game (or of config 0) : the sections' base."""
    pcols = [c for c in cf.columns if c.startswith("p:")]
    if not pcols:
        return list(cf["config"])
    defaults = None
    for c in manifest.get("configs", []):
        if not set(c.get("swept") or {}) & set(c.get("params_changed") or {}):
            defaults = c.get("swept")
            break
    ref = defaults or (manifest.get("configs") or [{}])[0].get("swept", {})
    keep = np.ones(len(cf), dtype=bool)
    for k, v in ref.items():
        keep &= cf[f"p:{k}"].astype(str).to_numpy() == str(v)
    return list(cf.loc[keep, "config"])


def report_families(seats, items, games, spec, kinds=None):
    """(quiet role columns, the report's families of verdicts): each family is judged at ALPHA / len(families).
    kinds: the item kinds of the whole items table when `items` is a sample of it (default: items' own)."""
    quiet = set()
    side = declared(spec, "side_column")
    if side and side in games.columns and declared(spec, "seat_side_column"):
        quiet.add(declared(spec, "seat_side_column"))
    if items is not None and len(items):
        quiet |= {str(k) for k in kinds} if kinds is not None else set(items["kind"].astype(str).unique())
    return quiet, vd.report_families(seats, items, games, quiet, _role_columns(seats, spec), side)


def _item_sample(run, seats, configs=None, max_rows=None):
    """The ItemSample of a run (of the given sweep configurations), or None when the run has no items table."""
    if not os.path.isdir(os.path.join(run.path, "items")):
        return None
    max_rows = model.ITEM_ROWS if max_rows is None else max_rows  # read here: a test may lower it
    import pyarrow.dataset as pds

    from ..analysis.items import _sample_games

    where = None if configs is None else pds.field("config").isin([int(c) for c in configs])
    rows = run.count("items", where)
    kinds = run.distinct("items", "kind", where) if rows else set()
    seen = run.distinct("items", "item", where) if rows else set()
    sample = _sample_games(seats, max_rows, 0)
    key = sa.game_key(seats)
    cols = [c for c in run.columns("items") if c in ITEM_COLUMNS]
    if len(sample) < len(seats):
        games = pds.field("game").isin(np.unique(sample["game"].to_numpy()).tolist())
        where = games if where is None else where & games
    items = run.items(columns=cols, filters=where, compact=True) if rows else pd.DataFrame(columns=cols)
    if len(sample) < len(seats) and "config" in key and len(items):
        items = items.merge(sample[key].drop_duplicates(), on=key, how="inner")  # the sampled (config, game)s
    return ItemSample(sample, items, rows, kinds, seen)
