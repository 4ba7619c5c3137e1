"""BANG-specific helpers for the bang_dice tests: hand-built states with scripted dice (build, script, more), the
face and character names, the logged events; the generic parts (parameters, legal actions, acting) are
tests/harness.py, shared here as H."""

import numpy as np

from sim.games.bang_dice import GAME
from sim.games.bang_dice import engine as E
from sim.games.bang_dice import params as P
from sim.rng import seed_streams
from tests.harness import Harness

H = Harness(GAME)  # fresh states, parameters by name, legal actions, acting by kind and fields

C = {cid: i for i, cid in enumerate(P.CHAR_IDS)}
F = dict(
    A=E.ARROW,
    D=E.DYN,
    B1=E.BE1,
    B2=E.BE2,
    BR=E.BEER,
    G=E.GAT,
    BA=E.BROKEN,
    BU=E.BULLET,
    B1X=E.BE1X2,
    B2X=E.BE2X2,
    BRX=E.BEERX2,
    GX=E.GATX2,
)
ROLE = dict(S=E.SHERIFF, D=E.DEPUTY, O=E.OUTLAW, R=E.RENEGADE)


def faces(*names):
    return [F[x] for x in names]


def build(
    p,
    roles,
    chars,
    life=None,
    arrows=None,
    pile=None,
    active=0,
    forced=(),
    chief=None,
    special=None,
    dead=(),
    ghost=-1,
    go=True,
):
    """A state at the start of `active`'s turn.  roles: string like 'SDOOR'; chars: list of character ids."""
    n = len(roles)
    st = np.zeros(1, E.STATE_DTYPE)
    s = st[0]
    seed_streams(s["rng"], 11, 3)
    E.setup(s, p, n)
    s["over"] = 0
    s["winner_team"] = 0
    s["end_reason"] = 0
    s["ret_depth"] = 0
    s["dkind"] = 0
    s["decider"] = -1
    s["turn"] = 0
    s["n_dead"] = 0
    s["ghost_done"] = 0
    s["ghost_seat"] = -1
    s["gt_holder"] = -1
    for i in range(n):
        s["role"][i] = ROLE[roles[i]]
        s["role0"][i] = ROLE[roles[i]]
        c = C[chars[i]] if isinstance(chars[i], str) else chars[i]
        s["char"][i] = c
        m = int(p[P.LIFE + c])
        if roles[i] == "S" and n > 3:
            m += int(p[P.SHERIFF_BONUS])
            s["sheriff"] = i
            s["first_seat"] = i
        s["max_life"][i] = m
        s["max_life0"][i] = m
        s["life"][i] = m if life is None else life[i]
        s["alive"][i] = 1
        s["arrows"][i] = 0 if arrows is None else arrows[i]
        s["special"][i] = 0 if special is None else special[i]
        s["special_state"][i] = 0
        s["role_known"][i] = 1 if (roles[i] == "S" or n == 3) else 0
        s["killer"][i] = -1
        s["elim_cause"][i] = 0
    if n == 3:
        s["sheriff"] = -1
        for i in range(n):
            for j in range(n):
                if (roles[i], roles[j]) in (("D", "R"), ("R", "O"), ("O", "D")):
                    s["target3"][i] = j
            if roles[i] == "D":
                s["first_seat"] = i
    for i in dead:
        s["alive"][i] = 0
        s["life"][i] = 0
        s["arrows"][i] = 0
    if ghost >= 0:
        s["ghost_seat"] = ghost
        s["ghost_done"] = 1
        s["alive"][ghost] = 0
        s["life"][ghost] = 0
    held = int(s["arrows"][:n].sum())
    s["pile"] = int(p[P.ARROWS]) - held if pile is None else pile
    if p[P.M_CHIEF]:
        s["chief_holder"] = -1 if chief is None else chief
    s["active"] = active
    s["phase"] = E.PH_TURN_BEGIN
    script(s, forced)
    s["log_on"] = 1
    s["n_ev"] = 0
    if go:
        E.advance(s, p)
    return st, s


def script(s, forced):
    s["n_forced"] = len(forced)
    s["forced_pos"] = 0
    for i, f in enumerate(forced):
        s["forced"][i] = f


def more(s, forced):
    """Append scripted faces to the queue."""
    k = int(s["n_forced"])
    for i, f in enumerate(forced):
        s["forced"][k + i] = f
    s["n_forced"] = k + len(forced)


def values(s, p, field):
    """The value of one field in each legal action, in the engine's order (e.g. the Bull's Eye target seats)."""
    return [fields[field] for _, fields in H.decoded(s, p)]


def events(s):
    return [tuple(int(v) for v in s["ev"][i]) for i in range(s["n_ev"])]


def ev_kinds(s, kind):
    return [e for e in events(s) if e[0] == kind]
