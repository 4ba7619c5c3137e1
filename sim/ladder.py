"""`sim ladder RUN`: the run's settings played by successively stronger populations of players (issue 35).

Rung 0 is the run itself (its results, not replayed).  Each further rung is a named population, a line-up, played
with the run's game, player counts, rule parameters, seating and seed:
- `tuned`: the previous line-up with every preset replaced by the game's shipped tuned version (sim.knobs);
- a search name without a policy (`search`, `search64`, `search16x8`...): every seat of the last line-up that was
  not a search becomes that search with the seat's preset as its rollout policy (`search@rail_baron_tuned`; after a
  field, the game's default policy);
- anything else: a line-up as `sim run --lineup` takes it (`a,b,c`, or `field` / `field:<file>`, which the seating
  code expands: every seat drawn from the game's equilibrium field, without the run's mirror or all-rotations
  seating), so later populations plug in without code here.
The default rungs are `tuned`, `search` and a search with four times the game's rollouts.

Budgets are sequential: a rung is played in batches (`--games` games per player count for heuristic line-ups,
`--search-games` for searches) until every headline metric's 95% interval settles its direction (excludes fair, or
lies within the threshold; sim.analysis.ladder.direction) or `--max-batches` is reached.  Batch b of every rung is
a normal results folder `RUN/ladder/<k>-<rung>/batch-<b>` played by sim.runner.run_study (locks, checksums and
resume come with it); batch 0 uses the run's seed, so it replays the run's first games with other players.  The
decision to play another batch depends only on finished batches, so the ladder is the same for any thread count
and after an interruption.  Headline metrics are the ones the report would headline on rung 0 (the picks of its
seat, side, strategy and item families); items are measured by `sim effect` (paired games) on every rung.

Output: `RUN/ladder/summary.parquet` (one row per metric and rung: value, interval, direction, and the metric's
label from sim.analysis.ladder.ladder_labels) and `RUN/ladder/ladder.json` (rungs, batches, why each stopped,
CPU time).  `--plan` measures the CPU seconds per game of every rung instead.
"""

import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .errors import UserError
from .field import is_field
from .study import Study

GAMES = 2000  # games per player count in a batch of a heuristic rung
SEARCH_GAMES = 200  # ... of a search rung
MAX_BATCHES = 5
ROLLOUT_CHECK_GAMES = 40  # mirror games of each search rung's rollout policy, checked before playing
ROLLOUT_CAPPED = 0.05  # ... refused when more of them than this reach the engine's step cap
SEARCH_CHUNKS = 10  # a search batch is written in this many chunks: progress and resume within a batch
EFFECT_GAMES = 2000  # paired games per item on a heuristic rung (sim effect); a search rung plays a tenth
SEAT_COLUMNS = ("game", "players", "strategy", "order", "win_share")
_SEARCH = re.compile(r"^search\d*(?:x\d+)?(?:z[0-9.]+)?(?:_peek)?$")


@dataclass(frozen=True)
class Rung:
    index: int
    name: str  # as given (`tuned`, `search`, a line-up)
    lineup: tuple
    mode: str  # "rotate" or "fixed", as the run's seating
    search: bool  # some seat is a rollout search (the expensive kind)

    @property
    def folder(self):
        slug = re.sub(r"[^A-Za-z0-9_.@-]+", "-", self.name).strip("-")[:60] or "rung"
        return f"{self.index}-{slug}"


def _is_search(name):
    return str(name).startswith("search")


def default_rungs(spec):
    from .search import default_rollouts

    return ("tuned", "search", f"search{4 * default_rollouts(spec)}")


def parse_rungs(text):
    """'tuned;search;search64' -> names (a line-up rung is comma-separated: 'field;ismcts,field,field,field')."""
    if text is None:
        return None
    names = [t.strip() for t in re.split(r"[;\s]+", text) if t.strip()]
    if not names:
        raise UserError(f"--rungs names no rung (got '{text}'); e.g. --rungs 'tuned;search;search64'")
    return names


def resolve_rungs(spec, manifest, names=None):
    """The ladder's rungs (rung 0 the run's own players), each a validated line-up.  UserError on a name the game
    does not know, before anything is written."""
    from .knobs import expand_lineup, load_shipped

    seating = manifest.get("seating") or {}
    mode = seating.get("mode", "rotate")
    base = tuple(seating.get("lineup") or spec.default_lineup)
    rungs = [Rung(0, "run", base, mode, any(_is_search(n) for n in base))]
    shipped = None
    last_plain = base  # the last line-up that is not a search: the policies of a search rung
    for name in default_rungs(spec) if names is None else names:
        if name == "tuned":
            shipped = load_shipped(spec) if shipped is None else shipped
            lineup = tuple(shipped[n].name if n in shipped else n for n in last_plain)
            if lineup == last_plain:
                print(f"note: rung 'tuned' skipped: {spec.name} ships no tuned version of {', '.join(last_plain)}")
                continue
        elif _SEARCH.match(name):
            lineup = tuple(_search_over(name, n) for n in last_plain)
        else:
            lineup = tuple(n.strip() for n in name.split(",") if n.strip())
            if any(n == "tuned" or n.endswith("_tuned") for n in lineup):
                load_shipped(spec)
            lineup = tuple(expand_lineup(spec, list(lineup)))
        if any(n.endswith("_tuned") for n in lineup):
            load_shipped(spec)  # search@x_tuned needs the shipped presets registered
        for n in dict.fromkeys(lineup):
            if not is_field(n):
                spec.strategy(n)  # one line naming the unknown strategy and the valid ones
        k = len(rungs)
        rungs.append(
            Rung(k, name, lineup, mode if len(lineup) == len(base) else "rotate", any(map(_is_search, lineup)))
        )
        if not rungs[-1].search:
            last_plain = lineup
    return rungs


def check_rollout_policies(spec, rungs, players, overrides=None):
    """Refuse (UserError, before anything is played) a search rung whose rollout policy stalls: a search plays
    its rollouts with one preset in every seat, and a preset whose mirror games reach the engine's step cap makes
    every rollout run to the cap, tens of CPU seconds a game for rollouts that say nothing about who wins (Raccoon
    Tycoon's town_builder_tuned: most of its 4-player mirror games stall)."""
    from .runner import prepare, simulate
    from .search import rollout_policy

    policies = {}
    for rung in rungs:
        for name in filter(_is_search, rung.lineup):
            policies.setdefault(rollout_policy(spec, name).name, rung.name)
    for policy, rung in policies.items():
        for n in players:
            sp, design, pvec = prepare(spec, (int(n),), ROLLOUT_CHECK_GAMES, [policy] * int(n), None, False, overrides)
            capped = float((simulate(sp, design, pvec, 0, 0, design.total)["steps"] < 0).mean())
            if capped > ROLLOUT_CAPPED:
                raise UserError(
                    f"rung '{rung}': its rollout policy {policy} stalls ({100 * capped:.0f}% of {design.total} "
                    f"{n}-player games with {policy} in every seat reach the step cap); give that rung as a line-up "
                    f"of searches over a policy that finishes its games, e.g. --rungs "
                    f"'tuned;{','.join(['search@' + rollout_policy(spec, 'search').name] * int(n))}'"
                )


def _overrides(manifest):
    """The run's changed rule parameters, as prepare() takes them."""
    return {k: str(v) for k, v in (manifest.get("params_changed") or {}).items()}


def _search_over(search, name):
    """The search `search` playing seat preset `name` as its rollout policy (a search seat: its own policy; the
    random player: the search's default policy)."""
    if _is_search(name):
        name = name.split("@", 1)[1] if "@" in name else "random"
    return search if name == "random" or is_field(name) else f"{search}@{name}"


def batch_seed(seed, b):
    """Batch 0 plays the run's seed; batch b > 0 a seed derived from it (independent games)."""
    from .rng import game_seed

    return int(seed) if b == 0 else int(game_seed(np.uint64(seed), (1 << 40) + b))


# ----------------------------------------------------------------------------------------------- tables


def _columns(spec, games_cols):
    side = getattr(spec, "side_column", "") or ""
    return [c for c in ("game", "players", side) if c and c in games_cols]


def read_tables(paths, spec):
    """(seats, games) of one or more run folders, game ids made distinct across folders."""
    from .analysis import load_run

    seats, games = [], []
    offset = 0
    for p in paths:
        run = load_run(p)
        s = run.seats(columns=list(SEAT_COLUMNS))
        g = run.games(columns=_columns(spec, run.columns("games")))
        if len(s):
            s["game"] = s["game"].astype(np.int64) + offset
            g["game"] = g["game"].astype(np.int64) + offset
            offset = int(s["game"].max()) + 1
        seats.append(s)
        games.append(g)
    return pd.concat(seats, ignore_index=True), pd.concat(games, ignore_index=True)


def metrics(spec, seats, games, targets=None):
    from .analysis.ladder import rung_metrics

    return rung_metrics(seats, games, getattr(spec, "side_column", "") or None, targets)


def headlines(spec, seats, games, items, targets=None):
    """The (family, players, key) of the metrics the report headlines on the run (rung 0): the picks of its seat,
    side and strategy families (strategies by archetype), and its red or amber item picks that `sim effect` can
    measure (at the reference player count)."""
    from .analysis.ladder import archetype
    from .report import verdicts as vd

    side = getattr(spec, "side_column", "") or ""
    arch = seats.assign(strategy=[archetype(s) for s in seats["strategy"].astype(str)])
    fams = vd.report_families(arch, items, games, side=side)
    fa = vd.ALPHA / len(fams)
    out = [
        ("seat", int(r["players"]), str(int(r["order"]))) for r in vd.seat_picks(vd.seat_family(seats, family_alpha=fa))
    ]
    if side and side in games.columns:
        out += [
            ("side", int(r["players"]), str(r["side"]))
            for r in vd.side_picks(vd.side_family(games, side, targets=targets, family_alpha=fa))
        ]
    if arch["strategy"].nunique() > 1:
        out += [
            ("strategy", 0, str(r["strategy"])) for r in vd.strategy_picks(vd.strategy_family(arch, family_alpha=fa))
        ]
    return out


def item_headlines(spec, run_path):
    """Items the report would headline (red or amber association) that `sim effect` can remove, largest first."""
    from .analysis import load_run
    from .effect import can_intervene
    from .report import verdicts as vd
    from .report.data import _item_sample, _seat_columns
    from .report.model import EFFECT_ITEMS

    run = load_run(run_path)
    if not (Path(run_path) / "items").is_dir():
        return []
    seats = run.seats(columns=_seat_columns(run.columns("seats"), spec), compact=True)
    sample = _item_sample(run, seats)
    if sample is None or not sample.rows:
        return []
    fam = vd.item_family(sample.seats, sample.items, max_rows=max(250_000, len(sample.seats)))
    hot = [r for r in vd.item_picks(fam) if r["verdict"] in ("red", "amber") and can_intervene(spec, str(r["item"]))]
    return [str(r["item"]) for r in sorted(hot, key=lambda r: -abs(r["rel_pp"]))[:EFFECT_ITEMS]]


# ----------------------------------------------------------------------------------------------- the ladder


def _player_counts(man, players):
    """The player counts the rungs play: the run's, or the subset asked for (UserError naming the run's)."""
    counts = [int(n) for n in man.get("players", [])]
    if not players:
        return counts
    bad = [n for n in players if n not in counts]
    if bad:
        raise UserError(
            f"--players {','.join(map(str, bad))}: the run has no such player count "
            f"(it has {','.join(map(str, counts))})"
        )
    return [n for n in counts if n in set(players)]


def _request(spec, man, rungs, games, search_games, max_batches, effect_games, players=None):
    return {
        "game": spec.name,
        "run_seed": int(man.get("seed", 0)),
        "players": _player_counts(man, players),
        "params": man.get("params_changed") or {},
        "rungs": [{"name": r.name, "lineup": list(r.lineup), "mode": r.mode} for r in rungs],
        "games": int(games),
        "search_games": int(search_games),
        "max_batches": int(max_batches),
        "effect_games": int(effect_games),
        "game_code": spec.code_version(),
    }


def _check_int(v, flag, lo=1):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or int(v) < lo:
        raise UserError(f"{flag} must be a whole number of at least {lo} (got {v!r})")
    return int(v)


def open_run(run_path):
    from .game import get_game
    from .results import read_manifest

    run_path = Path(run_path)
    man = read_manifest(run_path) if run_path.is_dir() else None
    if man is None:
        raise UserError(f"{run_path} is not a run folder (no manifest.json); give the folder `sim run` wrote")
    if man.get("kind") == "sweep":
        raise UserError(f"{run_path} is a sweep; the ladder takes a run folder (one configuration)")
    if man.get("status") != "complete":
        raise UserError(f"{run_path} is not complete (status {man.get('status')!r}); finish it with its command first")
    return run_path, man, get_game(man["game"])


def run_ladder(
    run_path,
    study=None,
    rungs=None,
    search_games=SEARCH_GAMES,
    max_batches=MAX_BATCHES,
    effect_games=EFFECT_GAMES,
    targets=None,
    fresh=False,
    log=print,
    scheduler=None,
):
    """Play the ladder of a finished run (resumable) and write RUN/ladder/summary.parquet; returns the summary.
    scheduler: a dask.distributed address or Client that plays the batches' chunks (same results; item effects
    are measured on this machine).

    study: the shared settings, of the run's game: `games` per player count in a batch of a heuristic rung
    (default GAMES), `players` (default: all of the run's), `threads`, `progress`."""
    import shutil

    from .lock import FolderLock
    from .results import write_json

    run_path, man, spec = open_run(run_path)
    study = study or Study(spec)
    if study.name != spec.name:
        raise UserError(f"the study is of {study.name}, the run {run_path} of {spec.name}")
    games, threads, progress = study.games_or(GAMES), study.threads, study.progress
    players = study.players or None
    games = _check_int(games, "--games")
    search_games = _check_int(search_games, "--search-games")
    max_batches = _check_int(max_batches, "--max-batches")
    effect_games = _check_int(effect_games, "--effect-games", 0)
    ladder = resolve_rungs(spec, man, rungs)
    if len(ladder) < 2:
        raise UserError("the ladder has no rung above the run's own players; name some with --rungs")
    request = _request(spec, man, ladder, games, search_games, max_batches, effect_games, players)
    check_rollout_policies(spec, ladder, request["players"], _overrides(man))
    out = run_path / "ladder"
    from .distributed import cluster_client

    with cluster_client(scheduler) as client, FolderLock(out, "sim ladder"):
        old = _read_json(out / "ladder.json")
        if fresh and out.exists():
            shutil.rmtree(out)
        elif old is not None and old.get("request") != request:  # other rungs or budgets: batches that still fit
            keys = sorted(k for k in set(old["request"]) | set(request) if old["request"].get(k) != request.get(k))
            log(f"note: the ladder's {', '.join(keys)} changed; batches played with the same settings are kept")
        out.mkdir(parents=True, exist_ok=True)
        state = {"request": request, "rungs": {}, "status": "running"}
        write_json(out / "ladder.json", state)
        seats0, games0 = read_tables([run_path], spec)
        keep = seats0["players"].isin(request["players"])
        seats0, games0 = seats0[keep], games0[games0["players"].isin(request["players"])]
        heads = headlines(spec, seats0, games0, None, targets)
        items = item_headlines(spec, run_path) if effect_games else []
        n_ref = _reference_players(spec, request["players"])
        heads += [("item", n_ref, it) for it in items]
        tables = [_with_rung(metrics(spec, seats0, games0, targets), ladder[0])]
        if items:
            tables.append(_with_rung(_effects(spec, man, run_path, ladder[0], items, n_ref, effect_games), ladder[0]))
        for rung in ladder[1:]:
            t0 = time.process_time()
            m, info = _play_rung(
                spec, man, out, rung, heads, items, n_ref, request, (threads, client), targets, progress, log
            )
            info["cpu_s"] = round(time.process_time() - t0, 1)
            state["rungs"][rung.folder] = info
            write_json(out / "ladder.json", state)
            tables.append(_with_rung(m, rung))
        from .analysis.ladder import ladder_labels

        summary = ladder_labels(pd.concat(tables, ignore_index=True))
        hk = set(heads)
        summary["headline"] = [k in hk for k in zip(summary["family"], summary["players"], summary["key"])]
        tmp = out / ".summary.parquet.tmp"
        summary.to_parquet(tmp, index=False)
        tmp.replace(out / "summary.parquet")
        state["status"] = "complete"
        write_json(out / "ladder.json", state)
    return summary


def _read_json(path):
    import json

    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        return None
    except ValueError:
        raise UserError(f"{path} is corrupt; pass --fresh to start the ladder afresh") from None


def _reference_players(spec, counts):
    return int(spec.default_players) if spec.default_players in counts else counts[0]


def _with_rung(m, rung):
    return m.assign(rung=rung.index, rung_name=rung.name, lineup=",".join(rung.lineup))


def _play_rung(spec, man, out, rung, heads, items, n_ref, request, where, targets, progress, log):
    """Batches of one rung until its headline metrics settle or the cap; (metrics, record).  where: (threads, the
    Dask client or None)."""
    from .runner import run_study

    threads, client = where
    seating = man.get("seating") or {}
    batch = request["search_games"] if rung.search else request["games"]
    overrides = _overrides(man)
    kw = {"lineup": list(rung.lineup)} if rung.mode == "rotate" else {"strategies": list(rung.lineup)}
    drawn = any(map(is_field, rung.lineup))  # a field draws every seat: no mirror or all-rotations seating
    folders, why = [], "cap"
    for b in range(request["max_batches"]):
        folder = out / rung.folder / f"batch-{b:03d}"
        run_study(
            spec,
            folder,
            games=batch,
            players=request["players"],
            all_rotations=bool(seating.get("all_rotations")) and not drawn,
            mirror=bool(seating.get("mirror")) and not drawn,
            seed=batch_seed(request["run_seed"], b),
            params=overrides,
            threads=threads,
            progress=progress,
            overwrite=True,  # the same request resumes; another (a code change) is replaced
            chunk_size=_search_chunk(batch) if rung.search else None,
            scheduler=client,
            command=f"sim ladder {out.parent} (rung {rung.folder}, batch {b})",
            **kw,
        )
        folders.append(folder)
        seats, games = read_tables(folders, spec)
        m = metrics(spec, seats, games, targets)
        open_ = _open_heads(m, heads)
        log(f"rung {rung.folder}: {len(folders) * batch:,} games per player count, {len(open_)} headline(s) unsettled")
        if not open_:
            why = "settled"
            break
    if items:
        eff = _effects(spec, man, out / rung.folder, rung, items, n_ref, _effect_games(request, rung))
        m = pd.concat([m, eff], ignore_index=True)
    return m, {"lineup": list(rung.lineup), "batches": len(folders), "games": len(folders) * batch, "stop": why}


def _search_chunk(batch):
    """Chunk size of a search batch: a search game costs 0.1-3 CPU s, so a batch in one chunk would show no progress
    and lose every finished game to an interruption (results do not depend on the chunking)."""
    return max(1, -(-int(batch) // SEARCH_CHUNKS))


def _open_heads(m, heads):
    from .analysis.ladder import settled

    ok = m[settled(m)]
    have = set(zip(ok["family"], ok["players"], ok["key"]))
    return [h for h in heads if h[0] != "item" and h not in have]


def _effect_games(request, rung):
    n = request["effect_games"]
    return max(1, n // 10) if rung.search else n


def _effects(spec, man, folder, rung, items, n, games):
    """The items' causal effects on one rung (sim effect with the rung's line-up, paired games), cached as JSON in
    the rung's folder (rung 0: the report's own cache, RUN/effects/)."""
    from .analysis.ladder import effect_row
    from .effect import cached_effect, item_effect, slug, to_json
    from .results import write_json

    rows = []
    for item in items:
        if rung.index == 0:
            res = cached_effect(folder, man, item, n, games)
        else:
            path = (
                Path(folder) / "effects" / f"{slug(item)}_{n}p_{games}_s{man.get('seed', 0)}_{spec.code_version()}.json"
            )
            res = _read_json(path)
            if res is None:
                kw = {"lineup": list(rung.lineup)} if rung.mode == "rotate" else {"strategies": list(rung.lineup)}
                overrides = _overrides(man)
                res = to_json(
                    item_effect(
                        Study(spec, players=n, games=games, seed=int(man.get("seed", 0)), params=overrides, **kw), item
                    )
                )
                path.parent.mkdir(parents=True, exist_ok=True)
                write_json(path, res)
        if res:
            rows.append(effect_row(item, n, res))
    from .analysis.ladder import KEY

    return pd.DataFrame(rows, columns=KEY + ["games", "value", "low", "high", "fair", "threshold"])


# ----------------------------------------------------------------------------------------------- --plan


def plan(run_path, rungs=None, players=4, games=6, threads=1):
    """CPU seconds per game of every rung at `players` (measured on `games` games after a compile), as a table."""
    import numba

    from .runner import prepare, simulate

    run_path, man, spec = open_run(run_path)
    ladder = resolve_rungs(spec, man, rungs)
    lo, hi = spec.players
    if not lo <= int(players) <= hi:
        raise UserError(f"--players {players}: {spec.name} plays {lo}-{hi}")
    games = _check_int(games, "--plan-games")
    numba.set_num_threads(int(threads))
    overrides = _overrides(man)
    check_rollout_policies(spec, ladder, (int(players),), overrides)
    rows = []
    for rung in ladder:
        kw = (list(rung.lineup), None) if rung.mode == "rotate" else (None, list(rung.lineup))
        sp, design, pvec = prepare(spec, (int(players),), games, kw[0], kw[1], False, overrides)
        simulate(sp, design, pvec, 1, 0, 1)  # compile or load
        t0, w0 = time.process_time(), time.perf_counter()
        simulate(sp, design, pvec, int(man.get("seed", 0)), 0, games)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        rows.append(
            {
                "rung": rung.folder,
                "lineup": ",".join(rung.lineup),
                "games": games,
                "cpu_s_per_game": cpu / games,
                "wall_s_per_game": wall / games,
            }
        )
    return spec, pd.DataFrame(rows)


def plan_lines(spec, table, players, batch, search_batch):
    lines = [f"{spec.name}, {players} players: CPU seconds per game of each rung (1 thread)"]
    for _, r in table.iterrows():
        b = search_batch if "search" in r["lineup"] else batch
        cost = (
            "the run itself: not replayed"
            if r["rung"].startswith("0-")
            else f"a batch of {b:,} games: {b * r['cpu_s_per_game']:.0f} CPU s per player count"
        )
        lines.append(
            f"  {r['rung']:<16} {r['cpu_s_per_game']:.4f} s/game ({r['games']} games)   {cost}   [{r['lineup']}]"
        )
    return lines


def log_stderr(msg):
    print(msg, file=sys.stderr)


# ----------------------------------------------------------------------------------------------- reading it


def describe(family, players, key):
    """A metric in words: 'position 1, 4 players', 'outlaws side, 5 players', 'strategy rail_baron', 'item X'."""
    if family == "seat":
        return f"position {int(key) + 1}, {int(players)} players"
    if family == "side":
        return f"{key} side, {int(players)} players"
    if family == "strategy":
        return f"strategy {key}"
    return f"{key} (effect on its holder, {int(players)} players)"


def _figure(r):
    """'value (low-high)' in % (items: signed points); 'too few games' where the rung could not estimate it (an item
    no seat of its paired games held) or the interval is wider than the whole scale."""
    pts = r["family"] == "item"
    value, low, high = (100 * float(r[k]) for k in ("value", "low", "high"))
    if not np.isfinite([value, low, high]).all() or high - low > 100:
        return "too few games"
    v = f"{value:+.1f}" if pts else f"{value:.1f}%"
    return f"{v} ({low:.1f}\u2013{high:.1f})"


def summary_table(summary, headline_only=True):
    """One row per metric: its description, 'value (low-high)' in % (items: points) per rung, and the label."""
    from .analysis.ladder import KEY, LABELS

    s = summary[summary["headline"]] if headline_only else summary
    names = s.drop_duplicates("rung").sort_values("rung")
    cols = [f"{int(r)}: {n}" for r, n in zip(names["rung"], names["rung_name"])]
    rows = []
    for k, sub in s.groupby(KEY, sort=False):
        row = {"metric": describe(*k)}
        for _, r in sub.iterrows():
            row[f"{int(r['rung'])}: {r['rung_name']}"] = _figure(r)
        row["label"] = LABELS.get(sub["label"].iloc[0], "") if isinstance(sub["label"].iloc[0], str) else ""
        rows.append(row)
    return pd.DataFrame(rows, columns=["metric"] + cols + ["label"])


def summary_lines(summary):
    t = summary_table(summary)
    if t.empty:
        return ["no headline metric"]
    return t.to_string(index=False).splitlines()
