"""The page in a real browser: Debian's headless Chromium driven by Selenium through Debian's
chromedriver (`make test` installs both: `make browser`).

1. `doodlebox web --db ...` as its own process, on a database with a console game, a record
   imported from paper and a game being played: the page lists them (a stored name that is
   HTML shows as text), draws the charts and a game's sheets, and names set in its form are
   stored.
   The coach's analysis of a game is shown once the server has made it (the script asks again
   while it is under way).
2. `doodlebox web --host 0.0.0.0` without a token: the league's link and page load, and the
   page is read-only (no Save button, the names' fields disabled); with `--token`, the token
   given once in the page's header unlocks the form (and the coach's analysis, refused
   before), and its names are stored.
3. `doodlebox log --cpython --web 0` as its own process, with the virtual console: the bot
   plays a round of Doodle City by clicking the console's buttons on the page (ROLL, the dice,
   the pieces), each click a press on the virtual console; every claim the console sends is
   the one the rules engine expects and is stored in SQLite, and the page's LED dice show the
   roll stored."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cli_run import ENV
from hostproc import StoreFeed
from test_web_server import EVIL, make_db

from doodlebox.table.dice import DEFAULT_LOBBY, PRESS_GAP_S, Table

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
# as root in a container, with no network but loopback: no sandbox, no GPU, nothing fetched
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1600")


@pytest.fixture(scope="module")
def browser():
    missing = [p for p in (CHROMIUM, DRIVER) if not os.access(p, os.X_OK)]
    if missing:
        why = (f"{' and '.join(missing)} not installed: `make test` installs Debian's chromium and chromium-driver "
               "(`make browser`)")
        pytest.fail(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="doodlebox-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


class Command:
    """A doodlebox command as its own process, its output in a file; `url` once it prints one."""

    def __init__(self, log: Path, *args: str, env: dict | None = None):
        self.log = log
        with open(log, "w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "doodlebox.cli", *args], stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=dict(ENV, PYTHONUNBUFFERED="1", **(env or {})))

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.log.read_text()
            m = re.search(pattern, text)
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} from the command (exit {self.proc.poll()}):\n{text}")

    @property
    def url(self) -> str:
        return self.wait_for(r"web: (http://127\.0\.0\.1:\d+/)").group(1)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def wait(driver, condition, timeout: float = 20, what: str = ""):
    """Until `condition(driver)` holds; an element gone because the page is being loaded again
    (stale, or not there yet) is looked for again."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(condition, what)


def loaded(driver, image) -> bool:
    return bool(driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))


def test_the_page_lists_the_games_draws_them_and_takes_names(browser, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "games.sqlite3"
    facts = make_db(db)
    web = Command(tmp_path / "web.log", "web", "--db", str(db), "--port", "0")
    try:
        browser.get(web.url)

        def table_rows(d) -> dict:
            return {r.get_attribute("id"): r.text for r in d.find_elements(By.CSS_SELECTOR, "#games-table tbody tr")}

        # read again while the document is being replaced (a stale row on a clean checkout's run)
        rows = wait(browser, lambda d: table_rows(d) or None, what="the games table")
        assert sorted(rows) == ["game-1", "game-2", "game-3"]
        totals = facts["ended"].scores()
        assert "Doodle City" in rows["game-1"] and f"Ann {totals[0]}" in rows["game-1"]
        assert EVIL in rows["game-1"]            # shown as the text it is ...
        assert not browser.find_elements(By.CSS_SELECTOR, "#games-table img")   # ... never as markup
        assert "Doodle China: Suzhou" in rows["game-2"] and "Li 46, Mei 32, Tao 26" in rows["game-2"]
        assert "imported" in rows["game-2"] and "playing" in rows["game-3"]
        # the game being played, from the database
        wait(browser, lambda d: d.find_element(By.ID, "game").is_displayed(), what="the live game")
        state = facts["playing"]
        assert browser.find_element(By.ID, "game-turn").text == f"P{state.current_player() + 1}: take a die"
        # the page draws the dice again at every poll (700 ms): a face read during it is stale, read again
        faces = wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#game-dice .face")] or None,
                     what="the dice")
        assert faces == [str(facts["roll"]["c"])] + [str(w) for w in facts["roll"]["w"]]
        charts = browser.find_elements(By.CSS_SELECTOR, "img.chart")
        assert len(charts) == 4
        for chart in charts:
            wait(browser, lambda d, c=chart: loaded(d, c), 60, f"the chart {chart.get_attribute('src')}")
        # the coach's analysis of game 3 (its 3 turns so far: a second), made by the server in a
        # process of its own, which it starts first: the script says the coach is at it and asks
        # again after each Retry-After until it is there, then lists its losses and loads the chart
        browser.get(web.url + "game/3")
        wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-coached") is not None, 120,
             "the coach's analysis on game 3's page")
        assert "Thresholds" in browser.find_element(By.ID, "coach-note").text
        wait(browser, lambda d: loaded(d, d.find_element(By.ID, "coach-chart")), 60, "the coach's chart")
        browser.get(web.url)
        # one game: its sheets, and its names set in the form
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#game-2 a"), what="the games table again").click()
        wait(browser, lambda d: d.find_elements(By.ID, "one-game"), what="game 2's page")
        sheets = browser.find_elements(By.CSS_SELECTOR, "img.sheet")
        assert len(sheets) == 3
        for sheet in sheets:
            wait(browser, lambda d, s=sheet: loaded(d, s), 60, f"the sheet {sheet.get_attribute('src')}")
        assert "Li" in browser.find_element(By.ID, "table").text
        seat = browser.find_element(By.ID, "seat-1")
        seat.clear()
        seat.send_keys("Lin")
        browser.find_element(By.ID, "names-save").click()

        def names(_) -> list:
            with sqlite3.connect(db) as c:
                return c.execute("SELECT name FROM players WHERE game=2 ORDER BY seat").fetchall()

        wait(browser, lambda d: names(d) == [("Lin",), ("Mei",), ("Tao",)], what="the names stored")
        wait(browser, lambda d: "Lin " in d.find_element(By.ID, "table").text, what="the page again, with Lin")
        assert "Lin" in browser.find_element(By.CSS_SELECTOR, "img.sheet").get_attribute("alt")
    finally:
        assert web.stop() == 130, web.log.read_text()


def test_the_league_link_and_a_read_only_page_and_the_token_that_unlocks_writes(browser, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "games.sqlite3"
    make_db(db)
    web = Command(tmp_path / "web.log", "web", "--db", str(db), "--port", "0", "--host", "0.0.0.0",
                  env={"DOODLEBOX_WEB_TOKEN": ""})
    try:
        browser.get(web.url)
        wait(browser, lambda d: d.find_element(By.ID, "read-only").is_displayed(), what="the read-only note")
        browser.find_element(By.ID, "league-link").click()
        wait(browser, lambda d: d.find_elements(By.ID, "league"), what="the league's page")
        assert browser.find_elements(By.CSS_SELECTOR, "table.standings") or browser.find_elements(By.ID, "no-league")
        browser.get(web.url + "game/2")
        wait(browser, lambda d: d.find_elements(By.ID, "one-game"), what="game 2's page")
        assert not browser.find_elements(By.ID, "names-save")
        assert not browser.find_element(By.ID, "seat-1").is_enabled()
    finally:
        assert web.stop() == 130, web.log.read_text()
    assert "warning: the page is reachable from the network" in web.log.read_text()
    token = "a-token-for-the-browser-test"
    web = Command(tmp_path / "web2.log", "web", "--db", str(db), "--port", "0", "--token", token)
    try:
        browser.get(web.url + "game/2")
        save = wait(browser, lambda d: d.find_element(By.ID, "names-save"), what="game 2's form")
        wait(browser, lambda d: not save.is_enabled(), what="the form locked until the token is given")
        # the coach starts no analysis without the token (403, said); once it is given, it does
        wait(browser, lambda d: "only for this page's token" in d.find_element(By.ID, "coach-note").text,
             what="the coach waiting for the token")
        browser.find_element(By.ID, "token").send_keys(token)
        browser.find_element(By.ID, "token-save").click()
        wait(browser, lambda d: d.find_element(By.ID, "names-save").is_enabled(), what="the form unlocked")
        wait(browser, lambda d: d.find_element(By.ID, "coach-note").text == "the coach is analysing this game...",
             what="the coach at work once the token is given")
        seat = browser.find_element(By.ID, "seat-1")
        seat.clear()
        seat.send_keys("Lin")
        browser.find_element(By.ID, "names-save").click()

        def names(_) -> list:
            with sqlite3.connect(db) as c:
                return c.execute("SELECT name FROM players WHERE game=2 ORDER BY seat").fetchall()

        wait(browser, lambda d: names(d) == [("Lin",), ("Mei",), ("Tao",)], what="the names stored with the token")
        # the page again (reloaded after the save): still unlocked, the token kept in this tab
        wait(browser, lambda d: "Lin " in d.find_element(By.ID, "table").text, what="the page again, with Lin")
        assert browser.find_element(By.ID, "names-save").is_enabled()
    finally:
        assert web.stop() == 130, web.log.read_text()


def test_clicks_on_the_page_press_the_virtual_console_and_its_claims_are_stored(browser, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "games.sqlite3"
    log = Command(tmp_path / "log.log", "log", "--cpython", "--seed", "5", "--db", str(db), "--web", "0",
                  env={"XDG_DATA_HOME": str(tmp_path / "data")})     # a fresh console's flash: its lobby's defaults
    feed = StoreFeed(db).start()
    clicks = 0

    def press(name: str) -> None:
        """A click on the page's button; the page says when the server has pressed it."""
        nonlocal clicks
        browser.find_element(By.ID, f"press-{name}").click()
        clicks += 1
        wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-pressed") == str(clicks),
             what=f"the page's press of {name}")
        time.sleep(PRESS_GAP_S)

    try:
        url = log.url
        log.wait_for(r"connected: console")
        browser.get(url)
        wait(browser, lambda d: d.find_element(By.ID, "panel").get_attribute("naturalWidth") == "592",
             what="the panel's picture")
        table = Table(press, feed.events, seed=11, lobby=dict(DEFAULT_LOBBY), timeout=30)
        seen = table.play_game("city", 3, refuse_once=False, stop_after_round=2)
    finally:
        feed.stop()
    try:
        # every claim the console sent for round 1 is stored, as the rules engine made it
        claims = [e for e in seen if e["k"] == "claim"]
        assert claims, [e["k"] for e in seen]
        with sqlite3.connect(db) as c:
            stored = [row[0] for row in c.execute("SELECT body FROM events WHERE kind='claim' ORDER BY seq")]
            kinds = [row[0] for row in c.execute("SELECT kind FROM events ORDER BY seq")]
        assert [json.loads(b) for b in stored] == claims
        assert kinds[:7] == ["game"] + ["start"] * 5 + ["roll"]
        assert clicks >= 1 + 5 + 1 + 3
        # the page shows the roll stored: the LED dice and the game's dice
        roll = next(e for e in reversed(seen) if e["k"] == "roll")
        want = [str(roll["c"])] + [str(w) for w in roll["w"]]
        wait(browser, lambda d: [d.find_element(By.ID, f"die-{k}").get_attribute("data-face")
                                 for k in range(len(want))] == want, 20, f"the LED dice showing {want}")
        wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#game-dice .face")] == want,
             20, "the game's dice")
        wait(browser, lambda d: d.find_element(By.ID, "game-turn").text == "ROLL: round 3's dice", 20,
             "round 2 over")                            # the round to come (ruling V1)
        assert browser.find_element(By.ID, "game-round").text == "3"
    finally:
        code = log.stop()
    assert code == 130, log.log.read_text()
    text = log.log.read_text()
    assert "Traceback" not in text and "virtual console stopped" not in text, text
