"""Scripted heuristic strategies for BANG! The Dice Game + Old Saloon (all five modules).

`choose(s, p, seat, legal, n, sid, weights) -> k` picks an index into legal[:n] for every decision kind of the
engine (sim/games/bang_dice/actions.py, D_GOOD .. D_GHOST).  Two information models share one code path:

* sid 1, `omniscient` (sees_hidden=True): reads every seat's role.
* sid 2, `belief` and its presets `aggressive` / `cautious` (sees_hidden=False): reads only public fields.
  A seat's role is known when it is the seat itself, the Sheriff, or role_known[i] = 1 (3-player game, dead
  players, the Ghost, revealed special roles).  For every other seat the bot holds a distribution over
  Deputy / Outlaw / Renegade: the prior is the role table for the player count minus every known role (its own
  included), spread evenly over the unknown seats; it is then tilted by public evidence x (see `_evidence`):
  damage dealt to the Sheriff and to known Deputies raises x, healing them lowers it, and the reverse for known
  Outlaws.  Outlaw weight is multiplied by (1 + a*x+)/(1 + a*x-), Deputy weight by the inverse, Renegade weight
  by the inverse at half strength (Renegades help the Sheriff early).  `special[]` of another seat is read only
  once revealed (special_state != 0).

Every choice is scored in one currency, "life points of a friendly seat", through the seat's relation
rel(me, t) in about [-1.5, 1.5] (positive = ally): a shot on t is worth -rel(t) (more on wounded seats, a kill
bonus on a lethal shot, +-30 when it kills the Sheriff and so ends the game for or against me), a Beer on t is
worth rel(t) times how badly t needs it.  Relations by own side:
  Sheriff/Deputy: Sheriff +protect, Deputy +1, Outlaw -1, Renegade -0.5 while Outlaws may live, then -1.
  Outlaw: Sheriff -1.5, Deputy -1, Outlaw +1, Renegade -0.5.
  Renegade: while anyone but the Sheriff and himself lives: Sheriff +0.5 (never kills him), Outlaw -1,
  Deputy -0.8, other Renegade -1; in the final duel the Sheriff is -1.5.
  3-player variant: own target -1.5 (a kill by me wins: +10), the other player +0.3 (he is my target's target:
  if my target kills him my target wins); after a foreign kill (last man standing) everyone is -1.
  A Renegade Ghost plays for the team printed for the player count (engine ghost_team).

Dice (D_REROLL): each unlocked die gets a keep value (its face now) and a fresh value (mean over its die's six
faces; a fresh Arrow costs an arrow, a fresh Dynamite a slot, a Bullet a life).  Gatlings are "chased" once
`gat_min` points show (fewer for Willy the Kid) and the Gatling is worth firing (sum of its shots plus own arrows
cleared).  Dice are re-rolled greedily by gain; the set stops growing when the Dynamite risk
P(>= limit Dynamite after the re-roll) * risk * own life cost outweighs the gain (death by the Dynamite costs
30).  `dyn_stop` stops outright once that many Dynamite are locked.  Black Jack re-rolls his Dynamite.  Bill
Noface treats a final Arrow as a cost; Suzy Lafayette avoids Bull's Eyes when hurt.

Characters and roles: Bart converts every hit to arrows he may; Kit clears arrows of allies; Slab spends a Beer
when a second point on the target beats the best Beer; Sid and Jesse heal by the Beer rule (Jesse's double heal
counted); Elena gives arrows to the enemy they hurt most; Apache Kid steals the Chief's Arrow when that makes him
the unique leader or breaks an enemy's lead; Molly takes a hit that would kill an ally (always for the Sheriff
if she is on his side) when she survives it or saves the Sheriff; Chief's Arrow taken only with a lead of
1 + chief_margin after taking it.  The Good reveals when the Sheriff is at or below `good_life` and he has 2
more life; The Ugly swaps arrows when the gain reaches `ugly`; The Bad cancels heals to enemies worth `bad`;
The Gambler forces a re-roll when an enemy's final dice are worth `gamble`; The Judge cancels every revealed
enemy power (Gambler, Bad, Ugly, Right Hand, Left Hand saving an enemy); The Doc completes an enemy's third
Dynamite, or his own Gatling worth 2+; Left Hand saves himself, the Sheriff while others live, or allies;
Right Hand takes the extra turn when at most `right_n` players live or in the final duel.
Saloon die: Coward when hurt (life ratio < hurt, or 2 life), Loudmouth when healthy and the Gatling is worth
`loud`, else the 6th die of Jose (healthy) / Tequila, else base dice.  Ghost: gives harmful tokens (Dynamite,
Arrow) to enemies and helpful ones (Beer to the wounded, Gatling, Bull's Eyes) to allies, re-rolling its two dice
for the best such gift.

Knobs: the table K below (name, default, range, doc); presets: PRESETS.  No allocation in the hot path: scalars only.
"""

import sim

sim.use_game_cache("sim.games.bang_dice")  # these bots compile into their game's cache (sim/__init__.py)

import numba as nb
import numpy as np

from sim.kernel import declared, one_copy
from sim.knobs import KnobTable, Preset, strategies
from sim.games.bang_dice import params as P
from sim.games.bang_dice.hidden import role_evidence
from sim.games.bang_dice.engine import (
    D_GOOD,
    D_UGLY,
    D_SID,
    D_SALOON,
    D_DOC,
    D_ELENA,
    D_ARROW,
    D_BROKEN,
    D_REROLL,
    D_GAMBLER,
    D_BE,
    D_SLAB,
    D_BEER,
    D_KIT,
    D_BART,
    D_MOLLY,
    D_LEFT,
    D_BAD,
    D_JUDGE,
    D_RIGHT,
    D_GHOST,
    kind_of,
    reveal_of,
    use_of,
    seat_of,
    seat2_of,
    count_of,
    face_of,
    encode_reroll,
    encode_slab,
    encode_elena,
    encode_molly,
    encode_left,
    encode_right,
    encode_good,
    encode_bad,
    encode_judge,
    encode_gambler,
    encode_ugly,
    encode_arrow,
    encode_saloon,
    encode_doc,
    WASTED,
    ARROW_REGULAR,
    ARROW_CHIEF,
    ARROW_STEAL_CHIEF,
    SALOON_BASE,
    SALOON_LOUD,
    SALOON_COWARD,
    SALOON_LOUD_EXTRA,
    SALOON_COWARD_EXTRA,
    ARROW,
    DYN,
    BE1,
    BE2,
    BEER,
    GAT,
    BROKEN,
    BULLET,
    BE1X2,
    BE2X2,
    BEERX2,
    GATX2,
    DIE_FACES,
    SHERIFF,
    DEPUTY,
    OUTLAW,
    RENEGADE,
    GAMBLER,
    BAD,
    UGLY,
    RIGHT,
    LEFT,
    BILL,
    BLACKJACK,
    SUZY,
    KIT,
    JESSE,
    JOURDONNAIS,
    PAUL,
    GRINGO,
    VERA,
    WILLY,
    be_mask,
    locked_mask,
    pile_tokens,
    STATE,
    I64,
    BOOL,
    F64,
)

# ---------------------------------------------------------------- knobs (slots of the weights row)
K = KnobTable()
W_GAT_MIN = K.add(
    "gat_min", 2, 1, 6, "int", "Gatling points showing from which the bot keeps Gatlings and chases the gun"
)
W_GAT_BONUS = K.add("gat_bonus", 1.0, 0.0, 3.0, doc="multiplier on the value of firing the Gatling")
W_RISK = K.add("risk", 2.0, 0.0, 10.0, doc="weight of the Dynamite-explosion risk of a re-roll (x own life cost)")
W_DYN_STOP = K.add(
    "dyn_stop", 9, 1, 9, "int", "stop re-rolling outright once this many Dynamite are locked (9 = never)"
)
W_HURT = K.add(
    "hurt", 0.5, 0.0, 1.0, doc="own life ratio below which the bot counts as hurt (keeps Beers, takes the Coward die)"
)
W_LOUD = K.add(
    "loud", 2.0, 0.0, 99.0, doc="Gatling value from which a healthy bot takes the Loudmouth die (50 or more: never)"
)
W_KILL = K.add("kill", 1.5, 0.0, 5.0, doc="bonus (x relation) for a shot that eliminates its target")
W_FOCUS = K.add(
    "focus", 1.0, 0.0, 3.0, doc="extra value per missing life ratio of the target (focus fire on the wounded)"
)
W_SUSP_DMG = K.add(
    "susp_dmg", 1.0, 0.0, 3.0, doc="belief evidence per life point dealt to the Sheriff (and to known Deputies)"
)
W_SUSP_HEAL = K.add("susp_heal", 1.0, 0.0, 3.0, doc="belief evidence per life point healed to the Sheriff")
W_SUSP_SCALE = K.add("susp_scale", 0.7, 0.0, 3.0, doc="how strongly evidence tilts the role distribution")
W_PROTECT = K.add("protect", 1.5, 0.0, 3.0, doc="relation of the Sheriff for his own side (and his self-weight)")
W_CHIEF_MARGIN = K.add("chief_margin", 1, 0, 5, "int", "extra arrow lead required to take the Chief's Arrow")
W_GOOD_LIFE = K.add("good_life", 2, 0, 12, "int", "The Good reveals when the Sheriff has at most this life")
W_ARROW = K.add("arrow", 0.5, 0.0, 2.0, doc="base cost of taking one arrow (life points)")
W_MARGIN = K.add("margin", 0.05, 0.0, 1.0, doc="minimum gain for re-rolling a die")
W_UGLY = K.add("ugly", 4.0, 0.0, 10.0, doc="arrow-swap gain from which The Ugly reveals")
W_BAD = K.add("bad", 2.5, 0.0, 10.0, doc="heal-cancel value from which The Bad reveals")
W_GAMBLE = K.add("gamble", 2.5, 0.0, 10.0, doc="enemy dice value from which The Gambler forces a re-roll")
W_RIGHT_N = K.add("right_n", 3, 2, 8, "int", "Right Hand takes his extra turn when at most this many players live")
KNOBS = tuple(K.names)
KNOB_DOC = {k.name: k.doc for k in K.knobs}

SID_OMNI = 1
SID_BELIEF = 2

# Presets: the knobs each changes from the defaults above.
PRESETS = [
    Preset(
        "omniscient",
        SID_OMNI,
        "Knows every role (reads hidden roles). Shoots the enemy in range worth most (wounded, killable; "
        "the Sheriff first for Outlaws), heals the ally that needs it most, chases Gatlings from 2, "
        "weighs Dynamite risk; every role plays for its side.",
        {},
        sees_hidden=True,
    ),
    Preset(
        "belief",
        SID_BELIEF,
        "Public information only: role priors from the role table, tilted by who damaged or healed the "
        "Sheriff (and known players), snapped to revealed roles; otherwise as omniscient.",
        {},
    ),
    Preset(
        "aggressive",
        SID_BELIEF,
        "Belief bot that chases Gatlings from 1 point, accepts Dynamite risk, takes the Loudmouth die "
        "when healthy, values kills highly and takes the Chief's Arrow on any lead.",
        dict(
            gat_min=1,
            gat_bonus=1.5,
            risk=0.7,
            hurt=0.35,
            loud=0.5,
            kill=2.5,
            focus=1.5,
            chief_margin=0,
            margin=0.0,
            ugly=3.0,
            bad=2.0,
            gamble=2.0,
        ),
    ),
    Preset(
        "cautious",
        SID_BELIEF,
        "Belief bot that stops re-rolling with 2 Dynamite locked, fears Dynamite risk, keeps Beers and "
        "takes the Coward die when below 70% life, never the Loudmouth, Chief's Arrow only with a lead "
        "of 3.",
        dict(
            gat_bonus=0.8,
            risk=5.0,
            dyn_stop=2,
            hurt=0.7,
            loud=99.0,
            kill=1.0,
            focus=0.7,
            chief_margin=2,
            good_life=3,
            margin=0.15,
            ugly=5.0,
            bad=3.0,
            gamble=3.0,
        ),
    ),
]
STRATEGIES = strategies(K, PRESETS)

# role table by player count: deputies, outlaws, renegades (index = players)
_ROLE_D = np.array([0, 0, 0, 1, 0, 1, 1, 2, 2], np.int64)
_ROLE_O = np.array([0, 0, 0, 1, 2, 2, 3, 3, 3], np.int64)
_ROLE_R = np.array([0, 0, 0, 1, 1, 1, 1, 1, 2], np.int64)

BIG = 30.0
# The side of a die The Doc turns it to: Dynamite on every die type, the Gatling on the base and Loudmouth dice
SIDE_DYNAMITE, SIDE_GATLING = 1, 5
assert (DIE_FACES[:, SIDE_DYNAMITE] == DYN).all() and tuple(DIE_FACES[:2, SIDE_GATLING]) == (GAT, GATX2)

# Signatures of the helpers called from several places (one compiled copy each, see "compile time" in the
# engine): a constant argument (a seat number, a die type, keep=True) would otherwise compile a copy per value.
# Vectors are declared as any float64/int64 vector, read-only, so any caller's p, weights row or legal list fits.
VEC = nb.types.Array(nb.float64, 1, "A", readonly=True)  # p, a weights row
ACTS = nb.types.Array(nb.int64, 1, "A", readonly=True)  # the legal list
CX = nb.types.UniTuple(nb.float64, 6)  # _context()
RT = nb.types.UniTuple(nb.float64, 8)  # _rels()


# ================================================================ small helpers
@declared(I64(ACTS, I64, I64), _nrt=False)
def _find(legal, n, action):
    """Index of the legal action `action` (built with the engine's encoders), or -1."""
    for i in range(n):
        if legal[i] == action:
            return i
    return -1


@declared(I64(ACTS, I64, I64, I64), _nrt=False)
def _pick(legal, n, action, fallback):
    """Index of `action` if legal, else of `fallback`, else 0."""
    i = _find(legal, n, action)
    if i >= 0:
        return i
    i = _find(legal, n, fallback)
    return i if i >= 0 else 0


@nb.njit(cache=True, _nrt=False, inline="always")
def _known_role(s, t):
    """Role of a seat whose role the decider may read; a Renegade Ghost counts as the team it plays for."""
    r = s.role[t]
    if t == s.ghost_seat and r == RENEGADE:
        return s.ghost_team
    return r


def _tail_table():
    """_BT[k, m] = P(at least m Dynamite among k fresh dice), each Dynamite with probability 1/6."""
    from math import comb

    t = np.zeros((8, 8))
    for k in range(8):
        for m in range(8):
            t[k, m] = sum(comb(k, j) * (1 / 6) ** j * (5 / 6) ** (k - j) for j in range(m, k + 1))
    return t


_BT = _tail_table()


@nb.njit(cache=True, _nrt=False)
def _binom_tail(k, m):
    """P(at least m Dynamite among k fresh dice) from the table (no pow() in the hot path)."""
    if m <= 0:
        return 1.0
    if m > k or k > 7:
        return 0.0
    return _BT[k, m]


# ================================================================ beliefs and relations
@nb.njit(cache=True, _nrt=False)
def _context(s, me, sid):
    """(omniscient, prior Deputy, prior Outlaw, prior Renegade, others alive for a Renegade, Outlaws may live)."""
    n = s.n
    kd = 0
    ko = 0
    kr = 0
    dead_o = 0
    others = 0
    for i in range(n):
        if s.alive[i] == 1 and i != me and i != s.sheriff:
            others += 1
        if i == s.sheriff:
            continue
        if i == me or s.role_known[i] == 1:
            r = s.role[i]
            if r == DEPUTY:
                kd += 1
            elif r == OUTLAW:
                ko += 1
                if s.alive[i] == 0:
                    dead_o += 1
            elif r == RENEGADE:
                kr += 1
    rd = max(_ROLE_D[n] - kd, 0)
    ro = max(_ROLE_O[n] - ko, 0)
    rr = max(_ROLE_R[n] - kr, 0)
    tot = rd + ro + rr
    if tot <= 0:
        pd, po, pr = 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0
    else:
        pd, po, pr = rd / tot, ro / tot, rr / tot
    outl = 1.0 if dead_o < _ROLE_O[n] else 0.0
    return (1.0 if sid == SID_OMNI else 0.0, pd, po, pr, float(others), outl)


@declared(F64(STATE, I64, I64, VEC), _nrt=False)
def _evidence(s, me, t, w):
    """Public evidence that seat t is an Outlaw (> 0) or on the Sheriff's side (< 0), weighted by the knobs."""
    return role_evidence(s, me, t, w[W_SUSP_DMG], w[W_SUSP_HEAL])


@declared(F64(STATE, I64, I64, VEC, CX), _nrt=False)
def _rel(s, me, t, w, cx):
    """How much seat me wants seat t to have life (positive = ally).  Reads hidden roles only if cx[0] = 1."""
    if s.three == 1:
        if t == me:
            return 1.0
        if s.lms == 1:
            return -1.0
        return -1.5 if s.target3[me] == t else 0.3
    my = _known_role(s, me)
    if t == me:
        return w[W_PROTECT] if my == SHERIFF else 1.0
    if t == s.sheriff:
        qs, qd, qo, qr = 1.0, 0.0, 0.0, 0.0
    elif cx[0] == 1.0 or s.role_known[t] == 1:
        r = _known_role(s, t)
        qs = 0.0
        qd = 1.0 if r == DEPUTY or r == SHERIFF else 0.0
        qo = 1.0 if r == OUTLAW else 0.0
        qr = 1.0 if r == RENEGADE else 0.0
    else:
        x = _evidence(s, me, t, w)
        a = w[W_SUSP_SCALE]
        up = 1.0 + a * max(x, 0.0)
        dn = 1.0 + a * max(-x, 0.0)
        wo = cx[2] * up / dn
        wd = cx[1] * dn / up
        wr = cx[3] * (1.0 + 0.5 * a * max(-x, 0.0)) / (1.0 + 0.5 * a * max(x, 0.0))
        z = wo + wd + wr
        if z <= 0.0:
            z = 1.0
        qs = 0.0
        qd = wd / z
        qo = wo / z
        qr = wr / z
    if my == SHERIFF or my == DEPUTY:
        ren = 0.5 if cx[5] == 1.0 else 1.0
        return qs * w[W_PROTECT] + qd - qo - ren * qr
    if my == OUTLAW:
        return -1.5 * qs - qd + qo - 0.5 * qr
    # Renegade (not a Ghost)
    if cx[4] > 0.0:
        return 0.5 * qs - 0.8 * qd - qo - qr
    return -1.5 * qs - qd - qo - qr


@nb.njit(cache=True, _nrt=False)
def _rels(s, me, w, cx):
    """rel(me, t) for the 8 seats, computed once per decision (a tuple: no allocation)."""
    n = s.n
    r0 = _rel(s, me, 0, w, cx) if n > 0 else 0.0
    r1 = _rel(s, me, 1, w, cx) if n > 1 else 0.0
    r2 = _rel(s, me, 2, w, cx) if n > 2 else 0.0
    r3 = _rel(s, me, 3, w, cx) if n > 3 else 0.0
    r4 = _rel(s, me, 4, w, cx) if n > 4 else 0.0
    r5 = _rel(s, me, 5, w, cx) if n > 5 else 0.0
    r6 = _rel(s, me, 6, w, cx) if n > 6 else 0.0
    r7 = _rel(s, me, 7, w, cx) if n > 7 else 0.0
    return (r0, r1, r2, r3, r4, r5, r6, r7)


@nb.njit(cache=True, _nrt=False)
def _life_cost(s, me, w, cx, rt):
    """Value of one of my own life points (higher when low)."""
    hp = s.life[me]
    v = rt[me]
    if hp <= 3:
        v *= 1.5
    if hp <= 1:
        v *= 2.0
    return v


@declared(F64(STATE, VEC, I64, I64, I64, I64, I64, VEC, CX, RT), _nrt=False)
def _dmg_val(s, p, me, t, d, already, extra, w, cx, rt):
    """Value for me of d more damage on t, who already takes `already` this batch (extra: a later Gatling)."""
    if t < 0 or t >= s.n or s.alive[t] == 0:
        return 0.0
    left = s.life[t] - already
    if left <= 0:
        return -0.05
    r = rt[t]
    deff = d if d < left else left
    focus = 1.0 + w[W_FOCUS] * (1.0 - left / max(s.max_life[t], 1))
    v = -r * deff * focus
    if left - extra <= d:
        if s.three == 0 and t == s.sheriff:
            my = _known_role(s, me)
            if my == OUTLAW:
                return BIG
            if my == RENEGADE and cx[4] == 0.0:
                return BIG
            return -BIG
        v -= r * w[W_KILL]
        if s.three == 1 and s.lms == 0 and s.target3[me] == t:
            v += 10.0
    if s.char[t] == GRINGO:
        v -= 0.3
    if s.char[t] == VERA and already == 0 and d == 1:
        v *= 0.2
    return v


@declared(F64(STATE, VEC, I64, I64, I64, VEC, CX, RT), _nrt=False)
def _heal_val(s, p, me, t, amt, w, cx, rt):
    """Value for me of t gaining amt life."""
    if s.alive[t] == 0:
        return 0.0
    room = s.max_life[t] - s.life[t]
    if room <= 0:
        return 0.0
    g = amt if amt < room else room
    r = rt[t]
    hp = s.life[t]
    urg = 1.0 + (1.0 - hp / max(s.max_life[t], 1))
    if hp <= 2:
        urg += 1.0
    if t == me and hp < w[W_HURT] * s.max_life[t]:
        urg += 0.5
    return r * g * urg


@declared(I64(STATE, VEC, I64, I64), _nrt=False)
def _beer_amt(s, p, me, t):
    if t == me and s.char[me] == JESSE and s.life[me] <= np.int64(p[P.JESSE_THR]):
        return np.int64(p[P.JESSE_HEAL])
    return 1


@nb.njit(cache=True, _nrt=False)
def _best_heal(s, p, me, w, cx, rt):
    best = 0.0
    for t in range(s.n):
        if s.alive[t] == 1:
            v = _heal_val(s, p, me, t, _beer_amt(s, p, me, t), w, cx, rt)
            if v > best:
                best = v
    return best


@declared(F64(STATE, VEC, I64, I64, VEC, CX, RT), _nrt=False)
def _best_shot(s, p, me, kind, w, cx, rt):
    """Value of one Bull's Eye unit of kind 1/2 on its best target (0 if nobody is in range)."""
    m = be_mask(s, me, kind)
    if m == 0:
        return 0.0
    best = -1e9
    for t in range(s.n):
        if ((m >> t) & 1) == 1:
            v = _dmg_val(s, p, me, t, 1, 0, 0, w, cx, rt)
            if v > best:
                best = v
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def _held(s, p, t):
    return s.arrows[t] + (np.int64(p[P.CHIEF_VALUE]) if s.chief_holder == t else 0)


@nb.njit(cache=True, _nrt=False)
def _arrow_cost(s, p, me, w, cx, rt, lc):
    """Cost for me of taking one arrow: grows as the pile empties; an imminent attack that hurts enemies more
    than me makes it cheaper."""
    tot = max(p[P.ARROWS], 1.0)
    pt = pile_tokens(s)
    base = w[W_ARROW] * (1.0 + (tot - pt) / tot)
    if s.char[me] == JOURDONNAIS and _held(s, p, me) >= 1:
        base = 0.15
    if pt <= 2:
        ag = 0.0
        for t in range(s.n):
            if t != me and s.alive[t] == 1:
                a = _held(s, p, t)
                if a > s.life[t]:
                    a = s.life[t]
                ag -= rt[t] * a
        ag -= _held(s, p, me) + 1
        ag = min(max(ag, -3.0), 3.0)
        base -= 0.15 * ag
    return base * lc


@one_copy(_nrt=False)
def _gat_need(s, p, a):
    if s.char[a] == WILLY:
        return np.int64(p[P.WILLY_NEED])
    return np.int64(p[P.GATLING_NEED])


@nb.njit(cache=True, _nrt=False)
def _gat_val(s, p, me, w, cx, rt, ac):
    """Value for me of my Gatling firing: a point on every other (non-Paul) player, my arrows cleared."""
    v = 0.0
    for t in range(s.n):
        if t != me and s.alive[t] == 1 and s.char[t] != PAUL:
            v += _dmg_val(s, p, me, t, 1, 0, 0, w, cx, rt)
    v += _held(s, p, me) * ac * 0.8
    if s.char[me] == KIT:
        v += 0.3
    return v * w[W_GAT_BONUS]


# ================================================================ dice
@declared(F64(I64, BOOL, BOOL, BOOL, F64, F64, F64, F64, F64, F64, F64, F64, F64), _nrt=False)
def _face_val(f, keep, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk):
    """Value of a die showing face f at the end of rolling (keep) or of a fresh roll landing on f."""
    if f == ARROW:
        return -ac if (bill or not keep) else 0.0
    if f == DYN:
        if keep:
            return -0.6 if bj else 0.0
        return -0.4
    if f == BE1:
        return bv1 - suzy
    if f == BE2:
        return bv2 - suzy
    if f == BE1X2:
        return 2.0 * bv1 - suzy
    if f == BE2X2:
        return 2.0 * bv2 - suzy
    if f == BEER:
        return hv
    if f == BEERX2:
        return 1.8 * hv
    if f == GAT:
        return gk if keep else gf
    if f == GATX2:
        return 2.0 * (gk if keep else gf)
    if f == BULLET:
        return 0.0 if keep else -lc
    if f == BROKEN:
        return 0.0 if keep else brk
    return 0.0


@declared(F64(I64, BOOL, BOOL, F64, F64, F64, F64, F64, F64, F64, F64, F64), _nrt=False)
def _fresh(dt, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk):
    v = 0.0
    for k in range(6):
        v += _face_val(DIE_FACES[dt, k], False, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk)
    return v / 6.0


@nb.njit(cache=True, _nrt=False)
def _reroll(s, p, me, legal, n, w, cx, rt):
    """Choose the re-roll mask (see the module docstring)."""
    lim = np.int64(p[P.DYN_LIMIT])
    locked = locked_mask(s)
    nd = s.nd
    dyn_locked = 0
    dyn_all = 0
    g = 0
    for i in range(nd):
        f = s.face[i]
        if f == DYN:
            dyn_all += 1
            if ((locked >> i) & 1) == 1:
                dyn_locked += 1
        elif f == GAT:
            g += 1
        elif f == GATX2:
            g += 2
    stop = _pick(legal, n, encode_reroll(0), encode_reroll(0))
    if dyn_locked >= w[W_DYN_STOP] or (s.char[me] == BLACKJACK and dyn_all >= w[W_DYN_STOP]):
        return stop
    lc = _life_cost(s, me, w, cx, rt)
    ac = _arrow_cost(s, p, me, w, cx, rt, lc)
    bv1 = _best_shot(s, p, me, 1, w, cx, rt)
    bv2 = _best_shot(s, p, me, 2, w, cx, rt)
    hv = _best_heal(s, p, me, w, cx, rt)
    gv = _gat_val(s, p, me, w, cx, rt, ac)
    need = _gat_need(s, p, me)
    gp = gv / max(need, 1)
    gmin = min(w[W_GAT_MIN], need - 1.0)
    if gmin < 1.0:
        gmin = 1.0
    if gv > 0.0:
        if g >= need:
            gk = 2.0 * gp + 0.5
            gf = 0.0
        elif g >= gmin:
            gk = 1.3 * gp + 0.2
            gf = gp
        else:
            gk = 0.3 * gp
            gf = 0.3 * gp
    else:
        if g >= need:
            gk = gv
            gf = 0.0
        else:
            gk = 0.0
            gf = 0.5 * gp if g >= need - 1 else 0.0
    bill = s.char[me] == BILL
    bj = s.char[me] == BLACKJACK
    suzy = 0.0
    if s.char[me] == SUZY and s.life[me] < s.max_life[me]:
        suzy = 0.7
    brk = 0.0
    if s.arrows[me] > 0:
        brk = 0.5 * ac
    ev0 = _fresh(0, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk)
    has1 = False
    has2 = False
    for i in range(nd):
        if s.die_type[i] == 1:
            has1 = True
        elif s.die_type[i] == 2:
            has2 = True
    ev1 = _fresh(1, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk) if has1 else 0.0
    ev2 = _fresh(2, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk) if has2 else 0.0
    ec = w[W_RISK] * lc + 0.5
    if s.life[me] <= p[P.DYN_DAMAGE]:
        ec += BIG
    margin = w[W_MARGIN]
    used = 0
    gain = 0.0
    best = 0.0
    best_mask = 0
    k = 0
    dyn_in = 0
    for _ in range(nd):
        bi = -1
        bg = -1e9
        for i in range(nd):
            if ((locked >> i) & 1) == 1 or ((used >> i) & 1) == 1:
                continue
            dt = s.die_type[i]
            ev = ev0 if dt == 0 else (ev1 if dt == 1 else ev2)
            gi = ev - _face_val(s.face[i], True, bill, bj, bv1, bv2, hv, gk, gf, ac, lc, suzy, brk)
            if gi > bg:
                bg = gi
                bi = i
        if bi < 0 or bg <= margin:
            break
        used |= 1 << bi
        k += 1
        gain += bg
        if s.face[bi] == DYN:
            dyn_in += 1
        net = gain - _binom_tail(k, lim - (dyn_all - dyn_in)) * ec
        if net > best:
            best = net
            best_mask = used
    if best_mask == 0:
        return stop
    return _pick(legal, n, encode_reroll(best_mask), encode_reroll(0))


@declared(F64(STATE, I64, I64), _nrt=False)
def _ghost_help(s, f, t):
    """How much a Ghost token of face f helps seat t on his next turn (negative = harms him)."""
    if f == BEER:
        if s.life[t] < s.max_life[t]:
            return 1.0 + (0.5 if s.life[t] <= 2 else 0.0)
        return 0.1
    if f == ARROW:
        return -0.7
    if f == DYN:
        return -1.0
    if f == GAT:
        return 0.6
    if f == BE1 or f == BE2:
        return 0.4
    return 0.0


@nb.njit(cache=True, _nrt=False)
def _ghost_face_val(s, me, f, w, cx, rt):
    best = -1e9
    for t in range(s.n):
        if t != me and s.alive[t] == 1:
            v = rt[t] * _ghost_help(s, f, t)
            if v > best:
                best = v
    return best


@nb.njit(cache=True, _nrt=False)
def _ghost_reroll(s, p, me, legal, n, w, cx, rt):
    locked = locked_mask(s)
    ev = 0.0
    for k in range(6):
        ev += _ghost_face_val(s, me, DIE_FACES[0, k], w, cx, rt)
    ev /= 6.0
    pair = s.nd >= 2 and s.face[0] == s.face[1]
    mask = 0
    best_keep = -1e9
    for i in range(s.nd):
        v = _ghost_face_val(s, me, s.face[i], w, cx, rt)
        if v > best_keep:
            best_keep = v
    for i in range(s.nd):
        if ((locked >> i) & 1) == 1:
            continue
        v = _ghost_face_val(s, me, s.face[i], w, cx, rt)
        if pair and v > 0.0:
            continue
        # keep the best die if it beats a fresh one; re-roll the others
        if v < ev or (v < best_keep and best_keep > ev):
            mask |= 1 << i
    return _pick(legal, n, encode_reroll(mask), encode_reroll(0))


# ================================================================ one helper per decision kind
# Fixed coefficients of the evaluator (not knobs: no preset changes them), named once here.
BEER_WASTE_TIEBREAK = 0.001  # a Beer that heals nobody: x rel(t), so a wasted Beer goes to the friendliest seat
KIT_PASS_VALUE = 0.05  # Kit Carlson keeping his power: beats clearing a neutral seat's arrows
ARROW_CLEAR_PER_ARROW = 0.1  # clearing arrows (Kit, Broken Arrow) is worth more on a seat holding many
ELENA_MIN_VALUE = 0.1  # Elena Ruiz gives arrows away only when that hurts an enemy at least this much
ELENA_LETHAL_FACTOR = 1.5  # ... half as much again when the Indian attack it brings closer would kill him
MOLLY_ALLY_REL = 0.9  # Molly takes a hit only for a seat at least this friendly (Sheriff or sure ally)
LEFT_ALLY_REL = 0.5  # Left Hand saves a seat at least this friendly
GOOD_LIFE_LEAD = 2  # The Good reveals only with at least this much more life than the Sheriff
UGLY_LOW_PILE = 3  # arrows left in the pile at or below which an Indian attack is near ...
UGLY_URGENCY = 1.5  # ... and The Ugly's arrow swap counts this much more
BAD_LOW_LIFE = 3  # a heal cancelled by The Bad counts double on a seat at or below this life
BAD_LOW_LIFE_FACTOR = 2.0
GAMBLE_BULLSEYE = 0.6  # what one Bull's Eye unit of the active player's final dice is worth to him (The Gambler)
GAMBLE_BEER = 0.3  # ... one Beer unit
GAMBLE_DYNAMITE = -0.5  # ... one Dynamite
GAMBLE_GATLING = 2.0  # ... a Gatling that fires
GHOST_PAIR_DYNAMITE = 1.5  # a Dynamite token given with a Ghost pair (two tokens) weighs this much more


@nb.njit(cache=True, _nrt=False)
def _bart(legal, n):
    """Bart Cassidy: every hit he may take as an arrow (an arrow costs at most the life it saves, often less)."""
    best = 0
    bx = -1
    for i in range(n):
        x = count_of(legal[i])
        if x > bx:
            bx = x
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _bullseye(s, p, me, legal, n, w, cx, rt):
    """A Bull's Eye's target: the most valuable hit counting the hits it already takes this batch and the
    Gatling about to fire (WASTED is worth 0)."""
    need = _gat_need(s, p, s.active)
    fire = s.gat >= need
    best = 0
    bv = -1e18
    for i in range(n):
        t = seat_of(legal[i])
        if t == WASTED:
            v = 0.0
        else:
            already = 0
            for j in range(s.be_i):
                if s.be_tgt[j] == t:
                    already += 1
            extra = 1 if (fire and s.char[t] != PAUL) else 0
            v = _dmg_val(s, p, me, t, 1, already, extra, w, cx, rt)
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _beer(s, p, me, legal, n, kind, w, cx, rt):
    """A Beer's (D_BEER) or Sid Ketchum's heal's (D_SID) target: the seat whose heal is worth most."""
    best = 0
    bv = -1e18
    for i in range(n):
        t = seat_of(legal[i])
        amt = _beer_amt(s, p, me, t) if kind == D_BEER else np.int64(p[P.SID_HEAL])
        v = _heal_val(s, p, me, t, amt, w, cx, rt)
        if s.life[t] >= s.max_life[t]:
            v = BEER_WASTE_TIEBREAK * rt[t]
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _slab(s, p, me, legal, n, w, cx, rt):
    """Slab the Killer: spend a Beer on a second point on a Bull's Eye target when that beats the best Beer."""
    hv = _best_heal(s, p, me, w, cx, rt)
    best = _pick(legal, n, encode_slab(0, 0), encode_slab(0, 0))
    bv = 0.0
    for i in range(n):
        if use_of(legal[i]) == 0:
            continue
        t = seat_of(legal[i])
        already = 0
        for j in range(s.n_be):
            if s.be_tgt[j] == t:
                already += 1
        v = _dmg_val(s, p, me, t, 1, already, 0, w, cx, rt) - hv
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _clear_arrows(s, legal, n, kind, rt):
    """Kit Carlson (D_KIT, may pass) or a Broken Arrow (D_BROKEN): clear the arrows of the friendliest seat."""
    best = 0
    bv = -1e18
    for i in range(n):
        if kind == D_KIT and use_of(legal[i]) == 0:
            v = KIT_PASS_VALUE
        else:
            t = seat_of(legal[i])
            v = rt[t] * (1.0 + ARROW_CLEAR_PER_ARROW * s.arrows[t])
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _elena(s, p, legal, n, rt):
    """Elena Ruiz: give arrows to the enemy they hurt most (more when the attack would kill him), or keep them."""
    best = _pick(legal, n, encode_elena(0, 0), encode_elena(0, 0))
    bv = ELENA_MIN_VALUE
    for i in range(n):
        if use_of(legal[i]) == 0:
            continue
        t = seat_of(legal[i])
        v = -rt[t] * (ELENA_LETHAL_FACTOR if s.life[t] <= _held(s, p, t) + 1 else 1.0)
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def _molly(s, me, legal, n, rt):
    """Molly Stark: take the hits that would kill an ally, when she survives them or saves her Sheriff."""
    t = s.react_seat
    need = s.bt_amt[t] - s.life[t] + 1
    if need <= 0:
        return _pick(legal, n, encode_molly(0), encode_molly(0))
    r = rt[t]
    mine = s.life[me] - s.bt_amt[me]
    save_sheriff = s.three == 0 and t == s.sheriff and r > 0.0
    if r >= MOLLY_ALLY_REL and (need < mine or save_sheriff):
        i = _find(legal, n, encode_molly(need))
        if i >= 0:
            return i
    return _pick(legal, n, encode_molly(0), encode_molly(0))


@nb.njit(cache=True, _nrt=False)
def _left_hand(s, me, legal, n, cx, rt):
    """Left Hand: save himself, the Sheriff while others than the two live (for a Renegade), or an ally."""
    t = s.react_seat
    yes = 0
    if t == me:
        yes = 1
    elif s.three == 0 and t == s.sheriff:
        yes = 1 if cx[4] > 0.0 else 0
    elif rt[t] > LEFT_ALLY_REL:
        yes = 1
    return _pick(legal, n, encode_left(yes), encode_left(0))


@nb.njit(cache=True, _nrt=False)
def _right_hand(s, legal, n, w, cx):
    """Right Hand: take the extra turn when at most `right_n` players live or in a Renegade's final duel."""
    alive = 0
    for t in range(s.n):
        alive += s.alive[t]
    yes = 1 if (alive <= w[W_RIGHT_N] or cx[4] == 0.0) else 0
    return _pick(legal, n, encode_right(yes), encode_right(0))


@nb.njit(cache=True, _nrt=False)
def _good(s, me, legal, n, w):
    """The Good: reveal when the Sheriff is low (`good_life`) and he has life to spare."""
    sh = s.sheriff
    yes = 1 if (s.life[sh] <= w[W_GOOD_LIFE] and s.life[me] >= s.life[sh] + GOOD_LIFE_LEAD) else 0
    return _pick(legal, n, encode_good(yes), encode_good(0))


@nb.njit(cache=True, _nrt=False)
def _ugly(s, p, legal, n, w, rt):
    """The Ugly: the arrow swap that moves most arrows from friends to enemies, when it reaches `ugly`."""
    urg = UGLY_URGENCY if pile_tokens(s) <= UGLY_LOW_PILE else 1.0
    best = _pick(legal, n, encode_ugly(0, 0, 0), encode_ugly(0, 0, 0))
    bv = w[W_UGLY]
    for k in range(n):
        if reveal_of(legal[k]) == 0:
            continue
        i = seat_of(legal[k])
        j = seat2_of(legal[k])
        v = (_held(s, p, i) - _held(s, p, j)) * (rt[i] - rt[j]) * urg
        if v > bv:
            bv = v
            best = k
    return best


@nb.njit(cache=True, _nrt=False)
def _bad(s, legal, n, w, rt):
    """The Bad: cancel a heal to an enemy worth `bad` or more."""
    t = s.h_tgt
    v = -rt[t] * s.h_amt * (BAD_LOW_LIFE_FACTOR if s.life[t] <= BAD_LOW_LIFE else 1.0)
    return _pick(legal, n, encode_bad(1 if v >= w[W_BAD] else 0), encode_bad(0))


@nb.njit(cache=True, _nrt=False)
def _judge(s, legal, n, rt):
    """The Judge: cancel every revealed enemy power (Left Hand only when it saves an enemy)."""
    rv = s.rv_seat
    sp = s.special[rv]  # revealed: public
    yes = 0
    if sp == GAMBLER or sp == BAD or sp == UGLY or sp == RIGHT:
        yes = 1
    elif sp == LEFT:
        yes = 1 if rt[s.rv_target] < 0.0 else 0
    return _pick(legal, n, encode_judge(yes), encode_judge(0))


@nb.njit(cache=True, _nrt=False)
def _gambler(s, p, legal, n, w, rt):
    """The Gambler: force a re-roll when the active player's final dice are worth `gamble` to an enemy."""
    a = s.active
    r = rt[a]
    q = 0.0
    g = 0
    for i in range(s.nd):
        f = s.face[i]
        if f == GAT:
            g += 1
        elif f == GATX2:
            g += 2
        elif f == BE1 or f == BE2:
            q += GAMBLE_BULLSEYE
        elif f == BE1X2 or f == BE2X2:
            q += 2.0 * GAMBLE_BULLSEYE
        elif f == BEER:
            q += GAMBLE_BEER
        elif f == BEERX2:
            q += 2.0 * GAMBLE_BEER
        elif f == DYN:
            q += GAMBLE_DYNAMITE
    if g >= _gat_need(s, p, a):
        q += GAMBLE_GATLING
    return _pick(legal, n, encode_gambler(1 if -r * q >= w[W_GAMBLE] else 0), encode_gambler(0))


@nb.njit(cache=True, _nrt=False)
def _ghost_gift(s, legal, n, rt):
    """The Ghost: the token and seat worth most (harm to enemies, help to allies), doubled for a pair."""
    x2 = 2.0 if (s.nd >= 2 and s.face[0] == s.face[1]) else 1.0
    best = 0
    bv = -1e18
    for i in range(n):
        f = face_of(legal[i])
        t = seat_of(legal[i])
        h = _ghost_help(s, f, t)
        if f == DYN and x2 == 2.0:
            h *= GHOST_PAIR_DYNAMITE
        v = rt[t] * h * x2
        if v > bv:
            bv = v
            best = i
    return best


# ================================================================ the decision
@nb.njit(cache=True, _nrt=False)
def choose(s, p, seat, legal, n, sid, weights):
    """Index into legal[:n] for the pending decision of `seat` (sid 1 omniscient, else belief): one helper per
    decision kind.  The beliefs (cx) and relations (rt) are computed once, and only for the kinds that read them."""
    w = weights
    kind = kind_of(legal[0])
    me = seat
    if kind == D_BART:
        return _bart(legal, n)
    cx = _context(s, me, sid)
    if kind == D_DOC:
        return _doc(s, p, me, legal, n, w, cx)  # reads one relation, or all of them only in its own turn
    rt = _rels(s, me, w, cx)
    if kind == D_REROLL:
        if s.ghost_turn == 1:
            return _ghost_reroll(s, p, me, legal, n, w, cx, rt)
        return _reroll(s, p, me, legal, n, w, cx, rt)
    if kind == D_BE:
        return _bullseye(s, p, me, legal, n, w, cx, rt)
    if kind == D_BEER or kind == D_SID:
        return _beer(s, p, me, legal, n, kind, w, cx, rt)
    if kind == D_SLAB:
        return _slab(s, p, me, legal, n, w, cx, rt)
    if kind == D_KIT or kind == D_BROKEN:
        return _clear_arrows(s, legal, n, kind, rt)
    if kind == D_ELENA:
        return _elena(s, p, legal, n, rt)
    if kind == D_ARROW:
        return _arrow_choice(s, p, me, legal, n, w, cx, rt)
    if kind == D_SALOON:
        return _saloon(s, p, me, legal, n, w, cx, rt)
    if kind == D_MOLLY:
        return _molly(s, me, legal, n, rt)
    if kind == D_LEFT:
        return _left_hand(s, me, legal, n, cx, rt)
    if kind == D_RIGHT:
        return _right_hand(s, legal, n, w, cx)
    if kind == D_GOOD:
        return _good(s, me, legal, n, w)
    if kind == D_UGLY:
        return _ugly(s, p, legal, n, w, rt)
    if kind == D_BAD:
        return _bad(s, legal, n, w, rt)
    if kind == D_JUDGE:
        return _judge(s, legal, n, rt)
    if kind == D_GAMBLER:
        return _gambler(s, p, legal, n, w, rt)
    if kind == D_GHOST:
        return _ghost_gift(s, legal, n, rt)
    return 0


@nb.njit(cache=True, _nrt=False)
def _arrow_choice(s, p, me, legal, n, w, cx, rt):
    """Regular arrow (0), the Chief's Arrow from the pile (1) or stolen by Apache Kid (2)."""
    cv = np.int64(p[P.CHIEF_VALUE])
    h = s.chief_holder
    mine = s.arrows[me] + (cv if h == me else 0)
    mx = 0
    mx_wo = 0  # best other count if the Chief's Arrow left its holder
    for t in range(s.n):
        if t != me and s.alive[t] == 1:
            a = s.arrows[t] + (cv if h == t else 0)
            if a > mx:
                mx = a
            if s.arrows[t] > mx_wo:
                mx_wo = s.arrows[t]
    lead = 1 + w[W_CHIEF_MARGIN]
    if _find(legal, n, encode_arrow(ARROW_STEAL_CHIEF)) >= 0:
        if mine + cv >= mx_wo + lead:
            return _find(legal, n, encode_arrow(ARROW_STEAL_CHIEF))
        if h >= 0 and rt[h] < 0.0 and s.arrows[h] + cv > mine:
            unique = True
            for t in range(s.n):
                if t != h and s.alive[t] == 1 and s.arrows[t] >= s.arrows[h] + cv:
                    unique = False
            if unique:
                return _find(legal, n, encode_arrow(ARROW_STEAL_CHIEF))
    if _find(legal, n, encode_arrow(ARROW_CHIEF)) >= 0 and mine + cv >= mx + lead:
        return _find(legal, n, encode_arrow(ARROW_CHIEF))
    return _pick(legal, n, encode_arrow(ARROW_REGULAR), encode_arrow(ARROW_REGULAR))


@nb.njit(cache=True, _nrt=False)
def _saloon(s, p, me, legal, n, w, cx, rt):
    """Base dice, the Loudmouth or the Coward die (as a 6th die for Jose Delgado and Tequila Joe)."""
    base = encode_saloon(SALOON_BASE)
    hp = s.life[me]
    hurt = hp < w[W_HURT] * s.max_life[me] or hp <= 2
    tequila = _find(legal, n, encode_saloon(SALOON_COWARD_EXTRA)) >= 0
    jose = _find(legal, n, encode_saloon(SALOON_LOUD_EXTRA)) >= 0
    if hurt:
        return _pick(legal, n, encode_saloon(SALOON_COWARD_EXTRA if tequila else SALOON_COWARD), base)
    lc = _life_cost(s, me, w, cx, rt)
    gv = _gat_val(s, p, me, w, cx, rt, _arrow_cost(s, p, me, w, cx, rt, lc))
    if gv >= w[W_LOUD] and hp >= 4:
        return _pick(legal, n, encode_saloon(SALOON_LOUD_EXTRA if jose else SALOON_LOUD), base)
    if tequila:
        return _pick(legal, n, encode_saloon(SALOON_COWARD_EXTRA), base)
    if jose and hp >= 5 and w[W_LOUD] < 50.0:
        return _pick(legal, n, encode_saloon(SALOON_LOUD_EXTRA), base)
    return _pick(legal, n, base, base)


@nb.njit(cache=True, _nrt=False)
def _doc(s, p, me, legal, n, w, cx):
    """The Doc: complete an enemy's Dynamite (he loses a life and stops), or complete my own Gatling."""
    a = s.active
    lim = np.int64(p[P.DYN_LIMIT])
    dyn = 0
    g = 0
    for i in range(s.nd):
        f = s.face[i]
        if f == DYN:
            dyn += 1
        elif f == GAT:
            g += 1
        elif f == GATX2:
            g += 2
    if a != me and dyn == lim - 1 and _rel(s, me, a, w, cx) <= -0.6:
        # turn his best die (Gatling > Bull's Eye > Beer > other) to Dynamite (face index 1 of every die)
        bi = -1
        bs = -1
        for i in range(s.nd):
            f = s.face[i]
            if f == DYN:
                continue
            sc = 0
            if f == GAT or f == GATX2:
                sc = 4
            elif f == BE1 or f == BE2 or f == BE1X2 or f == BE2X2:
                sc = 3
            elif f == BEER or f == BEERX2:
                sc = 2
            elif f != ARROW:
                sc = 1
            if sc > bs:
                bs = sc
                bi = i
        if bi >= 0:
            i = _find(legal, n, encode_doc(1, bi, SIDE_DYNAMITE))
            if i >= 0:
                return i
    if a == me:
        need = _gat_need(s, p, me)
        if g == need - 1:
            rt = _rels(s, me, w, cx)
            lc = _life_cost(s, me, w, cx, rt)
            gv = _gat_val(s, p, me, w, cx, rt, _arrow_cost(s, p, me, w, cx, rt, lc))
            if gv >= 2.0:
                # an Arrow die first (the Doc acts before the roll's arrows are taken)
                bi = -1
                bs = -1
                for i in range(s.nd):
                    f = s.face[i]
                    if f == DYN or f == GAT or f == GATX2 or s.die_type[i] == 2:
                        continue
                    sc = 3 if f == ARROW else (2 if f == BULLET else 1)
                    if sc > bs:
                        bs = sc
                        bi = i
                if bi >= 0:
                    i = _find(legal, n, encode_doc(1, bi, SIDE_GATLING))
                    if i >= 0:
                        return i
    return _pick(legal, n, encode_doc(0, 0, 0), encode_doc(0, 0, 0))
