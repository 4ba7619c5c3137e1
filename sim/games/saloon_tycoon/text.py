"""Readable wording of Saloon Tycoon actions and events for `sim replay`."""

from . import actions as A
from . import events as EV
from . import state as ST
from .params import CARD_NAMES, CHAR_NAMES, MAX_OPEN, OPEN_NAMES, SECRET_NAMES, TILE_NAMES

FP_NAMES = (
    "the Saloon's column",
    "A1",
    "A2",
    "A3",
    "A4",
    "B1",
    "B2",
    "B3",
    "B4",
    "A1+A2",
    "A3+A4",
    "B1+B2",
    "B3+B4",
    "A2+A3",
    "B2+B3",
)
TASK_NAMES = {
    ST.TK_CUBES: "cube placement",
    ST.TK_DRAW: "draw",
    ST.TK_PLAYOPT: "bonus card play",
    ST.TK_ACTION: "bonus action",
    ST.TK_CHEAP: "cheap cubes",
    ST.TK_CBUILD: "card build",
    ST.TK_MOVE: "character move",
    ST.TK_DISCARD1: "discard",
}
FLOOR_NAMES = ("1st", "2nd", "3rd")


def _n(seq, i, what):
    return seq[i] if 0 <= i < len(seq) else f"{what} #{i}"


def tile_name(t):
    return _n(TILE_NAMES, t, "tile")


def card_name(c):
    return _n(CARD_NAMES, c, "card")


def char_name(c):
    return _n(CHAR_NAMES, c, "character")


def claim_name(g):
    if g < MAX_OPEN:
        return f"open claim {_n(OPEN_NAMES, g, 'claim')}"
    return f"secret claim {_n(SECRET_NAMES, g - MAX_OPEN, 'claim')}"


def where(floor, footprint):
    return f"{FLOOR_NAMES[floor] if 0 <= floor < 3 else floor} floor on {_n(FP_NAMES, footprint, 'lot')}"


def action_text(a):
    kind, f = A.CODEC.decode(a)
    if kind == "END_TURN":
        return "ends the turn"
    if kind == "EARN":
        return "Tycoon action: earn gold"
    if kind == "DRAW":
        return "Tycoon action: draw cards"
    if kind == "PLAY":
        return f"Tycoon action: play {card_name(f['card'])}"
    if kind in ("BUILD", "CARD_BUILD"):
        how = "Tycoon action: build" if kind == "BUILD" else "card build:"
        return f"{how} {tile_name(f['tile'])} on the {where(f['floor'], f['footprint'])}"
    if kind in ("BRIBE", "MOVE"):
        how = "Tycoon action: bribe" if kind == "BRIBE" else "card: move"
        return f"{how} {char_name(f['character'])} to seat {f['seat']}"
    if kind == "BUY":
        return f"free action: buy a cube for own tile #{f['own_tile']}"
    if kind == "STAKE":
        return f"free action: stake {claim_name(f['claim'])}"
    if kind == "PLACE":
        return f"places a cube on own tile #{f['own_tile']}"
    if kind == "DISCARD":
        return f"discards {card_name(f['card'])}"
    if kind == "BONUS_PLAY":
        return f"bonus: plays {card_name(f['card'])}"
    if kind == "SKIP":
        return "declines"
    if kind == "CHEAP_CUBE":
        return f"buys a cheap cube for own tile #{f['own_tile']}"
    return f"drops {claim_name(f['claim'])}"  # DROP


def event_text(row, names):
    k, a, b, c, d = (int(x) for x in row[:5])
    if k == EV.E_TURN:
        return f"-- seat {a} starts turn {b} (turn {c + 1} of the game)"
    if k == EV.E_INCOME:
        return f"seat {a} takes {b} gold income (now {c})"
    if k == EV.E_EARN:
        return f"seat {a} earns {b} gold (now {c})"
    if k == EV.E_DRAW:
        return f"seat {a} draws {b} card(s) (hand {c})"
    if k == EV.E_DISCARD:
        return f"seat {a} discards {card_name(b)}"
    if k == EV.E_PLAY:
        how = "as a bonus" if c == 1 else "with the Play action"
        return f"seat {a} plays {card_name(b)} {how}"
    if k == EV.E_BUILD:
        floor, footprint = divmod(c, EV.WHERE_FLOOR)
        return f"seat {a} builds {tile_name(b)} on the {where(floor, footprint)} for {d} gold"
    if k == EV.E_CUBE:
        src = ("bought", "bonus", "card")[c] if 0 <= c < 3 else str(c)
        return f"seat {a} places a {src} cube on {tile_name(b)} (pile {d})"
    if k == EV.E_CUBES_LOST:
        return f"seat {a} loses {b} cube(s): no open space"
    if k == EV.E_FINISH:
        return f"seat {a} finishes {tile_name(b)} ({FLOOR_NAMES[c] if 0 <= c < 3 else c} floor): +{d} Rep"
    if k == EV.E_ROOF:
        return f"seat {a} places a {'large' if b else 'small'} roof: +{c} Rep, +1 income"
    if k == EV.E_NO_ROOF:
        return f"seat {a}: no {'large' if b else 'small'} roof left"
    if k == EV.E_CHAR_IN:
        return f"{char_name(b)} arrives at seat {a}'s saloon"
    if k == EV.E_CHAR_MOVE:
        return f"{char_name(a)} moves from seat {b} to seat {c} ({'bribe' if d == 0 else 'card'})"
    if k == EV.E_CLAIM:
        return f"seat {a} stakes {claim_name(b)}: +{c} Rep"
    if k == EV.E_GOLD:
        return f"seat {a} gains {b} gold (now {c})"
    if k == EV.E_STEAL_GOLD:
        return f"seat {a} takes {c} gold from seat {b}"
    if k == EV.E_STEAL_CARD:
        return f"seat {a} takes {card_name(c)} from seat {b}"
    if k == EV.E_END_TRIGGER:
        return f"seat {a} emptied the cube pile: the end is triggered, every other player gets one final turn"
    if k == EV.E_GAME_END:
        return f"final: seat {a} has {b} Rep and {c} gold"
    if k == EV.E_KEEP:
        return f"seat {a} drops {claim_name(b)}"
    if k == EV.E_LOT_REP:
        return f"seat {a} scores {b} Rep for the lot {_n(FP_NAMES, c, 'lot')}"
    if k == EV.E_NO_CITIZEN:
        return f"seat {a} cannot attract {char_name(b)} in the final round"
    if k == EV.E_EXTRA:
        return f"seat {a} gains {b} extra Tycoon action(s)"
    if k == EV.E_RESHUFFLE:
        return f"the Tycoon discard pile is shuffled into a new deck ({a} cards)"
    if k == EV.E_SKIP:
        return f"seat {a} declines the {TASK_NAMES.get(b, 'option')}"
    return f"event {k} {a} {b} {c} {d}"
