"""The reproduction section: the command lines that give the same results."""

import datetime as _dt


from .model import Section
from .fmt import esc, para


def _reproduction_section(rep, manifest, path):
    sec = Section("reproduction", "Reproduction")
    rows = [
        ("Command", manifest.get("command", "")),
        ("Seed", str(manifest.get("seed", ""))),
        ("Code version", f"{manifest.get('code_version', '')} (source {manifest.get('source_hash', '')})"),
        ("Run status", manifest.get("status", "")),
        ("Results folder", str(path)),
        ("This report", f"sim report {path}  (built {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC)"),
    ]
    tm = manifest.get("timings") or {}
    if tm.get("total_s"):
        rows.append(("Run time", f"{tm['total_s']:.0f} s"))
    sec.body.append(
        "<table class='kv'>"
        + "".join(f"<tr><th>{esc(k)}</th><td><code>{esc(v)}</code></td></tr>" for k, v in rows)
        + "</table>"
    )
    pk = manifest.get("packages") or {}
    if pk:
        sec.body.append(para("Package versions: " + esc(", ".join(f"{k} {v}" for k, v in pk.items())) + "."))
    sec.body.append(para("Same command, same seed and code version: the same games, whatever the machine."))
    rep.sections.append(sec)


def add(st):
    _reproduction_section(st.rep, st.rep.manifest, st.path)
