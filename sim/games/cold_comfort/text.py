"""Readable text for `sim replay`: actions, events, and a text map of the city redrawn after setup and after
every scoring round (rebuilt from the event stream, so the engine keeps no strings)."""

from . import actions as A
from . import rules as R
from .city import OFF_U, OFF_V, ROT_H, ROT_STREETS, ROT_W
from .state import G, OX, OY
from .params import TILE_VALS

SIDE_NAMES = "NESW"
LETTERS = "ABCDEF"


def where(pos):
    """Grid position -> world coordinates text '(x,y)' (x east, y north, Main Street at x=0, y=0..2)."""
    return f"({pos % G - OX},{pos // G - OY})"


def seat_name(i, names=None):
    strat = (names or {}).get("seat_strategy")
    return f"seat {i}" + (f" [{LETTERS[i]}, {strat[i]}]" if strat and 0 <= i < len(strat) else f" [{LETTERS[i]}]")


def action_text(a):
    kind, f = A.CODEC.decode(a)
    at = where(f.get("pos", 0))
    if kind == "END":
        return "ends the turn"
    if kind == "MINE":
        return f"mines the camper at {at}"
    if kind == "HOST":
        return f"hosts the camper from {where(f['camper'])} in its hotel at {at}"
    if kind == "BUILD":
        return f"builds a size-{f['size']} hotel on the vacant lot at {at}"
    if kind == "BUILD_CAMPER":
        return f"builds a size-{f['size']} hotel on the occupied lot at {at} (the camper becomes its guest)"
    if kind == "RESIZE":
        return f"resizes its hotel at {at} to size {f['size']}"
    if kind == "FIRE":
        return f"sets fire to its empty hotel at {at}"
    if kind == "PASS":
        return f"passes the fire to the building at {at}"
    if kind == "STOP":
        return "lets the fire die out"
    if kind == "PLACE":
        return f"places city tile {f['tile'] + 1} with its south-west corner at {at}, rotated {90 * f['rot']} degrees"
    if kind == "LAND":
        return f"breaks the distance tie: the rolled {f['pips']} lands at {at}"
    return f"action {a}"


class CityMap:
    """A Python mirror of the grid, updated from events, for drawing."""

    def __init__(self):
        self.squares = {}  # (x, y) grid -> dict(val, die, owner, size)
        self.streets = {(OX, OY + y) for y in range(3)}

    def put_tile(self, tid, pos, rot):
        ax, ay = pos % G, pos // G
        w, h = int(ROT_W[rot]), int(ROT_H[rot])
        new = []
        for k in range(6):
            sq = (ax + int(OFF_U[rot, k]), ay + int(OFF_V[rot, k]))
            self.squares[sq] = {"val": int(TILE_VALS[tid, k]), "die": 0, "owner": -1, "size": 0}
            new.append(sq)
        mask = int(ROT_STREETS[tid, rot])
        if mask & 1:
            self.streets |= {(x, ay + h) for x in range(ax, ax + w)}
        if mask & 4:
            self.streets |= {(x, ay - 1) for x in range(ax, ax + w)}
        if mask & 2:
            self.streets |= {(ax + w, y) for y in range(ay, ay + h)}
        if mask & 8:
            self.streets |= {(ax - 1, y) for y in range(ay, ay + h)}
        for x, y in new:
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                mid, far = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                if mid not in self.squares and far in self.squares:
                    self.streets.add(mid)

    def sq(self, pos):
        return self.squares.setdefault((pos % G, pos // G), {"val": -1, "die": 0, "owner": -1, "size": 0})

    def token(self, xy):
        q = self.squares.get(xy)
        if q is None:
            return " : " if xy in self.streets else "   "
        if q["size"]:
            return f"{LETTERS[q['owner']]}{q['size']}" + ("*" if q["die"] else " ")
        if q["val"] == 0:
            return "PB "
        return f" {q['val']}" + ("c" if q["die"] else ".")

    def draw(self):
        pts = list(self.squares) + list(self.streets)
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        lines = [
            "      map (north up; ' 4.' vacant 4-lot, ' 4c' lot with a camper, 'B3 ' seat B's empty size-3 "
            "hotel, 'B3*' with a guest, 'PB ' public building, ' : ' street)"
        ]
        lines.append("      " + "".join(f"{x - OX:^3d}" for x in range(x0, x1 + 1)))
        for y in range(y1, y0 - 1, -1):
            lines.append(f"  {y - OY:3d} " + "".join(self.token((x, y)) for x in range(x0, x1 + 1)))
        return "\n".join(lines)


def _map(names):
    if "_cold_comfort_map" not in names:
        names["_cold_comfort_map"] = CityMap()
    return names["_cold_comfort_map"]


def _counts(a, b):
    """The per-value dice counts EV_ROLL packs into two numbers (three values each)."""
    base = R.EVENT_COUNT_BASE
    c = [a % base, a // base % base, a // base**2, b % base, b // base % base, b // base**2]
    return ", ".join(f"{n}x{v + 1}" for v, n in enumerate(c) if n)


def event_text(row, names):
    k, a, b, c, d = (int(x) for x in row)
    m = _map(names)
    if k == R.EV_SETUP_TILE:
        m.put_tile(a, b, c)
        return f"setup: city tile {a + 1} placed as setup tile {d + 1} at {where(b)}, rotated {90 * c} degrees"
    if k == R.EV_SETUP_DIE:
        m.sq(a)["die"] = b
        return f"setup: a rolled {b} camps on the vacant lot at {where(a)}"
    if k == R.EV_SETUP_DONE:
        return f"setup done: {a} tiles, {b} dice left in the pool"
    if k == R.EV_TURN:
        return f"--- turn {b + 1}: {seat_name(a, names)} to play, ${c}, {d} scoring rounds done"
    if k == R.EV_COLLECT:
        m.sq(b)["die"] = 0
        return f"collect: the guest at {where(b)} pays {seat_name(a, names)} ${c} and returns to the pool"
    if k == R.EV_MINE:
        m.sq(b)["die"] = 0
        return (
            f"mine: {seat_name(a, names)} rolls the camper from {where(b)}: {d}, gains ${d}; "
            "the die returns to the pool"
        )
    if k == R.EV_HOST:
        m.sq(b)["die"] = 0
        m.sq(c)["die"] = d
        return f"host: the {d} camping at {where(b)} checks into {seat_name(a, names)}'s hotel at {where(c)}"
    if k == R.EV_BUILD:
        q = m.sq(b)
        q["owner"], q["size"] = a, c
        cost, guest = d % R.EVENT_GUEST_BASE, d // R.EVENT_GUEST_BASE
        return f"build: {seat_name(a, names)} pays ${cost} for a size-{c} hotel at {where(b)}" + (
            f"; the camper ({guest}) becomes its guest" if guest else ""
        )
    if k == R.EV_RESIZE:
        m.sq(b)["size"] = d
        return f"{'upgrade' if d > c else 'downgrade'}: {seat_name(a, names)}'s hotel at {where(b)} from {c} to {d}"
    if k == R.EV_FIRE:
        return f"fire: {seat_name(a, names)} sets fire to its empty size-{c} hotel at {where(b)}"
    if k == R.EV_BURN:
        q = m.sq(b)
        q["owner"], q["size"], q["die"] = -1, 0, 0
        return f"burn: {seat_name(a, names)}'s size-{c} hotel at {where(b)} burns; insurance ${c} to its owner" + (
            f"; its guest ({d}) leaves unpaid" if d else ""
        )
    if k == R.EV_GUEST_LEAVES:
        m.sq(b)["die"] = 0
        return f"fire: the guest ({c}) leaves {seat_name(a, names)}'s hotel at {where(b)}; the hotel stands"
    if k == R.EV_FIRE_OUT:
        why = {
            R.FIRE_OUT_OCCUPIED: "an occupied hotel stops it",
            R.FIRE_OUT_PUBLIC: "a public building stops it",
            R.FIRE_OUT_NOTHING_NEXT: "no building next to it",
            R.FIRE_OUT_LET_DIE: "its owner lets it die out",
        }[a]
        return f"fire out at {where(b)}: {why}"
    if k == R.EV_SCORING:
        return f"=== scoring round {a}: {b} dice in the pool at the end of {seat_name(c, names)}'s turn"
    if k == R.EV_DRAW:
        return f"grow: {seat_name(a, names)} draws city tile {b + 1}"
    if k == R.EV_GROW:
        m.put_tile(a, b, c)
        return f"grow: city tile {a + 1} placed at {where(b)}, rotated {90 * c} degrees"
    if k == R.EV_NO_PLACE:
        return "grow: no legal place for the tile; the round scores without growing"
    if k == R.EV_ROLL:
        return f"roll: the whole pool ({a} dice): {_counts(b, c)}"
    if k == R.EV_LAND_TILE:
        m.sq(a)["die"] = b
        return f"roll: a {b} fills the new tile's lot at {where(a)}"
    if k == R.EV_LAND_HOTEL:
        m.sq(a)["die"] = b
        return f"roll: an extra {b} checks into {seat_name(c, names)}'s hotel at {where(a)}"
    if k == R.EV_LAND_LOT:
        m.sq(a)["die"] = b
        return f"roll: an extra {b} camps on the vacant lot at {where(a)}"
    if k == R.EV_RETURN:
        return f"roll: {b} extra {a}{'s' if b > 1 else ''} find no space and return to the pool"
    if k == R.EV_HOOD:
        if c == -1:
            return f"score: neighbourhood {a + 1} (worth {b}) is held by a street gang of strength {d}: nobody scores"
        if c == -2:
            return f"score: neighbourhood {a + 1} (worth {b}) has no block: nobody scores"
        return f"score: neighbourhood {a + 1} (worth {b}): best block {d}, {c} player{'s' if c > 1 else ''} share it"
    if k == R.EV_HOOD_WIN:
        return f"score:   {seat_name(b, names)} scores {c} (total {d})"
    if k == R.EV_MAP:
        return m.draw()
    if k == R.EV_CAP:
        return f"TURN CAP reached after {a} turns: the game stops (end_reason=turn_cap)"
    if k == R.EV_END:
        return f"end: {seat_name(a, names)}: {b} neighbourhood points + {c} for ${d} = {b + c}"
    return f"event {k} {a} {b} {c} {d}"
