"""The sheet editor in a real browser (Debian's headless Chromium through Selenium, as
tests/web/test_web.py drives it): `doodlebox web` as its own process, its library in a folder of
the test's own (XDG_DATA_HOME). A person starts from City's sheet, clicks squares (a start square
moved, a plain square made a hotel, a house square's houses), changes a track's value and a
legend's face, sees a problem appear at its square and go when it is mended, saves the sheet
under a name, and `doodlebox sheets` lists it and `sheets export` has every change; the same for
a Deadly Doodles map side (the Dragon moved, a wall, an entryway moved). "Played at this table",
on a page with a token: greyed until the token is given, a sheet saved in the editor offered for
its game at once, chosen by clicks, then the default again, and `doodlebox sheets` (library.choices())
names each choice. The page never scrolls sideways at 390 or 1280 pixels wide (screenshots in
/tmp/sheets-390.png and /tmp/sheets-1280.png; with a sheet chosen, /tmp/sheets-use-390.png and
/tmp/sheets-use-1280.png)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import ENV
from test_web import Command, browser, wait  # noqa: F401  (browser: the fixture)

from doodlebox.store import Store

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)

SHOTS = {390: Path("/tmp/sheets-390.png"), 1280: Path("/tmp/sheets-1280.png")}


@pytest.fixture
def site(tmp_path):
    """`doodlebox web` on an empty database, the library in tmp_path/data: (its URL, the data folder)."""
    db = tmp_path / "games.sqlite3"
    Store(db).close()
    data = tmp_path / "data"
    web = Command(tmp_path / "web.log", "web", "--db", str(db), "--port", "0", env={"XDG_DATA_HOME": str(data)})
    try:
        yield web.url, data
    finally:
        assert web.stop() == 130, web.log.read_text()


def sheets_command(data: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "doodlebox.cli", "sheets", *args], capture_output=True, text=True,
                          env=dict(ENV, XDG_DATA_HOME=str(data)), timeout=60, stdin=subprocess.DEVNULL)


def exported(data: Path, name: str, tmp: Path) -> dict:
    out = tmp / f"{name}.json"
    done = sheets_command(data, "export", name, "-o", str(out))
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def editor(driver):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, "editor")


def checked(driver, problems: int, what: str = "") -> None:
    """Until the server has checked the sheet as it is now and found `problems` problems."""
    wait(driver, lambda d: editor(d).get_attribute("data-pending") == "0"
         and editor(d).get_attribute("data-problems") == str(problems), 20,
         what or f"the sheet checked with {problems} problem(s)")


def start_from(driver, url: str | None, name: str) -> None:
    """The editor started from the sheet `name` (on the page at `url`, loaded first; None: the page
    as it is)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if url is not None:
        driver.get(url + "sheets")
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-library"), what="the library")
    Select(driver.find_element(By.ID, "start-from")).select_by_value(name)
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: editor(d).is_displayed() and editor(d).get_attribute("data-start") == name,
         what=f"the editor started from {name}")
    checked(driver, 0, f"{name} checked without problems")


def typed(driver, element_id: str, text: str) -> None:
    """`text` typed into a field in place of what it held (as a person selects it and types)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    field = driver.find_element(By.ID, element_id)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text)


def save(driver, name: str) -> None:
    from selenium.webdriver.common.by import By

    typed(driver, "save-name", name)
    driver.find_element(By.ID, "save").click()
    wait(driver, lambda d: d.find_element(By.ID, "save-note").get_attribute("data-saved") == name,
         what=f"the sheet saved as {name}")


def picture_drawn(driver) -> None:
    from selenium.webdriver.common.by import By

    wait(driver, lambda d: d.execute_script(
        "const i = arguments[0]; return !i.hidden && i.complete && i.naturalWidth > 0 && "
        "i.getAttribute('src').indexOf(document.getElementById('problem-count').textContent.match("
        "/hash ([0-9a-f]{12})/)[1]) >= 0", d.find_element(By.ID, "preview")), 20, "the picture of the sheet")


def fits(driver, width: int, shots: dict[int, Path] = SHOTS) -> None:
    """At `width` pixels wide the page does not scroll sideways; its screenshot is kept (in shots[width])."""
    driver.set_window_size(width, 1600)
    wait(driver, lambda d: d.execute_script("return window.innerWidth") == width, what=f"a window {width} wide")
    scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"{width} px wide: the page is {scroll} px wide"
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(shots[width]))


def test_a_sheet_made_by_clicks_is_saved_and_listed(browser, site, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    url, data = site
    browser.set_window_size(1280, 1600)
    start_from(browser, url, "city")
    assert "kept while it is unchanged" in browser.find_element(By.ID, "reconstructed-note").text
    picture_drawn(browser)

    def click(element_id: str) -> None:
        browser.find_element(By.ID, element_id).click()

    # by the keyboard: the grid is one stop of Tab, its arrows move, Enter chooses a square
    assert browser.find_element(By.ID, "sq-1-1").get_attribute("tabindex") == "0"
    assert browser.find_element(By.ID, "sq-2-2").get_attribute("tabindex") == "-1"
    browser.find_element(By.ID, "sq-1-1").send_keys(Keys.ARROW_RIGHT)
    browser.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element.get_attribute("id") == "sq-2-2"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "square-title").text == "The square in row 2, column 2"
    label = browser.find_element(By.ID, "sq-2-2").get_attribute("aria-label")
    assert label == "row 2, column 2: shop" and browser.find_element(By.CSS_SELECTOR, "label[for=sq-kind]").text

    # the start square of column 3 moved from row 1 to row 3: while column 3 has none, the
    # problem is shown at the grid
    click("sq-1-3")
    assert browser.find_element(By.ID, "square-title").text == "The square in row 1, column 3"
    click("sq-start")
    checked(browser, 1)
    assert "no start square in column 3" in browser.find_element(By.ID, "p-grid").text
    assert "dropped" in browser.find_element(By.ID, "reconstructed-note").text
    assert not browser.find_element(By.ID, "preview").is_displayed()
    assert "waits for the problem" in browser.find_element(By.ID, "preview-note").text
    click("sq-3-3")
    click("sq-start")
    checked(browser, 0)
    assert browser.find_element(By.ID, "p-grid").text == ""
    # a plain square made a hotel
    click("sq-1-5")
    Select(browser.find_element(By.ID, "sq-kind")).select_by_value("hotel")
    checked(browser, 0)
    assert browser.find_element(By.ID, "sq-1-5").get_attribute("data-kind") == "hotel"
    # a house square's houses: one house with one crossed in print is a problem at that square,
    # gone once it has four
    click("sq-4-4")
    typed(browser, "sq-houses", "1")
    checked(browser, 1)
    square = browser.find_element(By.ID, "sq-4-4")
    assert "bad" in square.get_attribute("class").split()
    assert "1 of 1 houses cannot be pre-crossed" in square.get_attribute("aria-label")
    assert "cannot be pre-crossed" in browser.find_element(By.ID, "p-square").text
    assert "row 4, column 4" in browser.find_element(By.ID, "p-grid-cells").text
    assert browser.find_element(By.ID, "problems-unplaced").text == ""
    typed(browser, "sq-houses", "4")
    checked(browser, 0)
    assert "bad" not in browser.find_element(By.ID, "sq-4-4").get_attribute("class").split()
    assert browser.find_element(By.ID, "p-square").text == ""
    # a track's value (a value that is not one is a problem at its field) and a legend's face
    typed(browser, "track-hotel-values", "2 4 5 6 7 8 9 10 12 x")
    checked(browser, 2)      # x is no number, and 15 no longer a value: the end of the game
    assert "'x' is not a whole number" in browser.find_element(By.ID, "p-track-hotel").text
    assert "15 is not a value of the hotel track" in browser.find_element(By.ID, "p-end-hotel").text
    typed(browser, "track-hotel-values", "2 4 5 6 7 8 9 10 12 15")
    checked(browser, 0)
    Select(browser.find_element(By.ID, "legend-1")).select_by_value("NS")
    checked(browser, 0)
    picture_drawn(browser)
    save(browser, "our-town")
    # saved again under the same name: the page asks before replacing it
    click("sq-5-3")
    Select(browser.find_element(By.ID, "sq-kind")).select_by_value("shop")
    checked(browser, 0)
    browser.find_element(By.ID, "save").click()
    wait(browser, lambda d: d.find_element(By.ID, "replace-box").is_displayed(), what="asked before replacing")
    assert "in the library already" in browser.find_element(By.ID, "replace-text").text
    browser.execute_script("document.getElementById('save-note').dataset.saved = ''")
    click("replace-yes")
    wait(browser, lambda d: d.find_element(By.ID, "save-note").get_attribute("data-saved") == "our-town",
         what="the sheet replaced")

    listed = sheets_command(data)
    assert listed.returncode == 0, listed.stderr
    line = next(ln for ln in listed.stdout.splitlines() if " our-town " in f" {ln} ")
    assert "city sheet" in line and "the page's editor (from our-town)" in line
    sheet = exported(data, "our-town", tmp_path)
    at = {tuple(sq["at"]): sq for sq in sheet["squares"]}
    assert "start" not in at[(1, 3)] and at[(3, 3)] == {"at": [3, 3], "kind": "shop", "start": True}
    assert at[(1, 5)] == {"at": [1, 5], "kind": "hotel"} and at[(5, 3)] == {"at": [5, 3], "kind": "shop"}
    assert at[(4, 4)]["houses"] == 4 and at[(4, 4)]["precrossed"] == 1
    assert sheet["tracks"]["hotel"]["values"] == [2, 4, 5, 6, 7, 8, 9, 10, 12, 15]
    assert sheet["legend"]["1"] == "NS" and "reconstructed" not in sheet
    default = json.loads((Path(__file__).resolve().parents[2] / "host/doodlebox/layouts/doodle-city.json").read_text())
    kept = ("format", "edition", "name", "ruleset", "size", "names", "trees", "tree_points", "barrels", "bonuses",
            "groups", "end", "park", "extra_floors", "solo")
    assert {k: sheet[k] for k in kept} == {k: default[k] for k in kept}

    # the page on a phone and on a laptop: never wider than the window
    fits(browser, 390)
    fits(browser, 1280)


def test_a_map_side_made_by_clicks_is_saved_and_listed(browser, site, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    url, data = site
    browser.set_window_size(390, 1600)
    start_from(browser, url, "shanghai")          # then a map side on the same page: the sheet's editor goes
    start_from(browser, None, "deadly-a")
    assert not browser.find_elements(By.ID, "grid") and len(browser.find_elements(By.ID, "sheet-name")) == 1

    def click(element_id: str) -> None:
        browser.find_element(By.ID, element_id).click()

    # the Dragon moved from D3 to B3
    click("room-B3")
    Select(browser.find_element(By.ID, "room-content")).select_by_value("dragon")
    checked(browser, 0)
    assert browser.find_element(By.ID, "room-D3").get_attribute("data-content") == ""
    assert browser.find_element(By.ID, "room-B3").get_attribute("data-content") == "dragon"
    # Loot put in a Weapon's room takes the Weapon out of it: no Weapon A, five Loot rooms
    click("room-A1")
    Select(browser.find_element(By.ID, "room-content")).select_by_value("loot")
    checked(browser, 2)
    assert "no Weapon A" in browser.find_element(By.ID, "p-weapons").text
    assert "5 Loot rooms" in browser.find_element(By.ID, "p-loot").text
    Select(browser.find_element(By.ID, "room-content")).select_by_value("weapon:A")
    checked(browser, 0)
    # a wall between A1 and B1, and the entryway above B1 moved above A1
    click("wall-A1-B1")
    checked(browser, 0)
    assert browser.find_element(By.ID, "wall-A1-B1").get_attribute("aria-pressed") == "true"
    click("entry-B1-N")
    checked(browser, 1)
    assert "5 entryways" in browser.find_element(By.ID, "p-entryways").text
    click("entry-A1-N")
    checked(browser, 0)
    assert browser.find_element(By.ID, "p-entryways").text == ""
    picture_drawn(browser)
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the map's editor is {scroll} px wide in a window {inner} wide"
    browser.execute_script("document.getElementById('dungeon').scrollIntoView()")
    browser.save_screenshot("/tmp/sheets-map-390.png")
    save(browser, "our-map")

    listed = sheets_command(data)
    assert listed.returncode == 0, listed.stderr
    line = next(ln for ln in listed.stdout.splitlines() if " our-map " in f" {ln} ")
    assert "Deadly Doodles map side" in line and "the page's editor (from deadly-a)" in line
    side = exported(data, "our-map", tmp_path)
    assert side["dragon"] == "B3" and side["weapons"]["A"] == "A1"
    assert ["A1", "B1"] in side["walls"] and "reconstructed" not in side
    assert {"room": "A1", "side": "N"} in side["entryways"] and {"room": "B1", "side": "N"} not in side["entryways"]
    assert len(side["entryways"]) == 6 and sorted(side["loot"]) == ["A3", "B6", "D1", "F4"]


def test_a_read_only_page_edits_and_checks_but_saves_nothing(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    db = tmp_path / "games.sqlite3"
    Store(db).close()
    web = Command(tmp_path / "web.log", "web", "--db", str(db), "--port", "0", "--host", "0.0.0.0",
                  env={"XDG_DATA_HOME": str(tmp_path / "data"), "DOODLEBOX_WEB_TOKEN": ""})
    try:
        browser.set_window_size(1280, 1600)
        start_from(browser, web.url, "monsters")
        assert browser.find_element(By.ID, "save-read-only").is_displayed()
        assert not browser.find_elements(By.ID, "save") and not browser.find_elements(By.ID, "save-form")
        # the edition's own kinds first, in its words
        browser.find_element(By.ID, "sq-1-1").click()
        options = [o.text for o in Select(browser.find_element(By.ID, "sq-kind")).options]
        assert options[:6] == ["plain", "monster (hotel)", "schooner (taxi)", "galleon (bus)", "kraken (skyscraper)",
                               "breaker (park)"]
        browser.find_element(By.ID, "sq-1-1").click()
        Select(browser.find_element(By.ID, "sq-kind")).select_by_value("shop")
        checked(browser, 2)           # a shop square and no shop track; a shop beside schooners
        assert "no 'shop' track" in browser.find_element(By.ID, "p-tracks").text
        clash = "'shop' (shop) and 'schooner' (taxi) begin with one letter, S"
        assert clash in browser.find_element(By.ID, "sq-1-1").get_attribute("data-problem")
        browser.find_element(By.ID, "track-shop-on").click()
        checked(browser, 2)
        assert "a track needs values" in browser.find_element(By.ID, "p-track-shop").text
        browser.find_element(By.ID, "track-shop-values").send_keys("1 2 3")
        checked(browser, 1)           # the console's map could not tell the shop from a schooner
        assert clash in browser.find_element(By.ID, "sq-1-1").get_attribute("data-problem")
        browser.find_element(By.ID, "sq-1-1").click()
        Select(browser.find_element(By.ID, "sq-kind")).select_by_value("hotel")
        checked(browser, 0)
        picture_drawn(browser)
    finally:
        assert web.stop() == 130, web.log.read_text()
    assert not (tmp_path / "data" / "doodlebox" / "sheets").exists()


USE_SHOTS = {390: Path("/tmp/sheets-use-390.png"), 1280: Path("/tmp/sheets-use-1280.png")}


def choices(data: Path) -> dict:
    """library.choices() of the library in `data`, as its own process reads it."""
    done = subprocess.run([sys.executable, "-c", "import json; from doodlebox.sheets import library; "
                           "print(json.dumps(library.choices()))"], capture_output=True, text=True,
                          env=dict(ENV, XDG_DATA_HOME=str(data)), timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return {game: name for game, (name, _) in json.loads(done.stdout).items()}


def marked(data: Path) -> list[str]:
    """The sheets `doodlebox sheets` marks as the table's choice (*)."""
    listed = sheets_command(data)
    assert listed.returncode == 0, listed.stderr
    return [ln.split()[1] for ln in listed.stdout.splitlines()
            if ln.startswith("* ") and not ln.startswith("* the table's choice")]


def choose(driver, game: str, name: str, plays: str) -> None:
    """`name` chosen for `game` by clicks (its option, then Choose), until the page says the table
    plays `plays` ("" for the default)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    row = driver.find_element(By.ID, f"plays-{game}")
    done = row.get_attribute("data-done") or "0"
    Select(driver.find_element(By.ID, f"use-{game}")).select_by_value(name)
    driver.find_element(By.ID, f"use-save-{game}").click()
    wait(driver, lambda d: (d.find_element(By.ID, f"plays-{game}").get_attribute("data-done") or "0") != done,
         what=f"{name} chosen for {game}")
    assert row.get_attribute("data-plays") == plays, driver.find_element(By.ID, f"use-note-{game}").text


def test_the_table_plays_a_sheet_chosen_by_clicks(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    db = tmp_path / "games.sqlite3"
    Store(db).close()
    data = tmp_path / "data"
    token = "a-token-for-the-sheets-browser-test"
    web = Command(tmp_path / "web.log", "web", "--db", str(db), "--port", "0", "--token", token,
                  env={"XDG_DATA_HOME": str(data)})
    try:
        browser.set_window_size(1280, 1600)
        browser.get(web.url + "sheets")
        wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-library"), what="the library")
        # every game plays its default; the choice greyed until the token is given
        for game in ("city", "suzhou", "treasures", "shanghai", "monsters", "deadly"):
            assert browser.find_element(By.ID, f"plays-{game}").get_attribute("data-plays") == ""
            assert not browser.find_element(By.ID, f"use-{game}").is_enabled()
        assert browser.find_element(By.ID, "plays-now-city").text == "the default (doodlebox's reconstruction)"
        assert "printed map sides" in browser.find_element(By.ID, "plays-now-deadly").text
        assert "sent the chosen sheet when it next says hello" in browser.find_element(By.ID, "table-sheets").text
        browser.find_element(By.ID, "token").send_keys(token)
        browser.find_element(By.ID, "token-save").click()
        wait(browser, lambda d: d.find_element(By.ID, "use-city").is_enabled(), what="the choice unlocked")

        # a sheet made in the editor and saved is offered at once (no reload), for its game only
        start_from(browser, None, "city")
        typed(browser, "sheet-name", "Our Town")
        checked(browser, 0)
        save(browser, "our-town")
        wait(browser, lambda d: "our-town" in [o.get_attribute("value") for o in
                                               Select(d.find_element(By.ID, "use-city")).options],
             what="our-town offered for Doodle City")
        assert [o.get_attribute("value") for o in Select(browser.find_element(By.ID, "use-suzhou")).options] == \
            ["suzhou"]
        browser.execute_script("document.getElementById('table-sheets').scrollIntoView()")
        choose(browser, "city", "our-town", "our-town")
        assert browser.find_element(By.ID, "plays-now-city").text.startswith("our-town (Our Town, hash ")
        assert browser.find_element(By.ID, "plays-at-city").text.startswith("(chosen ")
        assert browser.find_element(By.ID, "use-note-city").text == "Chosen: our-town."
        assert choices(data) == {"city": "our-town"} and marked(data) == ["our-town"]
        # on a phone and a laptop, with a sheet chosen: never wider than the window
        fits(browser, 390, USE_SHOTS)
        fits(browser, 1280, USE_SHOTS)

        # the default again, and a second game's; the page as loaded again says the same
        choose(browser, "city", "city", "")
        assert browser.find_element(By.ID, "plays-now-city").text == "the default (doodlebox's reconstruction)"
        choose(browser, "deadly", "deadly-a", "")
        assert choices(data) == {"city": "city", "deadly": "deadly-a"} and marked(data) == ["city", "deadly-a"]
        choose(browser, "city", "our-town", "our-town")
        browser.refresh()
        wait(browser, lambda d: d.find_element(By.ID, "plays-city").get_attribute("data-plays") == "our-town",
             what="the choice shown after a reload")
        assert Select(browser.find_element(By.ID, "use-city")).first_selected_option.get_attribute("value") == \
            "our-town"
        assert choices(data) == {"city": "our-town", "deadly": "deadly-a"}
    finally:
        assert web.stop() == 130, web.log.read_text()
