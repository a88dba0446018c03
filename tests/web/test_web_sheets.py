"""The sheet editor's answers (web/sheets.py, docs/web.md "The sheet editor"), through the page's
server in this process (its WSGI application, called without a socket): the library listed, a
sheet's data, every problem `layout check` finds with its place, the picture of a sheet without
problems only, and a save into the library refused (a name that is not one, a default's name, a
sheet with problems, a name taken without `replace`: nothing stored) or done, and refused on a
read-only page as every write is. "Played at this table": what each game plays listed, a sheet
chosen (POST /api/sheets/use) and the default again, a choice refused (no such sheet, a name that
is not one, a sheet that cannot be used: 400, nothing changed), a sheet chosen then replaced by
another game's said, a table's file that cannot be read said, and a choice refused on a read-only
page and without the token as every write is. The library is in a folder of the test's own
(XDG_DATA_HOME)."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from doodlebox.rules.deadly import maps
from doodlebox.rules.deadly import render as deadly_render
from doodlebox.rules.dice import layout
from doodlebox.rules.dice import render as dice_render
from doodlebox.sheets import library
from doodlebox.store import Store
from doodlebox.web.server import MAX_BODY, WebServer

TOKEN = "a-token-for-the-sheet-tests"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "doodlebox"


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "games.sqlite3"
    Store(path).close()
    return path


@pytest.fixture
def server(db):
    web = WebServer(db, 0)          # not started: its WSGI application is called directly
    yield web
    web.stop()


def call(web: WebServer, method: str, path: str, body=None, headers: dict | None = None,
         raw: bytes | None = None) -> tuple[int, dict, bytes]:
    """One request through the server's WSGI application: (status, headers, body)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "REQUEST_URI": path, "REMOTE_ADDR": "127.0.0.1",
               "HTTP_HOST": f"127.0.0.1:{web.port}", "wsgi.input": io.BytesIO(data)}
    if method == "POST":
        environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(data)))
    for k, v in (headers or {}).items():
        environ[k] = v
    answer: dict = {}

    def start_response(status: str, head: list) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(head)

    out = b"".join(web._wsgi(environ, start_response))
    return answer["status"], answer["headers"], out


def get_json(web: WebServer, path: str):
    status, _, body = call(web, "GET", path)
    return status, json.loads(body)


def post(web: WebServer, path: str, body, headers: dict | None = None) -> tuple[int, dict]:
    status, _, out = call(web, "POST", path, body, headers)
    return status, json.loads(out)


def city() -> dict:
    return json.loads(layout.default_path("city").read_text())


def side_a() -> dict:
    return json.loads(maps.default_path("a").read_text())


def mine(**change) -> dict:
    """City's sheet as a table transcribed it: no longer a reconstruction, a start square moved,
    a plain square made a hotel, a house square's houses, a track's value and a legend's face."""
    data = city()
    del data["reconstructed"]
    data["name"] = "Our Town"
    for sq in data["squares"]:
        if sq["at"] == [1, 3]:
            del sq["start"]
        if sq["at"] == [3, 3]:
            sq["start"] = True
        if sq["at"] == [4, 4]:
            sq["houses"] = 4
    data["squares"].append({"at": [1, 5], "kind": "hotel"})
    data["tracks"]["hotel"]["values"][0] = 2
    data["legend"]["1"] = "NS"
    data.update(change)
    return data


def places(problems: list[dict]) -> list[str]:
    return [p["place"] for p in problems]


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as im:
        return im.size


def test_the_library_is_listed_with_what_the_editor_offers(server):
    status, got = get_json(server, "/api/sheets")
    assert status == 200
    names = [s["name"] for s in got["sheets"]]
    assert names == ["city", "suzhou", "treasures", "shanghai", "monsters", "deadly-a", "deadly-b"]
    first = got["sheets"][0]
    assert first == {"name": "city", "what": "city sheet", "kind": "sheet", "edition": "city", "title": "Doodle City",
                     "hash": library.sheet_hash(city()), "default": True,
                     "source": "reconstruction (doodlebox's default)", "problem": "", "readable": True}
    editor = got["editor"]
    assert editor["kinds"] == list(layout.KINDS) and editor["pieces"] == list(layout.PIECES)
    assert editor["edition_kinds"]["city"] == ["plain", "house", "hotel", "shop", "taxi"]
    assert editor["edition_kinds"]["monsters"] == ["plain", "hotel", "taxi", "bus", "skyscraper", "park"]
    assert editor["pairs"] == "ABCDEF" and editor["tracks"] == ["hotel", "shop", "skyscraper"]
    status, data = get_json(server, "/api/sheets/city")
    assert status == 200 and data == city()
    status, data = get_json(server, "/api/sheets/deadly-a")
    assert status == 200 and data == side_a()
    status, data = get_json(server, "/api/sheets/nothing-here")
    assert status == 404 and "no sheet 'nothing-here'" in data["error"]


def test_a_default_has_no_problems_and_its_picture_is_the_blank_sheet(server):
    for data, canvas in ((city(), dice_render.blank_canvas(layout.load("city"), "x", "y")),
                         (side_a(), deadly_render.blank_canvas(maps.load("a"), "x", "y"))):
        status, got = post(server, "/api/sheets/check", {"data": data})
        digest = library.sheet_hash(data)
        assert status == 200 and got["problems"] == [] and got["hash"] == digest
        assert got["preview"] == f"/api/sheets/preview/{digest}.png"
        status, headers, png = call(server, "GET", got["preview"])
        assert status == 200 and headers["Content-Type"] == "image/png"
        assert png_size(png) == (canvas.width, canvas.height)
    assert "layout for Doodle City" in post(server, "/api/sheets/check", {"data": city()})[1]["what"]


def test_a_spoilt_sheet_has_every_problem_with_its_place_and_no_picture(server):
    data = city()
    data["squares"][0]["kind"] = "hotl"                     # (1, 1)
    data["squares"][2]["precrossed"] = 4                      # (1, 3): 4 of 4 houses
    next(sq for sq in data["squares"] if sq["at"] == [2, 5])["start"] = False      # column 5 has none
    data["tracks"]["hotel"]["values"][1] = "x"
    data["legend"]["1"] = "XX"
    data["end"]["shop"] = 11
    status, got = post(server, "/api/sheets/check", {"data": data})
    assert status == 200 and got["what"] == "sheet layout" and got["preview"] is None
    assert sorted(places(got["problems"])) == sorted([
        "squares[0].kind", "squares[2].precrossed", "squares", "tracks.hotel.values[1]", "legend.1", "end.shop"])
    texts = {p["place"]: p["text"] for p in got["problems"]}
    assert "no start square in column 5" in texts["squares"]
    assert "4 of 4 houses cannot be pre-crossed" in texts["squares[2].precrossed"]
    status, _, body = call(server, "GET", f"/api/sheets/preview/{got['hash']}.png")
    assert status == 404 and "check it again" in json.loads(body)["error"]
    # a map side: the Dragon in a Loot room, a wall between rooms that do not meet, 5 entryways
    side = side_a()
    side["dragon"] = "D1"
    side["walls"].append(["A1", "C1"])
    side["entryways"].pop()
    status, got = post(server, "/api/sheets/check", {"data": side})
    assert status == 200 and got["what"] == "Deadly Doodles map" and got["preview"] is None
    assert sorted(places(got["problems"])) == ["dragon", "entryways", f"walls[{len(side['walls']) - 1}]"]
    # a deck is no sheet; nothing at all is not either
    deck = json.loads((maps.default_path("a").parent / "deadly-deck.json").read_text())
    status, got = post(server, "/api/sheets/check", {"data": deck})
    assert places(got["problems"]) == ["format"]
    status, got = post(server, "/api/sheets/check", {"sheet": {}})
    assert status == 400 and "give the sheet" in got["error"]


def test_a_sheet_saved_is_in_the_library_with_where_it_came_from(server, data_home):
    data = mine()
    body = {"name": "our-town", "data": data, "replace": False, "start": "city"}
    status, got = post(server, "/api/sheets/save", body)
    assert status == 200, got
    assert got["saved"] == "our-town" and got["hash"] == library.sheet_hash(data)
    sheet = library.find("our-town")
    assert sheet.data == data and sheet.title == "Our Town" and not sheet.default
    assert sheet.source.startswith("the page's editor (from city), added ")
    assert json.loads((data_home / "sheets" / "our-town.json").read_text()) == data
    # listed, and its data served to start from
    assert "our-town" in [s["name"] for s in get_json(server, "/api/sheets")[1]["sheets"]]
    assert get_json(server, "/api/sheets/our-town") == (200, data)
    # the name taken: 409 without replace (the page asks), replaced with it
    again = mine(trees=12)
    status, got = post(server, "/api/sheets/save", body | {"data": again})
    assert status == 409 and "in the library already" in got["error"]
    assert library.find("our-town").data["trees"] == 10
    status, got = post(server, "/api/sheets/save", {"name": "our-town", "data": again, "replace": True,
                                                    "start": "our-town"})
    assert status == 200 and library.find("our-town").data["trees"] == 12
    assert library.find("our-town").source.startswith("the page's editor (from our-town)")
    # a map side
    side = side_a()
    del side["reconstructed"]
    side["dragon"], side["loot"] = "B3", ["D1", "A3", "F4", "B6"]
    status, got = post(server, "/api/sheets/save", {"name": "our-map", "data": side, "replace": False,
                                                    "start": "deadly-a"})
    assert status == 200 and library.find("our-map").what == "Deadly Doodles map side"


@pytest.mark.parametrize(("name", "data", "why"), [
    ("Our Town", mine(), "is not a sheet's name"),
    ("", mine(), "is not a sheet's name"),
    ("a-name-much-too-long", mine(), "is not a sheet's name"),
    ("city", mine(), "is a default's name"),
    ("deadly-a", mine(), "is a default's name"),
    ("library", mine(), "the library's own file library.json"),
    ("our-town", mine(trees=0), "1 problem(s): not saved (trees: 0 is below 1)"),
    ("our-town", side_a() | {"dragon": "D1"}, "problem(s): not saved"),
])
def test_a_save_refused_stores_nothing(server, data_home, name, data, why):
    status, got = post(server, "/api/sheets/save", {"name": name, "data": data, "replace": True, "start": "city"})
    assert status == 400 and why in got["error"], got
    assert [s.name for s in library.sheets()] == list(library.DEFAULTS)
    assert not (data_home / "sheets").exists()


def test_a_save_that_is_not_the_editors_is_refused(server):
    for body in ({"name": "x", "data": mine()},                                  # no start
                 {"name": "x", "data": mine(), "start": "../etc"},
                 {"name": 3, "data": mine(), "start": "city"},
                 {"name": "x", "start": "city"},
                 {"name": "x", "data": mine(), "replace": "yes", "start": "city"}):
        status, got = post(server, "/api/sheets/save", body)
        assert status == 400 and got["error"], body
    assert [s.name for s in library.sheets()] == list(library.DEFAULTS)


def test_the_posts_go_through_the_servers_checks(server):
    body = json.dumps({"data": city()}).encode()
    status, _, out = call(server, "POST", "/api/sheets/check", raw=body, headers={"HTTP_ORIGIN": "http://evil.example"})
    assert status == 403 and b"only the page itself may post" in out
    status, _, _ = call(server, "POST", "/api/sheets/check", raw=body, headers={"CONTENT_TYPE": "text/plain"})
    assert status == 415
    big = json.dumps({"data": city(), "padding": "x" * MAX_BODY}).encode()
    status, _, _ = call(server, "POST", "/api/sheets/save", raw=big)
    assert status == 413
    status, _, _ = call(server, "POST", "/api/sheets/check", raw=b"[" * 40 + b"]" * 40)
    assert status == 400
    # the fullest sheet the editor makes (every square of a 6x6 grid a house square with a start
    # flag, the longest name its field takes; changed, so without the reconstruction's note) is
    # sent, as the page sends it, within the limit
    full = json.loads(layout.default_path("shanghai").read_text())
    del full["reconstructed"]
    full["name"] = "x" * 80
    full["squares"] = [{"at": [r, c], "kind": "house", "houses": 9, "precrossed": 8, "start": True}
                       for r in range(1, 7) for c in range(1, 7)]
    sent = json.dumps({"name": "a-name-of-sixteen", "data": full, "replace": False, "start": "shanghai"},
                      separators=(",", ":"))
    assert len(sent.encode()) <= MAX_BODY, len(sent)


def test_the_page_and_its_script(server):
    status, headers, body = call(server, "GET", "/sheets")
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<script src="/static/sheets.js" defer></script>' in page
    assert 'id="sheet-editor"' in page and f'data-max-body="{MAX_BODY}"' in page
    assert 'id="save"' in page and 'id="sheets-link" href="/sheets"' in page
    status, headers, body = call(server, "GET", "/static/sheets.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript") and b"layout check" in body
    status, _, body = call(server, "GET", "/")
    assert status == 200 and b'id="sheets-link" href="/sheets"' in body


def test_a_read_only_page_shows_the_editor_but_saves_nothing(db, data_home):
    web = WebServer(db, 0, host="0.0.0.0")
    try:
        assert web.writes == "closed"
        status, _, body = call(web, "GET", "/sheets")
        page = body.decode()
        assert status == 200 and 'id="sheet-editor"' in page and 'id="save-read-only"' in page
        assert 'id="save"' not in page and 'id="save-form"' not in page
        assert post(web, "/api/sheets/check", {"data": city()})[0] == 200      # checking writes nothing
        status, got = post(web, "/api/sheets/save", {"name": "our-town", "data": mine(), "start": "city"})
        names_status, names = post(web, "/api/names", {"game": 1, "names": ["Ann"]})
        assert status == names_status == 403 and got["error"] == names["error"]
        assert "read-only" in got["error"]
        assert not (data_home / "sheets").exists()
    finally:
        web.stop()


def test_with_a_token_only_the_token_saves(db):
    web = WebServer(db, 0, token=TOKEN)
    try:
        status, _, body = call(web, "GET", "/sheets")
        assert 'id="save" class="write"' in body.decode()
        save = {"name": "our-town", "data": mine(), "start": "city"}
        assert post(web, "/api/sheets/save", save)[0] == 403
        assert post(web, "/api/sheets/save", save, {"HTTP_AUTHORIZATION": "Bearer not-the-token-at-all"})[0] == 403
        assert [s.name for s in library.sheets()] == list(library.DEFAULTS)
        status, got = post(web, "/api/sheets/save", save, {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"})
        assert status == 200 and got["saved"] == "our-town"
    finally:
        web.stop()


# -- played at this table: the sheet each game is played on (POST /api/sheets/use) ---------------
GAMES = ["city", "suzhou", "treasures", "shanghai", "monsters", "deadly"]


def played(web: WebServer) -> dict[str, dict]:
    """{game: its row} of the table as GET /api/sheets lists it."""
    status, got = get_json(web, "/api/sheets")
    assert status == 200 and got["table"]["problem"] == ""
    return {g["game"]: g for g in got["table"]["games"]}


def test_the_listing_says_what_each_game_is_played_on(server):
    table = played(server)
    assert list(table) == GAMES
    assert table["city"] == {"game": "city", "title": "Doodle City", "name": None, "default": True, "at": None,
                             "chosen": "", "plays": "the default (doodlebox's reconstruction)", "problem": "",
                             "defaults": ["city"], "sheets": []}
    assert table["deadly"]["title"] == "Deadly Doodles" and table["deadly"]["defaults"] == ["deadly-a", "deadly-b"]
    assert "printed map sides" in table["deadly"]["plays"]
    assert table["treasures"]["title"] == "Doodle Islands: Sea of Treasures"


def test_a_sheet_chosen_is_what_the_table_plays_and_the_default_again(server):
    data = mine()
    assert post(server, "/api/sheets/save", {"name": "our-town", "data": data, "start": "city"})[0] == 200
    digest = library.sheet_hash(data)
    # the sheet just saved is offered for its game only
    table = played(server)
    assert table["city"]["sheets"] == [{"name": "our-town", "title": "Our Town", "hash": digest}]
    assert all(table[g]["sheets"] == [] for g in GAMES if g != "city")
    status, got = post(server, "/api/sheets/use", {"name": "our-town"})
    assert status == 200, got
    assert (got["game"], got["name"], got["default"]) == ("city", "our-town", False)
    assert got["plays"] == f"our-town (Our Town, hash {digest})"
    assert library.choices()["city"][0] == "our-town"
    row = played(server)["city"]
    assert row["name"] == "our-town" and not row["default"] and row["plays"] == got["plays"]
    assert row["at"] == library.choices()["city"][1] and row["chosen"]
    assert got["table"]["games"][0] == row
    assert all(played(server)[g]["default"] for g in GAMES if g != "city")
    # the default again: its name
    status, got = post(server, "/api/sheets/use", {"name": "city"})
    assert status == 200 and got["default"] and got["plays"] == "the default (doodlebox's reconstruction)"
    assert library.choices()["city"][0] == "city"
    row = played(server)["city"]
    assert row["name"] == "city" and row["default"]
    # Deadly Doodles: either printed side is the default (the sides chosen in the lobby)
    status, got = post(server, "/api/sheets/use", {"name": "deadly-b"})
    assert status == 200 and got["game"] == "deadly" and got["default"]
    assert library.choices()["deadly"][0] == "deadly-b" and played(server)["deadly"]["default"]


def test_a_choice_refused_changes_nothing(server, data_home):
    assert post(server, "/api/sheets/use", {"name": "suzhou"})[0] == 200
    before = library.choices()
    status, got = post(server, "/api/sheets/use", {"name": "no-such-sheet"})
    assert status == 400 and got["error"] == "no sheet 'no-such-sheet' in the library: choose one of the sheets " \
                                             "listed (doodlebox sheets)"
    for body, why in (({"name": "Our Town"}, "is not a sheet's name"), ({"name": ""}, "is not a sheet's name"),
                      ({"name": 3}, 'give the sheet as {"name": "our-town"}'),
                      ({"sheet": "city"}, 'give the sheet as {"name": "our-town"}')):
        status, got = post(server, "/api/sheets/use", body)
        assert status == 400 and why in got["error"], body
    # a file of the library's folder that it does not name: listed with its problem, never chosen
    (data_home / "sheets" / "stray.json").write_text(json.dumps(mine()))
    status, got = post(server, "/api/sheets/use", {"name": "stray"})
    assert status == 400 and "sheet 'stray' cannot be used: not in library.json" in got["error"]
    assert library.choices() == before


def test_a_sheet_replaced_by_another_games_is_said(server):
    assert post(server, "/api/sheets/save", {"name": "ours", "data": mine(), "start": "city"})[0] == 200
    assert post(server, "/api/sheets/use", {"name": "ours"})[0] == 200
    side = side_a()
    del side["reconstructed"]
    status, _ = post(server, "/api/sheets/save", {"name": "ours", "data": side, "replace": True, "start": "deadly-a"})
    assert status == 200
    row = played(server)["city"]
    assert row["name"] == "ours" and row["problem"] == ("ours is now a Deadly Doodles map side (replaced since it "
                                                        "was chosen): choose again")


def test_a_table_file_that_cannot_be_read_is_said_and_the_editor_still_lists(server, data_home):
    (data_home / "sheets").mkdir(parents=True)
    (data_home / "sheets" / "table.json").write_text("{not json")
    status, got = get_json(server, "/api/sheets")
    assert status == 200 and len(got["sheets"]) == 7
    assert "table.json: cannot be read" in got["table"]["problem"]
    assert all(g["default"] for g in got["table"]["games"])


def test_the_page_has_the_tables_choices(server):
    page = call(server, "GET", "/sheets")[2].decode()
    assert page.index('id="table-sheets"') < page.index('id="sheet-editor"')
    assert "<h2>Played at this table</h2>" in page
    assert ("A console attached to <code>doodlebox log</code> is sent the chosen sheet when it next says hello"
            in page)
    for game in GAMES:
        assert f'id="plays-{game}"' in page and f'<select id="use-{game}" class="write">' in page
    assert 'id="use-read-only"' not in page


def test_a_read_only_page_shows_the_choices_but_chooses_nothing(db):
    web = WebServer(db, 0, host="0.0.0.0")
    try:
        page = call(web, "GET", "/sheets")[2].decode()
        assert 'id="plays-city"' in page and 'id="use-read-only"' in page and 'id="use-city"' not in page
        status, got = post(web, "/api/sheets/use", {"name": "suzhou"})
        names_status, names = post(web, "/api/names", {"game": 1, "names": ["Ann"]})
        assert status == names_status == 403 and got["error"] == names["error"] and "read-only" in got["error"]
        assert library.choices() == {}
        assert get_json(web, "/api/sheets")[1]["table"]["games"][1]["default"]      # reading it is no write
    finally:
        web.stop()


def test_with_a_token_only_the_token_chooses(db):
    web = WebServer(db, 0, token=TOKEN)
    try:
        page = call(web, "GET", "/sheets")[2].decode()
        assert '<button type="submit" id="use-save-city" class="write">' in page
        choose = {"name": "suzhou"}
        status, got = post(web, "/api/sheets/use", choose)
        save_status, saved = post(web, "/api/sheets/save", {"name": "our-town", "data": mine(), "start": "city"})
        assert status == save_status == 403 and got["error"] == saved["error"]
        assert post(web, "/api/sheets/use", choose, {"HTTP_AUTHORIZATION": "Bearer not-the-token-at-all"})[0] == 403
        assert post(web, "/api/sheets/use", choose, {"HTTP_AUTHORIZATION": f"Basic {TOKEN}"})[0] == 403
        assert library.choices() == {}
        status, got = post(web, "/api/sheets/use", choose, {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"})
        assert status == 200 and got["game"] == "suzhou" and library.choices()["suzhou"][0] == "suzhou"
    finally:
        web.stop()
