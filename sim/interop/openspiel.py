"""Each game of the lab as an OpenSpiel Python game (issue 39), registered with pyspiel as
`python_balance_lab_<game>`:

    from sim.interop.openspiel import game
    g = game("raccoon_tycoon", players=4, params={"rule.x": 1}, preset=None, seed=1)
    # or pyspiel.load_game("python_balance_lab_raccoon_tycoon", {"players": 4, "params": "rule.x=1"})

Game parameters: `players` (the count, within the game's range), `params` (the game's named parameters as
`--set` takes them, `name=value` separated by `;`), `preset` (a named rule preset, `sim params GAME`), `seed`
(the run seed: game k started by `new_initial_state` is seed index k of that seed, as in `sim run`).

What OpenSpiel is told (sim.interop.core describes the driver):
- sequential, imperfect information where the game declares hidden fields (perfect information otherwise);
- chance SAMPLED_STOCHASTIC: the engine draws its dice and shuffles itself inside `apply_action` from the state's
  chance stream, so there are no chance nodes and no explicit chance outcomes; `clone` copies the stream, so a
  clone replays the same dice (an algorithm that clones and plays on, like the perfect-information MCTSBot, sees
  the true hidden state and the coming dice: a clairvoyant player, not a fair one);
- constant sum 1: the terminal returns are the seats' win shares (ties and teams split 1), rewards terminal only;
- action ids: `core.ActionIndex`, dense over the game's ActionCodec; `action_to_string` is the game's own text;
- observation (string and tensor): what the seat may see (`core.View`); the information state is the
  observation plus every action taken so far (the tensor is the observation's: it does not grow with the game).
  Dice rolled and hidden again are not in it, so the information state is not perfect recall in the strict sense;
- `resample_from_infostate(seat, sampler)`: a clone whose chance stream is re-seeded from the sampler and whose
  hidden fields are re-drawn by the game's `hidden.determinize` (what our own search does before a rollout).
"""

import numpy as np
import pyspiel

from sim.errors import UserError
from sim.game import game_names, get_game

from .core import ActionIndex, Match, View, action_text, resolve

PREFIX = "python_balance_lab_"


def short_name(game_name):
    return PREFIX + game_name


def parse_params(text):
    """'a=1;b=x' -> {'a': '1', 'b': 'x'} (the `params` game parameter)."""
    out = {}
    for part in filter(None, (p.strip() for p in str(text or "").split(";"))):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise UserError(f"params: '{part}' is not name=value (separate several with ';')")
        out[name.strip()] = value.strip()
    return out


def format_params(params):
    return ";".join(f"{k}={v}" for k, v in dict(params or {}).items())


def game(name, players=None, params=None, preset=None, seed=0):
    """The OpenSpiel game of one of our games (a pyspiel.Game), e.g. game("bang_dice", players=5, preset="full")."""
    spec = get_game(name)
    return pyspiel.load_game(
        short_name(spec.name),
        {
            "players": int(players or spec.default_players),
            "params": format_params(params),
            "preset": preset or "",
            "seed": int(seed),
        },
    )


class BalanceLabGame(pyspiel.Game):
    """One of our games at one player count and rule set (made by pyspiel.load_game through `register`)."""

    spec = None  # set on the subclass made for each game

    def __init__(self, params=None):
        spec = self.spec
        params = {**self._defaults(), **(params or {})}
        players = int(params["players"])
        spec.check_players(players)
        self.lab, self.pvec = resolve(spec, parse_params(params["params"]), params["preset"] or None)
        self.n_players = players
        self.index = ActionIndex(spec.actions)
        self.view = View(spec)
        self.seed = int(params["seed"])
        self.started = 0
        eng = spec.engine_module()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.index.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=int(eng.MAX_STEPS),
        )
        super().__init__(self.game_type, info, params)

    def __deepcopy__(self, memo):
        return self  # immutable once made (OpenSpiel copies states, which hold their game)

    @classmethod
    def _defaults(cls):
        return {"players": cls.spec.default_players, "params": "", "preset": "", "seed": 0}

    def new_initial_state(self):
        """Game k of this pyspiel.Game object is seed index k of its seed (as game k of `sim run --seed`)."""
        k = self.started
        self.started += 1
        return BalanceLabState(self, Match(self.lab, self.n_players, self.pvec, self.seed, k))

    def state_from_seed(self, seed, seed_index=0):
        """The initial state of game `seed_index` of run seed `seed` (the game `sim replay` shows)."""
        return BalanceLabState(self, Match(self.lab, self.n_players, self.pvec, seed, seed_index))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported (got {params})")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return BalanceLabObserver(self.view, perfect_recall)


class BalanceLabState(pyspiel.State):
    """A game in progress (sim.interop.core.Match underneath)."""

    def __init__(self, game, match):
        super().__init__(game)
        self.match = match
        self._index = game.index

    def current_player(self):
        if self.match.over():
            return pyspiel.PlayerId.TERMINAL
        return self.match.current_player()

    def _legal_actions(self, player):
        if self.match.over() or player != self.match.current_player():
            return []
        return sorted(self._index.id_of(a) for a in self.match.legal())

    def _apply_action(self, action):
        code = self._index.code_of(action)
        if code not in self.match.legal():
            raise ValueError(f"action {action} ({self._action_to_string(self.current_player(), action)}) is not legal")
        self.match.apply(code)

    def _action_to_string(self, player, action):
        return action_text(self.match.spec, self._index.code_of(action))

    def is_terminal(self):
        return self.match.over()

    def returns(self):
        return [float(x) for x in self.match.win_shares()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the seat cannot tell from this one: hidden fields re-drawn (the game's determinize) and the
        chance stream re-seeded, both from 64 bits drawn with the sampler."""
        seed = 0
        for _ in range(4):  # 16 bits a draw
            seed = (seed << 16) | int(probability_sampler() * 65536) & 0xFFFF
        clone = self.clone()
        clone.match.determinize(player_id, seed)
        return clone

    def clone(self):
        return BalanceLabState(self.get_game(), self.match.clone())

    def __deepcopy__(self, memo):
        return self.clone()

    def __str__(self):
        m = self.match
        last = action_text(m.spec, m.history[-1]) if m.history else "start"
        who = "over" if m.over() else f"seat {m.current_player()} to move"
        return f"{m.spec.title}, {m.players} players, move {m.steps}: {who} (last: {last})"


class BalanceLabObserver:
    """Observation (perfect_recall False) or information state (True) of a seat, as OpenSpiel's PyObserver."""

    def __init__(self, view, perfect_recall):
        self.view = view
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(view.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.view.tensor(state.match.states, player, self.tensor)

    def string_from(self, state, player):
        m = state.match
        if self.perfect_recall:  # a key that changes with every action and every visible change
            return f"p{player} view {self.view.digest(m.states, player)} actions {' '.join(map(str, m.history))}"
        return self.view.text(m.states, player)


def game_type(spec):
    eng = spec.engine_module()
    hidden = bool(getattr(eng, "HIDDEN_FIELDS", ()))
    lo, hi = spec.players
    return pyspiel.GameType(
        short_name=short_name(spec.name),
        long_name=f"Balance lab: {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "params": "", "preset": "", "seed": 0},
    )


def register(name):
    """Register one game with pyspiel (once per process); returns its short name."""
    if short_name(name) in pyspiel.registered_names():
        return short_name(name)
    spec = get_game(name)
    cls = type(f"BalanceLab_{name}", (BalanceLabGame,), {"spec": spec, "game_type": game_type(spec)})
    pyspiel.register_game(cls.game_type, cls)
    return short_name(name)


for _name in game_names():
    register(_name)
