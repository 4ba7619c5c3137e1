"""`sim effect`: the causal effect of an item, measured by intervention with common random numbers.

Item strength in a report is association: seats that hold an item win more often, which may be the item or may be
who takes it (leaders buy more, and late). An engine can do what no statistics can: play the same games twice,
once as printed and once with the item removed from the game (or dealt to a given seat), with the same seeds, so
game k of both arms starts from the same shuffle and dice stream (the run seed scheme gives game k the same seed
in both). The paired difference of each seat's win share between the two arms is the item's effect on that seat
in that game; its mean over games, with a t interval over games (statsmodels DescrStatsW), is the causal effect.

Reported:
- holder effect: over the games where some seat held the item as printed, the holders' win share with the item
  minus the same seats' win share in the same games without it (what holding it is worth);
- by turn-order position: every position's mean change in win share (they add up to 0: a zero-sum share);
- association, from the same as-printed games: win rate of holders minus non-holders (the report's raw number),
  so the two can be set side by side.

An item is removed through a parameter of the game: a `*.<item>.copies` parameter set to 0 (Raccoon Tycoon's
buildings and railroads; the test game's joker) or an `item.remove` choice naming the item. Dealing an item to a
seat uses an `item.deal_to_seat.<item>` parameter where a game has one.
"""

import re

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import DescrStatsW

from .errors import UserError
from .inputs import number, set_threads
from .study import Study


def slug(name):
    """An item name as it appears in parameter names: lower case, apostrophes dropped, other runs of non-letters
    as one underscore ("Governor's Mansion" -> governors_mansion, as the games name their parameters)."""
    return re.sub(r"[^a-z0-9]+", "_", re.sub("['\u2019]", "", str(name).lower())).strip("_")


def find_item(spec, item):
    """The game's item name matching `item` (exact, case-insensitive, or by slug), or a one-line UserError."""
    names = list(spec.item_names or ())
    for n in names:
        if n == item:
            return n
    for n in names:
        if n.lower() == str(item).lower() or slug(n) == slug(item):
            return n
    raise UserError(f"{spec.name} has no item '{item}'. Items: {', '.join(names)}")


def removal(spec, item):
    """Parameter overrides that remove `item` from the game (UserError if the game has no way to)."""
    s = slug(item)
    names = [p.name for p in spec.params.params]
    for cand in dict.fromkeys([s, slug(str(item).split(":")[-1])]):  # 'tile:Saloon' -> tile.saloon.copies
        copies = [n for n in names if n.endswith(f".{cand}.copies")]
        if copies:
            return {n: 0 for n in copies}
    for n in names:
        if n == "item.remove":
            p = spec.params.params[spec.params.index(n)]
            for c in p.choices:
                if c == item or slug(c) == s:
                    return {n: c}
    raise UserError(
        f"{spec.name} has no parameter that removes '{item}' (looked for *.{s}.copies and an "
        "item.remove choice); see `sim params " + spec.name + "`"
    )


def deal_to(spec, item, seat):
    """Parameter overrides that deal `item` to `seat` (UserError if the game has no such parameter)."""
    name = f"item.deal_to_seat.{slug(item)}"
    names = [p.name for p in spec.params.params]
    if name in names:
        return {name: int(seat) + 1}
    if "item.deal_to_seat" in names and "item.deal" in names:
        p = spec.params.params[spec.params.index("item.deal")]
        choice = next((c for c in p.choices if c == item or slug(c) == slug(item)), None)
        if choice is not None:
            return {"item.deal": choice, "item.deal_to_seat": int(seat) + 1}
    raise UserError(f"{spec.name} cannot deal '{item}' to a seat (no item.deal_to_seat parameter for it)")


def _play(spec, design, pvec, seed, games, chunk_size):
    from .results import chunk_tables
    from .runner import output_buffers, simulate

    seats, items = [], []
    buffers = output_buffers(spec, min(games, chunk_size))
    for start in range(0, games, chunk_size):
        stop = min(games, start + chunk_size)
        t = chunk_tables(spec, design, start, simulate(spec, design, pvec, seed, start, stop, buffers))
        seats.append(
            t["seats"].select(["game", "seat", "players", "strategy", "order", "win", "win_share"]).to_pandas()
        )
        items.append(t["items"].select(["game", "seat", "item"]).to_pandas())
    return pd.concat(seats, ignore_index=True), pd.concat(items, ignore_index=True)


def _mean_ci(x, alpha):
    x = np.asarray(x, dtype=float)
    if len(x) < 2:
        return {"n": int(len(x)), "mean": float(x.mean()) if len(x) else np.nan, "low": np.nan, "high": np.nan}
    d = DescrStatsW(x)
    lo, hi = d.tconfint_mean(alpha)
    return {"n": int(len(x)), "mean": float(d.mean), "low": float(lo), "high": float(hi), "se": float(d.std_mean)}


def item_effect(study, item, deal_seat=None, alpha=0.05):
    """Play the study's games (default 10,000; one player count) paired, as printed and with the intervention,
    and return a dict of results (see module docstring): item, players, games, intervention (the overrides),
    holder (n, mean, low, high: change in the holders' win share), holder_win (the same for win rate), by_order
    (DataFrame: order, mean, low, high), association (holders' win rate minus non-holders' in the as-printed
    games, with its interval), held_share (fraction of games where a seat held it as printed)."""
    from .analysis.items import item_strength
    from .runner import prepare

    games, seed, overrides = study.games_or(10_000), study.seed, study.overrides
    chunk_size = study.chunk_size or 50_000
    spec, design, pvec0 = prepare(
        study.spec,
        (study.player_count("effect"),),
        games,
        list(study.lineup) if study.lineup else None,
        list(study.strategies) if study.strategies else None,
        False,
        overrides,
    )
    threads = study.threads
    set_threads(threads)
    name = find_item(spec, item)
    n = int(design.player_counts[0])
    if deal_seat is not None:  # seats are numbered 0..n-1
        deal_seat = number(deal_seat, f"--deal-to-seat (a seat of {n} players)", 0, n - 1, whole=True)
    if deal_seat is None:
        change = removal(spec, name)
    else:
        change = deal_to(spec, name, deal_seat)
    pvec1 = spec.params.resolve({**(overrides or {}), **{k: str(v) for k, v in change.items()}})
    base_s, base_i = _play(spec, design, pvec0, seed, games, chunk_size)
    alt_s, alt_i = _play(spec, design, pvec1, seed, games, chunk_size)
    key = ["game", "seat"]
    pair = base_s.merge(alt_s[key + ["win", "win_share"]], on=key, suffixes=("", "_alt"))
    pair["d_share"] = pair["win_share"] - pair["win_share_alt"]
    pair["d_win"] = pair["win"].astype(float) - pair["win_alt"].astype(float)
    holders = base_i[base_i["item"].astype(str) == name][key].drop_duplicates()
    if deal_seat is not None:  # the seat it is dealt to in the intervention arm is the holder
        holders = alt_i[alt_i["item"].astype(str) == name][key].drop_duplicates()
        pair["d_share"], pair["d_win"] = -pair["d_share"], -pair["d_win"]
    h = pair.merge(holders, on=key, how="inner").groupby("game")[["d_share", "d_win"]].sum()
    by_order = pd.DataFrame([{"order": int(o), **_mean_ci(g["d_share"], alpha)} for o, g in pair.groupby("order")])
    assoc = {}
    if deal_seat is None and len(holders):
        st = item_strength(
            base_s, base_i.assign(kind="x", turn=0), outcome="win", min_rows=0, alpha=alpha, adjusted=False
        )
        r = st[st["item"].astype(str) == name]
        if len(r):
            r = r.iloc[0]
            assoc = {"diff": float(r["diff"]), "low": float(r["low"]), "high": float(r["high"])}
    return {
        "game": spec.name,
        "item": name,
        "players": int(design.player_counts[0]),
        "games": int(games),
        "seed": seed,
        "intervention": change,
        "mode": "remove" if deal_seat is None else f"deal to seat {int(deal_seat)}",
        "holder": _mean_ci(h["d_share"], alpha),
        "holder_win": _mean_ci(h["d_win"], alpha),
        "held_share": float(len(h) / games),
        "by_order": by_order,
        "association": assoc,
        "confidence": 1 - alpha,
    }


def report_lines(res):
    """The command's printed summary."""
    pc = lambda x: "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}"  # noqa: E731
    h, w = res["holder"], res["holder_win"]
    conf = f"{100 * res['confidence']:.0f}%"
    # the seat as the user numbers it (0-based), not the game's 1-based parameter value
    what = ", ".join(
        f"{k}={v}" if not k.startswith("item.deal_to_seat") else f"dealt to seat {int(v) - 1}"
        for k, v in res["intervention"].items()
    )
    lines = [
        f"{res['game']}, {res['players']} players, {res['games']:,} paired games (seed {res['seed']}): as "
        f"printed vs {res['mode'] if res['mode'] != 'remove' else 'without ' + res['item']} ({what}).",
        f"EFFECT (causal, paired games with the same seeds) of {res['item']} on its holder: "
        f"{pc(h['mean'])} points of win share ({conf} interval {pc(h['low'])} to {pc(h['high'])}); win rate "
        f"{pc(w['mean'])} ({pc(w['low'])} to {pc(w['high'])}); held in {100 * res['held_share']:.1f}% of "
        f"games ({h['n']:,} games).",
    ]
    a = res["association"]
    if a:
        lines.append(
            f"ASSOCIATION (as printed, not causal): holders' win rate minus the other seats' "
            f"{pc(a['diff'])} points ({conf} interval {pc(a['low'])} to {pc(a['high'])})."
        )
    lines.append(
        "Change in win share by turn-order position (effect, points): "
        + "; ".join(
            f"{int(r['order']) + 1}: {pc(r['mean'])} ({pc(r['low'])} to {pc(r['high'])})"
            for _, r in res["by_order"].iterrows()
        )
    )
    return lines


def to_json(res):
    out = {k: v for k, v in res.items() if k != "by_order"}
    out["by_order"] = res["by_order"].to_dict(orient="records")
    return out


def can_intervene(spec, item):
    try:
        removal(spec, find_item(spec, item))
        return True
    except UserError:
        return False


def cached_effect(run_path, manifest, item, players, games=4000, seed=None):
    """`item_effect` for a report: the run's own line-up, parameters and seed, at `players`; the result is cached
    as JSON in <run>/effects/ (keyed by item, players, games, seed and the game's code), so a report built again
    does not replay. Returns the result dict (by_order as records) or None when the game cannot remove the item."""
    import json
    import os
    from .game import get_game

    spec = get_game(manifest["game"])
    if not can_intervene(spec, item):
        return None
    seed = int(manifest.get("seed", 0) if seed is None else seed)
    seating = manifest.get("seating", {}) or {}
    lineup = list(seating.get("lineup") or []) if seating.get("mode") == "rotate" else None
    fixed = list(seating.get("lineup") or []) if seating.get("mode") == "fixed" else None
    overrides = {k: str(v) for k, v in (manifest.get("params_changed") or {}).items()}
    key = f"{slug(item)}_{int(players)}p_{int(games)}_s{seed}_{spec.code_version()}"
    folder = os.path.join(str(run_path), "effects")
    path = os.path.join(folder, f"{key}.json")
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            pass  # a damaged cache entry is played again, never read
    res = to_json(
        item_effect(
            Study(
                spec,
                players=int(players),
                games=int(games),
                seed=seed,
                lineup=lineup or None,
                strategies=fixed or None,
                params=overrides,
            ),
            item,
        )
    )
    os.makedirs(folder, exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(res, f, indent=1, default=float)
    os.replace(tmp, path)
    return res
