"""``python -m sheetswiss``."""

from .cli import main

main()
