"""The table's sheets sent to a console (logger/sheets.py, docs/protocol.md "The table's sheets"),
against a console played by the test: stop and wait, a chunk sent again after a second of
silence and given up after five tries, said; the choices sent once the sheets are there; room made
by dropping what the table no longer chose; an older console told once."""
from __future__ import annotations

import base64
import json
import zlib

import pytest

from doodlebox.link.session import Console
from doodlebox.logger.sheets import RESEND_AFTER, TRIES, Courier
from doodlebox.rules.dice import layout
from doodlebox.sheets import library


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Link:
    def __init__(self):
        self.sent: list[dict] = []
        self.store = Store()

    def send(self, msg: dict) -> None:
        self.sent.append(dict(msg))


class Store:
    def __init__(self):
        self.kept: dict[str, tuple] = {}

    def add_sheet(self, x, game, name, body):
        self.kept[x] = (game, name, json.loads(body))

    def sheet(self, x):
        return self.kept.get(x)


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    data = json.loads(layout.default_path("city").read_text()) | {"name": "Our City", "trees": 12}
    (tmp_path / "ours.json").write_text(json.dumps(data))
    sheet = library.add(tmp_path / "ours.json")
    library.use("ours", at=1000)
    clock, notes, link = Clock(), [], Link()
    courier = Courier(notes.append, clock)
    courier.begin(link)
    return sheet, courier, link, clock, notes


CONSOLE = Console("c0ffee", "0.9.0", 1, protocol=5)


def sheets(held=(), at=0) -> dict:
    return {"t": "sheets", "held": [list(h) for h in held], "use": [], "at": at}


def test_a_sheet_goes_chunk_by_chunk_then_the_choice(table):
    sheet, courier, link, _, notes = table
    courier.on_sheets(CONSOLE, sheets())
    assert [m["t"] for m in link.sent] == ["sheet"] and link.sent[0]["i"] == 0
    of = link.sent[0]["of"]
    for i in range(1, of):
        courier.on_sheets(CONSOLE, {"t": "got", "x": sheet.hash, "i": i})
        assert link.sent[-1]["i"] == i and len(link.sent) == i + 1      # one frame at a time
    content = base64.b64decode("".join(m["d"] for m in link.sent))
    assert zlib.crc32(content) == int(link.sent[0]["crc"], 16)
    assert json.loads(content)["SX"] == sheet.hash and json.loads(content)["TREES"] == 12
    courier.on_sheets(CONSOLE, {"t": "got", "x": sheet.hash, "i": of})
    assert len(link.sent) == of                                          # nothing until it says it holds it
    courier.on_sheets(CONSOLE, sheets([("city", "ours", sheet.hash)]))
    assert link.sent[-1] == {"t": "use", "ed": "city", "x": sheet.hash, "at": 1000}
    assert any("sheet ours (hash %s) sent to console c0ffee" % sheet.hash in n for n in notes)
    assert link.store.kept[sheet.hash][:2] == ("city", "ours")          # its games are validated on it


def test_a_console_that_holds_it_and_took_the_choice_is_sent_nothing(table):
    sheet, courier, link, _, _ = table
    courier.on_sheets(CONSOLE, sheets([("city", "ours", sheet.hash)], at=1000))
    assert link.sent == []


def test_a_chunk_unanswered_is_sent_again_and_given_up_after_five_tries(table):
    sheet, courier, link, clock, notes = table
    courier.on_sheets(CONSOLE, sheets())
    courier.tick()
    assert len(link.sent) == 1                                           # not before a second
    for _ in range(TRIES - 1):
        clock.now += RESEND_AFTER
        courier.tick()
    assert [m["i"] for m in link.sent] == [0] * TRIES
    clock.now += RESEND_AFTER
    courier.tick()
    assert len(link.sent) == TRIES and courier.sending is None
    assert notes[-1].startswith(f"sheet ours (hash {sheet.hash}) did not arrive: no answer to chunk 1")
    assert "keeps the sheets it had" in notes[-1]


def test_a_console_that_lost_a_chunk_says_where_to_go_on(table):
    sheet, courier, link, clock, _ = table
    courier.on_sheets(CONSOLE, sheets())
    courier.on_sheets(CONSOLE, {"t": "got", "x": sheet.hash, "i": 1})
    courier.on_sheets(CONSOLE, {"t": "got", "x": sheet.hash, "i": 2})
    clock.now += RESEND_AFTER
    courier.on_sheets(CONSOLE, {"t": "got", "x": sheet.hash, "i": 1})   # chunk 1 never came
    assert [m["i"] for m in link.sent] == [0, 1, 2, 1]


def test_the_console_refusing_the_sheet_is_said(table):
    sheet, courier, _, _, notes = table
    courier.on_sheets(CONSOLE, sheets())
    courier.on_sheets(CONSOLE, {"t": "err", "why": f"sheet {sheet.hash}: checksum mismatch: not kept"})
    assert courier.sending is None and "checksum mismatch" in notes[-1] and "did not arrive" in notes[-1]


def test_room_is_made_by_dropping_what_the_table_no_longer_chose(table):
    _, courier, link, _, notes = table
    full = [("city", f"old{k}", f"{k:012x}") for k in range(6)]
    courier.on_sheets(CONSOLE, sheets(full))
    assert link.sent[0] == {"t": "drop", "x": "000000000000"} and link.sent[1]["t"] == "sheet"
    assert "sheet old0 dropped" in notes[0]


def test_an_older_console_is_told_once_that_it_plays_the_defaults(table):
    _, courier, link, _, notes = table
    old = Console("beef", "0.8.1", 1, protocol=4)
    courier.hello(old)
    courier.hello(old)
    assert len(notes) == 1 and "firmware 0.8.1 (protocol 4): it cannot take the table's sheets" in notes[0]
    assert link.sent == []


def test_a_game_on_a_sheet_the_store_lacks_is_kept_from_the_library(table):
    sheet, courier, link, _, _ = table
    courier.game({"k": "game", "g": 1, "ed": "city", "n": 2, "var": "", "sh": "ours", "sx": sheet.hash})
    assert link.store.kept[sheet.hash][1] == "ours"


def test_a_choice_whose_name_went_to_another_games_sheet_is_said_and_not_sent(table):
    _, courier, link, _, notes = table
    side = json.loads(library.find("deadly-a").path.read_text()) | {"name": "Ours"}
    library.add_data(side, "ours", "a test", replace=True)          # "ours" was City's choice
    courier.on_sheets(CONSOLE, sheets())
    assert link.sent == []
    assert any("the table's sheet for city, ours, is now a sheet of deadly: the default is played" in n for n in notes)



@pytest.mark.parametrize("error", [library.SheetError("sheet 'ours' is 2,100 bytes on the console, more than the "
                                                      "2,048 it takes: it cannot be sent"),
                                   ValueError("two kinds of square on the sheet share a letter on the map")])
def test_a_sheet_that_cannot_be_made_for_the_console_is_said_once_and_not_chosen(table, monkeypatch, error):
    """A sheet whose console form cannot be made: too big (SheetError), or one the check passed and
    the generator failed on (a ValueError: two kinds' words with one first letter, before the check
    knew of it). The ValueError escaped the courier (the link failed at each hello, then gave up);
    the SheetError was said, but its `use` still went, the console answered it with its `sheets`
    (it lacks the sheet), and that queued it again: a note and a `use` at each answer, without end.
    Now it is said once, nothing is sent, and the console plays the default."""
    from doodlebox.sheets import console as console_form

    def broken(sheet):
        raise error

    monkeypatch.setattr(console_form, "frames", broken)
    _, courier, link, _, notes = table
    for _ in range(3):                          # the console's hello, then its answers to anything sent
        courier.on_sheets(CONSOLE, sheets())
    assert len(notes) == 1 and notes[0].endswith("the console plays the default"), notes
    assert ("2,048 it takes" in notes[0]) == isinstance(error, library.SheetError)
    assert ("cannot be made for the console (ValueError(" in notes[0]) == isinstance(error, ValueError)
    assert link.sent == []
