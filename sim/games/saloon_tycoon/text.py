"""Readable wording of Saloon Tycoon actions and events for `sim replay`."""
from . import engine as E
from .params import CARD_NAMES, CHAR_NAMES, OPEN_NAMES, SECRET_NAMES, TILE_NAMES, MAX_OPEN

FP_NAMES = ("the Saloon's column", "A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4",
            "A1+A2", "A3+A4", "B1+B2", "B3+B4", "A2+A3", "B2+B3")
TASK_NAMES = {E.TK_CUBES: "cube placement", E.TK_DRAW: "draw", E.TK_PLAYOPT: "bonus card play",
              E.TK_ACTION: "bonus action", E.TK_CHEAP: "cheap cubes", E.TK_CBUILD: "card build",
              E.TK_MOVE: "character move", E.TK_DISCARD1: "discard"}
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


def where(arg):
    f, fp = (arg // 100) % 10, arg % 100
    return f"{FLOOR_NAMES[f] if 0 <= f < 3 else f} floor on {_n(FP_NAMES, fp, 'lot')}"


def action_text(a):
    kind, arg = divmod(int(a), E.ASTRIDE)
    if kind == E.K_END:
        return "ends the turn"
    if kind == E.K_EARN:
        return "Tycoon action: earn gold"
    if kind == E.K_DRAW:
        return "Tycoon action: draw cards"
    if kind == E.K_PLAY:
        return f"Tycoon action: play {card_name(arg)}"
    if kind in (E.K_BUILD, E.K_CBUILD):
        how = "Tycoon action: build" if kind == E.K_BUILD else "card build:"
        return f"{how} {tile_name(arg // 1000)} on the {where(arg)}"
    if kind in (E.K_BRIBE, E.K_MOVE):
        how = "Tycoon action: bribe" if kind == E.K_BRIBE else "card: move"
        return f"{how} {char_name(arg // 10)} to seat {arg % 10}"
    if kind == E.K_BUY:
        return f"free action: buy a cube for own tile #{arg}"
    if kind == E.K_STAKE:
        return f"free action: stake {claim_name(arg)}"
    if kind == E.K_PLACE:
        return f"places a cube on own tile #{arg}"
    if kind == E.K_DISCARD:
        return f"discards {card_name(arg)}"
    if kind == E.K_BPLAY:
        return f"bonus: plays {card_name(arg)}"
    if kind == E.K_SKIP:
        return "declines"
    if kind == E.K_CHEAP:
        return f"buys a cheap cube for own tile #{arg}"
    if kind == E.K_DROP:
        return f"drops {claim_name(arg)}"
    return f"action {a}"


def event_text(row, names):
    k, a, b, c, d = (int(x) for x in row[:5])
    if k == E.E_TURN:
        return f"-- seat {a} starts turn {b} (turn {c + 1} of the game)"
    if k == E.E_INCOME:
        return f"seat {a} takes {b} gold income (now {c})"
    if k == E.E_EARN:
        return f"seat {a} earns {b} gold (now {c})"
    if k == E.E_DRAW:
        return f"seat {a} draws {b} card(s) (hand {c})"
    if k == E.E_DISCARD:
        return f"seat {a} discards {card_name(b)}"
    if k == E.E_PLAY:
        how = "as a bonus" if c == 1 else "with the Play action"
        return f"seat {a} plays {card_name(b)} {how}"
    if k == E.E_BUILD:
        return f"seat {a} builds {tile_name(b)} on the {where(c)} for {d} gold"
    if k == E.E_CUBE:
        src = ("bought", "bonus", "card")[c] if 0 <= c < 3 else str(c)
        return f"seat {a} places a {src} cube on {tile_name(b)} (pile {d})"
    if k == E.E_CUBES_LOST:
        return f"seat {a} loses {b} cube(s): no open space"
    if k == E.E_FINISH:
        return f"seat {a} finishes {tile_name(b)} ({FLOOR_NAMES[c] if 0 <= c < 3 else c} floor): +{d} Rep"
    if k == E.E_ROOF:
        return f"seat {a} places a {'large' if b else 'small'} roof: +{c} Rep, +1 income"
    if k == E.E_NO_ROOF:
        return f"seat {a}: no {'large' if b else 'small'} roof left"
    if k == E.E_CHAR_IN:
        return f"{char_name(b)} arrives at seat {a}'s saloon"
    if k == E.E_CHAR_MOVE:
        return f"{char_name(a)} moves from seat {b} to seat {c} ({'bribe' if d == 0 else 'card'})"
    if k == E.E_CLAIM:
        return f"seat {a} stakes {claim_name(b)}: +{c} Rep"
    if k == E.E_GOLD:
        return f"seat {a} gains {b} gold (now {c})"
    if k == E.E_STEAL_GOLD:
        return f"seat {a} takes {c} gold from seat {b}"
    if k == E.E_STEAL_CARD:
        return f"seat {a} takes {card_name(c)} from seat {b}"
    if k == E.E_END_TRIGGER:
        return f"seat {a} emptied the cube pile: the end is triggered, every other player gets one final turn"
    if k == E.E_GAME_END:
        return f"final: seat {a} has {b} Rep and {c} gold"
    if k == E.E_KEEP:
        return f"seat {a} drops {claim_name(b)}"
    if k == E.E_LOT_REP:
        return f"seat {a} scores {b} Rep for the lot {_n(FP_NAMES, c, 'lot')}"
    if k == E.E_NO_CITIZEN:
        return f"seat {a} cannot attract {char_name(b)} in the final round"
    if k == E.E_EXTRA:
        return f"seat {a} gains {b} extra Tycoon action(s)"
    if k == E.E_RESHUFFLE:
        return f"the Tycoon discard pile is shuffled into a new deck ({a} cards)"
    if k == E.E_SKIP:
        return f"seat {a} declines the {TASK_NAMES.get(b, 'option')}"
    return f"event {k} {a} {b} {c} {d}"
