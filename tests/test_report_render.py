"""A generated report in real headless Chromium: the page renders without console errors, every figure's image
loads and has a caption, and every chart in it has both axis labels; one screenshot per report section.

The axis labels are those the report embedded from each matplotlib figure as it drew it (figure_html's data-axes),
so a chart drawn without a label fails here (checked below on a page with one label removed).  Screenshots go to
$SIM_SCREENS when set (kept for a look), else to the test's temporary folder.  Chromium is installed by CI
(.ci/run); without it the test is skipped locally and fails under CI.
"""

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from sim.report import build as rb
from sim.report import build_report
from sim.runner import run_study

CHECK = """<script>
window.__errors = [];
window.addEventListener('error', function (e) {
  window.__errors.push(e.message || ('failed to load ' + (e.target && e.target.tagName)));
}, true);
['error', 'warn'].forEach(function (level) {
  var original = console[level];
  console[level] = function () {
    window.__errors.push('console.' + level + ': ' + Array.prototype.join.call(arguments, ' '));
    original.apply(console, arguments);
  };
});
window.addEventListener('load', function () {
  var problems = [];
  var figures = Array.prototype.slice.call(document.querySelectorAll('figure'));
  figures.forEach(function (f, k) {
    var where = (f.closest('section') || {id: '?'}).id + ' figure ' + (k + 1);
    var img = f.querySelector('img');
    if (!img || !img.complete || img.naturalWidth === 0) problems.push(where + ': image not loaded');
    var cap = f.querySelector('figcaption');
    if (!cap || !cap.textContent.trim()) problems.push(where + ': no caption');
    var axes = JSON.parse(f.dataset.axes || '[]');
    if (!axes.length) problems.push(where + ': no chart metadata');
    axes.forEach(function (a, j) {
      if (!a.x.trim()) problems.push(where + ' chart ' + (j + 1) + ': no x-axis label');
      if (!a.y.trim()) problems.push(where + ' chart ' + (j + 1) + ': no y-axis label');
    });
  });
  var sections = Array.prototype.slice.call(document.querySelectorAll('section')).map(function (s) {
    return {id: s.id, height: Math.ceil(s.getBoundingClientRect().height)};
  });
  var pre = document.createElement('pre');
  pre.id = 'render-check';
  var root = document.documentElement;
  pre.textContent = JSON.stringify({figures: figures.length, problems: problems, errors: window.__errors,
                                    sections: sections, width: root.clientWidth,
                                    overflow: root.scrollWidth - root.clientWidth});
  document.body.appendChild(pre);
});
</script>"""


def chromium():
    binary = rb.find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is needed for the render test and CI installs it (.ci/run)")
        pytest.skip("Chromium is not installed here (apt-get install chromium); CI runs this test")
    return binary


def run_chromium(*args):
    with tempfile.TemporaryDirectory(prefix="chromium-test-") as profile:
        return subprocess.run(
            rb.chromium_command(chromium(), profile, *args), capture_output=True, text=True, timeout=180
        )


def render_check(html, folder, name, width=None):
    """Open the page with the check script (in a window `width` pixels wide when given); returns (the check's
    result, console lines Chromium logged)."""
    page = folder / f"{name}.html"
    page.write_text(html.replace("<head>", "<head>" + CHECK, 1), encoding="utf-8")
    size = [f"--window-size={width},900"] if width else []
    res = run_chromium(
        "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", *size, "--dump-dom", page.as_uri()
    )
    m = re.search(r"<pre id=\"render-check\">(.*?)</pre>", res.stdout, re.S)
    assert m, f"no render result from Chromium (exit {res.returncode}): {res.stderr[-500:]}"
    import html as _html

    console = [line for line in res.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    return json.loads(_html.unescape(m.group(1))), console


def screenshot_sections(html, sections, folder):
    """One PNG per section: the page's head (its style) with only that section, at the section's height."""
    head = html[: html.index("<body>")]
    paths = []
    for s in sections:
        body = re.search(rf"<section id='{re.escape(s['id'])}'>.*?</section>", html, re.S).group(0)
        page = folder / f"section-{s['id']}.html"
        page.write_text(f"{head}<body>{body}</body></html>", encoding="utf-8")
        shot = folder / f"{len(paths) + 1:02d}-{s['id']}.png"
        run_chromium(
            "--hide-scrollbars",
            f"--window-size=1100,{min(max(s['height'] + 200, 300), 12000)}",
            f"--screenshot={shot}",
            page.as_uri(),
        )
        paths.append(shot)
    return paths


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    chromium()
    base = tmp_path_factory.mktemp("render")
    run = run_study("toy_pig", base / "run", games=400, players=(2, 3, 4), seed=5, progress=False, standings=True)
    return build_report(run, base / "report.html")[0]


def test_report_renders_with_labelled_figures_and_section_screenshots(report, tmp_path):
    html = report.read_text(encoding="utf-8")
    result, console = render_check(html, tmp_path, "check")
    assert result["errors"] == [] and console == [], (result["errors"], console)
    assert result["problems"] == []
    assert result["figures"] == html.count("<figure") >= 8
    ids = [s["id"] for s in result["sections"]]
    assert {"findings", "seats", "strategies", "shape", "arc", "provenance"} <= set(ids)
    folder = Path(os.environ.get("SIM_SCREENS") or tmp_path / "screens")
    folder.mkdir(parents=True, exist_ok=True)
    shots = screenshot_sections(html, result["sections"], folder)
    assert len(shots) == len(ids)
    for shot in shots:
        data = shot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5_000, shot


def test_the_check_fails_on_a_missing_label_caption_or_console_error(report, tmp_path):
    html = report.read_text(encoding="utf-8")
    axes = re.search(r"data-axes='([^']*)'", html).group(1)
    first = json.loads(axes.replace("&quot;", '"'))
    first[0]["y"] = ""  # the first chart loses its y-axis label
    broken = html.replace(axes, json.dumps(first).replace('"', "&quot;"), 1)
    broken = re.sub(r"<figcaption>[^<]+</figcaption>", "<figcaption></figcaption>", broken, count=1)
    broken = broken.replace("</body>", "<script>console.error('boom')</script></body>")
    result, _ = render_check(broken, tmp_path, "broken")
    assert any("no y-axis label" in p for p in result["problems"]), result["problems"]
    assert any("no caption" in p for p in result["problems"]), result["problems"]
    assert any("boom" in e for e in result["errors"]), result["errors"]


def framed_check(html, folder, name, width):
    """The page inside an iframe `width` pixels wide (headless Chromium will not open a window narrower than
    about 500 px; a frame has its own viewport, so the page's media queries see the width): (frame width,
    horizontal overflow in px)."""
    import html as _html

    page = folder / f"{name}.html"
    page.write_text(
        f"<!DOCTYPE html><html><body style='margin:0'><iframe id='f' style='width:{width}px;height:900px;border:0' "
        f'srcdoc="{_html.escape(html, quote=True)}"></iframe><script>'
        "document.getElementById('f').addEventListener('load', function () {"
        " var r = this.contentDocument.documentElement; var pre = document.createElement('pre');"
        " pre.id = 'framed'; pre.textContent = JSON.stringify([r.clientWidth, r.scrollWidth - r.clientWidth]);"
        " document.body.appendChild(pre); });</script></body></html>",
        encoding="utf-8",
    )
    res = run_chromium("--window-size=1300,1000", "--virtual-time-budget=10000", "--dump-dom", page.as_uri())
    m = re.search(r"<pre id=\"framed\">(.*?)</pre>", res.stdout, re.S)
    assert m, f"no result from Chromium (exit {res.returncode}): {res.stderr[-500:]}"
    return json.loads(m.group(1))


def test_no_horizontal_overflow_at_desktop_width(report, tmp_path):
    html = report.read_text(encoding="utf-8")
    result, _ = render_check(html, tmp_path, "w1300", 1300)
    assert abs(result["width"] - 1300) <= 20, result["width"]  # the window had the width asked for
    assert result["overflow"] <= 0, f"the page is {result['overflow']} px wider than a 1300 px window"
    wide = html.replace("</body>", "<p style='width:1600px'>too wide</p></body>")  # the check can fail
    assert render_check(wide, tmp_path, "wide1300", 1300)[0]["overflow"] > 0


def test_no_horizontal_overflow_at_phone_width(report, tmp_path):
    html = report.read_text(encoding="utf-8")
    width, overflow = framed_check(html, tmp_path, "phone", 390)
    assert abs(width - 390) <= 20, width
    assert overflow <= 0, f"the page is {overflow} px wider than a 390 px phone"
    wide = html.replace("</body>", "<p style='width:600px'>too wide</p></body>")  # the check can fail
    assert framed_check(wide, tmp_path, "phone-wide", 390)[1] > 0
