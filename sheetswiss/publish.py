"""A static, phone-friendly page set for players (``sheetswiss publish``).

Pure rendering: from the event (and what was computed from it) to HTML text. The pages need no
server and no network: one self-contained file each (inline CSS, a few lines of inline script for
the name filter, and everything readable without the script), to put on any web host or open from a
laptop at the venue.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

from .elimination import PlaceRow
from .heats import Qualification, Status, places
from .model import Event, HeatGame
from .names import char_folds, name_key, sort_key
from .playoffs import Bracket
from .settings import Settings
from .standings import Standings

__all__ = ["Page", "clock_html", "pairings_page", "places_page", "playoffs_page", "qualifiers_page", "rounds_page",
           "rounds_title", "seating_page", "standings_page", "table_page"]

_STYLE = """
:root { color-scheme: light dark; --line: #8884; --accent: #1f6feb; }
* { box-sizing: border-box; }
body { font: 17px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 0 12px 40px; }
header { position: sticky; top: 0; background: Canvas; padding: 10px 0 8px; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.15em; margin: 0 0 4px; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; font-weight: 600; }
nav a[aria-current] { text-decoration: underline; }
input[type=search] { width: 100%; font-size: 1em; padding: 10px; margin: 8px 0 4px; border: 1px solid var(--line);
  border-radius: 8px; }
table { width: 100%; border-collapse: collapse; margin-top: 8px; }
th, td { text-align: left; padding: 8px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85em; text-transform: uppercase; letter-spacing: .03em; opacity: .75; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.big { font-size: 1.3em; font-weight: 700; }
tr.cut td { background: #2ea04322; }
small, .note { opacity: .75; font-size: .85em; }
p.clock { font-size: 1.2em; margin: 10px 0 0; }
p.clock.over .left { color: #d1242f; font-weight: 700; }
p.link a { display: inline-block; padding: 8px 14px; border-radius: 8px; background: var(--accent); color: #fff;
  text-decoration: none; font-weight: 600; }
"""

_FOLD = {**char_folds(), "ς": "σ"}  # toLowerCase keeps a final sigma; casefold makes it σ


def _filter_script() -> str:
    """The name filter: what is typed is folded as :func:`~sheetswiss.names.name_key` folds the names (NFKD,
    the letters without decomposition spelled plainly, accents dropped, lower case, one kind of apostrophe)
    and a row shows when its names contain every typed word; "No name matches" says when none does."""
    fold = json.dumps(_FOLD, ensure_ascii=True)
    chars = "".join(f"\\u{ord(c):04x}" for c in _FOLD)
    return f"""
<script>
const FOLD = {fold}, FOLD_RE = /[{chars}]/g;
const swap = s => s.replace(FOLD_RE, c => FOLD[c]);
function fold(s) {{  /* as sheetswiss.names.name_key */
  s = swap(swap(s).normalize('NFKD')).toLowerCase().normalize('NFKD').replace(/[\\p{{M}}\\p{{Cf}}]/gu, '');
  return swap(s).split(/\\s+/).filter(Boolean);
}}
const box = document.getElementById('find'), none = document.getElementById('none');
function filter() {{
  const words = fold(box.value);
  let shown = 0;
  for (const row of document.querySelectorAll('tbody tr')) {{
    row.hidden = words.length > 0 && !words.every(w => row.dataset.names.includes(w));
    shown += row.hidden ? 0 : 1;
  }}
  none.textContent = 'No name matches \u201c' + box.value.trim() + '\u201d.';
  none.hidden = shown > 0 || words.length === 0;
}}
box.addEventListener('input', filter);
if (location.hash.startsWith('#find=')) {{  /* a link such as index.html#find=Ana opens filtered */
  box.value = decodeURIComponent(location.hash.slice(6));
  filter();
}}
</script>
"""


def _search_names(names: str) -> str:
    """What the filter searches for a row: the names' :func:`~sheetswiss.names.name_key`, and again without
    apostrophes and dashes when it has any, so that "omalley" finds O'Malley too."""
    key = name_key(names)
    plain = key.replace("'", "").replace("-", "")
    return key if plain == key else f"{key} {plain}"


@final
@dataclass(frozen=True, slots=True)
class Page:
    """One file of the page set."""

    name: str
    """File name, e.g. ``index.html``."""
    title: str
    html: str


def _e(value: object) -> str:
    return html.escape(str(value))


def _document(event_name: str, pages: Sequence[tuple[str, str]], current: str, title: str, body: str,
              when: dt.datetime) -> str:
    nav = " ".join(
        f'<a href="{_e(name)}"{" aria-current=page" if name == current else ""}>{_e(label)}</a>'
        for name, label in pages)
    event_name = event_name or "Event"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)} · {_e(event_name)}</title>
<style>{_STYLE}</style></head>
<body><header><h1>{_e(event_name)}: {_e(title)}</h1><nav>{nav}</nav>
<input type="search" id="find" placeholder="Find your name" autocomplete="off" aria-label="Find your name">
</header>
{body}
<p class="note">Updated {when:%Y-%m-%d %H:%M}. Published by sheetswiss.</p>
<p class="note" id="none" hidden aria-live="polite"></p>
{_filter_script()}</body></html>
"""


def table_page(event_name: str, pages: Sequence[tuple[str, str]], name: str, title: str, intro: str,
               header: Sequence[str], rows: Sequence[tuple[Sequence[object], str, bool]],
               numeric: Sequence[int], when: dt.datetime, *, links: Sequence[tuple[str, str]] = (),
               top_html: str = "") -> Page:
    """A page holding one filterable table: ``rows`` are (cells, searchable names, shaded); ``links``
    (address, text) go under the intro, e.g. the form players report their results with."""
    head = "".join(f'<th{" class=num" if i in numeric else ""}>{_e(h)}</th>' for i, h in enumerate(header))
    body_rows = []
    for cells, names, shaded in rows:
        tds = "".join(f'<td{" class=num" if i in numeric else ""}>{_e(c)}</td>' for i, c in enumerate(cells))
        body_rows.append(f'<tr data-names="{_e(_search_names(names))}"{" class=cut" if shaded else ""}>{tds}</tr>')
    shown = "".join(f'<p class="link"><a href="{_e(href)}">{_e(text)}</a></p>' for href, text in links)
    body = f'{top_html}<p class="note">{_e(intro)}</p>{shown}<table><thead><tr>{head}</tr></thead><tbody>' + \
        "\n".join(body_rows) + "</tbody></table>"
    return Page(name, title, _document(event_name, pages, name, title, body, when))


_CLOCK = """
<script>
for (const clock of document.querySelectorAll('[data-ends]')) {  /* the round clock: a countdown to its end */
  const end = new Date(clock.dataset.ends), left = clock.querySelector('.left');
  const tick = () => {
    const s = Math.round((end - new Date()) / 1000);
    if (s <= 0) { left.textContent = '(time is up)'; clock.classList.add('over'); return; }
    const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), pad = (n) => String(n).padStart(2, '0');
    left.textContent = '(' + (h ? h + ':' + pad(m) : m) + ':' + pad(s % 60) + ' left)';
    setTimeout(tick, 1000 - Date.now() % 1000);
  };
  tick();
}
</script>
"""


def clock_html(round_: int, ends: dt.datetime) -> str:
    """The round clock (RULES.md 10.5): the end time as text, which is all a browser without JavaScript shows,
    and a countdown beside it, kept by a few lines of plain JavaScript from the device's own clock."""
    return (f'<p class="clock" data-ends="{ends:%Y-%m-%dT%H:%M:%S}">Round {round_} ends at '
            f'<strong>{ends:%H:%M}</strong> <span class="left"></span></p>{_CLOCK}')


def pairings_page(event: Event, pages: Sequence[tuple[str, str]], when: dt.datetime,
                  name: str = "index.html", *, ends: dt.datetime | None = None) -> Page:
    """Every player of the last paired round by name, with their table and opponent (once, though a
    double-sided match has a Results row for each of its two games), and their side or colour when the
    event has them (as the Pairings tab says it)."""
    round_ = event.paired_rounds
    labels = event.side_labels
    rows: list[tuple[Sequence[object], str, bool]] = []
    seen = set()
    for g in event.games_in(round_):
        if not g.is_pairing:
            continue
        for me, other, side in ((g.a, g.b, 3), (g.b, g.a, 4)):
            if me is None or me in seen:
                continue
            seen.add(me)
            table = "bye" if other is None else (g.table if g.table is not None else "")
            sides = [] if labels is None else ["" if other is None else labels[side]]
            rows.append(([me, table, other or "—", *sides], me, False))
    for p in event.players:
        if p.name not in seen and round_:
            rows.append(([p.name, "—", "not paired this round", *([""] if labels else [])], p.name, False))
    rows.sort(key=lambda r: sort_key(str(r[0][0])))
    intro = f"Round {round_}: find your name for your table." if round_ else "No round is paired yet."
    title = f"Round {round_} pairings" if round_ else "Pairings"
    header = ("Player", "Table", "Opponent", *(() if labels is None else (labels.column,)))
    form = event.settings.report_form
    links = [(form, "Report your result")] if form and round_ else []
    clock = clock_html(round_, ends) if ends is not None and round_ else ""
    return table_page(event.settings.event_name, pages, name, title, intro, header, rows, (1,), when, links=links,
                      top_html=clock)


def playoffs_page(event_name: str, bracket: Bracket, pages: Sequence[tuple[str, str]], when: dt.datetime,
                  name: str = "index.html") -> Page:
    """The playoff as the Playoffs tab has it: every match in bracket order with its players (or where
    they come from) and its winner, the matches to play now shaded; the champion once decided."""
    rows: list[tuple[Sequence[object], str, bool]] = []
    playing = {m.id for m in bracket.to_play}
    for m in bracket.matches:
        winner = m.winner or ("to play now" if m.id in playing else "")
        rows.append(([m.id, m.label, m.a.text, m.b.text, winner],
                     " ".join(x for x in (m.a.player, m.b.player) if x), m.id in playing))
    if bracket.champion:
        intro = f"Champion: {bracket.champion}."
    else:
        intro = "Shaded: the matches to play now." if playing else "Waiting for results."
    title = f"Playoff ({bracket.system})"
    return table_page(event_name, pages, name, title, intro, ("Match", "Stage", "Player A", "Player B", "Winner"),
                      rows, (), when)


def standings_page(event: Event, table: Standings, pages: Sequence[tuple[str, str]], when: dt.datetime) -> Page:
    """The standings with every tiebreak, the top cut shaded."""
    cut = table.cut
    qualified = set(table.qualified)
    record = "Games W-D-L" if event.settings.sides == "double" else "W-D-L"
    header = ("#", "Player", "Points", record, *(tb.title for tb in table.tiebreaks))
    rows: list[tuple[Sequence[object], str, bool]] = []
    for row in table.rows:
        values = [tb.text(v) for tb, v in zip(table.tiebreaks, row.values, strict=True)]
        rank = f"{row.rank}=" if row.shared else row.rank
        points = str(row.points) if row.points.denominator != 1 else row.points.numerator
        rows.append(([rank, row.player + (" (dropped)" if row.dropped else ""), points,
                      f"{row.wins}-{row.draws}-{row.losses}", *values],
                     row.player, row.player in qualified))
    intro = f"After round {table.rounds}." + (f" The top {cut} are shaded." if cut else "")
    numeric = tuple(i for i in range(len(header)) if i != 1)
    return table_page(event.settings.event_name, pages, "standings.html", "Standings", intro, header, rows,
                      numeric, when)


def seating_page(event_name: str, games: Sequence[HeatGame], pages: Sequence[tuple[str, str]],
                 when: dt.datetime) -> Page:
    """Every player of the latest seated heat by name, with their table and tablemates."""
    heat = max((g.heat for g in games), default=0)
    rows: list[tuple[Sequence[object], str, bool]] = []
    for g in games:
        if g.heat == heat:
            names = [s.player for s in g.seats]
            rows.extend(([me, g.table, ", ".join(n for n in names if n != me)], me, False) for me in names)
    rows.sort(key=lambda r: sort_key(str(r[0][0])))
    intro = f"Heat {heat}: find your name for your table." if heat else "No heat is seated yet."
    return table_page(event_name, pages, "index.html", f"Heat {heat} seating" if heat else "Seating", intro,
                      ("Player", "Table", "At the table"), rows, (1,), when)


def qualifiers_page(event_name: str, result: Qualification, pages: Sequence[tuple[str, str]],
                    when: dt.datetime) -> Page:
    """The qualifiers table: rank, wins, points and status, qualifiers shaded."""
    rows: list[tuple[Sequence[object], str, bool]] = [
        ([r.rank, r.player, r.wins, f"{float(r.points):.2f}", r.status_text], r.player,
         r.status is Status.QUALIFIED) for r in result.rows]
    intro = (f"{result.method}: the top {result.qualifiers} qualify, the next {result.alternates} are alternates."
             + (" Ties at the cut are marked tied; the GM decides." if any(r.note for r in result.rows) else ""))
    return table_page(event_name, pages, "qualifiers.html", "Qualifiers", intro,
                      ("#", "Player", "Wins", "Points", "Status"), rows, (0, 2, 3), when)


def rounds_title(rounds: Sequence[HeatGame]) -> str:
    """The elimination rounds played so far, for a title: ``Semifinal and final``, ``Quarterfinal``."""
    stages = list(dict.fromkeys(g.stage for g in rounds))
    named = ", ".join(stages[:-1]) + (" and " if len(stages) > 1 else "") + stages[-1]
    return named[:1].upper() + named[1:]


def rounds_page(event_name: str, rounds: Sequence[HeatGame], settings: Settings, pages: Sequence[tuple[str, str]],
                when: dt.datetime, name: str = "index.html") -> Page:
    """Every table of a heat event's elimination rounds (quarterfinal, semifinal, final; RULES.md 5.10), the latest
    round first: each player with their score and place at the table once it is scored (RULES.md 5.3), the
    table winners shaded. ``rounds`` are checked tables (a scored one has every score, or every Place)."""
    stages = list(dict.fromkeys(g.stage for g in rounds))
    rows: list[tuple[Sequence[object], str, bool]] = []
    for stage in reversed(stages):
        for g in sorted((g for g in rounds if g.stage == stage), key=lambda g: g.table):
            placed = places(g, settings) if g.has_results else (0,) * len(g.seats)
            seats = sorted(zip(placed, range(len(g.seats)), g.seats), key=lambda x: (x[0], x[1]))
            for place, _, seat in seats:
                score = "" if seat.score is None else (seat.score.numerator if seat.score.denominator == 1
                                                       else float(seat.score))
                rows.append(([stage.capitalize(), g.table, seat.player, score, place or ""], seat.player,
                             place == 1))
    latest = stages[-1]
    waiting = [g for g in rounds if g.stage == latest and not g.has_results]
    intro = (f"{latest.capitalize()}: find your name for your table." if waiting
             else f"The {latest} is scored." if latest != "final" else "The final is scored: see the places.")
    return table_page(event_name, pages, name, rounds_title(rounds), intro + " Shaded: the table winners.",
                      ("Round", "Table", "Player", "Score", "Place"), rows, (1, 3, 4), when)


def places_page(event_name: str, rows: Sequence[PlaceRow], pages: Sequence[tuple[str, str]], when: dt.datetime,
                name: str = "index.html") -> Page:
    """A heat event's final places (RULES.md 5.11), each with how it was decided; a shared place is ``5=``."""
    cells: list[tuple[Sequence[object], str, bool]] = [
        ([f"{r.place}{'=' if r.tied else ''}", r.player, r.how], r.player, r.place == 1) for r in rows]
    intro = ("The final's order, then the runners-up of the rounds before (latest first) by their score as a share "
             "of their table winner's, then by raw score." + (" Equal places (=): the rules cannot split them."
                                                    if any(r.tied for r in rows) else ""))
    return table_page(event_name, pages, name, "Places", intro, ("Place", "Player", "How it was decided"), cells,
                      (0,), when)
