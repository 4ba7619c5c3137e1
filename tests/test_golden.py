"""Golden fingerprints (tests/fingerprints.py): every game's seeded output tables and one playthrough are as
recorded.  When one of these fails after a rule or strategy change, run `make golden` and say in the commit which
change moved which fingerprint and why; after a refactor or speed-up, a failure here is a bug."""

import json

import pyarrow as pa
import pytest

from sim.game import game_names
from tests import fingerprints as fp

GAMES = game_names()


def _recorded(name):
    return json.loads(fp.golden_path(name).read_text())


@pytest.mark.parametrize("name", GAMES)
def test_recorded_settings_are_the_current_ones(name):
    old = _recorded(name)
    assert old["games_per_setting"] == fp.GAMES and old["seed"] == fp.SEED
    assert [{k: r[k] for k in ("name", "players", "lineup", "params")} for r in old["settings"]] == fp.settings(name)


@pytest.mark.parametrize("name", GAMES)
def test_fingerprints_unchanged(name):
    changed = []
    for row in _recorded(name)["settings"]:
        setting = {k: row[k] for k in ("name", "players", "lineup", "params")}
        digest, summary = fp.fingerprint(name, setting)
        if digest != row["hash"]:
            changed.append(f"{row['name']} {row['players']}p: was {row['summary']}, now {summary}")
    assert not changed, f"{name}: golden fingerprints moved (make golden, and say why in the commit):\n" + "\n".join(
        changed
    )


@pytest.mark.parametrize("name", GAMES)
def test_playthrough_unchanged(name):
    assert fp.playthrough(name) == fp.replay_path(name).read_text()


def test_table_hash_sees_one_changed_value_and_ignores_layout():
    a = pa.table({"x": pa.array([1, 2, 3]), "s": pa.array(["a", "b", "a"]).dictionary_encode()})
    b = pa.table({"x": pa.array([1, 2, 4]), "s": pa.array(["a", "b", "a"]).dictionary_encode()})
    # the same values, chunked and with the dictionary in another order
    c = pa.table(
        {
            "x": pa.chunked_array([[1], [2, 3]]),
            "s": pa.DictionaryArray.from_arrays(pa.array([1, 0, 1], pa.int32()), pa.array(["b", "a"])),
        }
    )
    assert fp.table_hash(a) != fp.table_hash(b)
    assert fp.table_hash(a) == fp.table_hash(c)
