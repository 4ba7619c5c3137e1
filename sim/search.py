"""The rollout search player, written once for every game (issue 24).

At a decision the player evaluates candidate actions by rollouts: copy the state, re-seed its chance stream,
re-sample what the seat cannot see (the game's `determinize`), apply the action, play to the end with a rollout
policy (a named preset of the game, every seat), and score the seat's win share (score margin breaks ties).
Rollout k of every candidate uses the same seed and the same re-sampled world (common random numbers), so the
candidates' differences are not dice noise.  The loop itself lives in the kernel body (sim/kernel_body.py:
`search_choose`, `rollout_values`), because it calls the game's engine and `choose`, which numba can only cache
when they are module globals of the calling file; this module holds what is generic: the knobs' layout, the
strategy names and the no-op determinize.

A search strategy is an ordinary StrategySpec with sid SEARCH_SID; its weights row is the header
(rollouts, candidate cap, rollout policy sid, peek) followed by the rollout preset's own weights, so the kernel
needs no extra table and presets of the search differ only in data.

Names (any game): `search` (sequential halving up to 32 rollouts, twice the flat search's 16 or the game's
GameSpec.search_rollouts; at most 12 candidates; the game's rollout policy, GameSpec.search_rollout), `search<R>` (R
rollouts in the final round), `search<R>x<C>` (C candidates), `z<Z>` (the standard errors by which a candidate must
beat the heuristic's choice, default 2, as a normal level turned into Student's t for R rollouts), a suffix `_peek`
(no determinize: sees the true hidden state), `_flat` (every candidate R rollouts, R = 16 or the game's
search_rollouts by default) and `@<preset>` (another rollout policy), e.g. `search64x8@cautious`, `search_flat`.
(`_halving` is accepted and names the default.)

Allocation (the kernel's halving_choice): sequential halving over the challengers of the heuristic's choice, which
is played in every round as the baseline.  The first round shares R / 4 rollouts among the candidates (at least R /
16 each); after a round of k rollouts a challenger goes on only while its paired t statistic against the
heuristic's choice (win share; score margin where every rollout's win share agrees) is above half the final
threshold times sqrt(k / R), the course of a real advantage that would pass the final test, and of those only the
better half by mean advantage get 2k; the heuristic's choice stands as soon as no challenger is left; when one is
left after at least 4 rollouts and its statistic is above 0.75 of the threshold for k rollouts it is chosen at
once; at R the flat search's test picks.  The final test sees twice the flat search's rollouts while most
candidates, and most decisions, stop after a few: in 4-player games `search` plays about a third of
`search_flat`'s rollouts and wins as often within the intervals (bench/search_allocation.py replays the rules on
recorded rollouts; bench/search_strength.py --versus plays them).  `_flat` gives every candidate R rollouts and the
test picks (the search before issue 37).
"""

import re

import numba as nb

from .errors import UserError
from .players import StrategySpec

SEARCH_SID = -1  # never a game's own strategy id (those are >= 1; 0 is random)
W_ROLLOUTS, W_CAP, W_POLICY, W_PEEK, W_Z, W_UNANIMOUS, W_MARGIN, W_HALVING, W_FIRST, W_FIRST_ALL, W_COURSE = range(11)
W_ACCEPT, W_LEVEL = 11, 12
HEADER = 13  # the rollout preset's weights start here
DEFAULT_Z = 2.0  # standard errors by which a candidate must beat the heuristic's choice
DEFAULT_ROLLOUTS = 16
DEFAULT_CAP = 12
FIRST_SHARE = 16  # sequential halving's first round: at least rollouts / 16 per candidate,
FIRST_ALL = 4  # and rollouts / 4 in all
COURSE = 0.5  # a challenger goes on while its t statistic is above COURSE x the final threshold x sqrt(k / rollouts)
ACCEPT = 0.75  # the last challenger left wins early when its t statistic is above ACCEPT x the threshold for k rollouts
ACCEPT_FROM = 4  # rollouts a candidate must have had before it can be accepted early

_NAME = re.compile(r"^search(\d+)?(?:x(\d+))?(?:z([0-9.]+))?(_peek)?(_halving|_flat)?(?:@(\w+))?$")


@nb.njit(cache=True)
def determinize_nothing(s, p, seat):
    """The determinize of a game that has not supplied one: the rollouts then see the true state (a search
    strategy of such a game says sees_hidden=True)."""
    return 0


def rollout_preset(game):
    """The game's default rollout policy: GameSpec.search_rollout if set, else the first heuristic of its
    default line-up."""
    name = getattr(game, "search_rollout", "") or next((n for n in game.default_lineup if n != "random"), "random")
    return game.strategy(name)


def rollout_policy(game, name):
    """The preset search `name` rolls out with in every seat (`search@x`: x; else the game's rollout preset)."""
    m = _NAME.match(name)
    return game.strategy(m.group(6)) if m and m.group(6) else rollout_preset(game)


def default_rollouts(game, flat=True):
    """Rollouts per action of the game's plain `search_flat`: GameSpec.search_rollouts if set, else
    DEFAULT_ROLLOUTS; the plain `search` (sequential halving, flat=False) plays twice as many in its final round."""
    return int(getattr(game, "search_rollouts", 0) or DEFAULT_ROLLOUTS) * (1 if flat else 2)


def has_determinize(game):
    """True if the game supplies <package>.hidden.determinize (its search then does not peek)."""
    import importlib.util

    package = game.engine.rsplit(".", 1)[0]
    return importlib.util.find_spec(package + ".hidden") is not None


def search_strategy(game, name):
    """The StrategySpec a search name stands for, or None if `name` is not a search name."""
    m = _NAME.match(name)
    if m is None:
        return None
    flat = m.group(5) == "_flat"
    rollouts = int(m.group(1) or default_rollouts(game, flat))
    cap = int(m.group(2) or DEFAULT_CAP)
    z = float(m.group(3)) if m.group(3) else DEFAULT_Z
    peek = bool(m.group(4)) or not has_determinize(game)
    first = first_round(rollouts)
    policy = rollout_policy(game, name)
    if policy.sid == SEARCH_SID:
        raise UserError(f"{name}: a search cannot use a search as its rollout policy")
    if not (1 <= rollouts <= 100_000 and 1 <= cap <= 10_000):
        raise UserError(f"{name}: rollouts and candidates must be between 1 and 100000 / 10000")
    hidden = (
        "reads hidden information: rollouts start from the true state"
        if peek
        else "re-samples what the seat cannot see before every rollout (the game's determinize)"
    )
    margin = " (score margin where every rollout's win share agrees)" if game.search_margin else ""
    allocation = (
        f"by {rollouts} rollouts each"
        if flat
        else f"by sequential halving (first {max(rollouts // FIRST_ALL, 1)} rollouts shared by the actions, at least "
        f"{first} each, then twice as many for the better half of the others whose advantage is on course to pass the "
        f"test, and so on up to {rollouts}; the {policy.name} choice stands as soon as none is left, and the last one "
        f"left wins early once it passes {ACCEPT:g} of the test for the rollouts it has had)"
    )
    doc = (
        f"Rollout search: evaluates up to {cap} legal actions (the {policy.name} choice first; when there "
        f"are more, its next choices for half the other places and the rest at random) {allocation} "
        f"with {policy.name} in every seat, common random numbers across actions; leaves the "
        f"{policy.name} choice for the best win share{margin} "
        f"only when it is better by more than {t_threshold(z, rollouts):.2f} standard errors (Student's t at the "
        f"one-sided level of {z:g} normal ones); {hidden}."
    )
    weights = (float(rollouts), float(cap), float(policy.sid), 1.0 if peek else 0.0, t_threshold(z, rollouts))
    weights += (1.0 if unanimous_is_significant(z, rollouts) else 0.0, 1.0 if game.search_margin else 0.0)
    weights += (0.0 if flat else 1.0, float(first), float(max(rollouts // FIRST_ALL, 1)), COURSE)
    weights += (0.0 if flat else ACCEPT, z)
    weights += tuple(policy.weights)
    return StrategySpec(name, SEARCH_SID, doc, weights, sees_hidden=peek)


def first_round(rollouts):
    """The fewest rollouts of a candidate in sequential halving's first round: rollouts / FIRST_SHARE, at least 1
    (the round plays rollouts / 2 in all, so a decision between few candidates starts with more of each)."""
    return max(rollouts // FIRST_SHARE, 1)


def t_threshold(z, rollouts):
    """The paired t statistic a candidate must exceed: z read as a normal one-sided level and converted to Student's
    t with rollouts - 1 degrees of freedom, because a standard error estimated from a few rollouts is itself noisy
    (z = 2 with 4 rollouts would need only 2 where t needs 3.3; measured on BANG at 3 players, 6,000 games:
    `search4` won 0.323, below the fair 0.333, with the plain z)."""
    from scipy import stats

    if rollouts < 2:
        return z
    return float(stats.t.ppf(stats.norm.cdf(z), rollouts - 1))


@nb.njit(cache=True)
def t_quantile(z, df):
    """Student's t quantile with df degrees of freedom at the normal quantile z (the level Phi(z)), by the
    Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5): the kernel's early accept needs the threshold of any
    round's rollout count and cannot call scipy.  Within 0.5% of t_threshold from 3 degrees of freedom at z <= 2,
    1% at z = 2.5 (tests/test_search.py)."""
    z2 = z * z
    g1 = (z2 + 1.0) * z / 4.0
    g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0
    g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0
    g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def unanimous_is_significant(z, rollouts):
    """Whether rollouts paired differences that are all equal and positive (a zero standard error, which no t
    threshold can judge) beat the heuristic's choice: by the sign test they do when 2**-rollouts is below the
    one-sided level of z, from 6 rollouts at z = 2.  With 4 rollouts an equal advantage in all four happens by
    chance among a dozen candidates (measured on BANG at 5 players: `search4` won 0.193, below the fair 0.2, when
    it was accepted)."""
    from scipy import stats

    return 0.5**rollouts <= stats.norm.sf(z)


def search_names():
    """The search strategies listed by `sim strategies` (any `search<R>x<C>[z<Z>][_peek][_flat][@preset]` also
    works)."""
    return ("search", "search4", "search64", "search_peek", "search_flat")
