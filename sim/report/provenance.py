"""The provenance section: where the numbers come from."""

import pandas as pd

from ..errors import UserError
from .model import Section
from .fmt import esc, para, table_html


def _provenance_section(rep, spec, manifest, is_sweep, cf):
    sec = Section("provenance", "Provenance: what these results rest on")
    rows = [
        ("Game", f"{manifest.get('title') or manifest.get('game')} ({manifest.get('game')})"),
        ("Rules version", manifest.get("rules_version") or (spec.rules_version if spec else "") or "not stated"),
    ]
    if is_sweep:
        rows.append(("Configurations", str(manifest.get("n_configs", len(cf)))))
    else:
        rows.append(("Player counts", ", ".join(map(str, manifest.get("players", [])))))
        rows.append(
            (
                "Games",
                f"{int(manifest.get('total_games', 0)):,} "
                f"({int(manifest.get('games_per_player_count', 0)):,} per player count)",
            )
        )
        seat = manifest.get("seating", {}) or {}
        rows.append(
            (
                "Seating",
                f"{seat.get('mode', '?')}: {', '.join(seat.get('lineup', []) or [])}"
                + (" (rotated in both directions)" if seat.get("mirror") else "")
                + (" (every rotation replayed)" if seat.get("all_rotations") else ""),
            )
        )
    hidden = [n for n, s in (manifest.get("strategies", {}) or {}).items() if s.get("sees_hidden")]
    if hidden:
        rows.append(("Strategies reading hidden information", ", ".join(hidden)))
    sec.body.append(
        "<table class='kv'>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows) + "</table>"
    )
    changed = manifest.get("params_changed")
    if is_sweep:
        sets = (manifest.get("request", {}) or {}).get("set", {}) or {}
        changed = dict(sets)
        swept = sorted({k for c in manifest.get("configs", []) for k in (c.get("swept") or {})})
        sec.body.append(
            para("Swept parameters: " + (esc(", ".join(swept)) or "none (player counts or line-ups only)") + ".")
        )
    if changed:
        prow = []
        for name, val in changed.items():
            default, doc = "", ""
            if spec is not None:
                try:
                    p = spec.params.params[spec.params.index(name)]
                    default, doc = p.show(p.default), p.doc
                except (KeyError, ValueError, IndexError, UserError):
                    pass
            prow.append({"parameter": name, "used": val, "printed game": default, "meaning": doc})
        sec.body.append(para("Parameters that differ from the printed game:"))
        sec.body.append(table_html(pd.DataFrame(prow)))
    else:
        sec.body.append(para("All parameters are those of the printed game (no overrides)."))
    assumed = manifest.get("assumed_params") or []
    if assumed:
        sec.body.append(
            para(
                f"{len(assumed)} parameter(s) in use are <b>assumed</b> readings or values not fixed "
                f"by the printed rules: <span class='small'>{esc(', '.join(assumed))}</span>."
            )
        )
    comp = manifest.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        sec.body.append(f"<div class='notice'><b>Assumed components.</b> {esc(comp)}</div>")
    rep.sections.append(sec)


def add(st):
    _provenance_section(st.rep, st.spec, st.rep.manifest, st.rep.is_sweep, st.configs)
