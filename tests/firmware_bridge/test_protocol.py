"""The bridge's codec and the firmware's MicroPython codec agree; decoders resynchronise."""

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.firmware import display as fw_display
from firmware_bridge.firmware import frames as fw_frames
from firmware_bridge.protocol import Ack, Decoder, Nak, Ping, ProtocolError, Show, encode_frame

FIRMWARE = Path(fw_frames.__file__).parent

texts = st.text(alphabet="0123456789:. ", max_size=5)
counts = st.none() | st.integers(0, 0xFFFE)
small = st.none() | st.integers(0, 0xFE)
shows = st.builds(
    Show,
    clock=texts,
    shot_clock=st.text(alphabet="0123456789.", max_size=4),
    home_score=counts,
    away_score=counts,
    home_fouls=small,
    away_fouls=small,
    period=st.text(alphabet="0123456789HFEP", max_size=2),
    horn=st.booleans(),
    clock_running=st.booleans(),
    turn=st.sampled_from([None, "home", "away"]),
)
messages = shows | st.just(Ping()) | st.builds(Ack, st.integers(0, 255)) | st.builds(Nak, st.integers(0, 255))


def test_crc_is_ccitt_false_in_both_implementations():
    assert protocol.crc16(b"123456789") == fw_frames.crc16(b"123456789") == 0x29B1


@given(seq=st.integers(0, 255), message=messages)
def test_bridge_and_firmware_build_the_same_bytes(seq, message):
    wire = encode_frame(seq, message)
    kind, payload = wire[3], wire[4:-2]
    assert fw_frames.build_frame(seq, kind, payload) == wire


@given(seq=st.integers(0, 255), show=shows)
def test_round_trip_through_the_firmware_parser(seq, show):
    [(got_seq, kind, payload)] = fw_frames.FrameReader().feed(encode_frame(seq, show))
    assert (got_seq, kind) == (seq, fw_frames.T_SHOW)
    parsed = fw_display.parse_show(payload)
    assert parsed["clock"] == show.clock.strip()
    assert parsed["home"] == ("" if show.home_score is None else str(show.home_score))
    assert parsed["horn"] is show.horn
    assert Show.from_payload(payload) == Show(
        **{**show.__dict__, "clock": show.clock.strip(), "shot_clock": show.shot_clock.strip(), "period": show.period.strip()}
    )


@settings(max_examples=200)
@given(
    garbage=st.lists(st.binary(max_size=30), min_size=4, max_size=4),
    frames=st.lists(st.tuples(st.integers(0, 255), messages), min_size=1, max_size=3),
    cuts=st.lists(st.integers(1, 9), max_size=40),
)
def test_decoder_skips_garbage_and_loses_no_frame(garbage, frames, cuts):
    # garbage between frames, fed in arbitrary chunks: every frame comes out, in order
    wire = garbage[0]
    for i, (seq, msg) in enumerate(frames):
        wire += encode_frame(seq, msg) + garbage[(i + 1) % 4]
    wire += encode_frame(0, Ping()) * 2  # a trailing good frame flushes a bogus header in the last garbage
    d = Decoder()
    got = []
    pos = 0
    for cut in cuts:
        got += d.feed(wire[pos : pos + cut])
        pos += cut
    got += d.feed(wire[pos:])
    want = [(seq, msg) for seq, msg in frames]
    got_pairs = [(f.seq, f.message) for f in got]
    # garbage can hold a frame that happens to be valid; ours must all be there, in order
    it = iter(got_pairs)
    assert all(any(g == w for g in it) for w in want)


@settings(max_examples=200)
@given(seq=st.integers(0, 255), show=shows, index=st.integers(0, 200), bit=st.integers(0, 7))
def test_a_flipped_bit_is_never_taken_for_a_frame(seq, show, index, bit):
    wire = bytearray(encode_frame(seq, show))
    index %= len(wire)
    wire[index] ^= 1 << bit
    good = encode_frame((seq + 1) & 0xFF, Ping())
    d = Decoder()
    frames = d.feed(bytes(wire) + good)
    assert [f.message for f in frames] == [Ping()]
    reader = fw_frames.FrameReader()
    assert [k for _, k, _ in reader.feed(bytes(wire) + good)] == [fw_frames.T_PING]


def test_decoder_counts_what_it_skips():
    d = Decoder()
    good = encode_frame(3, Ack(1))
    bad = bytearray(good)
    bad[-1] ^= 0xFF
    assert [f.seq for f in d.feed(b"xyz" + bytes(bad) + good)] == [3]
    assert d.bad_crc == 1 and d.skipped >= 3 and d.pending == 0


def test_partial_frame_waits_for_the_rest():
    wire = encode_frame(9, Show(clock="01:02"))
    d = Decoder()
    assert d.feed(wire[:10]) == [] and d.pending == 10
    assert d.feed(wire[10:])[0].message.clock == "01:02"


def test_encoder_refuses_what_a_display_cannot_show():
    with pytest.raises(ProtocolError, match="seq"):
        encode_frame(256, Ping())
    with pytest.raises(ProtocolError, match="clock"):
        Show(clock="1\n:00").payload()
    with pytest.raises(ProtocolError, match="18 bytes"):
        Show.from_payload(b"short")


def test_firmware_naks_a_malformed_show_and_acks_a_ping():
    fw = fw_display.Firmware(_Hw())
    bad_payload = b"\x01" * fw_frames.SHOW_LEN  # non-printable clock text
    reply = fw.feed(fw_frames.build_frame(5, fw_frames.T_SHOW, bad_payload) + encode_frame(6, Ping()))
    got = [(f.seq, f.message) for f in Decoder().feed(reply)]
    assert got == [(5, Nak(fw_frames.NAK_BAD_PAYLOAD)), (6, Ack(fw_frames.FIRMWARE_VERSION))]


class _Hw:
    def __init__(self):
        self.cells = None
        self.horn = None
        self.writes = 0

    def write_digits(self, cells):
        self.cells = list(cells)
        self.writes += 1

    def set_horn(self, on):
        self.horn = on


def test_firmware_drives_digits_and_horn_and_stops_a_stale_horn():
    hw = _Hw()
    fw = fw_display.Firmware(hw, now_ms=0)
    fw.feed(encode_frame(1, Show(clock="59.3", shot_clock="4.9", home_score=7, horn=True)), now_ms=10)
    assert hw.horn is True
    from firmware_bridge.firmware import segments as seg

    assert hw.cells[0:4] == [0, seg.FONT["5"], seg.FONT["9"] | seg.DP, seg.FONT["3"]]
    assert hw.cells[4:7] == [0, seg.FONT["4"] | seg.DP, seg.FONT["9"]]
    assert hw.cells[7:10] == [0, 0, seg.FONT["7"]]
    fw.tick(10 + fw_display.HORN_HOLD_MS)
    assert hw.horn is True
    fw.tick(11 + fw_display.HORN_HOLD_MS)  # the link went quiet: the horn must not sound forever
    assert hw.horn is False


def test_firmware_writes_digits_only_when_they_change():
    hw = _Hw()
    fw = fw_display.Firmware(hw)
    frame = encode_frame(1, Show(clock="10:00"))
    fw.feed(frame)
    fw.feed(encode_frame(2, Show(clock="10:00")))
    assert hw.writes == 2  # the blank at power-up, then 10:00 once


MICROPYTHON_MODULES = {"machine", "time", "frames", "segments", "display"}


@pytest.mark.parametrize("name", ["frames.py", "segments.py", "display.py", "main.py"])
def test_firmware_uses_only_what_micropython_has(name):
    tree = ast.parse((FIRMWARE / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= MICROPYTHON_MODULES, name
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module in MICROPYTHON_MODULES, (name, node.module)
        assert not isinstance(node, (ast.AnnAssign,)), name
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), name
