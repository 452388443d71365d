import json

import pytest

from tests.support import wait_until
from web import create_app

from .conftest import pin


def test_mirror_page_shows_the_view(client):
    page = client.get("/").get_data(as_text=True)
    assert "table-7" in page and '"turn": "Ann"' in page
    assert 'id="strings"' in page and '"to_play": "{name} to play"' in page


def test_view_json_in_the_page_cannot_close_its_script(table, client):
    table.new_game({"game": "pig", "players": ["</script><b>x", "Bob"]}).result(5)
    page = client.get("/").get_data(as_text=True)
    assert "</script><b>" not in page and "\\u003c/script>\\u003cb>x" in page


def test_event_with_pin_is_applied(client):
    r = client.post("/api/events", json={"type": "roll", "dice": [5]}, headers=pin())
    assert r.status_code == 200 and r.json["accepted"]
    assert client.get("/api/view").json["turn_total"] == 5


def test_illegal_event_is_refused_with_reason(client):
    r = client.post("/api/events", json={"type": "stop"}, headers=pin())
    assert r.status_code == 422 and "throw at least once" in r.json["reason"]


def test_malformed_body(client):
    r = client.post("/api/events", data="nope", headers={**pin(), "Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json["reason"]


def test_press_button_and_buttons(client):
    client.post("/api/events", json={"type": "roll", "dice": [3]}, headers=pin())
    r = client.post("/api/press/stop", headers=pin())
    assert r.json["accepted"]
    assert client.get("/api/view").json["players"][0]["score"] == 3
    assert client.get("/api/buttons").json == ["stop", "undo"]


def test_unknown_button_is_refused_with_the_buttons(client):
    r = client.post("/api/press/fly", headers=pin())
    assert r.status_code == 422 and "buttons: stop, undo" in r.json["reason"]


def test_undo(client):
    client.post("/api/events", json={"type": "roll", "dice": [4]}, headers=pin())
    assert client.post("/api/undo", headers=pin()).json["accepted"]
    assert client.get("/api/view").json["turn_total"] == 0


def test_reading_goes_through_the_game(client):
    r = client.post("/api/reading", json={"dice": [6]}, headers=pin())
    assert r.json["accepted"] and r.json["event"]["source"] == "camera"
    assert client.get("/api/view").json["turn_total"] == 6


def test_camera_is_null_without_one(client):
    assert client.get("/api/camera").json == {"camera": None}


def test_reading_with_kept_dice_is_the_keep_then_the_roll(table, client):
    table.new_game({"game": "poker", "players": ["Ann", "Bob"]}).result(5)
    assert client.post("/api/reading", json={"dice": [6, 6, 2, 3, 6]}, headers=pin()).json["accepted"]
    r = client.post("/api/reading", json={"dice": [1, 4], "kept": [6, 6, 6]}, headers=pin())
    assert r.json["accepted"] and r.json["event"]["type"] == "roll"
    assert sorted(client.get("/api/view").json["dice"]) == [1, 4, 6, 6, 6]


class EnteredByHand:
    """The camera worker's side of a reading entered here (``CameraWorker.entered_by_hand``), recorded."""

    def __init__(self) -> None:
        self.entered: list = []

    def entered_by_hand(self, values) -> None:
        self.entered.append(values)


def test_a_reading_the_table_takes_is_told_to_the_camera_and_a_refused_one_is_not(app, table, client):
    """A throw the camera held for a die in doubt, entered here, is that throw for the camera's settler
    (no second roll once the die is settled in place): the values go to the camera, as typed; with kept
    dice, those too (the camera sees them); a refused reading, nothing."""
    camera = app.extensions["refbox.camera"] = EnteredByHand()
    assert client.post("/api/reading", json={"dice": [6]}, headers=pin()).json["accepted"]
    assert client.post("/api/reading", json={"dice": [4, 4]}, headers=pin()).status_code == 422  # (pig: one die)
    assert wait_until(lambda: camera.entered == [[6]])  # (told from the table's thread, once it has taken it)
    table.new_game({"game": "poker", "players": ["Ann", "Bob"]}).result(5)
    assert client.post("/api/reading", json={"dice": [6, 6, 2, 3, 6]}, headers=pin()).json["accepted"]
    assert client.post("/api/reading", json={"dice": [1, 4], "kept": [6, 6, 6]}, headers=pin()).json["accepted"]
    assert wait_until(lambda: camera.entered == [[6], [6, 6, 2, 3, 6], [6, 6, 6, 1, 4]])


def test_a_calibration_drawn_on_the_control_page_is_checked_kept_and_used(app, table, client, tmp_path):
    """``POST /api/camera/zones``: a calibration object, checked (a bad one refused naming the key, the file
    untouched), written to the table's calibration file and given to the camera; ``GET`` says what it is.
    For the operator only; without a camera, 404; without a file to keep it in, 409."""
    from refbox.camera import CameraWorker
    from tests.support import StillCamera

    drawn = {"size": [960, 540], "zones": {"kept": [[720, 60], [930, 60], [930, 480], [720, 480]]},
             "ignore": [[[0, 420], [300, 420], [300, 540], [0, 540]]]}
    assert client.post("/api/camera/zones", json=drawn, headers=pin()).status_code == 404
    assert client.get("/api/camera/zones").status_code == 404
    kept = tmp_path / "zones.json"
    camera = app.extensions["refbox.camera"] = CameraWorker(lambda: StillCamera(), table, zones_file=str(kept))
    assert client.get("/api/camera/zones").json == {"calibration": None, "file": str(kept), "frame": None}
    assert client.post("/api/camera/zones", json=drawn).status_code == 403 and not kept.exists()
    r = client.post("/api/camera/zones", json={**drawn, "zones": {"kept": [[720, 60], [930, 60]]}}, headers=pin())
    assert r.status_code == 422 and "zone 'kept'" in r.json["reason"] and not kept.exists()
    r = client.post("/api/camera/zones", json={**drawn, "zone": {}}, headers=pin())
    assert r.status_code == 422 and "unknown key(s) ['zone']" in r.json["reason"]
    r = client.post("/api/camera/zones", json=drawn, headers=pin())
    assert r.status_code == 200 and r.json["accepted"] and r.json["file"] == str(kept)
    assert json.loads(kept.read_text()) == r.json["calibration"] == client.get("/api/camera/zones").json["calibration"]
    assert r.json["calibration"]["zones"]["kept"] == [[720.0, 60.0], [930.0, 60.0], [930.0, 480.0], [720.0, 480.0]]
    assert camera.calibration.names == ("kept",) and camera.calibration.size == (960, 540)
    r = client.post("/api/camera/zones", json={"size": [960, 540], "zones": {}}, headers=pin())  # (the zones cleared and saved)
    assert r.status_code == 200 and r.json["calibration"] is None and camera.calibration is None
    assert json.loads(kept.read_text()) == {"size": [960, 540], "zones": {}} and client.get("/api/camera/zones").json["calibration"] is None
    camera.zones_file = None  # (a table whose journal is in memory)
    r = client.post("/api/camera/zones", json=drawn, headers=pin())
    assert r.status_code == 409 and "set camera.zones" in r.json["reason"]


def test_the_operator_pauses_and_resumes_the_camera(app, table, client, tmp_path):
    """``POST /api/camera/pause``: ``{"paused": true|false}`` reaches the camera; anything else is refused naming
    what it expects; for the operator only; without a camera, 404."""
    from refbox.camera import CameraWorker
    from tests.support import StillCamera

    assert client.post("/api/camera/pause", json={"paused": True}, headers=pin()).status_code == 404
    camera = app.extensions["refbox.camera"] = CameraWorker(lambda: StillCamera(), table)
    assert client.post("/api/camera/pause", json={"paused": True}).status_code == 403 and not camera.status["paused"]
    for bad in ({}, {"paused": "yes"}, {"paused": 1}, {"paused": True, "for": 5}):
        r = client.post("/api/camera/pause", json=bad, headers=pin())
        assert r.status_code == 422 and 'expected {"paused": true} or {"paused": false}' in r.json["reason"], bad
    assert not camera.status["paused"]
    r = client.post("/api/camera/pause", json={"paused": True}, headers=pin())
    assert r.status_code == 200 and r.json == {"accepted": True, "paused": True} and camera.status["paused"]
    assert client.get("/api/camera").json["camera"]["paused"] is True
    assert client.post("/api/camera/pause", json={"paused": False}, headers=pin()).json["paused"] is False
    camera.pause_file = str(tmp_path / "no-such-folder" / "camera-paused")  # (the pause cannot be kept: nothing changes)
    r = client.post("/api/camera/pause", json={"paused": True}, headers=pin())
    assert r.status_code == 500 and "the pause could not be kept in" in r.json["reason"] and "the camera is not paused, as before" in r.json["reason"]
    assert not camera.status["paused"]


class Pictured:
    """A camera worker's last picture (``CameraWorker.picture``) and its calibration (``zones``), nothing else."""

    def __init__(self, picture, zones=None) -> None:
        self.picture, self.zones = picture, zones


def test_the_cameras_picture_is_the_operators_with_the_dice_boxed(app, client):
    """``GET /api/camera/picture``: the last picture, at most 960 px wide, each die boxed (green when sure
    enough, red when in doubt), a calibration's zones drawn; for a login or the PIN only; without a camera
    or a picture, 404 saying so."""
    import cv2
    import numpy as np

    from vision.types import DieReading

    assert client.get("/api/camera/picture", headers=pin()).status_code == 404
    assert "no camera" in client.get("/api/camera/picture", headers=pin()).json["reason"]
    app.extensions["refbox.camera"] = Pictured(None)
    assert "no picture yet" in client.get("/api/camera/picture", headers=pin()).json["reason"]
    frame = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    dice = (DieReading(5, (200.0, 200.0), 0.95, (160, 160, 240, 240)), DieReading(3, (800.0, 400.0), 0.6, (760, 360, 840, 440)))
    app.extensions["refbox.camera"] = Pictured((frame, dice, lambda d: d.confidence >= 0.7))
    r = client.get("/api/camera/picture")
    assert r.status_code == 403 and "log in" in r.json["reason"]
    assert client.get("/api/camera/picture", headers=pin("0000")).status_code == 403
    r = client.get("/api/camera/picture", headers=pin())
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.headers["Cache-Control"] == "no-store"
    out = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert out.shape == (540, 960, 3)
    k = 960 / 1280
    sure, doubt = out[round(160 * k), round(200 * k)], out[round(360 * k), round(800 * k)]  # (the top edge of each box)
    assert sure[1] > 150 and sure[2] < 120 and doubt[2] > 150 and doubt[1] < 120
    label = out[round(160 * k) - 24 : round(160 * k) - 2, round(160 * k) : round(160 * k) + 80]  # ("5 0.95" above its box)
    green = (label[..., 1] > 150) & (label[..., 2] < 120)
    assert np.count_nonzero(green.any(axis=1)) >= 9  # (drawn on the copy sent, its text about 11 pixels high)
    assert abs(out[20, 20].astype(int) - [40, 110, 40]).max() < 12  # (the table as the camera saw it)
    from vision.annotate import IGNORED, ZONE
    from vision.zones import Zones

    zones = Zones.from_calibration({"size": [1280, 720], "zones": {"kept": [[960, 80], [1240, 80], [1240, 640], [960, 640]]},
                                    "ignore": [[[0, 560], [400, 560], [400, 720], [0, 720]]]})
    app.extensions["refbox.camera"] = Pictured((frame, dice, lambda d: d.confidence >= 0.7), zones)
    out = cv2.imdecode(np.frombuffer(client.get("/api/camera/picture", headers=pin()).data, np.uint8), cv2.IMREAD_COLOR)
    edge = out[round(360 * k), round(960 * k)].astype(int)  # (the kept zone's outline, where the calibration puts it: the table's 40 of blue gone)
    assert edge[0] > 120 and abs(edge - ZONE).max() < 60 and out[round(360 * k), round(1100 * k), 0] < 80
    grey = (np.array([40, 110, 40]) + IGNORED) / 2
    assert abs(out[round(700 * k), round(300 * k)].astype(int) - grey).max() < 12  # (the ignored area, greyed)
    app.config["CONTROL_PIN"] = ""  # (no PIN configured: control is off, and so is the picture)
    r = client.get("/api/camera/picture", headers=pin())
    assert r.status_code == 403 and "control is off" in r.json["reason"]


@pytest.mark.parametrize("body", [{"dice": [7]}, {"dice": "6"}, {"dice": [6], "x": 1}, {"dice": [True]},
                                  {"dice": [6], "kept": [0]}, {"kept": [6]}])
def test_bad_reading_is_refused_naming_it(client, body):
    r = client.post("/api/reading", json=body, headers=pin())
    assert r.status_code == 400 and json.dumps(body) in r.json["reason"]


def test_new_game_and_game_info(client):
    r = client.post("/api/new-game", json={"game": "futsal", "players": ["Lviv", "Kyiv"], "options": {}}, headers=pin())
    assert r.status_code == 200 and r.json["accepted"]
    g = client.get("/api/game").json
    assert g["header"]["game"] == "futsal" and g["info"]["family"] == "sports"
    assert "start_stop" in g["buttons"] and "clock_start" in g["legal"]
    assert client.get("/api/view").json["home"]["name"] == "Lviv"


def test_bad_new_game_is_refused_and_the_game_stays(client):
    r = client.post("/api/new-game", json={"game": "chess", "players": ["A", "B"]}, headers=pin())
    assert r.status_code == 422 and "unknown game 'chess'" in r.json["reason"]
    assert client.get("/api/game").json["header"]["game"] == "pig"


def test_clock_set_for_field_sports(client):
    client.post("/api/new-game", json={"game": "futsal", "players": ["Lviv", "Kyiv"]}, headers=pin())
    r = client.post("/api/events", json={"type": "clock_set", "remaining": 600}, headers=pin())
    assert r.json["accepted"], r.json
    assert client.get("/api/view").json["clock"] == "10:00"


def test_games_catalogue(client):
    games = {g["name"]: g for g in client.get("/api/games").json}
    assert {"pig", "futsal", "all-fives", "snooker"} <= set(games)
    assert any(o["name"] == "target" for o in games["pig"]["options"])


def test_history_is_the_journal_newest_first(client):
    for d in ([3], [5]):
        client.post("/api/events", json={"type": "roll", "dice": d}, headers=pin())
    client.post("/api/press/stop", headers=pin())
    h = client.get("/api/history").json
    assert h["header"]["game"] == "pig" and h["total"] == 3
    assert [e["event"]["type"] for e in h["events"]] == ["stop", "roll", "roll"]
    assert [e["seq"] for e in h["events"]] == [3, 2, 1]
    assert [e["seq"] for e in client.get("/api/history?after=1&limit=1").json["events"]] == [3]
    assert client.get("/api/history?limit=0").status_code == 400


def test_tile_proposals_for_dominoes(client):
    client.post("/api/new-game", json={"game": "all-fives", "players": ["Ann", "Bob"]}, headers=pin())
    client.post("/api/events", json={"type": "new_hand"}, headers=pin())
    assert client.get("/api/proposals?tile=6-2").json == [{"type": "play", "tile": [6, 2], "source": "camera"}]
    assert client.get("/api/proposals?tile=9-9").status_code == 400


def test_tile_proposals_refused_for_dice(client):
    assert client.get("/api/proposals?tile=6-2").status_code == 422


def test_health_absent_and_present(app, client):
    assert client.get("/api/health").json == {}
    app.extensions["refbox.health"] = lambda: {"camera": {"ok": False, "detail": "no frames for 5 s"}}
    assert client.get("/api/health").json == {"camera": {"ok": False, "detail": "no frames for 5 s"}}


def test_broken_health_check_is_itself_a_fault(app, client):
    def broken():
        raise OSError("i2c bus gone")

    app.extensions["refbox.health"] = broken
    assert client.get("/api/health").json["health"]["ok"] is False


def test_i18n_hook_is_installed(app):
    assert "jinja2.ext.InternationalizationExtension" in app.jinja_env.extensions


def test_secret_key_generated_when_not_configured(table):
    a, b = create_app(table, {"TESTING": True}), create_app(table, {"TESTING": True})
    assert len(a.config["SECRET_KEY"]) == 64 and a.config["SECRET_KEY"] != b.config["SECRET_KEY"]
    assert create_app(table, {"SECRET_KEY": "fixed"}).config["SECRET_KEY"] == "fixed"


def test_a_huge_body_is_refused_with_413_and_a_reason(client, table):
    before = table.journal.count(table.game_id)
    big = '{"type": "roll", "dice": [4], "pad": "' + "x" * 100_000 + '"}'
    r = client.post("/api/events", data=big, content_type="application/json", headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 413 and r.get_json()["reason"]
    assert table.journal.count(table.game_id) == before
