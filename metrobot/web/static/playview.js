// metrobot's play page: the board's view — zoom and pan (pinch, drag, wheel, + −), where each
// target is drawn on it, and what a tap means (the target whose hit area of at least HIT × HIT
// CSS pixels holds it; a crowded tap zooms in, and at the closest zoom opens a chooser). Holds
// no rule and talks to nobody: play.js gives it the targets and is told what was tapped.
"use strict";

// `hooks`: root (the page's #play), chooser (its element), size() (the picture's pixels), mine()
// (the game waits for this person), canTap(), spots() (each {box, cx, cy, steps, button}),
// choose(spot), crowd(steps, spot) (a chooser of several spots' steps), zoomed().
window.metroPlayView = function (viewport, stage, hooks) {
  const HIT = 44, TAP_SLOP = 10;
  const view = { s: 1, x: 0, y: 0, fit: 1 };

  // After a step, where the next targets lie close together (the next tunnel of a line, the
  // boxes of one line of a sheet), the view zooms to them, as far as it takes for each to get
  // its HIT × HIT pixels of its own; targets spread over the board leave the view as it is.
  function frame() {
    if (hooks.spots().length < 2 || !hooks.mine()) return;
    let nearest = Infinity, x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    hooks.spots().forEach(function (a, i) {
      x0 = Math.min(x0, a.box[0]); y0 = Math.min(y0, a.box[1]);
      x1 = Math.max(x1, a.box[0] + a.box[2]); y1 = Math.max(y1, a.box[1] + a.box[3]);
      for (let j = i + 1; j < hooks.spots().length; j++) {
        const b = hooks.spots()[j];
        nearest = Math.min(nearest, Math.max(Math.abs(a.cx - b.cx), Math.abs(a.cy - b.cy)));
      }
    });
    const needed = HIT / Math.max(nearest, 1e-3);
    if (needed <= view.s) return;
    const w = viewport.clientWidth - HIT, h = viewport.clientHeight - HIT;
    if (needed > maxScale() || (x1 - x0) * needed > w || (y1 - y0) * needed > h) return;
    view.s = needed;
    view.x = viewport.clientWidth / 2 - ((x0 + x1) / 2) * needed;
    view.y = viewport.clientHeight / 2 - ((y0 + y1) / 2) * needed;
    place();
  }

  // ---------------------------------------------------------------- zoom and pan
  // Where a pointer is in the view's own coordinates: those the picture and the targets are
  // placed in, inside the viewport's border (its padding box), not from its outer edge.
  function inView(clientX, clientY) {
    const box = viewport.getBoundingClientRect();
    return [clientX - box.left - viewport.clientLeft, clientY - box.top - viewport.clientTop];
  }

  function fitScale() { return hooks.size()[0] ? viewport.clientWidth / hooks.size()[0] : 1; }
  function maxScale() { return Math.max(4, view.fit * 6); }

  function resize() {
    const fit = fitScale();
    const tall = hooks.size()[1] * fit;
    viewport.style.height = Math.round(Math.max(220, Math.min(tall, window.innerHeight * 0.7))) + "px";
    const was = view.fit;
    view.fit = fitScale();
    if (view.s === was || view.s < view.fit) view.s = view.fit;
    place();
  }

  function clamp() {
    view.s = Math.min(maxScale(), Math.max(view.fit, view.s));
    const w = viewport.clientWidth, h = viewport.clientHeight;
    const iw = hooks.size()[0] * view.s, ih = hooks.size()[1] * view.s;
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
    hooks.root.dataset.scale = view.s.toFixed(4);
    hooks.spots().forEach(function (spot) {
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

  function holds(outer, inner) {
    return outer[0] <= inner[0] && outer[1] <= inner[1] &&
      outer[0] + outer[2] >= inner[0] + inner[2] && outer[1] + outer[3] >= inner[1] + inner[3];
  }

  // A tap: the spot whose hit area (its box, at least HIT × HIT CSS pixels) holds it; where
  // several do, the view zooms in until they are HIT apart, and at the closest zoom a chooser
  // lists them all.
  function tap(clientX, clientY) {
    // (the targets are where the person sees them even while a focused one's scroll is undone)
    const at = inView(clientX, clientY);
    const tx = at[0] + viewport.scrollLeft, ty = at[1] + viewport.scrollTop;
    const hits = hooks.spots().filter(function (spot) {
      const w = Math.max(spot.box[2] * view.s, HIT), h = Math.max(spot.box[3] * view.s, HIT);
      const sx = view.x + spot.cx * view.s, sy = view.y + spot.cy * view.s;
      return Math.abs(tx - sx) <= w / 2 && Math.abs(ty - sy) <= h / 2;
    });
    if (!hits.length) return;
    const inside = hits.filter(function (spot) {
      const w = spot.box[2] * view.s, h = spot.box[3] * view.s;
      return w >= HIT && h >= HIT && Math.abs(tx - view.x - spot.cx * view.s) <= w / 2 &&
        Math.abs(ty - view.y - spot.cy * view.s) <= h / 2;
    });
    // A finger-sized box holding the tap is meant, unless a smaller target's hit area is there
    // too; of boxes inside one another (a station within a wider cell), the innermost.
    const innermost = inside.length === hits.length ? inside.filter(function (spot) {
      return inside.every(function (other) { return other === spot || holds(other.box, spot.box); });
    }) : [];
    if (hits.length === 1 || innermost.length === 1) {
      hooks.choose(hits.length === 1 ? hits[0] : innermost[0]);
      return;
    }
    if (view.s < maxScale() - 1e-6) {
      let nearest = Infinity;
      for (let i = 0; i < hits.length; i++) {
        for (let j = i + 1; j < hits.length; j++) {
          nearest = Math.min(nearest, Math.max(Math.abs(hits[i].cx - hits[j].cx), Math.abs(hits[i].cy - hits[j].cy)));
        }
      }
      const wanted = Math.min(maxScale(), Math.max(view.s * 1.5, HIT / Math.max(nearest, 1e-3)));
      zoomAt(wanted / view.s, tx, ty);
      hooks.zoomed();
      return;
    }
    const steps = [];
    hits.forEach(function (spot) { spot.steps.forEach(function (t) { steps.push(t); }); });
    hooks.crowd(steps, hits[0]);
  }

  const pointers = new Map();
  let gesture = null, pinch = null;
  viewport.addEventListener("pointerdown", function (e) {
    if (hooks.chooser.contains(e.target)) return;
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
      const mid = inView((pair[0][0] + pair[1][0]) / 2, (pair[0][1] + pair[1][1]) / 2);
      if (pinch) zoomAt(distance / pinch, mid[0], mid[1]);
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
      if (e.type === "pointerup" && !g.moved && !g.many && hooks.canTap()) tap(e.clientX, e.clientY);
    }
  }
  viewport.addEventListener("pointerup", release);
  // A tap on the board is handled above; the click a browser would make after it would land
  // wherever the finger was (perhaps on the chooser it just opened): none is made.
  viewport.addEventListener("touchend", function (e) {
    if (!hooks.chooser.contains(e.target)) e.preventDefault();
  }, { passive: false });
  viewport.addEventListener("pointercancel", release);
  viewport.addEventListener("wheel", function (e) {
    if (!e.ctrlKey && view.s === view.fit) return;
    e.preventDefault();
    const at = inView(e.clientX, e.clientY);
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, at[0], at[1]);
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
  // (the viewport clips, it never scrolls: a focused target or a find-in-page would shift the
  // board under the hit tests otherwise)
  viewport.addEventListener("scroll", function () { viewport.scrollLeft = 0; viewport.scrollTop = 0; });

  return { view: view, place: place, resize: resize, reveal: reveal, frame: frame, HIT: HIT };
};
