# Generated from hardware/pins.json and hardware/parts.json by `make firmware-data`; do not edit.
BUTTONS = (('D0', 0), ('D1', 1), ('D2', 2), ('D3', 3), ('D4', 4), ('D5', 5), ('D6', 6), ('ROLL', 7), ('PASS', 14), ('MENU', 15), )
LED_PIN = 16
LED_DICE = 7
LED_PIPS_PER_DIE = 7
# the power budget's cap (`doodlebox hardware power`): the brightest frame stays inside USB power
LED_MAX_LEVEL = 27
# chain order of the LEDs inside each die (FACES in board/leds.py: bit 6 is the first)
LED_PIP_ORDER = ('TL', 'TR', 'ML', 'C', 'MR', 'BL', 'BR', )
BUZZER_PIN = 17
EPD_SPI = 1
EPD_SCK = 10
EPD_MOSI = 11
EPD_CS = 9
EPD_DC = 8
EPD_RST = 12
EPD_BUSY = 13
EPD_WIDTH = 296
EPD_HEIGHT = 128
