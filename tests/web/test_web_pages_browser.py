"""Every page in Chromium at 1280 and 390 pixels wide (issue 36): nothing wider than the window
(document.documentElement.scrollWidth <= innerWidth) and nothing cut off, no raw codes (a map's
`#5...`, a `^`), a label on every form control, every button and link reachable by Tab with a name;
the live game drawn by the server before the script runs (never "No game is being played" beside
it); a game's replay stepped by the keyboard, its sheets redrawn as they stood; the games filtered
by player. The pages and the checks are tests/tools/make_web_pictures.py's, which also makes the
screenshots in docs/web.md."""
from __future__ import annotations

import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import make_web_pictures as pictures

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = pictures.Site(tmp_path_factory.mktemp("pages"))
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver():
    d = pictures.browser()
    yield d
    pictures.close(d)


@pytest.mark.parametrize("width", pictures.WIDTHS)
def test_every_page_fits_the_window_and_shows_no_raw_code(site, driver, width, tmp_path):
    shown = [(name, site.url + path, sel) for name, path, sel in pictures.PAGES]
    shown += [("empty", site.empty_url + "/", "#no-games"), ("player", site.url + "/game/3", "#coach")]
    for name, url, selector in shown:
        pictures.open_page(driver, url, selector, width)
        found = pictures.problems(driver)
        if found:
            driver.save_screenshot(str(tmp_path / f"{name}-{width}.png"))
        assert not found, (name, width, found)


def test_the_live_game_is_drawn_before_the_script_runs(site):
    with urllib.request.urlopen(site.url + "/") as r:
        page = r.read().decode()
    assert '<div id="game">' in page and '<p id="no-game" class="note" hidden>' in page
    assert "to play" in page and 'class="player' in page
    with urllib.request.urlopen(site.empty_url + "/") as r:
        empty = r.read().decode()
    assert "No games stored yet: play a game with <code>make run</code>" in empty
    assert "No statistics yet" in empty and 'class="chart"' not in empty


def test_the_console_panel_is_a_picture_and_its_action_in_words(site, driver):
    from selenium.webdriver.common.by import By

    pictures.open_page(driver, site.url + "/", "#panel", 1280)
    action = driver.find_element(By.ID, "panel-action").text
    text = driver.execute_script("return document.getElementById('panel-text').textContent")
    assert action and "^" not in action and "#" not in text, (action, text)


def test_a_games_replay_steps_by_the_keyboard_and_the_games_filter_by_player(site, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    pictures.open_page(driver, site.url + "/game/1", "#replay-round", 390)
    last = int(driver.find_element(By.ID, "replay").get_attribute("data-rounds"))
    back = driver.find_element(By.ID, "replay-back")
    back.send_keys(Keys.ENTER)
    assert driver.find_element(By.ID, "replay-where").text == f"after round {last - 1} of {last}"
    driver.find_element(By.ID, "replay-first").send_keys(Keys.SPACE)
    assert "before round 1" in driver.find_element(By.ID, "replay-where").text
    pictures.open_page(driver, site.url + "/game/1", "#replay-round", 390)
    driver.find_element(By.ID, "replay-round").send_keys(Keys.HOME)
    import time
    time.sleep(0.5)
    srcs = [i.get_attribute("src") for i in driver.find_elements(By.CSS_SELECTOR, "img.sheet")]
    assert all("/round/0/sheet/" in s for s in srcs), srcs
    pictures.open_page(driver, site.url + "/?player=Li", "#filtered", 390)
    rows = [r.get_attribute("id") for r in driver.find_elements(By.CSS_SELECTOR, "#games-table tbody tr")]
    assert rows == ["game-2"]


def test_the_contrast_check_reports_low_contrast_text(driver):
    """make_web_pictures.CONTRAST (WCAG 2.1 AA) reports grey on white, dark on dark, a faded die and
    a ::before's grey words, each by its selector and text, and passes large text at 3:1, readable
    text and a disabled button."""
    page = ("<!doctype html><body style='background:#fff'>"
            "<p id='ok'>readable</p><p id='grey' style='color:#aaa'>too pale</p>"
            "<div style='background:#222'><span class='dark' style='color:#444'>dark on dark</span></div>"
            "<p id='large' style='color:#888;font-size:24px'>large at 3.5</p>"
            "<p id='small' style='color:#888;font-size:16px'>small at 3.5</p>"
            "<p style='opacity:0.4'><span id='faded'>faded</span></p>"
            "<p id='label' class='x'>value</p><style>#label::before{content:'pale: ';color:#bbb}</style>"
            "<button disabled style='opacity:0.5'>off</button></body>")
    driver.get("data:text/html;charset=utf-8," + urllib.parse.quote(page))
    found = pictures.contrast(driver)
    assert len(found) == 5, found
    for expected in ('p#grey "too pale"', 'span.dark "dark on dark"', 'p#small "small at 3.5"',
                     'span#faded "faded"', 'p#label.x::before "pale:"'):
        assert any(expected in f for f in found), (expected, found)
    assert all(f.startswith("contrast ") for f in found)


@pytest.mark.parametrize("width", pictures.WIDTHS)
def test_the_sheet_editors_text_has_contrast(site, driver, width):
    """The sheet editor (/sheets), a dice sheet's squares and a map side's rooms and walls: every text
    at WCAG 2.1 AA contrast (the page's check only sees the editor's start form)."""
    from test_web_sheets_browser import start_from

    driver.set_window_size(width, 1000)
    for name in ("city", "deadly-a"):
        start_from(driver, site.url + "/" if name == "city" else None, name)
        found = pictures.contrast(driver)      # (its grid is one Tab stop, arrows within: a roving tabindex)
        assert not found, (name, width, found)
