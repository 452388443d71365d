"""Our standard-format encoders, read back by decoders that follow third-party specs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.formats import FORMATS, UnknownFormat, daktronics, encode, stramatel
from firmware_bridge.layout import DisplayFields
from firmware_bridge.protocol import Decoder, Show
from rules.replay import final_view, replay_lines

from .conftest import futsal_view
from .reference_decoders import BASKETBALL, SOCCER, ChecksumError, RtdBuffer, StramatelParser, rtd_bodies, rtd_packet


def test_checksum_matches_the_published_rtd_test_vectors():
    # packets from zabackary/daktronics-allsport-5000-rs src/packet.rs tests, with their checksums
    assert daktronics.checksum(b"00000000\x010042100000\x0216:0916:09   16:0916:09    s   \x04") == "49"
    assert daktronics.checksum(b"00000000\x010042100006\x0216:0916:09   16:0916:09    s   \x04") == "4F"


def test_soccer_layout_read_back():
    view = futsal_view("07:30", home=3, away=12, horn=True)
    view["clock_running"] = False
    got = RtdBuffer().feed(encode("daktronics-rtd-soccer", view)).read(SOCCER)
    assert got == {
        "clock": "07:30", "clock_zero": "", "clock_stopped": "s", "horn": "h",
        "home_name": "Lviv", "guest_name": "Kyiv", "home_score": "3", "guest_score": "12",
        "home_tol": "", "guest_tol": "", "period": "1", "home_fouls": "2", "guest_fouls": "5",
    }


def test_basketball_layout_read_back_with_shot_clock_and_possession():
    view = futsal_view("0:00", shot_clock=4.25, possession="away")
    view.update(clock="00:00", clock_running=True)
    view["home"]["timeouts_left"] = 2
    got = RtdBuffer().feed(encode("daktronics-rtd-basketball", view)).read(BASKETBALL)
    assert (got["clock"], got["clock_zero"], got["clock_stopped"]) == ("00:00", "z", "")
    assert (got["shot_clock"], got["home_poss"], got["guest_poss"]) == ("4.2", "", ">")
    assert (got["home_fouls"], got["guest_fouls"], got["home_tol"]) == ("2", "5", "2")


def test_a_corrupted_rtd_packet_fails_the_checksum():
    wire = bytearray(encode("daktronics-rtd-soccer", futsal_view()))
    body = rtd_bodies(bytes(wire))[0]
    i = wire.index(body) + body.index(b"\x02") + 1
    wire[i] ^= 0x01
    with pytest.raises(ChecksumError):
        for b in rtd_bodies(bytes(wire)):
            rtd_packet(b)


def test_rtd_names_are_ascii():
    view = futsal_view()
    view["home"]["name"] = "Шахтар Донецьк"
    got = RtdBuffer().feed(encode("daktronics-rtd-soccer", view)).read(SOCCER)
    assert got["home_name"] == "Shakhtar Donetsk"


clocks = st.one_of(
    st.builds(lambda m, s: f"{m:02d}:{s:02d}", st.integers(0, 99), st.integers(0, 59)),
    st.builds(lambda s, t: f"{s}.{t}", st.integers(0, 59), st.integers(0, 9)),
)
fields = st.builds(
    DisplayFields,
    clock=clocks,
    clock_running=st.booleans(),
    home_score=st.integers(0, 999),
    away_score=st.integers(0, 999),
    home_fouls=st.integers(0, 9),
    away_fouls=st.integers(0, 9),
    period_number=st.integers(1, 9),
    horn=st.booleans(),
    home_name=st.text(alphabet="ABCdef Kyiv", max_size=20),
)


@given(fields)
def test_rtd_round_trip_for_any_fields(f):
    got = RtdBuffer().feed(daktronics.encode_soccer(f)).read(SOCCER)
    assert got["clock"] == f.clock
    assert (int(got["home_score"]), int(got["guest_score"])) == (f.home_score, f.away_score)
    assert int(got["period"]) == f.period_number
    assert got["home_name"] == f.home_name.strip()
    assert got["clock_stopped"] == ("" if f.clock_running else "s")


@given(fields)
def test_stramatel_round_trip_for_any_fields(f):
    parser = StramatelParser()
    for b in b"\x00garbage\xf8" + stramatel.encode(f) + stramatel.encode(f):
        parser.push(b)
    assert len(parser.messages) == 2
    got = StramatelParser.fields(parser.messages[-1])
    mm, _, ss = f.clock.partition(":")
    want_clock = f"{mm}:{ss}" if ss else f"{int(f.clock.split('.')[0])}.{f.clock.split('.')[1]}"
    assert got["clock"] == want_clock
    assert (got["home_points"], got["guest_points"]) == (str(f.home_score), str(f.away_score))
    assert (got["home_fouls"], got["period"]) == (str(f.home_fouls), str(f.period_number))
    assert (got["horn"], got["clock_running"]) == (f.horn, f.clock_running)


def test_stramatel_shot_clock_and_frame_shape():
    frame = encode("stramatel", futsal_view(shot_clock=3.5, horn=False))
    assert len(frame) == 54 and frame[0] == 0xF8 and frame[53] == 0x0D
    parser = StramatelParser()
    for b in frame:
        parser.push(b)
    got = StramatelParser.fields(parser.messages[0])
    assert got["shot_clock"] == "3.5" and got["show_shot_clock"] and not got["shot_horn"]
    assert got["clock"] == "12:34" and got["possession"] is None


def test_stramatel_possession_and_sub_minute_clock():
    parser = StramatelParser()
    for b in encode("stramatel", futsal_view("9.4", possession="away")):
        parser.push(b)
    got = StramatelParser.fields(parser.messages[0])
    assert got["clock"] == "9.4" and got["possession"] == "away"


def test_scorebox_consoles_basketball_reads_our_stream():
    """FlantasticDan/scorebox-consoles (pip install scorebox-consoles): its own framing
    loop (wait for SYN, read to ETB) and field parser, run on our bytes."""
    sports = pytest.importorskip("consoles.sports")
    wire = encode("daktronics-rtd-basketball", futsal_view("05:43", home=54, away=61, shot_clock=14))

    class Done(Exception):
        pass

    class Line:
        def __init__(self, data):
            self.data = list(data)

        def read(self):
            if not self.data:
                raise Done
            return bytes([self.data.pop(0)])

    class Pipe:
        def send(self, data):
            pass

    board = object.__new__(sports.Basketball)  # without __init__: it would spawn a serial process
    board.data = {"home_score": 0, "visitor_score": 0, "clock": "", "shot": 0, "period": 0,
                  "home_fouls": 0, "visitor_fouls": 0, "home_possesion": False, "visitor_possesion": False,
                  "home_timeouts": 0, "visitor_timeouts": 0, "home_bonus": False, "home_double_bonus": False,
                  "visitor_bonus": False, "visitor_double_bonus": False}
    with pytest.raises(Done):
        board.update(Pipe(), Line(wire))
    got = board.export()
    assert (got["home_score"], got["visitor_score"], got["clock"], got["shot"]) == (54, 61, "05:43", "14")
    assert (got["home_fouls"], got["visitor_fouls"], got["period"]) == (2, 5, " 1st")  # the field is right-justified; it keeps the pad


def test_native_format_is_a_link_frame():
    [frame] = Decoder().feed(encode("native", futsal_view("12:00", home=4)))
    assert frame.seq == 0 and isinstance(frame.message, Show)
    assert frame.message.clock == "12:00" and frame.message.home_score == 4


def test_every_format_encodes_a_replayed_pig_game():
    lines = ['{"game": "pig", "players": ["Ann", "Bob"]}', '{"type": "roll", "dice": [5]}', '{"type": "stop"}']
    view = final_view(replay_lines(lines))
    for name in FORMATS:
        assert encode(name, view)
    got = RtdBuffer().feed(encode("daktronics-rtd-basketball", view)).read(BASKETBALL)
    assert (got["home_name"], got["home_score"], got["guest_poss"]) == ("Ann", "5", ">")


def test_unknown_format_lists_the_known_ones():
    with pytest.raises(UnknownFormat, match="known: \\['daktronics-rtd-basketball'"):
        encode("daktronics", futsal_view())
