"""XML (Extensible Markup Language) text, as the parts of an .xlsx package hold it.

The namespaces and relationship types of Office Open XML (OOXML, ECMA-376, the format of .xlsx files), and
small functions over the text of a part: escaping and unescaping, a start tag's attributes, an element's
namespace prefix, inserting children into an element. Parts are edited as text rather than parsed and
serialised again, so what other programs wrote (their prefixes, their extensions) survives a write;
:func:`parse_xml` (ElementTree) is used only to read structure.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

__all__ = [
    "CELL_REF",
    "CONTENT_TYPES",
    "DECLARATION",
    "DOC_REL",
    "MAIN",
    "PKG_REL",
    "STRICT",
    "STYLES_CONTENT",
    "STYLES_TYPE",
    "WORKSHEET_CONTENT",
    "WORKSHEET_TYPE",
    "PackageError",
    "StrictWorkbook",
    "decoded",
    "escape",
    "escape_attr",
    "insert_children",
    "parse_xml",
    "prefix_of",
    "raw_text",
    "tag_attributes",
    "unescape",
]


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = "[Content_Types].xml"
WORKSHEET_TYPE = DOC_REL + "/worksheet"
WORKSHEET_CONTENT = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
STYLES_TYPE = DOC_REL + "/styles"
STYLES_CONTENT = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
CELL_REF = re.compile(r"([A-Za-z]{1,3})(\d+)")
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}



class PackageError(Exception):
    """The file is a zip but not a workbook package that sheetswiss can edit (a part missing or unreadable)."""


class StrictWorkbook(PackageError):
    """The package is in the Strict flavour of Office Open XML (ISO/IEC 29500 Strict: other namespaces,
    ISO dates), which Excel writes only when asked to and sheetswiss does not read."""


STRICT = "http://purl.oclc.org/ooxml/"
"""Where the Strict flavour's namespaces and relationship types begin."""


def escape(text: str) -> str:
    """Text as XML content; a carriage return as a reference, which XML readers keep (a bare one they drop)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def escape_attr(text: str) -> str:
    return escape(text).replace('"', "&quot;")


def unescape(text: str) -> str:
    """XML text content as a parser gives it: references resolved, line ends as ``\n``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "&" not in text:
        return text
    return _ENTITY.sub(lambda m: _NAMED.get(m[1]) or chr(int(m[1][2:], 16) if m[1][1] == "x" else int(m[1][1:])),
                       text)


def raw_text(raw: str) -> str:
    """The text of an element's raw content, CDATA sections included."""
    if "<![CDATA[" in raw:
        raw = re.sub(r"<!\[CDATA\[(.*?)\]\]>", lambda m: escape(m[1]), raw, flags=re.S)
    return unescape(raw)


def tag_attributes(tag: str) -> dict[str, str]:
    """The attributes of a start tag's text, unescaped."""
    return {m[1]: unescape(m[2] if m[2] is not None else m[3]) for m in _ATTR.finditer(tag)}


def decoded(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PackageError(f"{name} is not UTF-8") from None


def parse_xml(data: bytes | str, name: str) -> ET.Element:
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        raise PackageError(f"{name}: {e}") from None


def prefix_of(text: str, local: str) -> str:
    """The namespace prefix of the first ``local`` element (``""`` or ``"x:"``): Excel writes none, other
    programs may write one, and whatever is added to the part must use the same."""
    m = re.search(rf"<(\w+:)?{local}\b", text)
    if m is None:
        raise PackageError(f"no <{local}> element")
    return m[1] or ""


def insert_children(text: str, prefix: str, parent: str, items: str) -> str:
    """``text`` with ``items`` added as the last children of the first ``parent`` element."""
    m = re.search(rf"<{prefix}{parent}\b[^>]*?(/?)>", text)
    if m is None:
        raise PackageError(f"no <{parent}> element")
    if m[1]:
        opening = m[0][:-2].rstrip() + ">"
        return f"{text[:m.start()]}{opening}{items}</{prefix}{parent}>{text[m.end():]}"
    close = text.index(f"</{prefix}{parent}>", m.end())
    return text[:close] + items + text[close:]
