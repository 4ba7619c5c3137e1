"""Gunny Town's parts of the report's arc and causal-effect machinery (issue 26): the standings the kernel traces per
round, and item.remove, the intervention `sim effect` plays (every item the items table holds can be taken out)."""

import numpy as np
import pytest

from sim.effect import removal
from sim.games.gunny_town import GAME
from sim.games.gunny_town import engine as E
from sim.games.gunny_town import params as P
from sim.games.gunny_town import rules
from sim.games.gunny_town.outcome import ITEM_NAMES, SEAT
from tests.harness import Harness

H = Harness(GAME)


def test_standings_rank_the_seats_as_write_outcome_does_and_the_round_never_decreases():
    rng = np.random.default_rng(5)
    standing = np.zeros(E.MAX_PLAYERS, np.float64)
    for n in (2, 4, 6):
        for seed in range(4):
            s, pv = H.fresh(n, seed=seed)
            last = E.standings(s, pv, standing)
            assert last == 0
            while not E.is_over(s):
                legal = H.legal(s, pv)
                E.apply_action(s, pv, legal[int(rng.integers(len(legal)))])
                rnd = E.standings(s, pv, standing)
                assert rnd >= last, "the round never decreases"
                assert list(standing[:n]) == list(s["vp"][:n])
                last = rnd
            seat_int = np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
            E.write_outcome(
                s,
                pv,
                np.zeros(len(E.GAME_COLUMNS), np.int64),
                seat_int,
                np.zeros((E.MAX_PLAYERS, 2), np.float64),
                np.zeros((E.MAX_ITEMS, 3), np.int64),
            )
            assert last == s["rnd"]
            # standings are VP only: a seat with more VP ranks strictly better; equal VP is left to the tie-breakers
            rank = seat_int[:n, SEAT.rank]
            for i in range(n):
                for j in range(n):
                    if standing[i] > standing[j]:
                        assert rank[i] < rank[j]


def test_every_item_has_its_removal():
    for item in ITEM_NAMES:
        assert removal(GAME, item) == {"item.remove": item}


def remove(item):
    return {"item.remove": item}


def test_a_removed_mission_is_never_dealt_and_the_next_card_of_the_shuffle_comes_instead():
    k = 0
    item = ITEM_NAMES[E.IT_MISSION + k]
    drawn = 0
    for seed in range(30):
        s0, _ = H.fresh(4, seed=seed)
        s1, _ = H.fresh(4, seed=seed, **remove(item))
        deck0 = list(s0["mdeck"][: s0["n_mdeck"]]) + [m for m in s0["face"] if m >= 0]
        deck1 = list(s1["mdeck"][: s1["n_mdeck"]]) + [m for m in s1["face"] if m >= 0]
        assert k not in deck1 and len(deck1) == len(deck0)
        if k not in deck0:
            assert sorted(deck0) == sorted(deck1)  # the same shuffle: the same cards when k was not drawn
        drawn += k in deck0
    assert drawn > 0  # as printed, the card is drawn in some of these games


def test_a_removed_secret_mission_is_out_of_the_secret_deck():
    k = 2
    for seed in range(20):
        s, _ = H.fresh(5, seed=seed, **remove(ITEM_NAMES[E.IT_SECRET + k]))
        held = [c for c in s["secret"][:5] if c >= 0]
        deck = list(s["sdeck"][: s["n_sdeck"]])
        assert k not in held + deck and len(held) + len(deck) == P.NSECRET - 1


def placed(params, loc):
    """Seat 0 at the start of a turn on location `loc`, with gold and a hand to spend."""
    s, pv = H.fresh(4, seed=3, **params)
    s["pos"][:4] = P.LOC_SQ[P.LOC_NAMES.index("JAIL")]
    s["pos"][0] = P.LOC_SQ[P.LOC_NAMES.index(loc)]
    s["gold"][0] = 200
    s["cur"] = 0
    rules.start_turn(s, pv)
    return s, pv


def options(s, pv, kind):
    return [f for k, f in H.decoded(s, pv) if k == kind]


@pytest.mark.parametrize(
    "loc,kind,field,value,item",
    [
        ("SHERIFF_OFFICE", "TAKE_JOB", "job", P.JOB_NAMES.index("SHERIFF"), "job:SHERIFF"),
        ("HOTEL", "BUY_STORE", "store", P.STORE_NAMES.index("HOTEL"), "store:HOTEL"),
        ("ARMORY", "BUY_WEAPON", "weapon", P.WEAPON_NAMES.index("COLT"), "weapon:COLT"),
    ],
)
def test_a_removed_badge_store_or_weapon_is_never_offered(loc, kind, field, value, item):
    s, pv = placed({}, loc)
    assert {field: value} in options(s, pv, kind)
    s, pv = placed(remove(item), loc)
    assert {field: value} not in options(s, pv, kind)


def test_a_removed_horse_is_neither_sold_nor_given():
    s, pv = placed({}, "STABLES")
    assert "BUY_HORSE" in H.kinds(s, pv)
    s, pv = placed(remove("horse"), "STABLES")
    assert "BUY_HORSE" not in H.kinds(s, pv)
    s, pv = H.fresh(4, seed=1, **remove("horse"))
    H.act(s, pv, "ENTER", entry=E.ENTRY_STABLES)
    assert s["horse"][0] == 0 and s["pos"][0] == P.LOC_SQ[P.L_STABLES]


def test_a_removed_starting_square_is_not_offered():
    s, pv = H.fresh(4, seed=1, **remove("start:ARMORY"))
    assert H.decoded(s, pv) == [("ENTER", {"entry": E.ENTRY_STABLES})]
    s, pv = H.fresh(4, seed=1, **remove("start:STABLES"))
    assert H.decoded(s, pv) == [("ENTER", {"entry": E.ENTRY_ARMORY})]
