"""One test harness for every game's rules tests: a fresh state, parameters by name, the legal actions, acting.

    H = Harness("raccoon_tycoon")
    s, p = H.fresh(4, seed=3, **{"setup.start_player": "seat0"})
    H.act(s, p, "AUCTION", rr=2)         # encoded by the game's ActionCodec, asserted legal, applied
    assert H.kinds(s, p) == {"BID", "PASS"}

States are records of a one-element array (the jitted engine takes a record), driven through the engine's own
jitted functions; parameter names may use '__' for '.' so they can be keyword arguments.
"""

import numpy as np

from sim.game import get_game
from sim.rng import seed_streams

MASTER = 99  # the master seed of hand-built states


class Harness:
    def __init__(self, game):
        self.game = get_game(game) if isinstance(game, str) else game
        self.E = self.game.engine_module()
        self.codec = self.game.actions
        self._out = np.zeros(self.E.MAX_ACTIONS, np.int64)

    def params(self, **overrides):
        """The parameter vector with overrides by name ('__' stands for '.')."""
        return self.game.params.resolve({k.replace("__", "."): v for k, v in overrides.items()})

    def fresh(self, n=None, seed=1, p=None, **overrides):
        """(state, params) after setup for n players (default: the game's default count)."""
        p = self.params(**overrides) if p is None else p
        st = np.zeros(1, self.E.STATE_DTYPE)
        seed_streams(st[0]["rng"], MASTER, seed)
        self.E.setup(st[0], p, self.game.default_players if n is None else n)
        return st[0], p

    def legal(self, s, p):
        """The legal actions, as Python ints in the engine's order."""
        n = self.E.legal_actions(s, p, self._out)
        assert 1 <= n <= self.E.MAX_ACTIONS, f"{n} legal actions (MAX_ACTIONS={self.E.MAX_ACTIONS})"
        return [int(a) for a in self._out[:n]]

    def decoded(self, s, p):
        """The legal actions decoded: [(kind name, {field: value})]."""
        return [self.codec.decode(a) for a in self.legal(s, p)]

    def kinds(self, s, p):
        """The set of action kinds legal now."""
        return {self.codec.kind_name(a) for a in self.legal(s, p)}

    def encode(self, kind, **fields):
        return self.codec.encode(kind, **fields)

    def act(self, s, p, action, **fields):
        """Apply an action (an int, or a kind name with its fields), asserting first that it is legal."""
        a = self.encode(action, **fields) if isinstance(action, str) else int(action)
        legal = self.legal(s, p)
        assert a in legal, f"{self.text(a)} is not legal; legal: {[self.text(x) for x in legal]}"
        self.E.apply_action(s, p, a)

    def outcome(self, s, p):
        """What write_outcome writes for s: {"game": {column: value}, "seats": [{column: value, "score", "share"}
        per seat], "items": [(seat, item name, turn, *item columns)]}."""
        g, E = self.game, self.E
        game_int = np.zeros(len(g.game_columns), np.int64)
        seat_int = np.zeros((E.MAX_PLAYERS, len(g.seat_columns)), np.int64)
        seat_f = np.zeros((E.MAX_PLAYERS, 2))
        items = np.zeros((E.MAX_ITEMS, 3 + len(g.item_columns)), np.int64)
        n_items = E.write_outcome(s, p, game_int, seat_int, seat_f, items)
        seats = [
            {
                **dict(zip(g.seat_columns, map(int, seat_int[i]))),
                "score": float(seat_f[i, 0]),
                "share": float(seat_f[i, 1]),
            }
            for i in range(int(s["n"]) if "n" in s.dtype.names else E.MAX_PLAYERS)
        ]
        names = g.item_names
        return {
            "game": dict(zip(g.game_columns, map(int, game_int))),
            "seats": seats,
            "items": [(int(r[0]), names[int(r[1])] if names else int(r[1]), *map(int, r[2:])) for r in items[:n_items]],
        }

    def text(self, a):
        return self.game.action_text(a) if self.game.action_text else str(a)

    def play_random(self, s, p, rng, max_steps=100_000):
        """Play to the end with uniformly random legal actions from a numpy Generator; returns the steps."""
        t = 0
        while not self.E.is_over(s) and t < max_steps:
            legal = self.legal(s, p)
            self.E.apply_action(s, p, legal[int(rng.integers(len(legal)))])
            t += 1
        return t
