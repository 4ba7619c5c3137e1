"""Rule tests for bang_dice: hand-built states with scripted dice (note sections 2, 4, 5, 7)."""

from fractions import Fraction

import numba as nb
import numpy as np
import pytest

from tests.games.bang_dice.util import C, E, GAME, H, P, build, ev_kinds, faces, more, values
from sim.rng import seed_streams

NOOP = faces("BR", "BR", "BR", "BR", "BR")  # a roll that takes no arrow and stops nothing


# ---------------------------------------------------------------- tables
def test_role_tables():
    want = {3: (0, 1, 1, 1), 4: (1, 0, 2, 1), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1), 7: (1, 2, 3, 1), 8: (1, 2, 3, 2)}
    p = H.params()
    for n, counts in want.items():
        for seed in range(20):
            st = np.zeros(1, E.STATE_DTYPE)
            s = st[0]
            seed_streams(s["rng"], 5, seed)
            E.setup(s, p, n)
            roles = list(s["role0"][:n])
            assert tuple(roles.count(r) for r in range(4)) == counts
            if n == 3:
                assert all(s["role_known"][:n] == 1)
                assert s["role"][s["first_seat"]] == E.DEPUTY
                assert all(s["max_life"][i] == p[P.LIFE + s["char"][i]] for i in range(n))
            else:
                sh = roles.index(E.SHERIFF)
                assert s["first_seat"] == sh and s["role_known"][sh] == 1
                assert s["max_life"][sh] == p[P.LIFE + s["char"][sh]] + 2
                assert sum(s["role_known"][:n]) == 1


def test_life_sums():
    p = H.params()
    base = [int(p[P.LIFE + i]) for i in range(16)]
    assert sum(base) == 129
    assert [int(p[P.LIFE + i]) for i in range(16, 24)] == [7, 7, 9, 9, 7, 7, 8, 8]


def test_character_pool_respects_modules():
    for mods, allowed in [
        ({}, set(range(16))),
        (
            {"module__new_characters": 1},
            set(range(16))
            | {C["BILL_NOFACE"], C["ELENA_FUENTE"], C["VERA_CUSTER"], C["DOC_HOLYDAY"], C["MOLLY_STARK"]},
        ),
        ({"module__new_characters": 1, "module__saloon_dice": 1, "module__chief_arrow": 1}, set(range(24))),
    ]:
        p = H.params(**mods)
        seen = set()
        for seed in range(200):
            st = np.zeros(1, E.STATE_DTYPE)
            s = st[0]
            seed_streams(s["rng"], 9, seed)
            E.setup(s, p, 8)
            chars = list(s["char"][:8])
            assert len(set(chars)) == 8
            seen |= set(chars)
        assert seen == allowed


# ---------------------------------------------------------------- worked examples (note 5.1)
def test_example_indian_attack_mid_roll():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "CALAMITY_JANET", "LUCKY_DUKE", "ROSE_DOOLAN", "BLACK_JACK"],
        life=[6, 8, 8, 8, 8],
        arrows=[1, 2, 2, 2, 1],
        forced=faces("A", "A", "D", "B2", "G"),
    )
    # after the attack: Sheriff lost 2 (held 2), others 1 per arrow; then he took his second arrow
    assert s["life"][0] == 4
    assert list(s["life"][1:5]) == [6, 6, 6, 7]
    assert s["arrows"][0] == 1
    assert int(s["pile"]) == 8
    more(s, faces("G", "G") + NOOP)
    H.act(s, p, "REROLL", dice=0b00011)
    H.act(s, p, "REROLL", dice=0)
    assert sorted(values(s, p, "seat")) == [2, 3]  # BE2 reaches 2 seats away
    H.act(s, p, "BULLSEYE", seat=2)
    # Gatling: everyone else -1, the Sheriff discards his arrow; the next player's roll takes no arrow
    assert s["life"][0] == 4 and s["arrows"][0] == 0 and s["pile"] == 9
    assert list(s["life"][1:5]) == [5, 4, 5, 6]
    assert s["active"] == 1


def test_example_chief_arrow_attack():
    p = H.params(module__chief_arrow=1)
    # Martin 1 (+1 he takes), Barbara 2 + Chief = 4, William 1, Jack 3; arrows set directly (note section 7)
    st, s = build(
        p,
        "SOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        life=[9, 9, 8, 8],
        arrows=[1, 2, 1, 3],
        pile=1,
        chief=1,
        forced=faces("A", "BR", "BR", "BR", "BR"),
    )
    assert len(ev_kinds(s, E.EV_INDIANS)) == 1
    assert list(s["life"][:4]) == [7, 9, 7, 5]
    assert s["chief_holder"] == -1 and s["pile"] == 9 and list(s["arrows"][:4]) == [0, 0, 0, 0]


def test_chief_arrow_holder_tied_loses_double():
    p = H.params(module__chief_arrow=1)
    st, s = build(
        p,
        "SOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        life=[9, 9, 8, 8],
        arrows=[1, 2, 1, 4],
        pile=1,
        chief=1,
        forced=faces("A", "BR", "BR", "BR", "BR"),
    )
    assert list(s["life"][:4]) == [7, 5, 7, 4]


def test_chief_arrow_choice_and_last_token():
    p = H.params(module__chief_arrow=1)
    st, s = build(
        p,
        "SOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        arrows=[0, 4, 4, 0],
        pile=1,
        forced=faces("A", "A", "BR", "BR", "BR"),
    )
    assert s["dkind"] == E.D_ARROW and sorted(values(s, p, "token")) == [0, 1]
    H.act(s, p, "ARROW", token=0)  # the last regular arrow; the Chief's Arrow is still in the pile: no attack
    # second arrow: only the Chief's Arrow is left -> taken automatically -> the Indians attack
    arrows = ev_kinds(s, E.EV_ARROW)
    assert [e[2] for e in arrows] == [0, 1] and arrows[0][3] == 0  # regular (pile 0), then the Chief
    assert len(ev_kinds(s, E.EV_INDIANS)) == 1
    assert s["life"][1] == 9 - 4 and s["life"][0] == 11 - 3  # Sheriff: 1 + Chief(2) = 3, not the unique leader


def test_chief_attack_alt_last_regular():
    p = H.params(module__chief_arrow=1, rule__chief_attack_trigger="last_regular")
    st, s = build(
        p,
        "SOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        arrows=[0, 4, 4, 0],
        pile=1,
        forced=faces("A", "BR", "BR", "BR", "BR"),
    )
    H.act(s, p, "ARROW", token=0)
    assert len(ev_kinds(s, E.EV_INDIANS)) == 1


def test_example_ghost():
    p = H.params(module__ghost=1)
    st, s = build(
        p,
        "RSDDOOO",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK", "PAUL_REGRET", "CALAMITY_JANET", "WILLY_THE_KID"],
        ghost=0,
        active=0,
        forced=faces("BR", "G"),
    )
    assert s["ghost_team"] == E.OUTLAW  # a Renegade Ghost plays as an Outlaw with 7 players
    assert s["nd"] == 2 and s["dkind"] == E.D_REROLL
    more(s, faces("A", "B1", "A", "BR", "BR", "G"))
    H.act(s, p, "REROLL", dice=0b11)
    assert s["pile"] == 9  # the Ghost's arrows take no token
    H.act(s, p, "REROLL", dice=0b10)
    assert list(s["face"][:2]) == [E.ARROW, E.ARROW]
    H.act(s, p, "GHOST_GIVE", face=E.ARROW, seat=1)
    # Barbara (seat 1, Sheriff) starts with 2 base dice set to Arrow and rolls only 3 dice
    assert s["active"] == 1 and s["dkind"] == E.D_REROLL
    assert list(s["face"][:5]) == [E.ARROW, E.ARROW, E.BEER, E.BEER, E.GAT]
    assert s["arrows"][1] == 2 and s["pile"] == 7
    assert s["forced_pos"] == 8
    assert all(((m >> 0) & 1) == 1 for m in [0b11111] if m in values(s, p, "dice"))
    assert 0b00011 in values(s, p, "dice")  # the preset dice may be re-rolled from roll 2 on
    # the Ghost wins with the Outlaws
    s["over"] = 1
    s["winner_team"] = E.WT_OUTLAWS
    assert E.seat_wins(s, 0) == 1 and E.seat_wins(s, 4) == 1 and E.seat_wins(s, 1) == 0


def test_ghost_first_eliminated_becomes_ghost_and_tokens():
    p = H.params(module__ghost=1)
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK", "PAUL_REGRET"],
        life=[11, 9, 1, 1, 9],
        arrows=[0, 0, 1, 1, 0],
        pile=1,
        forced=faces("A") + NOOP[:4],
    )
    # seats 2 and 3 die together: the first in turn order from the active player (seat 0) becomes the Ghost
    assert s["ghost_seat"] == 2 and s["alive"][2] == 0 and s["alive"][3] == 0
    assert not s["over"]
    # the Ghost takes its turn in seat order and cannot be targeted
    assert E.be_mask(s, 1, 1) & (1 << 2) == 0


def test_renegade_ghost_team_by_count():
    for n, team in [(5, E.OUTLAW), (6, E.DEPUTY), (7, E.OUTLAW), (8, E.DEPUTY)]:
        p = H.params(module__ghost=1)
        st = np.zeros(1, E.STATE_DTYPE)
        s = st[0]
        seed_streams(s["rng"], 1, 1)
        E.setup(s, p, n)
        assert s["ghost_team"] == team


def test_example_jesse_jones():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK", "PAUL_REGRET"],
        life=[4, 9, 8, 8, 9],
        forced=faces("BR", "BR", "D", "D", "G"),
    )
    s["max_life"][0] = 9
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BEER", seat=0)
    H.act(s, p, "BEER", seat=0)
    assert s["life"][0] == 8
    p2 = H.params(rule__jesse_threshold_checked_once=0)
    st, s = build(
        p2,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK", "PAUL_REGRET"],
        life=[4, 9, 8, 8, 9],
        forced=faces("BR", "BR", "D", "D", "G"),
    )
    H.act(s, p2, "REROLL", dice=0)
    H.act(s, p2, "BEER", seat=0)
    H.act(s, p2, "BEER", seat=0)
    assert s["life"][0] == 7


def test_example_kit_carlson():
    p = H.params()
    st, s = build(
        p,
        "SOOR",
        ["KIT_CARLSON", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        life=[9, 9, 8, 8],
        arrows=[2, 2, 1, 1],
        forced=faces("G", "G", "G", "D", "D"),
    )
    H.act(s, p, "REROLL", dice=0)
    assert s["arrows"][0] == 0  # all his own arrows discarded first
    H.act(s, p, "KIT", use=1, seat=1)
    H.act(s, p, "KIT", use=1, seat=1)
    H.act(s, p, "KIT", use=1, seat=2)
    assert list(s["arrows"][:4]) == [0, 0, 0, 1] or s["active"] != 0
    assert list(s["life"][1:4]) == [8, 7, 7]


# ---------------------------------------------------------------- victory (note 2.6 and examples)
def _attack_state(p, roles, life, arrows, active=0, dead=(), chars=None):
    n = len(roles)
    chars = (
        chars
        or [
            "ROSE_DOOLAN",
            "LUCKY_DUKE",
            "BLACK_JACK",
            "CALAMITY_JANET",
            "WILLY_THE_KID",
            "SID_KETCHUM",
            "SUZY_LAFAYETTE",
            "PAUL_REGRET",
        ][:n]
    )
    held = sum(arrows)
    return build(
        p,
        roles,
        chars,
        life=life,
        arrows=arrows,
        pile=9 - held,
        active=active,
        dead=dead,
        forced=faces("A" if 9 - held == 1 else "BR") + NOOP[:4],
    )


def test_victory_outlaws_dead_renegade_alive_continues():
    p = H.params()
    st, s = _attack_state(p, "SOOR", [9, 1, 1, 5], [0, 4, 4, 0])
    assert s["alive"][1] == 0 and s["alive"][2] == 0 and not s["over"]


def test_victory_law_when_outlaws_and_renegades_dead():
    p = H.params()
    st, s = _attack_state(p, "SOOR", [9, 1, 1, 1], [0, 3, 3, 2])
    assert s["over"] and s["winner_team"] == E.WT_LAW and s["end_reason"] == E.ER_BANDITS_DEAD
    assert [E.seat_wins(s, i) for i in range(4)] == [1, 0, 0, 0]


def test_victory_sheriff_dies_with_deputy_and_renegade_alive_outlaws_win():
    p = H.params()
    st, s = _attack_state(p, "SDOOR", [1, 5, 0, 0, 5], [8, 0, 0, 0, 0], active=1, dead=(2, 3))
    assert s["over"] and s["winner_team"] == E.WT_OUTLAWS
    assert [E.seat_wins(s, i) for i in range(5)] == [0, 0, 1, 1, 0]


def test_victory_everyone_dies_outlaws_win():
    p = H.params()
    st, s = _attack_state(p, "SDOOR", [1, 1, 1, 1, 1], [2, 2, 2, 2, 0], active=4)
    assert s["over"] and s["winner_team"] == E.WT_OUTLAWS and s["end_reason"] == E.ER_ALL_DEAD
    assert sum(s["alive"][:5]) == 0


def test_victory_renegade_alone_wins():
    p = H.params()
    st, s = _attack_state(p, "SOOR", [1, 0, 0, 5], [8, 0, 0, 0], active=3, dead=(1, 2))
    assert s["over"] and s["winner_team"] == E.WT_RENEGADE and s["winner_seat"] == 3
    assert [E.seat_wins(s, i) for i in range(4)] == [0, 0, 0, 1]


def test_victory_8p_two_renegades_outlaws_win():
    p = H.params()
    st, s = _attack_state(
        p, "SDDOOORR", [1, 0, 0, 0, 0, 0, 5, 5], [8, 0, 0, 0, 0, 0, 0, 0], active=6, dead=(1, 2, 3, 4, 5)
    )
    assert s["over"] and s["winner_team"] == E.WT_OUTLAWS


def test_victory_sheriff_checked_before_bandits():
    # Sheriff and the last Outlaw die in the same attack: (a) is tested first -> Outlaws win
    p = H.params()
    st, s = _attack_state(p, "SOOR", [1, 1, 0, 0], [4, 4, 0, 0], active=1, dead=(2, 3))
    assert s["over"] and s["winner_team"] == E.WT_OUTLAWS


# ---------------------------------------------------------------- three players
def test_three_player_personal_kill_wins():
    p = H.params()
    # seats: Deputy 0 (hunts Renegade), Outlaw 1 (hunts Deputy), Renegade 2 (hunts Outlaw)
    st, s = build(
        p, "DOR", ["ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"], life=[8, 8, 1], forced=faces("B1", "BR", "BR", "D", "D")
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=2)
    assert s["over"] and s["winner_team"] == E.WT_3P_DEPUTY and s["winner_seat"] == 0
    assert s["end_reason"] == E.ER_PERSONAL_KILL


def test_three_player_other_kill_goes_last_man_standing():
    p = H.params()
    st, s = build(
        p,
        "DOR",
        ["ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
        life=[8, 8, 1],
        active=1,
        forced=faces("B1", "BR", "BR", "D", "D"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=2)  # the Outlaw kills the Deputy's target
    assert not s["over"] and s["lms"] == 1


def test_three_player_indian_death_not_personal_and_alt():
    for alt, over in [(0, False), (1, True)]:
        p = H.params(rule__three_player_indian_kill_counts=alt)
        st, s = build(
            p,
            "DOR",
            ["ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK"],
            life=[8, 8, 1],
            arrows=[0, 0, 8],
            pile=1,
            forced=faces("A") + NOOP[:4],
        )
        assert s["alive"][2] == 0
        assert bool(s["over"]) == over
        if over:
            assert s["winner_seat"] == 0


def test_three_player_bullseye2_acts_as_bullseye1():
    p = H.params()
    st, s = build(p, "DOR", ["LUCKY_DUKE", "ROSE_DOOLAN", "BLACK_JACK"], forced=faces("B2", "BR", "BR", "D", "D"))
    H.act(s, p, "REROLL", dice=0)
    assert sorted(values(s, p, "seat")) == [1, 2]


# ---------------------------------------------------------------- dice rules
def test_dynamite_locked_and_three_dynamite():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "CALAMITY_JANET", "PAUL_REGRET"],
        forced=faces("D", "D", "BR", "BR", "BR"),
    )
    assert all((m & 0b11) == 0 for m in values(s, p, "dice"))
    more(s, faces("D", "BR", "BR") + NOOP)
    H.act(s, p, "REROLL", dice=0b11100)
    # 3 Dynamite: lose 1, rolling stops, the rest still resolves (Beers)
    assert s["life"][0] == 10 and s["dkind"] == E.D_BEER


def test_three_dynamite_alt_turn_ends():
    p = H.params(rule__dynamite_resolves_rest=0)
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "CALAMITY_JANET", "PAUL_REGRET"],
        forced=faces("D", "D", "D", "BR", "BR") + NOOP,
    )
    assert s["life"][0] == 10 and s["active"] == 1


def test_gatling_once_per_turn_and_discard():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "CALAMITY_JANET", "PAUL_REGRET"],
        arrows=[3, 0, 0, 0, 0],
        forced=faces("G", "G", "G", "G", "G") + NOOP,
    )
    H.act(s, p, "REROLL", dice=0)
    # Paul Regret is immune; the others lose exactly 1 (5 Gatlings fire once)
    assert list(s["life"][1:5]) == [8, 7, 7, 9]
    assert s["arrows"][0] == 0 and s["pile"] == 9


def test_active_dies_mid_turn_ends_turn():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "CALAMITY_JANET", "PAUL_REGRET"],
        life=[11, 9, 8, 8, 1],
        arrows=[0, 0, 0, 0, 8],
        pile=1,
        active=4,
        forced=faces("A", "G", "G", "G", "BR") + NOOP,
    )
    assert s["alive"][4] == 0 and s["active"] == 0  # no Gatling fired
    assert list(s["life"][1:4]) == [9, 8, 8]


# ---------------------------------------------------------------- characters
BASIC = ["ROSE_DOOLAN", "LUCKY_DUKE", "CALAMITY_JANET", "PAUL_REGRET"]


def _one(p, char, others=None, roles="SDOOR", **kw):
    chars = [char] + (others or ["JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"])
    return build(p, roles, chars, **kw)


def test_bart_cassidy_arrow_instead_of_life():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "BART_CASSIDY", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        forced=faces("B1", "B1", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["dkind"] == E.D_BART and s["decider"] == 1 and values(s, p, "count") == [0, 1, 2]
    H.act(s, p, "BART", count=1)
    assert s["life"][1] == 7 and s["arrows"][1] == 1


def test_bart_cannot_take_last_arrow():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "BART_CASSIDY", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        arrows=[0, 0, 8, 0, 0],
        forced=faces("B1", "BR", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 7 and s["arrows"][1] == 0  # no choice offered: only 1 arrow left in the pile


def test_black_jack_rerolls_dynamite():
    p = H.params()
    st, s = _one(p, "BLACK_JACK", forced=faces("D", "D", "BR", "BR", "BR"))
    assert 0b11 in values(s, p, "dice")


def test_calamity_janet_range():
    p = H.params()
    st, s = _one(p, "CALAMITY_JANET", forced=faces("B1", "BR", "BR", "D", "D"))
    H.act(s, p, "REROLL", dice=0)
    assert sorted(values(s, p, "seat")) == [1, 2, 3, 4]


def test_rose_doolan_range():
    p = H.params()
    st, s = build(
        p,
        "SDDOOOR",
        ["ROSE_DOOLAN"] + ["JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET", "BLACK_JACK", "WILLY_THE_KID"],
        forced=faces("B2", "BR", "BR", "D", "D"),
    )
    H.act(s, p, "REROLL", dice=0)
    assert sorted(values(s, p, "seat")) == [2, 3, 4, 5]


def test_el_gringo_shooter_takes_arrow():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "EL_GRINGO", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        forced=faces("B1", "B1", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 5 and s["arrows"][0] == 1  # one arrow per damage event


def test_el_gringo_vs_gatling_after_discard():
    for alt, arrows in [(1, 1), (0, 0)]:
        p = H.params(rule__gringo_arrow_after_gatling_discard=alt)
        st, s = build(
            p,
            "SDOOR",
            ["JESSE_JONES", "EL_GRINGO", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
            arrows=[2, 0, 0, 0, 0],
            forced=faces("G", "G", "G", "D", "D") + NOOP,
        )
        if s["dkind"] == E.D_REROLL and s["active"] == 0:
            H.act(s, p, "REROLL", dice=0)
        assert s["arrows"][0] == arrows


def test_jourdonnais_caps_indians():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "JOURDONNAIS", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        arrows=[0, 5, 3, 0, 0],
        forced=faces("A") + NOOP[:4],
    )
    assert s["life"][1] == 6 and s["life"][2] == 5


def test_lucky_duke_four_rolls():
    p = H.params()
    st, s = _one(p, "LUCKY_DUKE", forced=NOOP * 4)
    assert s["max_roll"] == 4
    for _ in range(3):
        H.act(s, p, "REROLL", dice=0b11111)
    assert s["dkind"] == E.D_BEER and s["roll_no"] == 4


def test_pedro_ramirez_discards_on_loss():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "PEDRO_RAMIREZ", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        arrows=[0, 2, 0, 0, 0],
        forced=faces("B1", "BR", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 7 and s["arrows"][1] == 1


def test_sid_ketchum_heals_at_start():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["SID_KETCHUM", "JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        life=[10, 5, 8, 8, 9],
        forced=NOOP,
    )
    assert s["dkind"] == E.D_SID
    H.act(s, p, "SID", seat=1)
    assert s["life"][1] == 6


def test_slab_the_killer_doubles_with_beer():
    p = H.params()
    st, s = _one(p, "SLAB_THE_KILLER", forced=faces("B1", "BR", "D", "D", "BR"))
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "SLAB", use=1, seat=1)
    assert s["life"][1] == 9 - 2
    assert s["n_beer"] == 1


def test_suzy_lafayette_bonus():
    p = H.params()
    st, s = _one(p, "SUZY_LAFAYETTE", life=[5, 9, 8, 8, 9], forced=faces("D", "D", "G", "BR", "A") + NOOP)
    assert s["arrows"][0] == 1
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BEER", seat=1)
    assert s["life"][0] == 7


def test_vulture_sam_gains_on_death():
    p = H.params()
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "VULTURE_SAM", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        life=[11, 5, 1, 8, 9],
        arrows=[0, 0, 8, 0, 0],
        forced=faces("A") + NOOP[:4],
    )
    assert s["alive"][2] == 0 and s["life"][1] == 7


def test_willy_the_kid_two_gatlings():
    p = H.params()
    st, s = _one(p, "WILLY_THE_KID", forced=faces("G", "G", "D", "D", "BR") + NOOP)
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BEER", seat=0)
    assert list(s["life"][1:5]) == [8, 7, 7, 9]


def test_paul_regret_immune():
    p = H.params()
    st, s = _one(p, "JESSE_JONES", forced=faces("G", "G", "G", "D", "D") + NOOP)
    H.act(s, p, "REROLL", dice=0)
    assert s["life"][4] == 9


# ---------------------------------------------------------------- module 1: Saloon dice
def test_loudmouth_double_bullseye_and_bullet():
    p = H.params(module__saloon_dice=1)
    st, s = _one(p, "JESSE_JONES", forced=faces("D", "D", "BR", "BR", "B1X"))
    H.act(s, p, "SALOON", saloon=1)
    assert s["die_type"][4] == E.DT_LOUD and s["nd"] == 5
    more(s, faces("BU"))
    # first roll already done? no: the roll happens after the choice
    assert s["dkind"] == E.D_REROLL
    assert s["face"][4] == E.BE1X2
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=4)  # each half aims on its own
    assert s["life"][1] == 8 and s["life"][4] == 8


def test_loudmouth_bullet_costs_life():
    p = H.params(module__saloon_dice=1)
    st, s = _one(p, "JESSE_JONES", forced=faces("D", "D", "BR", "BR", "BU"))
    H.act(s, p, "SALOON", saloon=1)
    assert s["life"][0] == 10


def test_coward_broken_arrow_and_double_beer():
    p = H.params(module__saloon_dice=1)
    st, s = _one(
        p, "JESSE_JONES", arrows=[0, 2, 1, 0, 0], life=[6, 9, 8, 8, 9], forced=faces("D", "D", "BR", "BR", "BA")
    )
    H.act(s, p, "SALOON", saloon=2)
    assert s["dkind"] == E.D_BROKEN and sorted(values(s, p, "seat")) == [1, 2]
    H.act(s, p, "BROKEN_ARROW", seat=1)
    assert s["arrows"][1] == 1 and s["pile"] == 7


def test_double_gatling_plus_one_fires():
    p = H.params(module__saloon_dice=1)
    st, s = _one(p, "JESSE_JONES", forced=faces("G", "D", "D", "BR", "GX") + NOOP)
    H.act(s, p, "SALOON", saloon=1)
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BEER", seat=0)
    assert ev_kinds(s, E.EV_GATLING)


def test_jose_and_tequila_sixth_die():
    p = H.params(module__saloon_dice=1, module__new_characters=1)
    st, s = _one(p, "JOSE_DELGADO", forced=NOOP + faces("BR"))
    assert 3 in values(s, p, "saloon") and 4 not in values(s, p, "saloon")
    H.act(s, p, "SALOON", saloon=3)
    assert s["nd"] == 6 and s["die_type"][5] == E.DT_LOUD
    st, s = _one(p, "TEQUILA_JOE", forced=NOOP + faces("BR"))
    assert 4 in values(s, p, "saloon") and 3 not in values(s, p, "saloon")
    H.act(s, p, "SALOON", saloon=4)
    assert s["nd"] == 6 and s["die_type"][5] == E.DT_COWARD


# ---------------------------------------------------------------- module 4: new characters
def test_apache_kid_steals_chief():
    p = H.params(module__chief_arrow=1, module__new_characters=1)
    st, s = _one(p, "APACHE_KID", chief=2, forced=faces("A", "BR", "BR", "D", "D"))
    assert s["dkind"] == E.D_ARROW and sorted(values(s, p, "token")) == [0, 2]
    H.act(s, p, "ARROW", token=2)
    assert s["chief_holder"] == 0 and s["pile"] == 9


def test_bill_noface_arrows_after_last_roll():
    p = H.params(module__new_characters=1)
    st, s = _one(p, "BILL_NOFACE", forced=faces("A", "A", "BR", "D", "D"))
    assert s["arrows"][0] == 0
    more(s, faces("BR"))
    H.act(s, p, "REROLL", dice=0b00001)
    H.act(s, p, "REROLL", dice=0)
    assert s["arrows"][0] == 1


def test_elena_fuente_gives_arrow():
    p = H.params(module__new_characters=1)
    st, s = _one(p, "ELENA_FUENTE", forced=faces("A", "A", "BR", "D", "D"))
    assert s["dkind"] == E.D_ELENA
    H.act(s, p, "ELENA", use=1, seat=3)
    assert s["arrows"][3] == 1 and s["arrows"][0] == 1


def test_vera_custer_reduction():
    p = H.params(module__new_characters=1)
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "VERA_CUSTER", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        forced=faces("B1", "B1", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 6  # one damage event of 2 -> 1
    p2 = H.params(module__new_characters=1, rule__vera_reduction_per="die")
    st, s = build(
        p2,
        "SDOOR",
        ["JESSE_JONES", "VERA_CUSTER", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        forced=faces("B1", "B1", "D", "D", "BR"),
    )
    H.act(s, p2, "REROLL", dice=0)
    H.act(s, p2, "BULLSEYE", seat=1)
    H.act(s, p2, "BULLSEYE", seat=1)
    assert s["life"][1] == 7


@pytest.mark.parametrize("reading", ["event", "die"])
def test_vera_custer_double_bullseye_counts_two(reading):
    """OS, Vera Custer: 'you lose 1 life point less ... Remember that [a double Bull's Eye] counts as two': a double
    Bull's Eye 1 on her costs 1 under either reading (per die it is one die of 2); half of it on her costs 0."""
    p = H.params(module__new_characters=1, module__saloon_dice=1, rule__vera_reduction_per=reading)
    chars = ["JESSE_JONES", "VERA_CUSTER", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"]
    st, s = build(p, "SDOOR", chars, forced=faces("D", "D", "BR", "BR", "B1X"))
    H.act(s, p, "SALOON", saloon=1)
    assert s["face"][4] == E.BE1X2
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 6
    st, s = build(p, "SDOOR", chars, forced=faces("D", "D", "BR", "BR", "B1X"))
    H.act(s, p, "SALOON", saloon=1)
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BULLSEYE", seat=4)
    assert s["life"][1] == 7 and s["life"][4] == 8


def test_doc_holyday_heals_on_three_shots():
    p = H.params(module__new_characters=1)
    st, s = _one(p, "DOC_HOLYDAY", life=[6, 9, 8, 8, 9], forced=faces("B1", "B1", "B2", "D", "D"))
    H.act(s, p, "REROLL", dice=0)
    for t in (1, 4, 2):
        H.act(s, p, "BULLSEYE", seat=t)
    assert s["life"][0] == 8


def test_molly_stark_takes_damage():
    p = H.params(module__new_characters=1)
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "LUCKY_DUKE", "MOLLY_STARK", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        forced=faces("B1", "BR", "BR", "D", "D"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["dkind"] == E.D_MOLLY and s["decider"] == 2 and s["react_seat"] == 1
    H.act(s, p, "MOLLY", count=1)
    assert s["life"][1] == 8 and s["life"][2] == 7


# ---------------------------------------------------------------- module 3: special roles
def test_the_bear_bonus():
    p = H.params(module__special_roles="replace")
    for seed in range(10):
        st = np.zeros(1, E.STATE_DTYPE)
        s = st[0]
        seed_streams(s["rng"], 2, seed)
        E.setup(s, p, 5)
        sh = s["sheriff"]
        assert s["special"][sh] == E.BEAR and s["max_life"][sh] == p[P.LIFE + s["char"][sh]] + 3


def test_special_roles_dealt_by_type():
    for mode in ("replace", "mixed"):
        p = H.params(module__special_roles=mode)
        for seed in range(30):
            st = np.zeros(1, E.STATE_DTYPE)
            s = st[0]
            seed_streams(s["rng"], 2, seed)
            E.setup(s, p, 8)
            for i in range(8):
                sp, r = s["special"][i], s["role0"][i]
                ok = {
                    E.SHERIFF: {E.BEAR},
                    E.DEPUTY: {E.GOOD, E.DOC, E.JUDGE},
                    E.OUTLAW: {E.GAMBLER, E.BAD, E.UGLY},
                    E.RENEGADE: {E.RIGHT, E.LEFT},
                }[r]
                if mode == "mixed":
                    ok = ok | {E.SP_NONE}
                assert sp in ok


SP5 = "SDOOR"


def _sp(p, special, active=0, **kw):
    chars = ["JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET", "ROSE_DOOLAN"]
    return build(p, SP5, chars, special=special, active=active, **kw)


def test_the_good_swaps_with_sheriff():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, E.GOOD, 0, 0, 0], active=1, life=[11, 5, 8, 8, 9], forced=NOOP)
    H.act(s, p, "GOOD", reveal=1)
    assert s["sheriff"] == 1 and s["role"][1] == E.SHERIFF and s["role"][0] == E.DEPUTY
    assert s["max_life"][0] == 9 and s["life"][0] == 11 and s["max_life"][1] == 8


def test_the_judge_cancels():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, E.GOOD, 0, 0, 0], active=1, forced=NOOP)
    s["special"][4] = E.JUDGE  # test only: a Judge on another seat
    H.act(s, p, "GOOD", reveal=1)
    assert s["dkind"] == E.D_JUDGE and s["decider"] == 4
    H.act(s, p, "JUDGE", reveal=1)
    assert s["sheriff"] == 0 and s["special_state"][1] == 2


def test_the_doc_turns_a_die():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, E.DOC, 0, 0, 0], forced=faces("D", "D", "D", "BR", "BR"))
    assert s["dkind"] == E.D_DOC and s["decider"] == 1
    H.act(s, p, "DOC", reveal=1, die=0, side=4)  # die 0 -> Beer
    assert s["face"][0] == E.BEER and s["life"][0] == 11  # no explosion


def test_the_gambler_forces_reroll():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, 0, E.GAMBLER, 0, 0], forced=faces("G", "G", "G", "BR", "BR"))
    more(s, faces("BR", "BR", "BR", "BR", "BR"))
    H.act(s, p, "REROLL", dice=0)
    assert s["dkind"] == E.D_GAMBLER and s["decider"] == 2
    H.act(s, p, "GAMBLER", reveal=1)
    assert list(s["face"][:5]) == [E.BEER] * 5 and s["dkind"] == E.D_BEER


@pytest.mark.parametrize("reading,kept", [("stands", 2), ("undone", 0)])
def test_the_gambler_ignored_roll_arrows(reading, kept):
    """OS, The Gambler: 'Ignore all results of your last roll': the arrows the forced player took with it stay
    (stands) or go back to the pile (undone); the forced roll's own arrows are taken either way."""
    p = H.params(module__special_roles="replace", rule__gambler_ignored_roll=reading)
    st, s = _sp(p, [0, 0, E.GAMBLER, 0, 0], forced=faces("A", "A", "BR", "BR", "BR"))
    pile0 = int(s["pile"]) + 2
    more(s, faces("A", "BR", "BR", "BR", "BR"))
    assert s["arrows"][0] == 2
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "GAMBLER", reveal=1)
    assert s["arrows"][0] == kept + 1 and s["pile"] == pile0 - kept - 1


def test_the_bad_cancels_heal():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, 0, E.BAD, 0, 0], life=[6, 9, 8, 8, 9], forced=faces("BR", "D", "D", "G", "B1"))
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    H.act(s, p, "BEER", seat=0)
    assert s["dkind"] == E.D_BAD
    H.act(s, p, "BAD", reveal=1)
    assert s["life"][0] == 6


def test_the_ugly_swaps_arrows():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, 0, E.UGLY, 0, 0], active=2, arrows=[3, 0, 1, 0, 0], forced=NOOP)
    H.act(s, p, "UGLY", reveal=1, seat=0, seat2=2)
    assert s["arrows"][0] == 1 and s["arrows"][2] == 3


def test_right_hand_extra_turn():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, 0, 0, 0, E.RIGHT], active=4, forced=NOOP + NOOP)
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BEER", seat=4)
    for _ in range(4):
        H.act(s, p, "BEER", seat=4)
    assert s["dkind"] == E.D_RIGHT
    H.act(s, p, "RIGHT_HAND", reveal=1)
    assert s["active"] == 4 and s["turns_taken"][4] == 2  # the extra turn has begun


def test_left_hand_saves():
    p = H.params(module__special_roles="replace")
    st, s = _sp(p, [0, 0, 0, 0, E.LEFT], life=[11, 9, 1, 8, 9], arrows=[0, 0, 8, 0, 0], forced=faces("A") + NOOP[:4])
    assert s["dkind"] == E.D_LEFT and s["decider"] == 4 and s["react_seat"] == 2
    H.act(s, p, "LEFT_HAND", reveal=1)
    assert s["alive"][2] == 1 and s["life"][2] == 2


@pytest.mark.parametrize("reading,kept", [("all", 0), ("keep", 3)])
def test_left_hand_may_discard(reading, kept):
    """OS, The Left Hand of the Devil: 'That player stays in the game with 2 life points and may discard all of
    his arrows': rule.left_hand_discard all = he discards them, keep = he keeps them."""
    p = H.params(module__special_roles="replace", rule__left_hand_discard=reading)
    st, s = _sp(
        p, [0, 0, 0, 0, E.LEFT], life=[11, 1, 8, 8, 9], arrows=[0, 3, 0, 0, 0], forced=faces("B1", "D", "D", "BR", "BR")
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["dkind"] == E.D_LEFT and s["react_seat"] == 1
    H.act(s, p, "LEFT_HAND", reveal=1)
    assert s["alive"][1] == 1 and s["life"][1] == 2 and s["arrows"][1] == kept


@pytest.mark.parametrize("reading,chief,arrows", [("regular_first", 1, 1), ("chief_first", -1, 2)])
def test_pedro_may_discard_the_chief_arrow(reading, chief, arrows):
    """Pedro Ramirez discards one arrow per life point lost; holding the Chief's Arrow and regular ones he may
    return either (rule.chief_arrow_discard)."""
    p = H.params(module__chief_arrow=1, rule__chief_arrow_discard=reading)
    st, s = build(
        p,
        "SDOOR",
        ["JESSE_JONES", "PEDRO_RAMIREZ", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
        arrows=[0, 2, 0, 0, 0],
        chief=1,
        forced=faces("B1", "BR", "D", "D", "BR"),
    )
    H.act(s, p, "REROLL", dice=0)
    H.act(s, p, "BULLSEYE", seat=1)
    assert s["life"][1] == 7 and s["chief_holder"] == chief and s["arrows"][1] == arrows


def test_special_roles_at_three_players():
    """rule.special_roles_3p: off = no special roles with 3 players; on = dealt by role, never The Good."""
    seen = set()
    for reading in ("off", "on"):
        p = H.params(module__special_roles="replace", rule__special_roles_3p=reading)
        for seed in range(60):
            st = np.zeros(1, E.STATE_DTYPE)
            seed_streams(st[0]["rng"], seed, 1)
            E.setup(st[0], p, 3)
            sp = set(int(x) for x in st[0]["special"][:3])
            if reading == "off":
                assert sp == {E.SP_NONE}
            else:
                assert E.SP_NONE not in sp and E.GOOD not in sp and E.BEAR not in sp
                seen |= sp
    assert {E.DOC, E.JUDGE} & seen and {E.GAMBLER, E.BAD, E.UGLY} & seen and {E.RIGHT, E.LEFT} & seen


# ---------------------------------------------------------------- exact probabilities (note 5.2)
@nb.njit(cache=True)
def _count(v, f):
    c = 0
    for i in range(6):
        if ((v >> (4 * i)) & 15) == f + 1:
            c += 1
    return c


@nb.njit(cache=True)
def _reset(s):
    for i in range(s.n):
        s.life[i] = 100
        s.max_life[i] = 100
        s.arrows[i] = 0
    s.pile = 9
    s.active = 0
    s.phase = E.PH_TURN_BEGIN
    s.dkind = 0
    s.ret_depth = 0
    s.log_on = 1
    s.n_ev = 0


@nb.njit(cache=True)
def _first_roll_dynamite(states, p, n):
    hits = 0
    for _ in range(n):
        s = states[0]
        _reset(s)
        E.advance(s, p)
        for j in range(s.n_ev):
            if s.ev[j, 0] == E.EV_ROLL and s.ev[j, 1] == 0 and s.ev[j, 2] == 1:
                if _count(s.ev[j, 3], E.DYN) >= 3:
                    hits += 1
                break
    return hits


@nb.njit(cache=True)
def _chase_gatling(states, p, n):
    fires = 0
    dyn = 0
    for _ in range(n):
        s = states[0]
        _reset(s)
        E.advance(s, p)
        while s.dkind == E.D_REROLL and s.active == 0:
            m = 0
            cg = 0
            for i in range(s.nd):
                if s.face[i] != E.GAT and s.face[i] != E.DYN:
                    m |= 1 << i
                if s.face[i] == E.GAT:
                    cg += 1
            if cg >= 3:
                m = 0
            E.apply_action(s, p, E.encode_reroll(m))
        for j in range(s.n_ev):
            if s.ev[j, 0] == E.EV_KEEP_FINAL and s.ev[j, 1] == 0:
                if _count(s.ev[j, 2], E.GAT) >= 3:
                    fires += 1
                if _count(s.ev[j, 2], E.DYN) >= 3:
                    dyn += 1
                break
    return fires, dyn


def _within(hits, n, exact, k=3.5):
    phat = hits / n
    se = (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(phat - float(exact)) < k * se, (phat, float(exact), se)


def test_probability_three_dynamite_first_roll():
    p = H.params()
    st, s = build(p, "SDOOR", ["PAUL_REGRET", "JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "ROSE_DOOLAN"], go=False)
    n = 60000
    hits = _first_roll_dynamite(st, p, n)
    _within(hits, n, Fraction(23, 648))


def test_probability_chase_the_gatling():
    p = H.params()
    st, s = build(p, "SDOOR", ["PAUL_REGRET", "JESSE_JONES", "LUCKY_DUKE", "SUZY_LAFAYETTE", "ROSE_DOOLAN"], go=False)
    n = 40000
    fires, dyn = _chase_gatling(st, p, n)
    exact = Fraction(1138594, 4782969)
    _within(fires, n, exact)
    _within(dyn, n, exact)


def test_probability_lucky_duke_chase():
    p = H.params()
    st, s = build(p, "SDOOR", ["LUCKY_DUKE", "JESSE_JONES", "PAUL_REGRET", "SUZY_LAFAYETTE", "ROSE_DOOLAN"], go=False)
    n = 40000
    fires, dyn = _chase_gatling(st, p, n)
    _within(fires, n, Fraction(742860625, 2324522934))


def test_data_file_params_section_matches_table():
    import json

    d = json.loads(P.DATA_FILE.read_text())
    rows = {r["name"]: r for r in d["params"]["table"]}
    assert set(rows) == set(GAME.params.names)
    for q in GAME.params.params:
        assert rows[q.name]["default"] == q.show(q.default) and rows[q.name]["prov"] == q.prov


def test_el_gringo_last_arrow_fires_attack_and_alt():
    for on, attacks in [(1, 1), (0, 0)]:
        p = H.params(rule__gringo_last_arrow_attacks=on)
        st, s = build(
            p,
            "SDOOR",
            ["JESSE_JONES", "EL_GRINGO", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
            arrows=[0, 0, 8, 0, 0],
            forced=faces("B1", "BR", "D", "D", "BR"),
        )
        H.act(s, p, "REROLL", dice=0)
        H.act(s, p, "BULLSEYE", seat=1)
        assert len(ev_kinds(s, E.EV_INDIANS)) == attacks
        if attacks:
            # the shooter took the last token: he loses 1 (his arrow), seat 2 loses 8 and is eliminated
            assert s["life"][0] == 10 and s["alive"][2] == 0
        else:
            assert s["arrows"][0] == 0 and s["pile"] == 1


def test_left_hand_cancelled_by_judge_player_dies():
    p = H.params(module__special_roles="replace")
    st, s = _sp(
        p, [0, E.JUDGE, 0, 0, E.LEFT], life=[11, 9, 1, 8, 9], arrows=[0, 0, 8, 0, 0], forced=faces("A") + NOOP[:4]
    )
    H.act(s, p, "LEFT_HAND", reveal=1)
    assert s["dkind"] == E.D_JUDGE and s["decider"] == 1
    H.act(s, p, "JUDGE", reveal=1)
    assert s["alive"][2] == 0 and s["special_state"][4] == 2


def test_bullets_kill_active_turn_ends():
    p = H.params(module__saloon_dice=1)
    st, s = _one(p, "JESSE_JONES", roles="DSOOR", life=[1, 11, 8, 8, 9], forced=faces("G", "G", "G", "D", "BU") + NOOP)
    H.act(s, p, "SALOON", saloon=1)
    assert s["alive"][0] == 0 and s["elim_cause"][0] == E.SRC_BULLET
    assert s["life"][1] == 11 and s["active"] == 1  # no Gatling: the turn ended


def test_ghost_dynamite_costs_nothing():
    p = H.params(module__ghost=1)
    st, s = build(
        p,
        "RSDOO",
        ["JESSE_JONES", "ROSE_DOOLAN", "LUCKY_DUKE", "BLACK_JACK", "PAUL_REGRET"],
        ghost=0,
        forced=faces("D", "D"),
    )
    assert s["dkind"] == E.D_GHOST  # both dice locked: no re-roll decision
    assert s["life"][1] == 11


def test_black_jack_may_reroll_a_former_ghost_token_die_showing_dynamite():
    p = H.params()
    st, s = _one(p, "BLACK_JACK", forced=faces("BR", "BR", "BR", "BR", "BR"))
    s["preset"] = 0b00001  # die 0 showed a Ghost token's face on roll 1
    more(s, faces("D"))
    H.act(s, p, "REROLL", dice=0b00001)
    assert s["face"][0] == E.DYN and s["preset"] == 0
    assert any(m & 1 for m in values(s, p, "dice"))  # re-rolled: an ordinary die, its Dynamite not locked for him


def test_el_gringo_arrow_withheld_under_last_regular_trigger():
    # A5 off withholds the arrow that would fire the attack; under A8 = last_regular that is the last regular arrow,
    # even while the Chief's Arrow is still in the pile
    for a5, attacks in [(0, 0), (1, 1)]:
        p = H.params(
            module__chief_arrow=1, rule__chief_attack_trigger="last_regular", rule__gringo_last_arrow_attacks=a5
        )
        st, s = build(
            p,
            "SDOOR",
            ["JESSE_JONES", "EL_GRINGO", "LUCKY_DUKE", "SUZY_LAFAYETTE", "PAUL_REGRET"],
            arrows=[0, 0, 8, 0, 0],
            forced=faces("B1", "BR", "D", "D", "BR"),
        )
        assert s["pile"] == 1 and s["chief_holder"] == -1
        H.act(s, p, "REROLL", dice=0)
        H.act(s, p, "BULLSEYE", seat=1)
        assert len(ev_kinds(s, E.EV_INDIANS)) == attacks
        if not attacks:
            assert s["arrows"][0] == 0 and s["pile"] == 1


def test_bart_cassidy_and_the_loudmouth_bullet_option():
    for on in (0, 1):
        p = H.params(module__saloon_dice=1, rule__bart_vs_bullet=on)
        st, s = _one(p, "BART_CASSIDY", forced=faces("D", "D", "BR", "BR", "BU"))
        H.act(s, p, "SALOON", saloon=1)
        if on:
            assert s["dkind"] == E.D_BART and s["decider"] == 0
            H.act(s, p, "BART", count=1)
            assert s["arrows"][0] == 1
        assert s["life"][0] == int(s["max_life"][0]) - (0 if on else 1)


def test_doc_holyday_counts_only_bulls_eyes_that_hit():
    # A3 on: a Bull's Eye may be wasted on nobody; three results of which one is wasted are not "three used"
    p = H.params(module__new_characters=1, rule__bullseye_can_be_wasted=1)
    st, s = _one(p, "DOC_HOLYDAY", life=[6, 9, 8, 8, 9], forced=faces("B1", "B1", "B2", "D", "D"))
    H.act(s, p, "REROLL", dice=0)
    targets = values(s, p, "seat")
    nobody = max(targets)
    assert nobody >= 5  # the "assign to nobody" choice
    for t in (1, 4, nobody):
        H.act(s, p, "BULLSEYE", seat=t)
    assert s["life"][0] == 6
