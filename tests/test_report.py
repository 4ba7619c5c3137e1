"""Designer reports (sim/report): build for every game from a small run, findings equal to sim.analysis's numbers,
sweeps with response curves and a balance point, one-line errors, and a render check in real headless Chromium
(images loaded, no console errors, screenshot saved to test-artifacts/report.png)."""

import json
import re
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import sim.analysis as sa
from sim.cli import main
from sim.errors import UserError
from sim.game import game_names, get_game
from sim.report import build as rb
from sim.report import build_report, collect, verdict
from sim.report import verdicts as vd
from sim.runner import run_study

ROOT = Path(__file__).resolve().parent.parent
GAMES = 300  # games per small run: enough for every section, fast


class Findings(HTMLParser):
    """Collects every <li class='finding ...'>: its attributes and its plain text; and every <img> src."""

    def __init__(self):
        super().__init__()
        self.findings, self.images, self.links = [], [], []
        self._depth = 0
        self._cur = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a.get("src", ""))
        for k in ("src", "href"):
            if k in a:
                self.links.append(a[k])
        if tag == "li" and "finding" in (a.get("class") or "").split():
            self._cur = {"attrs": a, "text": ""}
            self._depth = 1
        elif self._cur is not None and tag not in ("br", "img"):
            self._depth += 1

    def handle_endtag(self, tag):
        if self._cur is not None:
            self._depth -= 1
            if self._depth == 0:
                self.findings.append(self._cur)
                self._cur = None

    def handle_data(self, data):
        if self._cur is not None:
            self._cur["text"] += data


def parse(path):
    p = Findings()
    p.feed(Path(path).read_text(encoding="utf-8"))
    return p


class Lazy(dict):
    """game -> value, computed on first use (so one game that does not run fails only its own tests)."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, game):
        self[game] = value = self.make(game)
        return value


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("report_runs")
    return Lazy(lambda g: run_study(g, base / g, games=GAMES, seed=3, progress=False))


@pytest.fixture(scope="module")
def reports(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return Lazy(lambda g: build_report(runs[g], out / f"{g}.html")[0])


# ----------------------------------------------------------------------------------------------- every game


@pytest.mark.parametrize("game", game_names())
def test_report_builds_for_every_game(game, runs, reports):
    path = reports[game]
    text = path.read_text(encoding="utf-8")
    p = parse(path)
    assert text.startswith("<!DOCTYPE html>") and "</html>" in text
    assert p.images, "no charts"
    assert all(src.startswith("data:image/png;base64,") for src in p.images)
    # self-contained: nothing fetched from elsewhere (in-page anchors only)
    assert all(link.startswith(("#", "data:")) for link in p.links), [x for x in p.links if not x.startswith("#")]
    assert "<script" not in text.lower()
    kinds = {f["attrs"]["data-kind"] for f in p.findings}
    assert {"seat", "length"} <= kinds
    for anchor in ("findings", "seats", "shape", "provenance", "reproduction"):
        assert f"id='{anchor}'" in text
    man = json.loads((runs[game] / "manifest.json").read_text())
    assert str(man["seed"]) in text and man["code_version"] in text and man["source_hash"] in text
    if man["assumed_components"]:
        assert "rest on assumed components" in text
    else:
        assert "rest on assumed components" not in text
    assert path.stat().st_size < 3_000_000
    # a game whose rules fix who starts (BANG: the Sheriff) says so in every position-1 finding, others do not
    note = get_game(game).turn_order_note
    first = [
        f["text"] for f in p.findings if f["attrs"]["data-kind"] == "seat" and f["attrs"].get("data-position") == "0"
    ]
    assert first
    if note:  # said once (a Fact), not repeated in every position-1 finding
        assert all(note not in t and "first-player advantage" not in t for t in first), first
        assert sum(note in f["text"] for f in p.findings) == 1
    else:
        assert "Read position 1 with care" not in text


# ----------------------------------------------------------------------------------------------- numbers

SEAT = re.compile(
    r"The (first player|(\d+)\w\w player in turn order) wins ([\d.]+)% \(([\d.]+)\u2013([\d.]+)%\) "
    r"of (\d+)-player games against a fair ([\d.]+)%"
)


@pytest.mark.parametrize("game", ["raccoon_tycoon", "bang_dice"])
def test_findings_match_the_analysis_library(game, runs, reports):
    run = sa.load_run(runs[game])
    seats, items = run.seats(), run.items()
    adv = sa.seat_advantage(seats)
    fa = 0.05 / len(rb.report_families(seats, items, run.games(), get_game(game))[1])  # the report's 5%, by families
    found = parse(reports[game]).findings
    seat = [f for f in found if f["attrs"]["data-kind"] == "seat"]
    assert seat
    for f in seat:
        m = SEAT.search(f["text"])
        assert m, f["text"]
        pos = 0 if m.group(1) == "first player" else int(m.group(2)) - 1
        n = int(m.group(6))
        row = adv[(adv["players"] == n) & (adv["order"] == pos)].iloc[0]
        for got, want in zip(
            (m.group(3), m.group(4), m.group(5), m.group(7)), (row["rate"], row["low"], row["high"], row["fair"])
        ):
            assert abs(float(got) - 100 * want) <= 0.05 + 1e-9
        assert float(f["attrs"]["data-rate"]) == pytest.approx(row["rate"], abs=1e-12)
        fam = vd.seat_family(seats, family_alpha=fa).set_index(["players", "order"])
        assert f["attrs"]["data-verdict"] == fam.loc[(n, pos), "verdict"]
    if seats["strategy"].nunique() > 1:  # judged at every player count: one finding per strategy, pick, verdict
        sf = vd.strategy_family(seats, family_alpha=fa)
        picks = vd.strategy_picks(sf)
        strat = [f for f in found if f["attrs"]["data-kind"] == "strategy"]
        assert sorted((f["attrs"]["data-strategy"], f["attrs"]["data-verdict"]) for f in strat) == sorted(
            {(str(r["strategy"]), r["pick"], r["verdict"]): (str(r["strategy"]), r["verdict"]) for r in picks}.values()
        )
        for f in strat:
            a = f["attrs"]
            counts = [int(n) for n in a["data-players"].split(",")] if "data-players" in a else None
            rows = sf[sf["strategy"].astype(str) == a["data-strategy"]]
            if counts is not None:
                rows = rows[rows["players"].isin(counts)]
                assert len(rows) == len(counts) and (rows["verdict"] == a["data-verdict"]).all()
            for _, r in rows.iterrows():
                assert f"{100 * r['rate']:.1f}% ({100 * r['low']:.1f}" in f["text"]
            top = rows.loc[rows["excess"].abs().idxmax()]
            assert float(a["data-low"]) == pytest.approx(top["low"], abs=1e-12)
    items_found = [f for f in found if f["attrs"]["data-kind"] == "item"]
    fam = vd.item_family(seats, items, min_rows=rb.MIN_ROWS, family_alpha=fa).set_index("item")
    assert bool(items_found) == bool(fam["verdict"].notna().any())
    for f in items_found:
        a = f["attrs"]
        r = fam.loc[a["data-item"]]
        assert r["enough"] and a["data-verdict"] == r["verdict"]
        got = (float(a["data-effect-pp"]), float(a["data-low-pp"]), float(a["data-high-pp"]))
        assert got == pytest.approx((r["rel_pp"], r["rel_low_pp"], r["rel_high_pp"]), abs=1e-9)
        assert f"win {abs(r['rel_pp']):.1f} points" in f["text"]
        assert "association" in f["text"]
        if r["leaders_flag"]:
            assert a["data-verdict"] != "red"
    if game == "bang_dice":  # a team game leads with its sides, per player count, and downtime
        text = reports[game].read_text(encoding="utf-8")
        assert text.index("id='sides'") < text.index("id='seats'")
        sides = [f for f in found if f["attrs"]["data-kind"] == "side"]
        g = run.games()
        assert len(sides) == g["players"].nunique()
        fam = vd.side_family(g, get_game(game).side_column, family_alpha=fa)
        for f in sides:
            a = f["attrs"]
            r = fam[(fam["players"] == int(a["data-players"])) & (fam["side"] == a["data-side"])].iloc[0]
            assert a["data-verdict"] == r["verdict"] and float(a["data-rate"]) == pytest.approx(r["rate"])
            assert float(a["data-target"]) == pytest.approx(1 / 3)
        assert [f for f in found if f["attrs"]["data-kind"] == "downtime"]
        # robustness: a second population (the other public-information bots) played beside the run
        assert (runs[game] / "robust").is_dir()
        for f in found:
            lab = f["attrs"].get("data-robust")
            if lab:
                assert lab in ("holds", "depends") and rb.ROBUST_LABELS[lab] in f["text"]
        assert "eliminated" in text and "Elimination downtime" in text
    roles = [f for f in found if f["attrs"]["data-kind"] == "role"]
    assert not roles  # BANG's roles are its sides and its characters are items: judged once, elsewhere
    for f in roles:
        a = f["attrs"]
        n = int(a["data-players"])
        t = sa.seat_attribute_strength(
            seats[seats["players"] == n], a["data-column"], outcome="win", min_rows=rb.MIN_ROWS
        )
        r = t[t[a["data-column"]].astype(str) == a["data-label"]].iloc[0]
        assert f"wins {100 * r['rate']:.1f}% ({100 * r['low']:.1f}\u2013{100 * r['high']:.1f}%)" in f["text"]
        fam_r = vd.role_family(seats[seats["players"] == n], [a["data-column"]], min_rows=rb.MIN_ROWS, family_alpha=fa)
        want = fam_r[a["data-column"]]
        assert a["data-verdict"] == want[want[a["data-column"]].astype(str) == a["data-label"]]["verdict"].iloc[0]
    length = [f for f in found if f["attrs"]["data-kind"] == "length"][0]
    ls = sa.length_summary(run.games(), column=length["attrs"]["data-column"])
    row = ls[ls["players"] == int(length["attrs"]["data-players"])].iloc[0]
    assert f"lasts {row['mean']:.1f}" in length["text"]


def test_verdict_rule():
    # red: interval entirely beyond fair +- threshold; amber: excludes fair only; green: within; grey: too wide
    assert verdict(28.0, 30.0, 25.0, 2.0) == "red"
    assert verdict(20.0, 22.9, 25.0, 2.0) == "red"
    assert verdict(25.5, 28.0, 25.0, 2.0) == "amber"
    assert verdict(23.5, 26.0, 25.0, 2.0) == "green"
    assert verdict(21.0, 26.0, 25.0, 2.0) == "grey"
    assert verdict(float("nan"), 26.0, 25.0, 2.0) == "grey"
    # a big point estimate with a wide interval is never "strong"
    assert verdict(24.0, 40.0, 25.0, 2.0) == "grey"


# ----------------------------------------------------------------------------------------------- sweeps


def test_sweep_report_has_response_curves_and_balance_point(tmp_path, capsys):
    from sim.solve import Evaluation, SolveResult
    from sim.study import Study
    from sim.sweep import build_sweep, raw_from_study, run_sweep

    raw, _ = raw_from_study("toy_pig", Study("toy_pig", 3, games=400, seed=2), grids=["target=15,25,40"])
    out = tmp_path / "sweep"
    run_sweep(build_sweep(raw, "sweep"), out, progress=False)
    solve = SolveResult(
        value=27.5,
        low=24.0,
        high=31.0,
        target=1 / 3,
        confidence=0.95,
        bracket=(15, 40),
        evaluations=[Evaluation(15, 0.40, 1e-4, 400), Evaluation(40, 0.30, 1e-4, 400)],
        games=800,
    )
    (out / "solve_target.json").write_text(
        json.dumps(
            {
                "game": "toy_pig",
                "param": "target",
                "metric": "order0_win_share",
                "players": 3,
                "kind": "int",
                **solve.to_dict(),
            }
        )
    )
    html = tmp_path / "sweep.html"
    assert main(["report", str(out), "-o", str(html)]) == 0
    assert str(html) in capsys.readouterr().out
    p = parse(html)
    text = html.read_text(encoding="utf-8")
    assert "id='sweep'" in text and "id='balance'" in text
    sweep_f = [f for f in p.findings if f["attrs"]["data-kind"] == "sweep"]
    assert [f["attrs"]["data-param"] for f in sweep_f] == ["target"]
    run = sa.load_run(out)
    first = sa.seat_advantage(run.seats(), by="config")
    first = first[first["order"] == 0]
    for k in first["config"]:  # every configuration's first-player share is in the table
        r = first[first["config"] == k].iloc[0]
        assert f"{100 * r['rate']:.1f}%" in text
    bal = [f for f in p.findings if f["attrs"]["data-kind"] == "balance"]
    assert len(bal) == 1 and float(bal[0]["attrs"]["data-value"]) == 27.5
    assert "target = 27.5" in bal[0]["text"] and "24 to 31" in bal[0]["text"]


# ----------------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize("make", ["missing", "file", "empty_dir", "table_only"])
def test_bad_input_gives_one_line_error(make, tmp_path, capsys, runs):
    target = {
        "missing": tmp_path / "nope",
        "file": tmp_path / "f.txt",
        "empty_dir": tmp_path / "empty",
        "table_only": runs["raccoon_tycoon"] / "seats",
    }[make]
    if make == "file":
        target.write_text("hello")
    if make == "empty_dir":
        target.mkdir()
    assert main(["report", str(target), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sim report: error:") and "results folder" in err
    assert not (tmp_path / "r.html").exists()
    with pytest.raises(UserError):
        collect(target)


def test_pdf_without_chromium_is_a_one_line_error(tmp_path, capsys, runs, monkeypatch):
    monkeypatch.setenv("SIM_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert main(["report", str(runs["cold_comfort"]), "-o", str(tmp_path / "r.html"), "--pdf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Chromium" in err
    assert (tmp_path / "r.html").exists() and not (tmp_path / "r.pdf").exists()


# ----------------------------------------------------------------------------------------------- real browser

CHECK = """<script>
window.__errors = [];
window.addEventListener('error', function (e) {
  window.__errors.push(e.message || ('failed to load ' + (e.target && e.target.tagName)));
}, true);
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var out = {images: imgs.length, errors: window.__errors,
             loaded: imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
             width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight};
  var pre = document.createElement('pre');
  pre.id = 'render-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _chromium():
    binary = rb.find_chromium()
    assert binary, "Chromium is needed for the render test (CI installs it: apt-get install chromium)"
    return binary


def render_check(html_text, tmp_path, name):
    """Open a copy of the page with the check script in real headless Chromium; returns (result, console lines)."""
    page = tmp_path / f"{name}.html"
    page.write_text(html_text.replace("<head>", "<head>" + CHECK, 1), encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="chromium-test-") as ud:
        res = subprocess.run(
            rb.chromium_command(
                _chromium(),
                ud,
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=10000",
                "--dump-dom",
                page.as_uri(),
            ),
            capture_output=True,
            text=True,
            timeout=180,
        )
    m = re.search(r"<pre id=\"render-check\">(.*?)</pre>", res.stdout, re.S)
    assert m, f"no render result from Chromium (exit {res.returncode}): {res.stderr[-500:]}"
    import html as _html

    console = [line for line in res.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    return json.loads(_html.unescape(m.group(1))), console


def test_report_renders_in_headless_chromium(tmp_path, runs):
    html = tmp_path / "report.html"
    assert main(["report", str(runs["raccoon_tycoon"]), "-o", str(html)]) == 0
    text = html.read_text(encoding="utf-8")
    n_img = len(parse(html).images)
    result, console = render_check(text, tmp_path, "check")
    assert result["images"] == n_img >= 4
    assert result["loaded"] == result["images"], result
    assert result["errors"] == [] and console == [], (result, console)
    assert result["width"] <= 1400  # fits a laptop screen without sideways scrolling
    # the check itself can fail: a broken image and a script error are caught
    broken = text.replace(
        "</body>",
        "<img src='data:image/png;base64,AAAA' alt='x'>"
        "<img src='data:image/png;base64,AAAA' alt='y'>"
        "<script>undefinedFunction()</script></body>",
    )
    bad, bad_console = render_check(broken, tmp_path, "broken")
    assert bad["loaded"] == bad["images"] - 2
    assert bad["errors"] and bad_console
    # screenshot kept as a test artifact
    shot = ROOT / "test-artifacts" / "report.png"
    shot.parent.mkdir(exist_ok=True)
    if shot.exists():
        shot.unlink()
    with tempfile.TemporaryDirectory(prefix="chromium-test-") as ud:
        subprocess.run(
            rb.chromium_command(
                _chromium(),
                ud,
                "--hide-scrollbars",
                "--window-size=1280,2200",
                f"--screenshot={shot}",
                html.resolve().as_uri(),
            ),
            capture_output=True,
            text=True,
            timeout=180,
        )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000


def test_pdf_is_written_by_chromium(tmp_path, runs):
    out = tmp_path / "r.html"
    written = build_report(runs["cold_comfort"], out, pdf=True)
    assert written == [out, (tmp_path / "r.pdf").resolve()]
    data = written[1].read_bytes()
    assert data[:5] == b"%PDF-" and len(data) > 20_000
