"""The robustness section: the findings again with a second population of players."""

import re
from pathlib import Path

import pandas as pd

from .. import analysis as sa
from ..errors import UserError
from . import verdicts as vd
from . import model
from .model import ROBUST_GAMES, ROBUST_LABELS, Section, VERDICTS
from .fmt import ci, esc, para, pct, pts, table_html
from .data import _item_sample, _seat_columns


def _robustness(rep, spec, targets=None, items=True):
    """Recompute the seat, side and item findings with a second population of players (the game's other
    strategies), played at the run's player counts and parameters and cached as a run in <run>/robust/; label
    each finding "holds with other players" or "depends on the bots"."""
    from ..lock import FolderLock
    from ..runner import run_study

    man = rep.manifest
    seating = man.get("seating", {}) or {}
    alt = vd.second_lineup(spec, seating.get("lineup") or [])
    if not alt:
        return
    counts = [int(n) for n in man.get("players", [])]
    seed = int(man.get("seed", 0))
    overrides = {k: str(v) for k, v in (man.get("params_changed") or {}).items()}
    games2 = int(min(20 * ROBUST_GAMES, max(ROBUST_GAMES, int(man.get("games_per_player_count", 0)) // 10)))
    out = Path(rep.path) / "robust" / f"{'-'.join(alt)}_{games2}_s{seed}"
    # two reports of one run at once: the second waits here for the first one's robustness run, then reads it
    # (a refusal after ROBUST_WAIT_S is one line, never a report silently without the section)
    with FolderLock(out.parent, "sim report (robustness run)", wait=model.ROBUST_WAIT_S):
        try:
            path = run_study(
                spec,
                out,
                games=games2,
                players=counts,
                lineup=list(alt),
                seed=seed,
                params=overrides,
                progress=False,
                overwrite=True,
            )
        except UserError as e:
            rep.notices.append(para(f"The robustness check could not run: {esc(e)}"))
            return
    run2 = sa.load_run(path)
    seats2 = run2.seats(columns=_seat_columns(run2.columns("seats"), spec), compact=True)
    tabs = {"seat": vd.seat_family(seats2).set_index(["players", "order"])}
    g2cols = run2.columns("games")
    side = spec.side_column
    if side and side in g2cols:
        tabs["side"] = vd.side_family(
            run2.games(columns=[c for c in ("config", "game", "players", side) if c in g2cols], compact=True),
            side,
            targets=targets,
        ).set_index(["players", "side"])
    if items and any(f.kind == "item" for f in rep.findings):
        s2 = _item_sample(run2, seats2)
        if s2 is not None and s2.rows:
            tabs["item"] = vd.item_family(
                s2.seats, s2.items, by_players=False, max_rows=max(model.ITEM_ROWS, len(s2.seats))
            ).set_index("item")
    rows = []
    for f in rep.findings:
        d = f.data
        try:
            if f.kind == "seat":
                second = tabs["seat"].loc[(d["players"], d["position"])]
                ex = d["rate"] - d["fair"]
            elif f.kind == "side" and "side" in tabs:
                second = tabs["side"].loc[(d["players"], d["side"])]
                ex = d["rate"] - d["target"]
            elif f.kind == "item" and "item" in tabs:
                second = tabs["item"].loc[d["item"]]
                second = second.copy()
                second["excess"] = second["rel_pp"]
                ex = d["effect_pp"]
            else:
                continue
        except KeyError:
            continue
        if isinstance(second, pd.Series) and f.kind == "item" and not isinstance(second.get("verdict"), str):
            continue
        lab = vd.holds(f.verdict, ex, second)
        if lab is None:
            continue
        f.data["robust"] = lab
        f.text += f" <i>({ROBUST_LABELS[lab]})</i>"
        val = (
            f"{pts(second['rel_pp'])} points"
            if f.kind == "item"
            else f"{pct(second['rate'])} ({ci(second['low'], second['high'])})"
        )
        f.evidence += (
            f" With other players ({esc(', '.join(alt))}, {games2:,} games per player count): "
            f"{val}, {VERDICTS[second['verdict']][0].lower()}."
        )
        rows.append(
            {
                "finding": re.sub(r"<[^>]+>", "", f.text)[:140],
                "with the run's players": VERDICTS[f.verdict][0],
                "with other players": VERDICTS[second["verdict"]][0],
                "label": ROBUST_LABELS[lab],
            }
        )
    rep.tables["robustness"] = pd.DataFrame(rows)
    if rows:
        sec = Section("robustness", "Robustness: do the findings hold with other players?")
        sec.body.append(
            para(
                f"Every verdict above is about the game <i>as played by these scripted players</i>. To tell the game "
                f"from the bots, the seat, side and item findings were computed again on {games2:,} games per "
                f"player count played by the game's other strategies ({esc(', '.join(alt))}), same parameters and "
                "seed. <b>Holds with other players</b>: the second population finds the same direction (or the same "
                "balance); <b>depends on the bots</b>: it does not, so the finding may say more about the bots than "
                "about the rules. Findings the second population cannot settle (too few games) carry no label."
            )
        )
        sec.body.append(table_html(pd.DataFrame(rows)))
        rep.sections.append(sec)


def add(st):
    from . import ladder

    # the ladder supersedes the second population: it asks stronger players, not sibling heuristics
    if st.robust and not st.rep.is_sweep and st.spec is not None and not ladder.present(st.rep.path):
        _robustness(st.rep, st.spec, st.targets, items=st.items is not None)
