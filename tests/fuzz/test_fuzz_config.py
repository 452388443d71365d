"""Hostile configuration: any nested dict, any TOML text, any bytes in the file give a
Config or a ConfigError whose message names the key (or the file) at fault."""

from __future__ import annotations

import dataclasses
import json
import math
import tempfile
from pathlib import Path
from typing import Any, get_type_hints

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refbox.config import Config, ConfigError, from_dict, load

from .strategies import examples, json_like

FUZZ = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _known() -> dict[str, list[str]]:
    out = {}
    for section, kind in get_type_hints(Config).items():
        out[section] = [f.name for f in dataclasses.fields(kind)]
    return out


KNOWN = _known()
KEYS = sorted({s for s in KNOWN} | {f"{s}.{f}" for s, fs in KNOWN.items() for f in fs})

values = st.one_of(
    json_like,
    st.sampled_from(["pig", "futsal", "snooker", "custom", "none", "auto", "gpio", "max7219", "emulator", "FULL", "0.0.0.0",
                     "folder:/nonexistent", "usb:0", "usb:x", "/dev/ttyACM0", "loop://"]),
    st.integers(-5, 70_000),
    st.lists(st.sampled_from(["Ann", "Bob", "", "A" * 50, "Home", "Away"]), max_size=4),
    st.dictionaries(st.sampled_from(["stop", "undo", "goal_home", "digits", "target", "half_minutes", "groups"]),
                    st.integers(-1, 40) | json_like, max_size=3),
)


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for section in draw(st.lists(st.sampled_from(sorted(KNOWN) + ["extra"]), max_size=4, unique=True)):
        if draw(st.integers(0, 9)) == 0:
            data[section] = draw(values)
            continue
        names = KNOWN.get(section, ["x"]) + ["bogus"]
        data[section] = {n: draw(values) for n in draw(st.lists(st.sampled_from(names), max_size=4, unique=True))}
    return data


def names_a_key(message: str, data: Any) -> bool:
    given_keys: set[str] = set()

    def walk(v: Any, prefix: str) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                key = f"{prefix}.{k}" if prefix else str(k)
                given_keys.add(key)
                walk(x, key)

    walk(data, "")
    return any(k in message for k in [*KEYS, *given_keys] if k)


@FUZZ
@given(configs())
@example({"table": {"players": ["Ann", "Ann"]}})
@example({"table": {"options": {"target": math.inf}}})
@example({"keypad": {"layout": "custom", "pins": {"stop": 17, "undo": 17}}})
@example({"led": {"backend": "gpio", "settings": {"digits": "many"}}})
@example({"led": {"backend": "max7219", "settings": {"groups": [{"name": None}]}}})
@example({"led": {"backend": "gpio", "settings": {"groups": {"x": 1}}}})
@example({"led": {"settings": {"digits": 4}}})
def test_from_dict_refuses_with_the_key(data):
    try:
        from_dict(data)
    except ConfigError as exc:
        assert names_a_key(str(exc), data), str(exc)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v).replace("inf", "inf").replace("nan", "nan")
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    return '""'  # TOML has no null


def to_toml(data: dict[str, Any]) -> str:
    lines = []
    for section, body in data.items():
        if isinstance(body, dict):
            lines.append(f"[{json.dumps(section)}]")
            lines += [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in body.items()]
        else:
            lines.insert(0, f"{json.dumps(section)} = {toml_value(body)}")
    return "\n".join(lines) + "\n"


def _load_text(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "refbox.toml"
        path.write_bytes(raw)
        try:
            load(path)
        except ConfigError as exc:
            message = str(exc)
            assert str(path) in message or any(k in message for k in KEYS), message


@FUZZ
@given(configs().map(to_toml))
def test_load_generated_toml(text):
    _load_text(text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.one_of(st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=200)))
@example(b"\xff\xfe[table]\n")
@example(b'[table]\nname = "\xc3"\n')
@example(b"[table]\ngame = \"pig\"\n[table]\n")
@example(b"[" * 5000)
@example(b"a = " + b"[" * 5000)
@example(b"a = " + b"{b=" * 5000)
def test_load_arbitrary_bytes(raw):
    _load_text(raw)


def test_load_a_directory_names_it(tmp_path):
    try:
        load(tmp_path)
    except ConfigError as exc:
        assert str(tmp_path) in str(exc)
    else:
        raise AssertionError("a directory loaded as a config file")
