"""Each game of the lab as a PettingZoo AEC environment (issue 39):

    from sim.interop.pettingzoo import env
    e = env("raccoon_tycoon", players=4, params={"rule.x": 1}, preset=None, render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0` ... (seat order; the engine says who moves next, which need not be the next seat).
The observation is a dict: `observation`, the seat's view as a float32 vector (the same as the OpenSpiel
observation tensor: sim.interop.core.View), `action_mask` (int8, one entry per place of the legal list) and
`action_ids` (int64: the OpenSpiel action id of each legal action, -1 past the list).  An action is an index into
the current legal list, sorted by OpenSpiel action id: the engine's action codes are too sparse for a fixed
Discrete space (millions of ids in three games), while the list never exceeds the game's MAX_ACTIONS.

`reset(seed=s)` starts game 0 of run seed s (the game `sim run --seed s` plays as game 0 with the same actions);
a reset without a seed starts the next game of the same seed.  Rewards are the win shares at the end (ties and
teams split 1); a game that reaches the engine's step cap is truncated.  `render()` prints (or, with
render_mode="ansi", returns) the game's own text of the last move and what it caused.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .core import ActionIndex, Match, View, action_text, resolve


def env(game, players=None, params=None, preset=None, render_mode=None):
    """The AEC environment of one of our games (a game name, e.g. "bang_dice")."""
    return BalanceLabEnv(game, players=players, params=params, preset=preset, render_mode=render_mode)


class BalanceLabEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "balance_lab", "is_parallelizable": False}

    def __init__(self, game, players=None, params=None, preset=None, render_mode=None):
        super().__init__()
        self.spec, self.pvec = resolve(game, params, preset)
        self.n_players = int(players or self.spec.default_players)
        self.spec.check_players(self.n_players)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} (got {render_mode!r})")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"balance_lab_{self.spec.name}"}
        eng = self.spec.engine_module()
        self.max_actions = int(eng.MAX_ACTIONS)
        self.view = View(self.spec)
        self.index = ActionIndex(self.spec.actions)
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.view.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
                "action_ids": spaces.Box(-1, self.index.size - 1, (self.max_actions,), np.int64),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.match = None
        self._seed, self._game = int(np.random.SeedSequence().entropy % 2**63), -1

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed, self._game = int(seed), -1
        self._game += 1
        self.match = Match(self.spec, self.n_players, self.pvec, self._seed, self._game, log=True)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = ["start"]
        self._order()
        self.agent_selection = self.possible_agents[self.match.current_player()]

    def _order(self):
        """The legal codes sorted by OpenSpiel action id (the order of the action indices)."""
        codes = self.match.legal()
        ids = np.array([self.index.id_of(c) for c in codes], np.int64)
        order = np.argsort(ids, kind="stable")
        self._codes, self._ids = codes[order], ids[order]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, np.int8)
        ids = np.full(self.max_actions, -1, np.int64)
        if not self.match.over() and seat == self.match.current_player():
            mask[: len(self._codes)] = 1
            ids[: len(self._ids)] = self._ids
        return {"observation": self.view.tensor(self.match.states, seat), "action_mask": mask, "action_ids": ids}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if not 0 <= action < len(self._codes):
            raise ValueError(f"{agent}: action {action} is not legal (legal: 0..{len(self._codes) - 1})")
        self._cumulative_rewards[agent] = 0.0
        code = int(self._codes[action])
        seat = self.possible_agents.index(agent)
        self.match.apply(code)
        self._last = [f"seat {seat}: {action_text(self.spec, code)}"] + ["  " + t for t in self.match.events()]
        self.rewards = {a: 0.0 for a in self.agents}
        if self.match.over():
            capped = not bool(self.spec.engine_module().is_over(self.match.s))
            for a, share in zip(self.possible_agents, self.match.win_shares()):
                self.rewards[a] = float(share)
                (self.truncations if capped else self.terminations)[a] = True
        else:
            self._order()
            self.agent_selection = self.possible_agents[self.match.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = "\n".join(self._last)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        pass
