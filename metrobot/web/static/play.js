// metrobot's play page: one person's seat, played by tapping the board.
// No rule lives here: the service lists the legal steps (with where each is tapped on the
// picture), says what they do, draws the preview and plays the move; this script shows what
// it is sent and sends back the codes it listed. No framework, no inline script.
"use strict";

(function () {
  const root = document.getElementById("play");
  const dataBlock = document.getElementById("play-data");
  if (!root || !dataBlock) return;
  const POLL_MS = 3000;
  // Inside Discord the Activity's page (activity.js) shows this seat: it sets window.metrobotPlay
  // ({base, fetch, picture}) so that requests carry its session instead of the page's token
  // and pictures come through it (an <img> cannot send the session).
  const outer = window.metrobotPlay || {};
  const request = outer.fetch || window.fetch.bind(window);
  const base = outer.base || "";
  const tokenMeta = document.querySelector('meta[name="play-token"]');
  const token = tokenMeta ? tokenMeta.getAttribute("content") : null;
  const lang = root.getAttribute("data-lang");
  const words = {
    yourTurn: root.getAttribute("data-t-your-turn"),
    zoomed: root.getAttribute("data-t-zoomed"),
    unreachable: root.getAttribute("data-t-unreachable"),
    asking: root.getAttribute("data-t-asking"),
    played: root.getAttribute("data-t-played"),
    takenBack: root.getAttribute("data-t-taken-back"),
    notPlayed: root.getAttribute("data-t-not-played"),
    otherFirst: root.getAttribute("data-t-other-first"),
    closed: root.getAttribute("data-t-closed"),
    cancelled: root.getAttribute("data-t-cancelled"),
    over: root.getAttribute("data-t-over"),
    example: root.getAttribute("data-t-example"),
    until: root.getAttribute("data-t-until"),
  };
  const viewport = document.getElementById("play-viewport");
  const stage = document.getElementById("stage");
  const layer = document.getElementById("targets");
  const chooser = document.getElementById("chooser");
  const chooserSteps = document.getElementById("chooser-steps");
  const offboard = document.getElementById("offboard");
  const el = function (id) { return document.getElementById(id); };
  let board = JSON.parse(dataBlock.textContent);
  let spots = [];
  let busy = false;
  let focusIndex = 0;
  let chooserFrom = null;
  // A ✔ Confirm whose answer never came (the connection broke, the bot restarted): the position
  // it was sent at, until the service says what became of it (`settle`). Its steps are not
  // the page's any more: they are never sent again.
  let unsettled = null;
  let pictureTries = 0;
  let takebackTimer = null;
  const baseTitle = document.title;
  const shown = window.metroPlayView(viewport, stage, {
    root: root,
    chooser: chooser,
    size: function () { return board.size; },
    mine: function () { return board.my_turn; },
    canTap: function () { return !busy && !unsettled && board.my_turn; },
    spots: function () { return spots; },
    choose: function (spot) { choose(spot, spot.button); },
    crowd: function (steps, spot) { openChooser(steps, spot, spot.button); },
    zoomed: function () { el("news").textContent = words.zoomed; },
  });
  const view = shown.view;
  const place = shown.place;

  // ---------------------------------------------------------------- talking to the service
  function address(path) { return base + path + "?lang=" + encodeURIComponent(lang); }

  async function post(path, body) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers["X-Play-Token"] = token;
    const answer = await request(address(path), {
      method: "POST",
      credentials: "omit",
      cache: "no-store",
      headers: headers,
      body: JSON.stringify(body),
    });
    let data = null;
    try { data = await answer.json(); } catch (error) { data = null; }
    return { status: answer.status, data: data || {} };
  }

  // Requests go one at a time, in the order they were asked for; a body may be a function,
  // read when its turn comes (a step is added to the steps shown then).
  let queue = Promise.resolve();
  function ask(path, body, after) {
    const run = function () { return send(path, typeof body === "function" ? body() : body, after); };
    queue = queue.then(run, run);
    return queue;
  }

  async function send(path, body, after) {
    busy = true;
    root.setAttribute("aria-busy", "true");
    root.dataset.state = "busy";
    // (what changes the game: a lost answer does not say whether it changed; the service is asked)
    const changes = path === "confirm" || path === "takeback";
    try {
      let got = null;
      try { got = await post(path, body); } catch (error) { got = null; }
      if (got && got.status === 200) {
        after(got.data);
      } else if (got && (got.status === 409 || got.status === 400)) {
        say(got.data.error || words.unreachable);
        if (got.data.board) show(got.data.board);
        else if (got.data.over) finished();
      } else if (changes) {
        unsettled = { since: body.moves, what: path };
        hold();
        say(words.asking);
        await settle();
      } else {
        say(words.unreachable);
      }
    } finally {
      busy = false;
      root.removeAttribute("aria-busy");
      if (root.dataset.state === "busy") root.dataset.state = "ready";
    }
  }

  function compose(steps, extra) {
    return ask("compose", function () {
      const body = { moves: board.moves, steps: typeof steps === "function" ? steps() : steps, again: board.again };
      return Object.assign(body, extra || {});
    }, function (data) { say(""); show(data.board); });
  }

  function say(text) {
    write(el("said"), text);
    // (a take-back's time said in the answer is not said twice beside its button)
    el("takeback-until").hidden = !!el("said").querySelector("time");
  }

  // A text from the service: a string, or pieces ({text} or {time}: seconds since 1970, shown
  // as the reader's local time).
  function write(node, text) {
    node.textContent = "";
    (typeof text === "string" ? [{ text: text }] : text || []).forEach(function (piece) {
      if (piece.time === undefined) { node.append(piece.text || ""); return; }
      node.append(clock(piece.time));
    });
  }

  function clock(seconds) {
    const when = new Date(seconds * 1000);
    const time = document.createElement("time");
    time.dateTime = when.toISOString();
    time.textContent = when.toLocaleTimeString(lang.replace("_", "-"), { timeStyle: "medium" });
    return time;
  }

  // What became of a ✔ Confirm whose answer was lost: asked of the service by the position it
  // was sent at; until it answers, the page says it is asking, and nothing else.
  async function settle() {
    if (!unsettled) return;
    let answer = null;
    try {
      answer = await request(address("moved") + "&since=" + unsettled.since, { cache: "no-store", credentials: "omit" });
    } catch (error) {
      answer = null;
    }
    if (answer && answer.status === 404) {
      unsettled = null;
      finished();
      say(words.closed);
      return;
    }
    let data = null;
    if (answer && answer.ok) {
      try { data = await answer.json(); } catch (error) { data = null; }
    }
    if (!data || !data.board) { say(words.asking); return; }
    const what = unsettled.what;
    unsettled = null;
    show(data.board);
    if (what === "takeback") say(data.moved === "yours" ? words.takenBack : "");
    else say(data.moved === "yours" ? words.played : data.moved === "none" ? words.notPlayed : words.otherFirst);
  }

  // Until the service says what became of it, the page offers nothing to tap or confirm.
  function hold() {
    board.steps = [];
    board.targets = [];
    ["undo", "cancel", "confirm", "takeback"].forEach(function (id) { el(id).disabled = true; });
    targets();
  }

  // ---------------------------------------------------------------- what the service sent
  function show(next) {
    const wasMine = board.my_turn;
    if (el("news").textContent === words.zoomed) el("news").textContent = "";
    board = next;
    root.dataset.moves = String(board.moves);
    root.dataset.steps = board.steps.join(";");
    if (board.my_turn && board.complete) root.dataset.complete = "true";
    else delete root.dataset.complete;
    write(el("status"), board.status);
    el("status").hidden = !board.status.length;
    el("h-compose").textContent = board.heading;
    el("summary").textContent = board.summary;
    const hand = el("hand-section");
    hand.hidden = !board.hand;
    el("hand").textContent = board.hand || "";
    const scores = el("scores");
    scores.textContent = "";
    board.scores.forEach(function (s) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = s.name;
      const td = document.createElement("td");
      td.textContent = String(s.score);
      tr.append(th, td);
      scores.append(tr);
    });
    if (!wasMine && board.my_turn) say("");  // (what was said of the last turn is past)
    if (wasMine && !board.my_turn) { view.s = view.fit; place(); }  // (a move made: the whole board)
    if (board.note && board.note.length) say(board.note);
    if (!wasMine && board.my_turn) {
      el("news").textContent = words.yourTurn;
      document.title = "● " + baseTitle;
    } else if (!board.my_turn) {
      el("news").textContent = "";
      document.title = baseTitle;
    }
    const parts = words.example.split("\x1f");
    el("typed-example").textContent = board.example ? parts[0] + board.example + (parts[1] || "") : "";
    el("typed").hidden = !board.my_turn || board.complete;
    el("undo").disabled = !board.steps.length;
    el("cancel").disabled = !board.steps.length && !board.again;
    el("confirm").disabled = !board.can_submit;
    root.querySelector(".actions").hidden = !board.my_turn;  // (nothing to undo or confirm while others play)
    el("change").hidden = !board.can_change;
    el("takeback").disabled = false;
    takeBack();
    picture();
    targets();
  }

  // ↶ Take back: offered while the service says this person's last move may be taken back;
  // hidden when its time is up (a later tap would be refused by the service anyway).
  function takeBack() {
    const until = board.takeback_until;
    const left = until ? until * 1000 - Date.now() : 0;
    window.clearTimeout(takebackTimer);
    el("takeback-row").hidden = !(left > 0);
    if (left > 0) {
      const parts = words.until.split("\x1f");
      const line = el("takeback-until");
      line.textContent = "";
      line.append(parts[0], clock(until), parts[1] || "");
      takebackTimer = window.setTimeout(function () { el("takeback-row").hidden = true; }, left);
    }
  }

  function picture() {
    let img = el("picture");
    if (!board.picture) { if (img) img.remove(); return; }
    if (!img) {
      img = document.createElement("img");
      img.id = "picture";
      img.draggable = false;
      stage.append(img);
    }
    img.alt = board.alt;
    img.width = board.size[0];
    img.height = board.size[1];
    if (img.dataset.shows !== board.picture) {
      root.dataset.picture = "loading";
      img.dataset.shows = board.picture;
      pictureTries = 0;
      load(img, board.picture);
    }
  }

  function load(img, address) {
    if (outer.picture) outer.picture(img, base + address);
    else img.setAttribute("src", address);
  }

  // A picture that could not be had (the bot was away) is asked for again once the bot answers.
  function pictureAgain() {
    const img = el("picture");
    if (!img || root.dataset.picture !== "failed") return;
    root.dataset.picture = "loading";
    pictureTries += 1;
    load(img, img.dataset.shows + "?again=" + pictureTries);
  }

  function finished() {
    board.targets = [];
    board.my_turn = false;
    el("status").textContent = words.over;
    el("typed").hidden = true;
    ["undo", "cancel", "confirm"].forEach(function (id) { el(id).disabled = true; });
    el("takeback-row").hidden = true;
    targets();
    root.dataset.over = "true";
  }

  // ---------------------------------------------------------------- targets
  function targets() {
    // (a keyboard user whose target was just replaced goes on from the first new one)
    const active = document.activeElement;
    const refocus = !!active && (layer.contains(active) || chooser.contains(active) || offboard.contains(active));
    closeChooser(false);
    const byBox = new Map();
    const beside = [];
    board.targets.forEach(function (t) {
      if (!t.box) { beside.push(t); return; }
      const key = t.box.join(",");
      if (!byBox.has(key)) byBox.set(key, { box: t.box, steps: [] });
      byBox.get(key).steps.push(t);
    });
    spots = Array.from(byBox.values());
    spots.forEach(function (s) { s.cx = s.box[0] + s.box[2] / 2; s.cy = s.box[1] + s.box[3] / 2; });
    const heights = spots.map(function (s) { return s.box[3]; }).sort(function (a, b) { return a - b; });
    const band = Math.max(16, heights.length ? heights[heights.length >> 1] : 16);
    spots.sort(function (a, b) { return Math.floor(a.cy / band) - Math.floor(b.cy / band) || a.cx - b.cx; });
    layer.textContent = "";
    spots.forEach(function (spot, i) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "target" + (spot.steps.length > 1 ? " shared" : "");
      button.tabIndex = i === 0 ? 0 : -1;
      button.setAttribute("aria-label", spot.steps.map(function (t) { return t.label; }).join(" · "));
      if (spot.steps.length > 1) button.setAttribute("aria-haspopup", "dialog");
      if (spot.steps.length === 1) button.dataset.code = spot.steps[0].code;
      else button.dataset.codes = spot.steps.map(function (t) { return t.code; }).join(" ");
      button.addEventListener("click", function () { choose(spot, button); });
      button.addEventListener("focus", function () { focusIndex = i; shown.reveal(spot); });
      spot.button = button;
      layer.append(button);
    });
    focusIndex = 0;
    layer.hidden = !spots.length;
    offboard.textContent = "";
    beside.forEach(function (t) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = t.label;
      button.dataset.code = t.code;
      button.addEventListener("click", function () { step(t.code); });
      offboard.append(button);
    });
    offboard.hidden = !beside.length;
    if (refocus) {
      const next = spots.length ? spots[0].button : offboard.querySelector("button") || el("confirm");
      next.focus({ preventScroll: true });
    }
    place();
    if (root.dataset.picture !== "loading") root.dataset.state = "ready";
  }

  function step(code) {
    closeChooser(false);
    compose(function () { return board.steps.concat([code]); }).then(shown.frame);
  }

  function choose(spot, from) {
    if (spot.steps.length === 1) step(spot.steps[0].code);
    else openChooser(spot.steps, spot, from);
  }

  // ---------------------------------------------------------------- the chooser at a shared spot
  function openChooser(steps, spot, from) {
    chooserSteps.textContent = "";
    steps.forEach(function (t) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = t.label;
      button.dataset.code = t.code;
      button.addEventListener("click", function () { step(t.code); });
      chooserSteps.append(button);
    });
    chooserFrom = from || null;
    chooser.hidden = false;
    if (el("news").textContent === words.zoomed) el("news").textContent = "";
    const w = viewport.clientWidth, h = viewport.clientHeight;
    const px = view.x + spot.cx * view.s, py = view.y + spot.cy * view.s;
    const cw = Math.min(chooser.offsetWidth, w), ch = Math.min(chooser.offsetHeight, h);
    chooser.style.left = Math.max(0, Math.min(w - cw, px - cw / 2)) + "px";
    chooser.style.top = (py + 24 + ch <= h ? py + 24 : Math.max(0, py - 24 - ch)) + "px";
    root.dataset.chooser = "open";
    const first = chooserSteps.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    if (window.getComputedStyle(chooser).position === "static") chooser.scrollIntoView({ block: "nearest" });
  }

  function closeChooser(refocus) {
    if (chooser.hidden) return;
    chooser.hidden = true;
    delete root.dataset.chooser;
    if (refocus && chooserFrom && document.body.contains(chooserFrom)) chooserFrom.focus({ preventScroll: true });
    chooserFrom = null;
  }
  el("chooser-close").addEventListener("click", function () { closeChooser(true); });
  chooser.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { e.preventDefault(); closeChooser(true); }
  });

  // ---------------------------------------------------------------- keyboard: the targets as a list
  layer.addEventListener("keydown", function (e) {
    if (!spots.length) return;
    let k = focusIndex;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") k = Math.min(spots.length - 1, k + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") k = Math.max(0, k - 1);
    else if (e.key === "Home") k = 0;
    else if (e.key === "End") k = spots.length - 1;
    else return;
    e.preventDefault();
    spots[focusIndex].button.tabIndex = -1;
    spots[k].button.tabIndex = 0;
    spots[k].button.focus({ preventScroll: true });
  });

  // ---------------------------------------------------------------- the composer's buttons
  el("change").addEventListener("click", function () { compose([], { again: true }); });
  el("undo").addEventListener("click", function () { compose(function () { return board.steps.slice(0, -1); }); });
  el("cancel").addEventListener("click", function () {
    ask("compose", function () { return { moves: board.moves, steps: [], again: false }; }, function (data) {
      show(data.board);
      say(words.cancelled);
    });
  });
  el("takeback").addEventListener("click", function () {
    ask("takeback", function () { return { moves: board.moves, steps: [] }; }, function (data) {
      if (data.board) show(data.board); else finished();
      say(data.said || "");
    });
  });
  el("confirm").addEventListener("click", function () {
    ask("confirm", function () { return { moves: board.moves, steps: board.steps, again: board.again }; }, function (data) {
      if (data.board) show(data.board); else finished();
      say(data.said || "");
    });
  });
  el("typed").addEventListener("submit", function (e) {
    e.preventDefault();
    const input = el("typed-step");
    const text = input.value.trim();
    if (!text) return;
    ask("compose", function () {
      return { moves: board.moves, steps: board.steps, typed: text, again: board.again };
    }, function (data) {
      input.value = "";
      say("");
      show(data.board);
    });
  });

  // ---------------------------------------------------------------- following the game
  async function follow() {
    if (busy || document.hidden || root.dataset.over) return;
    if (unsettled) {
      const run = function () { busy = true; return settle().finally(function () { busy = false; }); };
      queue = queue.then(run, run);
      await queue;
      return;
    }
    try {
      const answer = await request(address("live"), { cache: "no-cache", credentials: "omit" });
      if (answer.status === 404) { finished(); return; }
      if (!answer.ok) return;
      pictureAgain();
      const now = await answer.json();
      if (now.version === board.version || busy) return;
      // The game moved (another player, a clock): the steps so far are kept if they still are
      // legal there, else the page starts again from the position as it is.
      await ask("compose", function () { return { moves: now.moves, steps: board.steps, again: board.again }; }, function (data) {
        show(data.board);
      });
      if (board.moves !== now.moves && board.steps.length) await compose([]);
    } catch (error) {
      // the bot is away for a moment: the next look tries again
    }
  }
  window.setInterval(follow, POLL_MS);

  stage.addEventListener("load", function () {
    root.dataset.picture = "loaded";
    if (!busy) root.dataset.state = "ready";
  }, true);
  stage.addEventListener("error", function () {
    root.dataset.picture = "failed";
    if (!busy) root.dataset.state = "ready";
  }, true);
  const first = el("picture");
  if (first && first.complete) root.dataset.picture = first.naturalWidth ? "loaded" : "failed";
  board.my_turn = !board.my_turn; // (so that the first show() announces a turn that is waiting)
  show(JSON.parse(dataBlock.textContent));
  shown.resize();
})();
