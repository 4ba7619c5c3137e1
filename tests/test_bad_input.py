"""One clear line for every bad input: exit 2, exactly one line on stderr, no traceback, nothing created.

The table holds the 35 cases of issue 28 (and a few more); a hypothesis test throws generated bad values at every
numeric and named flag and at every key of a sweep file.  Commands run in this process (`sim.cli.main`), on the
toy game, so the whole file takes seconds.
"""

import json
import math
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.check import check_folder
from sim.cli import main
from sim.errors import UserError
from sim.results import part_name


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A finished run and sweep of the toy game, and a few files, copied fresh into every test's folder."""
    base = tmp_path_factory.mktemp("made")
    assert (
        main(["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", str(base / "run"), "--no-progress"])
        == 0
    )
    assert (
        main(
            [
                "sweep",
                "toy_pig",
                "--games",
                "300",
                "--chunk-size",
                "100",
                "--grid",
                "target=30,40",
                "--out",
                str(base / "sweep"),
                "--no-progress",
            ]
        )
        == 0
    )
    (base / "afile").write_text("x")
    (base / "g5.toml").write_text("game = 5\n")
    (base / "latin1.toml").write_bytes(b'game = "toy_pig"\n# caf\xe9\n')
    (base / "nan.toml").write_text('game = "toy_pig"\n[grid]\ntarget = [nan, 30]\n')
    (base / "inf.toml").write_text('game = "toy_pig"\ngames = inf\n')
    (base / "dir.toml").mkdir()
    return base


@pytest.fixture
def ws(made, tmp_path, monkeypatch):
    for p in made.iterdir():
        (shutil.copytree if p.is_dir() else shutil.copy2)(p, tmp_path / p.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tree(folder):
    return sorted(
        (str(p.relative_to(folder)), p.stat().st_size if p.is_file() else -1) for p in Path(folder).rglob("*")
    )


def one_line(capsys, argv, needles=()):
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, (argv, err)
    assert len(err) == 1, (argv, err)
    assert "Traceback" not in err[0] and err[0].startswith(f"sim {argv[0]}: error: "), err
    for n in needles:
        assert n in err[0], (n, err[0])
    return err[0]


def corrupt(text):
    def f(ws, which):
        (ws / which / "manifest.json").write_text(text)

    return f


def damage_part(how):
    def f(ws, which):
        part = (
            (ws / which / "seats" / part_name(1))
            if which == "run"
            else (ws / which / "seats" / "config=1" / part_name(1))
        )
        part.write_bytes(b"" if how == "empty" else part.read_bytes()[: part.stat().st_size // 2])

    return f


def edit_manifest(ws, which, **changes):
    m = json.loads((ws / which / "manifest.json").read_text())
    m.update(changes)
    (ws / which / "manifest.json").write_text(json.dumps(m))


def edit_seed(ws, which):
    m = json.loads((ws / "run" / "manifest.json").read_text())
    m["seed"] += 1
    (ws / "run" / "manifest.json").write_text(json.dumps(m))


# (argv, what must be in the line, set-up on the workspace or None)
CASES = [
    (["run", "toy_pig", "--strategies", "hold20,hold20", "--players", "2", "--mirror"], ["--mirror", "fixed"], None),
    # NaN and infinite numbers in --set, grids and ranges
    (["run", "toy_pig", "--set", "target=nan"], ["finite"], None),
    (["run", "toy_pig", "--set", "target=inf"], ["finite"], None),
    (["run", "toy_pig", "--set", "target=-inf"], ["finite"], None),
    (["sweep", "toy_pig", "--grid", "target=nan,30"], ["finite"], None),
    (["sweep", "toy_pig", "--grid", "target=1:inf:1"], ["finite"], None),
    (["sweep", "toy_pig", "--grid", "target=nan:40:1"], ["finite"], None),
    (["sweep", "toy_pig", "--set", "target=-inf"], ["finite"], None),
    (["sweep", "toy_pig", "--zip", "target=nan,30"], ["finite"], None),
    (["sweep", "nan.toml"], ["finite"], None),
    (["sweep", "inf.toml"], ["games must be a whole number"], None),
    (["sweep", "toy_pig", "--confidence", "nan"], ["confidence"], None),
    (
        ["sweep", "toy_pig", "--adaptive-metric", "order0_win_share", "--adaptive-width", "nan", "--max-games", "1000"],
        ["width"],
        None,
    ),
    (["solve", "toy_pig", "--param", "target", "--target", "nan"], ["finite"], None),
    (["solve", "toy_pig", "--param", "target", "--target", "inf"], ["finite"], None),
    (["solve", "toy_pig", "--param", "target", "--between", "nan:40"], ["finite"], None),
    (["solve", "toy_pig", "--param", "target", "--confidence", "inf"], ["--confidence"], None),
    # --out that is a file, unreachable or unwritable
    (["run", "toy_pig", "--out", "afile"], ["is a file"], None),
    (["sweep", "toy_pig", "--out", "afile"], ["is a file"], None),
    (["run", "toy_pig", "--out", "afile/sub"], ["is a file"], None),
    (["run", "toy_pig", "--out", "/proc/no/such"], ["/proc/no"], None),
    (["sweep", "toy_pig", "--out", "/proc/no/such"], ["/proc/no"], None),
    (["run", "toy_pig", "--out", "/sys/kernel/x"], ["cannot write"], None),
    # corrupt or empty manifests
    (
        ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run"],
        ["corrupt", "--overwrite"],
        lambda ws: corrupt("{not json")(ws, "run"),
    ),
    (
        ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run"],
        ["corrupt"],
        lambda ws: corrupt("")(ws, "run"),
    ),
    (
        ["sweep", "toy_pig", "--games", "300", "--chunk-size", "100", "--grid", "target=30,40", "--out", "sweep"],
        ["corrupt", "--fresh"],
        lambda ws: corrupt("[1, 2")(ws, "sweep"),
    ),
    (["report", "run"], ["corrupt"], lambda ws: corrupt("")(ws, "run")),
    (
        ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run"],
        ["is edited", "--overwrite"],
        lambda ws: edit_manifest(ws, "run", chunk_size=0),
    ),
    (
        ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run"],
        ["is edited"],
        lambda ws: edit_manifest(ws, "run", chunk_size="100"),
    ),
    (["replay", "run", "3"], ["corrupt"], lambda ws: corrupt("{")(ws, "run")),
    (["check", "sweep"], ["corrupt"], lambda ws: corrupt("\x00")(ws, "sweep")),
    (
        ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run"],
        ["not a results manifest"],
        lambda ws: corrupt("[]")(ws, "run"),
    ),
    # truncated and empty part files where they are read
    (["report", "run"], ["damaged", "sim check"], lambda ws: damage_part("truncate")(ws, "run")),
    (["report", "sweep"], ["damaged"], lambda ws: damage_part("empty")(ws, "sweep")),
    (["check", "run"], ["incomplete or damaged"], lambda ws: damage_part("empty")(ws, "run")),
    # sweep files
    (["sweep", "g5.toml"], ["game must be a game name"], None),
    (["sweep", "latin1.toml"], ["not UTF-8"], None),
    (["sweep", "missing.toml"], ["not found"], None),
    (["sweep", "dir.toml"], ["not found"], None),
    # replay
    (["replay", "sweep", "3"], ["--config"], None),
    (["replay", "sweep", "3", "--config", "7"], ["outside this sweep"], None),
    (["replay", "run", "3", "--config", "0"], ["single run"], None),
    (["replay", "afile", "3"], ["not a results folder"], None),
    # outputs checked before the work
    (["report", "run", "-o", "sweep"], ["is a folder"], None),
    (["solve", "toy_pig", "--param", "target", "--out", "afile/x.json"], ["is a file"], None),
    (["solve", "toy_pig", "--param", "target", "--out", "run"], ["is a folder"], None),
    # limits
    (["run", "toy_pig", "--games", "18446744073709551616"], ["at most 10,000,000,000"], None),
    (["run", "toy_pig", "--games", "10000000000000"], ["at most"], None),
    (["sweep", "toy_pig", "--games", "10000000000000"], ["at most"], None),
    (
        [
            "sweep",
            "toy_pig",
            "--adaptive-metric",
            "order0_win_share",
            "--adaptive-width",
            "0.01",
            "--max-games",
            "100000000000000",
        ],
        ["max_games must be at most"],
        None,
    ),
    (["solve", "toy_pig", "--param", "target", "--max-games", "100000000000000000000"], ["--max-games"], None),
    (["run", "toy_pig", "--seed", "100000000000000000000000"], ["--seed"], None),
    # names
    (["run", "toy_pig", "--lineup", ","], ["--lineup names no strategy"], None),
    (["run", "toy_pig", "--strategies", " , "], ["--strategies names no strategy"], None),
    (["sweep", "toy_pig", "--lineup", ","], ["--lineup names no strategy"], None),
    (["run", "toy_pig", "--players", "3-4", "--strategies", "hold20,hold10,random"], ["single player count"], None),
    (["run", "toy_pig", "--players", "3", "--strategies", "hold20,hold10"], ["3 names for 3 players (got 2)"], None),
    (["run", "toy_pig", "--players", "3-1000000000"], ["spans 999,999,998 player counts"], None),
    (["bench", "toy_pig", "--games", "100000000000000"], ["at most"], None),
    (["check", "nothere"], ["no such directory"], None),
    (["check", "run"], ["incomplete or edited"], lambda ws: edit_manifest(ws, "run", chunk_size=0)),
    (["check", "sweep"], ["incomplete or edited"], lambda ws: edit_manifest(ws, "sweep", configs=[{"x": 1}])),
    (["replay", "run", "1"], ["incomplete or edited"], lambda ws: edit_manifest(ws, "run", seed="abc")),
    (["check", "afile"], ["is a file"], None),
]


def write(name, text):
    def f(ws):
        (ws / name).write_text(text)

    return f


def huge_games(ws):
    """An edited manifest whose games per player count would take forever to walk (issue 41: it hung)."""
    m = json.loads((ws / "run" / "manifest.json").read_text())
    m["seating"]["games_per_player_count"] = 10**15
    m["request"]["design"]["games_per_player_count"] = 10**15
    (ws / "run" / "manifest.json").write_text(json.dumps(m))


def audit_folder(ws):
    """What `sim audit` leaves: a manifest with an audit request, decisions, a summary."""
    (ws / "audit" / "decisions").mkdir(parents=True)
    manifest = {"game": "toy_pig", "request": {"kind": "audit", "game": "toy_pig"}, "status": "complete"}
    (ws / "audit" / "manifest.json").write_text(json.dumps(manifest))
    (ws / "audit" / "summary.txt").write_text("x\n")


KNOB_INF = 'game = "toy_pig"\ngames = 100\n[set]\n"strategy.hold20.hold" = inf\n'
# issue 41: the last inputs that gave a traceback or were accepted without meaning
CASES_41 = [
    (
        ["audit", "toy_pig", "--strategy", "hold10", "--decisions", "4", "--threads", "99"],
        ["--threads", "between 1 and"],
        None,
    ),
    (["audit", "toy_pig", "--strategy", "hold10", "--decisions", "4", "--threads", "0"], ["--threads"], None),
    (["effect", "toy_pig", "--item", "joker", "--games", "10", "--threads", "99"], ["--threads"], None),
    (["effect", "toy_pig", "--item", "joker", "--games", "10", "--threads", "0"], ["--threads"], None),
    (["run", "toy_pig", "--threads", "0"], ["--threads"], None),
    (["sweep", "toy_pig", "--threads", "99"], ["--threads"], None),
    (["run", "toy_pig", "--set", "strategy.hold20.hold=inf"], ["finite", "strategy.hold20.hold"], None),
    (["run", "toy_pig", "--set", "strategy.hold20.hold=nan"], ["finite"], None),
    (["run", "toy_pig", "--set", "strategy.hold20.hold=-inf"], ["finite"], None),
    (
        ["audit", "toy_pig", "--strategy", "hold20", "--decisions", "4", "--set", "strategy.hold20.hold=inf"],
        ["finite"],
        None,
    ),
    (["sweep", "knob.toml"], ["finite"], write("knob.toml", KNOB_INF)),
    (
        ["run", "toy_pig", "--strategy-file", "p.toml", "--lineup", "p,hold10"],
        ["finite"],
        write("p.toml", 'base = "hold20"\n[knobs]\nhold = inf\n'),
    ),
    (
        ["run", "toy_pig", "--strategy-file", "p.toml", "--lineup", "hold20,hold10"],
        ["name must be one word"],
        write("p.toml", 'name = ["a", "b"]\nbase = "hold20"\n'),
    ),
    (
        ["effect", "toy_pig", "--item", "joker", "--players", "3", "--deal-to-seat=-1"],
        ["--deal-to-seat", "between 0 and 2"],
        None,
    ),
    (["effect", "toy_pig", "--item", "joker", "--players", "3", "--deal-to-seat", "9"], ["--deal-to-seat"], None),
    (["report", "run", "--target", "nosuch=0.5"], ["--target", "not a team game"], None),
    (["tune", "toy_pig", "--strategy", "hold20", "--final-games=-1"], ["--final-games"], None),
    (["tune", "toy_pig", "--strategy", "hold20", "--games-per-eval", "0"], ["--games-per-eval"], None),
    (["run", "toy_pig", "--games", "1000000000", "--chunk-size", "1000000000"], ["memory", "--chunk-size"], None),
    (["run", "toy_pig", "--games", "2000000", "--chunk-size", "1"], ["chunks"], None),
    (
        ["sweep", "toy_pig", "--games", "1000000000", "--chunk-size", "1000000000"],
        ["memory", "chunk_size"],
        None,
    ),
    (
        ["sweep", "toy_pig", "--grid", "target=1:1000:1", "--grid", "turn_cap=100:110:1"],
        ["11,000 configurations", "at most 10,000"],
        None,
    ),
    (["check", "run"], ["incomplete or edited", "games_per_player_count"], huge_games),
    (["report", "run"], ["incomplete or edited"], huge_games),
    (["replay", "run", "3"], ["incomplete or edited"], huge_games),
    (["check", "audit"], ["audit folder", "sim replay"], audit_folder),
    (["report", "audit"], ["audit folder", "sim replay"], audit_folder),
]
CASES = CASES + CASES_41


@pytest.mark.parametrize("argv,needles,setup", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_bad_input_gives_one_line_and_creates_nothing(ws, capsys, argv, needles, setup):
    if setup:
        setup(ws)
    before = tree(ws)
    one_line(capsys, argv, needles)
    assert tree(ws) == before


def test_the_recovery_flags_recover_a_corrupt_manifest(ws, capsys, made):
    corrupt("{")(ws, "run")
    assert (
        main(
            ["run", "toy_pig", "--games", "300", "--chunk-size", "100", "--out", "run", "--no-progress", "--overwrite"]
        )
        == 0
    )
    assert check_folder(ws / "run").ok
    corrupt("")(ws, "sweep")
    assert (
        main(
            [
                "sweep",
                "toy_pig",
                "--games",
                "300",
                "--chunk-size",
                "100",
                "--grid",
                "target=30,40",
                "--out",
                "sweep",
                "--no-progress",
                "--fresh",
            ]
        )
        == 0
    )
    assert check_folder(ws / "sweep").ok


def test_replay_says_when_the_stored_game_differs(ws, capsys):
    capsys.readouterr()
    assert main(["replay", "run", "5"]) == 0  # unchanged: silent agreement
    assert capsys.readouterr().err == ""
    edit_seed(ws, "run")
    code = main(["replay", "run", "5"])
    out = capsys.readouterr()
    assert code == 2 and "Result:" in out.out
    assert len(out.err.strip().splitlines()) == 1 and "does not match the row stored" in out.err


def test_replay_of_a_sweep_configuration(ws, capsys):
    capsys.readouterr()
    assert main(["replay", "sweep", "5", "--config", "1"]) == 0
    assert "config=1" in capsys.readouterr().out


def test_full_disk_ends_with_one_line_and_a_failed_status(ws, capsys, monkeypatch):
    import errno

    import sim.runner

    calls = []

    def full(*a, **k):
        calls.append(1)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device", "x/part.parquet")
        return real(*a, **k)

    real = sim.runner.write_chunk
    monkeypatch.setattr(sim.runner, "write_chunk", full)
    line = one_line(
        capsys,
        ["run", "toy_pig", "--games", "500", "--chunk-size", "100", "--out", "full", "--no-progress"],
        ["No space left on device", "run the same command again"],
    )
    m = json.loads((ws / "full" / "manifest.json").read_text())
    assert m["status"] == "failed" and "No space" in m["reason"], line
    monkeypatch.undo()
    monkeypatch.chdir(ws)
    assert main(["run", "toy_pig", "--games", "500", "--chunk-size", "100", "--out", "full", "--no-progress"]) == 0
    assert json.loads((ws / "full" / "manifest.json").read_text())["status"] == "complete"


def test_closed_stdout_is_not_an_error(capsys, monkeypatch):
    """`sim params bang_dice | head -1`: the reader went away; no traceback, no error line."""
    import sys

    class Closed:
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["params", "toy_pig"]) == 0
    monkeypatch.undo()
    assert capsys.readouterr().err == ""


# ----------------------------------------------------------------------------------------------- generated


def _not_whole_in(lo, hi):
    def bad(x):
        try:
            v = float(x)
        except (TypeError, ValueError, OverflowError):
            return True
        return not (math.isfinite(v) and v == int(v) and lo <= v <= hi)

    return bad


def _not_number(x):
    try:
        float(x)
        return False
    except (TypeError, ValueError, OverflowError):
        return True


def _is_strategy(name):
    """A name the toy game accepts in a line-up (its presets, random, search players, shipped tuned presets)."""
    from sim.game import get_game

    try:
        get_game("toy_pig").strategy(name)
        return True
    except UserError:
        return False


floats = st.floats(allow_nan=True, allow_infinity=True)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
numbers_as_text = st.one_of(floats.map(repr), st.integers().map(str), texts)

# flag -> values that must be refused (target: a whole number from 1 to 1000 in the toy game)
BAD_FLAGS = {
    "--set": numbers_as_text.filter(_not_whole_in(1, 1000)).map(lambda v: f"target={v}"),
    "--grid": numbers_as_text.filter(lambda v: "," not in v and ":" not in v and _not_whole_in(1, 1000)(v)).map(
        lambda v: f"target={v}"
    ),
    "--games": st.one_of(st.integers(max_value=0), st.integers(min_value=10**10 + 1)).map(str),
    "--chunk-size": st.integers(max_value=0).map(str),
    "--seed": st.one_of(st.integers(max_value=-1), st.integers(min_value=2**64)).map(str),
    "--players": st.one_of(
        st.integers().filter(lambda n: not 2 <= n <= 4).map(str),
        texts.filter(lambda t: t.strip() and _not_number(t) and "-" not in t and "," not in t),
    ),
    "--lineup": texts.filter(
        lambda t: t.strip(", ") and all(n.strip() and not _is_strategy(n.strip()) for n in t.split(","))
    ),
    "--confidence": floats.filter(lambda x: not 0 < x < 1).map(repr),
}


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data(), command=st.sampled_from(["run", "sweep"]))
def test_generated_bad_flags(data, command, tmp_path_factory, monkeypatch):
    flag = data.draw(
        st.sampled_from([f for f in BAD_FLAGS if not (command == "run" and f in ("--grid", "--confidence"))])
    )
    value = data.draw(BAD_FLAGS[flag])
    where = tmp_path_factory.mktemp("gen")
    monkeypatch.chdir(where)
    _assert_refused(
        [
            command,
            "toy_pig",
            f"{flag}={value}" if value.startswith("-") else flag,
            *([] if value.startswith("-") else [value]),
            "--games" if flag != "--games" else "--seed",
            "10",
            "--out",
            "out",
            "--no-progress",
        ],
        where,
    )


def _toml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    raise TypeError(v)


toml_values = st.recursive(
    st.one_of(st.booleans(), floats, st.integers(min_value=-(2**63), max_value=2**63 - 1), texts),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=4,
)

# sweep-file key -> predicate: is this value refused?  (Only clearly bad values are kept.)
BAD_KEYS = {
    "games": lambda v: (
        not (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10**10)
        and not (isinstance(v, float) and math.isfinite(v) and v == int(v) and 1 <= v <= 10**10)
    ),
    "seed": lambda v: (
        not (
            isinstance(v, (int, float))
            and not isinstance(v, bool)
            and math.isfinite(v)
            and v == int(v)
            and 0 <= v < 2**64
        )
    ),
    "chunk_size": lambda v: isinstance(v, (bool, str, list)) or (isinstance(v, (int, float)) and not v >= 1),
    "confidence": lambda v: (
        isinstance(v, (bool, list))
        or (isinstance(v, (int, float)) and not 0 < v < 1)
        or (isinstance(v, str) and _not_number(v))
    ),
    "players": lambda v: (
        isinstance(v, (bool, float))
        or (isinstance(v, int) and not 2 <= v <= 4)
        or (
            isinstance(v, list)
            and (not v or any(isinstance(x, (bool, float, list)) or isinstance(x, int) and not 2 <= x <= 4 for x in v))
        )
    ),
    "lineup": lambda v: (
        not isinstance(v, (str, list))
        or (
            isinstance(v, list)
            and (not v or not all(isinstance(x, str) and x in ("hold20", "hold10", "random") for x in v))
        )
        or (isinstance(v, str) and any(n.strip() not in ("hold20", "hold10", "random") for n in v.split(",")))
    ),
    "all_rotations": lambda v: not isinstance(v, bool),
    "grid.target": lambda v: (
        not isinstance(v, (list, str))
        or v == []
        or (
            isinstance(v, list)
            and any(not (isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 1000) for x in v)
        )
    ),
    "set.target": lambda v: (
        isinstance(v, (list, bool))
        or (isinstance(v, (int, float)) and not (math.isfinite(v) and v == int(v) and 1 <= v <= 1000))
        or (isinstance(v, str) and _not_number(v))
    ),
    "nonsense_key": lambda v: True,
}


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(key=st.sampled_from(sorted(BAD_KEYS)), value=toml_values, data=st.data())
def test_generated_bad_sweep_files(key, value, data, tmp_path_factory, monkeypatch):
    from hypothesis import assume

    assume(BAD_KEYS[key](value))
    where = tmp_path_factory.mktemp("gen")
    monkeypatch.chdir(where)
    if "." in key:
        section, name = key.split(".")
        text = f'game = "toy_pig"\ngames = 10\n[{section}]\n{name} = {_toml(value)}\n'
    else:
        text = 'game = "toy_pig"\n' + ("games = 10\n" if key != "games" else "") + f"{key} = {_toml(value)}\n"
    (where / "s.toml").write_text(text)
    _assert_refused(["sweep", "s.toml", "--out", "out", "--no-progress"], where, keep={"s.toml"})


def _assert_refused(argv, where, keep=()):
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own errors (a value it cannot parse as int/float)
            code = e.code
    lines = err.getvalue().strip().splitlines()
    assert code == 2, (argv, lines)
    assert len(lines) == 1 and "Traceback" not in lines[0], (argv, lines)
    assert {p.name for p in Path(where).iterdir()} == set(keep), (argv, list(Path(where).iterdir()))


# ----------------------------------------------------------------------------------------------- issue 41, minor


def test_audit_folder_is_never_told_to_overwrite(ws, capsys):
    audit_folder(ws)
    for argv in (["check", "audit"], ["report", "audit"]):
        line = one_line(capsys, argv, ["audit folder"])
        assert "--overwrite" not in line and "--fresh" not in line, line


def test_error_lines_say_what_happened():
    import errno

    from sim.errors import describe_error

    full = OSError(errno.ENOSPC, "No space left on device", "r.html")
    assert "resume" not in describe_error(full, "report") and "free some space" in describe_error(full, "report")
    assert "to resume" in describe_error(full, "run")
    line = describe_error(OSError(errno.ENOSPC, "No space left on device"), "report")
    assert line.startswith("No space left on device; free some space"), line
    # pyarrow's OSError for a damaged file carries no errno: the line still says what it was
    line = describe_error(OSError("Couldn't deserialize thrift: TProtocolException: Invalid data"))
    assert line.startswith("OSError: Couldn't deserialize thrift") and "check the path" in line


def test_lock_message_of_a_half_written_lock_has_no_question_mark(tmp_path):
    from sim.lock import FolderLock, lock_path

    out = tmp_path / "x"
    lock_path(out).write_text("")  # created, not yet written: a live owner taking it right now
    with pytest.raises(UserError) as e:
        FolderLock(out).acquire()
    assert "?" not in str(e.value) and "taking the lock right now" in str(e.value)


def test_a_full_disk_leaves_no_empty_lock_file(tmp_path, monkeypatch):
    import errno

    import sim.lock
    from sim.lock import FolderLock, lock_path

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sim.lock.os, "write", full)
    with pytest.raises(UserError, match="No space left"):
        FolderLock(tmp_path / "r.html").acquire()
    assert not lock_path(tmp_path / "r.html").exists()


def test_replay_mismatch_prints_plain_numbers(ws, capsys):
    edit_seed(ws, "run")
    capsys.readouterr()
    assert main(["replay", "run", "5"]) == 2
    err = capsys.readouterr().err
    assert "does not match" in err and "np.float64" not in err and "float64" not in err


def test_dealt_seat_is_shown_as_given():
    import pandas as pd

    from sim.effect import report_lines

    ci = {"n": 10, "mean": 0.1, "low": 0.0, "high": 0.2}
    res = {
        "game": "g",
        "item": "X",
        "players": 10,
        "games": 10,
        "seed": 0,
        "intervention": {"item.deal": "X", "item.deal_to_seat": 10},  # the game's 1-based parameter value
        "mode": "deal to seat 9",
        "holder": ci,
        "holder_win": ci,
        "held_share": 1.0,
        "by_order": pd.DataFrame([{"order": 0, **ci}]),
        "association": {},
        "confidence": 0.95,
    }
    first = report_lines(res)[0]
    assert "dealt to seat 9" in first and "=10" not in first, first
