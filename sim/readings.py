"""`sim readings`: which rulebook ambiguities change the balance.

Every game keeps its ambiguous readings as `rule.*` parameters (plus a few readings named otherwise, listed in
EXTRA_READINGS).  For each such parameter and each alternative value, the same games are played under the
default reading and under the alternative: same seeds, same seating (common random numbers), so each game gives
one paired difference per verdict family:
- turn order: the win share of each turn-order position (`order`),
- sides: the winning side's share, where the game has sides (BANG's `winner_team`),
- strategies: the mean win share of each strategy's seats,
- game length: rounds.
The change is the mean paired difference with a t interval (scipy.stats.ttest_1samp); p-values are Holm-corrected
over every comparison of the study (statsmodels multipletests).  A reading *matters* when some change is both
real (corrected p < alpha) and at least the report's practical threshold (turn order 2 points, strategies 3,
sides 5, length 10% of the default's mean rounds); *real but small* when real and under the threshold; *does not
matter* when every interval lies inside +- threshold; otherwise *unclear* (an interval reaches past the
threshold: more games needed).  Budgets are adaptive: unclear readings get another chunk of games, up to
--max-games.

How often the reading arises: `changed` is the share of paired games whose outcome (any turn-order position's win
share, or the winning side) differs between the two readings.  A reading whose games never change is *not
exercised*; one that changes fewer than RARE of them (and does not matter) is *rare*: the situation hardly arises
with these players, which is not the same as "it does not matter".

Provenance: every alternative is a rulebook-supported reading unless its parameter says otherwise (`Param.alt_prov`):
a *literal* reading (the words taken literally), or one that *contradicts* the rulebook, kept only as a
sensitivity check and listed apart.

Output folder: `manifest.json`, per-game metrics `games/<reading>/part-NNNNN.parquet` (the default reading is
`default`), and `summary.parquet` (one row per reading, value and metric).  Resumable: a finished chunk is kept.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import UserError
from .inputs import set_threads
from .results import read_manifest, write_json

THRESHOLDS = {"turn order": 0.02, "strategy": 0.03, "side": 0.05, "length": 0.10}  # length: relative
DEFAULT_GAMES = 2000  # paired games per reading and round
RARE = 0.01  # below this share of paired games with a changed outcome, a reading that does not matter is "rare"
PROVENANCE = {
    "supported": "rulebook-supported reading",
    "literal": "literal reading",
    "contradicts": "contradicts the rulebook",
}
EXTRA_READINGS = {
    # readings not named rule.*: the rulebook leaves them open (the note's ambiguity numbers; see each RULES.md)
    "cold_comfort": (
        "score.block",
        "build.resized_is_new",
        "score.empty_hotels",
        "grow.trigger_rule",
        "grow.connect",
        "grow.draw",
        "build.resize",
        "roll.hotel_priority",
        "roll.distance",
        "roll.tie_break",
        "roll.into_new_hotels",
        "fire.occupied",
        "fire.pass",
        "end.tie_break",
    ),
    "gunny_town": ("setup.start_ammo", "casino.payout"),
}
SIDE_COLUMN = "winner_team"


def reading_params(spec):
    """The game's reading parameters: rule.* and EXTRA_READINGS, each with at least one alternative."""
    out = []
    for p in spec.params.params:
        if not (p.name.startswith("rule.") or p.name in EXTRA_READINGS.get(spec.name, ())):
            continue
        if alternatives(p):
            out.append(p)
    return out


def alternatives(p):
    """Alternative values (as written) of a reading parameter: every other choice, the other switch position,
    or the neighbouring whole numbers of an integer reading."""
    if p.kind == "choice":
        return [c for c in p.choices if c != p.show(p.default)]
    if p.kind == "bool":
        return [p.show(1 - p.default)]
    if p.kind == "int":
        vals = [p.default - 1, p.default + 1]
        return [str(int(v)) for v in vals if (p.lo is None or v >= p.lo) and (p.hi is None or v <= p.hi)]
    return []


def provenance(p, value):
    """(tag, source) of an alternative reading: tag a key of PROVENANCE."""
    tag, src = p.alt_prov.get(str(value), ("supported", ""))
    if tag not in PROVENANCE:
        raise ValueError(f"{p.name}={value}: provenance {tag!r}, expected one of {', '.join(PROVENANCE)}")
    return tag, src


def reading_key(name, value):
    return f"{name}={value}"


def game_metrics(spec, design, out, start):
    """One row per game: win share per turn-order position, per strategy, per side, and rounds."""
    n_games = len(out["players"])
    n = int(out["players"][0])
    cols = {"game": np.arange(start, start + n_games)}
    order_j = spec.seat_columns.index("order")
    share = out["seat_f"][:, :n, 1]
    order = out["seat_int"][:, :n, order_j]
    for j in range(n):
        cols[f"order{j}"] = np.where(order == j, share, 0.0).sum(axis=1)
    strat = out["strat"][:, :n]
    for k, name in enumerate(design.slots):
        seats = strat == k
        cnt = seats.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            cols[f"strategy:{name}"] = np.where(cnt > 0, (share * seats).sum(axis=1) / np.maximum(cnt, 1), np.nan)
    if SIDE_COLUMN in spec.game_columns:
        v = out["game_int"][:, spec.game_columns.index(SIDE_COLUMN)]
        labels = spec.labels.get(SIDE_COLUMN, [])
        for code, lab in enumerate(labels):
            if lab in ("none", ""):
                continue
            cols[f"side:{lab}"] = (v == code).astype(float)
    length = "rounds" if "rounds" in spec.game_columns else None
    cols["rounds"] = out["game_int"][:, spec.game_columns.index(length)] if length else np.abs(out["steps"])
    cols["rounds"] = cols["rounds"].astype(float)
    capped = out["steps"] < 0
    if "end_reason" in spec.game_columns:  # games stopped by an engine safety cap, not by the rules' end
        labels = spec.labels.get("end_reason", [])
        caps = [k for k, lab in enumerate(labels) if "cap" in lab or lab == "stalled"]
        er = out["game_int"][:, spec.game_columns.index("end_reason")]
        capped = capped | np.isin(er, caps)
    cols["capped"] = capped
    return pd.DataFrame(cols)


def family(metric):
    if metric.startswith("order"):
        return "turn order"
    if metric.startswith("strategy:"):
        return "strategy"
    if metric.startswith("side:"):
        return "side"
    return "length"


def _paired(d):
    """Mean, interval and p of paired differences d (NaN dropped) by scipy's one-sample t test."""
    from scipy import stats as sps

    d = d[~np.isnan(d)]
    if len(d) < 2:
        return np.nan, np.nan, np.nan, np.nan
    m = float(d.mean())
    if np.all(d == d[0]):
        return m, m, m, (1.0 if m == 0 else 0.0)
    res = sps.ttest_1samp(d, 0.0)
    ci = res.confidence_interval(0.95)
    return m, float(ci.low), float(ci.high), float(res.pvalue)


def summarise(folder, alpha=0.05):
    """The summary table of a readings folder: one row per (reading, metric)."""
    from statsmodels.stats.multitest import multipletests

    folder = Path(folder)
    man = read_manifest(folder)
    base = _read(folder, "default")
    rows = []
    for r in man["readings"]:
        alt = _read(folder, r["key"])
        if alt is None or base is None:
            continue
        j = base.merge(alt, on="game", suffixes=("_d", "_a"))
        metrics = [c for c in base.columns if c not in ("game", "capped")]
        changed = _changed(j, metrics)
        for mname in metrics:
            d = (j[f"{mname}_a"] - j[f"{mname}_d"]).to_numpy(float)
            m, lo, hi, p = _paired(d)
            fam = family(mname)
            dmean = float(np.nanmean(j[f"{mname}_d"]))
            thr = THRESHOLDS[fam] * (dmean if fam == "length" else 1.0)
            rows.append(
                {
                    "param": r["param"],
                    "value": r["value"],
                    "default": r["default"],
                    "key": r["key"],
                    "doc": r["doc"],
                    "family": fam,
                    "metric": mname,
                    "games": len(j),
                    "default_mean": dmean,
                    "alt_mean": float(np.nanmean(j[f"{mname}_a"])),
                    "diff": m,
                    "low": lo,
                    "high": hi,
                    "p": p,
                    "threshold": thr,
                    "capped_default": float(j["capped_d"].mean()),
                    "capped_alt": float(j["capped_a"].mean()),
                    "changed": changed,
                    "provenance": r.get("provenance", "supported"),  # studies written before the tag: supported
                }
            )
    s = pd.DataFrame(rows)
    if s.empty:
        return s
    ok = s["p"].notna()
    s["p_holm"] = np.nan
    if ok.any():
        s.loc[ok, "p_holm"] = multipletests(s.loc[ok, "p"], alpha=alpha, method="holm")[1]
    s["verdict"] = [_verdict(r) for r in s.itertuples()]
    s["effect"] = (s["diff"].abs() / s["threshold"]).where(s["threshold"] > 0, 0.0)
    return s


def _changed(j, metrics):
    """Share of the paired games whose outcome differs: any turn-order position's win share or the winning side."""
    cols = [m for m in metrics if m.startswith(("order", "side:"))]
    if not cols or not len(j):
        return np.nan
    a = j[[f"{m}_a" for m in cols]].to_numpy(float)
    d = j[[f"{m}_d" for m in cols]].to_numpy(float)
    return float((np.abs(a - d) > 1e-9).any(axis=1).mean())


def _verdict(r):
    if r.changed == 0:
        return "not exercised"  # no game played out differently: the reading was never tested
    if np.isnan(r.diff):
        return "unclear"
    real = r.p_holm < 0.05 if not np.isnan(r.p_holm) else False
    if real:
        return "matters" if abs(r.diff) >= r.threshold else "real but small"
    if r.changed < RARE:
        return "rare"
    if r.low >= -r.threshold and r.high <= r.threshold:
        return "does not matter"
    return "unclear"


RANK = {"matters": 0, "unclear": 1, "real but small": 2, "rare": 3, "does not matter": 4, "not exercised": 5}


def per_reading(summary):
    """One row per reading: its overall verdict (the worst of its metrics) and its largest change."""
    if summary.empty:
        return summary
    rows = []
    for _key, g in summary.groupby("key", sort=False):
        g = g.assign(rank=g["verdict"].map(RANK))
        worst = g.sort_values(["rank", "effect"], ascending=[True, False]).iloc[0]
        rows.append(
            {
                "param": worst["param"],
                "value": worst["value"],
                "default": worst["default"],
                "doc": worst["doc"],
                "verdict": worst["verdict"],
                "games": worst["games"],
                "metric": worst["metric"],
                "family": worst["family"],
                "diff": worst["diff"],
                "low": worst["low"],
                "high": worst["high"],
                "threshold": worst["threshold"],
                "effect": float(g["effect"].max()),
                "rank": RANK[worst["verdict"]],
                "capped_default": worst["capped_default"],
                "capped_alt": worst["capped_alt"],
                "changed": worst["changed"],
                "provenance": worst["provenance"],
            }
        )
    out = pd.DataFrame(rows)
    out["_apart"] = out["provenance"] == "contradicts"  # sensitivity checks after the real ambiguities
    out = out.sort_values(["_apart", "rank", "effect"], ascending=[True, True, False])
    return out.drop(columns=["rank", "_apart"]).reset_index(drop=True)


def _read(folder, key):
    d = Path(folder) / "games" / _safe(key)
    if not d.exists() or not any(d.glob("part-*.parquet")):
        return None
    return pd.concat([pd.read_parquet(f) for f in sorted(d.glob("part-*.parquet"))], ignore_index=True)


def _safe(key):
    return key.replace("/", "_")


def _fmt(metric, fam, v):
    if fam == "length":
        return f"{v:+.2f} rounds"
    return f"{100 * v:+.1f} pts"


def _cap_note(r):
    """A warning when the alternative makes games stop at an engine cap (turn, round or step cap, stall): its changes
    then describe games the rules never finish."""
    if r.capped_alt > max(0.01, 2 * r.capped_default):
        return f"  [!] {100 * r.capped_alt:.0f}% of games stop at an engine cap (default {100 * r.capped_default:.0f}%)"
    return ""


def table_lines(summary):
    """The readable table: one line per reading, most mattering first."""
    pr = per_reading(summary)
    if pr.empty:
        return ["no readings measured"]
    lines = [f"{'reading':48s} {'verdict':16s} {'games':>6s} {'changed':>8s}  largest change (95% interval)"]
    apart = False
    for r in pr.itertuples():
        if r.provenance == "contradicts" and not apart:
            apart = True
            lines.append("sensitivity checks (these alternatives contradict the rulebook):")
        tag = "" if r.provenance == "supported" else f"  ({PROVENANCE[r.provenance]})"
        lines.append(
            f"{r.param + ' = ' + r.value:48s} {r.verdict:16s} {r.games:6d} {100 * r.changed:7.1f}%  {r.metric}: "
            f"{_fmt(r.metric, r.family, r.diff)} [{_fmt(r.metric, r.family, r.low)}, "
            f"{_fmt(r.metric, r.family, r.high)}] (threshold {_fmt(r.metric, r.family, r.threshold)[1:]})"
            + _cap_note(r)
            + tag
        )
    return lines


def run_readings(study, max_games=None, only=None, overwrite=False):
    """Play the study's readings (one player count; `study.games` paired games per reading and round, default
    2000), resuming what is in `study.out`, and return its summary table."""

    from .runner import output_buffers, prepare, simulate

    spec, players, games = study.spec, study.player_count("readings"), study.games_or(DEFAULT_GAMES)
    seed, out, lineup = study.seed, study.out, list(study.lineup) if study.lineup else None
    threads, progress, command = study.threads, study.progress, study.command
    if games < 2:
        raise UserError(f"--games must be at least 2 (got {games})")
    max_games = int(max_games or games)
    if max_games < games:
        raise UserError(f"--max-games ({max_games}) must be at least --games ({games})")
    set_threads(threads)
    base_sets = study.overrides
    rparams = reading_params(spec)
    if only:
        wanted = set(only)
        unknown = wanted - {p.name for p in rparams}
        if unknown:
            raise UserError(
                f"not a reading parameter of {spec.name}: {', '.join(sorted(unknown))}. Valid: "
                f"{', '.join(p.name for p in rparams)}"
            )
        rparams = [p for p in rparams if p.name in wanted]
    readings = []
    for p in rparams:
        if p.name in base_sets:  # fixed by --set or the preset: not studied
            continue
        for v in alternatives(p):
            tag, src = provenance(p, v)
            readings.append(
                {
                    "param": p.name,
                    "value": v,
                    "default": p.show(p.default),
                    "doc": p.doc,
                    "key": reading_key(p.name, v),
                    "provenance": tag,
                    "provenance_src": src,
                }
            )
    _, design, pdef = prepare(spec, (players,), games, lineup, None, False, base_sets)
    request = {
        "game": spec.name,
        "players": players,
        "chunk": int(games),
        "seed": seed,
        "lineup": list(design.lineup),
        "base": spec.params.describe(pdef),
        "game_code": spec.code_version(),
    }
    out = Path(out)
    old = read_manifest(out)
    if old is not None and old.get("request") != request:
        if not overwrite:
            raise UserError(f"{out} already holds a different readings study; choose another --out or pass --overwrite")
        import shutil

        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {
        "kind": "readings",
        "game": spec.name,
        "title": spec.title,
        "request": request,
        "players": players,
        "preset": study.preset,
        "params_set": base_sets,
        "readings": readings,
        "max_games": max_games,
        "command": command or " ".join(sys.argv),
        "assumed_components": spec.assumed_components,
    }
    write_json(out / "manifest.json", manifest)
    vec = {r["key"]: spec.params.resolve({**base_sets, r["param"]: r["value"]}) for r in readings}
    vec["default"] = pdef
    max_chunks = -(-max_games // games)
    design_big = prepare(spec, (players,), max_chunks * games, lineup, None, False, base_sets)[1]
    buffers = output_buffers(spec, games)
    bar = _bar(progress, spec.name)

    def play(key, c):
        path = out / "games" / _safe(key) / f"part-{c:05d}.parquet"
        if path.exists():
            return
        start, stop = c * games, (c + 1) * games
        arrays = simulate(spec, design_big, vec[key], seed, start, stop, buffers)
        df = game_metrics(spec, design_big, arrays, start)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), tmp)
        tmp.replace(path)
        bar.update(stop - start)

    active = [r["key"] for r in readings]
    chunks = 0
    summary = pd.DataFrame()
    try:
        while active and chunks < max_chunks:
            bar.total = (bar.total or 0) + games * (len(active) + 1)
            play("default", chunks)
            for key in active:
                play(key, chunks)
            chunks += 1
            summary = summarise(out)
            pr = per_reading(summary)
            active = [
                r["key"]
                for r in readings
                if not pr.empty
                and pr[(pr["param"] == r["param"]) & (pr["value"] == r["value"])]["verdict"].eq("unclear").any()
            ]
    finally:
        bar.close()
    summary = summarise(out)
    if not summary.empty:
        summary.to_parquet(out / "summary.parquet", index=False)
    return summary


class _Quiet:
    total = 0

    def update(self, n):
        pass

    def close(self):
        pass


def _bar(enabled, name):
    if not enabled:
        return _Quiet()
    from tqdm.auto import tqdm

    return tqdm(total=0, unit=" games", unit_scale=True, desc=f"{name} readings", dynamic_ncols=True)
