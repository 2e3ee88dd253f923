"""FIDE TRF out and in (RULES.md 11.1): the records written, the round trip through real files, an
existing workbook carried on, and unreadable records named by line and column."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.errors import SheetswissError
from sheetswiss.formats import trf
from sheetswiss.standings import compute_standings
from sheetswiss.workbook.parse import parse_event

from .helpers import new_workbook
from .test_cli import one_line_error, run
from .test_crosstable import COLUMNS, crosstable
from .test_crosstable import event as hamilton_event

Row = tuple[int, str, str | None, str]


def workbook(tmp_path: Path, name: str, players: list[tuple[object, ...]], rows: list[Row],
             settings: dict[str, object]) -> Path:
    """A workbook typed as a GM would: Settings values, Players rows, Results rows (a bye row says BYE)."""
    path = new_workbook(tmp_path, players, name=name, settings=settings)  # type: ignore[arg-type]
    ExcelBackend(path).fill_cells("Results", {
        f"{c}{i}": v for i, (r, a, b, res) in enumerate(rows, start=2)
        for c, v in zip("ABCDE", (r, None, a, b or "BYE", res)) if v is not None})
    return path


def hamilton(tmp_path: Path, through: int = 6) -> Path:
    """The Hamilton event typed in; the two players with five games left after round 5 (Status 5)."""
    ev = hamilton_event("fide2009")
    rows = [(g.round, g.a, g.b, g.result.spelling()) for g in ev.games if g.result is not None and g.round <= through]
    gone = {"Hilton_Bennett", "Ian_Kennedy"}
    return workbook(tmp_path, "hamilton.xlsx", [(p.name, None, None, 5 if p.name in gone else None)
                                                for p in ev.players], rows,
                    {"points": "chess", "unplayed": "fide2009", "tiebreaks": ", ".join(COLUMNS.values()),
                     "rounds": 6, "event_name": "Hamilton Club Championship 2018"})


def games(path: Path) -> dict[int, set[tuple[str, str | None, str]]]:
    """Each round's Results rows as (Player A, Player B, result), table numbers aside."""
    out: dict[int, set[tuple[str, str | None, str]]] = {}
    for g in parse_event(ExcelBackend(path).read()).games:
        assert g.result is not None
        out.setdefault(g.round, set()).add((g.a, g.b, g.result.spelling()))
    return out


def table(path: Path) -> list[tuple[object, ...]]:
    rows = compute_standings(parse_event(ExcelBackend(path).read())).rows
    return [(r.rank, r.shared, r.player, r.points, r.wins, r.draws, r.losses, r.values, r.dropped) for r in rows]


def test_hamilton_round_trip(tmp_path: Path) -> None:
    path = hamilton(tmp_path)
    out = tmp_path / "hamilton.trf"
    code, text, err = run("export", str(path), str(out))
    assert code == 0, err
    assert text.splitlines()[0] == f"Exported 27 players, rounds 1-6, to {out} (TRF)"
    lines = out.read_bytes().decode("utf-8").split("\r\n")
    assert lines[0] == "012 Hamilton Club Championship 2018" and "142 6" in lines
    assert "202 DE,PS,BH,SB,BH/C1" in lines
    dare = next(line for line in lines if "Richard_Dare" in line)
    assert dare[80:89] == " 5.5    1"  # points in 81-84, rank in 86-89
    assert dare[91:101] == "  10 w 1  " and dare[101:111] == "  17 b 1  "
    milton = next(line for line in lines if "Milton_Severinsen" in line)
    assert milton[91:99] == "0000 - H"  # a requested half bye
    bennett = next(line for line in lines if "Hilton_Bennett" in line)
    assert len(bennett) <= 141  # absent from round 6: blank
    back = tmp_path / "back.xlsx"
    code, text, err = run("import", str(out), str(back))
    assert code == 0, err
    assert text.splitlines()[0].startswith(f"Created {back} from hamilton.trf: 27 players, ")
    assert games(back) == games(path)
    assert table(back) == table(path)
    # and the standings are still the published ones
    published = crosstable()[1]
    rows = {r[2]: r for r in table(back)}
    for name, figures in published.items():
        assert dict(zip(COLUMNS, rows[name][7])) == {k: v for k, v in figures.items()}


def test_carrying_on_an_existing_workbook(tmp_path: Path) -> None:
    full = hamilton(tmp_path)
    out = tmp_path / "full.trf"
    assert run("export", str(full), str(out))[0] == 0
    part_dir = tmp_path / "part"
    part_dir.mkdir()
    part = hamilton(part_dir, through=3)
    code, text, err = run("import", str(out), str(part))
    assert code == 0, err
    assert text.splitlines() == [
        f"Added 0 players and {sum(len(g) for r, g in games(full).items() if r > 3)} Results rows from full.trf "
        f"to {part}",
        "Rounds 1, 2, 3 are in Results already and were left as they are"]
    assert games(part) == games(full) and table(part) == table(full)


EVERY_KIND: list[Row] = [
    (1, "Ana", "Bo", "1-0"), (1, "Cy", "Di", "+/-"), (1, "Ed", None, "bye"), (1, "Flo", None, "half bye"),
    (2, "Bo", "Ana", "1/2"), (2, "Di", "Ed", "--"), (2, "Cy", "Flo", "-/+"), (2, "Gus", None, "zero bye"),
    (3, "Ana", "Gus", "0-1"), (3, "Ed", "Flo", "1-0"), (3, "Bo", "Cy", "1/2"),
]
"""Games, forfeits both ways, a double forfeit, every bye, a late entry (Gus, from round 2), a drop (Di after 2)."""


def every_kind(tmp_path: Path, **settings: object) -> Path:
    players: list[tuple[object, ...]] = [("Ana", 1900, "North"), ("Bo", 1850), ("Cy",), ("Di", None, "", "2"),
                                         ("Ed",), ("Flo", 1500), ("Gus", None, "South", None, 2)]
    return workbook(tmp_path, "kinds.xlsx", players, EVERY_KIND, {"rounds": 5, **settings})


@pytest.mark.parametrize("points", ["armati", "chess", "netrunner"])
def test_every_kind_of_round_survives_the_trip(tmp_path: Path, points: str) -> None:
    path = every_kind(tmp_path, points=points, late_entry_points="draw")
    out = tmp_path / "kinds.trf"
    assert run("export", str(path), str(out))[0] == 0
    text = out.read_bytes().decode("utf-8")
    ana = next(line for line in text.split("\r\n") if line.startswith("001    1"))
    assert ana[91:] == "   2 w 1     2 b =     7 w 0"
    di = next(line for line in text.split("\r\n") if line.startswith("001    4"))
    assert di[91:] == "   3 b -     5 w -"  # then dropped: nothing more
    gus = next(line for line in text.split("\r\n") if line.startswith("001    7"))
    assert gus[91:111] == "0000 - H  0000 - Z  "  # a late entry's drawn round, then a zero bye
    if points != "chess":
        assert "162  W" in text
    back = tmp_path / "back.xlsx"
    code, _, err = run("import", str(out), str(back))
    assert code == 0, err
    assert games(back) == games(path)
    assert table(back) == table(path)
    players = ExcelBackend(back).read().rows("Players")
    assert players[1][:3] == ("Ana", 1900, "North") and players[4][3] == 2 and players[7][4] == 2


def test_a_foreign_file_drops_players_who_stop_and_reads_its_scoring(tmp_path: Path) -> None:
    """A file written elsewhere: no sheetswiss comments, a 3/1/0 point system in record 162; a blank round
    in the middle is a round missed (an ``absent`` row), blank last rounds a withdrawal."""
    lines = ["012 Open", "142 3", "162  W 3.0    D 1.0    L 0.0", "202 BH,SB,ARO",
             "001    1      Ana".ljust(48) + "2000".ljust(32) + " 6.0    1     2 w 1     3 b 1",
             "001    2      Bo".ljust(80) + " 2.0    2     1 b 0" + " " * 15 + "3 w =",
             "001    3      Cy".ljust(80) + " 1.0    3  0000 - Z     1 w 0     2 b ="]
    src = tmp_path / "open.trf"
    src.write_text("\n".join(lines), encoding="utf-8")
    back = tmp_path / "open.xlsx"
    code, out, err = run("import", str(src), str(back))
    assert code == 0, err
    assert "Tie-breaks ARO (record 202) have no sheetswiss equivalent and were left out" in out
    assert "Points differ from the file's for 1 players: Bo 1 (file 2); check the scoring settings" in out
    settings = {row[0]: row[1] for row in ExcelBackend(back).read().rows("Settings")[1:]}
    assert (settings["points"], settings["win_points"], settings["tiebreaks"], settings["rounds"]) == (
        "custom", "3", "buchholz, sonneborn_berger", "3")
    assert games(back) == {1: {("Ana", "Bo", "1-0"), ("Cy", None, "zero bye")},
                           2: {("Cy", "Ana", "0-1"), ("Bo", None, "zero bye")},
                           3: {("Bo", "Cy", "1/2")}}
    status = {row[0]: (*row, None, None, None)[3] for row in ExcelBackend(back).read().rows("Players")[1:]}
    assert status == {"Ana": 2, "Bo": None, "Cy": None}


@pytest.mark.parametrize(("bad", "column", "message"), [
    ("   2 w x", 99, "cannot read 'x' as a result; TRF results: 1 = 0 + - W D L H F U Z, or blank"),
    ("   2 q 1", 97, "cannot read 'q' as a colour; w, b, - or blank"),
    ("  2x w 1", 92, "cannot read '2x' as an opponent's starting rank; a whole number is expected"),
    ("   9 w 1", 92, "round 1: opponent 9 has no 001 record"),
    ("   2 w =", 92, "round 1: player 1 v 2 (w =) disagrees with line 3 (1 b 0)"),
    ("0000 - Q", 99, "cannot read 'Q' as a result; TRF results: 1 = 0 + - W D L H F U Z, or blank"),
])
def test_an_unreadable_record_names_its_line_and_column(tmp_path: Path, bad: str, column: int, message: str) -> None:
    lines = ["012 Cup", "001    1      Ana".ljust(80) + " 1.0    1  " + bad,
             "001    2      Bo".ljust(80) + " 0.0    2     1 b 0"]
    src = tmp_path / "bad.trf"
    src.write_text("\r\n".join(lines), encoding="utf-8")
    dest = tmp_path / "bad.xlsx"
    err = one_line_error(dest, "import", str(src), str(dest))
    assert err == f"bad.trf:2:{column}: {message}"
    assert not dest.exists()


def test_every_unreadable_field_of_a_file_is_a_line(tmp_path: Path) -> None:
    lines = ["012 Cup", ("001    1      Ana".ljust(48) + "12x4").ljust(80) + " 1.0    1     2 w x",
             "001    2      Bo".ljust(80) + " 0.0    2     1 q 0", "162  W 1.0    Q 0.5"]
    src = tmp_path / "bad.trf"
    src.write_text("\n".join(lines), encoding="utf-8")
    dest = tmp_path / "bad.xlsx"
    code, _, err = run("import", str(src), str(dest))
    assert code == 2 and not dest.exists() and err.splitlines() == [
        "Error: bad.trf:2:49: cannot read '12x4' as a rating; a whole number is expected",
        "Error: bad.trf:2:99: cannot read 'x' as a result; TRF results: 1 = 0 + - W D L H F U Z, or blank",
        "Error: bad.trf:3:97: cannot read 'q' as a colour; w, b, - or blank",
        "Error: bad.trf:4:15: cannot read 'Q 0.5' as a scoring code and its points, e.g. W 1.0"]
    with pytest.raises(SheetswissError) as e:  # across lines, once every line reads: a disagreement is one line
        trf.read("001    1      Ana".ljust(91) + "   2 w =\n" + "001    2      Bo".ljust(91) + "   1 b 0\n"
                 + "001    3      Cy".ljust(91) + "   4 w 1", "x.trf")
    assert str(e.value).splitlines() == [
        "x.trf:1:92: round 1: player 1 v 2 (w =) disagrees with line 2 (1 b 0)",
        "x.trf:3:92: round 1: opponent 4 has no 001 record"]


def test_every_name_too_long_for_a_trf_is_a_line(tmp_path: Path) -> None:
    long = ["Maximiliana Theodora Wilhelmina Grün", "Bartholomew Alexander Fitzgerald-Smythe"]
    path = new_workbook(tmp_path, [("Ana",), (long[0],), ("Bo",), (long[1],)])
    code, _, err = run("export", str(path), str(tmp_path / "x.trf"))
    assert code == 2 and not (tmp_path / "x.trf").exists() and err.splitlines() == [
        f"Error: Players!A3: {long[0]!r} is longer than the 33 characters a TRF name holds",
        f"Error: Players!A5: {long[1]!r} is longer than the 33 characters a TRF name holds"]


def test_short_and_unnumbered_records(tmp_path: Path) -> None:
    with pytest.raises(SheetswissError, match=r"^x.trf:1:5: a 001 record needs its starting rank in columns 5-8"):
        trf.read("001", "x.trf")
    with pytest.raises(SheetswissError, match=r"^x.trf:1:5: cannot read 'abcd' as a starting rank"):
        trf.read("001 abcd", "x.trf")
    with pytest.raises(SheetswissError, match=r"^x.trf:2:5: starting rank 1 is also on line 1"):
        trf.read("001    1 Ana\n001    1 Bo", "x.trf")
    with pytest.raises(SheetswissError, match=r"^x.trf:1:81: cannot read '1.25' as points; the format is 11.5"):
        trf.read("001    1      Ana".ljust(80) + "1.25", "x.trf")


def test_events_a_trf_cannot_hold_are_refused(tmp_path: Path) -> None:
    path = every_kind(tmp_path, points="magic")
    err = one_line_error(tmp_path / "x.trf", "export", str(path), str(tmp_path / "x.trf"))
    assert err.startswith("Settings: points is magic, whose results are game scores; a TRF holds one result a game")


def test_an_unfinished_round_is_left_out(tmp_path: Path) -> None:
    rows = [*EVERY_KIND[:4], (2, "Bo", "Ana", "")]
    players: list[tuple[object, ...]] = [(n,) for n in ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")]
    path = workbook(tmp_path, "open.xlsx", players, [r for r in rows if r[3]], {"points": "chess"})
    ExcelBackend(path).fill_cells("Results", {"A6": 2, "C6": "Bo", "D6": "Ana"})
    out = tmp_path / "open.trf"
    code, text, err = run("export", str(path), str(out))
    assert code == 0, err
    assert text.splitlines()[1] == "Round 2 is not finished: its pairings are not in the file"
    assert "142 2" in out.read_bytes().decode().split("\r\n")  # rounds unset: one more than played


def test_the_format_comes_from_the_name(tmp_path: Path) -> None:
    path = every_kind(tmp_path, points="chess")
    err = one_line_error(tmp_path / "x.pdf", "export", str(path), str(tmp_path / "x.pdf"))
    assert err == "x.pdf: cannot tell the format from the name; end it in .trf, .json or .csv, or say --format trf, " \
                  "nrtm or csv"


def test_points_are_written_with_one_decimal() -> None:
    assert trf._points(Fraction(11, 2), "x") == " 5.5"
    with pytest.raises(SheetswissError, match=r"x: 1\.25 points do not fit"):
        trf._points(Fraction(5, 4), "x")
