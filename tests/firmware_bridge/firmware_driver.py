"""Feeds a byte file to the display firmware in chunks of 7 bytes and prints every
reply and the final digits; runs unchanged under CPython and MicroPython
(see test_micropython.py). Does nothing when imported."""

import sys


class Hw:
    def __init__(self):
        self.cells = []
        self.horn = False

    def write_digits(self, cells):
        self.cells = list(cells)

    def set_horn(self, on):
        self.horn = on


def main():
    if sys.implementation.name == "micropython":
        sys.path.append("/")
        path = "/input.bin"
    else:
        sys.path.insert(0, sys.argv[1])
        path = sys.argv[2]
    import display

    with open(path, "rb") as f:
        data = f.read()
    fw = display.Firmware(Hw(), 0)
    now = 0
    for i in range(0, len(data), 7):
        now += 100
        reply = fw.feed(data[i : i + 7], now)
        if reply:
            print("reply " + "".join("%02x" % b for b in reply))
        fw.tick(now)
    print("cells " + " ".join(str(c) for c in fw.hw.cells))
    print("horn " + str(fw.hw.horn))
    print("state " + " ".join(k + "=" + str(fw.state[k]) for k in sorted(fw.state)))
    print("counts %d %d %d" % (fw.frames_ok, fw.reader.bad_crc, fw.reader.skipped))


if __name__ == "__main__":
    main()
