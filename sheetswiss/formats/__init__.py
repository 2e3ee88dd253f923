"""The file formats other tools read and write: FIDE's TRF (Tournament Report File, :mod:`.trf`), Netrunner's
results JSON (:mod:`.nrtm`) and CSV (:mod:`.csv`). Each module turns an event into text and text into rows for the
workbook; it never opens a file or a workbook (``api`` does)."""
