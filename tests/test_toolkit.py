"""The engine toolkit (sim/toolkit.py): the action codec, the legal-list push and its overflow policy, named
columns, ranks and decks."""

import dataclasses

import numba as nb
import numpy as np
import pytest

from sim.game import get_game, register
from sim.toolkit import ActionCodec, Columns, push, rank_seats, rank_seats_lowest, refill, winners

CODEC = ActionCodec(
    kinds={"PASS": (), "BUILD": ("tile", "spot"), "PLAY": ("card", "spot")}, fields={"tile": 5, "spot": 4, "card": 7}
)
PASS, BUILD, PLAY = CODEC.kind_ids("PASS", "BUILD", "PLAY")
encode_build = CODEC.encoder("BUILD")
tile_of, spot_of, card_of = CODEC.getters("tile", "spot", "card")
kind_of = CODEC.kind_getter()


def test_codec_round_trips_every_kind_and_field_value():
    for tile in range(32):
        for spot in range(16):
            a = CODEC.encode("BUILD", tile=tile, spot=spot)
            assert CODEC.decode(a) == ("BUILD", {"tile": tile, "spot": spot})
            assert (kind_of(a), tile_of(a), spot_of(a)) == (BUILD, tile, spot)
            assert encode_build(tile, spot) == a
    a = CODEC.encode("PLAY", card=100, spot=15)
    assert (CODEC.kind_name(a), card_of(a), spot_of(a)) == ("PLAY", 100, 15)
    assert CODEC.encode("PASS") == PASS and CODEC.decode(PASS) == ("PASS", {})


def test_codec_refuses_what_it_cannot_encode():
    with pytest.raises(ValueError, match="does not fit"):
        CODEC.encode("BUILD", tile=32)
    with pytest.raises(KeyError, match="has fields"):
        CODEC.encode("PASS", tile=1)
    with pytest.raises(KeyError, match="no action kind"):
        CODEC.encode("JUMP")
    with pytest.raises(ValueError, match="no width"):
        ActionCodec(kinds={"A": ("x",)})


@nb.njit
def _fill(out, k):
    n = 0
    for i in range(k):
        n = push(out, n, i + 10)
    return n


def test_push_counts_past_the_end_without_writing_there():
    buf = np.full(5, -1, np.int64)
    assert _fill(buf[:3], 5) == 5  # the count tells the caller the list overflowed
    assert list(buf) == [10, 11, 12, -1, -1]  # nothing written past the list


def test_columns_rank_and_winners():
    SEAT = Columns("Seat", ("rank", "win", "order"))
    assert (SEAT.rank, SEAT.win, SEAT.order) == (0, 1, 2)
    rank = np.zeros(4, np.int64)
    rank_seats(np.array([5.0, 9.0, 9.0, 1.0]), 4, rank)
    assert list(rank) == [3, 1, 1, 4] and winners(rank, 4) == 2
    rank_seats_lowest(np.array([5.0, 9.0, 9.0, 1.0]), 4, rank)
    assert list(rank) == [2, 3, 3, 1] and winners(rank, 4) == 1


def test_refill_moves_the_discards_and_shuffles_them():
    rng = np.array([1, 2], np.uint64)
    deck = np.zeros(10, np.int64)
    discard = np.arange(10, dtype=np.int64)
    assert refill(rng, deck, discard, 7) == 7
    assert sorted(deck[:7]) == list(range(7)) and list(deck[:7]) != list(range(7))


def test_a_legal_list_overflow_stops_the_run_and_writes_nothing(tmp_path):
    """Fault injection: an engine that lists more actions than MAX_ACTIONS (tests/overflow_engine.py)."""
    from sim.runner import run_study

    spec = dataclasses.replace(get_game("toy_pig"), name="toy_overflow", engine="tests.overflow_engine")
    register(spec)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="outgrew MAX_ACTIONS=2"):
        run_study("toy_overflow", out, games=200, players=[2], lineup=("hold20", "hold20"), seed=1, progress=False)
    assert not list(out.rglob("*.parquet"))
