"""Strategy knobs by name: every preset of every game is declared by named knobs (sim.knobs)."""

import re
from pathlib import Path

import pytest

from sim.errors import UserError
from sim.game import game_names, get_game
from sim.knobs import KnobTable, Preset, split_overrides, strategies

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", game_names())
def test_every_preset_is_named_knobs(name):
    game = get_game(name)
    tables = {id(s.knobs) for s in game.strategies}
    assert len(tables) == 1, "one knob table per game"
    for s in game.strategies:
        assert s.knobs is not None and len(s.weights) == len(s.knobs), s.name
        assert all(k.doc and k.lo <= v <= k.hi for k, v in zip(s.knobs.knobs, s.weights)), s.name
        # a preset is the table's defaults plus the knobs it changes, nothing else
        assert s.knobs.vector(s.changes) == s.weights


@pytest.mark.parametrize("path", sorted((ROOT / "strategies").glob("*.py")))
def test_no_positional_weight_indexing(path):
    # a knob is read by its named slot (w[W_DENY]), never by a bare number (w[4])
    hits = re.findall(r"\b(?:w|weights)\[\d+\]", path.read_text())
    assert not hits, f"{path.name}: {hits}"


def test_presets_are_validated_when_declared():
    t = KnobTable()
    t.add("hold", 20, 1, 100, "int", "hold at")
    with pytest.raises(UserError, match="unknown knob of bad"):
        strategies(t, [Preset("bad", 1, "doc", {"hodl": 3})])
    with pytest.raises(UserError, match=r"out of range \[1, 100\]"):
        strategies(t, [Preset("bad", 1, "doc", {"hold": 0})])
    with pytest.raises(UserError, match="whole number"):
        strategies(t, [Preset("bad", 1, "doc", {"hold": 2.5})])


def test_split_overrides():
    game, knobs = split_overrides({"target": 50, "strategy.hold20.hold": 30})
    assert game == {"target": 50} and knobs == {("hold20", "hold"): 30}
    with pytest.raises(UserError, match=r"strategy\.<preset>\.<knob>"):
        split_overrides({"strategy.hold": 3})


def test_strategies_command_prints_knobs_by_name(capsys):
    from sim.cli import main

    assert main(["strategies", "raccoon_tycoon"]) == 0
    out = capsys.readouterr().out
    # the knob table: name, default (the columns are as wide as the longest knob name)
    assert re.search(r"^  deny +?= 0\.4 ", out, re.M) and "rail_baron_denier" in out and "deny=1.0" in out


# ---------------------------------------------------------------- knobs as study parameters


@pytest.fixture
def clean_presets(toy):
    """Preset files register with the game (in this process): undo it after each test."""
    before = list(toy.strategies)
    yield toy
    toy.strategies[:] = before


def _error(capsys, argv, *needles):
    from tests.test_cli import one_error_line

    return one_error_line(capsys, argv, *needles)


def _seats(folder):
    import pandas as pd

    return pd.read_parquet(folder / "seats").sort_values(["game", "seat"]).reset_index(drop=True)


def test_set_knob_on_run_equals_preset_file(tmp_path, capsys, clean_presets):
    import json

    from sim.cli import main

    base = ["run", "toy_pig", "--games", "300", "--players", "3", "--seed", "7", "--no-progress"]
    assert (
        main(
            base
            + ["--lineup", "hold20,hold10,random", "--out", str(tmp_path / "a"), "--set", "strategy.hold20.hold=30"]
        )
        == 0
    )
    man = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert man["strategies"]["hold20"]["knobs_changed"] == {"hold": "30"}
    assert man["seating"]["custom_strategies"]["hold20"]["weights"][0] == 30.0
    (tmp_path / "hold30.toml").write_text('base = "hold20"\n[knobs]\nhold = 30\n')
    assert (
        main(
            base
            + [
                "--lineup",
                "hold30,hold10,random",
                "--out",
                str(tmp_path / "b"),
                "--strategy-file",
                str(tmp_path / "hold30.toml"),
            ]
        )
        == 0
    )
    a, b = _seats(tmp_path / "a"), _seats(tmp_path / "b")
    assert set(b.strategy.astype(str)) == {"hold30", "hold10", "random"}
    # the same knobs in the same seats: the same games, whatever the preset is called
    assert a.drop(columns="strategy").equals(b.drop(columns="strategy"))
    assert main(base + ["--lineup", "hold20,hold10,random", "--out", str(tmp_path / "c")]) == 0
    assert not a.drop(columns="strategy").equals(_seats(tmp_path / "c").drop(columns="strategy"))
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "b"), "3"]) == 0  # the file's knobs travel in the manifest


@pytest.mark.parametrize(
    "argv,needles",
    [
        (["run", "toy_pig", "--set", "strategy.hold20.hodl=3"], ["unknown knob of hold20 'hodl'", "Did you mean hold"]),
        (
            ["run", "toy_pig", "--set", "strategy.hold20.hold=500"],
            ["strategy.hold20.hold=500 is out of range [1, 100]"],
        ),
        (["run", "toy_pig", "--set", "strategy.hold20.hold=2.5"], ["whole number"]),
        (["run", "toy_pig", "--set", "strategy.hold20=3"], ["strategy.<preset>.<knob>"]),
        (["run", "toy_pig", "--set", "strategy.hold99.hold=3"], ["unknown strategy", "hold99"]),
        (
            ["run", "toy_pig", "--lineup", "hold20,random", "--set", "strategy.hold10.hold=3"],
            ["hold10 does not play in this line-up"],
        ),
        (["run", "toy_pig", "--set", "strategy.random.hold=3"], ["random has no knobs"]),
        (["sweep", "toy_pig", "--grid", "strategy.hold20.hodl=3,4"], ["unknown knob of hold20"]),
        (["sweep", "toy_pig", "--grid", "strategy.hold20.hold=10,200"], ["out of range [1, 100]"]),
        (["solve", "toy_pig", "--param", "strategy.hold20.hodl"], ["unknown knob of hold20"]),
        (["solve", "toy_pig", "--param", "strategy.hold20.hold", "--between", "0:30"], ["out of range [1, 100]"]),
        (["run", "toy_pig", "--strategy-file", "nofile.toml"], ["preset file nofile.toml not found"]),
    ],
)
def test_bad_knobs_one_line_nothing_written(argv, needles, tmp_path, capsys, monkeypatch, clean_presets):
    monkeypatch.chdir(tmp_path)
    _error(capsys, argv, *needles)
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(
    "text,needle",
    [
        ('base = "hold20"\n[knobs]\nhold = 0\n', "out of range [1, 100]"),
        ('base = "hold2"\n', "unknown strategy"),
        ("[knobs]\nhold = 3\n", "names no base preset"),
        ('base = "hold20"\nbsae = 1\n', "unknown key"),
        ('name = "hold10"\nbase = "hold20"\n', "built-in preset"),
        ('game = "bang_dice"\nbase = "hold20"\n', "not of toy_pig"),
    ],
)
def test_bad_preset_file(text, needle, tmp_path, capsys, monkeypatch, clean_presets):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text(text)
    _error(capsys, ["run", "toy_pig", "--strategy-file", "p.toml"], needle)
    assert not (tmp_path / "results").exists()


def test_sweep_grid_over_a_knob(tmp_path, capsys):
    import json

    import pandas as pd

    from sim.cli import main

    out = tmp_path / "sw"
    assert (
        main(
            [
                "sweep",
                "toy_pig",
                "--players",
                "3",
                "--games",
                "400",
                "--grid",
                "strategy.hold20.hold=5,25",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    summary = pd.read_parquet(out / "summary.parquet")
    assert list(summary["strategy.hold20.hold"]) == [5.0, 25.0]
    # holding at 5 is much weaker than at 25 against the same field
    share = summary["strategy.hold20_win_share"]
    assert share[0] < share[1]
    man = json.loads((out / "manifest.json").read_text())
    assert [c["strategies"]["hold20"]["knobs"]["hold"] for c in man["configs"]] == ["5", "25"]


def test_solve_a_knob_sets_the_design():
    from sim.solve import GameMetric

    fn = GameMetric("toy_pig", "strategy.hold20.hold", "order0_win_share", 3, overrides={"target": 30})
    w = fn.design_at(12).strategy_rows(fn.spec)[1]
    assert w[list(fn.design.slots).index("hold20"), 0] == 12.0
    assert fn.pvec(12)[fn.spec.params.index("target")] == 30.0


def test_lineup_tuned_plays_the_shipped_tuned_presets(tmp_path, capsys, clean_presets, monkeypatch):
    import json

    from sim.cli import main
    from sim.knobs import expand_lineup

    toy = clean_presets
    monkeypatch.setattr(toy, "default_lineup", ("planted", "hold20", "random"))
    assert expand_lineup(toy, ["tuned"]) == ["planted_tuned", "hold20", "random"]
    spec = toy.strategy("planted_tuned")
    assert spec.origin.endswith("planted_tuned.toml") and 0.6 < spec.weights[1] < 0.8  # tuned to ~0.7
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                "toy_pig",
                "--games",
                "300",
                "--players",
                "3",
                "--lineup",
                "tuned",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    man = json.loads((out / "manifest.json").read_text())
    assert man["seating"]["lineup"] == ["planted_tuned", "hold20", "random"]
    assert man["strategies"]["planted_tuned"]["file"].endswith("planted_tuned.toml")
    from sim.knobs import expand_sweep_lineups
    from sim.sweep import build_sweep

    sweep = build_sweep(expand_sweep_lineups({"game": "toy_pig", "players": 3, "games": 30, "lineup": "tuned"}))
    assert sweep.lineups == [("planted_tuned", "hold20", "random")]


def test_a_given_preset_file_wins_over_the_shipped_preset_of_its_name(tmp_path, clean_presets, monkeypatch):
    """--strategy-file planted_tuned.toml, then a line-up naming planted_tuned (or `tuned`): the given file plays,
    not the shipped one (expand_lineup loads the shipped presets and used to register them over it)."""
    from sim.knobs import expand_lineup, load_files

    toy = clean_presets
    monkeypatch.setattr(toy, "default_lineup", ("planted", "hold20", "random"))
    mine = tmp_path / "planted_tuned.toml"
    mine.write_text('game = "toy_pig"\nname = "planted_tuned"\nbase = "planted"\n[knobs]\nskill = 0.15\n')
    load_files(toy, [str(mine)])
    for lineup in (["planted_tuned", "hold20"], ["tuned"]):
        expand_lineup(toy, lineup)
        spec = toy.strategy("planted_tuned")
        assert spec.origin == str(mine) and spec.weights[1] == 0.15


def test_lineup_tuned_without_shipped_presets_is_one_line(tmp_path, capsys, monkeypatch, clean_presets):
    from sim import knobs

    monkeypatch.setattr(knobs, "tuned_folder", lambda game: tmp_path / "none")
    monkeypatch.chdir(tmp_path)
    _error(capsys, ["run", "toy_pig", "--lineup", "tuned"], "ships no tuned presets")
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("name", game_names())
def test_shipped_tuned_presets_load_and_record_their_command(name):
    import tomllib
    from sim.knobs import load_shipped, tuned_folder

    game = get_game(name)
    before = list(game.strategies)
    try:
        shipped = load_shipped(game)
        for base, spec in shipped.items():
            raw = tomllib.loads(open(spec.origin).read())
            assert raw["command"].startswith(f"sim tune {name} --strategy {base} ")
            assert spec.name == f"{base}_tuned" and spec.sid == game.strategy(base).sid
        assert len(shipped) == len(list(tuned_folder(game).glob("*.toml")))
    finally:
        game.strategies[:] = before


def test_sweep_file_names_preset_files(tmp_path, clean_presets):
    from sim.errors import UserError
    from sim.sweep import build_sweep

    (tmp_path / "h30.toml").write_text('base = "hold20"\n[knobs]\nhold = 30\n')
    sweep = build_sweep(
        {
            "game": clean_presets,
            "players": 3,
            "games": 30,
            "lineup": ["h30", "hold10", "random"],
            "strategy_files": [str(tmp_path / "h30.toml")],
        }
    )
    assert sweep.configs[0].design.strategy_rows(clean_presets)[1][0, 0] == 30.0
    assert sweep.request()["preset_files"] == {"h30": [30.0, 0.5, 0.0]}  # an edited file is another sweep
    with pytest.raises(UserError, match="strategy_files must be a list"):
        build_sweep({"game": clean_presets, "strategy_files": "h30.toml"})
