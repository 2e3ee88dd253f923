"""Names as people type them (RULES.md 1.6): one key for matching, "did you mean", and a collation for lists.

Properties of the key, then every place a GM types a name, on real .xlsx files through the commands.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetswiss import api
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.names import FOLDS, Names, _folded_key, name_key, sort_key

from .helpers import new_workbook, run
from .test_publish import CHROMIUM, dump

APOSTROPHES = "'\u2019\u2018\u02bc\u00b4`\u2032"
MARKS = [chr(c) for c in range(0x300, 0x370) if c != 0x345]  # combining diacritics, but the Greek iota subscript
PEOPLE = ["José Álvarez", "Grace O'Malley", "Łukasz Nowak", "Zoë Ng"]
TYPED = {"José Álvarez": "jose alvarez", "Grace O'Malley": "GRACE O\u2019MALLEY", "Łukasz Nowak": "lukasz  nowak",
         "Zoë Ng": "Zoe NG"}
"""How a GM types each of PEOPLE: no accents, other case, a curly apostrophe, a double space."""



def one_line_error(path: Path, *args: str) -> str:
    before = path.read_bytes()
    code, _, err = run(*args)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert path.read_bytes() == before
    return err.strip().removeprefix("Error: ")


# --- the key ---------------------------------------------------------------------------------------------

@given(st.text())
def test_the_key_is_idempotent(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)


@given(st.text())
def test_the_key_ignores_case(text: str) -> None:
    assert name_key(text.upper()) == name_key(text.lower()) == name_key(text.swapcase()) == name_key(text)


@given(st.text(), st.sampled_from(["NFC", "NFD"]))
def test_the_key_ignores_how_accents_are_encoded(text: str, form: str) -> None:
    assert name_key(unicodedata.normalize(form, text)) == name_key(text)  # type: ignore[arg-type]


@given(st.lists(st.tuples(st.characters(min_codepoint=0x41, max_codepoint=0x7a).filter(str.isalpha),
                          st.lists(st.sampled_from(MARKS), max_size=2))))
def test_the_key_ignores_accents(letters: list[tuple[str, list[str]]]) -> None:
    plain = "".join(letter for letter, _ in letters)
    accented = unicodedata.normalize("NFC", "".join(letter + "".join(marks) for letter, marks in letters))
    assert name_key(accented) == name_key(plain)


@given(st.text(alphabet=st.characters(categories=["L"]) | st.sampled_from(" '-"), max_size=20),
       st.lists(st.sampled_from(APOSTROPHES), min_size=1, max_size=20))
def test_the_key_ignores_the_apostrophes_style(text: str, styles: list[str]) -> None:
    parts = text.split("'")
    styled = parts[0] + "".join(styles[i % len(styles)] + part for i, part in enumerate(parts[1:]))
    assert name_key(styled) == name_key(text)


@given(st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1).flatmap(
    lambda word: st.tuples(st.just(word), st.text(alphabet=" \t\u00a0\u2009", min_size=1))))
def test_the_key_ignores_spaces_around_and_between_words(pair: tuple[str, str]) -> None:
    word, space = pair
    assert name_key(f"{space}{word}{space}{word}{space}") == name_key(f"{word} {word}")


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_the_ascii_shortcut_folds_as_the_long_way(text: str) -> None:
    assert name_key(text) == _folded_key(text)


def test_letters_that_do_not_decompose_are_folded_too() -> None:
    assert name_key("Łukasz") == "lukasz" and name_key("Søren Ærø") == "soren aero" and name_key("Straße") == "strasse"
    assert all(name_key(letter) == name_key(plain) for letter, plain in FOLDS.items())
    assert name_key("Ana\u200b Berg") == name_key("ana berg")  # a zero-width space pasted from a web page


def test_the_names_found_and_suggested() -> None:
    names = Names([*PEOPLE, "Ana Berg", "Ann Berg"])
    assert all(names.find(typed) == name for name, typed in TYPED.items())
    assert names.find("Jose Alvares") is None
    assert names.did_you_mean("Jose Alvares") == "; did you mean 'José Álvarez'?"
    assert names.did_you_mean("alvarez") == "; did you mean 'José Álvarez'?"  # one word of the name
    assert names.did_you_mean("An Berg") == "; did you mean 'Ann Berg' or 'Ana Berg'?"  # nearest first
    assert names.did_you_mean("Xavier Quinn") == "" and names.did_you_mean("") == ""


# --- the collation -----------------------------------------------------------------------------------------

def test_collation_order() -> None:
    names = ["Zoë", "Łukasz", "Lukas", "=Bo", "+Cy", "ana", "Ana", "Ærø", "Adam", "Øystein", "Oskar", "Zoe"]
    assert sorted(names, key=sort_key) == ["Adam", "Ærø", "Ana", "ana", "=Bo", "+Cy", "Lukas", "Łukasz", "Oskar",
                                           "Øystein", "Zoe", "Zoë"]


@given(st.lists(st.text(), unique=True), st.randoms())
def test_collation_is_a_total_order_whatever_the_input_order(names: list[str], rnd: object) -> None:
    shuffled = list(names)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert sorted(shuffled, key=sort_key) == sorted(names, key=sort_key)


# --- end to end on .xlsx ---------------------------------------------------------------------------------------

@pytest.fixture
def swiss(tmp_path: Path) -> Path:
    """A four-player Swiss whose round 1 the GM typed by hand, spelling names their own way."""
    path = new_workbook(tmp_path, [(name,) for name in PEOPLE], settings={"rounds": 2, "top_cut": 2})
    ExcelBackend(path).fill_cells("Results", {
        "A2": 1, "B2": 1, "C2": TYPED["José Álvarez"], "D2": TYPED["Grace O'Malley"], "E2": "1-0",
        "A3": 1, "B3": 2, "C3": TYPED["Łukasz Nowak"], "D3": TYPED["Zoë Ng"], "E3": "0-1"})
    return path


def test_results_typed_without_accents_match_the_players_tab(swiss: Path) -> None:
    code, out, err = run("standings", str(swiss))
    assert code == 0, err
    rows = ExcelBackend(swiss).read().rows("Standings")
    assert {row[1] for row in rows[2:6]} == set(PEOPLE)  # the Players tab's spelling
    assert re.search(r"José Álvarez +\d", out) and "jose alvarez" not in out


def test_standings_explain_finds_a_name_typed_plainly(swiss: Path) -> None:
    before = swiss.read_bytes()
    code, out, err = run("standings", str(swiss), "--explain", "jose alvarez")
    assert code == 0, err
    assert "José Álvarez" in out and out.strip().endswith("Nothing written (--explain)")
    assert swiss.read_bytes() == before
    assert one_line_error(swiss, "standings", str(swiss), "--explain", "Jose Alvares") == \
        "--explain: 'Jose Alvares' is not in Players; did you mean 'José Álvarez'?"


def test_a_near_miss_in_results_says_did_you_mean_with_its_cell(swiss: Path) -> None:
    ExcelBackend(swiss).fill_cells("Results", {"D3": "Zoe Mg"})
    assert one_line_error(swiss, "standings", str(swiss)) == \
        "Results!D3: 'Zoe Mg' is not in Players; did you mean 'Zoë Ng'?"


def test_two_players_rows_that_are_the_same_name_name_both_cells(tmp_path: Path) -> None:
    path = new_workbook(tmp_path, [("José Álvarez",), ("Bo",), ("jose  ALVAREZ",)])
    assert one_line_error(path, "pair", str(path)).startswith(
        "Players!A4: 'jose  ALVAREZ' is the same name as 'José Álvarez' in Players!A2 (names match ignoring case, "
        "accents and apostrophes)")


def test_a_playoff_winner_typed_plainly_advances_and_a_near_miss_is_named(swiss: Path) -> None:
    assert run("pair", str(swiss))[0] == 0
    backend = ExcelBackend(swiss)
    rows = backend.read().rows("Results")
    backend.fill_cells("Results", {f"E{r}": "1-0" for r, row in enumerate(rows[1:], start=2) if row[0] == 2})
    code, out, err = run("playoffs", str(swiss))
    assert code == 0, err
    final = backend.read().rows("Playoffs")[2]
    assert final[0] == "F" and {final[2], final[3]} <= set(PEOPLE)
    backend.fill_cells("Playoffs", {"E3": str(final[3])[:-1] + "x"})
    assert one_line_error(swiss, "playoffs", str(swiss)).endswith(f"; did you mean {str(final[3])!r}?")
    backend.fill_cells("Playoffs", {"E3": TYPED[str(final[3])]})
    code, out, err = run("playoffs", str(swiss))
    assert code == 0, err
    assert f"Champion: {final[3]}" in out


def test_rating_matches_names_across_events_and_into_the_next(swiss: Path, tmp_path: Path) -> None:
    second = new_workbook(tmp_path, [(TYPED[name],) for name in PEOPLE], name="second.xlsx")
    ExcelBackend(second).fill_cells("Results", {
        "A2": 1, "B2": 1, "C2": "jose alvarez", "D2": "zoe ng", "E2": "1-0",
        "A3": 1, "B3": 2, "C3": "grace o'malley", "D3": "lukasz nowak", "E3": "1-0"})
    code, out, err = run("rating", str(swiss), str(second), "--elo")
    assert code == 0, err
    elo = out[out.index("Elo from"):]
    assert len(re.findall(r"[Jj]os[eé] [AÁaá]lvarez", elo)) == 1  # one player, in the latest event's spelling
    assert "jose alvarez" in elo and "José Álvarez" not in elo
    target = new_workbook(tmp_path, [("JOSE ÁLVAREZ",), ("Grace O\u2019Malley",), ("Newcomer",)], name="next.xlsx")
    code, out, err = run("rating", str(swiss), "--into", str(target))
    assert code == 0, err
    assert "Players.Rating filled for 2 player(s)" in out and "  JOSE ÁLVAREZ: 15" in out
    assert "left empty (no past games): Newcomer" in out
    rows = ExcelBackend(target).read().rows("Players")
    assert rows[1][0] == "JOSE ÁLVAREZ" and isinstance(rows[1][1], int) and rows[1][1] > 1500


def test_pairings_list_by_name_uses_the_collation(tmp_path: Path) -> None:
    names = ["Zoë", "Łukasz", "Lukas", "=Bo", "Ana", "+Cy"]
    path = new_workbook(tmp_path, [(n,) for n in names])
    assert run("pair", str(path))[0] == 0
    rows = ExcelBackend(path).read().rows("Pairings")
    assert [row[6] for row in rows[2:8]] == ["Ana", "=Bo", "+Cy", "Lukas", "Łukasz", "Zoë"]


def heat_workbook(tmp_path: Path) -> Path:
    path = tmp_path / "heats.xlsx"
    assert run("new", str(path), "--format", "heats", "--seed", "3")[0] == 0
    ExcelBackend(path).fill_cells("Players", {f"A{r}": n for r, n in enumerate([*PEOPLE, "Ana", "Bo"], start=2)})
    return path


def test_seat_players_and_heats_rows_typed_plainly(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path)
    assert one_line_error(path, "seat", str(path), "--heat", "1", "--players", "jose alvarez, Zoe Mg, Bo") == \
        "--players: 'Zoe Mg' is not in Players; did you mean 'Zoë Ng'?"
    code, out, err = run("seat", str(path), "--heat", "1", "--players", ", ".join(TYPED.values()))
    assert code == 0, err
    assert "table 1: Grace O'Malley, José Álvarez, Łukasz Nowak, Zoë Ng" in out  # collation, Players' spelling
    backend = ExcelBackend(path)
    rows = backend.read().rows("Heats")
    row_of = {row[2]: r for r, row in enumerate(rows[1:], start=2)}
    backend.fill_cells("Heats", {f"C{row_of['José Álvarez']}": "JOSE ALVAREZ",
                                 **{f"D{r}": 10 * r for r in row_of.values()}})
    code, out, err = run("qualify", str(path))
    assert code == 0, err
    qualifiers = {str(v) for row in backend.read().rows("Qualifiers") for v in row}
    assert "José Álvarez" in qualifiers and "JOSE ALVAREZ" not in qualifiers
    backend.fill_cells("Heats", {f"C{row_of['Zoë Ng']}": "Zoey Ng"})
    assert one_line_error(path, "qualify", str(path)) == \
        f"Heats!C{row_of['Zoë Ng']}: 'Zoey Ng' is not in Players; did you mean 'Zoë Ng'?"


def test_api_seat_keeps_the_players_tab_spelling(tmp_path: Path) -> None:
    path = heat_workbook(tmp_path)
    report = api.seat(str(path), heat=1, players=["ana", "BO", "zoe ng"], dry_run=True)
    assert "Ana, Bo, Zoë Ng" in "\n".join(report.lines)


# --- the players' page search ---------------------------------------------------------------------------------

@pytest.fixture
def site(swiss: Path) -> Path:
    code, _, err = run("publish", str(swiss), str(swiss.parent / "site"))
    assert code == 0, err
    return swiss.parent / "site"


def test_the_page_lists_players_by_collation_and_searches_the_folded_names(site: Path) -> None:
    text = (site / "standings.html").read_text()
    assert 'data-names="jose alvarez"' in text and 'data-names="zoe ng"' in text and 'data-names="lukasz nowak"' in text
    assert 'data-names="grace o&#x27;malley grace omalley"' in text
    index = (site / "index.html").read_text()
    order = [index.index(f"<td>{name.replace(chr(39), '&#x27;')}</td>") for name in PEOPLE]
    assert order[1] < order[0] < order[2] < order[3]  # Grace, José, Łukasz, Zoë


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed here")
@pytest.mark.parametrize(("typed", "found"), [
    ("jose", {"José Álvarez"}),  # one search in the default run; the other spellings with the slow cases
    *(pytest.param(typed, found, marks=pytest.mark.slow) for typed, found in [
        ("ÁLVAREZ", {"José Álvarez"}), ("o\u2019m", {"Grace O'Malley"}), ("omalley", {"Grace O'Malley"}),
        ("lukasz", {"Łukasz Nowak"}), ("zoe ng", {"Zoë Ng"}), ("xyz", set())]),
])
def test_the_page_search_in_a_browser(site: Path, tmp_path: Path, typed: str, found: set[str]) -> None:
    from urllib.parse import quote

    dom = dump((site / "standings.html").as_uri() + "#find=" + quote(typed), tmp_path / "profile")
    visible = re.findall(r'<tr data-names="[^"]*"(?: class="cut")?><td[^>]*>[^<]*</td><td>([^<]*)</td>', dom)
    assert {html_name.replace("&#x27;", "'").replace("&#39;", "'") for html_name in visible} == found
    none = re.search(r'<p class="note" id="none"( hidden="")?[^>]*>([^<]*)</p>', dom)  # as Chromium dumps it
    assert none is not None
    if found:
        assert none[1] is not None
    else:
        assert none[1] is None and none[2] == f"No name matches \u201c{typed}\u201d."
