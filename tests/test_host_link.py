"""The host's frames, store and link session: golden vectors, duplicates, gaps, bad frames."""
import json
import zlib
from pathlib import Path

import pytest

from doodlebox.link import frames
from doodlebox.link.session import HostLink, LinkError
from doodlebox.store import Store

VECTORS = json.loads((Path(__file__).parent / "vectors" / "frames.json").read_text())


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["message"]["t"])
def test_host_frames_match_golden_vectors(case):
    msg = dict(case["message"])
    t = msg.pop("t")
    msg.pop("v")
    assert frames.encode(t, **msg) == case["frame"].encode()
    assert frames.decode(case["frame"].encode()) == case["message"]


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_host_refuses_bad_lines_with_a_reason(case):
    with pytest.raises(frames.FrameError) as err:
        frames.decode(case["line"].encode())
    assert str(err.value).startswith(case["reason"])


def test_frames_never_contain_control_bytes():
    for case in VECTORS["valid"]:
        body = case["frame"].encode()[:-1]
        assert all(0x20 <= b <= 0x7E for b in body)


class FakePort:
    def __init__(self):
        self.inbox = b""
        self.sent = []

    def read(self, size=1):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.sent.append(frames.decode(data))
        return len(data)


def ev(s, boot=1, **e):
    return frames.encode("ev", boot=boot, s=s, e=dict({"k": "roll", "g": 1, "r": 1}, **e))


def hello(first=1, boot=1):
    return frames.encode("hello", fw="0.1.0", uid="abc", boot=boot, first=first, next=first)


def test_store_then_ack_duplicates_and_gaps(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    link = HostLink(port, store)
    port.inbox = hello() + ev(1) + ev(1) + ev(3) + ev(2) + b"garbage\n" + ev(3)[:-5] + b"0000\n"
    link.poll()
    assert [(m["t"], m.get("s")) for m in port.sent] == [("ack", 1), ("ack", 1), ("nak", 2), ("ack", 2), ]
    assert [s for _, _, s, _ in store.events()] == [1, 2]
    assert link.counts == {"stored": 2, "duplicate": 1, "gap": 1, "bad": 1, "noise": 1}


def test_a_restarted_host_stores_nothing_twice(tmp_path):
    db = tmp_path / "db.sqlite3"
    port = FakePort()
    port.inbox = hello() + ev(1) + ev(2)
    HostLink(port, Store(db)).poll()
    port2 = FakePort()
    port2.inbox = hello() + ev(1) + ev(2) + ev(3)
    HostLink(port2, Store(db)).poll()
    assert [s for _, _, s, _ in Store(db).events()] == [1, 2, 3]


def test_events_another_host_acknowledged_are_recorded_as_a_gap(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    HostLink(port, store, on_note=notes.append).poll()
    port.inbox = hello(first=5) + ev(5)
    HostLink(port, store, on_note=notes.append).poll()
    assert store.gaps() == [("abc", 1, 1, 4)]
    assert [s for _, _, s, _ in store.events()] == [5]
    assert "another host" in notes[0]


def _hello_of_version(v: int) -> bytes:
    body = b'{"boot":1,"first":1,"fw":"0.1.0","next":1,"t":"hello","uid":"abc","v":%d}' % v
    return b"@" + body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


def test_a_console_of_protocol_version_1_is_told_to_update_in_one_line(tmp_path):
    port = FakePort()
    port.inbox = _hello_of_version(1)
    store = Store(tmp_path / "db.sqlite3")
    with pytest.raises(LinkError) as err:
        HostLink(port, store).poll()
    assert str(err.value) == ("the console speaks protocol version 1; this doodlebox needs 2: "
                              "update its firmware with make flash")
    assert store.events() == [] and store.games() == []   # stores nothing from it
    port.inbox = _hello_of_version(3)
    with pytest.raises(LinkError, match="protocol version 3; this doodlebox speaks 2: update doodlebox"):
        HostLink(port, store).poll()


def test_the_score_message_is_short_printable_ascii():
    msg = frames.score(2, 4, [10, 3], 1, "round 3, P2 (Zoë): “die 2” — was already taken by P1 this round\n and more")
    assert msg == {"t": "score", "g": 2, "r": 4, "p": [10, 3], "bad": 1,
                   "why": 'round 3, P2 (Zoe): "die 2" - was already taken by P1 this...'}
    assert len(msg["why"]) <= frames.WHY_MAX
    line = frames.encode("score", **{k: v for k, v in msg.items() if k != "t"})
    assert all(0x20 <= b <= 0x7E for b in line[:-1]) and frames.decode(line) == dict(msg, v=2)
    assert frames.score(1, 0, [0], 0)["why"] == ""


def test_send_writes_whole_frames_from_any_thread(tmp_path):
    import threading
    import time

    class SlowPort(FakePort):
        def write(self, data):   # a write the other threads may interrupt, a few bytes at a time
            for i in range(0, len(data), 8):
                self.raw += data[i:i + 8]
                time.sleep(0)
            return len(data)

    port = SlowPort()
    port.raw = bytearray()
    link = HostLink(port, Store(tmp_path / "db.sqlite3"))
    threads = [threading.Thread(target=lambda i=i: [link.send(frames.score(i, r, [r], 0)) for r in range(200)])
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = bytes(port.raw).splitlines(keepends=True)
    assert len(lines) == 800 and all(frames.decode(line)["t"] == "score" for line in lines)


def test_games_are_derived_from_events(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    store.append("u", 1, 1, {"k": "game", "g": 1, "ed": "city", "n": 3, "var": ""})
    store.append("u", 1, 2, {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 1, "w": [1, 2, 3, 4]})
    store.append("u", 1, 3, {"k": "end", "g": 1, "r": 1, "why": "menu"})
    (g,) = store.games()
    assert (g["players"], g["rounds"], g["events"], g["end_reason"]) == (3, 1, 3, "menu")


def test_a_corrupt_database_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    from doodlebox.store import StoreError
    with pytest.raises(StoreError, match="not a doodlebox database"):
        Store(bad)
