"""The page's screenshots in docs/web.md (docs/img/web-*.png) and the checks every page passes in
Chromium at 1280 and 390 pixels wide (tests/web/test_web_pages_browser.py uses both):
`python tests/tools/make_web_pictures.py` serves the page in this process (web/server.py) on a
database of tests/web/test_web_server.make_db (a City game ended, a Suzhou record imported, a City
game being played) with a CPython virtual console whose ROLL has started a game, opens every page
in Debian's headless Chromium (/usr/bin/chromium, /usr/bin/chromedriver: `make browser`) at both
widths, checks it (`problems`) and writes its screenshot; also the front page of an empty database.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for extra in (ROOT / "tests" / "support", ROOT / "tests" / "web", ROOT / "host"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")
WIDTHS = (1280, 390)
# (the picture's name, the path, what the page waits for: a CSS selector)
# (a game's page: once the coach's analysis is made and shown, its chart and its mistakes: data-coached)
PAGES = (("live", "/", "#game:not([hidden])"), ("game", "/game/1", "body[data-coached] img.sheet"),
         ("game-suzhou", "/game/2", "body[data-coached] #rounds"),
         ("history-filtered", "/?player=Li#games", "#filtered"), ("league", "/league", "#league"),
         ("sheets", "/sheets", "#start-form"))

# every check in one script: what is wider than the window (and not inside a box that scrolls on its
# own), raw codes in the text, a form control without a label, a button the keyboard cannot reach
CHECK = r"""
const out = [];
const inner = window.innerWidth;
if (document.documentElement.scrollWidth > inner) out.push("the page is " + document.documentElement.scrollWidth
  + " px wide in a window of " + inner);
const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
  const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; }
  return false; };
for (const el of document.body.querySelectorAll("*")) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
  if ((r.right > inner + 1 || r.left < -1) && !scrolls(el))
    out.push("cut off: <" + el.tagName.toLowerCase() + (el.id ? " id=" + el.id : "") + "> "
      + Math.round(r.left) + ".." + Math.round(r.right));
}
const text = document.body.innerText;
const code = text.match(/#[0-9][A-Za-z]{2}/);
if (code) out.push("a raw map code in the text: " + code[0]);
if (text.includes("^")) out.push("a raw '^' in the text");
for (const el of document.querySelectorAll("input, select, textarea")) {
  if (el.type === "hidden") continue;
  if (!(el.labels && el.labels.length) && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby"))
    out.push("no label: <" + el.tagName.toLowerCase() + " id=" + el.id + ">");
}
for (const el of document.querySelectorAll("button, a[href], summary")) {
  if (el.tabIndex < 0) out.push("not reachable by Tab: " + el.outerHTML.slice(0, 80));
  if (!(el.getAttribute("aria-label") || el.textContent).trim()) out.push("no name: " + el.outerHTML.slice(0, 80));
}
for (const el of document.querySelectorAll("[onclick], div[role=button], span[role=button]"))
  out.push("a click target that is no button: " + el.outerHTML.slice(0, 80));
return out;
"""

# WCAG 2.1 AA contrast (1.4.3) of every visible text against its effective background: each element
# with text of its own (a text node, an input's value, a ::before's words) is coloured by its
# `color` (its alpha and the opacity of it and its ancestors blended in) over the first ancestor's
# background that is not transparent (semi-transparent ones on the way composited; the canvas is
# white). Large text (24 px, or 18.66 px bold) needs 3:1, the rest 4.5:1. A disabled control, the
# text inside an <svg> and text over a background image are not checked (WCAG: inactive
# controls are exempt; a picture's colours are not the element's).
CONTRAST = r"""
const out = [];
const rgba = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
const over = (top, under) => { const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
const lum = (c) => { const l = c.slice(0, 3).map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const background = (el) => {   // [r, g, b, 1], or null over a picture
  const layers = [];
  for (let p = el; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.backgroundImage && s.backgroundImage !== "none") return null;
    const c = rgba(s.backgroundColor);
    if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let bg = [255, 255, 255, 1];
  for (const c of layers.reverse()) bg = over(c, bg);
  return bg; };
const opacity = (el) => { let o = 1;
  for (let p = el; p; p = p.parentElement) o *= Number(getComputedStyle(p).opacity); return o; };
const name = (el) => { const parts = [];
  for (let p = el; p && p !== document.body && parts.length < 3; p = p.parentElement) {
    parts.unshift(p.tagName.toLowerCase() + (p.id ? "#" + p.id : "")
      + Array.from(p.classList).map((c) => "." + c).join(""));
    if (p.id) break; }
  return parts.join(" > "); };
const check = (el, s, words, pseudo) => {
  const bg = background(el); if (!bg) return;
  const fg = rgba(s.color); if (!fg) return;
  const text = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
  const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
  const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  const r = ratio(text, bg);
  if (r < need - 0.005) out.push("contrast " + r.toFixed(2) + " < " + need + ": " + name(el) + pseudo + " "
    + JSON.stringify(words.trim().replace(/\s+/g, " ").slice(0, 40)) + " (" + s.color
    + " on rgb(" + bg.slice(0, 3).map(Math.round).join(", ") + "))"); };
for (const el of document.body.querySelectorAll("*")) {
  if (el.closest("svg") || el.closest("[disabled], [aria-disabled=true]") || el.matches(":disabled")) continue;
  const s = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || s.visibility === "hidden") continue;
  let words = "";
  if (el.matches("input:not([type=range]):not([type=checkbox]):not([type=radio]):not([type=color]), textarea, select"))
    words = el.matches("select") ? (el.selectedOptions[0] || {}).text || "" : el.value || el.placeholder || "";
  else for (const n of el.childNodes) if (n.nodeType === 3) words += n.textContent;
  if (words.trim()) check(el, s, words, "");
  const before = getComputedStyle(el, "::before");
  const said = before.content;
  if (said && said !== "none" && said !== "normal" && said.replace(/["']/g, "").trim())
    check(el, before, before.content.replace(/^["']|["']$/g, ""), "::before");
}
return out;
"""


def browser(width: int = 1280, height: int = 1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="doodlebox-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(60)
    driver.profile_dir = profile     # type: ignore[attr-defined]   (removed by close())
    return driver


def close(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


class Site:
    """The page on a database with games (`url`) and on an empty one (`empty_url`), with a CPython
    virtual console logged into it (a game started on it: its panel says what to do, and the page's
    live game is that one); stop() at the end."""

    def __init__(self, tmp: Path):
        from test_web_server import make_db

        from doodlebox.logger.link_thread import LinkThread
        from doodlebox.virtual.console import VirtualConsole
        from doodlebox.web.live import Live
        from doodlebox.web.server import WebServer

        self.db = tmp / "games.sqlite3"
        make_db(self.db)
        self.vc = VirtualConsole(mode="cpython", flash_dir=tmp / "flash", seed=2).start()
        # logged into the same database, as `make run` does: the live game on the page is the one
        # on the console's panel (the page's round and action and the panel's agree)
        self.link = LinkThread(self.vc.port, self.db, on_note=lambda t: None).start()
        if not self.link.wait_ready(30) or self.link.error:
            raise RuntimeError(self.link.error or "the virtual console did not answer")
        self.server = WebServer(self.db, 0, Live(self.vc)).start()
        self.empty = WebServer(tmp / "empty.sqlite3", 0, Live()).start()
        self.url = self.server.url.rstrip("/")
        self.empty_url = self.empty.url.rstrip("/")
        ep = self.vc.hardware.epaper
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and ep.full_refreshes == 0:
            time.sleep(0.05)
        for _ in range(2):                 # the lobby's defaults, then a game: its start roads' ROLL
            self.vc.press("ROLL", 80)
            time.sleep(1.0)

    def stop(self) -> None:
        self.link.stop()
        self.server.stop()
        self.empty.stop()
        self.vc.stop()


def open_page(driver, url: str, selector: str, width: int, timeout: float = 180) -> None:
    """`url` at `width` px wide, once `selector` is shown and its pictures are loaded."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.set_window_size(width, 1000)
    driver.get(url)
    WebDriverWait(driver, timeout, 0.1).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    WebDriverWait(driver, timeout, 0.1).until(lambda d: d.execute_script(
        "return Array.from(document.images).every((i) => !i.getAttribute('src') || (i.complete && i.naturalWidth))"))
    time.sleep(0.3)


def problems(driver) -> list[str]:
    """What is wrong with the page shown (CHECK's findings, then CONTRAST's)."""
    return list(driver.execute_script(CHECK)) + contrast(driver)


def contrast(driver) -> list[str]:
    """Every visible text below WCAG 2.1 AA's contrast with its background: "contrast 2.85 < 4.5:
    p.note "the text" (its colour on its background)"."""
    return list(driver.execute_script(CONTRAST))


def screenshot(driver, path: Path, width: int) -> None:
    """The whole page (as tall as it is) at `width` px."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(height + 140, 600), 6000))
    time.sleep(0.3)
    driver.save_screenshot(str(path))
    driver.set_window_size(width, 1000)


def main() -> int:
    out = ROOT / "docs" / "img"
    tmp = Path(tempfile.mkdtemp(prefix="doodlebox-web-pictures-"))
    site = Site(tmp)
    driver = browser()
    bad = 0
    try:
        for width in WIDTHS:
            shown = [(f"{name}", site.url + path, sel) for name, path, sel in PAGES]
            shown.append(("empty", site.empty_url + "/", "#no-games"))
            for name, url, sel in shown:
                open_page(driver, url, sel, width)
                found = problems(driver)
                for p in found:
                    print(f"web-{name}-{width}: {p}")
                bad += len(found)
                path = out / f"web-{name}-{width}.png"
                screenshot(driver, path, width)
                print(f"wrote {path.relative_to(ROOT)}")
    finally:
        close(driver)
        site.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
