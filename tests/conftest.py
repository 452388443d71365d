import pytest


@pytest.fixture
def table(tmp_path):
    """A running table playing Pig on a journal in ``tmp_path`` (the web and i18n tests)."""
    from refbox.journal import Journal
    from refbox.table import Table

    t = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.01)
    t.start()
    yield t
    t.stop()


@pytest.fixture
def pig():
    from rules import Session

    return Session.start({"game": "pig", "players": ["Ann", "Bob"]})


# Debian's Chromium driven by Playwright, for the browser tests of tests/web and tests/i18n
BROWSER_TIMEOUT = 10_000  # ms


@pytest.fixture(scope="module")
def browser():
    from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, chromium_missing

    why = chromium_missing()
    if why:
        pytest.fail(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = ctx.new_page()
    pg.set_default_timeout(BROWSER_TIMEOUT)
    yield pg
    ctx.close()
