"""sheetswiss: Swiss pairings, standings and WBC (World Boardgaming
Championships) heat qualification inside the GM's (game master's) own spreadsheet.

The library API lives in :mod:`sheetswiss.api` (one function per command); the ``sheetswiss``
command is a thin layer over it.
"""

__version__ = "0.1.0"
