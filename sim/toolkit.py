"""The engine toolkit: the mechanisms every game's engine needs, written once.

- ActionCodec: a game's actions as named kinds with named fields, packed into one int64.  The engine, the
  strategy, text.py, the tests and `sim audit` all encode and decode through it, so no code splits an action by
  hand (`a >> 8`, `a // 100000`).
- push: the one way to add an action to the legal-action list.  It never writes past the list and never drops an
  action silently: the count it returns keeps growing, and the kernel stops a run whose count exceeds MAX_ACTIONS
  with a clear error (sim.runner); the contract test asserts it never happens under random play.
- Columns: outcome columns written by generated named indices (seat_int[i, SEAT.win]) from the one tuple of names
  the GameSpec declares, so adding a column cannot silently shift the others.
- Decks and ranks: drawing with a reshuffle of the discards, and the one meaning of rank, win and win share.

Everything jitted here is inline="always": it compiles into the engine's own functions, as fast as the
hand-written arithmetic it replaces.
"""

from collections import namedtuple

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload

from .rng import shuffle

# --------------------------------------------------------------------------------------------------- actions


class ActionCodec:
    """Actions of one game: `kinds` maps each kind's name to the names of its fields (in encoding order);
    `fields` maps each field name to its width in bits (a field may serve several kinds).  An action is
    kind | field1 << shift1 | ...: the kind in the low bits, each field at a fixed place for the whole game.

    Declared once in the game's actions.py:

        CODEC = ActionCodec(kinds={"PASS": (), "BUILD": ("tile", "spot")}, fields={"tile": 5, "spot": 4})
        PASS, BUILD = CODEC.kind_ids("PASS", "BUILD")
        encode_build = CODEC.encoder("BUILD")        # jitted (tile, spot) -> action
        tile_of, spot_of = CODEC.getters("tile", "spot")   # jitted action -> field
        kind_of = CODEC.kind_getter()                # jitted action -> kind id

    and from Python (text, tests, audit): CODEC.encode("BUILD", tile=3, spot=1), CODEC.decode(a) ->
    ("BUILD", {"tile": 3, "spot": 1}), CODEC.kind_name(a).
    """

    def __init__(self, kinds, fields=None, kind_bits=None, overlap=False):
        self.kinds = {str(k): tuple(v) for k, v in dict(kinds).items()}
        self.fields = dict(fields or {})
        unknown = {f for fs in self.kinds.values() for f in fs} - set(self.fields)
        if unknown:
            raise ValueError(f"fields used by a kind but given no width: {sorted(unknown)}")
        self.kind_names = tuple(self.kinds)
        self.kind_bits = kind_bits or max(1, (len(self.kind_names) - 1).bit_length())
        if len(self.kind_names) > 1 << self.kind_bits:
            raise ValueError(f"{len(self.kind_names)} kinds do not fit in {self.kind_bits} bits")
        # overlap=True: a field takes the lowest place clear of the fields it shares a kind with (the kind tells
        # which fields an action has), for games whose kinds together carry more than 62 bits of fields
        self.shift = {}
        at = self.kind_bits
        for name, bits in self.fields.items():
            if overlap:
                beside = {f for fs in self.kinds.values() if name in fs for f in fs} & set(self.shift)
                taken = [(self.shift[f], self.shift[f] + int(self.fields[f])) for f in beside]
                at = min(
                    c
                    for c in [self.kind_bits] + [end for _, end in taken]
                    if all(c + int(bits) <= lo or c >= end for lo, end in taken)
                )
            self.shift[name] = at
            at += int(bits)
        self.bits = max([self.kind_bits] + [self.shift[f] + int(b) for f, b in self.fields.items()])
        if self.bits > 62:
            raise ValueError(f"the action fields take {self.bits} bits; an action must fit in 62")

    # ---- Python side
    def kind_id(self, name):
        try:
            return self.kind_names.index(name)
        except ValueError:
            raise KeyError(f"no action kind {name!r}; kinds: {', '.join(self.kind_names)}") from None

    def kind_ids(self, *names):
        return tuple(self.kind_id(n) for n in names) if len(names) != 1 else self.kind_id(names[0])

    def mask(self, field):
        return (1 << int(self.fields[field])) - 1

    def encode(self, kind, **values):
        """The action of kind `kind` (a name or id) with the given field values (missing fields are 0)."""
        k = self.kind_id(kind) if isinstance(kind, str) else int(kind)
        name = self.kind_names[k]
        extra = set(values) - set(self.kinds[name])
        if extra:
            raise KeyError(f"action kind {name} has fields {self.kinds[name]}, not {sorted(extra)}")
        a = k
        for f, v in values.items():
            v = int(v)
            if not 0 <= v <= self.mask(f):
                raise ValueError(f"field {f}={v} does not fit in {self.fields[f]} bits")
            a |= v << self.shift[f]
        return a

    def kind_name(self, a):
        return self.kind_names[int(a) & ((1 << self.kind_bits) - 1)]

    def field(self, a, name):
        return (int(a) >> self.shift[name]) & self.mask(name)

    def decode(self, a):
        """(kind name, {field: value}) of action a."""
        kind = self.kind_name(a)
        return kind, {f: self.field(a, f) for f in self.kinds[kind]}

    # ---- jitted side (generated; inline="always" so they cost what the hand-written shifts cost)
    def kind_getter(self):
        kmask = (1 << self.kind_bits) - 1

        @nb.njit(inline="always")
        def kind_of(a):
            return a & kmask

        return kind_of

    def getters(self, *names):
        out = []
        for name in names:
            shift, mask = self.shift[name], self.mask(name)

            def make(shift=shift, mask=mask):
                @nb.njit(inline="always")
                def get(a):
                    return (a >> shift) & mask

                return get

            out.append(make())
        return tuple(out) if len(out) != 1 else out[0]

    def encoder(self, kind):
        """Jitted encode of one kind: positional arguments are its fields in declared order."""
        k = self.kind_id(kind)
        shifts = tuple(self.shift[f] for f in self.kinds[kind])
        args = ", ".join(f"f{i}" for i in range(len(shifts)))
        body = " | ".join([str(k)] + [f"(f{i} << {sh})" for i, sh in enumerate(shifts)])
        src = f"def encode({args}):\n    return np.int64({body})\n"
        scope = {"np": np}
        exec(compile(src, f"<ActionCodec.encoder {kind}>", "exec"), scope)
        return nb.njit(inline="always")(scope["encode"])


@nb.njit(inline="always")
def push(out, n, a):
    """Append action a to the legal list out[:n]; returns n + 1.  Past the list's end nothing is written but the
    count still grows, so an overflow is never silent: the kernel stops the run with an error naming MAX_ACTIONS."""
    if n < out.shape[0]:
        out[n] = a
        return n + 1
    # Two returns on purpose: with one shared `return n + 1` after the store, numba leaves reference-counting calls
    # on the list in every caller that its pruning pass would otherwise remove (Cold Comfort's legal_actions went
    # from 5 to 28 increments and ran 9% slower; docs/PERFORMANCE.md).
    return n + 1


# --------------------------------------------------------------------------------------------------- outcome


def Columns(kind, names):
    """Named indices of an outcome table's columns: SEAT = Columns("Seat", SEAT_COLUMNS) gives SEAT.win == the
    index of 'win'.  A namedtuple of ints, which numba reads as compile-time constants."""
    return namedtuple(f"{kind}Columns", names)(*range(len(names)))


@nb.njit(inline="always")
def rank_seats(key, n, rank):
    """rank[i] = 1 + the number of seats whose key is strictly greater (higher key is better; ties share a rank,
    the next rank skips: 1, 1, 3).  The one meaning of rank in the results."""
    for i in range(n):
        r = 1
        for j in range(n):
            if key[j] > key[i]:
                r += 1
        rank[i] = r


@nb.njit(inline="always")
def rank_seats_lowest(key, n, rank):
    """rank_seats for a game the lowest key wins (e.g. points left open): 1 + the seats strictly lower."""
    for i in range(n):
        r = 1
        for j in range(n):
            if key[j] < key[i]:
                r += 1
        rank[i] = r


@nb.njit(inline="always")
def winners(rank, n):
    """How many seats share first place."""
    k = 0
    for i in range(n):
        if rank[i] == 1:
            k += 1
    return k


# --------------------------------------------------------------------------------------------------- decks


@nb.njit(inline="always")
def refill(rng, deck, discard, n_discard):
    """An empty draw pile takes the discards, shuffled with the chance stream; returns its new size (the caller
    sets the discard count to 0)."""
    for i in range(n_discard):
        deck[i] = discard[i]
    shuffle(rng, 0, deck, n_discard)
    return n_discard


@nb.njit(inline="always")
def put(pile, n, card):
    """Put card on a pile of n cards if it has room; returns the new size."""
    if n < pile.shape[0]:
        pile[n] = card
        return n + 1
    return n


def low_bit(x):
    """Index of the lowest set bit of the int64 x (x != 0); jitted: LLVM's cttz."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(low_bit)
def _low_bit_jit(x):
    return lambda x: trailing_zeros(x)
