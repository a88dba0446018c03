"""The host's frames (protocol version 4 and its strict schema), and the link session: golden vectors,
several boots held, batches, duplicates, gaps, bad frames, other versions."""
import json
import zlib
from pathlib import Path

import pytest

from doodlebox.link import frames
from doodlebox.link.session import HostLink, LinkError
from doodlebox.store import Store

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "vectors" / "frames.json").read_text())


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


ROLL = {"k": "roll", "g": 1, "r": 1, "sp": 0, "c": 2, "w": [1, 2, 3, 4]}


def ev(s, boot=1, **e):
    return frames.encode("ev", boot=boot, s=s, e=dict(ROLL, **e))


def hello(first=1, boot=1, nxt=None, older=()):
    nxt = first if nxt is None else nxt
    return frames.encode("hello", fw="0.4.0", uid="abc", boot=boot, first=first, next=nxt,
                         held=[list(h) for h in older] + [[boot, first, nxt]])


def sent(port):
    return [(m["t"], m.get("boot"), m.get("s")) for m in port.sent]


def test_store_then_ack_duplicates_and_gaps(tmp_path):
    """One read is one batch: committed together, then one ack per boot of the highest held,
    and a nak from the first missing when a frame was dropped as a gap."""
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    link = HostLink(port, store)
    port.inbox = hello() + ev(1) + ev(1) + ev(3) + ev(2) + b"garbage\n" + ev(3)[:-5] + b"0000\n"
    link.poll()
    assert sent(port) == [("ack", 1, 2), ("nak", 1, 3)]
    assert [s for _, _, s, _ in store.events()] == [1, 2]
    assert link.counts == {"stored": 2, "duplicate": 1, "gap": 1, "bad": 1, "noise": 1, "refused": 0, "retries": 0,
                           "conflict": 0, "held": 0}
    port.sent.clear()
    port.inbox = ev(3) + ev(4)
    link.poll()
    assert sent(port) == [("ack", 1, 4)]


def test_frames_one_read_at_a_time_are_acknowledged_one_by_one(tmp_path):
    port = FakePort()
    link = HostLink(port, Store(tmp_path / "db.sqlite3"))
    for frame in (hello(), ev(1), ev(1), ev(3), ev(2)):
        port.inbox = frame
        link.poll()
    assert sent(port) == [("ack", 1, 1), ("ack", 1, 1), ("nak", 1, 2), ("ack", 1, 2)]


def test_an_idle_host_says_it_is_still_there(tmp_path, monkeypatch):
    """The console shows "PC: offline" 5 s after the host's last frame: an idle host repeats its
    ack of the highest event held (docs/protocol.md, delivery), 0 before the first event."""
    from doodlebox.link import session

    monkeypatch.setattr(session, "KEEPALIVE", 0.0)
    port = FakePort()
    link = HostLink(port, Store(tmp_path / "db.sqlite3"))
    link.poll()
    assert sent(port) == []                               # no console known yet: nothing to say
    port.inbox = hello()
    link.poll()
    port.sent.clear()
    link.poll()
    assert sent(port) == [("ack", 1, 0)]
    port.inbox = ev(1) + ev(2)
    link.poll()
    port.sent.clear()
    link.poll()
    assert sent(port) == [("ack", 1, 2)]
    monkeypatch.setattr(session, "KEEPALIVE", 3600.0)
    port.sent.clear()
    link.poll()
    assert sent(port) == []                               # only after KEEPALIVE s of silence


def test_a_restarted_host_stores_nothing_twice(tmp_path):
    db = tmp_path / "db.sqlite3"
    port = FakePort()
    port.inbox = hello() + ev(1) + ev(2)
    HostLink(port, Store(db)).poll()
    port2 = FakePort()
    port2.inbox = hello() + ev(1) + ev(2) + ev(3)
    HostLink(port2, Store(db)).poll()
    assert [s for _, _, s, _ in Store(db).events()] == [1, 2, 3]
    assert sent(port2) == [("ack", 1, 3)]


def test_events_another_host_acknowledged_are_recorded_as_a_gap(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    port.inbox = hello(first=5) + ev(5)
    HostLink(port, store, on_note=notes.append).poll()
    assert store.gaps() == [("abc", 1, 1, 4)]
    assert [s for _, _, s, _ in store.events()] == [5]
    assert "another host" in notes[0] and "1..4 of boot 1" in notes[0]


def test_several_boots_held_older_first_each_acknowledged_in_its_own_boot(tmp_path):
    """hello.held: boot 2 holds 5..8 (1..4 went to another host), boot 3 (this one) 1..2.
    The older boot's events come first; each boot gets its own ack."""
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    link = HostLink(port, store, on_note=notes.append)
    port.inbox = (hello(boot=3, first=1, nxt=3, older=[(2, 5, 9)])
                  + b"".join(ev(s, boot=2) for s in range(5, 9)) + ev(1, boot=3) + ev(2, boot=3))
    link.poll()
    assert sent(port) == [("ack", 2, 8), ("ack", 3, 2)]
    assert [(b, s) for _, b, s, _ in store.events()] == [(2, 5), (2, 6), (2, 7), (2, 8), (3, 1), (3, 2)]
    assert store.gaps() == [("abc", 2, 1, 4)] and len(notes) == 1
    assert link.console is not None and link.console.held == {2: (5, 9), 3: (1, 3)}
    # the console acknowledged nothing yet (a cable pull): it sends them all again; nothing twice
    port.sent.clear()
    port.inbox = hello(boot=3, first=1, nxt=3, older=[(2, 5, 9)]) + ev(5, boot=2) + ev(1, boot=3)
    link.poll()
    assert sent(port) == [("ack", 2, 8), ("ack", 3, 2)] and len(store.events()) == 6


def test_an_older_boot_the_store_already_has_in_part(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    for s in (1, 2, 3):
        store.append("abc", 4, s, dict(ROLL))
    port = FakePort()
    port.inbox = hello(boot=5, first=1, nxt=1, older=[(4, 2, 6)]) + b"".join(ev(s, boot=4) for s in range(2, 6))
    HostLink(port, store).poll()
    assert store.gaps() == [] and [s for _, b, s, _ in store.events() if b == 4] == [1, 2, 3, 4, 5]
    assert sent(port) == [("ack", 4, 5)]


def test_events_before_the_hello_or_of_a_later_boot_are_not_stored_the_console_is_asked(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    link = HostLink(port, store)
    port.inbox = ev(1) + ev(2)
    link.poll()
    assert sent(port) == [("hi", None, None)] and store.events() == []
    port.sent.clear()
    port.inbox = hello() + ev(1) + ev(1, boot=2)           # boot 2: the console rebooted since its hello
    link.poll()
    assert sent(port) == [("hi", None, None), ("ack", 1, 1)]
    assert [(b, s) for _, b, s, _ in store.events()] == [(1, 1)]


def _hello_of_version(v: int) -> bytes:
    body = b'{"boot":1,"first":1,"fw":"0.1.0","held":[[1,1,1]],"next":1,"t":"hello","uid":"abc","v":%d}' % v
    return b"@" + body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


@pytest.mark.parametrize("version", [2, 3])
def test_a_console_of_an_earlier_protocol_version_is_told_to_update_in_one_line(tmp_path, version):
    port = FakePort()
    port.inbox = _hello_of_version(version)
    store = Store(tmp_path / "db.sqlite3")
    with pytest.raises(LinkError) as err:
        HostLink(port, store).handshake(2)
    assert str(err.value) == (f"the console speaks protocol version {version}; this doodlebox needs 5: "
                              "update its firmware with doodlebox flash")
    assert store.events() == [] and store.games() == []   # stores nothing from it
    port.inbox = _hello_of_version(6)
    with pytest.raises(LinkError, match="protocol version 6; this doodlebox speaks 5: update doodlebox"):
        HostLink(port, store).handshake(2)


def test_a_frame_of_another_version_is_ignored_and_the_link_goes_on(tmp_path):
    """docs/protocol.md: a receiver ignores a frame of an unknown version (issue 11: one frame
    with v 2 ended the logger)."""
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    link = HostLink(port, store, on_note=notes.append)
    old = ev(2).replace(b'"v":5', b'"v":2')
    old = old[:old.rindex(b"*") + 1] + b"%08x\n" % zlib.crc32(old[1:old.rindex(b"*")])
    port.inbox = hello() + ev(1) + old + old + _hello_of_version(2) + _hello_of_version(3) + ev(2)
    link.poll()
    assert [s for _, _, s, _ in store.events()] == [1, 2] and link.counts["bad"] == 4
    assert notes == [f"a frame of protocol version {v} ignored: the console speaks protocol version {v}; this "
                     "doodlebox needs 5: update its firmware with doodlebox flash" for v in (2, 3)]


STRICT = {c["name"]: c for c in VECTORS["strict"]}


@pytest.mark.parametrize("name", list(STRICT))
def test_host_refuses_what_the_schema_does_not_allow(name):
    case = STRICT[name]
    with pytest.raises(frames.FrameError) as err:
        frames.decode(case["line"].encode())
    assert str(err.value).startswith(case["reason"])


ISSUE_11 = ["boot of 10**30", "boot of Infinity", "s of 1e400", "g of 10**30", "r of 10**30",
            "hello with first of 10**30", "s of 2.5", "uppercase checksum", "a die of true", "a round as a string",
            "white dice as a dict", "an event that is a list", "a key twice", "NaN"]


# issue 11's frames whose envelope is whole (checksum, version, boot and s): only their event is wrong
WHOLE_ENVELOPE = ["g of 10**30", "r of 10**30", "a die of true", "a round as a string", "white dice as a dict",
                  "an event that is a list", "NaN"]


@pytest.mark.parametrize("name", [n for n in ISSUE_11 if n not in WHOLE_ENVELOPE])
def test_a_frame_that_killed_the_link_thread_is_counted_said_once_and_neither_stored_nor_acked(tmp_path, name):
    """Issue 11: these frames had a correct checksum and ended the link thread silently (or were
    stored wrong: "s": 2.5 as event 2). Now: counted as bad each time, said once with the reason,
    nothing stored or acknowledged for them (no one can say which event they are), and the next
    good frame is stored."""
    line = STRICT[name]["line"].encode()
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    link = HostLink(port, store, on_note=notes.append)
    port.inbox = hello(boot=3) if "hello" not in name else hello(boot=3) + line
    link.poll()
    port.inbox = line + line + line
    link.poll()
    assert store.events() == [] and port.sent == []
    assert link.counts["bad"] == 3 + ("hello" in name) and link.counts["stored"] == 0
    assert len(notes) == 1 and notes[0].startswith("bad frame: " + STRICT[name]["reason"])
    port.inbox = ev(1, boot=3)
    link.poll()
    assert sent(port) == [("ack", 3, 1)] and [s for _, _, s, _ in store.events()] == [1]


def _numbered(line: bytes, s: int) -> bytes:
    """The frame `line` (event 5 of boot 3) as event `s`, its checksum made again."""
    body = line[1:line.rindex(b"*")].replace(b'"s":5', b'"s":%d' % s)
    return b"@" + body + b"*%08x\n" % zlib.crc32(body)


@pytest.mark.parametrize("name", WHOLE_ENVELOPE)
def test_an_event_the_schema_refuses_is_stored_as_refused_and_acknowledged_so_the_next_ones_are_stored(
        tmp_path, name):
    """docs/protocol.md, "An event the host refuses": a frame whose checksum, version, boot and s
    are right is what the console sent, and it would send it again forever, holding back every
    event after it. The host stores a `refused` event in its place (why, and the frame as sent),
    acknowledges it, says it once, and stores the events after it; the game it names makes no
    record and says which event and why."""
    from doodlebox.history.console_record import ConsoleLogError, to_record

    line = _numbered(STRICT[name]["line"].encode(), 2)
    store = Store(tmp_path / "db.sqlite3")
    port = FakePort()
    notes = []
    link = HostLink(port, store, on_note=notes.append)
    port.inbox = hello(boot=3)
    link.poll()
    start = frames.encode("ev", boot=3, s=1, e={"k": "game", "g": 1, "ed": "city", "n": 2, "var": ""})
    port.inbox = start + line + line + ev(3, boot=3) + ev(4, boot=3)
    link.poll()
    assert [(s, e["k"]) for _, _, s, e in store.events()] == [(1, "game"), (2, "refused"), (3, "roll"), (4, "roll")]
    assert sent(port)[-1] == ("ack", 3, 4) and ("nak", 3, 4) not in sent(port)
    (_, _, _, refused), = [x for x in store.events() if x[3]["k"] == "refused"]
    assert refused["why"].startswith(STRICT[name]["reason"]) and refused["frame"] == line.decode().rstrip("\n")
    assert link.counts["refused"] == 1 and link.counts["stored"] == 4 and link.counts["duplicate"] == 1
    assert len(notes) == 1 and notes[0].startswith("bad frame: " + STRICT[name]["reason"])
    if refused.get("g") == 1:        # the game it names: no record, and the event and the reason said
        with pytest.raises(ConsoleLogError, match=r"event 2 \(refused\): the host refused the console's frame"):
            to_record(store.game_log(1))
    else:                            # no game it can belong to: kept in the stream, in none of the games
        assert "g" not in refused and store.game_log(1).events[-1][0] == 4


def test_every_golden_frame_and_every_frame_the_host_sends_pass_the_schema(tmp_path):
    for case in VECTORS["valid"]:
        frames.decode(case["frame"].encode())
    port = FakePort()          # FakePort decodes what is written: the host's acks, naks, his
    link = HostLink(port, Store(tmp_path / "db.sqlite3"))
    port.inbox = ev(1) + hello() + ev(1) + ev(3)
    link.poll()
    link.send(frames.score(1, 0, [0, 0, 0], 0))
    assert [m["t"] for m in port.sent] == ["hi", "ack", "nak", "score"]


def test_the_score_message_is_short_printable_ascii():
    msg = frames.score(2, 4, [10, 3], 1, "round 3, P2 (Zoë): “die 2” — was already taken by P1 this round\n and more")
    assert msg == {"t": "score", "g": 2, "r": 4, "p": [10, 3], "bad": 1,
                   "why": 'round 3, P2 (Zoe): "die 2" - was already taken by P1 this...'}
    assert len(msg["why"]) <= frames.WHY_MAX
    line = frames.encode("score", **{k: v for k, v in msg.items() if k != "t"})
    assert all(0x20 <= b <= 0x7E for b in line[:-1]) and frames.decode(line) == dict(msg, v=5)
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
    threads = [threading.Thread(target=lambda i=i: [link.send(frames.score(i + 1, r, [r], 0)) for r in range(200)])
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
    store.append("u", 1, 3, {"k": "end", "g": 1, "r": 1, "why": "menu", "p": [0, 0, 0]})
    (g,) = store.games()
    assert (g["players"], g["rounds"], g["events"], g["end_reason"], g["state"]) == (3, 1, 3, "menu", "ended")


def test_the_schemas_words_are_the_engines_and_the_firmwares():
    """link/schema.py lists the protocol's words (docs/protocol.md); they are the rules engines',
    and the refusals the firmware can send are exactly the schema's."""
    from doodlebox.link import schema
    from doodlebox.rules import games
    from doodlebox.rules.deadly import deck, maps
    from doodlebox.rules.deadly import events as deadly_events
    from doodlebox.rules.deadly import sentences as deadly_sentences
    from doodlebox.rules.deadly.tallies import FIELDS
    from doodlebox.rules.dice import layout, sentences
    from doodlebox.rules.dice.game import EDITIONS
    from doodlebox.rules.puzzle import engine as puzzle
    from doodlebox.rules.puzzle import events as puzzle_events
    from doodlebox.rules.puzzle import roles
    from doodlebox.rules.puzzle import sentences as puzzle_sentences

    assert set(schema.DICE) == set(EDITIONS) and set(schema.EDITIONS) == set(games.EDITIONS)
    assert schema.PIECES == layout.PIECES
    assert set(schema.REFUSALS) <= set(sentences._S)
    assert set(schema.DEADLY_REFUSALS) <= set(deadly_sentences.RULES)
    assert set(schema.PUZZLE_REFUSALS) <= set(puzzle_sentences.RULES)
    tracks = {name: t for ed in EDITIONS for name, t in layout.load(ed).tracks.items()}
    assert set(schema.ENDINGS) == set(tracks) | {"trees", "menu", "rounds"}
    assert max(v for t in tracks.values() for v in t.values) <= 99          # claim.v is 0..99
    assert refusals_used("rounds.py", schema.REFUSALS) == set(schema.REFUSALS)   # every one, and no other
    # Deadly Doodles: both map sides' rooms, the deck's ids, the rounds, the seats, the counts
    assert set(schema.MAPS) == set(maps.DEFAULT_FILES) == set(deadly_events.MAPS)
    for side in schema.MAPS:
        m = maps.load(side)
        assert {m.room_name(i) for i in range(m.size)} == set(schema.ROOMS) == set(deadly_events.ROOMS)
    assert schema.CARDS == len(deck.load().ids) and schema.DEADLY_ROUNDS == deck.ROUNDS
    assert (1, schema.DEADLY_PLAYERS) == games.find_game("deadly").players
    assert schema.RECORDING == deadly_events.RECORDING and schema.TALLY == len(FIELDS)
    # Doodle Puzzle: the roles, variants, subject sets, numbers, slots, rounds, seats
    assert {puzzle_events.ROLE_LETTERS[c] for c in schema.ROLES} == set(roles.ROLES)
    assert schema.PUZZLE_VARIANTS == ("",) + puzzle.VARIANTS == puzzle_events.VARIANTS
    assert set(schema.SUBJECTS) == set(puzzle.SUBJECT_SETS) == set(puzzle_events.SUBJECTS)
    assert schema.SUBJECT_CARDS == max(puzzle.SUBJECT_SETS.values()) and schema.NUMBERS == puzzle.NUMBERS
    assert schema.SLOTS == puzzle.SLOTS and schema.PUZZLE_ROUNDS == puzzle.ROUNDS
    assert schema.PUZZLE_PLAYERS == games.find_game("puzzle").players and schema.SEATS == schema.PUZZLE_PLAYERS[1]
    # the refusals the console's Deadly Doodles and Doodle Puzzle send are the schema's
    assert refusals_used("puzzle.py", schema.PUZZLE_REFUSALS) == set(schema.PUZZLE_REFUSALS)
    assert refusals_used("deadly.py", schema.DEADLY_REFUSALS) <= set(schema.DEADLY_REFUSALS)


def refusals_used(module: str, ids) -> set[str]:
    """The refusal ids firmware/doodle/<module> uses: by the names its generated block gives them
    (firmware_data.refusal_names: "taken" is _WHY_TAKEN, generated from the game's events.py,
    so a name the PC's engine does not have cannot be made). No id is written there as a string
    outside that block (the AST's string constants; docstrings, dict keys and subscripts, which
    are fields, left out), so none can be sent
    but through those names; the names used tell which are sent."""
    import ast

    from doodlebox.deploy import firmware_data

    text = (Path(__file__).resolve().parents[2] / "firmware" / "doodle" / module).read_text()
    rest = text.split(firmware_data.BLOCK_END, 1)[1]
    tree = ast.parse(rest)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Module)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    docs |= {id(k) for n in ast.walk(tree) if isinstance(n, ast.Dict) for k in n.keys}   # an event's fields
    docs |= {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}       # ("card" is both)
    literal = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docs} & set(ids)
    assert not literal, f"{module} writes refusal ids as strings: {sorted(literal)}"
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith("_WHY_")}
    block = dict(line.split(" = ", 1) for line in firmware_data.refusal_names(ids).splitlines())
    assert names <= set(block), f"{module} uses {sorted(names - set(block))}, not generated"
    return {block[n].split('"')[1] for n in names}


def _doc_events(title: str) -> dict[str, set[str]]:
    """The event table under `### title` in docs/protocol.md (tests/support/protocol_doc.py)."""
    from protocol_doc import event_table

    return event_table(f"### {title}")


@pytest.mark.parametrize("title", ["Deadly Doodles", "Doodle Puzzle"])
def test_the_schema_has_every_field_the_protocol_lists_for_the_new_events(title):
    from doodlebox.link import schema

    events = _doc_events(title)
    assert len(events) in (5, 7)
    for kind, listed in events.items():
        assert set(schema.EVENTS[kind]) == listed, kind


def test_the_refusals_the_protocol_lists_are_the_schemas():
    import re

    from doodlebox.link import schema

    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    para = text.split("use `refuse` with their engines' rule ids")[1].split("Refusals of how")[0]
    deadly, puzzle = para.split("Deadly Doodles")[1].split("Doodle Puzzle")
    assert tuple(re.findall(r"`(\w+)`", deadly)) == schema.DEADLY_REFUSALS
    assert tuple(re.findall(r"`(\w+)`", puzzle)) == schema.PUZZLE_REFUSALS


def test_every_version_4_event_kind_has_a_golden_frame_and_a_refused_one():
    """The golden vectors hold each event kind the protocol lists, as a frame both sides make
    byte for byte, and at least one line of it that the schema refuses."""
    from doodlebox.link import schema

    valid = {c["message"]["e"]["k"] for c in VECTORS["valid"] if c["message"]["t"] == "ev"}
    assert valid == set(schema.EVENTS)
    refused = {json.loads(c["line"][1:c["line"].rindex("*")])["e"]["k"] for c in VECTORS["strict"]
               if '"e":{' in c["line"] and "Infinity" not in c["line"] and "NaN" not in c["line"]
               and "10**30" not in c["name"] and "1e400" not in c["name"] and "twice" not in c["name"]}
    new = {k for ks in (_doc_events("Deadly Doodles"), _doc_events("Doodle Puzzle")) for k in ks}
    assert new | {"game", "refuse", "end"} <= refused


@pytest.mark.parametrize("e", [
    {"k": "game", "g": 1, "ed": "deadly", "n": 4, "var": "", "map": "b", "rec": "tally"},
    {"k": "game", "g": 1, "ed": "puzzle", "n": 3, "var": "behave", "subj": "beginner"},
    {"k": "game", "g": 1, "ed": "monsters", "n": 5, "var": ""},
    {"k": "reveal", "g": 1, "r": 7, "cards": [36, 35, 1, 2, 3, 4, 5, 6]},
    {"k": "trap", "g": 1, "r": 1, "p": 3, "room": "F6"},
    {"k": "draw", "g": 1, "r": 1, "p": 0, "card": 36, "room": "A1", "ends": "NESW"},
    {"k": "tally", "g": 1, "p": 3, "t": [99, 0, 99, 99, 99, 99, 99, 99]},
    {"k": "roles", "g": 1, "r": 5, "roles": "GDDDDDBS"},
    {"k": "timer", "g": 1, "r": 1, "start": 0, "end": 2 ** 31 - 1, "paused": 0},
    {"k": "mischief", "g": 1, "r": 1, "erase": 0, "draw": 6},
    {"k": "challenge", "g": 1, "r": 1, "board": 0},
    {"k": "refuse", "g": 1, "r": 0, "p": 7, "i": 0, "why": "trap_must"},
    {"k": "end", "g": 1, "r": 0, "why": "menu", "p": [0] * 8},
])
def test_the_schema_takes_the_edges_of_every_range(e):
    from doodlebox.link import schema

    line = frames.encode("ev", boot=1, s=1, e=e)
    assert frames.decode(line)["e"] == schema.check_event(e) == e


def test_a_console_of_version_4_is_spoken_to_in_version_4(tmp_path):
    """docs/protocol.md, "Versions": a host of version 5 speaks 4 to an older firmware: its hello,
    its events stored and acknowledged in its version; its `err` to our first `hi` (which it cannot
    read) makes the host ask again in version 4."""
    port = FakePort()
    store = Store(tmp_path / "db.sqlite3")
    link = HostLink(port, store)
    refused = frames.encode("err", v=4, why="protocol version 5, this side speaks 4")
    port.inbox = refused
    link.poll()
    assert [(m["t"], m["v"]) for m in port.sent] == [("hi", 4)]
    port.sent.clear()
    port.inbox = frames.encode("hello", v=4, fw="0.8.1", uid="abc", boot=1, first=1, next=1, held=[[1, 1, 1]])
    port.inbox += frames.encode("ev", v=4, boot=1, s=1, e=ROLL)
    link.poll()
    assert link.console is not None and link.console.protocol == 4
    assert [(m["t"], m["v"], m.get("s")) for m in port.sent] == [("ack", 4, 1)]
    assert [s for _, _, s, _ in store.events()] == [1]
    port.sent.clear()
    link.send(frames.score(1, 1, [3, 4], 0))
    assert port.sent[0]["v"] == 4


def test_a_frame_of_version_4_carries_nothing_of_version_5():
    game = {"k": "game", "g": 1, "ed": "city", "n": 2, "var": "", "sh": "ours", "sx": "0123456789ab"}
    with pytest.raises(frames.FrameError, match="names a sheet"):
        frames.decode(frames.encode("ev", v=4, boot=1, s=1, e=game))
    with pytest.raises(frames.FrameError, match="protocol version 5"):
        frames.decode(frames.encode("sheets", v=4, held=[], use=[], at=0))
    assert frames.decode(frames.encode("sheets", held=[["city", "ours", "0123456789ab"]], use=[["city", 0]], at=7))


@pytest.mark.parametrize("fields, says", [
    ({"held": [["city", "ours", "0123456789a"]], "use": [], "at": 0}, "not 12 hex digits"),
    ({"held": [["city", "Ours", "0123456789ab"]], "use": [], "at": 0}, "held[0][1]"),
    ({"held": [["puzzle", "ours", "0123456789ab"]], "use": [], "at": 0}, "held[0][0]"),
    ({"held": [["city", f"s{k}", "0123456789ab"] for k in range(7)], "use": [], "at": 0}, "7 items"),
])
def test_the_sheets_message_is_checked(fields, says):
    with pytest.raises(frames.FrameError, match=says.replace("[", r"\[").replace("]", r"\]")):
        frames.decode(frames.encode("sheets", **fields))
