"""Hostile bytes on the serial line: the frame decoder never raises, never holds more
than a frame's worth of bytes, and never yields a frame that was not sent."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import MAX_PAYLOAD, OVERHEAD, Ack, Decoder, Frame, Nak, Ping, Show, encode_frame

from .strategies import examples

FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

printable = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=5)
u16 = st.none() | st.integers(0, 0xFFFE)
u8 = st.none() | st.integers(0, 0xFE)
shows = st.builds(
    Show,
    clock=printable,
    shot_clock=printable.map(lambda s: s[:4]),
    home_score=u16,
    away_score=u16,
    home_fouls=u8,
    away_fouls=u8,
    period=printable.map(lambda s: s[:2]),
    horn=st.booleans(),
    clock_running=st.booleans(),
    turn=st.sampled_from([None, "home", "away"]),
)
messages = st.one_of(shows, st.just(Ping()), st.builds(Ack, st.integers(0, 255)), st.builds(Nak, st.integers(0, 255)))
frames = st.lists(st.builds(Frame, st.integers(0, 255), messages), min_size=1, max_size=8)


def chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    out, last = [], 0
    for p in points + [len(data)]:
        out.append(data[last:p])
        last = p
    return out


@FUZZ
@given(st.lists(st.binary(max_size=80), max_size=10))
@example([bytes([0xA5, 18, 0, 1]) + b"\x00" * 10])
@example([b"\xa5" * 200])
def test_arbitrary_bytes_never_raise(pieces):
    d = Decoder()
    for piece in pieces:
        for frame in d.feed(piece):
            assert isinstance(frame, Frame)
        assert d.pending < MAX_PAYLOAD + OVERHEAD  # a partial frame at most


@FUZZ
@given(frames, st.lists(st.integers(0, 10_000), max_size=6))
def test_clean_line_gives_every_frame_in_order(sent, cuts):
    wire = b"".join(encode_frame(f.seq, f.message) for f in sent)
    d = Decoder()
    got = [f for c in chunks(wire, cuts) for f in d.feed(c)]
    assert got == sent and d.skipped == 0 and d.pending == 0


@st.composite
def corrupted(draw: st.DrawFn) -> tuple[list[Frame], bytes]:
    sent = draw(frames)
    wire = bytearray(b"".join(encode_frame(f.seq, f.message) for f in sent))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "drop", "insert", "truncate"]))
        i = draw(st.integers(0, max(0, len(wire) - 1)))
        if kind == "flip" and wire:
            wire[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "drop" and wire:
            del wire[i : i + draw(st.integers(1, 8))]
        elif kind == "insert":
            wire[i:i] = draw(st.binary(min_size=1, max_size=12))
        else:
            del wire[i:]
    return sent, bytes(wire)


@FUZZ
@given(corrupted(), st.lists(st.integers(0, 10_000), max_size=6))
def test_corrupted_line_yields_only_frames_that_were_sent(case, cuts):
    sent, wire = case
    d = Decoder()
    got = [f for c in chunks(wire, cuts) for f in d.feed(c)]
    for frame in got:
        assert frame in sent, (frame, sent)
    # resynchronised: a clean frame after the damage always gets through
    tail = Frame(7, Ping())
    assert d.feed(b"\x00" * (MAX_PAYLOAD + OVERHEAD) + encode_frame(tail.seq, tail.message))[-1] == tail
