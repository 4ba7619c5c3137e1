"""Readable text for `sim replay`: one line per action and per logged event."""
from . import engine as E
from .params import (AMMO_NAMES, CHEST_NAMES, JOB_NAMES, LOC_NAMES, LOC_AT, MISSIONS, SECRETS, STORE_NAMES,
                     WEAPON_NAMES, W)

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
    kind, arg = divmod(int(a), E.ACT)
    if kind == E.K_ENTER:
        return "enters at the " + ("Stables (free horse)" if arg == 0 else "Armory (free palm pistol)")
    if kind == E.K_MOVE:
        return f"moves to {square(arg)}"
    if kind == E.K_MOVE2:
        return f"extra move to {square(arg)}"
    if kind == E.K_END:
        return "ends the turn"
    if kind == E.K_DUEL:
        return f"challenges seat {arg} to a duel"
    if kind == E.K_CCARD:
        return f"lays {CARD[arg]} face down"
    if kind == E.K_DCARD:
        return "fakes (keeps his card)" if arg == E.FAKE else f"lays {CARD[arg]} face down"
    if kind == E.K_WIN:
        return f"chooses to {CHOICE[arg]}"
    if kind == E.K_TAKE_JOB:
        return f"takes the {job(arg)} badge"
    if kind == E.K_PICK_GN:
        return f"picks up {arg} GN"
    if kind == E.K_PICK_AMMO:
        return f"picks up {arg} ammunition"
    if kind == E.K_BUY_UNIT:
        return f"buys one unit at the {STORE_NAMES[arg]}"
    if kind == E.K_BUY_STORE:
        return f"buys the {STORE_NAMES[arg]}"
    if kind == E.K_ROB_STORE:
        return f"robs the {STORE_NAMES[arg]}"
    if kind == E.K_FREE_UNIT:
        return f"takes a free unit at his {STORE_NAMES[arg]}"
    if kind == E.K_TAKEOVER:
        return f"buys the {STORE_NAMES[arg]} from its owner (mission)"
    if kind == E.K_STORE_PAY:
        return f"pays the bank for the 'buy the {STORE_NAMES[arg]}' mission (already his)"
    if kind == E.K_BUY_WEAPON:
        return f"buys a {WEAPON_NAMES[arg]}"
    if kind == E.K_BUY_HORSE:
        return "buys a horse"
    if kind == E.K_EXTRA:
        return "pays for the extra move"
    if kind == E.K_CHEST:
        return "opens a chest"
    if kind == E.K_ROB_BANK:
        return "robs the Bank"
    if kind == E.K_BET:
        return f"bets {arg} GN at the Saloon"
    if kind == E.K_PAIR:
        a, b = divmod(arg, 8)
        return f"calls {CARD[a]}" + (f" or {CARD[b]}" if b != a else "")
    if kind == E.K_ROB_SALOON:
        return "robs the Saloon"
    if kind == E.K_BRIBE:
        return f"bribes the judge against seat {arg}"
    if kind == E.K_GIVE:
        return "gives 1 ammunition to each opponent (mission)"
    return f"action {a}"


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
            f", shot by seat {b}" if b >= 0 else "")
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
