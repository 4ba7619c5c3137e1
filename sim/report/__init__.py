"""Designer reports: one self-contained HTML page (or PDF) per run or sweep.

    from sim.report import build_report
    build_report("results/demo_bang_dice", "reports/demo_bang_dice.html")

Every number comes from sim.analysis; this package only chooses what to show, words it for a game designer,
and lays it out (findings first, then sections, provenance and reproduction). See build.py.
"""

from .build import THRESHOLDS, build_report, collect, find_chromium, verdict, write_pdf

__all__ = ["THRESHOLDS", "build_report", "collect", "find_chromium", "verdict", "write_pdf"]
