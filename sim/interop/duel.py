"""`sim duel`: OpenSpiel's players in some seats of a study, our presets in the others (issue 39).

Every game is played through the OpenSpiel bridge (sim.interop.openspiel): an OpenSpiel bot decides on a
`BalanceLabState`, one of our presets decides with the kernel's own `decide` (and `search_decision` for a search
preset) on the same engine state, so a duel whose seats are all ours plays exactly the games of `sim run`.
The folder is a `sim run` folder (manifest, games/seats/items tables in chunks, `sim report` and `sim check` read
it), written with the runner's pieces: the same lock, request check, chunk records, resume and progress bar.

Seat names: our presets (`sim strategies GAME`, including `search...`), and OpenSpiel's
`ismcts[:SIMULATIONS]` (information-set MCTS, default 100 simulations, random rollouts, re-sampling the hidden
state with the game's determinize), `ismcts:SIMULATIONS@PRESET` (the same tree search, each leaf valued by one
rollout to the end with our preset PRESET in every seat, compiled: OpenSpiel's search, our rollout policy),
`mcts[:SIMULATIONS]` (plain UCT MCTS on the true state: it sees hidden cards
and the coming dice through the clone, so it is a clairvoyant reference, not a fair player) and `uniform`
(OpenSpiel's uniform random bot).  The line-up is rotated over the seats as in `sim run`.  An OpenSpiel bot's
random numbers come from (run seed, seed index, seat), so a game is reproduced on its own and a resumed folder
gets the same games.
"""

import re
import sys
import time
from pathlib import Path

import numpy as np

from sim.errors import UserError
from sim.game import get_game
from sim.kernel import load_kernel
from sim.knobs import describe_strategies, expand_lineup
from sim.lock import FolderLock
from sim.check import request_id
from sim.results import chunk_tables, clean_temp_files, write_chunk, write_json
from sim.rng import mix64
from sim.runner import _chunks_to_play, _final, _progress, check_games, check_seed, open_run_folder
from sim.seating import Design

from .core import Match, resolve

EXTERNAL = re.compile(r"^(ismcts|mcts|uniform)(?::(\d+))?(?:@([A-Za-z0-9_.-]+))?$")
DEFAULT_SIMULATIONS = 100
UCT_C = 2.0  # OpenSpiel's examples' exploration constant for returns in [0, 1] ... [-1, 1]


def external(name):
    """(kind, simulations, rollout preset or None) of an OpenSpiel seat name, or None for one of our presets."""
    m = EXTERNAL.match(name)
    if m is None:
        return None
    sims = int(m.group(2) or DEFAULT_SIMULATIONS)
    if m.group(1) == "uniform" and (m.group(2) or m.group(3)):
        raise UserError(f"--seats {name}: the uniform bot takes no budget or rollout preset (ismcts:N@PRESET does)")
    if not 1 <= sims <= 1_000_000:
        raise UserError(f"--seats {name}: the budget must be between 1 and 1000000 simulations")
    rollout = m.group(3)
    if rollout is not None and rollout.startswith("search"):
        raise UserError(f"--seats {name}: a rollout preset must be a heuristic, not a search (e.g. @<default preset>)")
    return m.group(1), sims, rollout


def parse_seats(spec, text, players):
    names = [n.strip() for n in str(text or "").split(",") if n.strip()]
    if not names:
        raise UserError("--seats needs a comma-separated line-up, e.g. ismcts:200,<preset>,<preset>,<preset>")
    if not any(external(n) for n in names):
        raise UserError(
            "--seats names no OpenSpiel player (ismcts[:N], mcts[:N] or uniform); for our presets alone use sim run"
        )
    rollouts = [external(n)[2] for n in names if external(n) and external(n)[2]]
    ours = [n for n in names if external(n) is None] + rollouts
    expand_lineup(spec, ours)  # a bad preset name: one line naming the valid ones
    for n in ours:
        spec.strategy(n)
    if len(names) > players:
        raise UserError(f"--seats names {len(names)} players for a {players}-player game")
    return tuple(names)


def make_bot(kind, sims, game, seed, seat, rollout=None):
    """An OpenSpiel bot; `rollout` (kern, pvec, sid, weights) values its leaves with our compiled preset."""
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random

    rs = np.random.RandomState(seed % 2**32)
    if kind == "uniform":
        return uniform_random.UniformRandomBot(seat, rs)
    if rollout is None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    else:
        evaluator = preset_rollouts(*rollout, rs)
    if kind == "mcts":
        return mcts.MCTSBot(game, UCT_C, sims, evaluator, solve=False, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, sims, random_state=rs)
    # OpenSpiel's default resampler draws from a sampler of its own, not from random_state: the games would differ
    # from one run to the next.  Draw the re-sampled worlds from the bot's seeded stream instead.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


def preset_rollouts(kern, pvec, sid, weights, rs):
    """An OpenSpiel Evaluator whose value of a state is one rollout to the end by our preset (strategy id `sid`,
    knob row `weights`) in every seat, played by the compiled kernel on a copy with fresh dice from `rs`; its
    prior is uniform over the legal actions, as OpenSpiel's random-rollout evaluator's is."""
    from open_spiel.python.algorithms import mcts

    class PresetRollouts(mcts.Evaluator):
        def evaluate(self, state):
            match = state.match.clone()
            if not match.over():
                match.states["rng"][0][:2] = rs.randint(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
                legal = np.empty(match.eng.MAX_ACTIONS, np.int64)
                kern.playout(match.s, pvec, np.int64(sid), weights, legal)
                match._fresh()
            return match.outcome()[2][: match.players, 1].copy()  # win shares, as state.returns() gives them

        def prior(self, state):
            actions = state.legal_actions(state.current_player())
            return [(a, 1.0 / len(actions)) for a in actions]

    return PresetRollouts()


def run_duel(
    game,
    out,
    seats,
    players=None,
    games=100,
    seed=0,
    params=None,
    preset=None,
    chunk_size=10,
    progress=True,
    overwrite=False,
    command=None,
):
    """Play `games` games (rotated seats) and write a sim run folder to `out`; returns the folder."""
    from . import openspiel as osp

    spec = get_game(game)
    players = int(players or spec.default_players)
    spec.check_players(players)
    games = check_games(games)
    seed = check_seed(seed)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise UserError(f"--chunk-size must be a whole number of at least 1 (got {chunk_size!r})")
    lineup = parse_seats(spec, seats, players)
    spec, pvec = resolve(spec, params, preset)
    slots = tuple(dict.fromkeys(lineup))
    design = Design((players,), games, slots, lineup, "rotate")
    chunk_size = min(int(chunk_size), games)
    request = {
        "game": spec.name,
        "design": design.to_dict(),
        "seed": seed,
        "params": spec.params.describe(pvec),
        "game_code": spec.code_version(),
        "duel": {"uct_c": UCT_C, "rollouts": "one rollout per simulation: uniform random, or the seat's @PRESET"},
    }
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; choose another --out")
    ours = [n for n in slots if external(n) is None]
    strategies = describe_strategies(spec, Design((players,), 1, tuple(ours), tuple(ours))) if ours else {}
    for n in slots:
        if external(n):
            kind, sims, rollout = external(n)
            doc = f"OpenSpiel {kind} bot" + (f", {sims} simulations a decision" if kind != "uniform" else "")
            doc += f", leaves valued by a rollout of {rollout} in every seat" if rollout else ""
            strategies[n] = {"sid": None, "doc": doc, "sees_hidden": kind == "mcts", "external": True}
    with FolderLock(out, "sim duel"):
        old = open_run_folder(out, request, overwrite)
        clean_temp_files(out)
        chunks = (old or {}).get("chunks") or {}
        manifest = {
            "game": spec.name,
            "title": spec.title,
            "rules_version": spec.rules_version,
            "kind": "run",
            "request": request,
            "players": [players],
            "games_per_player_count": games,
            "total_games": games,
            "seed": seed,
            "seating": design.to_dict(),
            "strategies": strategies,
            "params": request["params"],
            "params_changed": spec.params.changed(pvec),
            "assumed_components": spec.assumed_components,
            "assumed_params": spec.params.assumed(),
            "chunk_size": (old or {}).get("chunk_size", chunk_size),
            "n_chunks": -(-games // (old or {}).get("chunk_size", chunk_size)),
            "status": "running",
            "command": command or " ".join(sys.argv),
            "threads": 1,
            "timings": (old or {}).get("timings", {}),
            "chunks": chunks,
            # CPU seconds each slot spent deciding, summed over the games played (kept across resumes)
            "think_cpu_s": (old or {}).get("think_cpu_s", {}),
        }
        try:
            todo = _chunks_to_play(out, manifest, old is not None)
            if old is not None and old.get("status") == "complete" and not todo:
                return out
            write_json(out / "manifest.json", manifest)
            _play(spec, design, pvec, seed, out, manifest, todo, progress, osp)
        except KeyboardInterrupt:
            _final(out, manifest, "interrupted", "interrupted (Ctrl-C); run the same command again to resume")
            raise
        except UserError as e:
            _final(out, manifest, "failed", str(e))
            raise
    return out


def _play(spec, design, pvec, seed, out, manifest, todo, progress, osp):
    eng = spec.engine_module()
    kern = load_kernel(spec)
    ours = [n if external(n) is None else "random" for n in design.slots]  # placeholders never asked
    sids, weights = Design((design.player_counts[0],), 1, tuple(dict.fromkeys(ours)), tuple(ours)).strategy_rows(spec)
    slot_row = {n: i for i, n in enumerate(dict.fromkeys(ours))}
    rows = np.array([slot_row[n] for n in ours], np.int64)
    sids, weights = sids[rows], np.ascontiguousarray(weights[rows])
    os_game = osp.game(spec.name, players=design.player_counts[0], params=spec.params.changed(pvec), seed=seed)
    chunk_size = manifest["chunk_size"]
    done = design.total - sum(min(chunk_size, design.total - c * chunk_size) for c in todo)
    bar = _progress(design.total, done, progress, f"{spec.name} duel")
    think = manifest["think_cpu_s"]
    t_all = time.process_time()
    for c in todo:
        start, stop = c * chunk_size, min(design.total, (c + 1) * chunk_size)
        players, seed_index, rotation, strat = design.assign(start, stop, eng.MAX_PLAYERS)
        n = stop - start
        arrays = {
            "players": players,
            "seed_index": seed_index,
            "rotation": rotation,
            "strat": strat,
            "game_int": np.zeros((n, len(spec.game_columns)), np.int64),
            "seat_int": np.zeros((n, eng.MAX_PLAYERS, len(spec.seat_columns)), np.int64),
            "seat_f": np.zeros((n, eng.MAX_PLAYERS, 2)),
            "items": np.zeros((n, eng.MAX_ITEMS, 3 + len(spec.item_columns)), np.int64),
            "n_items": np.zeros(n, np.int64),
            "steps": np.zeros(n, np.int64),
        }
        for g in range(n):
            r = play_game(
                spec,
                kern,
                os_game,
                pvec,
                seed,
                int(seed_index[g]),
                int(players[g]),
                strat[g],
                design,
                sids,
                weights,
                think,
            )
            arrays["game_int"][g], arrays["seat_int"][g], arrays["seat_f"][g] = r[0], r[1], r[2]
            arrays["items"][g, : len(r[3])] = r[3]
            arrays["n_items"][g], arrays["steps"][g] = len(r[3]), r[4]
            bar.update(1)
        tables = chunk_tables(spec, design, start, arrays)
        manifest["chunks"][str(c)] = write_chunk(out, c, tables, run_id=request_id(manifest["request"]))
        write_json(out / "manifest.json", manifest)
    bar.close()
    manifest["status"] = "complete"
    manifest["timings"] = {"cpu_s_this_session": round(time.process_time() - t_all, 3)}
    write_json(out / "manifest.json", manifest)


def play_game(spec, kern, os_game, pvec, seed, seed_index, players, strat_row, design, sids, weights, think):
    """One game: OpenSpiel bots and our presets in their seats.  Returns (game_int, seat_int, seat_f, items,
    steps: negative if the step cap ended it).  think[slot name] accumulates each slot's CPU seconds deciding."""
    from .openspiel import BalanceLabState

    match = Match(spec, players, pvec, seed, seed_index)
    state = BalanceLabState(os_game, match)
    eng = spec.engine_module()
    legal = np.empty(eng.MAX_ACTIONS, np.int64)
    bots = {}
    for seat in range(players):
        name = design.slots[strat_row[seat]]
        if external(name):
            kind, sims, rollout = external(name)
            bot_seed = int(mix64(np.uint64(seed) ^ mix64(np.uint64(seed_index * 64 + seat + 1))))
            policy = None
            if rollout is not None:
                sid, w = Design((players,), 1, (rollout,), (rollout,)).strategy_rows(spec)
                policy = (kern, pvec, sid[0], np.ascontiguousarray(w[0]))
            bots[seat] = make_bot(kind, sims, os_game, bot_seed, seat, policy)
    work = None
    while not match.over():
        seat = match.current_player()
        name = design.slots[strat_row[seat]]
        t = time.process_time()
        if seat in bots:
            code = os_game.index.code_of(bots[seat].step(state))
        else:
            _, n, k = kern.decide(match.s, pvec, strat_row, sids, weights, legal)
            if k < 0:
                if work is None:
                    work = outcome_buffers(spec)
                k = kern.search_decision(match.states, pvec, seat, legal, n, weights[strat_row[seat]], *work)
            code = int(legal[k])
        think[name] = think.get(name, 0.0) + time.process_time() - t
        match.apply(code)
    steps = match.steps if eng.is_over(match.s) else -match.steps
    game_int, seat_int, seat_f, items = match.outcome()
    return game_int, seat_int, seat_f, items, steps


def outcome_buffers(spec):
    eng = spec.engine_module()
    return (
        np.zeros(len(spec.game_columns), np.int64),
        np.zeros((eng.MAX_PLAYERS, len(spec.seat_columns)), np.int64),
        np.zeros((eng.MAX_PLAYERS, 2)),
        np.zeros((eng.MAX_ITEMS, 3 + len(spec.item_columns)), np.int64),
    )
