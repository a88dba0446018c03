"""`make bench`: figures, not assertions (docs/virtual-console.md says how the VM is run).

1. The firmware's heap in the Pico-sized VM (192K) while a 3-player demo game is played on
   the virtual console through the whole stack, and how often its loop polls the buttons.
2. The firmware core's cost per button event in that VM: time and bytes allocated from a
   press to the frame out (the VM's time, on this machine; not the Pico's).
3. The host: events per second through the shipped logger (`doodlebox log`, its own process)
   over a pseudo-terminal, committed to SQLite before each acknowledgement, and the time a
   single event waits for its acknowledgement (p50, p99).
4. The rules engine: validated 4-player games per second and microseconds per action for
   each dice edition, random playouts per second, and the cost of one search step; the
   same validation rates for Deadly Doodles and Doodle Puzzle.
5. Live validation: the PC's verdict after event 10 and after event 130 of the same game,
   through `doodlebox log`'s path (livegame.LiveGames), and what a whole replay costs there.
6. Hints end to end: the chord on the virtual console to the PC's answer on its panel (bench_console_hint.py).
7. The table's sheets: the firmware's heap in the VM with a table's sheet held and a game begun on
   it (City, a Deadly Doodles map side), and the time a sheet takes to reach the virtual console
   through the shipped link over the pty, from its hello to its `sheets` holding it.
8. The PC's scores on the panel: from the PC's push to the e-paper's picture showing it (the VM,
   `doodlebox log`'s link, the scripted table) at a table's pace (2.5 s before each ROLL) and at
   the bot's own (a round in ~1.5 s): p50, p95, max.

`.venv/bin/python tests/tools/bench.py --only heap [--edition E ...] [--no-games | --no-power-up]`
prints only the firmware's heap: whole games (1.) and the power-up with a full journal;
`--only live` only live validation (5.); `--only club` only 20 consoles logged at once by one
`doodlebox log` into PostgreSQL and into SQLite (issue 22: tests/tools/bench_club.py); `--only sheets`
only the table's sheets (7.); `--only panel` only the PC's scores on the panel (8.).
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import house  # noqa: E402

house.on_path()
from doodlebox.virtual import cpython_micropython  # noqa: E402

cpython_micropython.install()   # the firmware's `from micropython import const` under CPython (as tests/conftest.py)

EDITIONS = ("city", "suzhou", "treasures", "shanghai", "monsters", "deadly", "puzzle")


def heading(text: str) -> None:
    print(f"\n{text}\n{'-' * len(text)}")


def bench_demo_heap(tmp: Path, editions: tuple[str, ...] = EDITIONS) -> None:
    """Per edition: a 3-player game played by the bot on the virtual console (the firmware in
    the VM, its heap reported at every collection), over a pty, pyserial and SQLite, with the
    PC validating and pushing scores as `doodlebox log` does."""
    from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, play_on_console
    from doodlebox.virtual.console import BENCH_BOOT, VirtualConsole

    heading("firmware heap in the VM (192K), a 3-player game per game (Doodle Puzzle: 5, its five minutes in real "
            "time) over pty, pyserial and SQLite")
    print(f"{'edition':10} {'events':>6} {'presses':>7} {'gaps>50ms':>9} {'secs':>5} {'peak live':>10} "
          f"{'of heap':>7} {'peak alloc':>10} {'collections':>11} {'poll p99/max ms':>16}")
    for k, edition in enumerate(EDITIONS):
        if edition not in editions:
            continue
        vc = VirtualConsole(mode="vm", seed=7 + k, flash_dir=tmp / f"flash-{edition}", boot=BENCH_BOOT).start()
        presses = [0]
        press = vc.press

        def counted(name, ms=PRESS_MS, press=press, presses=presses):
            presses[0] += 1
            press(name, ms)

        vc.press = counted  # type: ignore[method-assign]
        t0 = time.monotonic()
        try:
            _, counts = play_on_console(vc, tmp / f"demo-{edition}.sqlite3", edition, 3 if edition != "puzzle" else 5,
                                        seed=7 + k)
        finally:
            vc.stop()
        took = time.monotonic() - t0
        h = vc.heap_use()
        gaps = sorted(vc.hardware.button_poll_gaps)
        slow = sum(g > 0.050 for g in gaps)
        print(f"{edition:10} {counts['stored']:>6} {presses[0]:>7} {slow:>9} {took:>5.0f} {h['peak_live']:>10} "
              f"{100 * h['peak_live'] / h['total']:>6.0f}% {h['peak_alloc']:>10} {h['collections']:>11} "
              f"{1e3 * gaps[int(len(gaps) * 0.99)]:>9.1f}/{1e3 * gaps[-1]:.1f}")
    print(f"presses are held {PRESS_MS} ms, {1000 * PRESS_GAP_S:.0f} ms apart, in the firmware's time.")
    print("  gaps>50ms: of the firmware's latest 10,000 reads of its buttons, those more than 50 ms apart")
    print("  (only in such a gap could a real 80 ms press miss the 30 ms debounce; poll figures are wall-clock")
    print("  time in the VM). The bot checks every event the console sends, so a press the firmware missed")
    print("  stops the game; each game above ran to its end. peak live: the most in use just after a")
    print("  collection (the heap holds the VM's own modules and the virtual Pico's machine, neopixel and")
    print("  random, ~8 KB a Pico does not spend); tests/support/heap_report.py breaks it down module by module.")


def bench_full_journal_power_up(tmp: Path) -> None:
    """A power-up with a full journal (every segment of the budget held: ~20 2-player games
    played with no PC) in the VM, 192K and 128K, the PC attached through the shipped link
    until it has every event: the heap at each collection and the time it took."""
    import sqlite3

    from test_power_up_vm import fill, on_flash

    from doodlebox.logger.link_thread import LinkThread
    from doodlebox.virtual.console import BENCH_BOOT, VirtualConsole

    heading("firmware heap at a power-up with a full journal (no PC for ~20 games), then the PC takes it all")
    src = tmp / "full-journal"
    src.mkdir()
    fill(src)
    want = len(on_flash(src))
    print(f"{'heap':6} {'events':>6} {'stored':>6} {'secs':>5} {'peak live':>10} {'peak alloc':>10} "
          f"{'collections':>11}")
    for heap in ("192K", "128K"):
        folder = tmp / f"full-{heap}"
        shutil.copytree(src, folder)
        db = tmp / f"full-{heap}.sqlite3"
        vc = VirtualConsole(flash_dir=folder, heap=heap, boot=BENCH_BOOT).start()
        t0 = time.monotonic()
        n = 0
        try:
            link = LinkThread(vc.port, db, on_note=lambda t: None).start()
            try:
                while time.monotonic() - t0 < 300 and vc.error is None:
                    time.sleep(0.5)
                    if db.exists():
                        con = sqlite3.connect(db)
                        n = con.execute("SELECT count(*) FROM events").fetchone()[0]
                        con.close()
                        if n >= want:         # every held event
                            break
            finally:
                link.stop()
        finally:
            vc.stop()
        h = vc.heap_use()
        print(f"{heap:6} {want:>6} {n:>6} {time.monotonic() - t0:>5.0f} {h.get('peak_live', 0):>10} "
              f"{h.get('peak_alloc', 0):>10} {h['collections']:>11}" + (f"  STOPPED: {vc.error}" if vc.error else ""))


def bench_core_events() -> None:
    """Per edition: a whole scripted game pressed on the firmware core inside the VM."""
    from doodlebox.virtual.vm import run_program

    heading("firmware core per button event, in the VM (192K), a scripted 3-player game per edition")
    print(f"{'edition':10} {'presses':>8} {'us/press median':>16} {'p95':>6} {'bytes/press mean':>17} "
          f"{'max':>6} {'live after':>11}")
    import shutil

    per_turn = []

    CLAIM, VALUE = 2, 6        # firmware/doodle/rounds.py: the phases of a player's turn
    for edition in ("city", "suzhou", "treasures", "shanghai", "monsters"):
        last_turn = -1
        # the VM's filesystem: the firmware, the guest scripts and a flash folder for the journal
        # (board/flash.py, as on the Pico)
        root = Path(tempfile.mkdtemp(prefix="doodlebox-core-"))
        shutil.copytree(ROOT / "firmware", root / "firmware")
        shutil.copytree(ROOT / "tests" / "guest", root / "guest")
        (root / "flash").mkdir()
        boot = ("import sys\nsys.path.insert(0, '/firmware')\nsys.path.insert(0, '/guest')\n"
                f"sys.argv[:] = ['bench_core', {edition!r}, '3', '/flash/']\nimport bench_core\n")
        try:
            r = run_program(boot, root, heap="192K", writable=True, guest_root="/")
        finally:
            shutil.rmtree(root)
        us, nbytes, live = [], [], 0
        turns: list[list[int]] = []       # the presses of each turn (their us), in order
        pending: list[int] = []
        for line in r.stdout.splitlines():
            parts = line.split()
            if parts[:1] == ["press"]:
                us.append(int(parts[1]))
                nbytes.append(int(parts[2]))
                phase, turn = int(parts[3]), int(parts[4])
                if CLAIM <= phase <= VALUE:                # a press of a player's turn
                    pending.append(int(parts[1]))
                    if turn != last_turn:                  # ... that completed it
                        turns.append(pending)
                        pending = []
                last_turn = turn
            elif parts[:1] == ["live"]:
                live = int(parts[1])
        per_turn.append((edition, turns))
        us.sort()
        print(f"{edition:10} {len(us):>8} {statistics.median(us):>16.0f} {us[int(len(us) * 0.95)]:>6} "
              f"{statistics.mean(nbytes):>17.0f} {max(nbytes):>6} {live:>11}")
    print("bytes/press: allocated from a press to its frame out (button, tick, screen, dice, serial_out),")
    print("  the journal's writes to the flash folder included (board/flash.py);")
    print("  issue 9 asks <= 1 KB. live after: the core's heap after the game, collected.")
    heading("presses per turn, the same scripted games (a die, then the square if the die leaves a choice,")
    print("the piece, the value if more than one could be circled; PASS for a tree is one press)")
    print(f"{'edition':10} {'turns':>6} {'presses/turn':>13} {'1':>5} {'2':>5} {'3':>5} {'4+':>5} "
          f"{'console ms/turn':>16}")
    for edition, turns in per_turn:
        n = len(turns) or 1
        count = [len(t) for t in turns]
        share = [sum(1 for c in count if c == k) / n for k in (1, 2, 3)] + [sum(1 for c in count if c >= 4) / n]
        ms = statistics.mean(sum(t) for t in turns) / 1000 if turns else 0
        print(f"{edition:10} {len(turns):>6} {statistics.mean(count) if count else 0:>13.2f} "
              + " ".join(f"{100 * x:>4.0f}%" for x in share) + f" {ms:>16.1f}")
    print("1: a house square (nothing to draw) or PASS for a tree; 2: a die and a piece, the common turn;")
    print("3+: a row or column to choose (a 6, a park, a breaker) or a value. console ms/turn: the firmware's")
    print("  time for those presses in the VM on this machine (not the Pico's), panel drawing not included.")


def bench_host_rate(tmp: Path, n: int = 20000, singles: int = 500) -> None:
    """The shipped logger: `doodlebox log --port PTY --db DB` started as its own process, a console
    in CPython on the pty's other end (tests/support/fakeconsole.py: the firmware's frames, go-back-N with
    8 in flight, as docs/protocol.md says) sending whole games at full speed; then single events,
    each sent when the last was acknowledged, timed from its frame out to its ack in."""
    from fakeconsole import FakeConsole, game_events
    from logger_rig import Logger

    heading(f"host: `doodlebox log` as its own process, {n:,} events over a pty (SQLite synchronous=FULL, "
            "commit before ack)")
    console = FakeConsole()
    logger = Logger(console.path, tmp / "rate.sqlite3", tmp / "rate.log").start()
    try:
        logger.wait_connected(console)
        made = 0
        for g, events in enumerate(game_events(n // 100 + 1, seed=5), start=1):
            for e in events:
                if made < n:
                    console.add(dict(e, g=g))
                    made += 1
        t0 = time.perf_counter()
        assert console.run_until(console.all_acked, 300, wait=0.001)
        took = time.perf_counter() - t0
        waits = []
        for _ in range(singles):
            console.add({"k": "refuse", "g": 1, "r": 1, "p": 0, "i": 1, "why": "taken"})
            t1 = time.perf_counter()
            console.step()                                    # the frame goes out now
            assert console.run_until(console.all_acked, 10, wait=0.0005)
            waits.append(console.acks[-1][2] - t1)
        code = logger.stop()
    finally:
        logger.stop()
        console.pull()
    check = console.check(tmp / "rate.sqlite3")
    waits.sort()
    print(f"{n:,} events in {took:.2f} s: {n / took:,.0f} events/s ({console.resends} resends; "
          f"lost {check['lost']}, duplicated {check['duplicated']}; logger exit {code})")
    print(f"single event to its ack, {singles} times: p50 {1e3 * waits[len(waits) // 2]:.1f} ms, "
          f"p99 {1e3 * waits[int(len(waits) * 0.99)]:.1f} ms, max {1e3 * waits[-1]:.1f} ms")
    print("  issue 11 asks >= 5,000 events/s and an ack within 20 ms at p99. The logger validates each game")
    print("  in a thread of its own (a game coming this fast is validated every 0.1 s), and prints every event.")


def bench_rules(games_per_edition: int = 40) -> None:
    """Validation as `doodlebox validate` does it (parse the record's JSON, replay every action
    through the engine's check, score), for random legal 4-player games of every dice edition;
    the cost of a search step; playouts."""
    import json
    import random

    from randomplay import random_record

    from doodlebox.rules.games import DICE

    heading("rules engine: 4-player games of each dice edition (CPython)")
    print(f"{'edition':10} {'validated games/s':>18} {'checked actions/s':>18} {'search actions/s':>17} "
          f"{'playouts/s':>11}")
    for game in DICE:
        t_play = time.perf_counter()
        texts = [json.dumps(random_record(game, seed, 4)) for seed in range(games_per_edition)]
        playouts = games_per_edition / (time.perf_counter() - t_play)
        for text in texts[:3]:  # warm up
            game.replay(game.parse(json.loads(text), "bench"))
        actions = 0
        t0 = time.perf_counter()
        for text in texts:
            rp = game.replay(game.parse(json.loads(text), "bench"))
            assert not rp.violations
            actions += len(rp.state.history)
        took = time.perf_counter() - t0
        # a search step: clone the state, list the legal actions, clone and apply each of 8
        rng = random.Random(1)
        s = game.new_game(4).new_state()
        while s.is_chance_node():
            s.apply_unchecked(s.sample_chance(rng))
        n, t1 = 0, time.perf_counter()
        while time.perf_counter() - t1 < 0.5:
            c = s.clone()
            for a in c.legal_actions()[:8]:
                c2 = c.clone()
                c2.apply_unchecked(a)
                n += 1
        search_rate = n / (time.perf_counter() - t1)
        print(f"{game.edition:10} {games_per_edition / took:>18,.0f} {actions / took:>18,.0f} {search_rate:>17,.0f} "
              f"{playouts:>11,.0f}")
    print("validated: the record's JSON parsed, every action (rolls and turns) checked against the rules and")
    print("  applied, as doodlebox validate does (without printing); issue 13: >= 500 games/s, >= 50,000 actions/s.")
    print("search actions/s: from the first turn, clone, list the legal actions, clone and apply each of 8.")
    print("playouts/s: random legal games played to the end, each action checked.")


def bench_card_games(games: int = 200) -> None:
    """Deadly Doodles and Doodle Puzzle: random legal games, then their records validated."""
    import json

    from randomplay import random_record

    from doodlebox.rules.games import find_game

    heading("rules engine: Deadly Doodles and Doodle Puzzle (CPython)")
    print(f"{'game':32} {'players':>7} {'games generated/s':>18} {'validated games/s':>18} {'checked actions/s':>18}")
    for edition, players, variant in (("deadly", 1, ""), ("deadly", 4, ""), ("puzzle", 5, ""),
                                      ("puzzle", 8, "showdown"), ("puzzle", 6, "behave")):
        game = find_game(edition)
        t0 = time.perf_counter()
        texts = [json.dumps(random_record(game, seed, players, variant)) for seed in range(games)]
        made = time.perf_counter() - t0
        actions = 0
        t1 = time.perf_counter()
        for text in texts:
            rp = game.replay(game.parse(json.loads(text), "bench"))
            assert not rp.violations, rp.violations[:1]
            actions += len(rp.state.history)
        took = time.perf_counter() - t1
        name = game.name + (f" ({variant})" if variant else "")
        print(f"{name:32} {players:>7} {games / made:>18,.0f} {games / took:>18,.0f} {actions / took:>18,.0f}")


def bench_live_validation(tmp: Path, repeats: int = 25) -> None:
    """Live validation's cost per event, through the shipped path (livegame.LiveGames.stored, as
    `doodlebox log`'s validation thread calls it after each event that can change a score, the
    store holding the game as far as that event): the verdict after event 10 and after event 130
    of the same game. LiveGames follows each game in memory and plays only what an event adds; the
    whole replay (LiveGames(incremental=False): the game read back, made a record, parsed and
    replayed) is what every verdict cost before issue 19, and what a game still costs once, when
    it resumes or in doubt."""
    import gc

    from console_events import console_events
    from console_games import deadly_events
    from randomplay import random_game

    from doodlebox.logger.verdicts import SCORED, LiveGames
    from doodlebox.rules.games import find_game
    from doodlebox.store import Store

    def game_of(make) -> list[dict]:      # the first seed whose events 10 and 130 change a score
        for seed in range(1, 100):
            events = make(seed)
            if len(events) >= 130 and events[9]["k"] in SCORED and events[129]["k"] in SCORED:
                return events
        raise AssertionError("no such game")

    heading("live validation: the PC's verdict after event 10 and after event 130 of the same game "
            "(LiveGames, doodlebox log's path)")
    games = {"Doodle China: Suzhou, 5 players": game_of(lambda s: console_events(random_game(find_game("suzhou"),
                                                                                          s, 5))),
             "Deadly Doodles, 4 players": game_of(lambda s: deadly_events(random_game(find_game("deadly"), s, 4)))}
    print(f"{'game':32} {'event':>5} {'kind':>6} {'live us':>8} {'whole replay us':>16}")
    for k, (name, events) in enumerate(games.items()):
        live_us = {}
        for n in (10, 130):
            store = Store(tmp / f"live-{k}-{n}.sqlite3")
            store.append_many("bench", [(1, s, e) for s, e in enumerate(events[:n], start=1)])
            took: dict[bool, list[float]] = {True: [], False: []}
            whole = LiveGames(store, incremental=False)    # the same every time: the game replayed whole
            for _ in range(repeats):
                live = LiveGames(store)                    # followed from its start, as the logger follows it
                for s, e in enumerate(events[:n - 1], start=1):
                    if e["k"] in SCORED:
                        live.stored("bench", 1, e, s)
                for incremental, games in ((True, live), (False, whole)):
                    gc.disable()                  # as timeit does: the call's own cost, not a collection's
                    t0 = time.perf_counter()
                    games.stored("bench", 1, events[n - 1], n)
                    took[incremental].append(time.perf_counter() - t0)
                    gc.enable()
            store.close()
            live_us[n] = 1e6 * statistics.median(took[True])
            print(f"{name:32} {n:>5} {events[n - 1]['k']:>6} {live_us[n]:>8.0f} "
                  f"{1e6 * statistics.median(took[False]):>16.0f}")
        print(f"{'':32} event 130 costs {live_us[130] / live_us[10]:.2f}x event 10 (issue 19 asks at most 2x)")
    print("median of", repeats, "times each (no garbage collection during the call, as timeit); live: the verdict")
    print("  of a game followed since its start (the events")
    print("  stored since the last verdict read, taken, and what they add played); whole replay: the game read")
    print("  back, made a record, parsed and replayed, as every verdict was made before issue 19.")


def bench_panel_scores(tmp: Path) -> None:
    """How long the PC's scores take to reach the e-paper (tests/support/panel_watch.py): p50, p95
    (the nearest rank) and max of the pushes shown, and how many never were."""
    from panel_watch import delays, watch_game

    heading("the PC's scores on the panel: from the push to the picture (VM, bot, doodlebox log's link)")
    for label, pause, seeds in (("at a table's pace (2.5 s before each ROLL)", 2.5, (3, 5, 8)),
                                ("at the bot's own pace (a round in ~1.5 s)", 0.0, (3,))):
        waits: list[float] = []
        never = 0
        for seed in seeds:
            game = tmp / f"panel-{seed}-{pause}"
            game.mkdir()
            got = delays(*watch_game(game, seed=seed, roll_pause_s=pause))
            waits += [w for w in got if w is not None]
            never += sum(w is None for w in got)
        ms = sorted(1e3 * w for w in waits)
        p95 = ms[min(len(ms) - 1, -(-len(ms) * 95 // 100) - 1)]
        print(f"{label}: {len(ms)} pushes shown ({never} never): p50 {statistics.median(ms):.0f} ms, "
              f"p95 {p95:.0f} ms, max {ms[-1]:.0f} ms")
    print("issue 36 asks p95 within a second at a table's pace. A round's end is a full refresh of the e-paper")
    print("  (2 s, docs/console.md), which waits for the PC's scores of the move that ended it (board/loop.py, at")
    print("  most 0.5 s); at the bot's own pace the panel does nothing but full refreshes, and a push waits up to")
    print("  2 s for the one under way.")


def journal_budget() -> None:
    """Whole games that fit in the console's journal with no PC (the firmware's core, CPython)."""
    sys.path.insert(0, str(ROOT / "tests" / "guest"))
    import table_script

    from doodle import flashlog
    from doodle.app import App

    heading("the console's journal on flash: whole games kept with no PC (budget 256 KB)")
    print(f"{'edition':10} {'players':>7} {'games':>6} {'events':>7} {'bytes/game':>11}")
    for edition, players in (("city", 3), ("city", 5), ("monsters", 3), ("treasures", 1)):
        flash = flashlog.RamFlash()
        app = App(table_script.rand, 1, "bench", flash)
        clock = [0]
        games = 0
        while not app.journal.full():
            for name in table_script.steps(app, clock, edition, players, ack=False):
                clock[0] += 150
                app.button(name, clock[0])
                while app.collect_wanted:
                    app.collected()
                app.tick(clock[0])
                app.serial_out()
            while app.game is not None:
                clock[0] += 300
                app.button("ROLL", clock[0])
                while app.collect_wanted:
                    app.collected()
                app.tick(clock[0])
            games += 1
        size = sum(len(v) for k, v in flash.data.items() if k.endswith(".seg"))
        print(f"{edition:10} {players:>7} {games:>6} {app.journal.next - 1:>7} {size // games:>11,}")


def bench_coach(greedy_games: int = 100, search_games: int = 3, budget_s: float = 0.5) -> None:
    """The coach's bots (docs/coach.md) per dice edition (solo where the edition has a solo game,
    else two seats of the same level): the mean score and the ranks (solo) or the winner's mean,
    ms per move, and the playouts per second from a new game of the greedy DicePolicy on the
    engine and (solo 5x5 editions) of the search's PlanPolicy on the fast simulation (coach/fast.py)."""
    import random

    from doodlebox.coach import bots
    from doodlebox.coach.fast import simulate_plan
    from doodlebox.coach.policy import DicePolicy, PlanPolicy
    from doodlebox.coach.search import playout
    from doodlebox.rules.games import find_game

    heading(f"coach: bots through the engine (greedy {greedy_games} games, search {search_games} games at "
            f"{budget_s:g} s per move)")
    print(f"{'edition':10} {'seats':>5} {'level':8} {'games':>5} {'mean':>6} {'±se':>5} {'median':>6} "
          f"{'ms/move':>8} {'playouts/s':>10} {'sim/s':>6}  ranks reached")

    def rate(pol) -> float:
        t = time.perf_counter()
        n = 0
        while time.perf_counter() - t < 1.0:
            playout(game.new_state(), pol, random.Random(n), random.Random(-n))
            n += 1
        return n / (time.perf_counter() - t)

    for edition in ("city", "suzhou", "treasures", "shanghai", "monsters"):
        seats = 1 if find_game(edition).players[0] == 1 else 2
        game = find_game(edition).new_game(seats)
        slow = rate(DicePolicy())
        plan = PlanPolicy()
        fast = rate(plan) if simulate_plan(plan, game.new_state(), random.Random(0)) is not None else 0.0
        for name, games in (("greedy", greedy_games), ("search", search_games)):
            m = bots.run(edition, seats, games, [name], seed=1000, budget_s=budget_s)
            row = bots.summary(m)[0]
            reached = ", ".join(f"{k} {v}" for k, v in sorted(row["reached"].items(), key=lambda kv: str(kv[0])))
            print(f"{edition:10} {seats:>5} {name:8} {games:>5} {row['mean']:6.1f} {row['se']:5.1f} "
                  f"{row['median']:6g} {row['ms_per_move']:8.1f} {slow:10.0f} {fast:6.0f}  {reached}", flush=True)


def bench_hints(positions: int = 24) -> None:
    """`doodlebox hint`'s search (coach/analysis.decide at its default budget) on mid-game positions
    of each dice edition (1 to 4 players, the greedy policy played to a random round from 2 to
    14): p50 and p95 ms per hint, the moves considered and the playouts made per hint. Issue 21
    wants a hint within 1 s at p95."""
    import random

    from doodlebox.coach import analysis
    from doodlebox.coach.policy import policy_for
    from doodlebox.rules.games import find_game

    heading(f"coach: hints at the default budget ({analysis.HINT_BUDGET_S:g} s), {positions} mid-game positions "
            "an edition")
    print(f"{'edition':10} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'moves p50':>9} {'playouts p50':>12} "
          f"{'playouts min':>12}")
    for edition in ("city", "suzhou", "treasures", "shanghai", "monsters"):
        rng = random.Random(21)
        low = find_game(edition).players[0]
        ms: list[float] = []
        moves: list[int] = []
        made: list[int] = []
        while len(ms) < positions:
            s = find_game(edition).new_game(rng.randint(low, 4)).new_state()
            pol = policy_for(s)
            stop = rng.randint(2, 14)
            while not s.is_terminal() and not (s.round >= stop and getattr(s, "phase", "") == "turn"):
                s.apply_unchecked(s.sample_chance(rng) if s.is_chance_node() else pol(s, rng))
            if s.is_terminal():
                continue
            t = time.perf_counter()
            d = analysis.decide(s, budget_s=analysis.HINT_BUDGET_S, seed=len(ms))
            ms.append((time.perf_counter() - t) * 1000)
            moves.append(d.considered)
            made.append(d.playouts)
        q = statistics.quantiles(ms, n=20)
        print(f"{edition:10} {statistics.median(ms):7.0f} {q[18]:7.0f} {max(ms):7.0f} {statistics.median(moves):9g} "
              f"{statistics.median(made):12g} {min(made):12}", flush=True)


def own_flash(sheet) -> dict[str, str]:
    """A console's flash holding `sheet` (a library Sheet) as the PC's link leaves it, chosen for its
    game (docs/protocol.md, "The table's sheets"): sh/<ed>.<name>.<hash>.<crc> and sh/use."""
    import json
    import zlib

    from doodlebox.sheets import console as console_form

    raw = console_form.content(sheet)
    game = console_form.game_of(sheet)
    return {f"sh/{game}.{sheet.name}.{sheet.hash}.{zlib.crc32(raw):08x}": raw.decode(),
            "sh/use": json.dumps({game: sheet.hash, "at": 1})}


def bench_sheets(tmp: Path, sends: int = 5) -> None:
    """The table's sheets (issue 35): the firmware's live heap in the 192K VM (heap_report.game_heap:
    the board built, the lobby, a game of 3 begun by the lobby's ROLL) on its default and with a
    table's sheet held and chosen, a game begun on it; then the time a sheet takes to reach the
    virtual console (the firmware in the VM behind a pty) through the shipped link (LinkThread and
    its courier, as `doodlebox log` follows a virtual console), from the console's hello (the PC's
    handshake made: logger/sheets.py Courier.hello) to its `sheets` holding the sheet, each sheet
    a new one of its name replacing the last (the console plugged in again for its hello)."""
    import json

    from faults_sheets_cable import VmConsole
    from heap_report import game_heap
    from sheet_rig import data_home
    from waiting import first

    from doodlebox.rules.dice import layout
    from doodlebox.sheets import console as console_form
    from doodlebox.sheets import library

    heading("the table's sheets: firmware heap in the VM (192K) with a table's sheet held and a game begun on it")
    print(f"{'game':34} {'content B':>9} {'board':>8} {'lobby':>8} {'game':>8} {'qstrs':>6}")
    with data_home():
        city = dict(json.loads(layout.default_path("city").read_text()), name="Our City")
        side = dict(json.loads(library.find("deadly-a").path.read_text()), name="Our map")
        rows = [("City, its default sheet", "city", None),
                ("City, the table's sheet", "city", library.add_data(city, "our-city", "bench")),
                ("Deadly Doodles, map side A", "deadly", None),
                ("Deadly Doodles, the table's side", "deadly", library.add_data(side, "our-map", "bench"))]
        for label, edition, sheet in rows:
            h = game_heap(edition, flash=own_flash(sheet) if sheet is not None else None)
            size = f"{len(console_form.content(sheet)):,}" if sheet is not None else "-"
            print(f"{label:34} {size:>9} {h['board'][0]:>8,} {h['lobby'][0]:>8,} {h['game'][0]:>8,} "
                  f"{h['game'][1]:>6}", flush=True)
    print("live bytes after a collection; qstrs: names interned with the game begun. The sheet's content is")
    print("  held on flash and read whole once, at the game's start (doodle/ownsheet.py read: its constants an")
    print("  object), where a default's are the generated module's (doodle/ed_city.py, deadly_a.py).")

    heading("the table's sheets: one sheet to the virtual console (VM) through the shipped link over the pty")
    print(f"{'sheet':26} {'content B':>9} {'frames':>6} {'sends':>5} {'median ms':>9} {'min ms':>7} {'max ms':>7}")
    with data_home() as d:
        base = json.loads(layout.default_path("city").read_text())
        a_side = json.loads(library.find("deadly-a").path.read_text())
        kinds = [("City sheet", lambda k: library.add_data(dict(base, name="Ours", trees=10 + k), "ours", "bench",
                                                           replace=True)),
                 ("Deadly Doodles map side", lambda k: library.add_data(dict(a_side, name=f"Our map {k}"), "our-map",
                                                                        "bench", replace=True))]
        con = None
        try:
            for label, make in kinds:
                took, sheet = [], None
                for k in range(sends + 1):
                    sheet = make(k)
                    library.use(sheet.name, 1_700_000_000 + 10 * k + (100 if label.startswith("Deadly") else 0))
                    if con is None:
                        con = VmConsole(d, seed=3)
                    else:
                        con.pull()               # plugged in again: its hello, then the sheet
                    c, x, ed = con.courier, sheet.hash, "city" if label.startswith("City") else "deadly"
                    held = first(lambda c=c, x=x: c.holds(x), 60, 0.001)
                    if held is None:
                        print(f"{label:26} the sheet did not arrive: {con.notes[-2:]}")
                        break
                    hello = max(t for t in c.hellos if t <= held)
                    if k:                        # (the first: the console's boot and first link, not counted)
                        took.append((held - hello) * 1000)
                    first(lambda c=c, x=x, ed=ed: c.plays(x, ed), 30, 0.01)   # its `use` taken
                if took and sheet is not None:
                    print(f"{label:26} {len(console_form.content(sheet)):>9,} {len(console_form.frames(sheet)):>6} "
                          f"{len(took):>5} {statistics.median(took):>9.0f} {min(took):>7.0f} {max(took):>7.0f}",
                          flush=True)
        finally:
            if con is not None:
                con.stop()
    print("from the console's hello (after each re-plug of its cable) to its `sheets` saying it holds the sheet, wall")
    print("  clock: the PC's `sheet` frames one at a time (stop and wait for each `got`), the console writing each")
    print("  chunk to flash, checking the whole (CRC, the game it is of) and renaming it into place; each a new")
    print("  sheet replacing the last of its name (the first, on the console's first boot, not counted).")


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="doodlebox benchmarks (figures, not assertions)")
    ap.add_argument("--only", choices=("heap", "live", "club", "sheets", "panel"),
                    help="heap: only the firmware's heap in whole games and at a power-up with a full journal "
                    "(issue 17's figures); live: only live validation's cost per event (issue 19's); club: only "
                    "20 consoles logged at once into PostgreSQL and SQLite (issue 22's); sheets: only the "
                    "table's sheets (issue 35's); panel: only the PC's scores on the panel (issue 36's)")
    ap.add_argument("--edition", action="append", choices=EDITIONS,
                    help="with --only heap: this game only (repeatable; default all seven)")
    ap.add_argument("--no-games", action="store_true", help="with --only heap: only the full-journal power-up")
    ap.add_argument("--no-power-up", action="store_true", help="with --only heap: skip the full-journal power-up")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="doodlebox-bench-") as d:
        tmp = Path(d)
        if args.only == "heap":
            if not args.no_games:
                bench_demo_heap(tmp, tuple(args.edition or EDITIONS))
            if not args.no_power_up:
                bench_full_journal_power_up(tmp)
            return 0
        if args.only == "live":
            bench_live_validation(tmp)
            return 0
        if args.only == "sheets":
            bench_sheets(tmp)
            return 0
        if args.only == "panel":
            bench_panel_scores(tmp)
            return 0
        import bench_club
        import bench_console_hint

        if args.only == "club":
            bench_club.bench()
            return 0
        bench_rules()
        bench_card_games()
        bench_live_validation(tmp)
        bench_core_events()
        bench_host_rate(tmp)
        bench_club.bench()
        bench_demo_heap(tmp)
        bench_full_journal_power_up(tmp)
        bench_panel_scores(tmp)
        journal_budget()
        bench_coach()
        bench_hints()
        bench_console_hint.bench_console_hint(tmp)
        bench_sheets(tmp)
    print(f"\nmachine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
