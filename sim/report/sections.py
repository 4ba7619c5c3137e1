"""The registered list of the report's sections, in page order. Each module's `add(study)` adds its section (and
findings) to study.rep when the run has what it needs (sim.report.model.Study); sim.report.collect runs them in this
order. A new section is a module with an `add` function, listed here."""

from . import (
    arc,
    balance,
    bot_health,
    items,
    ladder,
    provenance,
    readings,
    reproduction,
    robustness,
    roles,
    seats,
    shape,
    sides,
    strategies,
    sweep,
)

SECTIONS = (
    sweep,  # a sweep's response curves first; the sections after it describe the reference configurations
    balance,
    sides,
    seats,
    strategies,
    items,
    roles,
    shape,
    arc,
    ladder,  # labels the findings above from RUN/ladder (sim ladder); only those that hold stay headlined
    robustness,  # after the sections whose findings it labels (skipped when the run has a ladder)
    bot_health,
    provenance,
    reproduction,
    readings,  # notes the findings that depend on a rule reading: after them all
)
