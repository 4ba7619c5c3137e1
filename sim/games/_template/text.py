"""Plain words for `sim replay`: one event row, or one action, as a sentence.

event_text(row, names): row is (kind, a, b, c, d) as the engine logged it with log_event; names is the replay's
{"seat_strategy": [strategy name per seat]}.  action_text(a): an action as encoded by legal_actions.
"""

from . import engine as E


def event_text(row, names):
    kind, seat, value = int(row[0]), int(row[1]), int(row[2])
    if kind == E.EV_ROLL:
        return f"seat {seat} rolls a {value}" + (" and busts" if value == 1 else "")
    return f"event {kind} seat {seat} value {value}"


def action_text(a):
    kind, _fields = E.CODEC.decode(a)  # a real game words each kind with its fields
    return {"ROLL": "roll", "HOLD": "hold (bank the turn total)"}[kind]
