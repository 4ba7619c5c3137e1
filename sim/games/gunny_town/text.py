"""Readable text for `sim replay`: one line per action and per logged event."""

from . import engine as E
from .params import (
    AMMO_NAMES,
    CHEST_NAMES,
    JOB_NAMES,
    LOC_NAMES,
    LOC_AT,
    MISSIONS,
    SECRETS,
    STORE_NAMES,
    WEAPON_NAMES,
    W,
)

CARD = tuple(a.capitalize() for a in AMMO_NAMES) + ("Fake",)
END = ("-", "a player reached the VP target", "the missions ran out", "the round cap")
ROUND = ("cancelled", "challenger wins", "defender wins", "tie")
CHOICE = ("hit", "hit and take the job", "frighten the horse", "frighten the horse and take the job")
ROB = ("the Bank", "a store", "the Saloon")


def square(sq):
    sq = int(sq)
    loc = LOC_AT[sq] if 0 <= sq < len(LOC_AT) else -1
    where = f"({sq % W},{sq // W})"
    return f"{LOC_NAMES[loc]} {where}" if loc >= 0 else f"street {where}"


def mission(m):
    m = int(m)
    return f"T{MISSIONS[m][3]} '{MISSIONS[m][0]}' (#{m})"


def job(j):
    return JOB_NAMES[int(j)] if 0 <= int(j) < len(JOB_NAMES) else "none"


def action_text(a):
    kind, f = E.CODEC.decode(a)
    words = {
        "ENTER": lambda: (
            "enters at the "
            + ("Stables (free horse)" if f["entry"] == E.ENTRY_STABLES else "Armory (free palm pistol)")
        ),
        "MOVE": lambda: f"moves to {square(f['square'])}",
        "MOVE2": lambda: f"extra move to {square(f['square'])}",
        "END": lambda: "ends the turn",
        "DUEL": lambda: f"challenges seat {f['seat']} to a duel",
        "CCARD": lambda: f"lays {CARD[f['card']]} face down",
        "DCARD": lambda: "fakes (keeps his card)" if f["card"] == E.FAKE else f"lays {CARD[f['card']]} face down",
        "WIN": lambda: f"chooses to {CHOICE[f['choice']]}",
        "TAKE_JOB": lambda: f"takes the {job(f['job'])} badge",
        "PICK_GN": lambda: f"picks up {f['amount']} GN",
        "PICK_AMMO": lambda: f"picks up {f['amount']} ammunition",
        "BUY_UNIT": lambda: f"buys one unit at the {STORE_NAMES[f['store']]}",
        "BUY_STORE": lambda: f"buys the {STORE_NAMES[f['store']]}",
        "ROB_STORE": lambda: f"robs the {STORE_NAMES[f['store']]}",
        "FREE_UNIT": lambda: f"takes a free unit at his {STORE_NAMES[f['store']]}",
        "TAKEOVER": lambda: f"buys the {STORE_NAMES[f['store']]} from its owner (mission)",
        "STORE_PAY": lambda: f"pays the bank for the 'buy the {STORE_NAMES[f['store']]}' mission (already his)",
        "BUY_WEAPON": lambda: f"buys a {WEAPON_NAMES[f['weapon']]}",
        "BUY_HORSE": lambda: "buys a horse",
        "EXTRA": lambda: "pays for the extra move",
        "CHEST": lambda: "opens a chest",
        "ROB_BANK": lambda: "robs the Bank",
        "BET": lambda: f"bets {f['amount']} GN at the Saloon",
        "PAIR": lambda: f"calls {CARD[f['part']]}" + (f" or {CARD[f['part2']]}" if f["part2"] != f["part"] else ""),
        "ROB_SALOON": lambda: "robs the Saloon",
        "BRIBE": lambda: f"bribes the judge against seat {f['seat']}",
        "GIVE": lambda: "gives 1 ammunition to each opponent (mission)",
    }
    return words[kind]()


def event_text(row, names=None):
    k, a, b, c, d = (int(x) for x in row[:5])
    if k == E.E_SETUP:
        return f"setup: {a} players, {b} mission cards left in the deck, {c} ammunition each"
    if k == E.E_TURN:
        return f"-- seat {a}'s turn (round {b + 1}; {c} GN, {d} LP)"
    if k == E.E_INCOME:
        return f"income: seat {a} +{b} GN" + (f", +{c} LP" if c else "") + (f", +{d} ammunition" if d else "")
    if k == E.E_SKIP:
        return f"seat {a} skips this turn in jail (back to {b} LP)"
    if k == E.E_ENTER:
        return f"seat {a} enters at the {LOC_NAMES[b]}"
    if k == E.E_MOVE:
        return f"seat {a} moves {square(b)} -> {square(c)}"
    if k == E.E_TAKE_JOB:
        return f"seat {a} becomes {job(b)}"
    if k == E.E_LOSE_JOB:
        return f"seat {a} loses the {job(b)} badge"
    if k == E.E_PICK_GN:
        return f"seat {a} picks up {b} GN"
    if k == E.E_PICK_AMMO:
        return f"seat {a} draws {b} ammunition card(s)"
    if k == E.E_BUY_UNIT:
        return f"seat {a} buys a unit at the {STORE_NAMES[b]} for {c} GN" + (f" (to seat {d})" if d >= 0 else "")
    if k == E.E_FREE_UNIT:
        return f"seat {a} takes a free unit from his {STORE_NAMES[b]}"
    if k == E.E_BUY_STORE:
        return f"seat {a} buys the {STORE_NAMES[b]} for {c} GN" + (f" (from seat {d})" if d >= 0 else "")
    if k == E.E_ROB:
        return f"seat {a} robs {ROB[b]}: +{c} GN" + (f" from seat {d}" if d >= 0 else "")
    if k == E.E_BUY_WEAPON:
        return f"seat {a} buys a {WEAPON_NAMES[b]} for {c} GN"
    if k == E.E_BUY_HORSE:
        return f"seat {a} buys a horse for {b} GN"
    if k == E.E_EXTRA:
        return f"seat {a} pays {b} GN for 2 more squares"
    if k == E.E_CHEST:
        return f"seat {a} opens a chest: {CHEST_NAMES[b]}"
    if k == E.E_BET:
        if c < 0:
            return f"seat {a} bets {b} GN: no card to draw, bet void"
        return f"seat {a} bets {b} GN, draws {CARD[c]}: " + (f"wins {d} GN" if d > 0 else f"loses {b} GN")
    if k == E.E_BRIBE:
        return f"seat {a} bribes the judge: seat {b} loses the {job(c)} badge"
    if k == E.E_DUEL:
        return f"DUEL: seat {a} challenges seat {b} ({c} round(s); the defender can reply fully to {d})"
    if k == E.E_ROUND:
        return f"  round {d + 1}: challenger {CARD[a]} vs defender {CARD[b]} -> {ROUND[c]}"
    if k == E.E_CHOICE:
        return f"  seat {a} (winner) chooses to {CHOICE[c]} (seat {b})"
    if k == E.E_PENALTY:
        return f"  Sheriff seat {a} takes {c} GN from seat {b}"
    if k == E.E_DUEL_END:
        return f"  duel over (rounds won: challenger {c}, defender {d})"
    if k == E.E_LP:
        return f"seat {a} {b:+d} LP (now {c})"
    if k == E.E_JAIL:
        return f"seat {a} has no LP left: JAIL (skips next turn, loses job and horse, -{c} VP)" + (
            f", shot by seat {b}" if b >= 0 else ""
        )
    if k == E.E_UNDERTAKER:
        return f"Undertaker seat {a} gains {b} GN (seat {c} fell)"
    if k == E.E_MISSION:
        return f"MISSION: seat {a} accomplishes {mission(b)}: +{c} VP, +{d} GN"
    if k == E.E_SECRET:
        return f"SECRET MISSION: seat {a} reveals '{SECRETS[b][0]}': +{c} VP, +{d} GN"
    if k == E.E_REFILL:
        return f"mission slot {a + 1} refilled with {mission(b)} ({d} left in the deck)"
    if k == E.E_GIVE:
        return f"seat {a} gives 1 ammunition to each of {b} opponents"
    if k == E.E_STORE_PAY:
        return f"seat {a} pays {c} GN to the bank for the {STORE_NAMES[b]} mission"
    if k == E.E_END:
        return f"END: {END[a]} (after round {b})"
    return f"event {k} {a} {b} {c} {d}"
