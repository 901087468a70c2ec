// bazaarbot web chat: one websocket, JSON frames, every text rendered with textContent.
"use strict";

(() => {
  const WATCH = document.body.dataset.mode === "watch";
  const DEFAULT_ROOM = "#bazaar";
  const ROOM_RE = /^#[A-Za-z0-9_-]{1,30}$/;
  const NICK_RE = /^[A-Za-z0-9_\-[\]{}|^`]{1,24}$/;
  const MAX_LINES = 500;
  const $ = (id) => document.getElementById(id);
  /** The page's words in the browser's language (static/i18n.js), with {name} filled from args. */
  const t = (text, args) => window.bazaarbotI18n.t(text, args);

  const saved = {
    get(key, fallback) {
      try {
        const value = window.localStorage.getItem("bazaarbot." + key);
        return value === null ? fallback : JSON.parse(value);
      } catch (_e) {
        return fallback;
      }
    },
    set(key, value) {
      try {
        window.localStorage.setItem("bazaarbot." + key, JSON.stringify(value));
      } catch (_e) {
        /* private mode: the session still works, it is just not remembered */
      }
    },
  };

  const state = {
    ws: null,
    backoff: 500,
    nick: null,
    bot: "bazaarbot",
    max: 400,
    rooms: new Map(), // name -> {log, board, members, unread, item}
    active: null,
    watchRoom: null,
  };

  // --- rendering (text only) ---------------------------------------------------------
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function stamp(at) {
    const d = typeof at === "number" ? new Date(at * 1000) : new Date();
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  function append(container, kind, nick, text, at) {
    const nearBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 60;
    const line = el("div", "line " + kind.split(" ").map((k) => "k-" + k).join(" "));
    line.appendChild(el("span", "time", stamp(at)));
    if (nick) line.appendChild(el("span", "nick", nick));
    line.appendChild(el("span", "text", text));
    container.appendChild(line);
    while (container.childElementCount > MAX_LINES) container.removeChild(container.firstElementChild);
    if (nearBottom) container.scrollTop = container.scrollHeight;
  }

  function setStatus(text, kind) {
    const node = $("status");
    node.textContent = text;
    node.dataset.state = kind;
  }

  function room(name) {
    let r = state.rooms.get(name);
    if (r) return r;
    const log = el("div", "log");
    log.hidden = true;
    $("logs").appendChild(log);
    r = { log, board: null, members: [], unread: 0, item: null, joined: false };
    state.rooms.set(name, r);
    if (!WATCH) {
      const item = el("li", "room");
      const open = el("button", "room-name", name);
      open.type = "button";
      open.addEventListener("click", () => activate(name));
      const badge = el("span", "badge");
      open.appendChild(badge);
      const close = el("button", "room-close", "×");
      close.type = "button";
      close.title = t("Close {room}", { room: name });
      close.addEventListener("click", () => part(name));
      item.append(open, close);
      $("room-list").appendChild(item);
      r.item = item;
      r.badge = badge;
    }
    return r;
  }

  function renderBoard() {
    const r = state.active && state.rooms.get(state.active);
    const text = r && r.board ? r.board : t("No game is running here yet.");
    $("board").textContent = text;
    $("board").classList.toggle("empty", !(r && r.board));
    if ($("board-room")) $("board-room").textContent = state.active || "";
  }

  function renderMembers() {
    const r = state.active && state.rooms.get(state.active);
    const list = $("members");
    list.replaceChildren();
    for (const nick of r ? r.members : []) {
      const li = el("li", nick === state.nick ? "self" : "", nick);
      list.appendChild(li);
    }
  }

  function renderRooms() {
    for (const [name, r] of state.rooms) {
      if (!r.item) continue;
      r.item.classList.toggle("active", name === state.active);
      r.badge.textContent = r.unread ? String(r.unread) : "";
    }
  }

  function activate(name) {
    if (!state.rooms.has(name)) return;
    state.active = name;
    const r = state.rooms.get(name);
    r.unread = 0;
    for (const [other, o] of state.rooms) o.log.hidden = other !== name;
    $("room-title").textContent = name;
    const link = $("watch-link");
    if (link) link.href = "/watch/" + encodeURIComponent(name.slice(1));
    r.log.scrollTop = r.log.scrollHeight;
    renderBoard();
    renderMembers();
    renderRooms();
    const line = $("line");
    if (line && !line.disabled) line.focus();
  }

  function roomLine(name, kind, nick, text, at) {
    const r = room(name);
    append(r.log, kind, nick, text, at);
    if (name !== state.active) {
      r.unread += 1;
      renderRooms();
    }
  }

  function privateLine(kind, text, nick) {
    const pane = $("private");
    if (pane) append(pane, kind, nick || "", text);
  }

  function saveRooms() {
    saved.set("rooms", [...state.rooms.keys()]);
  }

  // --- protocol --------------------------------------------------------------------------
  function send(frame) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) {
      state.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + window.location.host + "/ws");
    state.ws = ws;
    setStatus(t("connecting…"), "connecting");
    ws.addEventListener("open", () => {
      state.backoff = 500;
      setStatus(t("connected"), "up");
      if (WATCH) send({ t: "watch", room: state.watchRoom });
      else send({ t: "hello", token: saved.get("token", null) });
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (_e) {
        return;
      }
      if (frame && typeof frame.t === "string") handle(frame);
    });
    ws.addEventListener("close", () => {
      if (state.ws !== ws) return;
      state.ws = null;
      for (const r of state.rooms.values()) r.joined = false;
      enableInput(false);
      const wait = Math.round(state.backoff * (1 + Math.random() * 0.3));
      state.backoff = Math.min(state.backoff * 2, 10000);
      setStatus(t("reconnecting in {seconds} s…", { seconds: Math.ceil(wait / 1000) }), "down");
      window.setTimeout(connect, wait);
    });
  }

  function enableInput(on) {
    if (WATCH) return;
    $("line").disabled = !on;
    $("say-button").disabled = !on;
  }

  function showNickBox(error) {
    $("nick-box").hidden = false;
    const input = $("nick-input");
    if (!input.value) input.value = saved.get("nick", "");
    $("nick-error").textContent = error || "";
    input.focus();
  }

  function gotNick(nick) {
    state.nick = nick;
    saved.set("nick", nick);
    $("nick-box").hidden = true;
    $("me").hidden = false;
    $("me-nick").textContent = nick;
    enableInput(true);
    let rooms = saved.get("rooms", [DEFAULT_ROOM]);
    if (!Array.isArray(rooms)) rooms = [DEFAULT_ROOM];
    rooms = rooms.filter((name) => typeof name === "string" && ROOM_RE.test(name));
    for (const name of state.rooms.keys()) if (!rooms.includes(name)) rooms.push(name);
    for (const name of rooms) join(name);
    renderMembers();
  }

  function join(name) {
    name = name.toLowerCase();
    const r = room(name);
    send({ t: "join", room: name, history: r.log.childElementCount === 0 });
    if (!state.active) activate(name);
    saveRooms();
  }

  function part(name) {
    const r = state.rooms.get(name);
    if (!r) return;
    send({ t: "part", room: name });
    r.log.remove();
    if (r.item) r.item.remove();
    state.rooms.delete(name);
    saveRooms();
    if (state.active === name) {
      state.active = null;
      const next = state.rooms.keys().next();
      if (!next.done) activate(next.value);
      else {
        $("room-title").textContent = t("no room: /join #bazaar");
        renderBoard();
        renderMembers();
      }
    }
  }

  function showHistory(name, history) {
    for (const h of history || []) {
      if (h && h.t === "chat") {
        roomLine(name, h.nick === "*" ? "system" : "chat", h.nick === "*" ? "" : h.nick, h.text, h.at);
      } else if (h && h.t === "bot") roomLine(name, "bot", h.nick, h.text, h.at);
    }
  }

  function handle(f) {
    switch (f.t) {
      case "welcome":
        state.bot = f.bot || state.bot;
        state.max = f.max || state.max;
        if (!WATCH) $("line").maxLength = state.max;
        if (f.nick) gotNick(f.nick);
        else {
          state.nick = null; // the server does not know this browser (any more): claim again
          enableInput(false);
          showNickBox("");
        }
        break;
      case "claimed":
        if (f.token) saved.set("token", f.token);
        if (state.nick && state.nick !== f.nick) {
          privateLine("system", t("You are now known as {nick}.", { nick: f.nick }));
          state.nick = f.nick;
          saved.set("nick", f.nick);
          $("me-nick").textContent = f.nick;
          renderMembers();
        } else if (!state.nick) gotNick(f.nick);
        break;
      case "joined": {
        const r = room(f.room);
        r.joined = true;
        r.board = f.board || null;
        r.members = f.members || [];
        const fresh = r.log.childElementCount === 0;
        showHistory(f.room, f.history);
        if (fresh) {
          roomLine(
            f.room,
            "system",
            "",
            t(
              "Welcome to {room}. Type /join to sit at the table and /start when everybody is seated; /games lists the games, /help the commands.",
              { room: f.room }
            )
          );
        }
        if (!state.active) activate(f.room);
        if (f.room === state.active) {
          renderBoard();
          renderMembers();
        }
        break;
      }
      case "watching": {
        const r = room(f.room);
        r.board = f.board || null;
        r.members = f.members || [];
        if (r.log.childElementCount === 0) {
          roomLine(f.room, "system", "", t("You are watching {room}: its public lines and board only.", { room: f.room }));
          showHistory(f.room, f.history);
        }
        activate(f.room);
        break;
      }
      case "parted":
        break;
      case "members": {
        const r = state.rooms.get(f.room);
        if (!r) break;
        r.members = f.nicks || [];
        if (f.room === state.active) renderMembers();
        break;
      }
      case "chat":
        if (state.rooms.has(f.room)) {
          if (f.nick === "*") roomLine(f.room, "system", "", f.text, f.at);
          else roomLine(f.room, f.nick === state.nick ? "chat self" : "chat", f.nick, f.text, f.at);
        }
        break;
      case "bot":
        if (state.rooms.has(f.room)) roomLine(f.room, "bot", f.nick, f.text, f.at);
        break;
      case "board": {
        const r = state.rooms.get(f.room);
        if (!r) break;
        r.board = f.text || null;
        if (f.room === state.active) renderBoard();
        break;
      }
      case "tell":
        privateLine("tell", f.text);
        break;
      case "mine":
        privateLine("mine", f.text, "you → " + state.bot);
        break;
      case "error":
        if (f.code === "nick" && (!state.nick || !$("nick-box").hidden)) showNickBox(f.text);
        else if (WATCH) break;
        else privateLine("error", f.text);
        break;
      default:
        break;
    }
  }

  // --- input --------------------------------------------------------------------------
  function submitLine(raw) {
    const line = raw.trim();
    if (!line) return;
    const words = line.split(/\s+/);
    const cmd = words[0].toLowerCase();
    if ((cmd === "/join" || cmd === "/j") && words[1] && words[1].startsWith("#")) {
      if (!ROOM_RE.test(words[1])) privateLine("error", t("A room name is # and 1 to 30 letters, digits, - or _."));
      else {
        join(words[1]);
        activate(words[1].toLowerCase());
      }
      return;
    }
    if (cmd === "/part" || cmd === "/close") {
      const name = words[1] ? words[1].toLowerCase() : state.active;
      if (name) part(name);
      return;
    }
    if (cmd === "/nick") {
      if (!words[1]) privateLine("error", t("Use /nick <new nick>."));
      else if (!NICK_RE.test(words[1])) privateLine("error", t("A nick is 1 to 24 letters, digits or - _ [ ] {{ }} | ^ `."));
      else send({ t: "claim", nick: words[1] });
      return;
    }
    if (cmd === "/msg" || cmd === "/query" || cmd === "/dm") {
      const rest = cmd === "/dm" ? words.slice(1) : words.slice(2);
      if (cmd !== "/dm" && (!words[1] || words[1].toLowerCase() !== state.bot.toLowerCase())) {
        privateLine("error", t("Private lines go to the bot only: /msg {bot} <text>.", { bot: state.bot }));
        return;
      }
      if (rest.length) send({ t: "say", room: null, text: rest.join(" ") });
      return;
    }
    if (cmd === "/clear") {
      const r = state.active && state.rooms.get(state.active);
      if (r) r.log.replaceChildren();
      return;
    }
    if (!state.active) {
      privateLine("error", t("You are in no room: /join #bazaar opens one."));
      return;
    }
    send({ t: "say", room: state.active, text: line });
  }

  function init() {
    if (WATCH) {
      const part = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "bazaar");
      state.watchRoom = ("#" + part).toLowerCase();
      $("room-title").textContent = state.watchRoom;
      document.title = t("bazaarbot — watching {room}", { room: state.watchRoom });
      connect();
      return;
    }
    $("say-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("line");
      const text = input.value;
      if (text.length > state.max) {
        privateLine("error", t("That line is too long (at most {max} characters).", { max: state.max }));
        return;
      }
      input.value = "";
      submitLine(text);
    });
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      let name = $("join-room").value.trim();
      if (name && !name.startsWith("#")) name = "#" + name;
      if (!ROOM_RE.test(name)) {
        privateLine("error", t("A room name is # and 1 to 30 letters, digits, - or _."));
        return;
      }
      $("join-room").value = "";
      join(name);
      activate(name.toLowerCase());
    });
    $("nick-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const nick = $("nick-input").value.trim();
      if (!NICK_RE.test(nick)) {
        $("nick-error").textContent = t("1–24 letters, digits or - _ [ ] {{ }} | ^ ` (no spaces).");
        return;
      }
      $("nick-error").textContent = "";
      if (!send({ t: "claim", nick })) $("nick-error").textContent = t("Not connected yet; try again in a moment.");
    });
    connect();
  }

  init();
})();
