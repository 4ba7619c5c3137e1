"""determinize for Raccoon Tycoon, Gunny Town, Cold Comfort and Saloon Tycoon (issue 24): at random mid-game states,
for every seat, every public field is kept, the seat's own hand is kept, and every component is conserved (the hidden
cards are only re-dealt among the hidden places)."""

import importlib
from collections import Counter

import numpy as np
import pytest

from sim.game import get_game
from sim.rng import rand_below, seed_streams


def mid_game_states(game, players, count, seed, max_stop=150):
    eng = game.engine_module()
    p = game.params.resolve({})
    legal = np.zeros(eng.MAX_ACTIONS, np.int64)
    out = []
    for g in range(count):
        st = np.zeros(1, eng.STATE_DTYPE)
        s = st[0]
        seed_streams(s["rng"], seed, g)
        eng.setup(s, p, players)
        for _ in range(1 + (g * 37) % max_stop):
            if eng.is_over(s):
                break
            n = eng.legal_actions(s, p, legal)
            eng.apply_action(s, p, legal[rand_below(s["rng"], 1, n)])
        if not eng.is_over(s):
            out.append(st)
    return p, out


def _raccoon_pools(s, seat):
    from sim.games.raccoon_tycoon.engine import town_vp

    P = get_game("raccoon_tycoon").params.resolve({})
    n = int(s["n"])
    cards = list(s["deck"][: s["deck_n"]]) + [c for j in range(n) if j != seat for c in s["hand"][j, : s["hand_n"][j]]]
    return {
        "cards": Counter(int(c) for c in cards),
        "own": list(s["hand"][seat, : s["hand_n"][seat]]),
        "hand_n": list(s["hand_n"]),
        "rr": Counter(s["rr_deck"][: s["rr_n"]].tolist()),
        "bld": Counter(s["bld_stack"][: s["bld_n"]].tolist()),
        "towns": Counter(s["town_deck"][: s["town_n"]].tolist()),
        "town_vp": [town_vp(P, t) for t in s["town_deck"][: s["town_n"]]],
    }  # the deck stays in VP order


def _gunny_pools(s, seat):
    from sim.games.gunny_town.engine import PH_DCARD
    from sim.games.gunny_town.params import MTIER

    n = int(s["n"])
    cards = Counter(s["adeck"][: s["n_adeck"]].tolist())
    for j in range(n):
        if j != seat:
            for c in range(6):
                cards[c] += int(s["hand"][j, c])
    if s["phase"] == PH_DCARD and seat == s["d_t"] and s["d_ccard"] >= 0:
        cards[int(s["d_ccard"])] += 1
    secrets = Counter(s["sdeck"][: s["n_sdeck"]].tolist())
    secrets.update(
        int(s["secret"][j])
        for j in range(n)
        if j != seat and s["secret"][j] >= 0 and s["sprog"][j, 0] == 0 and s["sprog"][j, 1] == 0
    )
    return {
        "cards": cards,
        "own": list(s["hand"][seat]),
        "sizes": [int(s["hand"][j].sum()) for j in range(n)],
        "secrets": secrets,
        "chests": Counter(s["cdeck"][: s["n_cdeck"]].tolist()),
        "missions": Counter(s["mdeck"][: s["n_mdeck"]].tolist()),
        "tiers": [int(MTIER[s["mdeck"][i]]) for i in range(s["n_mdeck"])],
    }  # the deck stays stacked by tier


def _cold_pools(s, seat):
    return {"deck": Counter(s["deck"][s["deck_pos"] :].tolist()), "drawn": list(s["deck"][: s["deck_pos"]])}


def _saloon_pools(s, seat):
    from sim.games.saloon_tycoon.engine import SEC_DEALT, SEC_KEPT

    n = int(s["n"])
    cards = Counter(s["deck"][: s["deck_n"]].tolist())
    for j in range(n):
        if j != seat:
            for c, k in enumerate(s["hand"][j]):
                cards[c] += int(k)
    hidden = [
        (j, k)
        for j in range(n)
        for k in range(int(s["sec_n"][j]))
        if j != seat and s["sec_state"][j, k] in (SEC_DEALT, SEC_KEPT)
    ]
    return {
        "cards": cards,
        "own": list(s["hand"][seat]),
        "sizes": [int(s["hand"][j].sum()) for j in range(n)],
        "secrets": Counter(int(s["sec"][j, k]) for j, k in hidden),
        "public_secrets": [
            int(s["sec"][j, k]) for j in range(n) for k in range(int(s["sec_n"][j])) if (j, k) not in hidden
        ],
    }


CASES = {
    "saloon_tycoon": (("deck", "hand", "sec"), _saloon_pools),
    "cold_comfort": (("deck",), _cold_pools),
    "raccoon_tycoon": (("deck", "hand", "rr_deck", "bld_stack", "town_deck"), _raccoon_pools),
    "gunny_town": (("adeck", "hand", "d_ccard", "sdeck", "secret", "cdeck", "mdeck"), _gunny_pools),
}


@pytest.mark.parametrize(
    "name,players",
    [
        ("raccoon_tycoon", 2),
        ("raccoon_tycoon", 4),
        ("gunny_town", 3),
        ("gunny_town", 5),
        ("cold_comfort", 3),
        ("saloon_tycoon", 4),
    ],
)
def test_determinize_keeps_public_facts_and_conserves_components(name, players):
    game = get_game(name)
    determinize = importlib.import_module(game.engine.rsplit(".", 1)[0] + ".hidden").determinize
    hidden_fields, pools = CASES[name]
    p, states = mid_game_states(game, players, 24, 3)
    assert len(states) > 10
    changed = 0
    for st in states:
        s = st[0]
        for seat in range(players):
            d = st.copy()
            d[0]["rng"][0] = 99 + seat
            determinize(d[0], p, seat)
            for f in s.dtype.names:
                if f not in hidden_fields + ("rng",):
                    assert np.array_equal(d[0][f], s[f]), f
            assert pools(d[0], seat) == pools(s, seat)
            changed += any(not np.array_equal(d[0][f], s[f]) for f in hidden_fields)
    assert changed > len(states)  # it does re-sample
