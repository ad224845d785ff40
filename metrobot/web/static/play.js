// metrobot's play page: one person's seat, played by tapping the board.
// No rule lives here: the service lists the legal steps (with where each is tapped on the
// picture), says what they do, draws the preview and plays the move; this script shows what
// it is sent and sends back the codes it listed. No framework, no inline script.
"use strict";

(function () {
  const root = document.getElementById("play");
  const dataBlock = document.getElementById("play-data");
  if (!root || !dataBlock) return;
  const POLL_MS = 3000, HIT = 44, TAP_SLOP = 10;
  // Inside Discord the Activity's page (activity.js) shows this seat: it sets window.metrobotPlay
  // ({base, fetch, picture}) so that requests carry its session instead of the page's token
  // and pictures come through it (an <img> cannot send the session).
  const hooks = window.metrobotPlay || {};
  const send = hooks.fetch || window.fetch.bind(window);
  const base = hooks.base || "";
  const tokenMeta = document.querySelector('meta[name="play-token"]');
  const token = tokenMeta ? tokenMeta.getAttribute("content") : null;
  const lang = root.getAttribute("data-lang");
  const words = {
    yourTurn: root.getAttribute("data-t-your-turn"),
    zoomed: root.getAttribute("data-t-zoomed"),
    unreachable: root.getAttribute("data-t-unreachable"),
    cancelled: root.getAttribute("data-t-cancelled"),
    over: root.getAttribute("data-t-over"),
    example: root.getAttribute("data-t-example"),
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
  let view = { s: 1, x: 0, y: 0, fit: 1 };
  let focusIndex = 0;
  let chooserFrom = null;
  const baseTitle = document.title;

  // ---------------------------------------------------------------- talking to the service
  function address(path) { return base + path + "?lang=" + encodeURIComponent(lang); }

  async function post(path, body) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers["X-Play-Token"] = token;
    const answer = await send(address(path), {
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

  async function ask(path, body, after) {
    if (busy) return;
    busy = true;
    root.setAttribute("aria-busy", "true");
    root.dataset.state = "busy";
    try {
      const got = await post(path, body);
      if (got.status === 200) {
        after(got.data);
      } else if (got.status === 409 || got.status === 400) {
        say(got.data.error || words.unreachable);
        if (got.data.board) show(got.data.board);
        else if (got.data.over) finished();
      } else {
        say(words.unreachable);
      }
    } catch (error) {
      say(words.unreachable);
    } finally {
      busy = false;
      root.removeAttribute("aria-busy");
      if (root.dataset.state === "busy") root.dataset.state = "ready";
    }
  }

  function compose(steps, extra) {
    const body = Object.assign({ moves: board.moves, steps: steps }, extra || {});
    return ask("compose", body, function (data) { say(""); show(data.board); });
  }

  function say(text) { el("said").textContent = text || ""; }

  // ---------------------------------------------------------------- what the service sent
  function show(next) {
    const wasMine = board.my_turn;
    board = next;
    root.dataset.moves = String(board.moves);
    root.dataset.steps = board.steps.join(";");
    el("status").textContent = board.status;
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
    if (board.note) say(board.note);
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
    el("cancel").disabled = !board.steps.length;
    el("confirm").disabled = !board.can_submit;
    picture();
    targets();
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
      if (hooks.picture) hooks.picture(img, base + board.picture);
      else img.setAttribute("src", board.picture);
    }
  }

  function finished() {
    board.targets = [];
    board.my_turn = false;
    el("status").textContent = words.over;
    el("typed").hidden = true;
    ["undo", "cancel", "confirm"].forEach(function (id) { el(id).disabled = true; });
    targets();
    root.dataset.over = "true";
  }

  // ---------------------------------------------------------------- targets
  function targets() {
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
      button.addEventListener("focus", function () { focusIndex = i; reveal(spot); });
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
    place();
    if (root.dataset.picture !== "loading") root.dataset.state = "ready";
  }

  function step(code) {
    closeChooser(false);
    compose(board.steps.concat([code]));
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
    const w = viewport.clientWidth, h = viewport.clientHeight;
    const px = view.x + spot.cx * view.s, py = view.y + spot.cy * view.s;
    const cw = Math.min(chooser.offsetWidth, w), ch = Math.min(chooser.offsetHeight, h);
    chooser.style.left = Math.max(0, Math.min(w - cw, px - cw / 2)) + "px";
    chooser.style.top = (py + 24 + ch <= h ? py + 24 : Math.max(0, py - 24 - ch)) + "px";
    root.dataset.chooser = "open";
    const first = chooserSteps.querySelector("button");
    if (first) first.focus({ preventScroll: true });
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

  // ---------------------------------------------------------------- zoom and pan
  function fitScale() { return board.size[0] ? viewport.clientWidth / board.size[0] : 1; }
  function maxScale() { return Math.max(4, view.fit * 6); }

  function resize() {
    const fit = fitScale();
    const tall = board.size[1] * fit;
    viewport.style.height = Math.round(Math.max(220, Math.min(tall, window.innerHeight * 0.7))) + "px";
    const was = view.fit;
    view.fit = fitScale();
    if (view.s === was || view.s < view.fit) view.s = view.fit;
    place();
  }

  function clamp() {
    view.s = Math.min(maxScale(), Math.max(view.fit, view.s));
    const w = viewport.clientWidth, h = viewport.clientHeight;
    const iw = board.size[0] * view.s, ih = board.size[1] * view.s;
    view.x = iw <= w ? (w - iw) / 2 : Math.min(0, Math.max(w - iw, view.x));
    view.y = ih <= h ? 0 : Math.min(0, Math.max(h - ih, view.y));
  }

  let framed = false;
  function place() {
    if (framed) return;
    framed = true;
    window.requestAnimationFrame(function () { framed = false; placeNow(); });
  }

  function placeNow() {
    clamp();
    stage.style.transform = "translate(" + view.x + "px, " + view.y + "px) scale(" + view.s + ")";
    root.dataset.scale = view.s.toFixed(4);
    spots.forEach(function (spot) {
      const w = Math.max(spot.box[2] * view.s, 12), h = Math.max(spot.box[3] * view.s, 12);
      const b = spot.button.style;
      b.left = (view.x + spot.cx * view.s - w / 2) + "px";
      b.top = (view.y + spot.cy * view.s - h / 2) + "px";
      b.width = w + "px";
      b.height = h + "px";
    });
  }

  function zoomAt(factor, cx, cy) {
    const before = view.s;
    view.s = Math.min(maxScale(), Math.max(view.fit, view.s * factor));
    const k = view.s / before;
    view.x = cx - (cx - view.x) * k;
    view.y = cy - (cy - view.y) * k;
    place();
  }

  function reveal(spot) {
    const w = viewport.clientWidth, h = viewport.clientHeight;
    const px = view.x + spot.cx * view.s, py = view.y + spot.cy * view.s;
    if (px < 24 || px > w - 24 || py < 24 || py > h - 24) {
      view.x = w / 2 - spot.cx * view.s;
      view.y = h / 2 - spot.cy * view.s;
      place();
    }
  }

  // A tap: the spot whose hit area (its box, at least HIT × HIT CSS pixels) holds it; where
  // several do, the view zooms in until they are HIT apart, and at the closest zoom a chooser
  // lists them all.
  function tap(clientX, clientY) {
    const box = viewport.getBoundingClientRect();
    const tx = clientX - box.left, ty = clientY - box.top;
    const hits = spots.filter(function (spot) {
      const w = Math.max(spot.box[2] * view.s, HIT), h = Math.max(spot.box[3] * view.s, HIT);
      const sx = view.x + spot.cx * view.s, sy = view.y + spot.cy * view.s;
      return Math.abs(tx - sx) <= w / 2 && Math.abs(ty - sy) <= h / 2;
    });
    if (!hits.length) return;
    if (hits.length === 1) { choose(hits[0], hits[0].button); return; }
    if (view.s < maxScale() - 1e-6) {
      let nearest = Infinity;
      for (let i = 0; i < hits.length; i++) {
        for (let j = i + 1; j < hits.length; j++) {
          nearest = Math.min(nearest, Math.max(Math.abs(hits[i].cx - hits[j].cx), Math.abs(hits[i].cy - hits[j].cy)));
        }
      }
      const wanted = Math.min(maxScale(), Math.max(view.s * 1.5, HIT / Math.max(nearest, 1e-3)));
      zoomAt(wanted / view.s, tx, ty);
      el("news").textContent = words.zoomed;
      return;
    }
    const steps = [];
    hits.forEach(function (spot) { spot.steps.forEach(function (t) { steps.push(t); }); });
    openChooser(steps, hits[0], hits[0].button);
  }

  const pointers = new Map();
  let gesture = null, pinch = null;
  viewport.addEventListener("pointerdown", function (e) {
    if (chooser.contains(e.target)) return;
    viewport.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 1) gesture = { x: e.clientX, y: e.clientY, moved: false, many: false };
    else if (gesture) gesture.many = true;
  });
  viewport.addEventListener("pointermove", function (e) {
    if (!pointers.has(e.pointerId)) return;
    const last = pointers.get(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (gesture && Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) > TAP_SLOP) gesture.moved = true;
    if (pointers.size === 1 && gesture && gesture.moved) {
      view.x += e.clientX - last[0];
      view.y += e.clientY - last[1];
      place();
    } else if (pointers.size === 2) {
      const pair = Array.from(pointers.values());
      const distance = Math.hypot(pair[0][0] - pair[1][0], pair[0][1] - pair[1][1]);
      const box = viewport.getBoundingClientRect();
      const mx = (pair[0][0] + pair[1][0]) / 2 - box.left, my = (pair[0][1] + pair[1][1]) / 2 - box.top;
      if (pinch) zoomAt(distance / pinch, mx, my);
      pinch = distance;
    }
  });
  function release(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size && gesture) {
      const g = gesture;
      gesture = null;
      if (e.type === "pointerup" && !g.moved && !g.many && !busy && board.my_turn) tap(e.clientX, e.clientY);
    }
  }
  viewport.addEventListener("pointerup", release);
  viewport.addEventListener("pointercancel", release);
  viewport.addEventListener("wheel", function (e) {
    if (!e.ctrlKey && view.s === view.fit) return;
    e.preventDefault();
    const box = viewport.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });
  document.querySelectorAll("[data-play-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      const how = button.getAttribute("data-play-zoom");
      const w = viewport.clientWidth / 2, h = viewport.clientHeight / 2;
      if (how === "in") zoomAt(1.5, w, h);
      else if (how === "out") zoomAt(1 / 1.5, w, h);
      else { view.s = view.fit; place(); }
    });
  });
  window.addEventListener("resize", resize);

  // ---------------------------------------------------------------- the composer's buttons
  el("undo").addEventListener("click", function () { compose(board.steps.slice(0, -1)); });
  el("cancel").addEventListener("click", function () {
    ask("compose", { moves: board.moves, steps: [] }, function (data) { show(data.board); say(words.cancelled); });
  });
  el("confirm").addEventListener("click", function () {
    ask("confirm", { moves: board.moves, steps: board.steps }, function (data) {
      if (data.board) show(data.board); else finished();
      say(data.said || "");
    });
  });
  el("typed").addEventListener("submit", function (e) {
    e.preventDefault();
    const input = el("typed-step");
    const text = input.value.trim();
    if (!text) return;
    ask("compose", { moves: board.moves, steps: board.steps, typed: text }, function (data) {
      input.value = "";
      say("");
      show(data.board);
    });
  });

  // ---------------------------------------------------------------- following the game
  async function follow() {
    if (busy || document.hidden || root.dataset.over) return;
    try {
      const answer = await send(address("live"), { cache: "no-cache", credentials: "omit" });
      if (answer.status === 404) { finished(); return; }
      if (!answer.ok) return;
      const now = await answer.json();
      if (now.version === board.version || busy) return;
      // The game moved (another player, a clock): the steps so far are kept if they still are
      // legal there, else the page starts again from the position as it is.
      await ask("compose", { moves: now.moves, steps: board.steps }, function (data) { show(data.board); });
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
  const first = el("picture");
  if (first && first.complete) root.dataset.picture = "loaded";
  board.my_turn = !board.my_turn; // (so that the first show() announces a turn that is waiting)
  show(JSON.parse(dataBlock.textContent));
  resize();
})();
