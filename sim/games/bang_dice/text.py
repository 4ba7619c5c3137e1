"""Plain-words rendering of bang_dice event rows and actions for `sim replay`."""
from . import engine as E
from .params import CHAR_NAMES

_SRC = {E.SRC_SHOT: "Bull's Eye", E.SRC_GATLING: "the Gatling", E.SRC_INDIANS: "the Indians",
        E.SRC_DYNAMITE: "Dynamite", E.SRC_BULLET: "a Bullet"}
_HEAL = {E.HS_BEER: "Beer", E.HS_SID: "Sid Ketchum", E.HS_SUZY: "Suzy's no-shot bonus",
         E.HS_VULTURE: "Vulture Sam", E.HS_DOCH: "Doc Holyday's bonus"}
_DISCARD = {E.DR_GATLING: "the Gatling", E.DR_KIT: "Kit Carlson", E.DR_PEDRO: "Pedro Ramirez",
            E.DR_LEFT: "the Left Hand of the Devil", E.DR_GAMBLER: "the Gambler: his ignored roll's arrows"}
_SALOON = ("base dice only", "the Loudmouth (replacing a base die)", "the Coward (replacing a base die)",
           "the Loudmouth as a 6th die", "the Coward as a 6th die")
_TEAM = {E.WT_NONE: "nobody", E.WT_LAW: "the Sheriff and his Deputies", E.WT_OUTLAWS: "the Outlaws",
         E.WT_RENEGADE: "the Renegade", E.WT_3P_DEPUTY: "the Deputy", E.WT_3P_OUTLAW: "the Outlaw",
         E.WT_3P_RENEGADE: "the Renegade"}


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
    E.D_GOOD: lambda x: "reveal The Good" if x else "keep The Good hidden",
    E.D_UGLY: lambda x: f"reveal The Ugly: swap arrows of seats {(x - 1) >> 3} and {(x - 1) & 7}" if x
    else "keep The Ugly hidden",
    E.D_SID: lambda x: f"Sid Ketchum heals seat {x}",
    E.D_SALOON: lambda x: f"roll with {_SALOON[x]}",
    E.D_DOC: lambda x: f"reveal The Doc: turn die {((x - 1) >> 3) + 1} to face #{(x - 1) & 7}" if x else "pass (Doc)",
    E.D_ELENA: lambda x: f"give one arrow to seat {x - 1}" if x else "keep the arrows",
    E.D_ARROW: lambda x: ("take a regular arrow", "take the Indian Chief's Arrow",
                          "take the Chief's Arrow from its holder")[x],
    E.D_BROKEN: lambda x: f"Broken Arrow: return an arrow of seat {x}",
    E.D_REROLL: lambda x: "stop rolling" if x == 0 else
    "re-roll dice " + ", ".join(str(i + 1) for i in range(6) if (x >> i) & 1),
    E.D_GAMBLER: lambda x: "reveal The Gambler" if x else "pass (Gambler)",
    E.D_BE: lambda x: f"Bull's Eye at seat {x}" if x < 8 else "waste the Bull's Eye",
    E.D_SLAB: lambda x: f"Slab doubles the shot at seat {x - 1}" if x else "no Slab double",
    E.D_BEER: lambda x: f"Beer for seat {x}",
    E.D_KIT: lambda x: f"Kit discards an arrow of seat {x - 1}" if x else "Kit stops discarding",
    E.D_BART: lambda x: f"Bart takes {x} arrow(s) instead of life",
    E.D_MOLLY: lambda x: f"Molly takes {x} life loss",
    E.D_LEFT: lambda x: "reveal the Left Hand of the Devil" if x else "pass (Left Hand)",
    E.D_BAD: lambda x: "reveal The Bad" if x else "pass (Bad)",
    E.D_JUDGE: lambda x: "reveal The Judge" if x else "pass (Judge)",
    E.D_RIGHT: lambda x: "reveal the Right Hand of the Devil" if x else "pass (Right Hand)",
    E.D_GHOST: lambda x: f"Ghost gives {E.FACE_NAMES[x >> 3]} to seat {x & 7}",
}


def action_text(action):
    k, x = int(action) >> 8, int(action) & 255
    f = _ACT.get(k)
    return f(x) if f else f"action {k}:{x}"
