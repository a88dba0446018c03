// doodlebox's page: polls /api/live for the game being played and the virtual console, sends a
// click on a console button to /api/press (in the order clicked), and a game's names to
// /api/names. Everything it shows is written with textContent: nothing it receives is HTML.
// On a page whose writes need a token (body data-writes="token") it asks for the token once,
// keeps it in this tab's sessionStorage and sends it with each write (Authorization: Bearer);
// the write controls (class "write") are disabled until then.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const FACES = { 8: 1, 65: 2, 73: 3, 99: 4, 107: 5, 119: 6 };   // lit pips TL..BR as bits 6..0
  const KEPT = "doodlebox-token";
  const writes = document.body.dataset.writes || "open";
  let answered = 0;
  let presses = Promise.resolve();
  let panelShown = -1;
  let coachAgain = null;   // the coach's request, refused without the token: asked again once it is given

  // -- the token: asked once, kept in this tab, sent with every write -------------------------
  let held = "";   // where sessionStorage cannot keep it: this page only
  function token() {
    try { return window.sessionStorage.getItem(KEPT) || held; } catch (e) { return held; }
  }

  function keep(t) {
    held = t;
    try {
      if (t) window.sessionStorage.setItem(KEPT, t); else window.sessionStorage.removeItem(KEPT);
    } catch (e) { /* held for this page only */ }
  }

  function unlocked(yes) {
    document.body.toggleAttribute("data-unlocked", yes);
    document.querySelectorAll(".write").forEach((el) => { el.disabled = !yes; });
    if ($("token-form")) {
      $("token").hidden = yes;
      $("token-save").hidden = yes;
      $("token-forget").hidden = !yes;
      $("token-note").textContent = yes ? "writes unlocked" : "read-only until the token is given";
    }
  }

  function post(path, data, given) {
    const headers = { "Content-Type": "application/json" };
    const t = given || token();
    if (t) headers.Authorization = "Bearer " + t;
    return fetch(path, {
      method: "POST", cache: "no-store", headers: headers, body: JSON.stringify(data),
    }).then((r) => r.json().then((body) => {
      if (r.status === 403 && !given && writes === "token" && token()) {   // the token kept is not the page's
        keep("");
        unlocked(false);
      }
      return { ok: r.ok, body: body };
    }));
  }

  if (writes === "token") {
    unlocked(!!token());
    $("token-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const t = $("token").value.trim();
      if (!t) return;
      post("/api/token", {}, t).then((answer) => {
        if (answer.ok) {
          keep(t);
          $("token").value = "";
          unlocked(true);
          if (coachAgain) {
            const again = coachAgain;
            coachAgain = null;
            again();
          }
        } else {
          $("token-note").textContent = answer.body.error;
        }
      }).catch((err) => { $("token-note").textContent = String(err); });
    });
    $("token-forget").addEventListener("click", () => {
      keep("");
      unlocked(false);
    });
  }

  // -- the virtual console's buttons: one press after the other, as clicked --------------
  function press(name) {
    presses = presses
      .then(() => post("/api/press", { button: name }))
      .then((answer) => {
        $("press-note").textContent = answer.ok ? name + " pressed" : answer.body.error;
        document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + (answer.ok ? 0 : 1));
      })
      .catch((err) => { $("press-note").textContent = String(err); })
      .then(() => {
        answered += 1;
        document.body.dataset.pressed = String(answered);
        refresh();
      });
  }
  document.querySelectorAll("button.press").forEach((b) => {
    b.addEventListener("click", () => press(b.dataset.button));
  });

  // -- what is going on ---------------------------------------------------------------------
  function level(v, max) {
    return Math.min(255, Math.round((v * 255) / Math.max(1, max)));
  }

  function showConsole(c) {
    if (!c || !$("console")) return;
    c.dice.forEach((pips, d) => {
      const die = $("die-" + d);
      if (!die) return;
      let bits = 0;
      die.querySelectorAll(".pip").forEach((el, k) => {
        const rgb = pips[k] || [0, 0, 0];
        const on = rgb[0] > 0 || rgb[1] > 0 || rgb[2] > 0;
        if (on) bits |= 1 << (6 - k);
        el.classList.toggle("on", on);
        el.style.backgroundColor = on
          ? "rgb(" + level(rgb[0], c.max) + "," + level(rgb[1], c.max) + "," + level(rgb[2], c.max) + ")" : "";
      });
      const face = FACES[bits] || (bits ? "?" : "");
      die.dataset.face = String(face);
    });
    if (c.panel !== panelShown) {
      panelShown = c.panel;
      $("panel").src = "/live/panel.png?refresh=" + encodeURIComponent(String(c.panel));
    }
    // the panel in words: its action on top (what the player to act must do now), the rest read
    // off its picture by the server, the map and the cards drawn in text (never their codes)
    if ($("panel-action")) $("panel-action").textContent = c.action || "";
    $("panel-text").textContent = (c.lines || []).join("\n");
    $("panel").alt = "the console's e-paper panel: " + (c.action || (c.lines || [])[0] || "blank");
    if (c.error) $("press-note").textContent = "the console stopped: " + c.error;
  }

  function showGame(g) {
    $("game").hidden = !g;
    $("no-game").hidden = !!g;
    if (!g) return;
    $("game").dataset.game = String(g.id);
    // the store's number, as the games table and `doodlebox games` say it; the console's own beside it
    const consoleGame = g.g === null || g.g === undefined || g.g === g.id ? "" : " (console game " + g.g + ")";
    $("game-title").textContent = "game " + g.id + consoleGame + ": " + g.edition + " (" + g.players.join(", ") +
      ")" + (g.state === "playing" ? "" : ", " + g.status +
      (g.winners && g.winners.length ? "; winner: " + g.winners.join(", ") : ""));
    $("game-round").textContent = String(g.round);
    $("game-turn").textContent = g.turn || "-";
    $("game-violations").textContent = g.violations ? g.violations + " violation(s)" : "";
    $("game-problem").textContent = g.problem || "";
    const dice = $("game-dice");
    dice.replaceChildren();
    if (g.dice) {
      const column = document.createElement("span");
      column.className = "face column";
      column.textContent = String(g.dice.column);
      column.title = "the column die";
      dice.appendChild(column);
      g.dice.white.forEach((w, i) => {
        const face = document.createElement("span");
        const who = g.dice.taken[i];
        face.className = "face white" + (who === null || who === undefined ? "" : " taken");
        face.textContent = String(w);
        face.title = "white die " + (i + 1) + (who === null || who === undefined ? "" : ": taken by " +
          (g.players[who] || "P" + (who + 1)));
        dice.appendChild(face);
      });
    }
    // the player panels: each name, score and whose turn it is
    const players = $("game-players");
    players.replaceChildren();
    g.players.forEach((name, i) => {
      const li = document.createElement("li");
      const mine = g.to_play === i;
      li.className = "player" + (mine ? " to-play" : "");
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = name;
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = g.scores ? String(g.scores[i]) : "-";
      const mark = document.createElement("span");
      mark.className = "turn-mark";
      mark.textContent = mine ? "to play" : "";
      li.append(who, " ", score, mark);
      players.appendChild(li);
    });
    const events = $("game-events");
    events.replaceChildren();
    g.events.forEach((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      events.appendChild(li);
    });
  }

  let polling = false;
  function refresh() {
    if (!$("live") || polling) return;
    polling = true;
    fetch("/api/live", { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((live) => {
        if (!live) return;
        $("link").textContent = live.link || live.problem || "";
        showConsole(live.console);
        showGame(live.game);
        document.body.dataset.polled = String(Number(document.body.dataset.polled || 0) + 1);
      })
      .catch(() => { $("link").textContent = "the page's server does not answer (doodlebox web stopped?)"; })
      .then(() => { polling = false; });
  }
  if ($("live")) {
    refresh();
    setInterval(refresh, 700);
  }

  // -- a game's round-by-round replay: the sheets as they stood after the round chosen -------
  const replay = $("replay");
  if (replay && $("replay-round")) {
    const slider = $("replay-round");
    const last = Number(replay.dataset.rounds);
    const game = Number(replay.dataset.game);
    const items = {};
    document.querySelectorAll("#rounds > li[data-round]").forEach((li) => { items[li.dataset.round] = li; });
    let timer = null;
    const show = (k) => {
      k = Math.max(0, Math.min(last, k));
      slider.value = String(k);
      $("replay-where").textContent = k === 0 ? "before round 1 (the start)" : "after round " + k + " of " + last;
      const li = items[String(k)];
      const said = li ? Array.from(li.querySelectorAll("li")).map((x) => x.textContent).join("; ") : "";
      $("replay-round-text").textContent = said;
      Object.values(items).forEach((x) => x.classList.toggle("shown", x === li && k !== last));
      // drawn when the slider rests (each picture is the record cut after round k, replayed)
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        replay.querySelectorAll("img.sheet").forEach((img) => {
          const seat = img.dataset.seat;
          img.src = k === last ? "/game/" + game + "/sheet/" + seat + ".png"
            : "/game/" + game + "/round/" + k + "/sheet/" + seat + ".png";
        });
        replay.dataset.shown = String(k);
      }, 120);
    };
    slider.addEventListener("input", () => show(Number(slider.value)));
    $("replay-first").addEventListener("click", () => show(0));
    $("replay-back").addEventListener("click", () => show(Number(slider.value) - 1));
    $("replay-next").addEventListener("click", () => show(Number(slider.value) + 1));
    $("replay-last").addEventListener("click", () => show(last));
  }

  // -- a game's names -----------------------------------------------------------------------
  const form = $("names");
  if (form) {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const names = Array.from(form.querySelectorAll("input[name=seat]")).map((i) => i.value);
      post("/api/names", { game: Number(form.dataset.game), names: names })
        .then((answer) => {
          if (answer.ok) {
            $("names-note").textContent = "saved: " + answer.body.names.join(", ");
            window.setTimeout(() => window.location.reload(), 300);
          } else {
            $("names-note").textContent = answer.body.error;
          }
        })
        .catch((err) => { $("names-note").textContent = String(err); });
    });
  }

  // -- a dice game's coach: its mistakes and blunders -------------------------------------------
  // The server makes the analysis in a process of its own: while it is under way (202), or while
  // the coach's queue is full (429, 503), the answer says when to ask again (Retry-After), and the
  // script asks again then. On a page that has a token, the token is sent: without it the coach
  // starts no analysis (403, said in the note; asked again once the token is given).
  const losses = $("coach-losses");
  if (losses) {
    const chart = $("coach-chart");
    const drawn = () => { if (chart && !chart.getAttribute("src")) chart.src = chart.dataset.src; };
    const note = (text) => { $("coach-note").textContent = text; };
    const ask = () => {
      const headers = {};
      const t = token();
      if (t) headers.Authorization = "Bearer " + t;
      fetch("/api/game/" + Number(losses.dataset.game) + "/coach", { cache: "no-store", headers: headers })
        .then((r) => r.json().then((a) => ({ status: r.status, again: Number(r.headers.get("Retry-After")), a: a })))
        .then(({ status, again, a }) => {
          if ([202, 429, 503].includes(status) && again > 0) {
            note(status === 202 ? "the coach is analysing this game..." : a.error || a.why || "");
            window.setTimeout(ask, Math.min(again, 60) * 1000);
            return;
          }
          if (status === 403) {
            note(a.error || "");
            coachAgain = ask;    // once the token is given
            return;
          }
          drawn();   // the chart now, from the analysis the server keeps
          if (a.error || !a.analysed) {
            note(a.error || a.why || "");
            return;
          }
          // the analysis's one measure (docs/coach.md): a margin signed, as `doodlebox analyse` prints it
          const value = (v) => (a.measure === "margin" && v >= 0 ? "+" : "") + v.toFixed(1);
          a.losses.forEach((t) => {
            const li = document.createElement("li");
            const lead = document.createElement("strong");   // who, when, how bad: the line's start, in bold
            lead.textContent = t.name + ", round " + t.round + ": " + t.mark + ", lost " + t.lost.toFixed(1);
            li.className = t.mark;
            li.append(lead, " (" + t.roll + "): played " + t.played + " (" + a.measure + " " +
              value(t.played_value) + "); best " + t.best + " (" + a.measure + " " + value(t.best_value) + ")");
            losses.appendChild(li);
          });
          note((a.losses.length ? "" : "none. ") + "Measure: " + a.measure + ", the " + a.measure_text +
            "; lost = best - played on it. Thresholds: " +
            Object.entries(a.thresholds).map((e) => e[0] + " >= " + e[1]).join(", ") + " (" + a.playouts +
            " playouts a move)");
          document.body.dataset.coached = String(a.losses.length);
        })
        .catch((err) => { drawn(); note(String(err)); });
    };
    ask();
  }
})();
