"""Which strategy sits in which seat of which game, and which seed each game uses.

Games are numbered 0..total-1 in blocks of `games` per player count.  Everything here is a pure function of the
game index, so any chunk (or a single game, for replay) is reproduced without the rest of the run.

- fixed: the strategies are given per seat and never move.
- rotate: a line-up of m strategies is rotated over the seats.  With R = max(n, m) rotations, seat j of a game
  with rotation r = index mod R holds L[((j + r) mod R) mod m]: with m <= n the line-up fills the seats
  cyclically, with m > n each game seats n consecutive strategies of the line-up.  Either way every strategy
  sits in every seat equally often over R consecutive games.
- mirror: the line-up also goes round the table the other way: 2R arrangements, the R rotations and then the R
  rotations of the reversed order (seat j of arrangement R + r holds L[((r - j) mod R) mod m]).  A cyclic rotation
  keeps every strategy's neighbours: in A,B,A,B each B always sits on an A's left, which biases a head to head in
  games with left/right effects (passing, "the player on your left", distance).  Mirrored, each strategy has each
  other on either side equally often.
- all_rotations (common random numbers): the R rotations of a group (2R with mirror) replay the same seed, so seat
  and strategy effects are compared on identical dice.
"""

from dataclasses import dataclass

import numpy as np

from .errors import UserError


@dataclass(frozen=True)
class Design:
    player_counts: tuple
    games: int  # games per player count
    slots: tuple  # distinct strategy names of the run; a seat holds a slot index
    lineup: tuple  # strategy names (rotate) or per-seat names (fixed)
    mode: str = "rotate"  # "rotate" or "fixed"
    all_rotations: bool = False
    custom: tuple = ()  # (name, sid, weights) of slots whose knobs differ from the game's presets
    # (--set strategy.<preset>.<knob>, preset files): travels with the design
    mirror: bool = False  # rotate in both directions (see the module docstring)

    @property
    def total(self):
        return self.games * len(self.player_counts)

    def to_dict(self):
        d = {
            "mode": self.mode,
            "lineup": list(self.lineup),
            "all_rotations": self.all_rotations,
            "player_counts": list(self.player_counts),
            "games_per_player_count": self.games,
            "slots": list(self.slots),
        }
        if self.mirror:  # only then: the requests of runs without it stay as they were (resume)
            d["mirror"] = True
        if self.custom:  # only then: the requests of runs without custom knobs stay as they were (resume)
            d["custom_strategies"] = {name: {"sid": sid, "weights": list(w)} for name, sid, w in self.custom}
        return d

    @staticmethod
    def from_dict(d):
        custom = tuple(
            (name, int(e["sid"]), tuple(float(x) for x in e["weights"]))
            for name, e in d.get("custom_strategies", {}).items()
        )
        return Design(
            tuple(d["player_counts"]),
            d["games_per_player_count"],
            tuple(d["slots"]),
            tuple(d["lineup"]),
            d["mode"],
            d["all_rotations"],
            custom,
            bool(d.get("mirror", False)),
        )

    def strategy_rows(self, game):
        """(sids, weights matrix) of the slots, custom knobs applied."""
        from .knobs import strategy_rows

        return strategy_rows(game, self.slots, self.custom)

    def assign(self, start, stop, max_players):
        """Arrays for games [start, stop): players, seed_index, rotation (the arrangement: 0..R-1, R..2R-1 the
        reversed ones with mirror), strategy slot per seat (-1 = empty)."""
        g = np.arange(start, stop, dtype=np.int64)
        counts = np.asarray(self.player_counts, dtype=np.int64)
        players = counts[g // self.games]
        local = g % self.games
        m = len(self.lineup)
        n_rot = np.maximum(players, m)
        if self.mode == "fixed":
            rotation = np.zeros_like(g)
        else:
            rotation = local % (n_rot * (2 if self.mirror else 1))
        if self.all_rotations and self.mode == "rotate":
            seed_index = g - rotation  # the group's first game: shared by its R rotations
        else:
            seed_index = g.copy()
        slot_of = {name: i for i, name in enumerate(self.slots)}
        pattern = np.array([slot_of[name] for name in self.lineup], dtype=np.int64)
        strat = np.full((len(g), max_players), -1, dtype=np.int64)
        seats = np.arange(max_players)
        for n in np.unique(players):
            rows = players == n
            if self.mode == "fixed":
                strat[rows, :n] = pattern[:n]
            else:
                r = rotation[rows, None] % max(n, m)
                reversed_ = rotation[rows, None] >= max(n, m)
                pos = np.where(reversed_, r - seats[None, :n], r + seats[None, :n]) % max(n, m)
                strat[rows, :n] = pattern[pos % m]
        return players, seed_index, rotation, strat


def make_design(game, players, games, lineup=None, strategies=None, all_rotations=False, knobs=None, mirror=False):
    """Validate the user's seating request against the game and build the Design (UserError on bad input).
    knobs: {(preset, knob): value} changes to presets of the line-up (strategy.<preset>.<knob>)."""
    players = tuple(int(n) for n in players)
    if not players:
        raise UserError("no player count given")
    for n in players:
        game.check_players(n)
    if games < 1:
        raise UserError(f"--games must be at least 1 (got {games})")
    if strategies is not None and lineup is not None:
        raise UserError("give either --strategies (fixed seats) or --lineup (rotated), not both")
    if strategies is not None:
        names = tuple(strategies)
        for name in names:
            game.strategy(name)
        if len(set(players)) != 1:
            raise UserError(
                f"--strategies fixes one strategy per seat, so it takes a single player count (got "
                f"{', '.join(map(str, players))}); use --lineup to rotate strategies over several counts"
            )
        if len(names) != players[0]:
            raise UserError(
                f"--strategies needs exactly one strategy per seat: {players[0]} names for "
                f"{players[0]} players (got {len(names)})"
            )
        if mirror:
            raise UserError("--mirror reverses a rotated line-up; fixed seats (--strategies) do not rotate")
        mode = "fixed"
        all_rotations = False
    else:
        names = tuple(lineup) if lineup else tuple(game.default_lineup)
        for name in names:
            game.strategy(name)
        mode = "rotate"
    slots = tuple(dict.fromkeys(names))
    from .knobs import roster

    return Design(
        players, int(games), slots, names, mode, bool(all_rotations), roster(game, slots, knobs), bool(mirror)
    )
