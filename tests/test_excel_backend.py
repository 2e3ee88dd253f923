"""The .xlsx backend: what openpyxl and LibreOffice read back from its writes, what a GM's workbook keeps,
and that its reader reads what openpyxl reads."""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.styles import Font

from sheetswiss.backends.base import Append, Band, Changes, Tab, TabFormat, Uncalculated, Update, Value
from sheetswiss.backends.excel import ExcelBackend
from sheetswiss.backends.xlsx import Package
from sheetswiss.errors import BadWorkbook, WorkbookUnavailable

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
WHEN = dt.datetime(2026, 7, 30, 9, 15, 30)
HEADER = ("Round", "Table", "Player A", "Player B", "Result")


def values(path: Path, data_only: bool = False) -> dict[str, tuple[tuple[Any, ...], ...]]:
    """Every tab's values as openpyxl reads them (``""`` as empty), trailing empties dropped."""
    wb = openpyxl.load_workbook(path, data_only=data_only)
    out = {}
    for ws in wb.worksheets:
        rows = [tuple(None if v == "" else v for v in row) for row in ws.iter_rows(values_only=True)]
        rows = [row[:max((i + 1 for i, v in enumerate(row) if v is not None), default=0)] for row in rows]
        while rows and not rows[-1]:
            rows.pop()
        out[ws.title] = tuple(rows)
    return out


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def gm_workbook(tmp_path: Path, results: int = 3) -> Path:
    """A workbook as ``new`` makes it, with players and ``results`` rows of Results typed in."""
    path = tmp_path / "ev.xlsx"
    ExcelBackend(path).write(Changes(new_tabs=(
        Tab("Players", (("Name", "Rating"), ("Ana", 1500), ("Bo", None), ("=1+1", 1400))),
        Tab("Results", (HEADER, *[(1, t, f"A{t}", f"B{t}", "1-0") for t in range(1, results + 1)]),
            TabFormat(freeze_rows=1, text_columns=(5,))),
    )))
    return path


def test_a_tool_tab_reads_back_with_its_values_and_formats(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    rows: tuple[tuple[Value, ...], ...] = (
        ("Standings after round 3",),
        ("Rank", "Player", "Points", "Share", "Won", "When", "Day", "At"),
        (1, "=1+1", 2.5, 0.25, True, WHEN, WHEN.date(), WHEN.time()),
        (2, "+x", 2, 0.5, False),
        (3, "@x", 1, 1.0, None),
        (None, "  padded  ", "", None, "a & b < c\r\nd"),
    )
    fmt = TabFormat(freeze_rows=2, widths=(6, 20, 8), text_columns=(9,), landscape=True, bands=(
        Band(1, 1, 1, 8, fill="FFF2CC", italic=True),
        Band(2, 2, 1, 8, fill="d9e1f2", bold=True, border_below=True),
        Band(3, 5, 4, 4, number_format="0.00%"),
        Band(3, 5, 1, 1, center=True),
        Band(3, 3, 2, 2, wrap=True, bold=True, italic=True),
        Band(3, 4, 3, 3, number_format="0.00##")))
    ExcelBackend(path).write(Changes(tool_tabs=(Tab("Standings", rows, fmt),)))
    ws = openpyxl.load_workbook(path)["Standings"]
    assert [c.value for c in ws[3]][:8] == [1, "=1+1", 2.5, 0.25, True, WHEN, dt.datetime(2026, 7, 30), WHEN.time()]
    assert (ws["E4"].value, ws["E5"].value, ws["A6"].value, ws["C6"].value) == (False, None, None, None)
    assert ws["B6"].value == "  padded  " and ws["E6"].value == "a & b < c\r\nd"
    assert all(ws[ref].data_type == "s" for ref in ("B3", "B4", "B5"))
    assert (ws["F3"].number_format, ws["G3"].number_format, ws["H3"].number_format) == (
        "yyyy-mm-dd h:mm:ss", "yyyy-mm-dd", "h:mm:ss")
    assert ws["A1"].fill.fill_type == "solid" and ws["A1"].fill.fgColor.rgb == "FFFFF2CC"
    assert ws["A1"].font.i and not ws["A1"].font.b and ws["A1"].border.bottom.style is None
    assert ws["H2"].fill.fgColor.rgb == "FFD9E1F2" and ws["H2"].font.b and ws["H2"].border.bottom.style == "thin"
    assert ws["I2"].fill.fill_type is None and ws["A3"].fill.fill_type is None
    assert ws["D3"].number_format == "0.00%" and ws["C4"].number_format == "0.00##"
    assert ws["C5"].number_format == "General"
    assert ws["A3"].alignment.horizontal == "center" and not ws["A3"].alignment.wrap_text
    assert ws["B3"].alignment.wrap_text and ws["B3"].font.b and ws["B3"].font.i and ws["B4"].font.b is False
    assert ws.freeze_panes == "A3"
    assert [ws.column_dimensions[c].width for c in "ABC"] == [6, 20, 8]
    assert ws["I3"].number_format == "@" and ws["I1005"].number_format == "@"
    assert ws["I2"].number_format == "General" and ws["I1006"].number_format == "General"
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1
    assert ws.page_setup.fitToHeight == 0 and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ExcelBackend(path).read().rows("Standings")[3:5] == ((2, "+x", 2, 0.5, False), (3, "@x", 1, 1.0))


def test_appends_write_their_rows_and_text_cells_and_clear_the_rest(tmp_path: Path) -> None:
    path = gm_workbook(tmp_path, results=8)
    wb = openpyxl.load_workbook(path)
    wb["Results"]["F5"] = "GM note"
    wb["Results"]["A5"].font = Font(bold=True)
    wb["Results"].sheet_properties.tabColor = "FF0000"
    wb.create_sheet("Notes")["A1"] = "kept"
    wb.save(path)
    rows = ((2, 1, "=cmd", "Ana", None), (2, 2, "Bo", None, "bye"))
    ExcelBackend(path).write(Changes(appends=(Append("Results", 5, rows, clear_through=8, text_columns=(5,)),)))
    ws = openpyxl.load_workbook(path)["Results"]
    assert [[c.value for c in row] for row in ws.iter_rows(min_row=4, max_row=9, max_col=6)] == [
        [1, 3, "A3", "B3", "1-0", None],
        [2, 1, "=cmd", "Ana", None, "GM note"],  # beyond the appended row: the GM's cell stays
        [2, 2, "Bo", None, "bye", None],
        [None] * 6, [None] * 6,
        [1, 8, "A8", "B8", "1-0", None]]
    assert ws["C5"].data_type == "s" and ws["E5"].number_format == "@" and ws["E6"].number_format == "@"
    assert ws["A5"].font.b and ws["E7"].number_format == "@"  # the GM's format and the tab's Text column stay
    assert ws.sheet_properties.tabColor.rgb == "00FF0000"
    assert values(path)["Notes"] == (("kept",),)
    assert ExcelBackend(path).read().rows("Results")[5] == (2, 2, "Bo", None, "bye")


def test_updates_fill_empty_cells_only_and_name_a_filled_one(tmp_path: Path) -> None:
    path = gm_workbook(tmp_path)
    ExcelBackend(path).write(Changes(updates=(Update("Players", 3, 2, 1650), Update("Players", 9, 7, "note"))))
    players = ExcelBackend(path).read().rows("Players")
    assert players[2] == ("Bo", 1650) and players[8] == (None,) * 6 + ("note",)
    before = path.read_bytes()
    for update, held in ((Update("Players", 2, 2, 1700), 1500), (Update("Players", 4, 1, "x"), "=1+1")):
        with pytest.raises(BadWorkbook) as e:
            ExcelBackend(path).write(Changes(tool_tabs=(Tab("Log", (("x",),)),), updates=(
                Update("Players", 5, 2, 1), update)))
        assert str(e.value).startswith(f"{update.cell}: this cell is not empty (it holds {held!r})")
    with pytest.raises(BadWorkbook, match=r"^Ratings: no such tab; nothing was written$"):
        ExcelBackend(path).write(Changes(updates=(Update("Ratings", 2, 2, 1),)))
    assert path.read_bytes() == before


def _excel_saved(path: Path) -> None:
    """A workbook shaped like Excel's own files: shared strings with rich text, prefixed extensions in
    styles, a calculation chain, comments on the Standings tab, a defined name, tab colours, and a
    Results tab whose XML uses a namespace prefix, as some other programs write it."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    ct = "application/vnd.openxmlformats-officedocument."
    mc = ('xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" '
          'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"')
    decl = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    sheets = {
        1: f'<worksheet xmlns="{main}" xmlns:r="{rel}" {mc}><dimension ref="A1:B3"/><sheetViews><sheetView '
           'workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/>'
           '<sheetData><row r="1" spans="1:2" x14ac:dyDescent="0.25"><c r="A1" s="1" t="s"><v>0</v></c>'
           '<c r="B1" s="1" t="s"><v>1</v></c></row><row r="2" spans="1:2"><c r="A2" t="s"><v>2</v></c></row>'
           '<row r="3" spans="1:2"><c r="A3" t="s"><v>3</v></c><c r="B3"><v>1500</v></c></row></sheetData>'
           '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
        2: f'<x:worksheet xmlns:x="{main}"><x:dimension ref="A1:F2"/><x:sheetData><x:row r="1">'
           '<x:c r="A1" t="s"><x:v>4</x:v></x:c><x:c r="E1" t="s"><x:v>5</x:v></x:c></x:row><x:row r="2">'
           '<x:c r="A2"><x:v>1</x:v></x:c><x:c r="C2" t="s"><x:v>2</x:v></x:c><x:c r="F2"><x:f>1+1</x:f>'
           '<x:v>2</x:v></x:c></x:row></x:sheetData></x:worksheet>',
        3: f'<worksheet xmlns="{main}" xmlns:r="{rel}"><sheetPr><tabColor rgb="FF00B050"/></sheetPr>'
           '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetData><row r="1">'
           '<c r="A1" t="s"><v>6</v></c></row></sheetData><legacyDrawing r:id="rId2"/></worksheet>',
        4: f'<worksheet xmlns="{main}"><sheetPr><tabColor rgb="FFFF0000"/></sheetPr><sheetData><row r="1">'
           '<c r="A1" t="s"><v>7</v></c></row></sheetData></worksheet>',
    }
    strings = ["Name", "Rating", "Ana Lopez", "Bo", "Round", "Result", "old standings", "GM's notes"]
    items = "".join(f"<si><t>{s}</t></si>" if s != "Ana Lopez" else
                    '<si><r><rPr><b/><sz val="11"/></rPr><t>Ana</t></r><r><t xml:space="preserve"> Lopez</t></r>'
                    '<rPh sb="0" eb="1"><t>ana</t></rPh></si>' for s in strings)
    files = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{ct}spreadsheetml.sheet.main+xml"/>'
        + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{ct}spreadsheetml.worksheet+xml"/>'
                  for i in sheets)
        + f'<Override PartName="/xl/styles.xml" ContentType="{ct}spreadsheetml.styles+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{ct}spreadsheetml.sharedStrings+xml"/>'
        f'<Override PartName="/xl/calcChain.xml" ContentType="{ct}spreadsheetml.calcChain+xml"/>'
        f'<Override PartName="/xl/comments1.xml" ContentType="{ct}spreadsheetml.comments+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" Type="{rel}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{rel}" {mc}><workbookPr defaultThemeVersion="164011"/>'
        '<bookViews><workbookView activeTab="2"/></bookViews><sheets>'
        + "".join(f'<sheet name="{n}" sheetId="{i + 3}" r:id="rId{i}"/>'
                  for i, n in enumerate(("Players", "Results", "Standings", "Notes"), start=1))
        + '</sheets><definedNames><definedName name="Ratings">Players!$B$2:$B$9</definedName></definedNames>'
        '<calcPr calcId="171027"/></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{pkg}">'
        + "".join(f'<Relationship Id="rId{i}" Type="{rel}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                  for i in sheets)
        + f'<Relationship Id="rId5" Type="{rel}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId6" Type="{rel}/sharedStrings" Target="/xl/sharedStrings.xml"/>'
        f'<Relationship Id="rId7" Type="{rel}/calcChain" Target="calcChain.xml"/></Relationships>',
        "xl/styles.xml": f'<styleSheet xmlns="{main}" {mc}><fonts count="2" x14ac:knownFonts="1"><font><sz val="11"/>'
        '<color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font><font><b/>'
        '<sz val="11"/><color rgb="FF0070C0"/><name val="Calibri"/><family val="2"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/>'
        '</fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" '
        'fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle '
        'name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0"/>'
        '<extLst><ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}" '
        'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:slicerStyles '
        'defaultSlicerStyle="SlicerStyleLight1"/></ext></extLst></styleSheet>',
        "xl/sharedStrings.xml": f'<sst xmlns="{main}" count="8" uniqueCount="8">{items}</sst>',
        "xl/calcChain.xml": f'<calcChain xmlns="{main}"><c r="F2" i="2"/></calcChain>',
        "xl/comments1.xml": f'<comments xmlns="{main}"><authors><author>GM</author></authors><commentList>'
        '<comment ref="A1" authorId="0"><text><t>old</t></text></comment></commentList></comments>',
        "xl/drawings/vmlDrawing1.vml": "<xml/>",
        "xl/worksheets/_rels/sheet3.xml.rels": f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
        f'Type="{rel}/comments" Target="../comments1.xml"/><Relationship Id="rId2" Type="{rel}/vmlDrawing" '
        'Target="../drawings/vmlDrawing1.vml"/></Relationships>',
        **{f"xl/worksheets/sheet{i}.xml": text for i, text in sheets.items()},
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(name, text if name.endswith(".vml") else decl + text)


def test_an_excel_saved_workbook_keeps_every_part_the_write_does_not_touch(tmp_path: Path) -> None:
    path = tmp_path / "excel.xlsx"
    _excel_saved(path)
    before = parts(path)
    standings = Tab("Standings", (("Rank", "Player"), (1, "Ana Lopez")),
                    TabFormat(freeze_rows=1, bands=(Band(1, 1, 1, 2, fill="D9E1F2", bold=True),)))
    ExcelBackend(path).write(Changes(
        tool_tabs=(standings, Tab("Log", (("when", "what"),))),
        appends=(Append("Results", 3, ((1, 1, "Ana Lopez", "Bo", None),), text_columns=(5,)),),
        updates=(Update("Players", 2, 2, 1850),)))
    after = parts(path)
    changed = {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
    assert changed == {"[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml",
                       "xl/calcChain.xml", "xl/worksheets/_rels/sheet3.xml.rels", "xl/worksheets/sheet1.xml",
                       "xl/worksheets/sheet2.xml", "xl/worksheets/sheet3.xml", "xl/worksheets/sheet5.xml"}
    assert "xl/calcChain.xml" not in after and "xl/worksheets/_rels/sheet3.xml.rels" not in after
    styles = after["xl/styles.xml"].decode()
    head = before["xl/styles.xml"].decode().split("<fonts")[0]
    assert styles.startswith(head) and 'x14ac:knownFonts="1"' in styles and "x14:slicerStyles" in styles
    assert after["xl/worksheets/sheet2.xml"].decode().count("<x:row") == 3
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Players", "Results", "Standings", "Notes", "Log"]
    assert values(path) == {
        "Players": (("Name", "Rating"), ("Ana Lopez", 1850), ("Bo", 1500)),
        "Results": (("Round", None, None, None, "Result"), (1, None, "Ana Lopez", None, None, "=1+1"),
                    (1, 1, "Ana Lopez", "Bo")),
        "Standings": (("Rank", "Player"), (1, "Ana Lopez")),
        "Notes": (("GM's notes",),),
        "Log": (("when", "what"),)}
    assert ExcelBackend(path).read().tabs == values(path, data_only=True)
    assert wb["Players"]["A1"].font.b and wb["Players"]["A1"].font.color.rgb == "FF0070C0"
    assert wb["Results"]["E3"].number_format == "@" and wb["Standings"]["A1"].font.b
    assert wb["Standings"].sheet_properties.tabColor.rgb == "FF00B050" and wb["Standings"].sheet_view.tabSelected
    assert wb["Notes"].sheet_properties.tabColor.rgb == "FFFF0000" and "Ratings" in wb.defined_names
    assert ExcelBackend(path).read().rows("Players")[1] == ("Ana Lopez", 1850)
    with pytest.raises(BadWorkbook, match=r"^Players!A2: this cell is not empty \(it holds 'Ana Lopez'\)"):
        ExcelBackend(path).write(Changes(updates=(Update("Players", 2, 1, "x"),)))
    with pytest.raises(BadWorkbook, match=r"^Results!F2: this cell is not empty \(it holds '=1\+1'\)"):
        ExcelBackend(path).write(Changes(updates=(Update("Results", 2, 6, "x"),)))


def test_every_write_asks_excel_and_libreoffice_to_recalculate_on_open(tmp_path: Path) -> None:
    """calcPr gets ``fullCalcOnLoad="1"`` (Excel), placed where the schema wants it when the workbook had no
    calcPr, and the generator becomes sheetswiss (LibreOffice recalculates a file it did not write)."""
    path = tmp_path / "excel.xlsx"
    _excel_saved(path)
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    files["docProps/app.xml"] = (
        b'<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
        b"<Application>Microsoft Excel</Application><AppVersion>16.0300</AppVersion></Properties>")
    files["_rels/.rels"] = files["_rels/.rels"].replace(b"</Relationships>", (
        b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        b'extended-properties" Target="docProps/app.xml"/></Relationships>'))
    without_calc = files["xl/workbook.xml"].decode().replace('<calcPr calcId="171027"/>', "").replace(
        "</workbook>", '<extLst><ext uri="{x}"/></extLst></workbook>')
    for workbook in (files["xl/workbook.xml"].decode(), without_calc):
        files["xl/workbook.xml"] = workbook.encode()
        with zipfile.ZipFile(path, "w") as z:
            for name, data in files.items():
                z.writestr(name, data)
        for _ in range(2):  # a second write leaves the flag as it is
            ExcelBackend(path).write(Changes(tool_tabs=(Tab("Standings", (("Rank", "Player"), (1, "Ana"))),)))
            after = parts(path)
            calc = re.findall(r"<calcPr\b[^>]*>", after["xl/workbook.xml"].decode())
            assert len(calc) == 1 and 'fullCalcOnLoad="1"' in calc[0]
            assert after["docProps/app.xml"].decode().endswith(
                "<Application>sheetswiss</Application><AppVersion>16.0300</AppVersion></Properties>")
        root = ET.fromstring(after["xl/workbook.xml"])
        order = [el.tag.split("}")[1] for el in root]
        assert order[order.index("definedNames") + 1:] == ["calcPr", "extLst"][:1 + ("extLst" in workbook)]
        assert openpyxl.load_workbook(path).calculation.fullCalcOnLoad


def test_tabs_repeat_their_header_rows_on_every_printed_page(tmp_path: Path) -> None:
    """A tab's frozen rows (its title and header) are its print titles: one ``_xlnm.Print_Titles`` per tab,
    kept beside the GM's own names, replaced (not repeated) on every write, quoted for any tab name."""
    path = tmp_path / "excel.xlsx"
    _excel_saved(path)
    workbook = parts(path)["xl/workbook.xml"].decode().replace(
        "</definedNames>", '<definedName name="_xlnm.Print_Titles" localSheetId="2">Standings!$1:$5</definedName>'
        "</definedNames>")
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    files["xl/workbook.xml"] = workbook.encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    standings = Tab("Standings", (("Standings",), ("Rank", "Player"), (1, "Ana")), TabFormat(freeze_rows=2))
    for _ in range(2):
        ExcelBackend(path).write(Changes(tool_tabs=(standings, Tab("O'Brien list", (("Name",),),
                                                                   TabFormat(freeze_rows=1)))))
    wb = openpyxl.load_workbook(path)
    assert wb["Standings"].print_title_rows == "$1:$2"
    assert wb["O'Brien list"].print_title_rows == "$1:$1"
    assert wb["Players"].print_title_rows is None and "Ratings" in wb.defined_names
    assert parts(path)["xl/workbook.xml"].decode().count("_xlnm.Print_Titles") == 2
    fresh = tmp_path / "new.xlsx"
    ExcelBackend(fresh).write(Changes(new_tabs=(Tab("Players", (("Name",),), TabFormat(freeze_rows=1)),
                                                Tab("Notes", (("x",),)))))
    wb = openpyxl.load_workbook(fresh)
    assert wb["Players"].print_title_rows == "$1:$1" and wb["Notes"].print_title_rows is None


def test_a_formula_never_calculated_reads_as_its_formula(tmp_path: Path) -> None:
    path = tmp_path / "script.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Players"
    ws["A1"], ws["A2"], ws["B2"] = "Name", "=Zed Equals", "=SUM(C1:C3)"
    wb.save(path)
    rows = ExcelBackend(path).read().rows("Players")
    assert rows[1] == ("=Zed Equals", "=SUM(C1:C3)") and all(isinstance(v, Uncalculated) for v in rows[1])
    assert not isinstance(rows[0][0], Uncalculated)


def test_the_reader_reads_what_openpyxl_reads_from_unusual_xml(tmp_path: Path) -> None:
    """Cells placed by order (no references), CDATA, character references, line ends, rich text with a
    phonetic guide, formula results of every type, a 1904 date system, a duration, a stale dimension."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    ct = "application/vnd.openxmlformats-officedocument.spreadsheetml."
    sheet = (
        f'<worksheet xmlns="{main}"><dimension ref="A1"/><sheetData>'
        '<row r="1"><c r="A1" t="str"><f>"a"&amp;"b"</f><v>a&amp;b</v></c><c r="B1" t="b"><v>1</v></c>'
        '<c r="C1" t="e"><f>NA()</f><v>#N/A</v></c><c r="D1" t="d"><v>2026-07-30T09:15:00</v></c>'
        '<c r="E1" t="b"><v>0</v></c></row>'
        '<row><c t="inlineStr"><is><t><![CDATA[x < y & z]]></t></is></c><c><v>1.5</v></c><c s="1"><v>44000.5</v></c>'
        '<c s="2"><v>1.25</v></c><c><v>1E3</v></c><c t="s"><v>1</v></c></row>'
        '<row r="4"><c r="A4" t="inlineStr"><is><r><t>Ana</t></r><r><rPr><b/></rPr><t xml:space="preserve"> '
        '&#x4C;opez&#13;\r\nx</t></r><r><t/></r><rPh sb="0" eb="1"><t>ana</t></rPh></is></c>'
        '<c r="C4" t="s"><v>0</v></c><c r="D4" s="1"/><c r="E4" t="inlineStr"/><c r="F4" t="s"><v>2</v></c></row>'
        "</sheetData></worksheet>")
    files = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f'<Override PartName="/xl/workbook.xml" ContentType="{ct}sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{ct}worksheet+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{ct}styles+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{ct}sharedStrings+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" Type="{rel}/officeDocument" '
        'Target="/xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{rel}"><workbookPr date1904="1"/><sheets>'
        '<sheet name="Odd &amp; ends" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{pkg}">'
        f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{rel}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId3" Type="{rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/styles.xml": f'<styleSheet xmlns="{main}"><fonts count="1"><font/></fonts><fills count="1"><fill>'
        '<patternFill/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/>'
        '</cellStyleXfs><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="46"/></cellXfs>'
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
        "xl/sharedStrings.xml": f'<sst xmlns="{main}"><si><r><t>B</t></r><r><t>o</t></r></si><si><t>two</t></si>'
        "<si><t/></si></sst>",
        "xl/worksheets/sheet1.xml": sheet,
    }
    path = tmp_path / "odd.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    read = ExcelBackend(path).read().tabs
    assert read == values(path, data_only=True)
    assert read["Odd & ends"][1][:3] == ("x < y & z", 1.5, dt.datetime(2024, 6, 19, 12))
    assert read["Odd & ends"][3][0] == "Ana Lopez\r\nx"

    bare = tmp_path / "bare.xlsx"  # no cell formats at all (some generators write none): a write adds them
    with zipfile.ZipFile(bare, "w") as z:
        for name, text in files.items():
            if name == "xl/worksheets/sheet1.xml":
                text = f'<worksheet xmlns="{main}"><sheetData><row><c><v>1</v></c></row></sheetData></worksheet>'
            if name != "xl/styles.xml":
                z.writestr(name, text.replace(f'<Relationship Id="rId2" Type="{rel}/styles" Target="styles.xml"/>', ""))
    ExcelBackend(bare).write(Changes(
        tool_tabs=(Tab("Log", (("x", WHEN),), TabFormat(bands=(Band(1, 1, 1, 1, bold=True),))),),
        appends=(Append("Odd & ends", 2, (("new", 2),)),)))
    wb = openpyxl.load_workbook(bare)
    assert wb["Log"]["A1"].font.b and wb["Log"]["B1"].value == WHEN
    assert values(bare)["Odd & ends"] == ((1,), ("new", 2))


@pytest.mark.parametrize("row_tag", [r'<row spans="1:5" r="\1">', "<row>", r'<row r="\1" spans="1:5">'])
def test_rows_written_another_way_take_appends_and_updates_alike(tmp_path: Path, row_tag: str) -> None:
    """A write finds the rows it edits by their numbers when every row's tag starts with its number, as
    sheetswiss, Excel, LibreOffice and openpyxl write them; rows written another way (another attribute
    first, no number, each row following the one before) get the same edits."""
    (tmp_path / "plain").mkdir()
    plain = gm_workbook(tmp_path / "plain", results=5)
    other = tmp_path / "other.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(other, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet2.xml":
                text = data.decode()
                assert "<row r=" in text
                data = re.sub(r'<row r="(\d+)">', row_tag, text).encode()
            target.writestr(info, data)
    changes = Changes(appends=(Append("Results", 5, ((2, 1, "A1", "B2", None), (2, 2, "A3", "B3", None)), 8,
                                      text_columns=(5,)),),
                      updates=(Update("Results", 3, 7, "note"), Update("Results", 12, 2, 5)))
    for path in (plain, other):
        ExcelBackend(path).write(changes)
    assert values(other) == values(plain)
    assert ExcelBackend(other).read().tabs == ExcelBackend(plain).read().tabs == values(plain)
    results = values(plain)["Results"]
    assert results[2][6] == "note"
    assert results[4:] == ((2, 1, "A1", "B2"), (2, 2, "A3", "B3"), (), (), (), (), (), (None, 5))


def test_formats_are_reused_not_added_again_on_every_run(tmp_path: Path) -> None:
    path = gm_workbook(tmp_path)
    tab = Tab("Standings", (("Title",), ("Rank", "Player"), (1, "Ana")), TabFormat(freeze_rows=2, bands=(
        Band(1, 1, 1, 2, fill="FFF2CC", italic=True), Band(2, 2, 1, 2, fill="D9E1F2", bold=True, border_below=True),
        Band(3, 3, 1, 1, center=True, number_format="0.0"))))
    counts = []
    for _ in range(3):
        ExcelBackend(path).write(Changes(tool_tabs=(tab,)))
        wb = openpyxl.load_workbook(path)  # another program saves the file, writing the formats its own way
        wb["Players"]["C9"] = "typed"
        wb.save(path)
        styles = ET.fromstring(parts(path)["xl/styles.xml"])
        counts.append([len(section) for section in styles])
    assert counts[0] == counts[1] == counts[2]


def test_typing_into_cells_replaces_what_they_held_and_keeps_text_as_text(tmp_path: Path) -> None:
    path = gm_workbook(tmp_path)
    typed = {"A2": '=HYPERLINK("x")', "B2": None, "B3": "Zoë", "C12": 1850}
    before = {c.coordinate: c.value for row in openpyxl.load_workbook(path)["Players"].iter_rows() for c in row}
    ExcelBackend(path).fill_cells("Players", typed)
    sheet = openpyxl.load_workbook(path)["Players"]
    after = {c.coordinate: c.value for row in sheet.iter_rows() for c in row}
    assert {ref: after[ref] for ref in typed} == typed
    assert sheet["A2"].data_type == "s"  # a name, never a formula
    assert {ref: v for ref, v in after.items() if ref not in typed and v is not None} == {
        ref: v for ref, v in before.items() if ref not in typed and v is not None}
    with pytest.raises(ValueError, match="Players!2A: not a cell reference"):
        ExcelBackend(path).fill_cells("Players", {"2A": 1})


def test_a_crash_while_saving_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = gm_workbook(tmp_path)
    before = path.read_bytes()

    def crash(self: Package, target: Path) -> None:
        target.write_bytes(b"half a workbook")
        raise KeyboardInterrupt

    monkeypatch.setattr(Package, "save", crash)
    with pytest.raises(KeyboardInterrupt):
        ExcelBackend(path).write(Changes(tool_tabs=(Tab("Log", (("x",),)),)))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["ev.xlsx"]


def test_files_a_write_refuses(tmp_path: Path) -> None:
    changes = Changes(tool_tabs=(Tab("Log", (("x",),)),))
    path = gm_workbook(tmp_path)
    (tmp_path / ".~lock.ev.xlsx#").write_text("")
    with pytest.raises(WorkbookUnavailable, match="open in a spreadsheet program"):
        ExcelBackend(path).write(changes)
    text = tmp_path / "text.xlsx"
    text.write_text("not a zip")
    with pytest.raises(WorkbookUnavailable, match=r"text\.xlsx: not a readable \.xlsx workbook"):
        ExcelBackend(text).write(changes)
    other = tmp_path / "other.xlsx"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("hello.txt", "a zip, but no workbook")
    with pytest.raises(WorkbookUnavailable, match=r"other\.xlsx: not a readable \.xlsx workbook"):
        ExcelBackend(other).write(changes)
    with pytest.raises(WorkbookUnavailable, match="macro workbooks"):
        ExcelBackend(tmp_path / "m.xlsm").write(changes)
    assert text.read_text() == "not a zip"


def _reference_write(path: Path, changes: Changes) -> None:
    """What the writes mean, done cell by cell through openpyxl."""
    wb = openpyxl.load_workbook(path)

    def put(ws: Any, r: int, c: int, value: Value) -> None:
        cell = ws.cell(r, c)
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"

    for tab in changes.tool_tabs:
        index = wb.sheetnames.index(tab.name) if tab.name in wb.sheetnames else len(wb.sheetnames)
        if tab.name in wb.sheetnames:
            wb.remove(wb[tab.name])
        ws = wb.create_sheet(tab.name, index)
        for r, row in enumerate(tab.rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is not None:
                    put(ws, r, c, value)
    for append in changes.appends:
        ws = wb[append.tab]
        width = ws.max_column
        for r, row in enumerate(append.rows, start=append.first_row):
            for c, value in enumerate(row, start=1):
                put(ws, r, c, value)
        for r in range(append.first_row + len(append.rows), append.clear_through + 1):
            for c in range(1, width + 1):
                ws.cell(r, c).value = None
    for update in changes.updates:
        put(wb[update.tab], update.row, update.column, update.value)
    wb.save(path)


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), include_characters=" \n\t"),
                max_size=12)
_FLOATS = st.floats(-1e300, 1e300).map(lambda x: float(f"{x:.15g}"))
"""openpyxl writes 16 significant digits (the fast path all 17), so the property uses floats both keep."""
_VALUES = st.one_of(st.none(), _TEXT, st.sampled_from(["=1+1", "+x", "@x", "-y", " x ", "1-0", ""]),
                    st.integers(-10**12, 10**12), _FLOATS, st.booleans(),
                    st.datetimes(dt.datetime(1900, 3, 1), dt.datetime(2100, 1, 1)).map(
                        lambda d: d.replace(microsecond=0)))
_ROWS = st.lists(st.lists(_VALUES, max_size=6).map(tuple), max_size=6).map(tuple)


@st.composite
def _changes(draw: st.DrawFn) -> Changes:
    tool_tabs = tuple(Tab(name, draw(_ROWS)) for name in draw(st.sets(st.sampled_from(["Pairings", "Log", "New"]))))
    appends = []
    if draw(st.booleans()):
        first = draw(st.integers(2, 12))
        rows = draw(_ROWS)
        clear = draw(st.integers(0, 16))
        text_columns = tuple(sorted(draw(st.sets(st.integers(1, 7)))))
        appends.append(Append("Results", first, rows, clear, text_columns))
    cells = draw(st.sets(st.tuples(st.integers(6, 30), st.integers(1, 8)), max_size=5))
    updates = tuple(Update("Players", r, c, draw(_VALUES)) for r, c in sorted(cells))
    return Changes(tool_tabs=tool_tabs, appends=tuple(appends), updates=updates)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_changes())
def test_random_writes_give_what_openpyxl_gives(changes: Changes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        fast = gm_workbook(Path(folder), results=6)
        ExcelBackend(fast).write(Changes(tool_tabs=(Tab("Pairings", (("old",), ("rows", 1, 2))),)))
        reference = Path(folder) / "reference.xlsx"
        shutil.copy(fast, reference)
        ExcelBackend(fast).write(changes)
        _reference_write(reference, changes)
        assert values(fast) == values(reference)
        for path in (fast, reference):  # the reader reads what openpyxl reads, from either writer's files
            assert ExcelBackend(path).read().tabs == values(path, data_only=True)


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed here")
def test_libreoffice_reads_what_the_fast_path_writes_into_its_own_file(tmp_path: Path) -> None:
    assert SOFFICE is not None

    def through_libreoffice(path: Path, folder: str) -> Path:
        subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile", "--convert-to",
                        "xlsx", "--outdir", str(tmp_path / folder), str(path)],
                       check=True, capture_output=True, timeout=180)
        return tmp_path / folder / path.name

    saved = through_libreoffice(gm_workbook(tmp_path), "saved")  # shared strings and styles as LibreOffice has them
    ExcelBackend(saved).write(Changes(
        tool_tabs=(Tab("Standings", (("Rank", "Player", "When"), (1, "=Ana", WHEN)), TabFormat(
            freeze_rows=1, widths=(6, 20), bands=(Band(1, 1, 1, 3, fill="D9E1F2", bold=True, border_below=True),))),),
        appends=(Append("Results", 5, ((2, 1, "Ana", "Bo", None),), text_columns=(5,)),),
        updates=(Update("Players", 3, 2, 1650),)))
    again = through_libreoffice(saved, "again")
    assert values(again) == values(saved)
    assert values(saved)["Players"][2] == ("Bo", 1650) and values(saved)["Standings"][1] == (1, "=Ana", WHEN)
    assert ExcelBackend(again).read().tabs == values(again, data_only=True)
    assert openpyxl.load_workbook(again)["Standings"]["A1"].font.b


def stored_bytes(path: Path) -> dict[str, tuple[int, int, bytes]]:
    """Each part's compression method, CRC-32 and the bytes the zip stores it as (from its local header)."""
    data = path.read_bytes()
    out = {}
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            at = info.header_offset
            start = at + 30 + int.from_bytes(data[at + 26:at + 28], "little") + int.from_bytes(data[at + 28:at + 30],
                                                                                              "little")
            out[info.filename] = (info.compress_type, info.CRC, data[start:start + info.compress_size])
    return out


class _Streamed(io.RawIOBase):
    """A file written front to back only, as a program streaming a zip writes it: each part's sizes then
    follow its bytes (a data descriptor) rather than standing in its header."""

    def __init__(self, file: io.BufferedWriter) -> None:
        self.file = file

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self.file.write(data)


@pytest.mark.parametrize("streamed", [False, True], ids=["sizes in headers", "streamed"])
def test_a_write_copies_the_parts_it_leaves_alone_as_stored(tmp_path: Path, streamed: bool) -> None:
    """The parts a write does not change keep the very bytes the zip held them as, however their program
    stored them (here: not compressed, and deflated at another level than sheetswiss's; streamed or not); the
    changed parts are written afresh; every part reads back whole, as zipfile checks it (CRC-32 and sizes)."""
    (tmp_path / "plain").mkdir()
    plain = gm_workbook(tmp_path / "plain")
    other = tmp_path / "other.xlsx"
    with open(other, "wb") as file, zipfile.ZipFile(plain) as source, \
            zipfile.ZipFile(_Streamed(file) if streamed else file, "w") as target:
        for info in source.infolist():
            kept = zipfile.ZipInfo(info.filename, info.date_time)
            kept.compress_type = zipfile.ZIP_STORED if info.filename.endswith(".rels") else zipfile.ZIP_DEFLATED
            target.writestr(kept, source.read(info), compresslevel=9)
        target.writestr("customXml/ünïcode.xml", b"<note>kept as it is</note>")  # a name in UTF-8
    with zipfile.ZipFile(other) as z:
        assert all(bool(i.flag_bits & 0x8) == streamed for i in z.infolist())  # the sizes after the bytes
    before, contents = stored_bytes(other), parts(other)
    ExcelBackend(other).write(Changes(appends=(Append("Results", 5, ((2, 1, "A1", "B2", None),)),),
                                      tool_tabs=(Tab("Pairings", (("Table", "Player A"), (1, "A1"))),)))
    after = stored_bytes(other)
    with zipfile.ZipFile(other) as z:
        assert z.testzip() is None
        infos = {i.filename: i for i in z.infolist()}
    changed = {name for name, data in parts(other).items() if contents.get(name) != data}
    assert {"xl/worksheets/sheet2.xml", "xl/workbook.xml"} <= changed  # Results appended to; Pairings added
    kept = set(before) - changed
    assert {"xl/worksheets/sheet1.xml", "_rels/.rels", "customXml/ünïcode.xml"} <= kept  # deflated at 9, stored
    assert all(after[name] == before[name] for name in kept)
    assert all(infos[name].compress_type == before[name][0] for name in before)
    assert values(other) == values(plain) | {"Results": values(other)["Results"], "Pairings": ((
        "Table", "Player A"), (1, "A1"))}
