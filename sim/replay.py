"""Re-play any game of a finished run from its seed and print it move by move."""

from pathlib import Path

import numpy as np

from .errors import UserError
from .game import get_game
from .kernel import load_kernel, new_states
from .seating import Design

MAX_MOVES = 20_000
MAX_EVENTS = 200_000


def design_from_manifest(m):
    return Design.from_dict(m["seating"])


def play_logged(game, design, pvec, seed, index):
    """Play game `index` of a design with the event log on; returns moves, events (with step) and outcome arrays."""
    eng = game.engine_module()
    kern = load_kernel(game)
    players, seed_index, rotation, strat = design.assign(index, index + 1, eng.MAX_PLAYERS)
    sids, weights = design.strategy_rows(game)
    states = new_states(eng, 1)
    moves = np.zeros((MAX_MOVES, 4), np.int64)
    events = np.zeros((MAX_EVENTS, states["ev"].shape[-1]), np.int32)
    ev_step = np.zeros(MAX_EVENTS, np.int64)
    game_int = np.zeros(len(game.game_columns), np.int64)
    seat_int = np.zeros((eng.MAX_PLAYERS, len(game.seat_columns)), np.int64)
    seat_f = np.zeros((eng.MAX_PLAYERS, 2))
    items = np.zeros((eng.MAX_ITEMS, 3 + len(game.item_columns)), np.int64)
    n_moves, n_ev, n_items = kern.play_logged(
        states,
        pvec,
        np.uint64(seed),
        seed_index[0],
        players[0],
        strat[0],
        sids,
        weights,
        moves,
        events,
        ev_step,
        game_int,
        seat_int,
        seat_f,
        items,
    )
    return {
        "players": int(players[0]),
        "seed_index": int(seed_index[0]),
        "rotation": int(rotation[0]),
        "strat": strat[0],
        "moves": moves[:n_moves],
        "events": events[:n_ev],
        "ev_step": ev_step[:n_ev],
        "game_int": game_int,
        "seat_int": seat_int,
        "seat_f": seat_f,
        "items": items[:n_items],
    }


def _label(game, col, value):
    labels = game.labels.get(col)
    return labels[value] if labels is not None and 0 <= value < len(labels) else str(value)


def replay_text(run, index, config=None):
    """The whole game `index` of the run folder `run` (a sweep: of configuration `config`) as readable lines."""
    return replay(run, index, config)[0]


def replay(run, index, config=None):
    """(lines, notes, mismatch) of game `index`: the replay as text; notes on stderr (a different game code);
    mismatch, a one-line description when the replayed outcome differs from the row stored in the folder (an
    edited manifest, other code), else None."""
    from .check import read_manifest_checked

    if not Path(run).exists():
        raise UserError(f"{run} is not a run folder (no manifest.json)")
    m = read_manifest_checked(run)
    game = get_game(m["game"])
    try:
        if m.get("kind") == "sweep":
            design, pvec, partition = _sweep_config(game, m, run, config)
        else:
            if config is not None:
                raise UserError(f"{run} is a single run: --config applies to sweep folders only")
            design, partition = design_from_manifest(m), None
            pvec = game.params.resolve(m.get("params_changed", {}))
        seed = int(m["seed"])
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(
            f"{run}/manifest.json is incomplete or edited ({e.__class__.__name__}: {e}); "
            f"it cannot say which game to replay"
        ) from None
    if not 0 <= index < design.total:
        raise UserError(f"game index {index} is outside this run (0..{design.total - 1})")
    notes = []
    code = (m.get("request") or {}).get("game_code")
    if code and code != game.code_version():
        notes.append(
            f"note: {run} was played by other game code ({code}; now {game.code_version()}): the replay "
            f"follows today's rules and may differ from the stored game"
        )
    what = f"game {index} of {Path(run)}" + (f" ({partition})" if partition else "")
    lines = game_lines(game, design, pvec, seed, index, what)
    mismatch = _compare_with_stored(game, design, pvec, seed, index, run, partition)
    return lines, notes, mismatch


def _sweep_config(game, m, run, config):
    from .seating import make_design

    configs = m["configs"]
    if config is None:
        raise UserError(
            f"{run} is a sweep of {len(configs)} configurations: pass --config K (0..{len(configs) - 1}) "
            f"to replay a game of one of them"
        )
    if not 0 <= config < len(configs):
        raise UserError(f"--config {config} is outside this sweep (0..{len(configs) - 1})")
    c, req = configs[config], m["request"]
    cap = req["adaptive"]["max_games"] if req.get("adaptive") else req["games"]
    fixed = c["seating"] == "fixed"
    design = make_design(
        game,
        (int(c["players"]),),
        int(cap),
        None if fixed else list(c["lineup"]),
        list(c["lineup"]) if fixed else None,
        bool(req.get("all_rotations")),
        mirror=bool(req.get("mirror")),
    )
    return design, game.params.resolve(c.get("params_changed", {})), c["partition"]


def _compare_with_stored(game, design, pvec, seed, index, run, partition):
    """Play the game again (without reading the folder's rules) and compare its outcome with the stored seats."""
    import pyarrow.dataset as ds

    from .check import part_name, read_manifest_checked, verified

    base = Path(run) / "seats" / (partition or "")
    if not base.is_dir():
        return None
    chunk = index // int(read_manifest_checked(run)["chunk_size"])
    verdict = verified(run, "compared", only={(partition, chunk)})  # a damaged part: one line, nothing read
    if (partition, chunk) not in verdict.done:
        return None  # not played yet (an unfinished run): nothing to compare with
    try:
        stored = (
            ds.dataset([str(base / part_name(chunk))], format="parquet")
            .to_table(columns=["game", "seat", "score", "win_share"], filter=ds.field("game") == index)
            .to_pandas()
        )
    except OSError as e:
        return f"the stored rows cannot be read ({e.__class__.__name__}); run `sim check {run}`"
    if stored.empty:
        return None  # not played yet (an unfinished run): nothing to compare with
    r = play_logged(game, design, pvec, seed, index)
    stored = stored.sort_values("seat")
    n = r["players"]
    same = (
        len(stored) == n
        and np.array_equal(stored["score"].to_numpy(), r["seat_f"][:n, 0])
        and np.array_equal(stored["win_share"].to_numpy(), r["seat_f"][:n, 1])
    )
    if same:
        return None
    return (
        f"the replayed game {index} does not match the row stored in {run} (scores "
        f"{_numbers(stored['score'])} stored, {_numbers(r['seat_f'][:n, 0])} replayed): its manifest or the game code "
        f"changed after it was played"
    )


def _numbers(values):
    """[3, 1.5, 0] for a list of floats (not numpy reprs)."""
    return "[" + ", ".join(f"{float(v):g}" for v in values) + "]"


def game_lines(game, design, pvec, seed, index, what):
    """Game `index` of a design played with the event log on, as readable lines (`what` names it in the header)."""
    r = play_logged(game, design, pvec, seed, index)
    names = {"seat_strategy": [design.slots[k] if k >= 0 else "-" for k in r["strat"]]}
    n = r["players"]
    lines = [
        f"{game.title}: {what} (run seed {seed}, seed index {r['seed_index']}, rotation {r['rotation']}), {n} players",
        "Seats: " + ", ".join(f"{i}={names['seat_strategy'][i]}" for i in range(n)),
    ]
    text = game.event_text or (lambda row, nm: " ".join(map(str, row)))
    act = getattr(game, "action_text", None)
    ev_i = 0
    events, ev_step = r["events"], r["ev_step"]
    while ev_i < len(events) and ev_step[ev_i] < 0:
        lines.append("  " + text(events[ev_i], names))
        ev_i += 1
    for t, (seat, action, n_legal, k) in enumerate(r["moves"]):
        move = act(int(action)) if act else f"action {action}"
        lines.append(
            f"[{t + 1}] seat {seat} ({names['seat_strategy'][seat]}) {move}"
            + (f"  (choice {k + 1} of {n_legal})" if n_legal > 1 else "")
        )
        while ev_i < len(events) and ev_step[ev_i] == t:
            lines.append("    " + text(events[ev_i], names))
            ev_i += 1
    lines.append("Result: " + ", ".join(f"{c}={_label(game, c, v)}" for c, v in zip(game.game_columns, r["game_int"])))
    for i in range(n):
        cols = ", ".join(f"{c}={_label(game, c, v)}" for c, v in zip(game.seat_columns, r["seat_int"][i]))
        lines.append(
            f"  seat {i} ({names['seat_strategy'][i]}): score={r['seat_f'][i, 0]:g} "
            f"win_share={r['seat_f'][i, 1]:.3g}, {cols}"
        )
    return lines
