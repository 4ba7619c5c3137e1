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
- field (issue 36): every seat of every game is drawn from a mixture over the line-up's strategies (an equilibrium
  field, `--lineup field`), by a hash of (draw seed, game index, seat): a pure function of the game index like the
  other modes, so any thread count, chunking, resume or replay seats the same strategies.  With a `hero` slot, the
  hero sits in seat (index mod n) and only the other seats are drawn (a strategy measured against the field).
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
    mixture: tuple = ()  # field mode: the weight of each line-up entry
    hero: str = ""  # field mode: a slot that sits in seat (index mod n) of every game, the others drawn
    draw_seed: int = 0  # field mode: the seed of the seat draws
    field_file: str = ""  # field mode: the field file it came from (recorded, not read)

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
        if self.mode == "field":
            d["field"] = {
                "mixture": [float(w) for w in self.mixture],
                "hero": self.hero,
                "draw_seed": int(self.draw_seed),
                "file": self.field_file,
            }
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
            *(
                (tuple(d["field"]["mixture"]), d["field"]["hero"], int(d["field"]["draw_seed"]), d["field"]["file"])
                if "field" in d
                else ()
            ),
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
        if self.mode == "field":
            return self._field_assign(g, players, local, max_players)
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

    def _field_assign(self, g, players, local, max_players):
        w = np.asarray(self.mixture, float)
        cum = np.cumsum(w / w.sum())
        cum[-1] = 1.0
        slot_of = {name: i for i, name in enumerate(self.slots)}
        pool = np.array([slot_of[name] for name in self.lineup], dtype=np.int64)
        seats = np.arange(max_players, dtype=np.uint64)
        u = unit_hash(self.draw_seed, g.astype(np.uint64)[:, None] * np.uint64(4096) + seats[None, :])
        strat = pool[np.minimum(np.searchsorted(cum, u, side="right"), len(pool) - 1)]
        strat[seats[None, :].astype(np.int64) >= players[:, None]] = -1
        if self.hero:
            rotation = local % players
            rows = np.arange(len(g))
            strat[rows, rotation] = slot_of[self.hero]
        else:
            rotation = np.zeros_like(g)
        seed_index = g - rotation if (self.all_rotations and self.hero) else g.copy()
        return players, seed_index, rotation, strat


def unit_hash(seed, keys):
    """Uniform numbers in [0, 1) from a splitmix64 hash of (seed, key) (numpy, vectorised over uint64 keys)."""
    with np.errstate(over="ignore"):
        z = keys.astype(np.uint64) + np.uint64((int(seed) * 0x9E3779B97F4A7C15 + 0x5EED) % 2**64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def field_design(game, players, games, field_arg, knobs=None):
    """The Design of `--lineup field` (the game's shipped field at the run's player count) or
    `--lineup field:<file>` (a field file): every seat drawn from the field's mixture."""
    from .field import load_field

    if len(players) != 1:
        raise UserError(
            f"--lineup {field_arg} draws from a field of one player count (got {', '.join(map(str, players))})"
        )
    path = field_arg.split(":", 1)[1] if ":" in field_arg else None
    names, weights, where = load_field(game, players[0], path)
    slots = tuple(dict.fromkeys(names))
    from .knobs import roster

    return Design(
        tuple(players), int(games), slots, tuple(names), "field", False, roster(game, slots, knobs), False,
        tuple(weights), "", 0, str(where),
    )  # fmt: skip


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
    if lineup is not None and any(str(n).split(":", 1)[0] == "field" for n in lineup):
        if len(lineup) != 1:
            raise UserError(f"--lineup field draws every seat: give it alone (got {', '.join(map(str, lineup))})")
        if strategies is not None or mirror or all_rotations:
            raise UserError(
                f"--lineup {lineup[0]} draws every seat; it takes no --strategies, --mirror or --all-rotations"
            )
        if games < 1:
            raise UserError(f"--games must be at least 1 (got {games})")
        for n in players:
            game.check_players(n)
        return field_design(game, players, games, str(lineup[0]), knobs)
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
