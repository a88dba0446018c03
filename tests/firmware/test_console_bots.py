"""The PC's seats at the console (issue 21; docs/console.md, "The PC's seats"; docs/protocol.md
`bot?`, `bot`): the lobby's D6, the request at a PC's seat's turn, its move entered press by press
and shown, what the table does without the PC; the PC's answer from the store and the coach (whole
games of every dice edition played by the PC's seats under CPython); the whole path on the
virtual console (the firmware in the VM, the host's link)."""
from __future__ import annotations

import json
import time

import pytest
from test_console_hint import UID, Table, _store_with, same_table  # noqa: F401  (the fixture)

from doodle import link

DICE = ("city", "suzhou", "treasures", "shanghai", "monsters")


class BotTable(Table):
    def seats(self, k, players=3, edition=None):
        """The lobby: `players` seats, the last `k` the PC's (D6 pressed k times)."""
        app = self.app
        while edition is not None and app.edition != edition:
            self.press("D0")
        self.press("D%d" % players)
        while app.opts.get("pc", 0) != k:
            self.press("D6")

    def asked(self):
        return [m for m in self.sent if m["t"] == "bot?"]

    def answer(self, m, text="P2 (PC): a move", p=None, g=1):
        msg = {"t": "bot", "g": g, "p": self.app.game.current() if p is None else p, "text": text}
        if m is not None:
            msg["m"] = m
        self.app.serial_in(link.encode(msg), self.now)
        self.step(400)                  # (an event is written to the flash, then sent)

    def fitting(self):
        """A move for the player to act that the console's rules take: [die, row, col, face, 0]."""
        g = self.app.game
        p = g.current()
        for die in range(1, g.whites + 1):
            if g.why_not(p, die) is None:
                squares, _ = g.targets(g.sheets[p], die)
                i = next(s for s in squares if g.sheets[p].usable(s))
                return [die, i // g.ed.SIZE + 1, i % g.ed.SIZE + 1, 1, 0]
        return []


# -- the lobby ------------------------------------------------------------------------------------
def test_d6_in_a_dice_lobby_gives_the_pc_the_last_seats_and_the_choice_is_kept():
    t = BotTable()
    app = t.app
    t.press("D3")
    assert "pc" not in app.opts and "PC plays: none   (D6)" in app.screen()
    shown = []
    for _ in range(4):
        t.press("D6")
        shown.append(next(line for line in app.screen() if line.startswith("PC plays")))
    assert shown == ["PC plays: P3   (D6)", "PC plays: P2 P3   (D6)", "PC plays: P1 P2 P3   (D6)",
                     "PC plays: none   (D6)"]
    t.press("D6")
    t.press("D6")                                      # P2 P3
    t.press("D1")                                      # one player: the PC keeps at most that seat
    assert app.opts["pc"] == 1 and "PC plays: P1   (D6)" in app.screen()
    t.press("D3")
    assert app.players == 3 and app.opts["pc"] == 1    # (the seat is the last: P3 now)
    t.start()
    assert json.loads(t.flash.load("settings.json"))["pc"] == 1
    assert t.events("game")[0] == {"k": "game", "g": 1, "ed": "city", "n": 3, "var": "", "bots": [2]}
    again = BotTable(t.flash)
    assert again.app.opts["pc"] == 1


def test_a_card_game_has_no_pc_seats_and_its_d6_stays_its_own():
    t = BotTable()
    t.press("D3")
    t.press("D6")
    assert t.app.opts["pc"] == 1
    while t.app.edition != "deadly":
        t.press("D0")
    assert "pc" not in t.app.opts
    assert not any(line.startswith("PC plays") for line in t.app.screen())


# -- a PC's seat's turn ---------------------------------------------------------------------------
def test_at_a_pc_seats_turn_the_console_asks_once_and_enters_the_pcs_move_press_by_press():
    t = BotTable()
    t.connect()
    t.seats(1, players=2)
    g = t.start()
    assert g.current() == 0 and t.asked() == []        # P1 is the table's
    t.app.opts["pc"] = 2                               # (both seats the PC's from here: P1 asked now)
    t.step(200)
    (req,) = t.asked()
    assert req == {"t": "bot?", "v": link.VERSION, "g": 1, "s": t.app.journal.next - 1, "p": 0}
    assert t.notice() == "P1: the PC is choosing"
    t.step(1000)
    assert len(t.asked()) == 1                         # once a turn, not at every step
    m = t.fitting()
    t.answer(m, "P1 (PC): D%d row %d col %d: piece D1" % tuple(m[:3]))
    (claim,) = t.events("claim")
    assert (claim["p"], claim["i"], claim["row"], claim["col"]) == (0, m[0], m[1], m[2])
    assert t.notice() == "P1 (PC): D%d row %d col %d: piece D1" % tuple(m[:3])
    assert g.current() == 1 and len(t.asked()) == 1    # P2 waits while P1's move is shown ...
    t.step(2600)
    assert len(t.asked()) == 2 and t.asked()[1]["p"] == 1    # ... then is asked for
    t.step(200)
    assert t.notice() == "P2: the PC is choosing"


def test_the_pcs_tree_and_a_move_that_does_not_fit():
    t = BotTable()
    t.connect()
    t.seats(2, players=2, edition="shanghai")          # the 6x6 rules: a tree is always allowed
    g = t.start()
    t.step(200)
    t.answer([9, 1, 1, 1, 0])                          # no die 9: not played, said
    assert t.events("claim") == [] and g.current() == 0 and g.claiming()
    assert t.notice() == "P1: the PC's move did not fit"
    t.answer([], "P1 (PC): PASS, cross out a bottle")
    (tree,) = t.events("tree")
    assert tree["p"] == 0 and g.current() == 1
    assert t.notice() == "P1 (PC): PASS, cross out a bottle"


def test_without_the_pc_the_table_enters_the_turn_and_a_late_answer_is_not_played_twice():
    t = BotTable()
    t.seats(2, players=2)
    g = t.start()
    t.step(200)
    assert t.asked() == [] and t.notice() == "P1 is the PC's: no PC. Enter its turn"
    t.connect()                                         # the PC comes back: asked now
    t.step(2600)
    assert len(t.asked()) == 1
    t.step(5200)                                        # no answer in 5 s
    assert t.notice() == "P1: no move from the PC yet"
    m = t.fitting()
    t.press("D%d" % m[0], 40)                           # the table enters P1's turn by hand
    while g.asking():
        t.press({"row": "D%d" % m[1], "col": "D%d" % m[2], "piece": "D1", "value": "ROLL"}[g.asking()], 40)
    t.step(400)
    assert [c["p"] for c in t.events("claim")] == [0]
    t.answer(m, p=0)                                    # the late answer for P1: not played
    assert [c["p"] for c in t.events("claim")] == [0]


def test_a_pc_answer_for_another_game_or_seat_is_ignored():
    t = BotTable()
    t.connect()
    t.seats(2, players=2)
    t.start()
    t.step(200)
    m = t.fitting()
    t.answer(m, g=2)
    t.answer(m, p=1)
    assert t.events("claim") == []
    t.answer(m)
    assert len(t.events("claim")) == 1


# -- the PC's answer ------------------------------------------------------------------------------
class PcTable(BotTable):
    """A PC that stores every event and answers `bot?` with the coach (console_coach.bot_frame)."""

    def __init__(self, store):
        self.store = store
        self.answers: list[dict] = []
        super().__init__()

    def heard(self, msg):
        from doodlebox.logger.answers import bot_frame

        if msg["t"] == "ev":
            self.store.append(UID, msg["boot"], msg["s"], msg["e"])
        super().heard(msg)
        if msg["t"] == "bot?":
            out = bot_frame(self.store, UID, 1, msg["g"], msg["s"], msg["p"], budget_s=0.02)
            self.answers.append(out)
            self.app.serial_in(link.encode(out), self.now)


@pytest.mark.slow
@pytest.mark.parametrize("edition", DICE)
def test_the_pc_plays_whole_games_of_every_dice_edition_and_the_record_is_valid(tmp_path, edition):
    """Every seat the PC's: the table only rolls; every move the coach chose fits the console's
    rules (never "did not fit"), the game ends, and the PC's record of it replays with no
    violation and says which seats the PC played."""
    from doodlebox.history.console_record import to_record
    from doodlebox.rules.games import read_record

    store = _store_with(tmp_path, [])
    try:
        t = PcTable(store)
        t.connect()
        t.seats(2, players=2, edition=edition)
        g = t.start()
        while not g.over():
            assert t.now < 3_000_000, "the game did not end"
            if g.rolls():
                t.press("ROLL", 100)
            t.step(2600)
        texts = [a["text"] for a in t.answers]
        assert texts and all("(PC): " in x for x in texts), texts
        assert all("m" in a for a in t.answers)
        claims = t.events("claim") + t.events("tree")
        assert len(claims) == len(t.answers)               # each answer entered exactly once
        data = to_record(store.game_log_of(UID, 1, 1))
    finally:
        store.close()
    assert data["bots"] == [0, 1]
    rec, game = read_record(data, "x")
    result = game.replay(rec)
    assert result.violations == [] and result.state.is_terminal()


def test_the_pc_says_why_it_does_not_play(tmp_path):
    from test_console_record import city_events

    from doodlebox.logger.answers import bot_frame

    events = city_events()[:6]                             # the start roads: ROLL is next
    store = _store_with(tmp_path, events)
    try:
        out = bot_frame(store, UID, 1, 1, 6, 0)
        assert "m" not in out and out["text"] == "P1: no move from the PC: ROLL first"
        store.append(UID, 1, 7, city_events()[6])
        out = bot_frame(store, UID, 1, 1, 7, 1, budget_s=0.02)   # P1 is to act, not P2
        assert "m" not in out and out["text"] == "P2: not its turn on the PC"
    finally:
        store.close()


def test_the_frames_and_the_game_events_schema():
    from doodlebox.link import frames

    out = frames.bot(1, 2, [3, 4, 5, 6, 15], "P3 (PC): x")
    assert frames.decode(frames.encode("bot", **{k: v for k, v in out.items() if k != "t"})) == dict(out, v=5)
    assert frames.decode(frames.encode("bot?", g=1, s=3, p=1)) == {"t": "bot?", "v": frames.VERSION, "g": 1, "s": 3,
                                                                    "p": 1}
    with pytest.raises(frames.FrameError):
        frames.decode(frames.encode("bot?", g=1, s=3))
    good = {"k": "game", "g": 1, "ed": "city", "n": 3, "var": "", "bots": [1, 2]}
    assert frames.decode(frames.encode("ev", boot=1, s=1, e=good))["e"] == good
    for bad in ({"bots": [3]}, {"bots": [2, 1]}, {"bots": [1, 1]}, {"bots": []},
                {"ed": "deadly", "n": 2, "map": "a", "rec": "full"}):
        with pytest.raises(frames.FrameError):
            frames.decode(frames.encode("ev", boot=1, s=1, e=dict(good, **bad)))


# -- the whole path -------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_pcs_seats_play_a_city_game_on_the_virtual_console(tmp_path):
    """The firmware in the VM, its pty read by the host's LinkThread (the one `doodlebox log`
    runs): both seats of a City game the PC's; the table rolls; the PC's moves are made at the
    console and stored."""
    from test_console_hint import LinkedVm

    from doodlebox.store import Store

    with LinkedVm(tmp_path) as t:
        vc, host, notes, press, shown = t.vc, t.host, t.notes, t.press, t.shown
        shown(lambda ls: any("PC plays: none" in line for line in ls))
        press("D2")
        press("D6")
        press("D6")
        shown(lambda ls: any("PC plays: P1 P2" in line for line in ls))
        press("ROLL", 3)
        for _ in range(6):                     # the five start roads, then round 1
            press("ROLL", 0.6)
        shown(lambda ls: any("P1 (PC): " in line for line in ls), 30)
        shown(lambda ls: any("P2 (PC): " in line for line in ls), 30)
        assert vc.error is None, vc.error
        console = host.link.console if host.link is not None else None
        assert console is not None
        store = Store(tmp_path / "games.sqlite3")
        try:
            end = time.monotonic() + 10
            while time.monotonic() < end:
                kinds = [(e["k"], e.get("p")) for _, e in store.game_log_of(console.uid, console.boot, 1).events]
                if ("claim", 1) in kinds or ("tree", 1) in kinds:
                    break
                time.sleep(0.2)
        finally:
            store.close()
        assert kinds[0] == ("game", None) and {("claim", 0), ("tree", 0)} & set(kinds), kinds
        assert host.sent_answers >= 2, notes
