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


def _take(packed):
    parts = []
    for c in range(6):
        x = (int(packed) >> (3 * c)) & 7
        if x:
            parts.append(f"{x} {COMMODITIES[c]}")
    return ", ".join(parts) if parts else "nothing"


def action_text(action):
    a = int(action)
    kind, arg = a >> 24, a & 0xFFFFFF
    if kind == E.A_PROD:
        return f"produce with P&P card {(arg >> 18) + 1}, taking {_take(arg & 0x3FFFF)}"
    if kind == E.A_SELL:
        c, q, x = (arg >> 8) & 15, arg & 255, (arg >> 12) & 1
        return f"sell {q} {COMMODITIES[c]}" + (" (Export Company +$ first)" if x else "")
    if kind == E.A_AUCTION:
        return f"auction the {RAILROADS[arg & 255]} railroad (offer slot {(arg >> 8) + 1})"
    if kind == E.A_BUY:
        return f"buy building tile #{arg}"
    if kind == E.A_UPGRADE:
        return f"upgrade building tile #{arg} to its +2 side"
    if kind == E.A_TOWN_NAMED:
        return f"buy the town {TOWNS[arg]} with its named commodity"
    if kind == E.A_TOWN_ANY:
        return f"buy the town {TOWNS[arg]} with any commodities"
    if kind == E.A_BID:
        return f"bid ${arg}"
    if kind == E.A_PASS_BID:
        return "pass (out of this auction)"
    if kind == E.A_TF_TARGET:
        return f"Trading Floor: buy {COMMODITIES[arg & 255]} from seat {arg >> 8}"
    if kind == E.A_TF_SKIP:
        return "Trading Floor: buy nothing"
    if kind == E.A_TF_QTY:
        return f"Trading Floor: buy {arg & 255} {COMMODITIES[(arg >> 8) & 15]}"
    if kind == E.A_BONUS:
        return f"use the bonus building on tile #{arg}"
    if kind == E.A_BONUS_ANY:
        return f"bonus token: {COMMODITIES[arg]}"
    if kind == E.A_DISCARD:
        return f"discard {arg & 255} {COMMODITIES[(arg >> 8) & 15]} (storage limit)"
    if kind == E.A_PAY:
        return f"pay {arg & 255} {COMMODITIES[(arg >> 8) & 15]} for the town"
    if kind == E.A_COMP:
        return f"take a free {COMMODITIES[arg]} token"
    if kind == E.A_END_TURN:
        return "end the turn"
    if kind == E.A_DECLARE:
        return "declare sudden-death victory"
    if kind == E.A_PASS:
        return "no action possible: pass"
    return f"unknown action {a}"


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
        return (f"{who} sells {c} {COMMODITIES[b]} at ${d // 2} each (${c * (d // 2)})"
                + (" after an Export raise" if d & 1 else ""))
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
        return (f"{who} buys the town {TOWNS[b]} for {d} "
                + ("of its named commodity" if c == 0 else "commodities of any kind"))
    if kind == E.E_PAY:
        return f"{who} pays {c} {COMMODITIES[b]}"
    if kind == E.E_TOWN_REVEAL:
        return f"the town {TOWNS[a]} is turned up"
    if kind == E.E_TRIGGER:
        why = {"towns": "the last town is bought", "railroads": "the last railroad is sold",
               "deck_out": "the P&P deck and every hand are empty"}.get(E.END_LABELS[a], E.END_LABELS[a])
        return f"{why}: the round is finished, then the game ends"
    if kind == E.E_END:
        return f"game over ({E.END_LABELS[a]}) after round {b}"
    if kind == E.E_DECLARE:
        return f"{who} holds ${b} and declares sudden-death victory"
    if kind == E.E_NOTHING:
        return f"{who} has no legal action and passes"
    return f"event {kind} {a} {b} {c} {d}"
