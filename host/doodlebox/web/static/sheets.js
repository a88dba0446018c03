// doodlebox's sheet editor (/sheets; web/sheets.py, docs/web.md "The sheet editor"): the sheet
// being edited is held here as the JSON of its file (docs/layouts.md, docs/deadly-doodles.md),
// changed by clicks and fields, and sent to the server to be checked as `doodlebox layout check`
// checks it (a moment after the last change) and drawn when it has no problems. Each problem is
// shown at its square, room or field; those that belong to none are listed at the top. Every
// text it shows is written with textContent: nothing it receives is HTML. Above the editor,
// "Played at this table" shows the sheet each game is played on and chooses another
// (POST /api/sheets/use), its list filled again whenever the library is (after a save too).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const root = $("sheet-editor");
  if (!root) return;
  const MAP = "doodlebox-deadly-map/1";
  const KEPT = "doodlebox-token";          // page.js keeps the page's token there
  const WAIT_MS = 300;                     // a check this long after the last change
  const SIDE_WORDS = { N: "north (top)", E: "east (right)", S: "south (bottom)", W: "west (left)" };
  const ARROWS = { N: "\u25bc", E: "\u25c0", S: "\u25b2", W: "\u25b6" };   // pointing into the dungeon
  const PIECE_WORDS = {
    NS: "\u2502 straight, north-south", EW: "\u2500 straight, east-west", NE: "\u2514 curve, north-east",
    ES: "\u250c curve, east-south", SW: "\u2510 curve, south-west", NW: "\u2518 curve, north-west",
  };
  const maxBody = Number(root.dataset.maxBody) || 4096;
  const editor = $("editor");

  let meta = { kinds: [], edition_kinds: {}, pieces: [], tracks: [], pairs: "ABCDEF", defaults: [] };
  let library = [];
  let data = null;        // the sheet being edited
  let kind = "";          // "sheet" or "map"
  let start = "";         // the name of the sheet it started from
  let dirty = false;      // changed since it was started (or saved)
  let selected = null;    // the square [row, col] or the room's name
  let timer = null;
  let asked = 0;          // checks asked for; only the last one's answer is shown
  let checked = null;     // the last check's answer

  // -- small helpers --------------------------------------------------------------------------
  function el(tag, props, children) {
    const e = document.createElement(tag);
    Object.entries(props || {}).forEach(([k, v]) => {
      if (k === "text") e.textContent = v;
      else if (k === "cls") e.className = v;
      else if (k === "data") Object.entries(v).forEach(([dk, dv]) => { e.dataset[dk] = dv; });
      else if (k === "attrs") Object.entries(v).forEach(([ak, av]) => e.setAttribute(ak, av));
      else e[k] = v;
    });
    (children || []).forEach((c) => e.appendChild(typeof c === "string" ? document.createTextNode(c) : c));
    return e;
  }

  function field(label, input, id) {
    input.id = id;
    return el("div", { cls: "field" }, [el("label", { htmlFor: id, text: label }), input]);
  }

  function problemSpot(id) {
    return el("p", { id: id, cls: "problem bad", attrs: { "aria-live": "polite" } });
  }

  function num(text) {             // a whole number as typed, else the text (the check says what is wrong)
    const t = String(text).trim();
    return /^-?[0-9]{1,9}$/.test(t) ? Number(t) : t;
  }

  function numbers(text) {         // "3 4 5, 6" -> [3, 4, 5, 6]
    return String(text).split(/[\s,;]+/).filter((t) => t !== "").map(num);
  }

  function token() {
    try { return window.sessionStorage.getItem(KEPT) || ""; } catch (e) { return ""; }
  }

  function post(path, body) {
    const text = JSON.stringify(body);
    const size = new TextEncoder().encode(text).length;
    if (size > maxBody) {
      return Promise.resolve({ status: 413, ok: false, body: {
        error: "the sheet is " + size + " bytes of JSON: the page sends at most " + maxBody + " (shorten its texts)" } });
    }
    const headers = { "Content-Type": "application/json" };
    const t = token();
    if (t) headers.Authorization = "Bearer " + t;
    return fetch(path, { method: "POST", cache: "no-store", headers: headers, body: text })
      .then((r) => r.json().then((b) => ({ status: r.status, ok: r.ok, body: b })));
  }

  function word(key) {             // the edition's word for a thing (its `names`), else the key
    const names = data && typeof data.names === "object" && data.names ? data.names : {};
    return typeof names[key] === "string" ? names[key] : key;
  }

  function kindWord(k) {
    if (k === "plain") return "plain";
    return word(k === "house" ? "house" : k);
  }

  // -- the library: what to start from ---------------------------------------------------------
  function loadLibrary(choose) {
    return fetch("/api/sheets", { cache: "no-store" })
      .then((r) => r.json().then((b) => ({ ok: r.ok, body: b })))
      .then((answer) => {
        if (!answer.ok) {
          $("start-note").textContent = answer.body.error || "the library cannot be read";
          $("plays-problem").textContent = "The library cannot be read: " + (answer.body.error || "");
          return;
        }
        library = answer.body.sheets;
        meta = answer.body.editor;
        const select = $("start-from");
        const was = choose || select.value;
        select.replaceChildren();
        const groups = [["doodlebox's sheets (reconstructions)", library.filter((s) => s.default)],
          ["your library", library.filter((s) => !s.default)]];
        groups.forEach(([label, rows]) => {
          if (!rows.length) return;
          const g = el("optgroup", { label: label });
          rows.forEach((s) => {
            const text = s.name + ": " + (s.problem ? "cannot be used: " + s.problem : s.title + " (" + s.what + ")");
            g.appendChild(el("option", { value: s.name, text: text, disabled: !s.readable }));
          });
          select.appendChild(g);
        });
        if (was && library.some((s) => s.name === was)) select.value = was;
        showTable(answer.body.table);
        document.body.dataset.library = String(library.length);
      })
      .catch((err) => { $("start-note").textContent = String(err); });
  }

  // -- played at this table: the sheet each game is played on (library.choices()) --------------
  function showTable(table) {
    $("plays-problem").textContent = table.problem ? "The table's choices cannot be read: " + table.problem : "";
    table.games.forEach((g) => {
      const row = $("plays-" + g.game);
      if (!row) return;
      row.dataset.chosen = g.name || "";
      row.dataset.plays = g.default ? "" : g.name;
      $("plays-now-" + g.game).textContent = g.plays;
      $("plays-at-" + g.game).textContent = g.chosen ? "(chosen " + g.chosen + ")" : "";
      $("plays-bad-" + g.game).textContent = g.problem;
      const select = $("use-" + g.game);
      if (!select) return;                  // read-only: no choice
      const current = g.default ? g.defaults[0] : g.name;
      const was = select.dataset.touched === "1" ? select.value : "";
      select.replaceChildren(el("option", { value: g.defaults[0], text: "the default" }));
      g.sheets.forEach((s) => { select.appendChild(el("option", { value: s.name, text: s.name + ": " + s.title })); });
      select.value = was && Array.from(select.options).some((o) => o.value === was) ? was : current;
      if (select.value !== was) delete select.dataset.touched;
    });
  }

  document.querySelectorAll("form.use-form").forEach((f) => {
    const game = f.dataset.game;
    const select = $("use-" + game);
    if (!select) return;
    const note = (text) => { $("use-note-" + game).textContent = text; };
    select.addEventListener("change", () => { select.dataset.touched = "1"; note(""); });
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = select.value;
      if (!name) return;
      note("choosing...");
      post("/api/sheets/use", { name: name })
        .then((answer) => {
          if (!answer.ok) {
            note("Not chosen: " + answer.body.error);
            return;
          }
          delete select.dataset.touched;
          showTable(answer.body.table);
          note(answer.body.default ? "Chosen: the default." : "Chosen: " + answer.body.name + ".");
          $("plays-" + game).dataset.done = String(Number($("plays-" + game).dataset.done || 0) + 1);
        })
        .catch((err) => note(String(err)));
    });
  });

  $("start-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("start-from").value;
    if (!name) return;
    if (dirty && !window.confirm("Start again from " + name + "? The changes not saved are lost.")) return;
    $("start-note").textContent = "";
    fetch("/api/sheets/" + encodeURIComponent(name), { cache: "no-store" })
      .then((r) => r.json().then((b) => ({ ok: r.ok, body: b })))
      .then((answer) => {
        if (!answer.ok) {
          $("start-note").textContent = answer.body.error;
          return;
        }
        begin(name, answer.body);
      })
      .catch((err) => { $("start-note").textContent = String(err); });
  });

  function begin(name, sheet) {
    if (!sheet || typeof sheet !== "object" || Array.isArray(sheet)) {
      $("start-note").textContent = name + " is not a sheet the editor can open";
      return;
    }
    data = JSON.parse(JSON.stringify(sheet));
    kind = data.format === MAP ? "map" : "sheet";
    start = name;
    dirty = false;
    selected = null;
    editor.hidden = false;
    editor.dataset.kind = kind;
    editor.dataset.start = name;
    $("dice-editor").hidden = kind !== "sheet";
    $("map-editor").hidden = kind !== "map";
    $("dice-editor").replaceChildren();      // the other kind's editor too: its ids are not to be found
    $("map-editor").replaceChildren();
    if (kind === "sheet") buildDice(); else buildMap();
    const saveName = $("save-name");
    if (saveName) saveName.value = library.some((s) => s.name === name && !s.default) ? name : "";
    if ($("save-note")) $("save-note").textContent = "";
    if ($("replace-box")) $("replace-box").hidden = true;
    $("reconstructed-note").textContent = data.reconstructed
      ? "Started from doodlebox's reconstruction: its note saying so is kept while it is unchanged, and " +
        "dropped at the first change (the copy is then the table's own sheet)." : "";
    draw();
    check();
  }

  // the sheet changed: drawn again now, checked a moment after the last change
  function edited() {
    if (!dirty) {
      dirty = true;
      if ("reconstructed" in data) {
        delete data.reconstructed;
        $("reconstructed-note").textContent = "Changed: this copy is no longer doodlebox's reconstruction, so " +
          "its note saying so is dropped.";
      }
    }
    draw();
    editor.dataset.pending = "1";
    window.clearTimeout(timer);
    timer = window.setTimeout(check, WAIT_MS);
  }

  function draw() {
    if (kind === "sheet") drawDice(); else drawMap();
  }

  // -- the check, the problems at their places, the picture -------------------------------------
  function check() {
    window.clearTimeout(timer);
    const mine = ++asked;
    editor.dataset.pending = "1";
    $("problem-count").textContent = "checking...";
    post("/api/sheets/check", { data: data })
      .then((answer) => {
        if (mine !== asked) return;
        if (!answer.ok) {
          checked = null;
          $("problem-count").textContent = "The sheet could not be checked: " + answer.body.error;
          showProblems([]);
          picture(null, "The picture waits for the sheet to be checked.");
          return;
        }
        checked = answer.body;
        showProblems(checked.problems);
        const n = checked.problems.length;
        $("problem-count").textContent = n === 0
          ? "No problems: doodlebox layout check finds nothing (" + checked.what + ", hash " + checked.hash + ")."
          : n + (n === 1 ? " problem" : " problems") + ", each shown where it is:";
        picture(checked.preview, n ? "The picture waits for the " + (n === 1 ? "problem" : n + " problems") +
          " to be fixed." : "As doodlebox sheets print draws it (hash " + checked.hash + ").");
        editor.dataset.problems = String(n);
      })
      .catch((err) => {
        if (mine !== asked) return;
        $("problem-count").textContent = "The sheet could not be checked: " + String(err);
      })
      .then(() => {
        if (mine !== asked) return;
        editor.dataset.pending = "0";
        editor.dataset.checked = String(Number(editor.dataset.checked || 0) + 1);
      });
  }

  function picture(src, text) {
    const img = $("preview");
    $("preview-note").textContent = text;
    if (!src) {
      img.hidden = true;
      img.removeAttribute("src");
      return;
    }
    img.hidden = false;
    if (img.getAttribute("src") !== src) img.src = src;
  }

  $("preview").addEventListener("error", () => {
    const src = $("preview").getAttribute("src");
    if (!src) return;
    fetch(src, { cache: "no-store" }).then((r) => r.json())
      .then((b) => { $("preview-note").textContent = "The picture could not be drawn: " + (b.error || ""); })
      .catch(() => { $("preview-note").textContent = "The picture could not be drawn."; });
  });

  // where a problem is shown: {cell: element id of a square, room, wall or entryway} or
  // {spot: element id of a field's problem line}; null: the list at the top
  function placeOf(place) {
    return kind === "sheet" ? dicePlace(place) : mapPlace(place);
  }

  function showProblems(problems) {
    document.querySelectorAll("#editor .problem").forEach((p) => { p.textContent = ""; });
    document.querySelectorAll("#editor .cell.bad").forEach((c) => {
      c.classList.remove("bad");
      c.removeAttribute("title");
      c.dataset.problem = "";
    });
    const top = $("problems-unplaced");
    top.replaceChildren();
    const atCells = [];
    problems.forEach((p) => {
      const at = placeOf(p.place);
      const cell = at && at.cell ? $(at.cell) : null;
      const spot = at && at.spot ? $(at.spot) : null;
      if (cell) {
        cell.classList.add("bad");
        cell.dataset.problem = (cell.dataset.problem ? cell.dataset.problem + "; " : "") + p.text;
        cell.title = cell.dataset.problem;
        atCells.push(cellName(cell) + ": " + p.text + " (" + p.place + ")");
      } else if (spot) {
        spot.textContent = (spot.textContent ? spot.textContent + "; " : "") + p.text;
      } else {
        top.appendChild(el("li", { text: p.place + ": " + p.text }));
      }
    });
    const list = $(kind === "sheet" ? "p-grid-cells" : "p-dungeon-cells");
    if (list) {
      list.replaceChildren();
      atCells.forEach((t) => list.appendChild(el("li", { text: t })));
    }
    labelCells();
    showSelectedProblem();
  }

  function cellName(cell) {
    return cell.dataset.name || cell.id;
  }

  function showSelectedProblem() {
    const spot = $(kind === "sheet" ? "p-square" : "p-room");
    if (!spot) return;
    const cell = selected === null ? null : $(kind === "sheet" ? squareId(selected[0], selected[1]) : "room-" + selected);
    spot.textContent = cell && cell.dataset.problem ? cell.dataset.problem : "";
  }

  // -- keyboard: a grid is one stop of Tab, its arrows move between its cells -----------------
  function roving(grid) {
    grid.addEventListener("keydown", (ev) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      const m = moves[ev.key];
      const from = ev.target.closest("button.cell");
      if (!m || !from) return;
      let r = Number(from.dataset.gr);
      let c = Number(from.dataset.gc);
      for (;;) {
        r += m[0];
        c += m[1];
        const next = grid.querySelector('button.cell[data-gr="' + r + '"][data-gc="' + c + '"]');
        if (next) {
          ev.preventDefault();
          grid.querySelectorAll("button.cell").forEach((b) => { b.tabIndex = -1; });
          next.tabIndex = 0;
          next.focus();
          return;
        }
        if (r < 0 || c < 0 || r > 250 || c > 250) return;
      }
    });
  }

  function focusable(grid, cell) {
    grid.querySelectorAll("button.cell").forEach((b) => { b.tabIndex = b === cell ? 0 : -1; });
  }

  // == a dice edition's sheet ===================================================================
  function size() {
    if (Number.isInteger(data.size) && data.size >= 3 && data.size <= 9) return data.size;
    return data.ruleset === "6x6" ? 6 : 5;
  }

  function squareId(r, c) {
    return "sq-" + r + "-" + c;
  }

  function squares() {
    if (!Array.isArray(data.squares)) data.squares = [];
    return data.squares;
  }

  function entryAt(r, c) {
    return squares().findIndex((s) => s && Array.isArray(s.at) && s.at[0] === r && s.at[1] === c);
  }

  function squareAt(r, c) {
    const i = entryAt(r, c);
    return i >= 0 ? squares()[i] : { at: [r, c], kind: "plain" };
  }

  // what is printed at [r, c] (the fields a kind does not read are dropped; a plain square that
  // is no start square is left out of the list, as the format has it)
  function putSquare(r, c, sq) {
    const out = { at: [r, c], kind: sq.kind || "plain" };
    if (out.kind === "house") {
      out.houses = sq.houses === undefined ? 3 : sq.houses;
      out.precrossed = sq.precrossed === undefined ? 1 : sq.precrossed;
    }
    if (out.kind === "skyscraper") out.floors = sq.floors === undefined ? 2 : sq.floors;
    if (sq.start) out.start = true;
    const list = squares();
    const i = entryAt(r, c);
    const plain = out.kind === "plain" && !out.start;
    if (i >= 0) {
      if (plain) list.splice(i, 1); else list[i] = out;
    } else if (!plain) {
      const n = size();
      const after = list.findIndex((s) => s && Array.isArray(s.at) && (s.at[0] - 1) * n + s.at[1] > (r - 1) * n + c);
      if (after < 0) list.push(out); else list.splice(after, 0, out);
    }
    edited();
  }

  function buildDice() {
    const box = $("dice-editor");
    box.replaceChildren();
    const n = size();
    box.appendChild(el("div", { cls: "fields" }, [
      field("Name printed on the sheet", el("input", { type: "text", maxLength: 80, autocomplete: "off" }), "sheet-name"),
      problemSpot("p-name"),
      el("p", { id: "sheet-facts", cls: "note" }),
    ]));
    box.appendChild(el("h3", { text: "Squares" }));
    box.appendChild(el("p", { cls: "note", text: "Click a square (or Tab to the grid, move with the arrow keys " +
      "and press Enter) to set what is printed there." }));
    const grid = el("div", { id: "grid", cls: "squares-grid", attrs: { role: "group", "aria-label": "the sheet's squares" } });
    grid.style.gridTemplateColumns = "repeat(" + n + ", minmax(0, 1fr))";
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        const b = el("button", { type: "button", cls: "cell square", id: squareId(r, c), tabIndex: -1,
          data: { r: String(r), c: String(c), gr: String(r), gc: String(c), name: "row " + r + ", column " + c } }, [
          el("span", { cls: "at", text: r + "," + c }), el("span", { cls: "k" }), el("span", { cls: "m" })]);
        b.addEventListener("click", () => selectSquare(r, c));
        grid.appendChild(b);
      }
    }
    grid.firstChild.tabIndex = 0;
    roving(grid);
    box.appendChild(grid);
    box.appendChild(problemSpot("p-grid"));
    box.appendChild(el("ul", { id: "p-grid-cells", cls: "bad cell-problems" }));

    const kindSelect = el("select", {});
    const panel = el("fieldset", { id: "square-panel", cls: "panel" }, [
      el("legend", { id: "square-title", text: "Click a square to set what is printed there" }),
      el("div", { id: "sq-fields", hidden: true }, [
        field("What is printed", kindSelect, "sq-kind"),
        el("div", { id: "sq-houses-box" }, [field("Houses printed", el("input", { type: "number", min: 0, max: 9 }),
          "sq-houses")]),
        el("div", { id: "sq-precrossed-box" }, [field("of them crossed in print",
          el("input", { type: "number", min: 0, max: 9 }), "sq-precrossed")]),
        el("div", { id: "sq-floors-box" }, [field("Floors printed", el("input", { type: "number", min: 0, max: 9 }),
          "sq-floors")]),
        el("div", { cls: "field check" }, [el("input", { type: "checkbox", id: "sq-start" }),
          el("label", { htmlFor: "sq-start", text: "a start square (flagged)" })]),
      ]),
      problemSpot("p-square"),
    ]);
    box.appendChild(panel);
    kindSelect.addEventListener("change", () => {
      if (!selected) return;
      const sq = squareAt(selected[0], selected[1]);
      putSquare(selected[0], selected[1], { kind: kindSelect.value, start: sq.start === true });
    });
    ["houses", "precrossed", "floors"].forEach((key) => {
      $("sq-" + key).addEventListener("input", () => {
        if (!selected) return;
        const sq = Object.assign({}, squareAt(selected[0], selected[1]));
        sq[key] = num($("sq-" + key).value);
        putSquare(selected[0], selected[1], sq);
      });
    });
    $("sq-start").addEventListener("change", () => {
      if (!selected) return;
      const sq = Object.assign({}, squareAt(selected[0], selected[1]));
      sq.start = $("sq-start").checked;
      putSquare(selected[0], selected[1], sq);
    });

    // the legend: a road piece for each face of the column die
    const legend = el("fieldset", { id: "f-legend", cls: "panel" }, [el("legend", { id: "legend-title" })]);
    for (let face = 1; face <= 6; face++) {
      const s = el("select", {});
      meta.pieces.forEach((p) => s.appendChild(el("option", { value: p, text: p + "  " + (PIECE_WORDS[p] || "") })));
      s.addEventListener("change", () => {
        if (!data.legend || typeof data.legend !== "object" || Array.isArray(data.legend)) data.legend = {};
        data.legend[String(face)] = s.value;
        edited();
      });
      legend.appendChild(field("Face " + face, s, "legend-" + face));
      legend.appendChild(problemSpot("p-legend-" + face));
    }
    legend.appendChild(problemSpot("p-legend"));
    box.appendChild(el("h3", { text: "Tracks, trees and the legend" }));

    // the tracks, each with its values, whether it is shared and the value that ends the game
    const tracks = el("fieldset", { id: "f-tracks", cls: "panel" }, [el("legend", { text: "Score tracks" })]);
    meta.tracks.forEach((name) => {
      const on = el("input", { type: "checkbox", id: "track-" + name + "-on" });
      const values = el("input", { type: "text", inputMode: "numeric", autocomplete: "off" });
      const shared = el("input", { type: "checkbox", id: "track-" + name + "-shared" });
      const end = el("select", {});
      const part = el("div", { id: "track-" + name, cls: "track" }, [
        el("div", { cls: "field check" }, [on, el("label", { htmlFor: on.id, id: "track-" + name + "-label" })]),
        el("div", { id: "track-" + name + "-fields" }, [
          field("Values, lowest first", values, "track-" + name + "-values"),
          el("div", { cls: "field check" }, [shared, el("label", { htmlFor: shared.id,
            text: "shared: a value circled by one player is struck out for the others" })]),
          field("The value that ends the game when circled", end, "end-" + name),
          problemSpot("p-end-" + name),
        ]),
        problemSpot("p-track-" + name),
      ]);
      on.addEventListener("change", () => {
        if (!data.tracks || typeof data.tracks !== "object" || Array.isArray(data.tracks)) data.tracks = {};
        if (on.checked) {
          data.tracks[name] = { values: [], shared: false };
        } else {
          delete data.tracks[name];
          if (data.end && typeof data.end === "object") delete data.end[name];
        }
        edited();
      });
      values.addEventListener("input", () => {
        const t = data.tracks[name];
        if (t && typeof t === "object") t.values = numbers(values.value);
        edited();
      });
      shared.addEventListener("change", () => {
        const t = data.tracks[name];
        if (t && typeof t === "object") t.shared = shared.checked;
        edited();
      });
      end.addEventListener("change", () => {
        if (!data.end || typeof data.end !== "object" || Array.isArray(data.end)) data.end = {};
        if (end.value === "") delete data.end[name]; else data.end[name] = num(end.value);
        edited();
      });
      tracks.appendChild(part);
    });
    tracks.appendChild(problemSpot("p-tracks"));
    box.appendChild(tracks);

    const counts = el("fieldset", { id: "f-counts", cls: "panel" }, [el("legend", { text: "Bonuses, trees and barrels" })]);
    const bonuses = el("input", { type: "text", inputMode: "numeric", autocomplete: "off" });
    counts.appendChild(field("First-player bonuses (shop track), lowest first", bonuses, "bonuses"));
    counts.appendChild(problemSpot("p-bonuses"));
    bonuses.addEventListener("input", () => { data.bonuses = numbers(bonuses.value); edited(); });
    [["trees", "trees-label"], ["tree_points", "tree-points-label"], ["barrels", "barrels-label"]].forEach(([key, label]) => {
      const id = key.replace("_", "-");
      const input = el("input", { type: "number", min: 0, max: 99 });
      const f = field("", input, id);
      f.querySelector("label").id = label;
      counts.appendChild(f);
      counts.appendChild(problemSpot("p-" + id));
      input.addEventListener("input", () => { data[key] = num(input.value); edited(); });
    });
    box.appendChild(counts);
    box.appendChild(legend);
    $("sheet-name").addEventListener("input", () => { data.name = $("sheet-name").value; edited(); });
    fillDice();
  }

  // the fields as the sheet has them (a field being typed in is left as typed)
  function setValue(id, value) {
    const e = $(id);
    if (e && document.activeElement !== e) e.value = value;
  }

  function fillDice() {
    setValue("sheet-name", typeof data.name === "string" ? data.name : "");
    for (let face = 1; face <= 6; face++) {
      const v = data.legend && typeof data.legend === "object" ? data.legend[String(face)] : undefined;
      const s = $("legend-" + face);
      if (v !== undefined && !meta.pieces.includes(v) && !Array.from(s.options).some((o) => o.value === String(v))) {
        s.appendChild(el("option", { value: String(v), text: String(v) + " (not a piece)" }));
      }
      s.value = v === undefined ? "" : String(v);
    }
    setValue("bonuses", Array.isArray(data.bonuses) ? data.bonuses.join(" ") : "");
    setValue("trees", data.trees === undefined ? "" : String(data.trees));
    setValue("tree-points", data.tree_points === undefined ? "" : String(data.tree_points));
    setValue("barrels", data.barrels === undefined ? "" : String(data.barrels));
    meta.tracks.forEach((name) => {
      const t = data.tracks && typeof data.tracks === "object" ? data.tracks[name] : undefined;
      const has = t !== undefined;
      $("track-" + name + "-on").checked = has;
      $("track-" + name + "-fields").hidden = !has;
      if (has && t && typeof t === "object") {
        setValue("track-" + name + "-values", Array.isArray(t.values) ? t.values.join(" ") : "");
        $("track-" + name + "-shared").checked = t.shared === true;
      }
    });
  }

  function drawDice() {
    const n = size();
    const words = { hotel: word("hotel"), shop: word("shop"), skyscraper: word("skyscraper") };
    $("sheet-facts").textContent = "Edition " + data.edition + ", the " + (data.ruleset || "?") + " rules, " + n + "x" +
      n + " squares" + (data.park ? "; " + word("park") + "s: " + data.park : "") + " (these are kept as they are).";
    $("legend-title").textContent = "Road pieces by the " + word("column_die");
    $("trees-label").textContent = "Trees" + (word("trees") !== "trees" ? " (" + word("trees") + ")" : "") +
      " at the bottom of the sheet";
    $("tree-points-label").textContent = "Points for the fewest / most " + word("trees") + " crossed (0: none)";
    $("barrels-label").textContent = "Barrels (for " + word("park") + "s that free any square; else 0)";
    meta.tracks.forEach((name) => {
      $("track-" + name + "-label").textContent = "a " + name + " track" + (words[name] !== name ? " (" + words[name] + "s)" : "");
      const t = data.tracks && typeof data.tracks === "object" ? data.tracks[name] : undefined;
      $("track-" + name + "-fields").hidden = t === undefined;
      const end = $("end-" + name);
      const values = t && Array.isArray(t.values) ? t.values : [];
      const now = data.end && typeof data.end === "object" ? data.end[name] : undefined;
      end.replaceChildren(el("option", { value: "", text: "none" }));
      values.forEach((v) => end.appendChild(el("option", { value: String(v), text: String(v) })));
      if (now !== undefined && !values.includes(now)) {
        end.appendChild(el("option", { value: String(now), text: String(now) + " (not one of the values)" }));
      }
      end.value = now === undefined ? "" : String(now);
    });
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        const sq = squareAt(r, c);
        const b = $(squareId(r, c));
        const k = typeof sq.kind === "string" ? sq.kind : "?";
        b.dataset.kind = k;
        b.classList.toggle("start", sq.start === true);
        b.querySelector(".k").textContent = k === "plain" ? "" : kindWord(k);
        let marks = sq.start === true ? "\u2691 " : "";
        if (k === "house") {
          const houses = Number.isInteger(sq.houses) ? sq.houses : 0;
          const crossed = Number.isInteger(sq.precrossed) ? sq.precrossed : 0;
          marks += houses > 6 || crossed > houses || crossed < 0 ? crossed + "/" + houses + " \u2302"
            : "\u2612".repeat(crossed) + "\u2302".repeat(houses - crossed);
        }
        if (k === "skyscraper") {
          const floors = Number.isInteger(sq.floors) ? sq.floors : 0;
          marks += floors > 6 || floors < 0 ? floors + " \u25ad" : "\u25ad".repeat(floors);
        }
        b.querySelector(".m").textContent = marks;
      }
    }
    fillDice();
    labelCells();
    showSquarePanel();
  }

  function squareWords(r, c) {
    const sq = squareAt(r, c);
    const k = typeof sq.kind === "string" ? sq.kind : "?";
    let text = k === "plain" ? "plain" : kindWord(k);
    if (k === "house") text += ", " + sq.houses + " houses, " + sq.precrossed + " crossed in print";
    if (k === "skyscraper") text += ", " + sq.floors + " floors";
    if (sq.start === true) text += ", start square";
    return text;
  }

  function labelCells() {
    if (kind === "sheet") {
      const n = size();
      for (let r = 1; r <= n; r++) {
        for (let c = 1; c <= n; c++) {
          const b = $(squareId(r, c));
          if (!b) continue;
          b.setAttribute("aria-label", "row " + r + ", column " + c + ": " + squareWords(r, c) +
            (b.dataset.problem ? "; problem: " + b.dataset.problem : ""));
          b.setAttribute("aria-pressed", String(!!selected && selected[0] === r && selected[1] === c));
        }
      }
    } else if (kind === "map") {
      labelMapCells();
    }
  }

  function selectSquare(r, c) {
    selected = [r, c];
    focusable($("grid"), $(squareId(r, c)));
    document.querySelectorAll("#grid .selected").forEach((b) => b.classList.remove("selected"));
    $(squareId(r, c)).classList.add("selected");
    labelCells();
    showSquarePanel();
  }

  function showSquarePanel() {
    $("sq-fields").hidden = selected === null;
    if (selected === null) return;
    const [r, c] = selected;
    const sq = squareAt(r, c);
    const k = typeof sq.kind === "string" ? sq.kind : "?";
    $("square-title").textContent = "The square in row " + r + ", column " + c;
    const select = $("sq-kind");
    select.replaceChildren();
    const mine = meta.edition_kinds[data.edition] || meta.kinds;
    const others = meta.kinds.filter((x) => !mine.includes(x));
    mine.forEach((x) => select.appendChild(el("option", { value: x, text: kindLabel(x) })));
    if (others.length) {
      const g = el("optgroup", { label: "not on " + data.edition + "'s own sheet" });
      others.forEach((x) => g.appendChild(el("option", { value: x, text: kindLabel(x) })));
      select.appendChild(g);
    }
    if (!meta.kinds.includes(k)) select.appendChild(el("option", { value: k, text: k + " (not a kind)" }));
    select.value = k;
    $("sq-houses-box").hidden = k !== "house";
    $("sq-precrossed-box").hidden = k !== "house";
    $("sq-floors-box").hidden = k !== "skyscraper";
    setValue("sq-houses", sq.houses === undefined ? "" : String(sq.houses));
    setValue("sq-precrossed", sq.precrossed === undefined ? "" : String(sq.precrossed));
    setValue("sq-floors", sq.floors === undefined ? "" : String(sq.floors));
    $("sq-start").checked = sq.start === true;
    showSelectedProblem();
  }

  function kindLabel(k) {
    const w = kindWord(k);
    return w === k ? k : w + " (" + k + ")";
  }

  function dicePlace(place) {
    let m = /^squares\[([0-9]+)\]/.exec(place);
    if (m) {
      const sq = squares()[Number(m[1])];
      if (sq && Array.isArray(sq.at) && $(squareId(sq.at[0], sq.at[1]))) return { cell: squareId(sq.at[0], sq.at[1]) };
      return { spot: "p-grid" };
    }
    if (place === "squares") return { spot: "p-grid" };
    if (place === "name") return { spot: "p-name" };
    m = /^legend\.([1-6])$/.exec(place);
    if (m) return { spot: "p-legend-" + m[1] };
    if (place.startsWith("legend")) return { spot: "p-legend" };
    m = /^(tracks|end)\.([a-z_]+)/.exec(place);
    if (m && $("p-track-" + m[2])) return { spot: m[1] === "end" ? "p-end-" + m[2] : "p-track-" + m[2] };
    if (place === "tracks" || place === "end" || place.startsWith("tracks.") || place.startsWith("end.")) {
      return { spot: "p-tracks" };
    }
    if (place.startsWith("bonuses")) return { spot: "p-bonuses" };
    if (place === "trees") return { spot: "p-trees" };
    if (place === "tree_points") return { spot: "p-tree-points" };
    if (place === "barrels") return { spot: "p-barrels" };
    return null;
  }

  // == a Deadly Doodles map side ================================================================
  function mapSize() {
    const ok = (v, most) => Number.isInteger(v) && v >= 2 && v <= most;
    return [ok(data.columns, 26) ? data.columns : 6, ok(data.rows, 99) ? data.rows : 6];
  }

  function roomName(r, c) {            // 0-based row and column
    return String.fromCharCode(65 + c) + (r + 1);
  }

  function wallId(a, b) {
    return "wall-" + a + "-" + b;
  }

  function lists() {
    if (!Array.isArray(data.walls)) data.walls = [];
    if (!Array.isArray(data.entryways)) data.entryways = [];
    if (!Array.isArray(data.loot)) data.loot = [];
    ["weapons", "monsters"].forEach((k) => {
      if (!data[k] || typeof data[k] !== "object" || Array.isArray(data[k])) data[k] = {};
    });
  }

  function contentOf(room) {
    lists();
    if (data.loot.includes(room)) return "loot";
    if (data.dragon === room) return "dragon";
    for (const p of meta.pairs) {
      if (data.weapons[p] === room) return "weapon:" + p;
      if (data.monsters[p] === room) return "monster:" + p;
    }
    return "";
  }

  function contentWords(v) {
    if (v === "loot") return "Loot";
    if (v === "dragon") return "the Dragon";
    const [what, letter] = v.split(":");
    return what === "weapon" ? "Weapon " + letter : what === "monster" ? "Monster " + letter : "nothing";
  }

  // `room` now holds `value` ("" nothing, "loot", "dragon", "weapon:A", "monster:F"): what it held
  // is taken out; the Dragon, a Weapon or a Monster put here leaves the room it was in
  function setContent(room, value) {
    lists();
    data.loot = data.loot.filter((x) => x !== room);
    if (data.dragon === room) delete data.dragon;
    ["weapons", "monsters"].forEach((k) => {
      Object.keys(data[k]).forEach((p) => { if (data[k][p] === room) delete data[k][p]; });
    });
    if (value === "loot") data.loot.push(room);
    else if (value === "dragon") data.dragon = room;
    else if (value) {
      const [what, letter] = value.split(":");
      const k = what === "weapon" ? "weapons" : "monsters";
      data[k][letter] = room;
      const sorted = {};
      Object.keys(data[k]).sort().forEach((p) => { sorted[p] = data[k][p]; });
      data[k] = sorted;
    }
    edited();
  }

  function wallIndex(a, b) {
    lists();
    return data.walls.findIndex((w) => Array.isArray(w) && ((w[0] === a && w[1] === b) || (w[0] === b && w[1] === a)));
  }

  function entryIndex(room, side) {
    lists();
    return data.entryways.findIndex((e) => e && e.room === room && e.side === side);
  }

  function buildMap() {
    const box = $("map-editor");
    box.replaceChildren();
    const [cols, rows] = mapSize();
    box.appendChild(el("div", { cls: "fields" }, [
      field("Name printed on the map", el("input", { type: "text", maxLength: 80, autocomplete: "off" }), "sheet-name"),
      problemSpot("p-name"),
    ]));
    box.appendChild(el("h3", { text: "Rooms, walls and entryways" }));
    box.appendChild(el("p", { cls: "note", text: "Click a room to set what is printed in it. Click between two " +
      "rooms to draw a heavy wall there (dark) or take it away (a passageway), and an outer edge for an " +
      "entryway arrow (an edge without one is wall). Tab to the map and move with the arrow keys." }));
    const grid = el("div", { id: "dungeon", cls: "dungeon", attrs: { role: "group", "aria-label": "the dungeon map" } });
    grid.style.setProperty("--columns", String(cols));     // page.css: a strip for walls between the rooms
    for (let gr = 0; gr <= 2 * rows; gr++) {
      for (let gc = 0; gc <= 2 * cols; gc++) {
        grid.appendChild(mapCell(gr, gc, cols, rows));
      }
    }
    grid.querySelector("button.room").tabIndex = 0;
    roving(grid);
    box.appendChild(grid);
    box.appendChild(problemSpot("p-dungeon"));
    box.appendChild(el("ul", { id: "p-dungeon-cells", cls: "bad cell-problems" }));
    const select = el("select", {});
    select.appendChild(el("option", { value: "", text: "nothing" }));
    select.appendChild(el("option", { value: "loot", text: "Loot" }));
    select.appendChild(el("option", { value: "dragon", text: "the Dragon" }));
    ["weapon", "monster"].forEach((what) => {
      const g = el("optgroup", { label: what === "weapon" ? "Weapons" : "Monsters" });
      Array.from(meta.pairs).forEach((p) => g.appendChild(el("option", { value: what + ":" + p, text: contentWords(what + ":" + p) })));
      select.appendChild(g);
    });
    select.addEventListener("change", () => { if (selected !== null) setContent(selected, select.value); });
    box.appendChild(el("fieldset", { id: "room-panel", cls: "panel" }, [
      el("legend", { id: "room-title", text: "Click a room to set what is printed in it" }),
      el("div", { id: "room-fields", hidden: true }, [field("What is printed in it", select, "room-content")]),
      problemSpot("p-room"),
    ]));
    box.appendChild(el("ul", { id: "map-summary", cls: "summary" }, ["loot", "dragon", "weapons", "monsters", "entryways",
      "walls"].map((k) => el("li", {}, [el("span", { id: "count-" + k }), problemSpot("p-" + k)]))));
    $("sheet-name").addEventListener("input", () => { data.name = $("sheet-name").value; edited(); });
  }

  function mapCell(gr, gc, cols, rows) {
    const oddR = gr % 2 === 1;
    const oddC = gc % 2 === 1;
    const r = (gr - 1) >> 1;
    const c = (gc - 1) >> 1;
    const pos = { gr: String(gr), gc: String(gc) };
    if (oddR && oddC) {                                       // a room
      const name = roomName(r, c);
      const b = el("button", { type: "button", cls: "cell room", id: "room-" + name, tabIndex: -1,
        data: Object.assign({ name: name }, pos) }, [el("span", { cls: "at", text: name }), el("span", { cls: "k" })]);
      b.addEventListener("click", () => selectRoom(name));
      return b;
    }
    if (!oddR && !oddC) return el("span", { cls: "corner" });
    let button;
    if (oddR) {                                               // between two rooms of a row, or on the W/E edge
      if (gc === 0 || gc === 2 * cols) {
        const side = gc === 0 ? "W" : "E";
        button = edge(roomName(r, gc === 0 ? 0 : cols - 1), side, "v");
      } else {
        button = wall(roomName(r, c), roomName(r, c + 1), "v");
      }
    } else if (gr === 0 || gr === 2 * rows) {                  // the N/S edge
      const side = gr === 0 ? "N" : "S";
      button = edge(roomName(gr === 0 ? 0 : rows - 1, c), side, "h");
    } else {
      button = wall(roomName(r, c), roomName(r + 1, c), "h");
    }
    Object.assign(button.dataset, pos);
    button.tabIndex = -1;
    return button;
  }

  function wall(a, b, dir) {
    const w = el("button", { type: "button", cls: "cell wall " + dir, id: wallId(a, b),
      data: { a: a, b: b, name: "between " + a + " and " + b } });
    w.addEventListener("click", () => {
      focusable($("dungeon"), w);
      const i = wallIndex(a, b);
      if (i >= 0) data.walls.splice(i, 1); else data.walls.push([a, b]);
      edited();
    });
    return w;
  }

  function edge(room, side, dir) {
    const e = el("button", { type: "button", cls: "cell edge " + dir, id: "entry-" + room + "-" + side,
      data: { room: room, side: side, name: room + " " + side } });
    e.addEventListener("click", () => {
      focusable($("dungeon"), e);
      const i = entryIndex(room, side);
      if (i >= 0) data.entryways.splice(i, 1); else data.entryways.push({ room: room, side: side });
      edited();
    });
    return e;
  }

  function selectRoom(name) {
    selected = name;
    focusable($("dungeon"), $("room-" + name));
    document.querySelectorAll("#dungeon .selected").forEach((b) => b.classList.remove("selected"));
    $("room-" + name).classList.add("selected");
    drawMap();
  }

  function drawMap() {
    lists();
    setValue("sheet-name", typeof data.name === "string" ? data.name : "");
    document.querySelectorAll("#dungeon button.room").forEach((b) => {
      const v = contentOf(b.dataset.name);
      b.dataset.content = v ? v.split(":")[0] : "";
      b.querySelector(".k").textContent = v ? contentWords(v).replace("the ", "") : "";
    });
    document.querySelectorAll("#dungeon button.wall").forEach((w) => {
      w.setAttribute("aria-pressed", String(wallIndex(w.dataset.a, w.dataset.b) >= 0));
    });
    document.querySelectorAll("#dungeon button.edge").forEach((e) => {
      const on = entryIndex(e.dataset.room, e.dataset.side) >= 0;
      e.setAttribute("aria-pressed", String(on));
      e.textContent = on ? ARROWS[e.dataset.side] : "";
    });
    $("room-fields").hidden = selected === null;
    if (selected !== null) {
      $("room-title").textContent = "Room " + selected;
      $("room-content").value = contentOf(selected);
    }
    const letters = (k) => Array.from(meta.pairs).filter((p) => typeof data[k][p] === "string").join(" ") || "none";
    $("count-loot").textContent = "Loot rooms: " + data.loot.length + " of 4" + (data.loot.length ? " (" + data.loot.join(", ") + ")" : "");
    $("count-dragon").textContent = "The Dragon: " + (typeof data.dragon === "string" ? data.dragon : "nowhere");
    $("count-weapons").textContent = "Weapons: " + letters("weapons");
    $("count-monsters").textContent = "Monsters: " + letters("monsters");
    $("count-entryways").textContent = "Entryways: " + data.entryways.length + " of 6";
    $("count-walls").textContent = "Walls between rooms: " + data.walls.length;
    labelCells();
    showSelectedProblem();
  }

  function labelMapCells() {
    document.querySelectorAll("#dungeon button.room").forEach((b) => {
      const v = contentOf(b.dataset.name);
      b.setAttribute("aria-label", "room " + b.dataset.name + ": " + contentWords(v) +
        (b.dataset.problem ? "; problem: " + b.dataset.problem : ""));
      b.setAttribute("aria-pressed", String(selected === b.dataset.name));
    });
    document.querySelectorAll("#dungeon button.wall").forEach((w) => {
      w.setAttribute("aria-label", "wall between " + w.dataset.a + " and " + w.dataset.b +
        (w.dataset.problem ? "; problem: " + w.dataset.problem : ""));
    });
    document.querySelectorAll("#dungeon button.edge").forEach((e) => {
      e.setAttribute("aria-label", "entryway into " + e.dataset.room + " from the " + SIDE_WORDS[e.dataset.side] +
        (e.dataset.problem ? "; problem: " + e.dataset.problem : ""));
    });
  }

  function mapPlace(place) {
    lists();
    const room = (name) => (typeof name === "string" && $("room-" + name) ? { cell: "room-" + name } : null);
    let m = /^walls\[([0-9]+)\]/.exec(place);
    if (m) {
      const w = data.walls[Number(m[1])];
      if (Array.isArray(w)) {
        if ($(wallId(w[0], w[1]))) return { cell: wallId(w[0], w[1]) };
        if ($(wallId(w[1], w[0]))) return { cell: wallId(w[1], w[0]) };
        return room(w[0]) || { spot: "p-walls" };
      }
      return { spot: "p-walls" };
    }
    m = /^entryways\[([0-9]+)\]/.exec(place);
    if (m) {
      const e = data.entryways[Number(m[1])];
      if (e && $("entry-" + e.room + "-" + e.side)) return { cell: "entry-" + e.room + "-" + e.side };
      return (e && room(e.room)) || { spot: "p-entryways" };
    }
    m = /^loot\[([0-9]+)\]/.exec(place);
    if (m) return room(data.loot[Number(m[1])]) || { spot: "p-loot" };
    if (place === "dragon") return room(data.dragon) || { spot: "p-dragon" };
    m = /^(weapons|monsters)\.(.+)$/.exec(place);
    if (m) return room(data[m[1]][m[2]]) || { spot: "p-" + m[1] };
    if (["loot", "dragon", "weapons", "monsters", "entryways", "walls", "name"].includes(place)) {
      return { spot: "p-" + place };
    }
    return null;
  }

  // == saving ==================================================================================
  const form = $("save-form");
  if (form) {
    const note = (text) => { $("save-note").textContent = text; };
    const save = (replace) => {
      const name = $("save-name").value.trim();
      $("replace-box").hidden = true;
      if (!data) return;
      if (editor.dataset.pending === "1") {
        note("a moment: the sheet is being checked");
        return;
      }
      if (checked && checked.problems.length) {
        note("Not saved: fix the " + checked.problems.length + " problem(s) first.");
        return;
      }
      post("/api/sheets/save", { name: name, data: data, replace: replace, start: start })
        .then((answer) => {
          if (answer.status === 409) {
            $("replace-text").textContent = answer.body.error;
            $("replace-box").hidden = false;
            note("");
            return;
          }
          if (!answer.ok) {
            note("Not saved: " + answer.body.error);
            return;
          }
          const s = answer.body;
          note("Saved as " + s.saved + " (" + s.what + ", hash " + s.hash + "): doodlebox sheets lists it, and " +
            "it can be chosen under Played at this table.");
          $("save-note").dataset.saved = s.saved;
          dirty = false;
          start = s.saved;
          editor.dataset.start = s.saved;
          loadLibrary(s.saved);
        })
        .catch((err) => note(String(err)));
    };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      save(false);
    });
    $("replace-yes").addEventListener("click", () => save(true));
    $("replace-no").addEventListener("click", () => {
      $("replace-box").hidden = true;
      note("Not saved: give it another name.");
    });
  }

  loadLibrary("");
})();
