# Generated from hardware/pins.json by `make firmware-data`; do not edit.
BUTTONS = (('D0', 0), ('D1', 1), ('D2', 2), ('D3', 3), ('D4', 4), ('D5', 5), ('D6', 6), ('ROLL', 7), ('PASS', 14), ('MENU', 15), )
LED_PIN = 16
LED_DICE = 7
LED_PIPS_PER_DIE = 7
LED_MAX_LEVEL = 24
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
