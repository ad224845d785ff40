// metrobot's web pages: the board's pan and zoom, the replay scrubber, live updates, local times.
// No framework; every page works without this file (each turn links to its board).
"use strict";

(function () {
  const MIN = 1, MAX = 6, POLL_MS = 3000;
  let resizing = false;

  // ---------------------------------------------------------------- times in the reader's zone
  function localTimes(root) {
    const lang = document.documentElement.lang || undefined;
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      const at = new Date(el.getAttribute("datetime"));
      if (!isNaN(at)) {
        el.textContent = at.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      }
    });
  }

  // ---------------------------------------------------------------- pan and zoom
  function panZoom(viewport, img) {
    let scale = 1, x = 0, y = 0;
    const pointers = new Map();
    let pinch = null;

    function clamp() {
      scale = Math.min(MAX, Math.max(MIN, scale));
      const w = viewport.clientWidth, h = viewport.clientHeight;
      const iw = img.offsetWidth * scale, ih = img.offsetHeight * scale;
      x = Math.min(0, Math.max(w - iw, x));
      y = Math.min(0, Math.max(Math.min(0, h - ih), y));
    }
    function show() {
      clamp();
      img.style.transform = "translate(" + x + "px, " + y + "px) scale(" + scale + ")";
    }
    function zoomAt(factor, cx, cy) {
      const before = scale;
      scale = Math.min(MAX, Math.max(MIN, scale * factor));
      const k = scale / before;
      x = cx - (cx - x) * k;
      y = cy - (cy - y) * k;
      show();
    }
    function centre() {
      return [viewport.clientWidth / 2, viewport.clientHeight / 2];
    }
    viewport.addEventListener("pointerdown", function (e) {
      viewport.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      viewport.classList.add("dragging");
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) return;
      const last = pointers.get(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 1) {
        x += e.clientX - last[0];
        y += e.clientY - last[1];
        show();
      } else if (pointers.size === 2) {
        const [a, b] = Array.from(pointers.values());
        const distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const box = viewport.getBoundingClientRect();
        const mx = (a[0] + b[0]) / 2 - box.left, my = (a[1] + b[1]) / 2 - box.top;
        if (pinch) zoomAt(distance / pinch, mx, my);
        pinch = distance;
      }
    });
    function release(e) {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) viewport.classList.remove("dragging");
    }
    viewport.addEventListener("pointerup", release);
    viewport.addEventListener("pointercancel", release);
    viewport.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && scale === 1) return; // the page scrolls until the reader zooms in
      e.preventDefault();
      const box = viewport.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - box.left, e.clientY - box.top);
    }, { passive: false });
    viewport.addEventListener("keydown", function (e) {
      const step = 40;
      const keys = {
        "+": function () { zoomAt(1.25, ...centre()); }, "=": function () { zoomAt(1.25, ...centre()); },
        "-": function () { zoomAt(0.8, ...centre()); }, "0": function () { scale = 1; x = y = 0; show(); },
        ArrowLeft: function () { x += step; show(); }, ArrowRight: function () { x -= step; show(); },
        ArrowUp: function () { y += step; show(); }, ArrowDown: function () { y -= step; show(); },
      };
      if (keys[e.key] && (scale > 1 || !e.key.startsWith("Arrow"))) {
        e.preventDefault();
        keys[e.key]();
      }
    });
    document.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        const how = button.getAttribute("data-zoom");
        if (how === "in") zoomAt(1.5, ...centre());
        else if (how === "out") zoomAt(1 / 1.5, ...centre());
        else { scale = 1; x = y = 0; show(); }
      });
    });
    if (!resizing) {
      resizing = true;
      window.addEventListener("resize", function () { if (current.refit) current.refit(); });
    }
    return show;
  }

  // ---------------------------------------------------------------- the replay scrubber
  function scrubber(state) {
    const range = document.getElementById("turn");
    const img = document.getElementById("board");
    const shown = document.getElementById("shown");
    if (!range || !img) return;
    const entries = Array.from(document.querySelectorAll(".turns li[data-turn]"));
    const byTurn = new Map(entries.map(function (li) { return [li.getAttribute("data-turn"), li]; }));
    function go(k, announce) {
      const last = Number(range.max);
      k = Math.min(last, Math.max(0, k));
      range.value = String(k);
      const li = byTurn.get(String(k));
      if (!li) return;
      img.src = li.getAttribute("data-board");
      img.alt = li.getAttribute("data-alt");
      range.setAttribute("aria-valuetext", li.getAttribute("data-label"));
      entries.forEach(function (other) { other.removeAttribute("aria-current"); });
      li.setAttribute("aria-current", "step");
      if (announce && shown) shown.textContent = li.getAttribute("data-label");
      const list = li.parentElement;
      if (list && list.scrollHeight > list.clientHeight) {
        list.scrollTop = li.offsetTop - list.offsetTop;
      }
      state.following = k === last;
    }
    range.addEventListener("input", function () { go(Number(range.value), true); });
    document.getElementById("previous").addEventListener("click", function () { go(Number(range.value) - 1, true); });
    document.getElementById("next").addEventListener("click", function () { go(Number(range.value) + 1, true); });
    state.go = go;
  }

  // ---------------------------------------------------------------- live updates
  function live() {
    const holder = document.getElementById("live");
    if (!holder || !holder.hasAttribute("data-live")) return;
    let version = holder.getAttribute("data-version");
    let busy = false;
    async function poll() {
      if (busy || document.hidden || !holder.hasAttribute("data-live")) return; // (a finished game stays as it is)
      busy = true;
      try {
        const answer = await fetch("live", { cache: "no-cache", credentials: "omit" });
        if (!answer.ok) return;
        const now = await answer.json();
        if (String(now.version) === version) return;
        const page = await fetch(window.location.href, { cache: "no-store", credentials: "omit" });
        if (!page.ok) return;
        const fresh = new DOMParser().parseFromString(await page.text(), "text/html").getElementById("live");
        if (!fresh) return;
        const shownTurn = document.getElementById("turn");
        const keep = shownTurn && !current.following ? Number(shownTurn.value) : null;
        holder.innerHTML = fresh.innerHTML;
        version = fresh.getAttribute("data-version");
        holder.setAttribute("data-version", version);
        if (!fresh.hasAttribute("data-live")) holder.removeAttribute("data-live");
        current = start(holder, keep);
        const updated = document.getElementById("updated");
        const shown = document.getElementById("shown");
        if (updated && shown) updated.textContent = shown.textContent;
      } catch (error) {
        // the server is away for a moment: the next poll tries again
      } finally {
        busy = false;
      }
    }
    window.setInterval(poll, POLL_MS);
  }

  function start(root, keep) {
    const state = { following: true };
    localTimes(root);
    const viewport = document.getElementById("viewport");
    const img = document.getElementById("board");
    if (viewport && img) state.refit = panZoom(viewport, img);
    scrubber(state);
    if (keep !== null && keep !== undefined && state.go) state.go(keep, false);
    return state;
  }

  let current = start(document, null);
  live();
})();
