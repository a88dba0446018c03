"""sheets/: which sheets does the table play on, and how is a blank one printed? The library of the
table's sheets (docs/sheets.md) in the user's data folder: the defaults (reconstructions) and every
sheet or Deadly Doodles map side added; a sheet as a console holds it; the blank sheet drawn for print.
It imports rules/, drawing/ and deploy/ (the firmware's data generator: a sheet in the console's form).

    library.py   the library: list, add (checked as `layout check` checks), remove, export; a sheet's hash
    console.py   a sheet in the console's form (the generated module's constants) and the frames that carry it
    printing.py  the blank sheet on an A4 or Letter page at 300 dpi, a PDF or a PNG
"""
