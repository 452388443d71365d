"""Refbox shot-clock display: MicroPython entry point for a Raspberry Pi Pico.

Wiring (see docs/displays.md):
  UART0  GP0 TX -> bridge RX, GP1 RX <- bridge TX (3.3 V; RS-485 through a
         MAX3485 transceiver for long runs, DE/RE on GP2)
  SPI0   GP18 SCK -> CLK, GP19 MOSI -> DIN of the first MAX7219, GP17 -> LOAD/CS
         (two MAX7219 cascaded: DOUT of the first to DIN of the second)
  GP15   horn relay driver (NPN transistor + flyback diode), active high

Copy frames.py, segments.py, display.py and this file to the Pico's file system.
"""

import time

from machine import SPI, UART, Pin

import display


class PicoHardware:
    def __init__(self):
        self.spi = SPI(0, baudrate=1_000_000, sck=Pin(18), mosi=Pin(19))
        self.cs = Pin(17, Pin.OUT, value=1)
        self.horn = Pin(15, Pin.OUT, value=0)
        for reg, value in ((0x0F, 0), (0x09, 0), (0x0A, 8), (0x0B, 7), (0x0C, 1)):
            self._both(reg, value)  # test off, no decode, intensity, scan 8 digits, run

    def _both(self, reg, value, value2=None):
        self.cs(0)
        # the second chip in the chain is shifted out first
        self.spi.write(bytes((reg, value if value2 is None else value2, reg, value)))
        self.cs(1)

    def write_digits(self, cells):
        for i in range(8):
            # MAX7219 digit register 1..8; digit 0 of a chip is its leftmost
            self._both(i + 1, cells[i], cells[8 + i])

    def set_horn(self, on):
        self.horn(1 if on else 0)


def run():
    uart = UART(0, baudrate=115200, tx=Pin(0), rx=Pin(1), timeout=0)
    de = Pin(2, Pin.OUT, value=0)
    fw = display.Firmware(PicoHardware(), 0)
    # ticks_ms() wraps after ~12 days; display.py wants a count that never does
    last, now = time.ticks_ms(), 0
    while True:
        data = uart.read()
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        if data:
            reply = fw.feed(data, now)
            if reply:
                de(1)
                uart.write(reply)
                uart.flush()
                de(0)
        fw.tick(now)
        time.sleep_ms(1)


run()
