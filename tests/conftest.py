import pytest


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
