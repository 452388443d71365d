"""Firmware of the Refbox shot-clock / match-clock display (Raspberry Pi Pico, MicroPython).

``frames.py`` (frame format), ``segments.py`` (7-segment font) and ``display.py``
(protocol handling and digit state) are plain Python that also runs under CPython:
the host imports them as ``firmware_bridge.firmware.*`` for the emulator and the
tests. ``main.py`` is the Pico's entry point (UART, SPI to two MAX7219, horn).
Copy the four files to the Pico; this ``__init__.py`` is not needed there.
"""
