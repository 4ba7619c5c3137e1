"""One game of ours driven move by move from Python: what both bridges (OpenSpiel, PettingZoo) and `sim duel` stand
on.  No rules are written here: every move goes through the game's jitted engine (setup, current_player,
legal_actions, apply_action, is_over, write_outcome), so a game played through a bridge is the engine's game.

Chance: the engine draws its own dice and shuffles from chance stream 0 of the state (`s.rng`) inside
`apply_action`; nothing outside can choose them.  A game starts from (run seed, seed index) exactly as in
`sim run`, so the same seed and the same actions give the same game as `sim replay`.  A copy (`Match.clone`) copies
the streams, so a clone replays the same dice.

What a seat may see: every state field except the engine's bookkeeping (the random streams and the event log) and
the game's `HIDDEN_FIELDS`, which are blanked except the seat's own row of a per-seat field (its hand) and the rows
the rules have revealed (BANG: a role once `role_known`, a special role once `special_state` is set).  The view is
what the game declares hidden; a field a game forgot to declare would show.

Action ids: the engine's actions are `sim.toolkit.ActionCodec` integers (a kind in the low bits, fields above),
far sparser than the actions a game has.  `ActionIndex` numbers them densely: kinds in declaration order, each
kind a block of 2**(its fields' bits) ids, the fields in mixed radix inside it.  It is a bijection on every
action the codec can express, fixed by the codec alone (the same id means the same action in every game of every
size), but a game whose fields are wide (a bid amount, a production card) has millions of ids, almost all never
legal.
"""

import hashlib

import numpy as np

from sim.game import get_game
from sim.kernel import new_states
from sim.presets import with_preset
from sim.rng import seed_streams

ENGINE_FIELDS = ("rng", "ev", "n_ev", "log_on")  # the engine's own bookkeeping: never part of a view
# hidden fields whose rows the rules reveal, by the flag field that says so (non-zero: revealed to everyone)
REVEALED = {"bang_dice": {"role": "role_known", "special": "special_state"}}


class ActionIndex:
    """Dense ids for a game's ActionCodec (see the module docstring): `id_of(code)`, `code_of(id)`, `size`."""

    def __init__(self, codec):
        self.codec = codec
        self.kind_mask = (1 << codec.kind_bits) - 1
        self.offset, self.layout = [], []
        at = 0
        for name in codec.kind_names:
            fields = [(f, codec.shift[f], int(codec.fields[f])) for f in codec.kinds[name]]
            self.offset.append(at)
            self.layout.append(fields)
            at += 1 << sum(b for _, _, b in fields)
        self.size = at
        self._starts = np.array(self.offset + [at], np.int64)

    def __deepcopy__(self, memo):
        return self  # immutable

    def id_of(self, code):
        code = int(code)
        k = code & self.kind_mask
        i, place = 0, 0
        for _, shift, bits in self.layout[k]:
            i |= ((code >> shift) & ((1 << bits) - 1)) << place
            place += bits
        return self.offset[k] + i

    def code_of(self, action_id):
        action_id = int(action_id)
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")
        k = int(np.searchsorted(self._starts, action_id, side="right") - 1)
        i, code = action_id - self.offset[k], k
        for _, shift, bits in self.layout[k]:
            code |= (i & ((1 << bits) - 1)) << shift
            i >>= bits
        return code


def resolve(game, params=None, preset=None):
    """(GameSpec, parameter vector) of a game name with its rule preset and parameter overrides ({name: value}
    as `--set` takes them); a UserError names a bad one."""
    spec = get_game(game) if isinstance(game, str) else game
    return spec, spec.params.resolve(with_preset(spec.name, preset, dict(params or {})))


class View:
    """Which parts of a game's state a seat may see, and the flat tensor built from them."""

    def __init__(self, spec):
        eng = spec.engine_module()
        self.max_players = eng.MAX_PLAYERS
        dtype = eng.STATE_DTYPE
        self.hidden = set(getattr(eng, "HIDDEN_FIELDS", ()))
        revealed = REVEALED.get(spec.name, {})
        self.fields = [f for f in dtype.names if f not in ENGINE_FIELDS]
        self.slices, self.blank = {}, []
        at = self.max_players  # the observing seat one-hot first
        for f in self.fields:
            shape = dtype[f].shape
            size = int(np.prod(shape, dtype=np.int64))
            self.slices[f] = (slice(at, at + size), shape)
            if f in self.hidden:
                per_seat = bool(shape) and shape[0] == eng.MAX_PLAYERS
                self.blank.append((slice(at, at + size), shape, per_seat, revealed.get(f)))
            at += size
        self.size = at
        # The state is copied into an aligned layout of the same fields (one cast), whose elements are then
        # gathered by base type: a few fancy indexes instead of one copy per field.
        self.aligned = np.dtype([(f, dtype[f]) for f in dtype.names], align=True)
        groups = {}
        for f in self.fields:
            base, off = self.aligned[f].base, self.aligned.fields[f][1]
            where = self.slices[f][0]
            g = groups.setdefault(base.str, [base, [], []])
            g[1].append(np.arange(where.start, where.stop))
            g[2].append(off // base.itemsize + np.arange(where.stop - where.start))
        self.gathers = [(b, np.concatenate(d), np.concatenate(s)) for b, d, s in groups.values()]

    def tensor(self, states, seat, out=None):
        """The seat's view of states[0] as one float32 vector (hidden parts zero)."""
        out = np.empty(self.size, np.float32) if out is None else out
        out[: self.max_players] = 0
        out[seat] = 1
        raw = states[:1].astype(self.aligned).view(np.uint8)
        for base, dest, src in self.gathers:
            out[dest] = raw[: raw.size // base.itemsize * base.itemsize].view(base)[src]
        for where, shape, per_seat, flag in self.blank:
            block = out[where].reshape(shape)
            if not per_seat:
                block[...] = 0
                continue
            keep = np.zeros(shape[0], bool)
            keep[seat] = True
            if flag is not None:
                keep |= states[flag][0] != 0
            block[~keep] = 0
        return out

    def text(self, states, seat):
        """The seat's view as `name=value` lines (fields that are zero left out)."""
        flat = self.tensor(states, seat)
        lines = [f"seat {seat} sees:"]
        for name in self.fields:
            where, shape = self.slices[name]
            v = flat[where]
            if v.any():
                v = v.reshape(shape)
                lines.append(f"{name}={v.tolist() if shape else v.item()}".replace(".0,", ",").replace(".0]", "]"))
        return "\n".join(lines)

    def digest(self, states, seat):
        return hashlib.sha1(self.tensor(states, seat).tobytes()).hexdigest()[:20]


class Match:
    """One game of `spec` at `players` seats with parameter vector `pvec`, from (seed, seed_index) as in sim run.

    current_player(), legal() (the engine's action codes), apply(code), over(), win_shares(), clone(),
    determinize(seat, seed) and events() (the text of what the last moves did, for render)."""

    def __init__(self, spec, players, pvec, seed=0, seed_index=0, log=False, _copy=None):
        self.spec, self.players, self.pvec = spec, int(players), pvec
        self.eng = spec.engine_module()
        if _copy is not None:
            self.states = _copy.states.copy()
            self.steps, self.history = _copy.steps, list(_copy.history)
            self._legal, self._over, self._player = _copy._legal, _copy._over, _copy._player
            self.log, self._names = _copy.log, None
            return
        spec.check_players(self.players)
        self.log, self._names = log, None
        self.states = new_states(self.eng, 1)
        seed_streams(self.states["rng"][0], np.uint64(seed), np.int64(seed_index))
        s = self.states[0]
        if log:
            self.states["log_on"][0] = 1
            self.states["n_ev"][0] = 0
        self.eng.setup(s, pvec, np.int64(self.players))
        self.steps, self.history = 0, []
        self._fresh()

    def _fresh(self):
        """Forget what was read from the state (after it changed)."""
        self._legal = self._over = self._player = None

    @property
    def s(self):
        return self.states[0]

    def __deepcopy__(self, memo):  # OpenSpiel clones a Python state by deep-copying its attributes
        return self.clone()

    def clone(self):
        return Match(self.spec, self.players, self.pvec, _copy=self)

    def over(self):
        """The game has ended, or reached the engine's step cap (recorded as capped by sim run too)."""
        if self._over is None:
            self._over = bool(self.eng.is_over(self.s)) or self.steps >= self.eng.MAX_STEPS
        return self._over

    def current_player(self):
        if self._player is None:
            self._player = int(self.eng.current_player(self.s))
        return self._player

    def legal(self):
        """The engine's legal action codes now (a read-only array)."""
        if self._legal is None:
            buf = np.empty(self.eng.MAX_ACTIONS, np.int64)
            n = int(self.eng.legal_actions(self.s, self.pvec, buf))
            if n > len(buf):
                raise RuntimeError(
                    f"{self.spec.name}: a legal-action list outgrew MAX_ACTIONS={len(buf)}; the engine must raise it"
                )
            self._legal = buf[:n]
            self._legal.flags.writeable = False
        return self._legal

    def apply(self, code):
        s = self.s
        if self.log:
            self.states["n_ev"][0] = 0
        self.eng.apply_action(s, self.pvec, np.int64(code))
        self.steps += 1
        self.history.append(int(code))
        self._fresh()

    def outcome(self):
        """(game_int, seat_int, seat_f, items) of the finished game, as write_outcome fills them."""
        spec, eng = self.spec, self.eng
        game_int = np.zeros(len(spec.game_columns), np.int64)
        seat_int = np.zeros((eng.MAX_PLAYERS, len(spec.seat_columns)), np.int64)
        seat_f = np.zeros((eng.MAX_PLAYERS, 2))
        items = np.zeros((eng.MAX_ITEMS, 3 + len(spec.item_columns)), np.int64)
        work = self.states.copy()  # write_outcome may finish bookkeeping in the state: leave ours as it is
        n_items = int(eng.write_outcome(work[0], self.pvec, game_int, seat_int, seat_f, items))
        return game_int, seat_int, seat_f, items[:n_items]

    def win_shares(self):
        """Each seat's win share (ties and teams split 1) once the game is over, else zeros."""
        if not self.over():
            return np.zeros(self.players)
        return self.outcome()[2][: self.players, 1].copy()

    def determinize(self, seat, seed):
        """Re-seed the chance stream from `seed` and re-sample what `seat` cannot see (the game's
        hidden.determinize); without one the hidden fields stay as they are (nothing to re-sample)."""
        import importlib.util

        self.states["rng"][0][0] = np.uint64(seed)  # the future dice are unknown to the seat as well
        package = self.spec.engine.rsplit(".", 1)[0]
        if importlib.util.find_spec(package + ".hidden") is not None:
            import importlib

            importlib.import_module(package + ".hidden").determinize(self.s, self.pvec, np.int64(seat))
        self._fresh()

    def events(self):
        """Text of the events the last move logged (with log=True)."""
        ev, n = self.states["ev"][0], int(self.states["n_ev"][0])
        text = self.spec.event_text or (lambda row, names: " ".join(map(str, row)))
        if self._names is None:  # what sim replay passes: seat labels, and room for a game's running notes
            self._names = {"seat_strategy": [f"player_{i}" for i in range(self.players)]}
        return [text(ev[j], self._names) for j in range(min(n, len(ev)))]


def action_text(spec, code):
    f = getattr(spec, "action_text", None)
    return f(int(code)) if f else f"action {int(code)}"
