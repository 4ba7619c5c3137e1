"""Readable wording of Raccoon Tycoon actions and events for `sim replay`."""

from . import engine as E
from .params import BTYPE_NAMES, BTYPE_UPGRADE_NAMES, COMMODITIES, RAILROADS, TOWNS

# tile id -> building type is game-specific (shuffled); events carry the type next to the tile id.


def _name(names, seat):
    """'seat k (label)': names is a list of seat labels or the replay's {'seat_strategy': [...]} dict."""
    seat = int(seat)
    labels = names.get("seat_strategy") if isinstance(names, dict) else names
    if labels is not None and 0 <= seat < len(labels):
        return f"seat {seat} ({labels[seat]})"
    return f"seat {seat}"


def _take(action):
    """What a production action takes, in words."""
    _kind, f = E.CODEC.decode(action)
    parts = [f"{f[c]} {c}" for c in COMMODITIES if f[c]]
    return ", ".join(parts) if parts else "nothing"


# How each action kind reads; {field} is the action's field, commodities, railroads and towns by name
_ACTION_WORDS = {
    "PROD": "produce with P&P card {card}, taking {take}",
    "SELL": "sell {qty} {commodity}{export}",
    "AUCTION": "auction the {railroad} railroad (offer slot {slot})",
    "BUY": "buy building tile #{tile}",
    "UPGRADE": "upgrade building tile #{tile} to its +2 side",
    "TOWN_NAMED": "buy the town {town} with its named commodity",
    "TOWN_ANY": "buy the town {town} with any commodities",
    "BID": "bid ${amount}",
    "PASS_BID": "pass (out of this auction)",
    "TF_TARGET": "Trading Floor: buy {commodity} from seat {seat}",
    "TF_SKIP": "Trading Floor: buy nothing",
    "TF_QTY": "Trading Floor: buy {qty} {commodity}",
    "BONUS": "use the bonus building on tile #{tile}",
    "BONUS_ANY": "bonus token: {commodity}",
    "DISCARD": "discard {qty} {commodity} (storage limit)",
    "PAY": "pay {qty} {commodity} for the town",
    "COMP": "take a free {commodity} token",
    "END_TURN": "end the turn",
    "DECLARE": "declare sudden-death victory",
    "PASS": "no action possible: pass",
}


def action_text(action):
    kind, f = E.CODEC.decode(action)
    if kind == "PROD":
        f = {"card": f["card"] + 1, "take": _take(action)}
    f.update(
        {
            name: table[f[name]]
            for name, table in (("commodity", COMMODITIES), ("railroad", RAILROADS), ("town", TOWNS))
            if name in f
        }
    )
    if kind == "SELL":
        f["export"] = " (Export Company +$ first)" if f["export"] else ""
    if kind == "AUCTION":
        f["slot"] += 1
    return _ACTION_WORDS[kind].format(**f)


def _bname(bt, upgraded=False):
    bt = int(bt)
    if upgraded:
        return BTYPE_UPGRADE_NAMES[bt if bt < 6 else 6]
    return BTYPE_NAMES[bt]


def event_text(row, names=None):
    kind, a, b, c, d = (int(x) for x in row[:5])
    who = _name(names, a)
    if kind == E.E_START:
        return f"{a} players; {_name(names, b)} is the start player"
    if kind == E.E_COMP:
        return f"{who} takes a free {COMMODITIES[b]} token"
    if kind == E.E_TURN:
        return f"--- round {b}, turn {c}: {who} to act"
    if kind == E.E_PROD:
        return f"{who} plays P&P card {b + 1} and takes {_take(c)}"
    if kind == E.E_TF:
        return f"{who} uses the Trading Floor: buys {d // 1000} {COMMODITIES[c]} from {_name(names, b)} at ${d % 1000}"
    if kind == E.E_BONUS:
        where = f" (tile #{b})" if b >= 0 else " (Machine Shop / Water Mill)"
        return f"{who} gets {d} bonus {COMMODITIES[c]}" + where
    if kind == E.E_PRICE:
        return f"{COMMODITIES[a]} price +{b} -> ${c}"
    if kind == E.E_DISCARD:
        return f"{who} discards {c} {COMMODITIES[b]} (storage limit)"
    if kind == E.E_DRAW:
        return f"{who} draws {b} P&P card(s), hand {c}"
    if kind == E.E_RESHUFFLE:
        return f"the P&P discards are reshuffled into a new deck of {a}"
    if kind == E.E_SELL:
        return f"{who} sells {c} {COMMODITIES[b]} at ${d // 2} each (${c * (d // 2)})" + (
            " after an Export raise" if d & 1 else ""
        )
    if kind == E.E_FIRM:
        return f"{who} earns ${c} from the {_bname(b)}"
    if kind == E.E_AUCTION:
        return f"{who} auctions the {RAILROADS[b]} railroad (minimum bid ${c})"
    if kind == E.E_BID:
        return f"{who} bids ${b}"
    if kind == E.E_PASS:
        return f"{who} passes" + (" (cannot afford the next bid)" if b else "")
    if kind == E.E_WON:
        return f"{who} wins the {RAILROADS[b]} railroad for ${c}"
    if kind == E.E_UNSOLD:
        return f"nobody bids: the {RAILROADS[a]} railroad stays on offer"
    if kind == E.E_COMMISSION:
        return f"{who} collects ${b} Auction House commission"
    if kind == E.E_RR_REVEAL:
        return f"the {RAILROADS[a]} railroad is turned up (slot {b + 1})"
    if kind == E.E_BUY:
        return f"{who} buys the {_bname(c)} (tile #{b}) for ${d}"
    if kind == E.E_UPGRADE:
        return f"{who} upgrades the {_bname(c)} to the {_bname(c, True)} for ${d}"
    if kind == E.E_BLD_REVEAL:
        return f"building offer slot {c + 1}: {_bname(b)} (tile #{a})"
    if kind == E.E_TOWN:
        return f"{who} buys the town {TOWNS[b]} for {d} " + (
            "of its named commodity" if c == 0 else "commodities of any kind"
        )
    if kind == E.E_PAY:
        return f"{who} pays {c} {COMMODITIES[b]}"
    if kind == E.E_TOWN_REVEAL:
        return f"the town {TOWNS[a]} is turned up"
    if kind == E.E_TRIGGER:
        why = {
            "towns": "the last town is bought",
            "railroads": "the last railroad is sold",
            "deck_out": "the P&P deck and every hand are empty",
        }.get(E.END_LABELS[a], E.END_LABELS[a])
        return f"{why}: the round is finished, then the game ends"
    if kind == E.E_END:
        return f"game over ({E.END_LABELS[a]}) after round {b}"
    if kind == E.E_DECLARE:
        return f"{who} holds ${b} and declares sudden-death victory"
    if kind == E.E_NOTHING:
        return f"{who} has no legal action and passes"
    return f"event {kind} {a} {b} {c} {d}"
