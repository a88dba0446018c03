"""The table's sheets on the console (issue 35; docs/protocol.md, "The table's sheets"; docs/sheets.md,
"On the console"), under CPython (the App driven as board/loop.py drives it), with the PC's own
frames (doodlebox.sheets.console): chunks written to a file of their own and renamed into place
once whole and checked; out of order, torn by a power cut, spoilt on the way, a seventh; `use` and
`drop`; the lobby's choice; the game begun, resumed and closed on the table's sheet."""
from __future__ import annotations

import json

import pytest
from test_console_hint import UID, Table, same_table, table_script  # noqa: F401  (the fixture)

from doodle import link
from doodle.app import App
from doodle.flashlog import RamFlash
from doodlebox.rules.dice import layout
from doodlebox.sheets import console as console_form
from doodlebox.sheets import library


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def city_sheet(name="our-town", **change) -> library.Sheet:
    data = json.loads(layout.default_path("city").read_text())
    data.update(change, name=name)
    return library.add_data(data, name, "a test", replace=True)


class SheetTable(Table):
    def send(self, msg, settle=40):
        self.app.serial_in(link.encode(msg), self.now)
        self.step(settle)

    def said(self, kind):
        return [{k: v for k, v in m.items() if k != "v"} for m in self.sent if m["t"] == kind]

    def give(self, sheet, frames=None):
        """Every chunk of `sheet`, each once the console's `got` asks for it."""
        for f in frames if frames is not None else console_form.frames(sheet):
            self.send(f)
        return self.said("got")[-1]

    def held(self):
        return [h[0] + "/" + h[1] for h in self.said("sheets")[-1]["held"]]

    def files(self):
        return sorted(f for f in self.flash.files("sh/") if f != "sh/use")


def test_a_sheet_sent_in_chunks_is_held_chosen_shown_and_played():
    t = SheetTable()
    sheet = city_sheet(trees=12)
    frames = console_form.frames(sheet)
    assert len(frames) > 2                                       # several chunks: stop and wait
    t.send({"t": "hi"}, 200)
    assert [m["t"] for m in t.sent][:2] == ["hello", "sheets"]   # what it holds, after its hello
    assert t.said("sheets")[0] == {"t": "sheets", "held": [], "use": [], "at": 0}
    for i, f in enumerate(frames):
        t.send(f)
        assert t.said("got")[-1] == {"t": "got", "x": sheet.hash, "i": i + 1}
    assert t.held() == ["city/our-town"]
    assert t.files() == ["sh/city.our-town.%s.%s" % (sheet.hash, frames[0]["crc"])]   # nothing else left
    assert "Sheet: default   (MENU+PASS)" in t.app.screen()
    t.send({"t": "use", "ed": "city", "x": sheet.hash, "at": 1700000000})
    assert t.said("sheets")[-1]["use"] == [["city", 0]] and t.said("sheets")[-1]["at"] == 1700000000
    assert "Sheet: our-town   (MENU+PASS)" in t.app.screen()
    t.send({"t": "use", "ed": "city", "x": "", "at": 1600000000})   # an older choice: taken already
    assert "Sheet: our-town   (MENU+PASS)" in t.app.screen()
    t.press("D2")
    g = t.start()
    assert g.ed.TREES == 12 and g.ed.SH == "our-town"
    assert t.events("game")[0] == {"k": "game", "g": 1, "ed": "city", "n": 2, "var": "", "sh": "our-town",
                                   "sx": sheet.hash}
    assert t.app.own == sheet.hash


def test_two_games_chosen_with_the_same_at_are_both_taken():
    t = SheetTable()
    city = city_sheet()
    side = library.add_data(dict(json.loads(library.find("deadly-a").path.read_text()), name="Ours"), "our-map", "t")
    t.give(city)
    t.give(side)
    t.send({"t": "use", "ed": "city", "x": city.hash, "at": 7})
    t.send({"t": "use", "ed": "deadly", "x": side.hash, "at": 7})
    assert sorted(t.said("sheets")[-1]["use"]) == [["city", 0], ["deadly", 1]]


def test_a_chunk_out_of_order_is_answered_with_where_the_console_is_and_chunk_0_begins_again():
    t = SheetTable()
    sheet = city_sheet()
    frames = console_form.frames(sheet)
    t.send(frames[0])
    t.send(frames[2])                                            # chunk 1 lost on the way
    assert t.said("got")[-1]["i"] == 1
    t.send(frames[1])
    t.send(frames[0])                                            # the PC began again
    assert t.said("got")[-1]["i"] == 1
    assert t.give(sheet, frames[1:]) == {"t": "got", "x": sheet.hash, "i": len(frames)}
    assert t.held() == ["city/our-town"]


def test_a_chunk_torn_by_a_power_cut_is_cut_back_to_the_whole_chunks_and_asked_for_again():
    flash = RamFlash()
    t = SheetTable(flash)
    sheet = city_sheet()
    frames = console_form.frames(sheet)
    t.send(frames[0])
    flash.cut = 100                                              # chunk 1 written in part only
    t.send(frames[1])
    t = SheetTable(flash)                                        # the power back
    t.send(frames[2])
    assert t.said("got")[-1]["i"] == 1                           # the torn chunk is not counted
    assert t.give(sheet, frames[1:])["i"] == len(frames)
    assert t.held() == ["city/our-town"]
    assert flash.load(t.files()[0]) == console_form.content(sheet).decode()


def test_a_sheet_spoilt_on_the_way_is_never_kept_and_the_ones_held_stay():
    t = SheetTable()
    first = city_sheet("first")
    t.give(first)
    before = {f: t.flash.load(f) for f in t.files()}
    spoilt = city_sheet("first", trees=13)                       # a new one of the same name ...
    frames = console_form.frames(spoilt)
    frames[1] = dict(frames[1], d=frames[1]["d"][:-8] + "AAAAAAAA")   # ... a chunk spoilt on the way
    t.give(spoilt, frames)
    err = t.said("err")[-1]["why"]
    assert spoilt.hash in err and "checksum" in err and "not kept" in err
    assert {f: t.flash.load(f) for f in t.files()} == before    # the old one, whole; no part left
    lying = console_form.frames(city_sheet("other"))             # whole, but not of the game it names
    lying = [dict(f, ed="suzhou") for f in lying]
    t.give(None, lying)
    assert "not the sheet named" in t.said("err")[-1]["why"]
    assert {f: t.flash.load(f) for f in t.files()} == before


def test_a_seventh_sheet_is_refused_and_a_drop_makes_room():
    t = SheetTable()
    sheets = [city_sheet("s%d" % k, trees=10 + k) for k in range(7)]
    for s in sheets[:6]:
        t.give(s)
    assert len(t.held()) == 6
    t.give(sheets[6])
    assert "holds 6 sheets" in t.said("err")[-1]["why"] and len(t.files()) == 6
    t.send({"t": "drop", "x": sheets[0].hash})
    assert "city/s0" not in t.held() and len(t.files()) == 5
    t.give(sheets[6])
    assert "city/s6" in t.held()


def test_a_game_keeps_its_sheet_when_it_is_dropped_or_replaced_and_the_choice_follows_the_new_one():
    t = SheetTable()
    old = city_sheet("ours", trees=11)
    t.give(old)
    t.send({"t": "use", "ed": "city", "x": old.hash, "at": 5})
    t.press("D2")
    g = t.start()
    t.send({"t": "drop", "x": old.hash})
    assert old.hash in t.said("err")[-1]["why"] and "kept" in t.said("err")[-1]["why"]
    new = city_sheet("ours", trees=12)
    t.give(new)                                                  # the same name: replaces it, once the game is over
    assert sorted(t.held()) == ["city/ours", "city/ours"] and g.ed.TREES == 11
    t.press("MENU")
    t.press("ROLL", 300)                                         # "End game?" yes
    t.press("ROLL", 300)                                         # the final table: back to the lobby
    assert t.app.game is None and t.app.own == ""
    assert [f.split(".")[2] for f in t.files()] == [new.hash]
    assert "Sheet: ours   (MENU+PASS)" in t.app.screen()
    g = t.start()
    assert g.ed.TREES == 12


def begun_on(sheet) -> SheetTable:
    """A console given `sheet`, chosen for City by the PC, and a 2-player game begun on it."""
    t = SheetTable(RamFlash())
    t.give(sheet)
    t.send({"t": "use", "ed": "city", "x": sheet.hash, "at": 5})
    t.press("D2")
    t.start()
    return t


def test_a_game_resumed_after_a_power_cut_plays_the_sheet_it_began_on():
    sheet = city_sheet(trees=12)
    t = begun_on(sheet)
    flash = t.flash
    t.send({"t": "use", "ed": "city", "x": "", "at": 6})          # the table chose the default meanwhile
    again = SheetTable(flash)                                    # the power back: the game resumed
    g = again.app.game
    assert g is not None and g.ed.TREES == 12 and again.app.own == sheet.hash
    assert "resumed" in again.notice()


def test_a_game_whose_sheet_is_spoilt_on_flash_is_not_resumed_on_another():
    t = begun_on(city_sheet(trees=12))
    flash = t.flash
    f = t.files()[0]
    flash.data[f][40] ^= 1                                       # a bit of it spoilt
    again = SheetTable(flash)
    assert again.app.game is None and "could not be resumed" in again.notice()


def test_a_spoilt_sheet_is_refused_at_roll_and_the_default_offered():
    t = SheetTable()
    sheet = city_sheet(trees=12)
    t.give(sheet)
    t.send({"t": "use", "ed": "city", "x": sheet.hash, "at": 5})
    t.flash.data[t.files()[0]][40] ^= 1
    t.press("D2")
    assert t.press("ROLL", 300) is None and t.app.game is None
    assert "spoilt" in t.notice() and "Sheet: default   (MENU+PASS)" in t.app.screen()
    g = t.start()
    assert g.ed.TREES == 10 and "sx" not in t.events("game")[0]


def test_the_chord_steps_through_the_sheets_held_and_takes_its_menu_back():
    t = SheetTable()
    a, b = city_sheet("aa", trees=11), city_sheet("bb", trees=12)
    t.give(a)
    t.give(b)
    hint = "hint" in t.app.opts
    names = []
    for _ in range(3):
        t.chord()
        names.append(next(line for line in t.app.screen() if line.startswith("Sheet: ")).split()[1])
    assert names == ["aa", "bb", "default"]
    assert ("hint" in t.app.opts) == hint                        # the MENU that began each chord taken back
    assert t.said("sheets")[-1]["use"] == []
    t.chord()
    assert t.said("sheets")[-1]["use"] == [["city", 0]]          # said to the PC
    t.press("D0")                                                # Suzhou: none of its own
    assert "Sheet: default   (MENU+PASS)" in t.app.screen()
    while t.app.edition != "puzzle":
        t.press("D0")
    assert not [line for line in t.app.screen() if line.startswith("Sheet")]


def test_a_deadly_doodles_map_side_of_the_tables_own_is_played_as_map_own():
    t = SheetTable()
    data = json.loads(library.find("deadly-a").path.read_text())
    side = library.add_data(dict(data, name="Our map"), "our-map", "a test", replace=True)
    t.give(side)
    assert t.held() == ["deadly/our-map"]
    while t.app.edition != "deadly":
        t.press("D0")
    t.chord()
    assert "Sheet: our-map   (MENU+PASS)" in t.app.screen()
    t.press("D2")
    t.press("ROLL", 300)
    ev = t.events("game")[0]
    assert (ev["map"], ev["sh"], ev["sx"]) == ("own", "our-map", side.hash)
    assert t.app.game.loot == side_loot(side)


def side_loot(side) -> int:
    return console_form.constants(side)["LOOT"]


def test_frames_that_do_not_fit_are_answered_with_err_and_change_nothing():
    t = SheetTable()
    for msg in ({"t": "sheet", "x": "short"}, {"t": "use", "ed": "city"}, {"t": "drop"},
                {"t": "sheet", "x": "0123456789ab", "n": "Bad Name", "ed": "city", "i": 0, "of": 1, "crc": "0",
                 "d": ""}):
        t.send(msg)
        assert t.said("err")[-1]["why"].startswith("bad ")
    assert t.files() == []


def test_an_app_on_a_fresh_flash_holds_no_sheet():
    app = App(table_script.rand, 1, UID, RamFlash())
    assert app.own == ""
