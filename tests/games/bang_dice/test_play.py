"""Random legal play for bang_dice: every player count 3-8, module combinations, invariants after every action."""

import numba as nb
import numpy as np
import pytest

from sim.games.bang_dice import GAME
from sim.games.bang_dice import engine as E
from sim.games.bang_dice.text import action_text, event_text
from sim.rng import rand_below, seed_streams

ALL = {
    "module.saloon_dice": 1,
    "module.chief_arrow": 1,
    "module.new_characters": 1,
    "module.special_roles": "replace",
    "module.ghost": 1,
}
COMBOS = [
    {},
    {"module.saloon_dice": 1},
    {"module.chief_arrow": 1},
    {"module.new_characters": 1},
    {"module.new_characters": 1, "module.saloon_dice": 1, "module.chief_arrow": 1},
    {"module.special_roles": "replace"},
    {"module.special_roles": "mixed", "module.ghost": 1},
    {"module.ghost": 1},
    ALL,
    dict(ALL, **{"module.special_roles": "mixed"}),
    dict(
        ALL,
        **{
            "rule.chief_attack_trigger": "last_regular",
            "rule.vera_reduction_per": "die",
            "rule.bullseye_can_be_wasted": 1,
            "rule.gringo_last_arrow_attacks": 0,
            "rule.gambler_roll_takes_arrows": 0,
            "rule.dead_active_turn_ends": 0,
            "rule.dynamite_resolves_rest": 0,
            "rule.jesse_threshold_checked_once": 0,
            "rule.kit_double_gatling_counts_two": 0,
            "rule.gringo_arrow_after_gatling_discard": 0,
            "rule.three_player_indian_kill_counts": 1,
        },
    ),
]


@nb.njit(cache=True)
def _check_state(s, p, arrows_total, chief_on):
    n = s.n
    held = 0
    for i in range(n):
        held += s.arrows[i]
        if s.arrows[i] < 0:
            return 3
    if held + s.pile != arrows_total or s.pile < 0:
        return 3
    if chief_on:
        if s.chief_holder < -1 or s.chief_holder >= n:
            return 4
        if s.chief_holder >= 0 and s.alive[s.chief_holder] == 0:
            return 4
    elif s.chief_holder != -2:
        return 4
    for i in range(n):
        if s.life[i] < 0:
            return 5
        if s.alive[i] == 1 and s.life[i] > max(s.max_life[i], s.max_life0[i]):
            return 6
        if s.alive[i] == 0 and s.arrows[i] != 0:
            return 7
        if s.alive[i] == 1 and s.life[i] == 0 and s.dkind != E.D_LEFT and s.dkind != E.D_JUDGE and s.over == 0:
            return 100 + s.dkind
    return 0


@nb.njit(cache=True)
def _check_end(s):
    n = s.n
    if s.three == 1:
        if s.winner_seat >= 0 and s.alive[s.winner_seat] == 0:
            return 21
        return 0
    sh = s.sheriff
    living = 0
    last = -1
    bandits = 0
    for i in range(n):
        if s.alive[i] == 1:
            living += 1
            last = i
            if s.role[i] == E.OUTLAW or s.role[i] == E.RENEGADE:
                bandits += 1
    if s.winner_team == E.WT_LAW:
        if s.alive[sh] == 0 or bandits > 0:
            return 22
    elif s.winner_team == E.WT_OUTLAWS:
        if s.alive[sh] == 1 or (living == 1 and s.role[last] == E.RENEGADE):
            return 23
    elif s.winner_team == E.WT_RENEGADE:
        if s.alive[sh] == 1 or living != 1 or s.role[last] != E.RENEGADE or last != s.winner_seat:
            return 24
    else:
        return 25
    return 0


@nb.njit(cache=True)
def _play(states, p, master, n_games, npl, arrows_total, chief_on, steps_out, err_out, hash_out):
    legal = np.empty(E.MAX_ACTIONS, np.int64)
    for g in range(n_games):
        s = states[0]
        seed_streams(s.rng, master, g)
        E.setup(s, p, npl)
        steps = 0
        err = _check_state(s, p, arrows_total, chief_on)
        h = np.uint64(1469598103934665603)
        while err == 0 and not E.is_over(s):
            n = E.legal_actions(s, p, legal)
            if n < 1:
                err = 1
                break
            for i in range(n):
                for j in range(i + 1, n):
                    if legal[i] == legal[j]:
                        err = 11
            cp = E.current_player(s)
            if cp < 0 or cp >= npl:
                err = 2
                break
            k = rand_below(s.rng, 1, n)
            h = (h ^ np.uint64(legal[k])) * np.uint64(1099511628211)
            E.apply_action(s, p, legal[k])
            steps += 1
            if err == 0:
                err = _check_state(s, p, arrows_total, chief_on)
            if steps >= E.MAX_STEPS:
                err = 8
        if err == 0:
            err = _check_end(s)
        steps_out[g] = steps
        err_out[g] = err
        hash_out[g] = h


def _run(mods, npl, n_games, master=17):
    p = GAME.params.resolve(mods)
    st = np.zeros(1, E.STATE_DTYPE)
    steps = np.zeros(n_games, np.int64)
    err = np.zeros(n_games, np.int64)
    h = np.zeros(n_games, np.uint64)
    _play(
        st,
        p,
        master,
        n_games,
        npl,
        int(mods.get("count.arrows", 9)),
        bool(mods.get("module.chief_arrow", 0)),
        steps,
        err,
        h,
    )
    return steps, err, h


@pytest.mark.parametrize("ci", range(len(COMBOS)))
def test_random_play_invariants(ci):
    mods = COMBOS[ci]
    for npl in range(3, 9):
        steps, err, h = _run(mods, npl, 600)
        bad = np.nonzero(err)[0]
        assert len(bad) == 0, f"{mods} {npl}p: seed {bad[0]} error {err[bad[0]]}"
        assert steps.max() < E.MAX_STEPS // 4


def test_same_seed_same_actions():
    for npl in (3, 5, 8):
        _, _, h1 = _run(ALL, npl, 200, master=5)
        _, _, h2 = _run(ALL, npl, 200, master=5)
        _, _, h3 = _run(ALL, npl, 200, master=6)
        assert (h1 == h2).all() and (h1 != h3).any()


def _kernel_batch(k, mods, npl, sid, n):
    p = GAME.params.resolve(mods)
    states = np.zeros(n, E.STATE_DTYPE)
    seeds = np.arange(n, dtype=np.int64)
    npls = np.full(n, npl, np.int64)
    strat = np.zeros((n, E.MAX_PLAYERS), np.int64)
    sids = np.array([sid], np.int64)
    weights = np.zeros((1, 1))
    gi = np.zeros((n, len(E.GAME_COLUMNS)), np.int64)
    si = np.zeros((n, E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
    sf = np.zeros((n, E.MAX_PLAYERS, 2))
    items = np.zeros((n, E.MAX_ITEMS, 3), np.int64)
    ni = np.zeros(n, np.int64)
    steps = np.zeros(n, np.int64)
    k.play_batch(states, p, 3, seeds, npls, strat, sids, weights, gi, si, sf, items, ni, steps)
    return gi, si, sf, items, ni, steps


def test_kernel_outcomes_well_formed():
    from sim.kernel import load_kernel

    k = load_kernel(GAME)
    col = {c: i for i, c in enumerate(E.SEAT_COLUMNS)}
    for mods in (COMBOS[0], ALL):
        for npl in range(3, 9):
            for sid in (0, 1):
                gi, si, sf, items, ni, steps = _kernel_batch(k, mods, npl, sid, 300)
                assert (steps > 0).all()
                assert (gi[:, E.GAME_COLUMNS.index("end_reason")] > 0).all()
                win = si[:, :npl, col["win"]]
                rank = si[:, :npl, col["rank"]]
                winners = win.sum(axis=1, keepdims=True)  # rank: 1 + the number of seats ahead (the winners)
                assert (rank == np.where(win == 1, 1, 1 + winners)).all()
                share = sf[:, :npl, 1].sum(axis=1)
                has = win.sum(axis=1) > 0
                assert np.allclose(share, 1.0)  # a game nobody wins (3p, all dead) is a draw split over all seats
                if npl > 3:
                    assert has.all()
                    # the whole winning team wins, dead members included
                    team = gi[:, E.GAME_COLUMNS.index("winner_team")]
                    role = si[:, :npl, col["role_end"]]
                    ghost = si[:, :npl, col["ghost"]]
                    law = (role == E.SHERIFF) | (role == E.DEPUTY)
                    out = role == E.OUTLAW
                    gt = 2 if npl in (5, 7) else 1
                    renegade_ghost = (role == E.RENEGADE) & (ghost == 1)
                    for g in range(len(team)):
                        if team[g] == E.WT_LAW:
                            exp = law[g] | (renegade_ghost[g] & (gt == 1))
                        elif team[g] == E.WT_OUTLAWS:
                            exp = out[g] | (renegade_ghost[g] & (gt == 2))
                        else:
                            exp = np.arange(npl) == gi[g, E.GAME_COLUMNS.index("winner_seat")]
                        assert (win[g] == exp).all(), (g, team[g], win[g], role[g])
                life = si[:, :npl, col["life_end"]]
                assert (life >= 0).all()
                elim = si[:, :npl, col["eliminated"]]
                assert ((elim == 1) == (life == 0)).all()
                assert (ni >= npl).all()
                assert (si[:, :npl, col["order"]].min(axis=1) == 0).all()


def test_replay_text_covers_events():
    from sim.kernel import load_kernel

    k = load_kernel(GAME)
    p = GAME.params.resolve(ALL)
    names = [f"P{i}" for i in range(8)]
    seen = set()
    for seed in range(40):
        states = np.zeros(1, E.STATE_DTYPE)
        moves = np.zeros((E.MAX_STEPS, 4), np.int64)
        events = np.zeros((20000, 5), np.int64)
        ev_step = np.zeros(20000, np.int64)
        gi = np.zeros(len(E.GAME_COLUMNS), np.int64)
        si = np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
        sf = np.zeros((E.MAX_PLAYERS, 2))
        items = np.zeros((E.MAX_ITEMS, 3), np.int64)
        t, ne, ni = k.play_logged(
            states,
            p,
            1,
            seed,
            6,
            np.zeros(E.MAX_PLAYERS, np.int64),
            np.array([0], np.int64),
            np.zeros((1, 1)),
            moves,
            events,
            ev_step,
            gi,
            si,
            sf,
            items,
        )
        assert t > 0 and ne > 0
        for r in events[:ne]:
            txt = event_text(r, names)
            assert isinstance(txt, str) and not txt.startswith("event ")
            seen.add(int(r[0]))
        for m in moves[:t]:
            assert not action_text(m[1]).startswith("action ")
        assert events[ne - 1][0] == E.EV_WIN
    assert {E.EV_TURN, E.EV_ROLL, E.EV_ARROW, E.EV_DAMAGE, E.EV_ELIM, E.EV_WIN} <= seen


def test_standings_are_life_and_completed_rounds():
    """standings(): each seat's life (0 once eliminated) and the completed rounds, 0 at the start, never decreasing,
    +1 each time the turn passes the first player's seat.  At the end the standings are the score write_outcome
    writes (life_end); they do not order the seats as its rank does, because BANG! ranks by the team's win, which
    no running score shows (a dead Deputy of the winning law team ranks 1 with 0 life)."""
    from sim.runner import output_buffers
    from tests.harness import Harness

    h = Harness(GAME)
    out = np.zeros(E.MAX_PLAYERS, np.float64)
    buf = output_buffers(GAME, 1)
    for n in (3, 5, 8):
        for seed in range(4):
            s, p = h.fresh(n, seed=seed, **{k.replace(".", "__"): v for k, v in ALL.items()})
            assert E.standings(s, p, out) == 0
            last = 0
            rng = np.random.default_rng(seed)
            while not E.is_over(s):
                legal = h.legal(s, p)
                E.apply_action(s, p, legal[int(rng.integers(len(legal)))])
                r = E.standings(s, p, out)
                assert last <= r <= last + 1 and r == s["rnd"] - 1
                last = r
                for i in range(n):
                    assert out[i] == (s["life"][i] if s["alive"][i] == 1 else 0)
            assert last >= 1
            E.write_outcome(s, p, buf["game_int"][0], buf["seat_int"][0], buf["seat_f"][0], buf["items"][0])
            assert (buf["seat_f"][0][:n, 0] == out[:n]).all()
            assert buf["game_int"][0][GAME.game_columns.index("rounds")] == last + 1
