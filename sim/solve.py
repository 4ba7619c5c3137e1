"""Balance-point finder: the value of one numeric parameter at which a metric hits a target.

Example: the starting-gold increment at which the first player's win share equals the fair share 1/n.

Method (`find_root`, game-agnostic and testable on a synthetic function):
1. Bracketing: evaluate the metric at both ends of a range; while both sit on the same side of the target, step
   the range outwards in the direction the metric moves (doubling each time, within the parameter's limits).
2. Noisy bisection: evaluate the midpoint; while its confidence interval still contains the target, double the
   games there (within the budget).  A midpoint that is clearly above or below the target replaces the matching
   end; one that stays indistinguishable from the target after the games it may get ends the bisection, since
   more halving could not be decided.
3. Estimate: a weighted least-squares line (statsmodels WLS, weights = 1 / variance of each estimate) through
   the evaluations inside the final bracket; the root is where the line meets the target, and its interval is
   the Fieller interval: every x whose predicted metric is statistically indistinguishable from the target.

Each parameter value plays its own, independent seeds (derived from the solve's seed and the value), so the
evaluations are independent and the regression's standard errors are valid; more games at a value extend its
earlier games.
"""

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .errors import UserError
from .inputs import set_threads


@dataclass
class Evaluation:
    x: float
    estimate: float
    variance: float  # of the estimate
    games: int


@dataclass
class SolveResult:
    """The balance point with its interval and every evaluation that led to it."""

    value: float  # the estimated root
    low: float  # interval on the root (nan where the data cannot bound it)
    high: float
    target: float
    confidence: float
    bracket: tuple  # final bracket [lo, hi]
    evaluations: list = field(default_factory=list)
    games: int = 0
    bounded: bool = True  # False: the fitted slope is not significant, the interval is the bracket
    note: str = ""

    def to_dict(self):
        out = asdict(self)
        out["evaluations"] = [asdict(e) for e in self.evaluations]
        return out


class _Points:
    """Evaluations so far, by x, with the games budget."""

    def __init__(self, evaluate, budget, stage=0):
        self.evaluate = evaluate
        self.budget = budget
        self.stage = stage
        self.at = {}

    @property
    def spent(self):
        return sum(e.games for e in self.at.values())

    def get(self, x, games):
        """Evaluate x with at least `games` games (fewer if the budget runs out; never fewer than it had)."""
        have = self.at[x].games if x in self.at else 0
        games = max(have, min(games, have + max(self.budget - self.spent, 0)))
        if games > have or x not in self.at:
            est, var, n = self.evaluate(x, max(games, 1), self.stage)
            self.at[x] = Evaluation(float(x), float(est), float(var), int(n))
        return self.at[x]


def _z(confidence):
    from scipy.stats import norm

    return float(norm.ppf(0.5 + confidence / 2))


def _side(e, target, z):
    """+1 clearly above the target, -1 clearly below, 0 indistinguishable from it."""
    half = z * math.sqrt(e.variance)
    if e.estimate - half > target:
        return 1
    if e.estimate + half < target:
        return -1
    return 0


def find_root(
    evaluate,
    lo,
    hi,
    target,
    games=2000,
    max_games=200_000,
    point_games=None,
    integer=False,
    limits=(None, None),
    xtol=None,
    confidence=0.95,
    max_expand=6,
    final_points=5,
):
    """Find x in [lo, hi] (or beyond, within `limits`) with metric(x) = target from noisy evaluations.

    evaluate(x, n, stage) -> (estimate, variance of the estimate, games used): the metric at x from its first n
    games of stream `stage` (0 for the search, 1 for the final estimate: the two must use independent games).
    Half of max_games goes to the search, the rest to the final estimate at `final_points` values spread around
    the final bracket (see the comment in the code for how far).
    games: games per new evaluation; point_games: the most one value may get in the search (default an eighth
    of max_games);
    max_games: the total budget; xtol: stop halving below this bracket width (default: 1 for whole numbers,
    (hi - lo) / 1000 otherwise).  Raises UserError when no bracket is found.
    """
    if not lo < hi:
        raise UserError(f"the search range needs low < high (got {lo:g}:{hi:g})")
    if integer:
        lo, hi = int(math.floor(lo)), int(math.ceil(hi))
    z = _z(confidence)
    search_budget = max_games // 2
    pts = _Points(evaluate, search_budget)
    point_games = point_games or max(games, search_budget // 4)
    xtol = xtol if xtol is not None else (1 if integer else (hi - lo) / 1000)
    lower, upper = limits

    def clip(x):
        if lower is not None:
            x = max(x, lower)
        if upper is not None:
            x = min(x, upper)
        return int(round(x)) if integer else float(x)

    a, b = pts.get(lo, games), pts.get(hi, games)
    expansions = 0
    while (a.estimate - target) * (b.estimate - target) > 0:
        rising = b.estimate > a.estimate
        width = b.x - a.x
        # both ends above the target: go where the metric falls; both below: where it rises
        go_down = (a.estimate > target) == rising
        new = clip(a.x - 2 * width if go_down else b.x + 2 * width)
        if expansions == max_expand or new in (a.x, b.x):
            raise UserError(
                f"no balance point found: the metric is {a.estimate:.4g} at {a.x:g} and "
                f"{b.estimate:.4g} at {b.x:g}, both on the same side of the target {target:.4g}"
                + (f" (the parameter's limits are {lower}:{upper})" if lower is not None or upper is not None else "")
                + "; try another range"
            )
        expansions += 1
        if go_down:
            a, b = pts.get(new, games), a
        else:
            a, b = b, pts.get(new, games)
    lo, hi = a.x, b.x
    note = ""
    lo_side = _sign(a.estimate - target) or -_sign(b.estimate - target) or -1
    rise = b.estimate - a.estimate  # the metric's direction over the bracket

    def probe(x):
        """The side of the target x is on, with more games (up to point_games) while it is undecided."""
        m = pts.get(x, games)
        while _side(m, target, z) == 0 and m.games < point_games and pts.spent < search_budget:
            before = m.games
            m = pts.get(x, min(2 * m.games, point_games))
            if m.games == before:
                break
        return _side(m, target, z)

    def half_way(u, v):
        return (u + v) // 2 if integer else (u + v) / 2

    while hi - lo > xtol and pts.spent < search_budget:
        mid = half_way(lo, hi)
        if mid in (lo, hi):
            break
        side = probe(mid)
        if side == lo_side:
            lo = mid
        elif side == -lo_side:
            hi = mid
        else:  # the root is near mid: close in from both sides at the quarter points
            moved = False
            q1, q3 = half_way(lo, mid), half_way(mid, hi)
            if q1 not in (lo, mid) and pts.spent < search_budget and probe(q1) == lo_side:
                lo, moved = q1, True
            if q3 not in (mid, hi) and pts.spent < search_budget and probe(q3) == -lo_side:
                hi, moved = q3, True
            if not moved:
                note = (
                    f"stopped narrowing at [{lo:g}, {hi:g}]: values inside are indistinguishable from the "
                    f"target with up to {point_games} games each"
                )
                break
    if pts.spent >= search_budget and hi - lo > xtol:
        note = note or f"the search's half of the budget ({search_budget} games) is spent"
    # final stage: fresh games (stage 1 seeds) at evenly spaced values around the bracket, so the estimate is
    # free of the search's selection effects.  The spread is the bracket widened by half its width on each side,
    # or wider where the search's slope says the metric would not move enough across it to be measured: about
    # 4 standard errors of one final evaluation from the centre to each end.
    centre = (lo + hi) / 2
    half = hi - lo
    each = max((max_games - pts.spent) // final_points, 1)
    slope = _search_slope(pts, target, z, rise / (b.x - a.x))
    if slope != 0:
        near = min(pts.at.values(), key=lambda e: abs(e.estimate - target))
        half = max(half, 4 * math.sqrt(near.variance * near.games / each) / abs(slope))
        explored = [e.x for e in pts.at.values()]
        half = min(half, max(explored) - min(explored))
    if integer:
        first, last = math.floor(centre - half), math.ceil(centre + half)
        grid = range(first, last + 1) if last - first < final_points else np.linspace(first, last, final_points)
        xs = sorted({clip(v) for v in grid})
    else:
        xs = sorted({clip(v) for v in np.linspace(centre - half, centre + half, final_points)})
    final = _Points(evaluate, max_games - pts.spent, stage=1)
    each = max((max_games - pts.spent) // len(xs), 1)
    for v in xs:
        final.get(v, each)
    return _estimate(final, pts.spent, lo, hi, target, confidence, z, note)


def _search_slope(pts, target, z, fallback):
    """A local slope: the secant between the closest pair of search evaluations on opposite sides of the target
    whose difference is at least 6 standard errors (so noise moves it by a sixth at most; and a secant across the
    root of a monotone S-shaped metric does not exceed its steepest slope, so the spread errs on the wide side);
    `fallback` when there is no such pair."""
    above = [e for e in pts.at.values() if _side(e, target, z) > 0]
    below = [e for e in pts.at.values() if _side(e, target, z) < 0]
    pairs = [
        (abs(u.x - v.x), u, v)
        for u in above
        for v in below
        if u.x != v.x and u.estimate - v.estimate > 6 * math.sqrt(u.variance + v.variance)
    ]
    if not pairs:
        return fallback
    _, u, v = min(pairs, key=lambda t: t[0])
    return (u.estimate - v.estimate) / (u.x - v.x)


def _sign(v):
    return 1 if v > 0 else (-1 if v < 0 else 0)


def _estimate(pts, search_games, lo, hi, target, confidence, z, note):
    """WLS line through the final evaluations and the Fieller interval of its crossing with the target."""
    import statsmodels.api as sm

    inside = sorted(pts.at.values(), key=lambda e: e.x)
    xlo, xhi = inside[0].x, inside[-1].x
    x = np.array([e.x for e in inside])
    y = np.array([e.estimate for e in inside])
    w = 1.0 / np.array([e.variance for e in inside])
    fit = sm.WLS(y, sm.add_constant(x), weights=w).fit(cov_type="fixed scale")
    a, b = fit.params
    cov = np.asarray(fit.cov_params())
    dof = len(x) - 2
    if dof > 0:  # evaluations scattered more than their own variances allow (curvature): widen accordingly
        cov = cov * max(1.0, float(np.sum(w * (y - a - b * x) ** 2)) / dof)
    value = (target - a) / b if b != 0 else math.nan
    # Fieller: (a + b x - t)^2 <= z^2 (v_aa + 2 x v_ab + x^2 v_bb), a quadratic in x
    d = a - target
    qa = b * b - z * z * cov[1, 1]
    qb = 2 * (d * b - z * z * cov[0, 1])
    qc = d * d - z * z * cov[0, 0]
    disc = qb * qb - 4 * qa * qc
    bounded = qa > 0 and disc >= 0
    if bounded:
        r = sorted(np.roots([qa, qb, qc]).real)
        low, high = float(r[0]), float(r[1])
    else:
        low, high = math.nan, math.nan
        note = (note + "; " if note else "") + (
            "the slope is not resolved, so the data cannot bound the root: give more games"
        )
    if math.isnan(value):
        value = (lo + hi) / 2
    elif not xlo <= value <= xhi:
        note = (note + "; " if note else "") + "the fitted line meets the target outside the final design points"
    return SolveResult(
        float(value),
        low,
        high,
        float(target),
        confidence,
        (float(lo), float(hi)),
        inside,
        search_games + pts.spent,
        bounded,
        note,
    )


# ----------------------------------------------------------------------------------------------- games


def value_seed(seed, x, stage=0):
    """An independent 64-bit master seed for the games played at parameter value x in a stage."""
    bits = int(np.array([x], dtype=np.float64).view(np.uint64)[0])
    return int(np.random.SeedSequence([int(seed), bits, int(stage)]).generate_state(1, dtype=np.uint64)[0])


class GameMetric:
    """evaluate(x, n, stage) for a game: the metric over the first n games with parameter `param` set to x,
    played with seeds of their own for each (value, stage)."""

    def __init__(
        self,
        spec,
        param,
        metric,
        players,
        lineup=None,
        strategies=None,
        all_rotations=False,
        overrides=None,
        seed=0,
        cap=10**9,
        chunk_size=50_000,
    ):
        from .runner import prepare

        self.spec, self.design, _ = prepare(spec, (players,), cap, lineup, strategies, all_rotations, overrides)
        self.param = param
        self.metric = metric
        self.overrides = dict(overrides or {})
        self.seed = seed
        self.chunk_size = chunk_size
        self.stats = {}

    def pvec(self, x):
        from .knobs import PREFIX, split_overrides

        if self.param.startswith(PREFIX):  # a strategy knob: the game's parameters stay as set
            return self.spec.params.resolve(split_overrides(self.overrides)[0])
        p = self.spec.params.params[self.spec.params.index(self.param)]
        return self.spec.params.resolve({**split_overrides(self.overrides)[0], self.param: p.show(p.parse(x))})

    def design_at(self, x):
        """The design with the knob being solved set to x (the design itself for a game parameter)."""
        import dataclasses
        from .knobs import PREFIX, as_param, roster, split_overrides

        if not self.param.startswith(PREFIX):
            return self.design
        p = as_param(self.spec, self.param)
        knobs = {**split_overrides(self.overrides)[1], **split_overrides({self.param: p.show(p.parse(x))})[1]}
        return dataclasses.replace(self.design, custom=roster(self.spec, self.design.slots, knobs))

    def __call__(self, x, n, stage=0):
        from .results import chunk_tables
        from .runner import simulate
        from .sweep import add_stats, chunk_stats, metric_interval, metric_variance

        st = self.stats.get((x, stage), {"n": 0.0})
        pvec = self.pvec(x)
        design = self.design_at(x)
        seed = value_seed(self.seed, x, stage)
        while st["n"] < n:
            start = int(st["n"])
            stop = min(int(n), start + self.chunk_size)
            arrays = simulate(self.spec, design, pvec, seed, start, stop)
            st = add_stats(st, chunk_stats(self.spec, chunk_tables(self.spec, design, start, arrays)))
        self.stats[(x, stage)] = st
        est, _, _ = metric_interval(st, self.metric)
        return est, metric_variance(st, self.metric), int(st["n"])


def parse_range(text, param):
    """'lo:hi' -> (lo, hi) as numbers valid for the parameter; default: the parameter's own limits."""
    if text is None:
        if param.lo is None or param.hi is None:
            raise UserError(f"parameter {param.name} has no declared range: give --between LOW:HIGH")
        return param.lo, param.hi
    try:
        lo, hi = (float(t) for t in str(text).split(":"))
    except ValueError:
        raise UserError(f"--between takes LOW:HIGH numbers (got '{text}')") from None
    for v in (lo, hi):
        param.parse(v)
    if not lo < hi:
        raise UserError(f"--between needs LOW < HIGH (got '{text}')")
    return lo, hi


def solve_game(
    game,
    param,
    metric="order0_win_share",
    target="fair",
    players=None,
    lineup=None,
    strategies=None,
    all_rotations=False,
    overrides=None,
    between=None,
    games=2000,
    max_games=200_000,
    seed=0,
    confidence=0.95,
    xtol=None,
    threads=None,
):
    """The balance point of one numeric parameter of a game (see the module docstring).

    target: a number, or 'fair' for 1/players (win shares and win rates).  Returns (SolveResult, info dict).
    """

    from .game import get_game
    from .runner import check_seed
    from .sweep import check_metric
    from .knobs import as_param

    spec = get_game(game) if isinstance(game, str) else game
    p = as_param(spec, param)  # a game parameter or a knob strategy.<preset>.<knob>
    if p.kind not in ("int", "float"):
        raise UserError(f"parameter {param} is a {p.kind}: the solver needs a numeric (int or float) parameter")
    if overrides and param in overrides:
        raise UserError(f"parameter {param} is the one being solved: do not also --set it")
    players = spec.default_players if players is None else int(players)  # 0 is an error, not the default
    spec.check_players(players)
    metric = check_metric(metric, spec, players, where="--metric")
    if str(target).strip().lower() == "fair":
        if not metric.startswith("order"):
            raise UserError(f"--target fair (1/players) fits win shares and win rates, not {metric}: give a number")
        target = 1.0 / players
    try:
        target = float(target)
    except ValueError:
        raise UserError(f"--target takes a number or 'fair' (got '{target}')") from None
    if not math.isfinite(target):
        raise UserError(f"--target takes a finite number or 'fair' (got '{target}')")
    if not 1 <= int(games) <= int(max_games):
        raise UserError(f"--games ({games}) must be at least 1 and at most --max-games ({max_games})")
    from .runner import check_games

    games, max_games = check_games(games, "--games"), check_games(max_games, "--max-games")
    if not 0 < float(confidence) < 1:
        raise UserError(f"--confidence must be between 0 and 1, exclusive (got {confidence})")
    seed = check_seed(seed)
    set_threads(threads)
    lo, hi = parse_range(between, p)
    fn = GameMetric(
        spec, param, metric, players, lineup, strategies, all_rotations, overrides, seed, cap=int(max_games)
    )
    fn.design_at(lo)  # a knob of a preset outside the line-up fails here, before any game is played
    result = find_root(
        fn,
        lo,
        hi,
        target,
        games=int(games),
        max_games=int(max_games),
        integer=p.kind == "int",
        limits=(p.lo, p.hi),
        xtol=xtol,
        confidence=float(confidence),
    )
    info = {
        "game": spec.name,
        "param": param,
        "metric": metric,
        "players": players,
        "lineup": list(fn.design.lineup),
        "seating": fn.design.mode,
        "set": dict(overrides or {}),
        "seed": seed,
        "kind": p.kind,
    }
    return result, info


def report_lines(result, info):
    """The answer in words."""
    pct = round(result.confidence * 100)
    lines = [
        f"{info['game']}, {info['players']} players: {info['metric']} = {result.target:.4g} at "
        f"{info['param']} = {result.value:.4g}  ({pct}% interval {result.low:.4g} to {result.high:.4g}; "
        f"{result.games} games)"
    ]
    if info["kind"] == "int":
        near = [e for e in result.evaluations if e.x in (math.floor(result.value), math.ceil(result.value))]
        for e in near:
            half = _z(result.confidence) * math.sqrt(e.variance)
            lines.append(
                f"  at {info['param']} = {e.x:g}: {info['metric']} = {e.estimate:.4f} +/- {half:.4f} ({e.games} games)"
            )
    if result.note:
        lines.append(f"  note: {result.note}")
    return lines


def write_result(path, result, info):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    from .results import write_json

    write_json(path, {**info, **result.to_dict()})
    return path
