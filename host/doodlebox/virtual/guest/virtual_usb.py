# The virtual console's USB serial: the one module the firmware looks for that a real Pico
# does not have (firmware/board/pico.py). On the Pico, USB is sys.stdin/sys.stdout.
import hwlink


def stream():
    return hwlink.UsbStream()
