"""Cost of the languages: translating a refusal, rendering the mirror page per
request in Ukrainian against English, and loading a catalogue (compile vs .mo).
Usage: python bench/i18n_speed.py"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from refbox import i18n  # noqa: E402


def median_us(fn: Callable[[], object], n: int = 2000) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    covered = ('malformed event {"type": "roll", "dice": [7]}: field \'dice\': item 0: '
               "expected a number in 1..6, got 7")
    uncovered = "illegal play [3, 5] in all-fives (all-fives, turn Ann): a reason with no pattern"
    simple = "illegal undo (pig): nothing to undo"
    i18n.translate_reason(simple, "uk")  # load the catalogue once
    print(f"translate_reason, simple covered refusal:  {median_us(lambda: i18n.translate_reason(simple, 'uk')):7.1f} µs median")
    print(f"translate_reason, nested covered refusal:  {median_us(lambda: i18n.translate_reason(covered, 'uk')):7.1f} µs median")
    print(f"translate_reason, uncovered refusal:       {median_us(lambda: i18n.translate_reason(uncovered, 'uk')):7.1f} µs median")

    from refbox.journal import Journal
    from refbox.table import Table
    from web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Journal(Path(tmp) / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.05)
        table.start()
        try:
            client = create_app(table, {"TESTING": True}).test_client()
            for lang in ("en", "uk"):
                client.get(f"/?lang={lang}")
                print(f"GET /?lang={lang} (test client, whole request): "
                      f"{median_us(lambda: client.get(f'/?lang={lang}'), 300):7.1f} µs median")
        finally:
            table.stop()

    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        loc = Path(tmp)
        (loc / "uk" / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(i18n.po_path("uk"), i18n.po_path("uk", loc))
        t0 = time.perf_counter()
        i18n.compile_catalogue("uk", loc)
        compile_ms = (time.perf_counter() - t0) * 1e3
        import gettext

        t0 = time.perf_counter()
        with i18n.mo_path("uk", loc).open("rb") as fh:
            gettext.GNUTranslations(fh)
        load_ms = (time.perf_counter() - t0) * 1e3
        size = i18n.mo_path("uk", loc).stat().st_size
    print(f"compile uk .po -> .mo (first use without setup): {compile_ms:6.1f} ms; load the .mo: {load_ms:5.2f} ms;"
          f" .mo size {size} bytes")


if __name__ == "__main__":
    main()
