"""Plain-words rendering of bang_dice event rows and actions for `sim replay`."""

from . import engine as E
from .params import CHAR_NAMES

_SRC = {
    E.SRC_SHOT: "Bull's Eye",
    E.SRC_GATLING: "the Gatling",
    E.SRC_INDIANS: "the Indians",
    E.SRC_DYNAMITE: "Dynamite",
    E.SRC_BULLET: "a Bullet",
}
_HEAL = {
    E.HS_BEER: "Beer",
    E.HS_SID: "Sid Ketchum",
    E.HS_SUZY: "Suzy's no-shot bonus",
    E.HS_VULTURE: "Vulture Sam",
    E.HS_DOCH: "Doc Holyday's bonus",
}
_DISCARD = {
    E.DR_GATLING: "the Gatling",
    E.DR_KIT: "Kit Carlson",
    E.DR_PEDRO: "Pedro Ramirez",
    E.DR_LEFT: "the Left Hand of the Devil",
    E.DR_GAMBLER: "the Gambler: his ignored roll's arrows",
}
_SALOON = (
    "base dice only",
    "the Loudmouth (replacing a base die)",
    "the Coward (replacing a base die)",
    "the Loudmouth as a 6th die",
    "the Coward as a 6th die",
)
_TEAM = {
    E.WT_NONE: "nobody",
    E.WT_LAW: "the Sheriff and his Deputies",
    E.WT_OUTLAWS: "the Outlaws",
    E.WT_RENEGADE: "the Renegade",
    E.WT_3P_DEPUTY: "the Deputy",
    E.WT_3P_OUTLAW: "the Outlaw",
    E.WT_3P_RENEGADE: "the Renegade",
}


def _nm(names, i):
    """Seat i as printed: names may be a list of seat names or the replay's dict (seat numbers are used)."""
    if i is None or i < 0:
        return "nobody"
    if isinstance(names, (list, tuple)) and i < len(names):
        return str(names[i])
    return f"seat {i}"


def faces_text(packed, nd=6):
    out = []
    for i in range(nd):
        f = (int(packed) >> (4 * i)) & 15
        if f:
            out.append(E.FACE_NAMES[f - 1])
    return ", ".join(out)


def event_text(row, names):
    k, a, b, c, d = (int(x) for x in row[:5])
    n = lambda i: _nm(names, i)  # noqa: E731
    if k == E.EV_SEAT:
        sp = f", special role {E.SPECIAL_NAMES[d]}" if d > 0 else ""
        return f"{n(a)} is {CHAR_NAMES[c]} ({E.ROLE_NAMES[b]}{sp})"
    if k == E.EV_TURN:
        return f"--- turn {b} (round {c}): {n(a)}{' (the Ghost)' if d else ''} ---"
    if k == E.EV_TURN_END:
        return f"{n(a)} ends the turn"
    if k == E.EV_SALOON:
        return f"{n(a)} rolls with {_SALOON[b]}"
    if k == E.EV_ROLL:
        return f"{n(a)} roll {b}: {faces_text(c)}"
    if k == E.EV_REROLL:
        if b == 0:
            return f"{n(a)} stops rolling"
        dice = [str(i + 1) for i in range(6) if (b >> i) & 1]
        return f"{n(a)} re-rolls dice {', '.join(dice)}"
    if k == E.EV_KEEP_FINAL:
        return f"{n(a)} final dice: {faces_text(b, c)}"
    if k == E.EV_ARROW:
        what = "the Indian Chief's Arrow" if b else "an arrow"
        return f"{n(a)} takes {what} ({c} left in the pile)"
    if k == E.EV_INDIANS:
        return f"The Indians attack! (last arrow taken on {n(a)}'s turn)"
    if k == E.EV_DAMAGE:
        by = f" (from {n(d)})" if d >= 0 and c in (E.SRC_SHOT, E.SRC_GATLING) else ""
        return f"{n(a)} loses {b} life to {_SRC.get(c, '?')}{by}"
    if k == E.EV_HEAL:
        return f"{n(a)} gains {b} life ({_HEAL.get(d, '?')}, from {n(c)})"
    if k == E.EV_ELIM:
        return f"{n(a)} is eliminated by {_SRC.get(c, '?')} and reveals: {E.ROLE_NAMES[b]}"
    if k == E.EV_GHOST:
        return f"{n(a)} becomes the Ghost ({E.ROLE_NAMES[b]})"
    if k == E.EV_REVEAL:
        return f"{n(a)} reveals {E.SPECIAL_NAMES[b]}"
    if k == E.EV_JUDGE:
        return f"{n(a)} reveals The Judge: {n(b)}'s {E.SPECIAL_NAMES[c]} has no effect"
    if k == E.EV_SHOT:
        return f"{n(a)} shoots {n(b)} with a Bull's Eye {c}{' (double damage)' if d == 2 else ''}"
    if k == E.EV_GATLING:
        return f"{n(a)} fires the Gatling Gun ({b} Gatling results)"
    if k == E.EV_DYNAMITE:
        return f"{n(a)}'s {b} Dynamite explode: rolling ends"
    if k == E.EV_BROKEN:
        return f"{n(a)}'s Broken Arrow returns one of {n(b)}'s arrows to the pile"
    if k == E.EV_BULLET:
        return f"{n(a)} rolled {b} Bullet(s)"
    if k == E.EV_DISCARD:
        return f"{n(a)} discards {b} arrow(s) ({_DISCARD.get(c, '?')})"
    if k == E.EV_BART:
        return f"{n(a)} (Bart Cassidy) takes {b} arrow(s) instead of losing life"
    if k == E.EV_MOLLY:
        return f"{n(a)} (Molly Stark) loses {c} life in place of {n(b)}"
    if k == E.EV_DOC:
        return f"{n(a)} (The Doc) turns die {b + 1} of {n(d)} to {E.FACE_NAMES[c]}"
    if k == E.EV_GAMBLE:
        return f"{n(a)} (The Gambler) forces {n(b)} to re-roll all dice"
    if k == E.EV_GHOST_GIVE:
        return f"The Ghost {n(a)} gives {n(b)} the {E.FACE_NAMES[c]} token{' and the x2 token' if d else ''}"
    if k == E.EV_PRESET:
        return f"{n(a)} sets {c} die/dice to {E.FACE_NAMES[b]} (Ghost token)"
    if k == E.EV_STEAL:
        return f"{n(a)} (Apache Kid) takes the Indian Chief's Arrow from {n(b)}"
    if k == E.EV_ELENA:
        return f"{n(a)} (Elena Fuente) gives one of her arrows to {n(b)}"
    if k == E.EV_UGLY:
        return f"{n(a)} (The Ugly) swaps the arrows of {n(b)} and {n(c)}"
    if k == E.EV_GOOD:
        return f"{n(a)} (The Good) becomes the Sheriff; {n(b)} becomes a Deputy"
    if k == E.EV_EXTRA:
        return f"{n(a)} (Right Hand of the Devil) takes another turn"
    if k == E.EV_SLAB:
        return f"{n(a)} (Slab the Killer) spends a Beer to double the shot at {n(b)}"
    if k == E.EV_LEFT:
        return f"{n(a)} (Left Hand of the Devil) keeps {n(b)} in the game with 2 life"
    if k == E.EV_BAD:
        return f"{n(a)} (The Bad) cancels {n(b)}'s gain of {c} life"
    if k == E.EV_WIN:
        who = _TEAM.get(a, "?")
        if a in (E.WT_RENEGADE, E.WT_3P_DEPUTY, E.WT_3P_OUTLAW, E.WT_3P_RENEGADE):
            who = f"{who} ({n(b)})"
        return f"GAME OVER: {who} win(s) ({E.END_LABELS[c]})"
    return f"event {k} {a} {b} {c} {d}"


_ACT = {
    "GOOD": lambda f: "reveal The Good" if f["reveal"] else "keep The Good hidden",
    "UGLY": lambda f: (
        f"reveal The Ugly: swap arrows of seats {f['seat']} and {f['seat2']}" if f["reveal"] else "keep The Ugly hidden"
    ),
    "SID": lambda f: f"Sid Ketchum heals seat {f['seat']}",
    "SALOON": lambda f: f"roll with {_SALOON[f['saloon']]}",
    "DOC": lambda f: f"reveal The Doc: turn die {f['die'] + 1} to face #{f['side']}" if f["reveal"] else "pass (Doc)",
    "ELENA": lambda f: f"give one arrow to seat {f['seat']}" if f["use"] else "keep the arrows",
    "ARROW": lambda f: (
        "take a regular arrow",
        "take the Indian Chief's Arrow",
        "take the Chief's Arrow from its holder",
    )[f["token"]],
    "BROKEN_ARROW": lambda f: f"Broken Arrow: return an arrow of seat {f['seat']}",
    "REROLL": lambda f: (
        "stop rolling"
        if f["dice"] == 0
        else "re-roll dice " + ", ".join(str(i + 1) for i in range(6) if (f["dice"] >> i) & 1)
    ),
    "GAMBLER": lambda f: "reveal The Gambler" if f["reveal"] else "pass (Gambler)",
    "BULLSEYE": lambda f: f"Bull's Eye at seat {f['seat']}" if f["seat"] != E.WASTED else "waste the Bull's Eye",
    "SLAB": lambda f: f"Slab doubles the shot at seat {f['seat']}" if f["use"] else "no Slab double",
    "BEER": lambda f: f"Beer for seat {f['seat']}",
    "KIT": lambda f: f"Kit discards an arrow of seat {f['seat']}" if f["use"] else "Kit stops discarding",
    "BART": lambda f: f"Bart takes {f['count']} arrow(s) instead of life",
    "MOLLY": lambda f: f"Molly takes {f['count']} life loss",
    "LEFT_HAND": lambda f: "reveal the Left Hand of the Devil" if f["reveal"] else "pass (Left Hand)",
    "BAD": lambda f: "reveal The Bad" if f["reveal"] else "pass (Bad)",
    "JUDGE": lambda f: "reveal The Judge" if f["reveal"] else "pass (Judge)",
    "RIGHT_HAND": lambda f: "reveal the Right Hand of the Devil" if f["reveal"] else "pass (Right Hand)",
    "GHOST_GIVE": lambda f: f"Ghost gives {E.FACE_NAMES[f['face']]} to seat {f['seat']}",
}


def action_text(action):
    kind, fields = E.CODEC.decode(action)
    word = _ACT.get(kind)
    return word(fields) if word else f"action {kind} {fields}"
