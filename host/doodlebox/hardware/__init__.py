"""hardware/: what is the console's board, as data? Checks, bill of materials, power budget and wiring documents,
from ``hardware/pins.json`` (pin use), ``hardware/parts.json`` (electrical figures) and ``hardware/bom.csv`` (the
parts to buy); what it writes is generated from them. It imports drawing/ (the wiring diagram), paths and errors;
never rules/ (tests/house/test_architecture.py). ``doodlebox hardware bom|power|check|wiring|wokwi`` is in
``doodlebox.cli.maker``.

    rp2040.py  facts of the Raspberry Pi Pico and the RP2040 a pin assignment must respect (header, SPI, PWM, socket)
    data.py    reads the files in ``hardware/`` and lists what each GPIO is used for
    check.py   every problem of a pin assignment against the Pico's constraints, each with its reason
    bom.py     the bill of materials, its total, its agreement with the pins
    power.py   the power budget and the firmware's LED cap derived from it
    wiring.py  the wiring diagram (SVG and PNG) built from the pin data (a doodlebox.drawing Drawing)
    wokwi.py   a Wokwi simulator ``diagram.json`` built from the same data
    docs.py    the generated tables in ``hardware/README.md``
    files.py   the data loaded, the files generated from it and whether they are current, every problem of the data
"""
