"""`make flash` against the virtual console: a Pico-like board with an empty flash, its raw
REPL on a real pty, mpremote doing the copying. Then a round is played on the firmware that
was just deployed, and a second flash copies nothing that has not changed."""
import subprocess
import time

import pytest
from cli_run import ROOT

from doodle.app import FW_VERSION
from doodlebox.deploy import flash
from doodlebox.logger.link_thread import LinkThread
from doodlebox.table.dice import PRESS_GAP_S, PRESS_MS, Table
from doodlebox.virtual.console import VirtualConsole

pytestmark = pytest.mark.slow      # (tests/conftest.py: the quick tier)


@pytest.fixture
def blank_console(tmp_path):
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", firmware=False, seed=3).start()
    yield vc
    vc.stop()


def make_flash(port):
    return subprocess.run(["make", "-s", "flash", f"PORT={port}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def wait_for(cond, seconds=30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.1)
    return False


def test_make_flash_deploys_and_the_deployed_firmware_plays(blank_console, tmp_path):
    vc = blank_console
    assert wait_for(lambda: vc.state == "repl")          # an empty Pico: the REPL, no main.py
    assert not (vc.flash / "main.py").exists()

    r = make_flash(vc.port)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(flash.firmware_files())
    assert f"copied {n} file(s), 0 up to date" in r.stdout
    assert (vc.flash / "main.py").exists() and (vc.flash / "doodle" / "app.mpy").exists()
    assert wait_for(lambda: vc.state == "firmware" and vc.boots == 1)  # reset: main.py runs

    link = LinkThread(vc.port, tmp_path / "games.sqlite3", on_note=lambda t: None).start()
    try:
        assert link.wait_ready(30) and link.error is None
        assert link.link.console.fw == FW_VERSION

        def press(name):
            vc.press(name, PRESS_MS)
            time.sleep(PRESS_GAP_S)

        seen = Table(press, link.events, seed=2, timeout=30).play_game(players=2, stop_after_round=1)
    finally:
        link.stop()
    kinds = [e["k"] for e in seen]
    assert kinds[0] == "game" and kinds.count("start") == 5 and "claim" in kinds

    # again, with a stale source file that would shadow its .mpy: only that goes
    # (and the table's sheets the console holds stay: docs/protocol.md, "The table's sheets")
    (vc.flash / "doodle" / "app.py").write_text("raise SystemExit('stale')\n")
    held = {vc.flash / "sh" / "city.ours.0123456789ab.01234567": "{}", vc.flash / "sh" / "use": '{"city": "x"}'}
    for path, text in held.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    r = make_flash(vc.port)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"copied 0 file(s), {n} up to date, 1 stale removed: doodle/app.py" in r.stdout
    assert all(path.read_text() == text for path, text in held.items())
    assert wait_for(lambda: vc.state == "firmware" and vc.boots == 2)
    assert vc.error is None


def test_a_board_that_cannot_read_the_build_is_refused():
    want = (6, None)  # bytecode: any .mpy v6 board reads it
    with pytest.raises(flash.FlashError, match=r"too old.*1\.23 or newer"):
        flash.check_device("/dev/ttyACM0", flash.Device("micropython", (1, 18, 0), 5, "rp2"), want)
    flash.check_device("/dev/ttyACM0", flash.Device("micropython", (1, 22, 0), 6 | (2 << 8), "rp2"), want)
    with pytest.raises(flash.FlashError, match="too old"):  # native code needs the same sub-version
        flash.check_device("/dev/ttyACM0", flash.Device("micropython", (1, 22, 0), 6 | (2 << 8), "rp2"), (6, 3))
    with pytest.raises(flash.FlashError, match="newer"):
        flash.check_device("/dev/ttyACM0", flash.Device("micropython", (2, 0, 0), 7, "rp2"), want)
    with pytest.raises(flash.FlashError, match="too old"):
        flash.check_device("/dev/ttyACM0", flash.Device("micropython", (1, 12, 0), 0, "rp2"), want)
    with pytest.raises(flash.FlashError, match="not MicroPython"):
        flash.check_device("/dev/ttyACM0", flash.Device("circuitpython", (9, 0, 0), 774, "rp2"), want)
    flash.check_device("/dev/ttyACM0", flash.Device("micropython", (1, 27, 0), 6 | (3 << 8) | (2 << 10), "rp2"), (6, 3))
    assert flash.mpy_version_of(ROOT / "build" / "flash") == (6, None)


def test_a_port_without_a_raw_repl_is_not_a_micropython_board():
    proc = subprocess.CompletedProcess([], 1, "", "mpremote: could not enter raw repl\n")
    err = flash._failure("/dev/ttyUSB0", proc)
    assert str(err).startswith("/dev/ttyUSB0: not a MicroPython board")


def test_flash_stores_what_the_console_holds_first_then_runs_its_self_test(tmp_path):
    """Issue 34: a console that played while no PC listened holds its events; `doodlebox flash`
    stores them in the database first (a firmware update never loses a game), copies, runs the
    self-test's automatic steps and says how they went, and resets."""
    vc = VirtualConsole(mode="vm", flash_dir=tmp_path / "flash", seed=4).start()
    try:
        assert wait_for(lambda: vc.state == "firmware")
        for name in ("ROLL",) + ("ROLL",) * 5:          # the lobby's ROLL begins a game; its start roads
            vc.press(name, PRESS_MS)
            time.sleep(0.4)
        db = tmp_path / "games.sqlite3"
        r = subprocess.run([str(ROOT / ".venv" / "bin" / "doodlebox"), "flash", "--port", vc.port, "--db", str(db),
                            "--build", str(tmp_path / "build")], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout
        assert "event(s) the PC has not stored: storing them first" in out and "stored " in out, out
        from doodlebox.store import Store

        kinds = [e["k"] for _, _, _, e in Store(db).events()]
        assert kinds[0] == "game" and kinds.count("start") >= 1, kinds
        assert ("self-test: 49 pips lit one by one, the scale played, the panel's pattern drawn, "
                "0 driver error(s)") in out
        assert out.rstrip().endswith("the board has been reset and runs the new firmware")
        assert wait_for(lambda: vc.state == "firmware" and vc.boots >= 2)
    finally:
        vc.stop()


def test_without_a_port_the_one_pico_is_found_and_none_or_two_are_refused(monkeypatch, capsys):
    from doodlebox.cli import main
    from doodlebox.link.ports import UsbPort

    pico = UsbPort("/dev/ttyACM0", 0x2E8A, 0x0005, "E6614C311B2C4A2F", "Board in FS mode")
    other = UsbPort("/dev/ttyACM1", 0x2E8A, 0x0005, "E6614C311B000001", "Board in FS mode")
    for found, code, said in (([], 2, "no Pico running MicroPython is attached"),
                              ([pico, other], 2, "2 Picos are attached (/dev/ttyACM0 (USB serial E6614C311B2C4A2F), "
                                                 "/dev/ttyACM1 (USB serial E6614C311B000001)): give --port")):
        monkeypatch.setattr(flash, "find_picos", lambda found=found: found)
        assert main(["flash"]) == code
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    monkeypatch.setattr(flash, "find_picos", lambda: [pico])
    assert flash.choose_port(None) == "/dev/ttyACM0" and flash.choose_port("/dev/x") == "/dev/x"


def test_a_port_that_is_not_a_pico_is_one_line_and_exit_2_and_nothing_is_written(capsys, tmp_path):
    from doodlebox.cli import main

    assert main(["flash", "--port", "/dev/null", "--db", str(tmp_path / "g.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("doodlebox: cannot open /dev/null") and err.count("\n") == 1, err
    assert not (tmp_path / "g.sqlite3").exists()
