"""The console's hardware as data: checks, bill of materials, power budget, wiring documents.

Everything here reads ``hardware/pins.json`` (pin use), ``hardware/parts.json`` (electrical
figures) and ``hardware/bom.csv`` (the parts to buy), and writes nothing by hand:

- ``rp2040``  facts of the Raspberry Pi Pico and the RP2040 (header pins, SPI/PWM functions,
  the pins the Waveshare Pico-ePaper socket takes);
- ``data``    reading the files in ``hardware/`` and listing what each GPIO does;
- ``check``   the data against the Pico's constraints (every problem, with its reason);
- ``bom``     the bill of materials and its total;
- ``power``   the power budget and the firmware's LED cap derived from it;
- ``wiring``  the wiring diagram built from the pin data (a doodlebox.drawing Drawing);
- ``wokwi``   a Wokwi ``diagram.json`` built from the same data;
- ``docs``    the generated tables in ``hardware/README.md``.

``doodlebox hardware bom|power|check|wiring|wokwi`` is in ``doodlebox.cli.maker``.
"""
