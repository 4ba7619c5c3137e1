"""Team games: which side wins at each player count, against a designer's target, and elimination downtime.

- `side_rates`: per player count, the share of games each side (a value of a game column such as BANG's
  `winner_team`) wins, with a Wilson interval (one row per game: exact binomial sense) and the target share:
  given targets ({side: share}) or, by default, equal sides (1 / the number of sides seen at that player count).
  Sides not named in the targets share what the named ones leave. Games no side won ("none") are counted in the
  denominator and reported as `no_winner`, never as a side.
- `downtime`: per player count, how long eliminated players wait: the share of players out before half of the
  game (eliminated at a turn before half the game's turns), the mean share of the game a player spends out, both
  cluster-robust by game (sim.analysis.stats.cluster_rate), and the mean turns an eliminated player spends out
  (statsmodels OLS intercept, standard errors clustered by game).
"""
import numpy as np
import pandas as pd
import statsmodels.api as sm

from .load import game_key
from .stats import against_value, cluster_rate, wilson, z_value

NO_SIDE = ("none", "", "no_winner")


def side_name(label):
    """A side's name without a player-count suffix ('outlaw_3p' -> 'outlaw')."""
    return str(label).removesuffix("_3p")


def parse_targets(text):
    """'law=0.5,outlaws=0.3' (or a dict) -> {side: share}; shares in [0, 1], at most 1 in total."""
    if not text:
        return {}
    if isinstance(text, dict):
        out = {str(k): float(v) for k, v in text.items()}
    else:
        out = {}
        for part in str(text).replace(";", ",").split(","):
            if not part.strip():
                continue
            k, sep, v = part.partition("=")
            if not sep:
                raise ValueError(f"target '{part}' is not SIDE=SHARE")
            out[k.strip()] = float(v)
    if any(not 0 <= v <= 1 for v in out.values()) or sum(out.values()) > 1 + 1e-9:
        raise ValueError("target shares must lie in [0, 1] and add up to at most 1")
    return out


def side_rates(games, column="winner_team", targets=None, alpha=0.05):
    """One row per (players, side): games, wins, rate, low, high (Wilson), target, excess, p (score test of rate =
    target), plus no_winner (share of that player count's games no side won)."""
    targets = parse_targets(targets)
    rows = []
    for n, g in games[["players", column]].groupby("players", observed=True):
        counts = {}                         # label -> games, without a string copy of the column
        for x, k in g[column].value_counts(dropna=False, sort=False).items():
            if k:
                counts[str(x)] = counts.get(str(x), 0) + int(k)
        sides = sorted(x for x in counts if x not in NO_SIDE)
        named = {s: targets[side_name(s)] for s in sides if side_name(s) in targets}
        rest = [s for s in sides if s not in named]
        left = max(0.0, 1.0 - sum(named.values()))
        G = len(g)
        none = sum(counts.get(x, 0) for x in NO_SIDE) / G
        for s in sides:
            w = float(counts[s])
            rows.append({"players": int(n), "side": side_name(s), "label": s, "games": G, "wins": w,
                         "target": named.get(s, left / len(rest) if rest else np.nan), "no_winner": none})
    t = pd.DataFrame(rows)
    if t.empty:
        return t
    t["rate"] = t["wins"] / t["games"]
    t["low"], t["high"] = wilson(t["wins"].to_numpy(), t["games"].to_numpy(), alpha)
    t["excess"] = t["rate"] - t["target"]
    t["p"], _, _ = against_value(t["wins"], t["games"], t["target"].clip(1e-9, 1 - 1e-9), alpha)
    return t


def downtime(seats, games, length="turns", alpha=0.05):
    """Per player count: out_early (share of players eliminated before half the game's `length`), share_out
    (mean share of the game a player spends eliminated, 0 for survivors), turns_out (mean turns an eliminated
    player waits), each with low/high; eliminated (share of players eliminated)."""
    key = game_key(seats)
    rows = []
    z = z_value(alpha)
    from .seats import groups_of
    for n, part in groups_of(seats, ["players"], key + ["players", "eliminated", "elim_turn"]):
        sub = _downtime_rows(part, games.loc[(games["players"] == n).to_numpy(), key + [length]], key, length)
        del part
        r = {"players": int(n), "games": int(sub[key].drop_duplicates().shape[0]), "seats": len(sub)}
        for col, name in (("_early", "out_early"), ("_share", "share_out"), ("_out", "eliminated")):
            c = cluster_rate(sub, col, key, alpha=alpha)
            r[name], r[f"{name}_low"], r[f"{name}_high"] = (float(c["rate"].iloc[0]), float(c["low"].iloc[0]),
                                                            float(c["high"].iloc[0]))
        e = sub[sub["_out"] > 0]
        if len(e) > 1:
            gcode = e.groupby(key, observed=True, sort=False).ngroup().to_numpy()
            res = sm.OLS(e["_turns"].to_numpy(dtype=float), np.ones(len(e))).fit(
                cov_type="cluster", cov_kwds={"groups": gcode}, use_t=False)
            m, se = float(res.params[0]), float(res.bse[0])
            r["turns_out"], r["turns_out_low"], r["turns_out_high"] = m, m - z * se, m + z * se
        else:
            r["turns_out"] = r["turns_out_low"] = r["turns_out_high"] = np.nan
        rows.append(r)
    return pd.DataFrame(rows)


def _downtime_rows(seats, games, key, length):
    """The seat rows of `downtime` with the game's length and the working columns _early, _share, _turns, _out."""
    d = seats.merge(games[key + [length]], on=key)
    L = d[length].astype(float).clip(lower=1)
    out = (d["eliminated"].astype(bool)) & (d["elim_turn"] >= 0)
    d["_early"] = (out & (d["elim_turn"] < L / 2)).astype(float)
    d["_share"] = np.where(out, ((L - d["elim_turn"]) / L).clip(0, 1), 0.0)
    d["_turns"] = np.where(out, (L - d["elim_turn"]).clip(lower=0), np.nan)
    d["_out"] = out.astype(float)
    return d
