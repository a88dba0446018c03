"""`doodlebox demo`'s work (the command line parses and prints: cli/console.py): a whole game played
on the virtual console by the scripted table (table/dice.py and its card games' tables), stored,
exported and scored by the PC, the console's own totals set beside the PC's. Every line goes to
`say`.

Its games go to a database of their own (paths.demo_db(), or `db`), never to the family's: a
scripted table's games must not count in their games, statistics or page. Each demo is the next
boot of the same virtual console (its boot counter and id from the database: demo_flash), so every
demo's game is kept beside the ones before it. With `consoles` N, N virtual consoles (boards
DEMO_BOARD and the next ones, dice seeded `seed`, `seed` + 1, ...) each play a game at the same
time, each logged by a link of its own into the one database, each line named by its console's
number.

A game played on a sheet (a dice edition, Deadly Doodles) is played on the table's own when the
table chose one (`doodlebox sheets use NAME`, docs/sheets.md): the console's link sends it the
table's sheets after its hello, the demo says which sheet the game is played on once the console
holds it (and stops with the reason when it does not arrive), and the PC's rules play, store and
score the game on the sheet its `game` event names."""
from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from doodlebox import paths
from doodlebox.errors import InputError
from doodlebox.history.console_record import to_record
from doodlebox.link.describe import describe
from doodlebox.logger.run import ONE_CPYTHON, prepare
from doodlebox.rules.api import GameType
from doodlebox.rules.games import find_game
from doodlebox.store import Store
from doodlebox.store.postgres import shown
from doodlebox.table.dice import play_on_console
from doodlebox.virtual.console import start_virtual

DEMO_BOARD = b"\xd0\x0d\x1e\xb0\x00\x00\xde\x30"   # the demo's virtual console: a board of its own (log's: ...01)
DEMO_MAX = 8     # --consoles: the next boards (...de31, ...)


@dataclass
class Options:
    """What `doodlebox demo` was asked: the edition, the players, the game's options by name (the
    spec's), the database (a file or a postgresql:// URL), how many consoles, and the table's pace."""

    edition: str
    players: int
    chosen: dict[str, str]
    control: bool = False
    db: Path | str | None = None
    cpython: bool = False
    seed: int = 7
    consoles: int = 1
    press_ms: float = 80
    gap_ms: float = 100
    fast_clock: bool = False


@dataclass
class Played:
    """What the demo played: the database (`named`: as it is shown, without a password), each
    console's game (its number in the database, its violations, its panel's last picture, why its
    firmware stopped if it did), and whether every game finished with no violation and the
    console's totals equal to the PC's."""

    db: Path | str
    named: str
    ids: list[int] = field(default_factory=list)
    violations: list[int] = field(default_factory=list)
    pictures: list[Path] = field(default_factory=list)
    crashed: list[str | None] = field(default_factory=list)
    ok: bool = True


def play(opts: Options, say: Callable[[str], None]) -> Played:
    """The demo's games, each played, stored and scored (module docstring). InputError for
    players or consoles the game or the machine cannot take."""
    game = find_game(opts.edition)
    spec = game.spec
    low, high = spec.players_for(opts.chosen)           # the spec's limits too (Behave's players, P9)
    if not low <= opts.players <= high:
        limited = [o.choice(opts.chosen[o.name]).label for o in spec.options
                   if any(lim.option == o.name and lim.choice == opts.chosen[o.name] and lim.players
                          for lim in spec.limits)]
        raise InputError(f"--players {opts.players}: {game.name}{''.join(f' ({t})' for t in limited)} is for "
                         f"{low} to {high} players")
    n = opts.consoles
    if not 1 <= n <= DEMO_MAX:
        raise InputError(f"--consoles {n}: from 1 to {DEMO_MAX} virtual consoles")
    if opts.cpython and n > 1:
        raise InputError(f"--consoles {n} --cpython: {ONE_CPYTHON}")
    options = {} if spec.dice else {o.key: opts.chosen[o.name] for o in spec.options}
    db: Path | str = opts.db if opts.db is not None else paths.demo_db()
    named = shown(db) if isinstance(db, str) else str(db)      # a server's URL without its password
    pictures = db if isinstance(db, Path) else paths.demo_db()  # the panels' PNGs: beside the file
    pictures.parent.mkdir(parents=True, exist_ok=True)
    if n > 1:
        prepare(db)
    played: list = [None] * n       # each console's (table, png, the firmware's error)
    failed: list[BaseException] = []

    def one(k: int) -> None:
        name = f"[{k + 1}] " if n > 1 else ""
        board = DEMO_BOARD[:-1] + bytes([DEMO_BOARD[-1] + k])
        with tempfile.TemporaryDirectory(prefix="doodlebox-demo-flash-") as flash:
            boot = demo_flash(db, Path(flash), board)
            vc = start_virtual("cpython" if opts.cpython else "vm", opts.seed + k, Path(flash),
                               fast_clock=opts.fast_clock, unique_id=board)
            say(f"{name}virtual console ({vc.mode}) on {vc.port}, boot {boot}; its games go to {named}")
            try:
                table, _ = play_on_console(vc, db, opts.edition, opts.players, opts.control, seed=opts.seed + k,
                                           show=lambda e: say(name + describe(e)),
                                           on_note=lambda t: say(f"{name}  note: {t}"),
                                           press_ms=opts.press_ms, gap_s=opts.gap_ms / 1000, options=options,
                                           say=lambda t: say(name + t))
                png = vc.save_panel(pictures.with_suffix(".png") if k == 0
                                    else pictures.with_name(f"{pictures.stem}-{k + 1}.png"))
            finally:
                vc.stop()
        played[k] = (table, png, vc.error)   # vc.error: the firmware stopped (a Pico would drop to its REPL)

    if n == 1:
        one(0)
    else:
        def guarded(k: int) -> None:
            try:
                one(k)
            except BaseException as exc:
                failed.append(exc)

        tables = [threading.Thread(target=guarded, args=(k,), name=f"demo-{k + 1}", daemon=True) for k in range(n)]
        for t in tables:
            t.start()
        for t in tables:
            t.join()
        if failed:
            raise failed[0]
    out = Played(db, named)
    for k, (table, png, crashed) in enumerate(played):
        gid, good, wrong = _result(game, db, named, table, crashed, f"console {k + 1}: " if n > 1 else "", say)
        out.ok = out.ok and good
        out.ids.append(gid)
        out.violations.append(wrong)
        out.pictures.append(png)
        out.crashed.append(crashed)
    return out


def _result(game: GameType, db: Path | str, named: str, table, crashed: str | None, who: str,
            say: Callable[[str], None]) -> tuple[int, bool, int]:
    """A demo's game as stored, replayed and scored by the PC, said: its number, whether it
    finished with no violation, the console's totals equal to the PC's and the firmware alive,
    and its violations."""
    store = Store(db)
    try:
        gid = getattr(table.final, "game", None)      # the end event as stored: printout.Stored
        log = store.game_log(gid if gid is not None else "last")
    finally:
        store.close()
    assert log is not None
    record = to_record(log)
    rp = game.replay(game.parse(record, f"game {log.id}"))
    console = (table.final or {}).get("p")
    say(f"\n{who}game {log.id}: {len(log.events)} events stored in {named}")
    say(game.table_text(rp))
    say("")
    say(agreement(console, rp.state.scores()))
    good = bool(rp.finished and not rp.violations and console == rp.state.scores() and not crashed)
    return log.id, good, len(rp.violations)


def agreement(console: object, pc: list[int]) -> str:
    """The end of a demo: each player's total as the console counted it (its `end` event: what its
    panel shows with no PC) beside the PC's, and whether they agree."""
    if not isinstance(console, list):
        return ("The PC's totals: " + ", ".join(f"P{i + 1} {t}" for i, t in enumerate(pc))
                + "; the console sent no totals of its own to compare")
    rows = [(f"P{i + 1}", console[i] if i < len(console) else "-", pc[i] if i < len(pc) else "-")
            for i in range(max(len(console), len(pc)))]
    same = sum(c == p for _, c, p in rows)
    head = ("The console's own totals and the PC's agree" if same == len(rows)
            else f"The console's own totals and the PC's differ for {len(rows) - same} player(s)")
    out = [head + ":", f"  {'player':<8}{'console':>8}{'PC':>6}  agree"]
    out += [f"  {who:<8}{c!s:>8}{p!s:>6}  {'yes' if c == p else 'NO'}" for who, c, p in rows]
    return "\n".join(out)


def demo_flash(db: Path | str, flash: Path, board: bytes = DEMO_BOARD) -> int:
    """The demo's console powered up again: its boot counter and id put on its new flash as the
    last demo into `db` left them, so this boot is the next one of the same console and its
    events are new to the store (a console seen with boot 1 again would have them taken for the
    first demo's, and dropped). The boot it will have."""
    if isinstance(db, Path) and not db.exists():
        return 1
    chip = board.hex()
    store = Store(db)
    try:
        row = store.db.execute(
            "SELECT uid, MAX(boot) FROM streams WHERE substr(uid, 1, ?) = ? GROUP BY uid "
            "ORDER BY MAX(boot) DESC LIMIT 1", (len(chip), chip)).fetchone()
    finally:
        store.close()
    if row is None or type(row[1]) is not int or row[1] < 1:
        return 1
    uid, boot = row
    (flash / "boot.txt").write_text(str(boot))
    (flash / "id.txt").write_text(uid[len(chip):])
    return boot + 1
