"""Read a run or sweep folder and compute the report's sections, findings and tables."""

import pandas as pd

from ..analysis import plotting
from ..errors import UserError
from .data import (
    _config_frame,
    _item_sample,
    _length_column,
    _reference_configs,
    _seat_columns,
    _solve_results,
    _spec,
    declared,
    open_results,
    report_families,
)
from .fmt import esc, para
from .model import ALPHA, SEVERITY, Report, Study
from .sections import SECTIONS

GAME_COLUMNS = ("config", "game", "players", "steps", "capped", "end_reason")  # and the game's length and side


def _study(path, solve, targets, effects, robust, run=None):
    """The Study every section reads: the run's tables (a sweep's reference configurations), the item sample and
    the report's families of verdicts.  run: the folder already opened (open_results), else it is opened here."""
    run = run if run is not None else open_results(path)
    man = run.manifest
    spec = _spec(man["game"])
    seats = run.seats(columns=_seat_columns(run.columns("seats"), spec), compact=True)
    if seats.empty:
        raise UserError(f"{path} holds no games yet (is the run still starting?)")
    wanted = (*GAME_COLUMNS, _length_column(spec), declared(spec, "side_column"))
    games = run.games(columns=[c for c in run.columns("games") if c in wanted], compact=True)
    is_sweep = "config" in seats.columns
    title = man.get("title") or (spec.title if spec else man["game"])
    rep = Report(title=title, path=str(path), manifest=man, is_sweep=is_sweep, spec=spec)
    cf = _config_frame(man) if is_sweep else pd.DataFrame()
    st = Study(rep, run, path, spec, seats, games, seats, games, targets=targets, effects=effects, robust=robust)
    st.solves, st.configs = _solve_results(path, solve), cf
    if is_sweep:
        ref = _reference_configs(man, cf)
        st.seats, st.games = seats[seats["config"].isin(ref)], games[games["config"].isin(ref)]
        st.isample = _item_sample(run, st.seats, ref)
        desc = ", ".join(f"{c[2:]} = {v}" for c, v in cf[cf["config"] == ref[0]].iloc[0].items() if c.startswith("p:"))
        rep.notices.append(
            para(
                f"This is a sweep of {len(cf)} configurations. The sections after the response curves describe the "
                f"reference configuration(s) {esc(', '.join(map(str, ref)))}{' (' + esc(desc) + ')' if desc else ''}."
            )
        )
    else:
        st.isample = _item_sample(run, seats)
    kinds = st.isample.kinds if st.isample is not None else None
    st.quiet, fams = report_families(st.seats, st.items, st.games, spec, kinds)
    rep.family_alpha = ALPHA / len(fams)
    rep.tables["families"] = fams
    return st


def _notices(rep, spec):
    man = rep.manifest
    comp = man.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        rep.notices.insert(
            0,
            f"<div class='notice'><b>These results rest on assumed components.</b> "
            f"{esc(comp.strip().rstrip('.'))}. Treat the numbers as a study of the rules with "
            f"stand-in components, not of the published game.</div>",
        )
    if man.get("status") not in (None, "complete"):
        rep.notices.append(
            f"<div class='notice'><b>Incomplete results.</b> The run's status is "
            f"'{esc(man.get('status'))}': only finished chunks are included.</div>"
        )


def collect(path, solve=(), targets=None, effects=True, robust=True, run=None):
    """Read a run or sweep folder and compute the report's findings, sections and tables (with sim.analysis): every
    section of sim.report.sections.SECTIONS in turn."""
    import matplotlib as mpl

    st = _study(path, solve, targets, effects, robust, run)
    with mpl.rc_context():
        plotting.use_style()
        for section in SECTIONS:
            section.add(st)
    _notices(st.rep, st.spec)
    st.rep.findings.sort(key=lambda f: SEVERITY[f.verdict])
    return st.rep
