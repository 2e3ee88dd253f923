"""An .xlsx package (the zip of XML parts) held in memory: read, changed part by part, saved.

:class:`Package` finds the workbook's tabs through the package's relationships (``_rels/.rels``, then
``xl/_rels/workbook.xml.rels``), reads their values (:mod:`.reader`), applies a :class:`~..base.Changes`
(:mod:`.tool_tabs`, :mod:`.gm_tabs`, :mod:`.styles`), adds tabs to ``workbook.xml`` and its content types,
drops the calculation chain (``calcChain.xml``, Excel's cache of formula cells) and asks spreadsheet
programs to recalculate on open, and writes the zip (:mod:`.archive`): unchanged parts copied as the zip
stored them, changed ones compressed.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import time
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ...errors import BadWorkbook
from ..base import Changes, Tab, Value, column_index
from .archive import Part, read_parts, write_parts
from .gm_tabs import GMSheet, TabEdits
from .reader import Decoder, SheetValues, read_shared_strings, sheet_data
from .styles import BLANK_STYLES, Styles
from .tool_tabs import Kept, kept_from, sheet_xml
from .xmltext import (
    CELL_REF,
    CONTENT_TYPES,
    DECLARATION,
    DOC_REL,
    MAIN,
    PKG_REL,
    STRICT,
    STYLES_CONTENT,
    STYLES_TYPE,
    WORKSHEET_CONTENT,
    WORKSHEET_TYPE,
    PackageError,
    StrictWorkbook,
    decoded,
    escape,
    escape_attr,
    insert_children,
    parse_xml,
    prefix_of,
    raw_text,
    tag_attributes,
)

__all__ = ["Package"]

WINDOWS_EPOCH = dt.datetime(1899, 12, 30)
"""Day 0 of a workbook's dates (ECMA-376 Part 1, 18.17.4.1, the 1900 date system, as openpyxl counts it)."""
MAC_EPOCH = dt.datetime(1904, 1, 1)
"""Day 0 under ``date1904`` (18.17.4.2). openpyxl, which converts the serial numbers, is imported only when a
date is read or written: the import is a fair share of a quick command's time."""


# -- the package --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SheetEntry:
    """One tab of the workbook: its name, its relationship and its part."""

    name: str
    rel_id: str
    part: str
    kind: str


def _blank_parts(now: dt.datetime) -> dict[str, bytes]:
    """The parts of a workbook without tabs: what a new file starts from."""
    stamp = f"{now:%Y-%m-%dT%H:%M:%SZ}"
    ct = "application/vnd.openxmlformats-"
    parts = {
        CONTENT_TYPES: (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Default Extension="rels" ContentType="{ct}package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{ct}officedocument.spreadsheetml.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{ct}officedocument.spreadsheetml.styles+xml"/>'
            f'<Override PartName="/xl/theme/theme1.xml" ContentType="{ct}officedocument.theme+xml"/>'
            f'<Override PartName="/docProps/core.xml" ContentType="{ct}package.core-properties+xml"/>'
            f'<Override PartName="/docProps/app.xml" ContentType="{ct}officedocument.extended-properties+xml"/>'
            "</Types>"),
        "_rels/.rels": (
            f'<Relationships xmlns="{PKG_REL}">'
            f'<Relationship Id="rId1" Type="{DOC_REL}/officeDocument" Target="xl/workbook.xml"/>'
            f'<Relationship Id="rId2" Type="{PKG_REL}/metadata/core-properties" Target="docProps/core.xml"/>'
            f'<Relationship Id="rId3" Type="{DOC_REL}/extended-properties" Target="docProps/app.xml"/>'
            "</Relationships>"),
        "docProps/app.xml": (
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
            "<Application>sheetswiss</Application></Properties>"),
        "docProps/core.xml": (
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>sheetswiss</dc:creator>'
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>'),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN}" xmlns:r="{DOC_REL}"><workbookPr/><bookViews><workbookView activeTab="0"/>'
            '</bookViews><sheets/><calcPr calcId="191029" fullCalcOnLoad="1"/></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PKG_REL}">'
            f'<Relationship Id="rId1" Type="{DOC_REL}/styles" Target="styles.xml"/>'
            f'<Relationship Id="rId2" Type="{DOC_REL}/theme" Target="theme/theme1.xml"/>'
            "</Relationships>"),
        "xl/styles.xml": BLANK_STYLES,
    }
    out = {name: (DECLARATION + text).encode("utf-8") for name, text in parts.items()}
    from openpyxl.writer.theme import theme_xml

    out["xl/theme/theme1.xml"] = theme_xml.encode("utf-8")
    return out


_BEFORE_CALC_PR = ("sheets", "functionGroups", "externalReferences", "definedNames")
"""The elements of ``workbook.xml`` that the schema puts before ``calcPr`` (after ``bookViews``)."""


def _full_calculation_on_load(workbook: str) -> str:
    """``workbook.xml``'s text with ``calcPr``'s ``fullCalcOnLoad="1"``, the element added where the schema
    wants it when there is none."""
    p = prefix_of(workbook, "sheets")
    m = re.search(rf"<{p}calcPr\b[^>]*?/?>", workbook)
    if m is not None:
        if re.search(r"\sfullCalcOnLoad\s*=\s*[\"'](?:1|true)[\"']", m[0]):
            return workbook
        tag = re.sub(r"\sfullCalcOnLoad\s*=\s*(?:\"[^\"]*\"|'[^']*')", "", m[0])
        start = len(f"<{p}calcPr")
        tag = f'{tag[:start]} fullCalcOnLoad="1"{tag[start:]}'
        return workbook[:m.start()] + tag + workbook[m.end():]
    last = 0
    for el in _BEFORE_CALC_PR:
        for end in (rf"</{p}{el}>", rf"<{p}{el}\b[^>]*/>"):
            found = [e.end() for e in re.finditer(end, workbook)]
            if found:
                last = max(last, found[-1])
    if not last:
        raise PackageError("no <sheets> element")
    return f'{workbook[:last]}<{p}calcPr fullCalcOnLoad="1"/>{workbook[last:]}'


def _rels_path(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _target(source: str, target: str) -> str:
    """A relationship's target as a part name (relative to ``source``'s folder unless absolute)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


class Package:
    """The parts of an .xlsx file, changed in memory by :meth:`apply` and written by :meth:`save`."""

    def __init__(self, parts: Mapping[str, bytes], infos: Mapping[str, zipfile.ZipInfo] | None = None,
                 stored: Mapping[str, bytes] | None = None) -> None:
        self._parts = dict(parts)
        self._infos = dict(infos or {})
        self._stored = dict(stored or {})
        """The bytes the zip held each part as, copied as they are while the part is unchanged."""
        if CONTENT_TYPES not in self._parts:
            raise PackageError(f"no {CONTENT_TYPES}")
        self._changed: set[str] = set()
        self._names = {name.lower(): name for name in self._parts}
        root_rels = self._relationships("_rels/.rels", "")
        workbook = next((t for _, (kind, t) in root_rels.items() if kind.endswith("/officeDocument")), None)
        if any(kind.startswith(STRICT) for kind, _ in root_rels.values()):
            raise StrictWorkbook("a Strict Open XML workbook")
        if workbook is None or workbook.lower() not in self._names:
            raise PackageError("no workbook part")
        self._workbook = self._names[workbook.lower()]
        self._workbook_rels = _rels_path(self._workbook)
        rels = self._relationships(self._workbook_rels, self._workbook)
        root = parse_xml(self._parts[self._workbook], self._workbook)
        sheets = root.find(f"{{{MAIN}}}sheets")
        if sheets is None:
            raise PackageError(f"{self._workbook}: no sheets")
        self._sheets: list[_SheetEntry] = []
        for el in sheets.findall(f"{{{MAIN}}}sheet"):
            rel_id = el.get(f"{{{DOC_REL}}}id", "")
            kind, part = rels.get(rel_id, ("", ""))
            self._sheets.append(_SheetEntry(el.get("name", ""), rel_id, self._names.get(part.lower(), part), kind))
        self._rels = rels
        self._sheet_ids = [int(el.get("sheetId", "0")) for el in sheets.findall(f"{{{MAIN}}}sheet")]
        pr = root.find(f"{{{MAIN}}}workbookPr")
        self._epoch = MAC_EPOCH if pr is not None and pr.get("date1904") in ("1", "true") else WINDOWS_EPOCH
        styles = next((t for kind, t in rels.values() if kind == STYLES_TYPE), "")
        self._styles_part = self._names.get(styles.lower())
        if self._styles_part is None:  # a workbook without formats: a write adds the blank ones
            self._styles = Styles((DECLARATION + BLANK_STYLES).encode("utf-8"), "xl/styles.xml")
        else:
            self._styles = Styles(self._parts[self._styles_part], self._styles_part)
        self._strings: list[str] | None = None
        self._decoder = Decoder(self._styles, self._epoch, self._shared_strings)

    @classmethod
    def load(cls, path: Path) -> Package:
        """The package of the .xlsx file at ``path``."""
        return cls(*read_parts(path))

    @classmethod
    def blank(cls) -> Package:
        """A workbook with no tabs yet (a new file's starting point), created now."""
        return cls(_blank_parts(dt.datetime.now(dt.timezone.utc)))

    def _set(self, name: str, data: bytes) -> None:
        if name.lower() not in self._names:
            self._names[name.lower()] = name
        self._parts[self._names[name.lower()]] = data
        self._changed.add(self._names[name.lower()])

    def _relationships(self, rels_part: str, source: str) -> dict[str, tuple[str, str]]:
        """Id -> (type, target part name; ``""`` for an external target) of a relationships part (empty when
        it does not exist)."""
        name = self._names.get(rels_part.lower())
        if name is None:
            return {}
        root = parse_xml(self._parts[name], name)
        return {el.get("Id", ""): (el.get("Type", ""), "" if el.get("TargetMode") == "External" else
                                   _target(source, el.get("Target", "")))
                for el in root.findall(f"{{{PKG_REL}}}Relationship")}

    def _shared_strings(self) -> list[str]:
        if self._strings is None:
            part = next((t for kind, t in self._rels.values() if kind.endswith("/sharedStrings")), "")
            name = self._names.get(part.lower())
            self._strings = read_shared_strings(self._parts[name], name) if name else []
        return self._strings

    def _entry(self, tab: str) -> _SheetEntry | None:
        """The tab named ``tab``; refuses one whose name differs only in case (Excel would see both as one)."""
        for entry in self._sheets:
            if entry.name == tab:
                return entry
            if entry.name.lower() == tab.lower():
                raise BadWorkbook(f"{entry.name}: sheetswiss needs a tab named {tab!r} and spreadsheet programs "
                                  "do not tell the two apart; rename this tab")
        return None

    def _worksheet(self, tab: str) -> _SheetEntry:
        entry = self._entry(tab)
        if entry is None:
            raise BadWorkbook(f"{tab}: no such tab; nothing was written")
        if entry.kind != WORKSHEET_TYPE or entry.part not in self._parts:
            raise BadWorkbook(f"{tab}: not a worksheet (a chart sheet?); nothing was written")
        return entry

    def _drop(self, name: str) -> None:
        """Remove a part and its content type override."""
        actual = self._names.pop(name.lower(), None)
        if actual is None:
            return
        del self._parts[actual]
        self._changed.discard(actual)
        types = decoded(self._parts[CONTENT_TYPES], CONTENT_TYPES)
        pattern = rf'<(\w+:)?Override\b[^>]*PartName="/{re.escape(actual)}"[^>]*/>'
        self._set(CONTENT_TYPES, re.sub(pattern, "", types, flags=re.I).encode("utf-8"))

    def _drop_calculation_chain(self) -> None:
        """Excel's cache of formula cells, which it rebuilds when absent, may name cells a write emptied."""
        chain = [(rel_id, part) for rel_id, (kind, part) in self._rels.items() if kind.endswith("/calcChain")]
        if not chain:
            return
        text = decoded(self._parts[self._names[self._workbook_rels.lower()]], self._workbook_rels)
        for rel_id, part in chain:
            text = re.sub(rf'<(\w+:)?Relationship\b[^>]*\bId="{re.escape(rel_id)}"[^>]*/>', "", text)
            self._drop(part)
            del self._rels[rel_id]
        self._set(self._workbook_rels, text.encode("utf-8"))

    def _relate(self, part: str, kind: str, content_type: str) -> str:
        """A relationship from the workbook to a new ``part`` and the part's content type; the new Id."""
        number = len(self._rels) + 1
        while f"rId{number}" in self._rels:
            number += 1
        rel_id = f"rId{number}"
        self._rels[rel_id] = (kind, part)
        rels_name = self._names.get(self._workbook_rels.lower(), self._workbook_rels)
        rels = decoded(self._parts[rels_name], rels_name)
        target = posixpath.relpath(part, posixpath.dirname(self._workbook) or ".")
        self._set(rels_name, insert_children(rels, prefix_of(rels, "Relationships"), "Relationships",
                                     f'<Relationship Id="{rel_id}" Type="{kind}" Target="{target}"/>')
                  .encode("utf-8"))
        types = decoded(self._parts[CONTENT_TYPES], CONTENT_TYPES)
        self._set(CONTENT_TYPES, insert_children(types, prefix_of(types, "Types"), "Types",
                                         f'<Override PartName="/{part}" ContentType="{content_type}"/>')
                  .encode("utf-8"))
        return rel_id

    def _add_sheet(self, tab: str) -> _SheetEntry:
        """A new tab after the others, with its part, relationship and content type."""
        number = 1
        while f"xl/worksheets/sheet{number}.xml" in self._names:
            number += 1
        part = f"xl/worksheets/sheet{number}.xml"
        rel_id = self._relate(part, WORKSHEET_TYPE, WORKSHEET_CONTENT)
        sheet_id = max(self._sheet_ids, default=0) + 1
        self._sheet_ids.append(sheet_id)
        workbook = decoded(self._parts[self._workbook], self._workbook)
        p = prefix_of(workbook, "sheets")
        bound = re.search(rf'xmlns:(\w+)="{re.escape(DOC_REL)}"', workbook[:workbook.index(f"<{p}sheets")])
        r = bound[1] if bound else "r"
        declare = "" if bound else f' xmlns:r="{DOC_REL}"'
        sheet = f'<{p}sheet{declare} name="{escape_attr(tab)}" sheetId="{sheet_id}" {r}:id="{rel_id}"/>'
        self._set(self._workbook, insert_children(workbook, p, "sheets", sheet).encode("utf-8"))
        entry = _SheetEntry(tab, rel_id, part, WORKSHEET_TYPE)
        self._sheets.append(entry)
        return entry

    def _write_tab(self, tab: Tab, entry: _SheetEntry | None) -> None:
        """Write a tool tab in full, over ``entry`` (keeping its place) or as a new tab."""
        kept = Kept()
        if entry is None:
            entry = self._add_sheet(tab.name)
        else:
            if entry.kind != WORKSHEET_TYPE:
                raise BadWorkbook(f"{tab.name}: not a worksheet (a chart sheet?); rename it so sheetswiss can "
                                  "make its own tab")
            kept = kept_from(decoded(self._parts[entry.part], entry.part))
            rels = self._names.get(_rels_path(entry.part).lower())
            if rels is not None:  # comments, drawings, tables of the old tab: nothing of them is kept
                del self._parts[rels]
                del self._names[rels.lower()]
        self._set(entry.part, sheet_xml(tab, self._styles, self._epoch, kept))
        if tab.format.freeze_rows:
            self._print_titles(entry, tab.format.freeze_rows)

    def _print_titles(self, entry: _SheetEntry, rows: int) -> None:
        """Repeat rows 1 to ``rows`` at the top of each printed page of ``entry``'s tab: the workbook's
        ``_xlnm.Print_Titles`` name for that tab (``localSheetId``, its place among the tabs), replaced
        if the tab had one."""
        workbook = decoded(self._parts[self._workbook], self._workbook)
        p = prefix_of(workbook, "sheets")
        local = self._sheets.index(entry)
        reference = "'" + entry.name.replace("'", "''") + f"'!$1:${rows}"
        name = f'<{p}definedName name="_xlnm.Print_Titles" localSheetId="{local}">{escape(reference)}</{p}definedName>'
        old = re.compile(rf'<{p}definedName\b(?=[^>]*\bname="_xlnm\.Print_Titles")(?=[^>]*\blocalSheetId="{local}")'
                         rf"[^>]*>.*?</{p}definedName>", re.S)
        if old.search(workbook):
            workbook = old.sub(lambda _: name, workbook, count=1)
        elif re.search(rf"<{p}definedNames\b", workbook):
            workbook = insert_children(workbook, p, "definedNames", name)
        else:  # after the elements the schema puts before definedNames
            last = max(workbook.rindex(f"</{p}{el}>") + len(f"</{p}{el}>")
                       for el in ("sheets", "functionGroups", "externalReferences") if f"</{p}{el}>" in workbook)
            workbook = f"{workbook[:last]}<{p}definedNames>{name}</{p}definedNames>{workbook[last:]}"
        self._set(self._workbook, workbook.encode("utf-8"))

    def apply(self, changes: Changes) -> None:
        """Make ``changes`` in memory: new tabs (when absent), the tool's tabs, appends, then updates.

        Raises :class:`BadWorkbook`, having changed nothing on disk, when an update's cell is not empty or
        a tab is missing.
        """
        edits: dict[str, TabEdits] = {}
        for append in changes.appends:
            self._worksheet(append.tab)
            edits.setdefault(append.tab, TabEdits()).add_append(append)
        for update in changes.updates:
            self._worksheet(update.tab)
            edits.setdefault(update.tab, TabEdits()).add_update(update)
        for put in changes.overwrites:  # the Control tab's status cells: written whatever they hold
            self._worksheet(put.tab)
            edit = edits.setdefault(put.tab, TabEdits()).cell(put.row, put.column)
            edit.value, edit.set_value = put.value, True
        for tab in changes.new_tabs:
            if self._entry(tab.name) is None:
                self._write_tab(tab, None)
        for tab in changes.tool_tabs:
            self._write_tab(tab, self._entry(tab.name))
        for name, tab_edits in edits.items():
            self._patch(name, tab_edits)
        self._finish()

    def type_cells(self, tab: str, values: Mapping[str, Value]) -> None:
        """Put ``values`` into cells of ``tab`` (``{"E14": "1-0"}``) as a GM types them, whatever the cells
        held: text stays text (never a formula), ``None`` empties a cell. For ``demo`` and tests, never for a
        command, which writes only through :meth:`apply`."""
        edits = TabEdits()
        for ref, value in values.items():
            m = CELL_REF.fullmatch(ref)
            if m is None:
                raise ValueError(f"{tab}!{ref}: not a cell reference")
            edit = edits.cell(int(m[2]), column_index(m[1]))
            edit.value, edit.set_value = value, True
        self._patch(tab, edits)
        self._finish()

    def _patch(self, tab: str, edits: TabEdits) -> None:
        entry = self._worksheet(tab)
        sheet = GMSheet(tab, decoded(self._parts[entry.part], entry.part), self._decoder)
        self._set(entry.part, sheet.patch(edits))

    def _finish(self) -> None:
        """The styles the edits added, and the flags that make Excel and LibreOffice recalculate."""
        if self._styles.changed:
            if self._styles_part is None:
                self._styles_part = "xl/styles.xml"
                self._relate(self._styles_part, STYLES_TYPE, STYLES_CONTENT)
            self._set(self._styles_part, self._styles.xml())
        self._drop_calculation_chain()
        self._recalculate_on_open()

    def _recalculate_on_open(self) -> None:
        """Have Excel and LibreOffice recalculate the GM's own formulas when they next open the workbook.

        A GM's formula over a tool tab (``=Standings!B3`` on a Dashboard tab) holds the value computed
        when a spreadsheet program last saved the file; the write changed what it reads. Excel recalculates
        on open when ``calcPr`` says ``fullCalcOnLoad="1"`` (it drops the flag on its next save, so it is
        set on every write). LibreOffice ignores that flag: it trusts the cached values of a file whose
        generator (``docProps/app.xml``'s Application) is Microsoft Excel or LibreOffice, and recalculates
        the formulas of any other, whatever its "recalculation on file load" setting; so the generator is
        set to sheetswiss, which is what wrote the file last.
        """
        workbook = decoded(self._parts[self._workbook], self._workbook)
        flagged = _full_calculation_on_load(workbook)
        if flagged != workbook:
            self._set(self._workbook, flagged.encode("utf-8"))
        root_rels = self._relationships("_rels/.rels", "")
        app = next((t for kind, t in root_rels.values() if kind.endswith("/extended-properties")), "")
        name = self._names.get(app.lower())
        if name is not None:
            text = decoded(self._parts[name], name)
            marked = re.sub(r"<(\w+:|)Application\b[^>]*?(?:/>|>.*?</\1Application>)",
                            lambda m: f"<{m[1]}Application>sheetswiss</{m[1]}Application>", text,
                            count=1, flags=re.S)
            if marked != text:
                self._set(name, marked.encode("utf-8"))

    def values(self) -> SheetValues:
        """Every worksheet's values in tab order (chart sheets have none), as :func:`sheet_rows` reads them,
        each tab's cells read when first asked for (a command reads few of the tabs)."""
        return SheetValues({e.name: decoded(self._parts[e.part], e.part) for e in self._sheets
                            if e.kind == WORKSHEET_TYPE and e.part in self._parts}, self._decoder)

    def merged(self) -> dict[str, tuple[str, ...]]:
        """Every worksheet's merged ranges (``E3:E4``), for the worksheets that have any."""
        found = {}
        for e in self._sheets:
            if e.kind == WORKSHEET_TYPE and e.part in self._parts:
                text = decoded(self._parts[e.part], e.part)
                if "mergeCell" not in text:  # most sheets: a plain search, far faster than the pattern below
                    continue
                ranges = tuple(re.findall(r'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]+\d+:[A-Z]+\d+)"', text))
                if ranges:
                    found[e.name] = ranges
        return found

    def formulas(self) -> dict[str, dict[tuple[int, int], str]]:
        """Every worksheet's formula cells, (row, column) -> ``=...`` (``=`` for a shared formula's other
        cells, which keep no text), for the worksheets that have any."""
        found: dict[str, dict[tuple[int, int], str]] = {}
        for e in self._sheets:
            if e.kind != WORKSHEET_TYPE or e.part not in self._parts:
                continue
            text = decoded(self._parts[e.part], e.part)
            p = prefix_of(text, "worksheet")
            if f"<{p}f" not in text:
                continue
            cells: dict[tuple[int, int], str] = {}
            for attrs, inner in re.findall(rf"<{p}c\b([^>]*?)>(.*?)</{p}c>", sheet_data(text, p), re.S):
                formula = re.search(rf"<{p}f\b[^>]*?(?:/>|>(.*?)</{p}f>)", inner, re.S)
                ref = CELL_REF.fullmatch(tag_attributes(attrs).get("r", ""))
                if formula and ref:
                    cells[int(ref[2]), column_index(ref[1])] = "=" + raw_text(formula[1] or "")
            if cells:
                found[e.name] = cells
        return found

    def save(self, path: Path) -> None:
        """Write the package to ``path``: unchanged parts as they were stored (not compressed again), changed
        and new ones compressed (:mod:`.archive`)."""
        stamp = time.localtime()[:6]

        def part(name: str) -> Part:
            old = self._infos.get(name)
            if old is None:
                return Part(name, self._parts[name], stamp, 0o644 << 16)
            method = zipfile.ZIP_STORED if old.compress_type == zipfile.ZIP_STORED else zipfile.ZIP_DEFLATED
            if name in self._changed:
                return Part(name, self._parts[name], stamp, old.external_attr, method)
            stored = self._stored.get(name)
            return Part(name, self._parts[name], old.date_time, old.external_attr, method, stored, old.CRC)

        write_parts(path, map(part, self._order()))

    def _order(self) -> Iterator[str]:
        """The parts in the order they were read, ``[Content_Types].xml`` first, new parts last."""
        yield CONTENT_TYPES
        yield from (name for name in self._parts if name != CONTENT_TYPES)


