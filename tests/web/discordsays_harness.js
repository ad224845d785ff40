// Discord's client, as far as an Activity sees it (tests/web/discordsays.py): frames the
// Activity with Discord's query string and answers the Embedded App SDK's messages, which are
// tuples [opcode, payload] (0 HANDSHAKE, 1 FRAME, 2 CLOSE). Replies are checked by the SDK
// against its own schemas, so their shapes are the client's.
"use strict";
(function () {
  const q = new URLSearchParams(window.location.search);
  const user = q.get("user");
  const frame = document.createElement("iframe");
  const keep = ["frame_id", "instance_id", "platform", "guild_id", "channel_id", "location_id"];
  frame.src = q.get("prefix") + "?" + keep.map((k) => k + "=" + encodeURIComponent(q.get(k))).join("&");
  frame.title = "Activity";
  window.harness = { handshakes: [], commands: [], closed: null };

  function reply(message) { frame.contentWindow.postMessage(message, window.location.origin); }
  function tell(body) {
    return fetch("seen", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then((r) => r.json());
  }

  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (opcode === 0) {
      window.harness.handshakes.push(payload);
      reply([1, { cmd: "DISPATCH", evt: "READY", nonce: null,
                  data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } }]);
      return;
    }
    if (opcode === 2) { window.harness.closed = payload; return; }
    if (opcode !== 1) return;
    window.harness.commands.push(payload.cmd);
    if (payload.cmd === "AUTHORIZE") {
      const got = await fetch("authorize", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user: user, scope: payload.args.scope }),
      }).then((r) => r.json());
      reply([1, { cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: { code: got.code } }]);
    } else if (payload.cmd === "AUTHENTICATE") {
      const known = await tell({ cmd: "AUTHENTICATE", access_token: payload.args.access_token });
      if (!known.ok) {
        reply([1, { cmd: "AUTHENTICATE", evt: "ERROR", nonce: payload.nonce, data: { code: 4006, message: "Invalid token" } }]);
        return;
      }
      reply([1, { cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce, data: {
        access_token: payload.args.access_token,
        user: { id: user, username: q.get("name"), discriminator: "0", public_flags: 0, avatar: null, global_name: q.get("name") },
        scopes: ["identify"],
        expires: new Date(Date.now() + 3600 * 1000).toISOString(),
        application: { id: q.get("client"), name: "metrobot", description: "", icon: null, rpc_origins: [] },
      } }]);
    } else {
      await tell({ cmd: payload.cmd });
      reply([1, { cmd: payload.cmd, evt: null, nonce: payload.nonce, data: null }]);
    }
  });
  document.body.append(frame);
})();
