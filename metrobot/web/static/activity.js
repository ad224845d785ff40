// The board as a Discord Activity. Discord's Embedded App SDK (vendored, loaded from our own
// server) says hello to Discord's client, gets a one-time code for the person (scope identify),
// our server exchanges it with Discord and answers a session; the SDK is then authenticated
// with the person's access token, and the page shows the game with the session (a bearer token
// in this page's memory only: Discord's frame may refuse third-party cookies).
// No rule lives here: what is shown and what may be tapped comes from the server.
// Every address is relative: inside Discord the page sits at the root of the app's
// discordsays.com domain, with or without the /.proxy/ prefix.
const POLL_MS = 3000;
const main = document.getElementById("main");
const statusLine = document.getElementById("activity-status");
const texts = main.dataset;
let sdk = null;
let session = null; // the bearer token (never stored anywhere else)
let signingIn = null;
let shown = { version: -1, board: null };

function say(text, trouble) {
  statusLine.textContent = text || "";
  statusLine.classList.toggle("trouble", Boolean(trouble));
  statusLine.hidden = !text;
}

async function signIn(game) {
  say(texts.signingIn);
  const { code } = await sdk.commands.authorize({
    client_id: texts.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("api/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      code,
      instance_id: sdk.instanceId,
      channel_id: sdk.channelId || null,
      guild_id: sdk.guildId || null,
      game: game || null,
    }),
    cache: "no-store",
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    say(body.message || texts.failed, true);
    return null;
  }
  if (body.choose) {
    choose(body);
    return null;
  }
  session = body.session;
  await sdk.commands.authenticate({ access_token: body.access_token });
  return body;
}

// A request with the session; an expired one is renewed once (Discord asks nobody again).
async function api(path, options) {
  const send = () => fetch(path, Object.assign({ cache: "no-store" }, options || {}, {
    headers: Object.assign({}, (options || {}).headers, { Authorization: "Bearer " + session }),
  }));
  let answer = await send();
  if (answer.status === 401) {
    signingIn = signingIn || signIn(shown.game).finally(() => { signingIn = null; });
    if (!(await signingIn)) throw new Error("no session");
    answer = await send();
  }
  return answer;
}

function choose(body) {
  say(body.message);
  const list = document.getElementById("activity-choices");
  list.replaceChildren();
  for (const table of body.choose) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = table.players.join(" · ");
    button.addEventListener("click", async () => {
      list.hidden = true;
      if (await signIn(table.game)) await show();
    });
    item.append(button);
    list.append(item);
  }
  list.hidden = false;
}

async function picture(path, img) {
  const answer = await api(path);
  if (!answer.ok) return;
  const url = URL.createObjectURL(await answer.blob());
  const old = img.src;
  img.src = url;
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
}

// The person's seat: the play page's own part (play.js), its requests sent with the session.
async function seat() {
  const answer = await api("api/play/seat");
  if (!answer.ok) return false; // (404: no seat of theirs any more: they watch)
  const holder = document.getElementById("activity-play");
  holder.innerHTML = await answer.text(); // (our server's HTML, escaped there)
  window.metrobotPlay = {
    base: "api/play/",
    fetch: api,
    picture: (img, url) => {
      api(url).then((got) => (got.ok ? got.blob() : null)).then((blob) => {
        if (!blob || "api/play/" + img.dataset.shows !== url) return; // (a newer picture was asked for)
        const old = img.src;
        img.src = URL.createObjectURL(blob);
        if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      }).catch(() => {});
    },
  };
  holder.hidden = false;
  document.getElementById("activity-game").hidden = true;
  say("");
  // (the seat's scripts, in order: the board's view, then the play page's part that uses it)
  for (const src of texts.seatScript.split(" ")) {
    await new Promise((done) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = script.onerror = done;
      document.body.append(script);
    });
  }
  return true;
}

// The game as its channel sees it (for someone who watches).
async function show() {
  const answer = await api("api/view");
  if (!answer.ok) {
    say(texts.failed, true);
    return;
  }
  const view = await answer.json();
  shown.game = view.game;
  if (view.version === shown.version) return;
  shown.version = view.version;
  document.getElementById("activity-game").hidden = false;
  document.getElementById("activity-title").textContent = view.title + " · " + view.status;
  document.getElementById("activity-prompt").textContent = view.prompt || "";
  const scores = document.getElementById("activity-scores");
  scores.replaceChildren(...view.standings.map((s) => {
    const li = document.createElement("li");
    li.textContent = (s.won ? "🏆 " : "") + s.line; // (name and score with the reader's colon: api/view)
    if (s.waiting) li.className = "waiting";
    return li;
  }));
  say(view.seated ? "" : texts.spectator);
  const img = document.getElementById("activity-board");
  img.alt = view.alt;
  if (view.board !== shown.board) {
    shown.board = view.board;
    await picture(view.board, img);
  }
  document.dispatchEvent(new CustomEvent("activity:view", { detail: { view, api } }));
}

async function start() {
  const query = new URLSearchParams(window.location.search);
  if (!query.get("frame_id") || !query.get("instance_id")) {
    say(texts.outside, true); // opened in a browser, not inside Discord
    return;
  }
  const { DiscordSDK } = await import(new URL(texts.sdk, document.baseURI).href);
  sdk = new DiscordSDK(texts.clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  if (!(await signIn(null))) return;
  say(texts.loading);
  const first = await api("api/view");
  const view = first.ok ? await first.json() : null;
  if (view && view.seated && view.active && (await seat())) return; // (play.js follows the game)
  await show();
  window.setInterval(() => { show().catch(() => {}); }, POLL_MS);
}

start().catch(() => say(texts.failed, true));
