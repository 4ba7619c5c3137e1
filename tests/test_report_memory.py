"""`sim report` stays flat in memory (issue 28): it reads only the columns it declares, in compact types, and never
reads the items table whole (item strength works on a sample of whole games, the same sample as before)."""

import pandas as pd
import pytest

import sim.analysis as sa
from sim.game import get_game
from sim.report import build as rb
from sim.report import model
from sim.report import verdicts as vd
from sim.runner import run_study


@pytest.fixture(scope="module")
def bang(tmp_path_factory):
    return run_study(
        "bang_dice", tmp_path_factory.mktemp("mem") / "bang", games=300, players=[4, 5], seed=3, progress=False
    )


def _recording(monkeypatch):
    calls = []
    real = sa.Run.read

    def read(self, table, columns=None, filters=None, categorical=False, compact=False):
        df = real(self, table, columns, filters, categorical, compact)
        calls.append({"table": table, "columns": columns, "filters": filters, "compact": compact, "rows": len(df)})
        return df

    monkeypatch.setattr(sa.Run, "read", read)
    return calls


def test_report_reads_only_declared_columns(bang, monkeypatch):
    calls = _recording(monkeypatch)
    rep = rb.collect(bang, effects=False, robust=False)
    assert rep.tables.get("item_family") is not None
    run = sa.load_run(bang)
    declared = {
        "seats": set(rb._seat_columns(run.columns("seats"), get_game("bang_dice"))),
        "items": set(rb.ITEM_COLUMNS),
    }
    assert {c["table"] for c in calls} == {"seats", "games", "items"}
    for c in calls:
        assert c["columns"] is not None, f"{c['table']} read whole"
        assert c["compact"], c
        assert set(c["columns"]) <= declared.get(c["table"], set(c["columns"])), c
        if c["table"] != "items":  # (BANG's items table holds just the columns item strength uses)
            assert set(c["columns"]) < set(run.columns(c["table"])), f"{c['table']}: every column read"
    assert sum(c["table"] == "seats" for c in calls) == 1  # the seats table is read once


def test_items_are_read_for_the_sampled_games_only(bang, monkeypatch):
    """Above ITEM_ROWS seat rows only the items of one sample of whole games are read, and item strength is the
    one computed before from the whole tables (it has always worked on that sample)."""
    run = sa.load_run(bang)
    n_seats = run.count("seats")
    monkeypatch.setattr(model, "ITEM_ROWS", n_seats // 2)
    calls = _recording(monkeypatch)
    rep = rb.collect(bang, effects=False, robust=False)
    item_reads = [c for c in calls if c["table"] == "items"]
    assert len(item_reads) == 1 and item_reads[0]["filters"] is not None
    assert 0 < item_reads[0]["rows"] < run.count("items")
    monkeypatch.undo()
    seats = run.seats(columns=rb._seat_columns(run.columns("seats"), get_game("bang_dice")))
    fa = rep.family_alpha
    want = vd.item_family(seats, run.items(), min_rows=rb.MIN_ROWS, family_alpha=fa, max_rows=n_seats // 2)
    got = rep.tables["item_family"]
    pd.testing.assert_frame_equal(
        got.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False, check_categorical=False
    )


def test_compact_read_keeps_every_value(bang):
    run = sa.load_run(bang)
    for table in ("games", "seats", "items"):
        a, b = run.read(table, compact=True), run.read(table)
        assert list(a.columns) == list(b.columns)
        for c in a.columns:
            assert (a[c].astype(object).to_numpy() == b[c].astype(object).to_numpy()).all(), (table, c)
        assert a.memory_usage(deep=True).sum() < b.memory_usage(deep=True).sum()
    assert run.distinct("items", "kind") == set(run.items()["kind"].astype(str))
    assert run.count("items") == len(run.items())
