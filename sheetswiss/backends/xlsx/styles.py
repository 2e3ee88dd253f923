"""The workbook's cell formats (``styles.xml``): reading them, and adding those a write needs.

A cell names its format by index (``s="3"``) in ``cellXfs`` (cell format records, "xf"), which point at
fonts, fills, borders and number formats (``numFmts``). A tool tab's :class:`~..base.Look` becomes such a
record, added after the GM's own; an identical record is reused, so running a command again adds nothing.
:meth:`Styles.date_kind` tells the reader which formats show numbers as dates or durations.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import ClassVar

from ..base import Look, Value
from .cells import date_format
from .xmltext import MAIN, PackageError, decoded, escape, escape_attr, parse_xml, prefix_of

__all__ = ["BLANK_STYLES", "PLAIN", "Styles"]


BLANK_STYLES = (
    f'<styleSheet xmlns="{MAIN}">'
    '<fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/>'
    '<scheme val="minor"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>")
"""The cell formats of a new workbook: Calibri 11 and Excel's two required fills."""

# -- cell formats ---------------------------------------------------------------------------------------


_PLAIN_BUILTIN = {0: "General", 49: "@"}
"""The two built-in number formats most cells have (ECMA-376 Part 1, 18.8.30: 0 General, 49 Text), which
show numbers as numbers. The others are openpyxl's table, looked up only when a cell has one: importing
openpyxl is a fair share of a quick command's time."""


PLAIN = Look()


_FLAGS = {f"{{{MAIN}}}{flag}" for flag in ("b", "i", "strike", "outline", "shadow", "condense", "extend")}


def _key(el: ET.Element) -> tuple[object, ...]:
    """What makes two style records the same however a program spelt them: attributes and children in
    any order, ``"0"``/``"false"`` attributes as if absent, an ``apply...`` flag that is on as if absent
    (openpyxl leaves them out, and a missing one counts as on), ``<b val="1"/>`` as ``<b/>``: openpyxl,
    Excel and LibreOffice write the same format differently, and a format must not be added again after
    each save."""
    attrs = {k: "0" if k.startswith("apply") else v for k, v in el.attrib.items()
             if (v in ("0", "false")) == k.startswith("apply")}
    if el.tag in _FLAGS and attrs.get("val") in ("1", "true"):
        del attrs["val"]
    return el.tag, tuple(sorted(attrs.items())), (el.text or "").strip(), tuple(sorted(map(_key, el), key=repr))


def _element_xml(el: ET.Element, p: str) -> str:
    """A style record as text with the part's prefix (children of other namespaces, extensions, are left out)."""
    tag = el.tag.removeprefix(f"{{{MAIN}}}")
    attrs = "".join(f' {k}="{escape_attr(v)}"' for k, v in el.attrib.items() if not k.startswith("{"))
    inner = escape(el.text.strip()) if el.text and el.text.strip() else ""
    inner += "".join(_element_xml(c, p) for c in el if c.tag.startswith(f"{{{MAIN}}}"))
    return f"<{p}{tag}{attrs}>{inner}</{p}{tag}>" if inner else f"<{p}{tag}{attrs}/>"


def _element(tag: str, children: tuple[ET.Element, ...] = (), /, **attrs: str) -> ET.Element:
    el = ET.Element(f"{{{MAIN}}}{tag}", attrs)
    el.extend(children)
    return el


class Styles:
    """The workbook's cell formats (``styles.xml``), with those a write needs added after the existing ones.

    A format identical to an existing one is reused, so running a command again adds nothing.
    """

    SECTIONS: ClassVar[tuple[str, ...]] = (
        "numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles",
        "colors", "extLst")
    """The sections of ``styles.xml`` in the order the schema wants them."""
    GROWN: ClassVar[Mapping[str, str]] = {
        "numFmts": "numFmt", "fonts": "font", "fills": "fill", "borders": "border", "cellXfs": "xf"}
    """The sections a write may add to, and their records' element."""

    def __init__(self, data: bytes, name: str) -> None:
        self._text = decoded(data, name)
        self._p = prefix_of(self._text, "styleSheet")
        root = parse_xml(data, name)
        self._items: dict[str, list[ET.Element]] = {}
        self._known: dict[str, dict[tuple[object, ...], int]] = {}
        self._added: dict[str, list[str]] = {s: [] for s in self.GROWN}
        for section, item in self.GROWN.items():
            parent = root.find(f"{{{MAIN}}}{section}")
            self._items[section] = [] if parent is None else parent.findall(f"{{{MAIN}}}{item}")
            self._known[section] = {}
            for i, el in enumerate(self._items[section]):
                self._known[section].setdefault(_key(el), i)
        if not self._items["cellXfs"] or not self._items["fonts"]:
            raise PackageError(f"{name}: no cell formats")
        self._codes = {int(el.get("numFmtId", "-1")): el.get("formatCode", "") for el in self._items["numFmts"]}
        self._looks: dict[Look, int] = {PLAIN: 0}
        self._derived: dict[tuple[int, str], int] = {}
        self._date_kinds: dict[int, int] = {}

    @property
    def changed(self) -> bool:
        return any(self._added.values())

    def _add(self, section: str, el: ET.Element) -> int:
        """The index of a record like ``el`` in ``section``, adding it when there is none."""
        key = _key(el)
        known = self._known[section]
        if key not in known:
            known[key] = len(self._items[section])
            self._items[section].append(el)
            self._added[section].append(_element_xml(el, self._p))
        return known[key]

    def _code(self, number_format_id: int) -> str:
        if self._codes.get(number_format_id):
            return self._codes[number_format_id]
        if number_format_id in _PLAIN_BUILTIN:
            return _PLAIN_BUILTIN[number_format_id]
        from openpyxl.styles.numbers import BUILTIN_FORMATS

        return BUILTIN_FORMATS.get(number_format_id, "General")

    def _number_format_id(self, code: str) -> int:
        for number_format_id, known in self._codes.items():
            if known == code:
                return number_format_id
        plain = next((i for i, known in _PLAIN_BUILTIN.items() if known == code), None)
        if plain is not None:
            return plain
        from openpyxl.styles.numbers import BUILTIN_FORMATS_REVERSE

        if code in BUILTIN_FORMATS_REVERSE:
            return BUILTIN_FORMATS_REVERSE[code]
        number_format_id = max([163, *self._codes]) + 1
        self._codes[number_format_id] = code
        self._add("numFmts", _element("numFmt", numFmtId=str(number_format_id), formatCode=code))
        return number_format_id

    def date_kind(self, xf: int) -> int:
        """How cell format ``xf`` shows numbers: 0 as numbers, 1 as dates or times, 2 as durations."""
        if xf not in self._date_kinds:
            items = self._items["cellXfs"]
            code = self._code(int(items[xf].get("numFmtId", "0"))) if 0 <= xf < len(items) else ""
            if not code or code in _PLAIN_BUILTIN.values():
                self._date_kinds[xf] = 0
            else:
                from openpyxl.styles.numbers import is_date_format, is_timedelta_format

                self._date_kinds[xf] = 2 if is_timedelta_format(code) else 1 if is_date_format(code) else 0
        return self._date_kinds[xf]

    def look(self, look: Look) -> int:
        """The cell format index for a tool tab's cell that looks like ``look``."""
        if look in self._looks:
            return self._looks[look]
        attrs = {"numFmtId": "0", "fontId": "0", "fillId": "0", "borderId": "0", "xfId": "0"}
        if look.number_format:
            attrs.update(numFmtId=str(self._number_format_id(look.number_format)), applyNumberFormat="1")
        if look.bold or look.italic:
            font = copy.deepcopy(self._items["fonts"][0])
            for child in [c for c in font if c.tag in (f"{{{MAIN}}}b", f"{{{MAIN}}}i")]:
                font.remove(child)
            for flag, on in (("i", look.italic), ("b", look.bold)):
                if on:
                    font.insert(0, _element(flag))
            attrs.update(fontId=str(self._add("fonts", font)), applyFont="1")
        if look.fill:
            solid = _element("patternFill", (_element("fgColor", rgb="FF" + look.fill.upper()),
                                             _element("bgColor", indexed="64")), patternType="solid")
            attrs.update(fillId=str(self._add("fills", _element("fill", (solid,)))), applyFill="1")
        if look.border_below:
            line = _element("bottom", (_element("color", rgb="FF444444"),), style="thin")
            sides = (_element("left"), _element("right"), _element("top"), line, _element("diagonal"))
            attrs.update(borderId=str(self._add("borders", _element("border", sides))), applyBorder="1")
        children: tuple[ET.Element, ...] = ()
        if look.wrap or look.center:
            align = {"horizontal": "center"} if look.center else {}
            if look.wrap:
                align.update(vertical="top", wrapText="1")
            children = (_element("alignment", **align),)
            attrs["applyAlignment"] = "1"
        self._looks[look] = self._add("cellXfs", _element("xf", children, **attrs))
        return self._looks[look]

    def with_number_format(self, xf: int, code: str) -> int:
        """The index of a cell format like ``xf`` (a GM cell's own) but showing numbers as ``code``."""
        if (xf, code) not in self._derived:
            items = self._items["cellXfs"]
            el = copy.deepcopy(items[xf] if 0 <= xf < len(items) else items[0])
            el.set("numFmtId", str(self._number_format_id(code)))
            el.set("applyNumberFormat", "1")
            self._derived[xf, code] = self._add("cellXfs", el)
        return self._derived[xf, code]

    def for_value(self, xf: int, value: Value) -> int:
        """``xf``, or a copy of it with a date format when ``value`` is a date or time it would show as a number."""
        code = date_format(value)
        if code is None or self.date_kind(xf):
            return xf
        return self.with_number_format(xf, code)

    def xml(self) -> bytes:
        """``styles.xml`` with the added records: each grown section gets them at its end and a new count."""
        text, p = self._text, self._p
        for section, items in self._added.items():
            if not items:
                continue
            count = len(self._items[section])
            m = re.search(rf"<{p}{section}\b([^>]*?)(/?)>", text)
            if m is None:
                later = [s for s in self.SECTIONS[self.SECTIONS.index(section) + 1:]
                         if re.search(rf"<{p}{s}\b", text)]
                at = re.search(rf"<{p}{later[0]}\b", text) if later else None
                end = at.start() if at else text.index(f"</{p}styleSheet>")
                text = f'{text[:end]}<{p}{section} count="{count}">{"".join(items)}</{p}{section}>{text[end:]}'
                continue
            attrs = re.sub(r'\s+count\s*=\s*("[^"]*"|\'[^\']*\')', "", m[1])
            opening = f'<{p}{section}{attrs} count="{count}">'
            if m[2]:
                text = f"{text[:m.start()]}{opening}{''.join(items)}</{p}{section}>{text[m.end():]}"
            else:
                close = text.index(f"</{p}{section}>", m.end())
                text = f"{text[:m.start()]}{opening}{text[m.end():close]}{''.join(items)}{text[close:]}"
        return text.encode("utf-8")


