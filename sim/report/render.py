"""The report as one self-contained HTML page."""

from .data import declared
from .fmt import esc
from .headline import headline
from .model import VERDICTS
from .verdicts import THRESHOLDS


CSS = """
:root { --ink:#1b1b1b; --muted:#555; --line:#d0d0d0; }
* { box-sizing: border-box; }
body { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       max-width: 1040px; margin: 0 auto; padding: 1.2rem 1.4rem 3rem; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.7rem; margin: 0.2rem 0; } h2 { font-size: 1.3rem; margin-top: 2.2rem;
       border-bottom: 2px solid var(--ink); padding-bottom: 0.2rem; } h3 { font-size: 1.05rem; margin-top: 1.4rem; }
.sub { color: var(--muted); margin: 0 0 1rem; }
.notice { border-left: 6px solid #D55E00; background: #fdf0e8; padding: 0.6rem 0.9rem; margin: 0.8rem 0; }
ul.findings { list-style: none; padding: 0; margin: 0.5rem 0; }
li.finding { display: flex; gap: 0.7rem; align-items: flex-start; border: 1px solid var(--line);
       border-left-width: 8px; border-radius: 4px; padding: 0.5rem 0.7rem; margin: 0.4rem 0; break-inside: avoid; }
.badge { flex: 0 0 7.2rem; font-weight: 700; font-size: 0.85rem; color: #fff; border-radius: 3px;
       padding: 0.15rem 0.4rem; text-align: center; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.finding .text { font-weight: 600; } .finding .ev { color: var(--muted); font-size: 0.88rem; }
.finding a { color: inherit; }
.legend span.badge { display: inline-block; width: auto; margin-right: 0.3rem; }
figure { margin: 0.8rem 0; break-inside: avoid; } figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.85rem; }
table { border-collapse: collapse; font-size: 0.84rem; margin: 0.6rem 0; break-inside: auto; }
th, td { border-bottom: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.kv th { width: 16rem; color: var(--muted); font-weight: 600; }
.small { font-size: 0.82rem; color: var(--muted); }
nav.toc { columns: 2; font-size: 0.9rem; } nav.toc a { color: #0072B2; }
code { font-size: 0.85rem; word-break: break-all; }
body { overflow-wrap: anywhere; }
div.scroll { overflow-x: auto; max-width: 100%; }
ol.first { padding-left: 1.4rem; margin: 0.5rem 0; } ol.first li { margin: 0.5rem 0; }
ol.first .badge { display: inline-block; margin-right: 0.4rem; }
.next { font-size: 0.9rem; margin-top: 0.2rem; }
@media (max-width: 600px) {
  body { padding: 0.8rem 0.7rem 2rem; font-size: 14px; }
  li.finding { flex-direction: column; gap: 0.3rem; } .badge { flex: 0 0 auto; }
  nav.toc { columns: 1; } table.kv th { width: auto; }
}
dl.glossary dt { font-weight: 700; } dl.glossary dd { margin: 0 0 0.4rem 1rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; } h3 { break-after: avoid; }
  section { break-before: auto; } nav.toc { display: none; }
  a { text-decoration: none; }
  @page { size: A4; margin: 14mm 12mm; }
}
"""


def _finding_html(f):
    label, colour, sym = VERDICTS[f.verdict]
    data = " ".join(f"data-{esc(k.replace('_', '-'))}='{esc(v)}'" for k, v in f.data.items())
    return (
        f"<li class='finding verdict-{f.verdict}' data-kind='{esc(f.kind)}' data-verdict='{f.verdict}' {data} "
        f"style='border-left-color:{colour}'><span class='badge' style='background:{colour}'>{sym} {label}"
        f"</span><div><div class='text'>{f.text}</div><div class='ev'>{f.evidence} "
        f"<a href='#{f.section}'>Evidence</a></div></div></li>"
    )


def _first_screen(rep):
    """The first screen: at most five findings to look at first (sim.report.headline), one sentence each with its
    next command, and the Strong / Modest findings that depend on the players."""
    # the ladder's section has taken the findings stronger players do not reproduce out of the list: they still
    # belong on the first screen, as findings that depend on the players
    moved = list(rep.tables.get("ladder_depends", []))
    top, depends = headline(rep.findings + moved, declared(rep.spec, "outcome_kinds"))
    items = []
    for f in top:
        label, colour, sym = VERDICTS[f.verdict]
        nxt = (
            f"Next: <code>{esc(f.next)}</code>"
            if f.next
            else "Next: see the evidence, and run more games or another line-up to settle it"
        )
        items.append(
            f"<li data-kind='{esc(f.kind)}' data-verdict='{f.verdict}'><span class='badge' style='background:"
            f"{colour}'>{sym} {label}</span><span class='text'>{f.text}</span><div class='next'>{nxt} "
            f"(<a href='#{f.section}'>evidence</a>)</div></li>"
        )
    if items:
        out = f"<ol class='first'>{''.join(items)}</ol>"
    elif depends:
        out = (
            "<p>No Strong or Modest finding about the rules holds with stronger players, so nothing here asks for a "
            "change yet; the findings below depend on who plays.</p>"
        )
    else:
        out = (
            "<p>No Strong or Modest finding about the rules: nothing here asks for a change. The full list below "
            "says what was measured.</p>"
        )
    if depends:
        rows = "".join(
            f"<tr><td>{VERDICTS[f.verdict][0]}</td><td>{f.text}</td><td>{esc(label)}</td></tr>" for f, label in depends
        )
        out += (
            "<h3>Depends on the players</h3><p>Strong or Modest with these players, but the verdict changes with "
            "who plays, so it is not headlined.</p><div class='scroll'><table class='data'><thead><tr><th>verdict"
            f"</th><th>finding</th><th>with other players</th></tr></thead><tbody>{rows}</tbody></table></div>"
        )
    return (
        f"<section id='first'><h2>What to look at first</h2>{out}<p class='small'>Ranked by verdict, size against "
        "its threshold and certainty; findings that restate a role, record a result or describe the bots are "
        "not headlined. <a href='#findings'>All findings</a>.</p></section>"
    )


def render(rep):
    man = rep.manifest
    T = THRESHOLDS
    legend = "".join(f"<span class='badge' style='background:{c}'>{s} {lab}</span>" for lab, c, s in VERDICTS.values())
    sub = (
        f"{'Sweep' if rep.is_sweep else 'Study'} of {esc(man.get('game'))}, rules version "
        f"{esc(man.get('rules_version') or 'not stated')}, seed {esc(man.get('seed'))}"
        + (f", {int(man['total_games']):,} games" if man.get("total_games") else "")
        + "."
    )
    findings = "".join(_finding_html(f) for f in rep.findings) or "<li>No findings.</li>"
    glossary = f"""
<dl class='glossary'>
<dt>Win share</dt><dd>The share of the wins a seat, strategy or role takes. Ties and team wins are split, so the
shares of one game add up to 1; in a fair n-player game each seat takes 1/n (25% with 4 players).</dd>
<dt>Win rate</dt><dd>How often a seat won or shared the win (used for roles, characters and items; in team games
every member of the winning team counts as a winner).</dd>
<dt>Interval</dt><dd>The range in brackets, e.g. 30.9&ndash;31.9%: the 95% confidence interval. With this many
simulated games the true value lies in it 19 times out of 20; more games make it narrower.</dd>
<dt>Points</dt><dd>Percentage points: the difference between two percentages (31% vs 25% is 6 points).</dd>
<dt>Verdicts</dt><dd>Always from the interval, never from the estimate alone, against a stated threshold, and
corrected for the number of comparisons a section makes (a fair game would otherwise show "findings" by chance in
most reports): <b>Strong</b> the whole corrected interval is further from fair than the threshold; <b>Modest</b>
it differs from fair but not clearly by the threshold; <b>Negligible</b> it differs from fair, but by less than
the threshold; <b>Balanced</b> the whole corrected interval lies within the threshold of fair; <b>Unclear</b>
the interval is too wide to say (more games needed); <b>Fact</b> a description, no verdict. Labels <i>holds with
other players</i> / <i>depends on the bots</i> say whether a finding survives another population of players.</dd>
<dt>Association and effect</dt><dd>Most numbers here are <b>associations</b>: what happened to seats with a
position, side or item. An <b>effect</b> is what changing the game causes; the report measures it only where it
says so (<code>sim effect</code>: the same games replayed without an item). Thresholds: turn order
{T["seat"]:g} points, strategies {T["strategy"]:g}, items {T["item"]:g}, roles and characters {T["role"]:g},
sweeps {T["sweep"]:g}.</dd>
<dt>Strategies</dt><dd>Scripted rule-of-thumb players, not experts: they show what the rules reward, not what
strong humans will do.</dd>
</dl>"""
    toc = "".join(f"<li><a href='#{s.anchor}'>{esc(s.title)}</a></li>" for s in rep.sections)
    body = "".join(f"<section id='{s.anchor}'><h2>{esc(s.title)}</h2>{''.join(s.body)}</section>" for s in rep.sections)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balance report: {esc(rep.title)}</title>
<style>{CSS}</style></head>
<body>
<header><h1>Balance report: {esc(rep.title)}</h1><p class='sub'>{sub}</p></header>
{"".join(rep.notices)}
{_first_screen(rep)}
<section id='findings'><h2>All findings</h2>
<p class='legend'>{legend}</p>
<ul class='findings'>{findings}</ul></section>
<section id='reading'><h2>How to read this report</h2>{glossary}</section>
<nav class='toc'><ul>{toc}</ul></nav>
{body}
</body></html>
"""
