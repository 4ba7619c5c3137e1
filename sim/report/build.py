"""`sim report`: build_report writes the HTML (and PDF) report of a run or sweep folder."""

import os
from pathlib import Path


from .. import analysis as sa
from ..errors import UserError
from .verdicts import MIN_ROWS, THRESHOLDS
from .pdf import write_pdf
from .collect import collect
from .data import _seat_columns, _spec, declared, open_results, report_families
from .fmt import effect_command, verdict
from .model import ALPHA, ITEM_COLUMNS, ROBUST_LABELS, VERDICTS, Finding, Report, Section
from .pdf import chromium_command, find_chromium
from .render import render


def _check_targets(results, targets):
    """--target names sides of the run's game (UserError in one line otherwise)."""
    from ..analysis.sides import NO_SIDE, side_name
    from ..check import read_manifest_checked
    from ..errors import suggest

    man = read_manifest_checked(results)
    spec = _spec(man["game"])
    column = declared(spec, "side_column") if spec is not None else None
    if not column:
        raise UserError(f"--target: {man['game']} is not a team game (it has no sides to set a target for)")
    sides = sorted({side_name(x) for x in spec.labels.get(column, ())} - set(NO_SIDE))
    for side in targets:
        if side not in sides:
            raise suggest(side, sides, f"side in --target (sides of {man['game']})")


def build_report(results, out=None, pdf=False, solve=(), targets=None, effects=True, robust=True):
    """Write the report of a run or sweep folder; returns the paths written (HTML, and PDF when asked).
    targets: the sides' target win shares in a team game ('law=0.5' or a dict; default equal sides)."""
    from ..errors import check_writable_file
    from ..lock import FolderLock

    try:
        tgt = sa.parse_targets(targets)
    except ValueError as e:
        raise UserError(f"--target: {e}") from None
    if tgt:
        _check_targets(results, tgt)
    name = Path(str(results).rstrip("/")).name
    out = Path(out) if out else Path("reports") / f"{name}.html"
    html_out = out.with_suffix(".html") if out.suffix.lower() == ".pdf" else out
    check_writable_file(html_out, "-o")  # before the work, and never a temp file left beside a folder
    run = open_results(results)  # (checksums verified) before anything is created
    with FolderLock(html_out, "sim report"):  # two reports into one file: one refuses
        rep = collect(results, solve, targets, effects, robust, run=run)
        html_out.parent.mkdir(parents=True, exist_ok=True)
        tmp = html_out.with_name(f".{html_out.name}.tmp{os.getpid()}")
        try:
            tmp.write_text(render(rep), encoding="utf-8")
            os.replace(tmp, html_out)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    written = [html_out]
    if pdf or out.suffix.lower() == ".pdf":
        written.append(write_pdf(html_out, out.with_suffix(".pdf")))
    return written


# the names other code and the tests read from sim.report.build (the report's modules since the split)
__all__ = [
    "ALPHA",
    "ITEM_COLUMNS",
    "MIN_ROWS",
    "ROBUST_LABELS",
    "THRESHOLDS",
    "VERDICTS",
    "Finding",
    "Section",
    "Report",
    "build_report",
    "chromium_command",
    "collect",
    "effect_command",
    "find_chromium",
    "render",
    "report_families",
    "verdict",
    "write_pdf",
    "_seat_columns",
]
