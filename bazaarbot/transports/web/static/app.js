// bazaarbot web chat: one websocket, JSON frames, every text rendered with textContent.
// The table is drawn from structured views by the game's own renderer (/games/<game>/table.js).
"use strict";

(() => {
  const WATCH = document.body.dataset.mode === "watch";
  const DEFAULT_ROOM = "#bazaar";
  const ROOM_RE = /^#[A-Za-z0-9_-]{1,30}$/;
  const NICK_RE = /^[A-Za-z0-9_\-[\]{}|^`]{1,24}$/;
  const MAX_LINES = 500;
  const MAX_LOG = 400;
  //: moves the banner lists at most (a six-player table: the five others' since your turn; a
  //: four-player Yspahan: the others' dice, cubes and buildings)
  const MAX_BANNER_MOVES = 10;
  //: a verb with more commands than this is offered as a list, not as buttons
  const MAX_BUTTONS = 8;
  //: on a phone, where each button takes a row of its own
  const MAX_BUTTONS_NARROW = 4;
  //: on a phone, the rows a verb's buttons may take before they become a list (the board stays in view)
  const MAX_ROWS_NARROW = 2;
  const $ = (id) => document.getElementById(id);
  //: a phone or tablet: the chat is a drawer, the table is drawn for a finger
  const NARROW = window.matchMedia("(max-width: 900px)");
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
    rooms: new Map(), // name -> {log, gamelog, board, view, members, unread, item}
    active: null,
    watchRoom: null,
    seen: saved.get("seen", {}), // room -> time (s) of the last line seen there
    wanted: saved.get("active", null), // the room to return to after a reload
    myTurn: new Set(),
    pane: "logs",
    games: {}, // name -> title of every installed game (the welcome says them)
  };

  // --- renderers: each game registers its drawn table -------------------------------------
  const renderers = new Map(); // game -> renderer | null (none: the text board)
  const loading = new Set();
  window.bazaarbotTables = {
    register(game, renderer) {
      renderers.set(game, renderer);
      renderTable();
    },
  };

  function loadRenderer(game) {
    if (renderers.has(game) || loading.has(game)) return;
    const missing = () => {
      renderers.set(game, null);
      renderTable();
    };
    if (window.bazaarbotTableKit.load(game, missing)) loading.add(game);
  }

  // --- rendering (text only) ---------------------------------------------------------
  const { el, svg, button } = window.bazaarbotTableKit; // static/tables.js

  function stamp(at) {
    const d = typeof at === "number" ? new Date(at * 1000) : new Date();
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  function replayLink(id, label) {
    const a = el("a", "replay-link", label);
    a.href = bazaarbotBase.url("/replay/" + encodeURIComponent(id));
    a.target = "_blank";
    a.rel = "noopener";
    return a;
  }

  // a line's text, with each /replay/<id> in it as a link to that replay
  function withLinks(text) {
    const span = el("span", "text");
    String(text).split(/(\/replay\/\d{1,12})/).forEach((part, i) => {
      span.appendChild(i % 2 ? replayLink(part.slice(8), part) : document.createTextNode(part));
    });
    return span;
  }

  // A pane follows its newest line while the reader has not scrolled up from it. Whether it does is
  // read when the reader scrolls, and the pane is moved down once per frame: a pane that measured
  // itself at every line would lay the page out again for each line of a burst (a fast game).
  const unpinned = new WeakSet();
  const pending = new Set(); // panes to move down at the next frame
  const settling = new Set(); // panes just moved down: their scroll event is not the reader's
  function nearItsBottom(pane) {
    return pane.scrollHeight - pane.scrollTop - pane.clientHeight < 60;
  }
  function follow(pane) {
    pane.addEventListener(
      "scroll",
      () => {
        if (pending.has(pane) || settling.has(pane)) return; // moved by the lines coming in
        if (nearItsBottom(pane)) unpinned.delete(pane);
        else unpinned.add(pane);
      },
      { passive: true }
    );
    return pane;
  }
  function moveDown() {
    for (const pane of pending) {
      pane.scrollTop = pane.scrollHeight;
      settling.add(pane);
    }
    pending.clear();
    window.requestAnimationFrame(() => settling.clear()); // after the scroll events of this move
  }
  function keepAtBottom(pane) {
    if (unpinned.has(pane) || pending.has(pane)) return;
    if (!pending.size) window.requestAnimationFrame(moveDown);
    pending.add(pane);
  }

  function append(container, kind, nick, text, at) {
    const line = el("div", "line " + kind.split(" ").map((k) => "k-" + k).join(" "));
    line.appendChild(el("span", "time", stamp(at)));
    if (nick) line.appendChild(el("span", "nick", nick));
    line.appendChild(withLinks(text));
    container.appendChild(line);
    while (container.childElementCount > MAX_LINES) container.removeChild(container.firstElementChild);
    keepAtBottom(container);
  }

  const sameNick = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

  function setStatus(text, kind) {
    const node = $("status");
    node.textContent = text;
    node.dataset.state = kind;
  }

  function room(name) {
    let r = state.rooms.get(name);
    if (r) return r;
    const log = follow(el("div", "log"));
    log.hidden = true;
    log.tabIndex = 0; // a pane that scrolls is reached by the keyboard too
    log.setAttribute("role", "log");
    log.setAttribute("aria-label", t("Chat"));
    $("logs").appendChild(log);
    const gamelog = follow(el("div", "log gamelog"));
    gamelog.hidden = true;
    gamelog.tabIndex = 0;
    gamelog.setAttribute("aria-label", t("Game log"));
    gamelog.appendChild(el("p", "muted empty-log", t("Accepted moves and round results appear here.")));
    $("gamelogs").appendChild(gamelog);
    r = { log, gamelog, logged: -1, entries: [], board: null, view: null, members: [], unread: 0, item: null, joined: false, feedback: null, hand: null };
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
      close.setAttribute("aria-label", close.title);
      close.addEventListener("click", () => part(name));
      item.append(open, close);
      $("room-list").appendChild(item);
      r.item = item;
      r.badge = badge;
    }
    return r;
  }

  // The text board: the server renders it for a drawn game only while "Board as text" is open here.
  let textBoardRoom = null; // the room whose text board this tab asked the server for
  function askTextBoard() {
    const box = document.querySelector("details.board-text");
    const r = state.active && state.rooms.get(state.active);
    const want = box && box.open && r && (r.joined || WATCH) ? state.active : null;
    if (want === textBoardRoom) return;
    if (textBoardRoom) send({ t: "board", room: textBoardRoom, on: false });
    if (want && !send({ t: "board", room: want, on: true })) return;
    textBoardRoom = want;
  }

  function renderBoard() {
    const r = state.active && state.rooms.get(state.active);
    const text = r && r.board ? r.board : t("No game is running here yet.");
    $("board").textContent = text;
    $("board").classList.toggle("empty", !(r && r.board));
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
      r.item.classList.toggle("my-turn", state.myTurn.has(name));
      r.badge.textContent = r.unread ? String(r.unread) : "";
    }
  }

  function markSeen(name, at) {
    const now = typeof at === "number" ? at : Math.floor(Date.now() / 1000);
    if ((state.seen[name] || 0) >= now) return;
    state.seen[name] = now;
    saved.set("seen", state.seen);
  }

  function activate(name) {
    if (!state.rooms.has(name)) return;
    state.active = name;
    if (!WATCH) saved.set("active", name);
    const r = state.rooms.get(name);
    if (r.view) window.bazaarbotI18n.setLanguage(r.view.lang || null);
    r.unread = 0;
    markSeen(name);
    for (const [other, o] of state.rooms) {
      o.log.hidden = other !== name;
      o.gamelog.hidden = other !== name;
    }
    $("room-title").textContent = name;
    const link = $("watch-link");
    if (link) link.href = bazaarbotBase.url("/watch/" + encodeURIComponent(name.slice(1)));
    r.log.scrollTop = r.log.scrollHeight;
    r.gamelog.scrollTop = r.gamelog.scrollHeight;
    renderBoard();
    askTextBoard();
    renderTable();
    renderFeedback();
    renderMembers();
    renderRooms();
    updateTitle();
    const line = $("line");
    if (line && !line.disabled) line.focus();
  }

  function roomLine(name, kind, nick, text, at, fromHistory) {
    const r = room(name);
    append(r.log, kind, nick, text, at);
    if (name === state.active && !fromHistory && kind === "chat" && drawerShut()) {
      const badge = $("chat-badge"); // a closed drawer on a phone still says that people talk
      if (badge) badge.textContent = String((Number(badge.textContent) || 0) + 1);
    }
    if (name === state.active) markSeen(name, at);
    else if (!(fromHistory && (typeof at !== "number" || at <= (state.seen[name] || 0)))) {
      r.unread += 1;
      renderRooms();
    }
  }

  /** A line of the Private pane, which all rooms share: it names its room; ``quiet`` lines add no badge. */
  function privateLine(kind, text, nick, quiet) {
    const pane = $("private");
    if (!pane) return;
    append(pane, kind, nick || "", text);
    if (state.pane !== "private" && kind !== "mine" && !quiet) {
      const badge = $("private-badge");
      badge.textContent = String((Number(badge.textContent) || 0) + 1);
    }
  }

  // --- feedback: the answer to what you just typed, next to where you typed it ------------------
  /** Shown over the table of ``name`` until the next line sent there (or another answer). */
  function setFeedback(name, text, kind, passing) {
    const r = name && state.rooms.get(name);
    if (!r) {
      privateLine(kind === "error" ? "error" : "tell", text);
      return;
    }
    // a public line (an answer everybody saw, news of the seat) passes when the table moves on
    r.feedback = text ? { text, kind: kind || "answer", at: passing ? momentOf(r.view) : null } : null;
    if (name === state.active) renderFeedback();
  }

  const momentOf = (view) => (view ? String(view.game_id) + ":" + String(view.moves) + ":" + view.phase : "");

  function renderFeedback() {
    const box = $("feedback");
    if (!box) return;
    const r = state.active && state.rooms.get(state.active);
    const fb = r && r.feedback;
    box.hidden = !fb;
    box.dataset.kind = fb ? fb.kind : "";
    $("feedback-text").textContent = fb ? reminderNow(r, fb) || fb.text : "";
  }

  /** A clock's reminder over the table counts down with the banner's clock (the line as said, with
   * the time left when it was said, stays in Private); null when it is no reminder or no clock runs. */
  function reminderNow(r, fb) {
    if (fb.kind !== "clock") return null;
    const left = secondsLeft(r);
    const c = r.view && r.view.clock;
    if (left === null || !c || !(r.view.you && c.seats.includes(r.view.you.seat))) return null;
    return t("Your move: {time} left.", { time: clockText(left) });
  }

  /** A private line from the bot: an answer goes to its room, a hand only when it changed, the rest to Private. */
  function gotTell(f) {
    const r = typeof f.room === "string" ? state.rooms.get(f.room) : null;
    if (f.role === "answer" && r) {
      append(r.log, "tell", state.bot + " → " + t("you"), f.text);
      setFeedback(f.room, f.text, "answer");
      return;
    }
    if (f.role === "hand" && r) {
      if (r.hand === f.text) return; // the page draws the hand already; the same one again is no news
      r.hand = f.text;
      privateLine("tell", f.text, f.room, true);
      return;
    }
    privateLine("tell", f.text, typeof f.room === "string" ? f.room : "");
    // news of the reader's own seat (a clock's reminder) stands over its table too, counting down
    // with the banner's clock until the table moves on
    if (f.urgent) setFeedback(r ? f.room : state.active, f.text, "clock");
  }

  function showPane(pane) {
    state.pane = pane;
    for (const tab of document.querySelectorAll(".tab")) {
      const on = tab.dataset.pane === pane;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      const body = $(tab.dataset.pane);
      if (body) body.hidden = !on;
    }
    if (pane === "private") $("private-badge").textContent = "";
    const body = $(pane);
    if (body) {
      const inner = pane === "private" ? body : body.querySelector(".log:not([hidden])");
      if (inner) inner.scrollTop = inner.scrollHeight;
    }
  }

  function saveRooms() {
    saved.set("rooms", [...state.rooms.keys()]);
  }

  // --- the game log ---------------------------------------------------------------------
  function gameLog(name, f) {
    const r = room(name);
    const box = r.gamelog;
    if (f.reset) {
      box.replaceChildren();
      r.logged = -1;
      r.entries = [];
    }
    for (const entry of f.entries || []) {
      if (typeof entry.n !== "number" || entry.n <= r.logged) continue;
      r.logged = entry.n;
      r.entries.push(entry);
      const item = el("div", "entry");
      item.dataset.n = String(entry.n);
      const head = el("div", "entry-head");
      head.append(el("span", "entry-n", String(entry.n + 1) + "."), el("span", "nick seat-" + entry.seat, entry.nick));
      head.append(el("code", "entry-text", entry.text));
      item.appendChild(head);
      for (const text of entry.lines || []) item.appendChild(el("div", "entry-line", text));
      box.appendChild(item);
    }
    const empty = box.querySelector(".empty-log");
    if (empty && box.childElementCount > 1) empty.remove();
    if (!box.childElementCount) box.appendChild(el("p", "muted empty-log", t("Accepted moves and round results appear here.")));
    while (box.childElementCount > MAX_LOG) box.removeChild(box.firstElementChild);
    if (r.entries.length > MAX_LOG) r.entries.splice(0, r.entries.length - MAX_LOG);
    keepAtBottom(box);
    if (name === state.active) renderTableSoon(); // the banner lists the moves since the reader's turn
  }

  // --- the drawn table ------------------------------------------------------------------
  function seatName(view, seat) {
    return (view.players && view.players[seat]) || "?";
  }

  // --- the commands of a long verb -----------------------------------------------------
  // A view carries the commands of its short verbs; a long verb's (a list, a card picker) the page
  // asks for when it draws the table (a ``moves`` frame), kept for this moment of the game only.
  const verbOf = (command) => command.split(" ")[0];

  function verbStore(name, view) {
    const r = room(name);
    // the commands are said in the reader's words: a new language is a new moment too
    const key = String(view.game_id) + ":" + String(view.moves) + ":" + String(view.lang || "");
    if (!r.verbs || r.verbs.key !== key) r.verbs = { key, got: new Map(), asked: new Set() };
    return r.verbs;
  }

  /** The verbs whose commands the view does not carry. */
  function longVerbs(view) {
    const you = view.you;
    return you && you.verbs ? you.verbs.filter((v) => !v.carried).map((v) => v.verb) : [];
  }

  /** Ask for the commands of the long verbs this table draws (once per verb and moment). */
  function askLongVerbs(name, view) {
    if (!view || view.phase !== "running" || !state.ws) return;
    const store = verbStore(name, view);
    for (const verb of longVerbs(view)) {
      if (store.got.has(verb) || store.asked.has(verb)) continue;
      store.asked.add(verb);
      send({ t: "moves", room: name, verb });
    }
  }

  function gotVerb(f) {
    const r = state.rooms.get(f.room);
    const view = r && r.view;
    if (!view || f.game_id !== view.game_id || f.moves !== view.moves) return; // another moment's
    if ((f.lang || "") !== (view.lang || "")) return; // said in the words the page had before
    verbStore(f.room, view).got.set(f.verb, { commands: f.commands || [], said: f.said || {} });
    if (f.room === state.active) renderTableSoon();
  }

  /** Every command the page knows now: the view's and the long verbs' answered, in the verbs' order. */
  function knownCommands(name, view) {
    const you = view.you;
    if (!you || !you.commands) return [];
    if (!you.verbs) return you.commands;
    const store = verbStore(name, view);
    const out = [];
    for (const v of you.verbs) {
      const got = store.got.get(v.verb);
      if (got) out.push(...got.commands);
      else out.push(...you.commands.filter((c) => verbOf(c) === v.verb));
    }
    return out;
  }

  /** A command as the reader types it (the view's words, or a long verb's answer's). */
  function saidOf(name, view, command) {
    const you = view.you;
    if (you && you.said && you.said[command]) return you.said[command];
    const got = you && you.verbs ? verbStore(name, view).got.get(verbOf(command)) : null;
    return (got && got.said[command]) || command;
  }

  function helpers(view) {
    const name = state.active;
    return {
      el,
      svg,
      button,
      view,
      you: view.you && view.you.seat !== null && view.you.seat !== undefined ? view.you : null,
      label: (key, fallback) => (view.public && view.public.labels && view.public.labels[key]) || t(fallback || key),
      narrow: NARROW.matches, // a phone or tablet: the table is drawn for a finger
      seatName: (seat) => seatName(view, seat),
      seatClass: (seat) => "seat-" + (typeof seat === "number" ? seat % 6 : "x"),
      initial: (seat) => initialOf(view, seat),
      // the name of a game thing in the reader's language (from the server); never an identifier alone
      term: (id) => (view.terms && view.terms[id]) || String(id).replace(/_/g, " "),
      commands: () => (name ? knownCommands(name, view) : []),
      t, // the page's words in its reader's language
      said: (command) => (name ? saidOf(name, view, command) : command),
      play: (command) => playCommand(command),
      rerender: () => renderTable(),
    };
  }

  /** A seat's badge: its initial, or its number when another seat shares that initial (two AIs). */
  function initialOf(view, seat) {
    const letter = (name) => String(name || "?").replace(/^AI:/, "").slice(0, 1).toUpperCase();
    const mine = letter(seatName(view, seat));
    const shared = (view.players || []).filter((name) => letter(name) === mine).length > 1;
    return shared ? String(seat + 1) : mine;
  }

  function turnText(view) {
    if (!view) return { text: t("No game is running here yet."), mine: false };
    if (view.phase === "lobby") {
      const seated = view.seats.map((s) => s.nick).join(", ") || t("nobody yet");
      const size = view.min === view.max
        ? t("{title} table ({n} players).", { title: view.title, n: view.max })
        : t("{title} table ({min}–{max} players).", { title: view.title, min: view.min, max: view.max });
      return { text: size + " " + t("Seated: {names}.", { names: seated }), mine: false };
    }
    if (view.phase === "over") return { text: t("The game is over."), mine: false, over: true };
    const me = view.you && view.you.seat;
    const mine = typeof me === "number" && view.to_act.includes(me);
    const who = view.to_act.map((s) => seatName(view, s)).join(", ");
    const status = view.public && view.public.status ? String(view.public.status) : "";
    if (!mine) return { text: t("Waiting for {who}.", { who }) + (status ? " " + status : ""), mine };
    // the game's line names whose turn it is: for the reader it says "Your turn" instead, once
    const name = seatName(view, me);
    const rest = statusWithout(status, name);
    if (rest !== null) return { text: t("Your turn: {what}", { what: rest }), mine };
    if (status && status.includes(name)) return { text: status, mine };
    return { text: t("Your turn.") + (status ? " " + status : ""), mine };
  }

  /** A status line ("alice to play: take…", "Le toca a alice: tomar…") without its head naming
   * ``name``: what follows the colon; null when the head says more than who is to play. */
  function statusWithout(status, name) {
    const at = status.indexOf(": ");
    if (at < 0 || !name) return null;
    const head = status.slice(0, at);
    if (!head.includes(name)) return null;
    const words = head.replace(name, " ").trim().split(/\s+/).filter(Boolean);
    return words.length <= 3 ? status.slice(at + 2) : null;
  }

  // --- the turn clock: a countdown on the seat whose decision it is -------------------------
  const URGENT = 30; // seconds: the last call
  let ticking = null;
  /** The listed tables with a clock ("my games"): each one's button -> its line, its room and its
   * deadline by this page's clock. */
  const tableClocks = new Map();

  // how far the server's clock is ahead of this page's: each view says what the server read as it
  // sent it, and a view that waited on the way (a busy machine, a slow network) tells a smaller lead
  // than the true one; of the last few readings the least delayed, the largest, is the truest
  const CLOCK_READINGS = 8;
  const serverLeads = [];
  // a page's first views may come late (it was still loading, the machine was busy), and no view
  // comes while the table waits: after its first reading the page asks the server's time again
  // a few times (``ping``; the ``pong`` says it), so its countdown does not run late by that wait
  const CLOCK_ASKS_MS = [1500, 5000];
  let clockAsked = false;
  function readServerClock(now) {
    serverLeads.push(now - Date.now() / 1000);
    if (serverLeads.length > CLOCK_READINGS) serverLeads.shift();
    if (!clockAsked) {
      clockAsked = true;
      for (const after of CLOCK_ASKS_MS) window.setTimeout(() => send({ t: "ping" }), after);
    }
  }

  /** Seconds left on the room's clock, by the server's clock (the view says what it read). */
  function secondsLeft(r) {
    const c = r && r.view && r.view.clock;
    if (!c || r.view.phase !== "running") return null;
    if (typeof c.paused === "number") return c.paused;
    if (typeof c.deadline !== "number") return null;
    const lead = serverLeads.length ? Math.max(...serverLeads) : 0;
    return Math.max(0, c.deadline - (Date.now() / 1000 + lead));
  }

  function clockText(left) {
    const whole = Math.ceil(left);
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function renderClock() {
    renderTableClocks();
    const node = $("clock");
    if (!node) return;
    const r = state.active && state.rooms.get(state.active);
    const left = secondsLeft(r);
    if (left === null) {
      node.hidden = true;
      return;
    }
    const c = r.view.clock;
    const who = c.seats.map((s) => seatName(r.view, s)).join(", ");
    node.hidden = false;
    node.textContent = t("{who}: {time} left", { who, time: clockText(left) });
    if (r.feedback && r.feedback.kind === "clock") renderFeedback();
    node.classList.toggle("urgent", left <= URGENT);
    node.classList.toggle("mine", !!(r.view.you && c.seats.includes(r.view.you.seat)));
    node.title = typeof c.paused === "number" ? t("The clock is paused.") : t("Then the AI plays the move.");
    for (const seat of document.querySelectorAll("#table [data-seat]")) {
      const on = c.seats.includes(Number(seat.dataset.seat));
      seat.classList.toggle("clock-on", on);
      seat.classList.toggle("clock-urgent", on && left <= URGENT);
    }
  }

  function startTicking() {
    if (ticking === null) ticking = window.setInterval(renderClock, 1000);
  }

  function renderTurn(view) {
    const node = $("turn");
    const turn = turnText(view);
    const text = $("turn-text");
    (text || node).textContent = turn.text;
    node.classList.toggle("mine", turn.mine);
    node.classList.toggle("over", !!turn.over);
    const last = $("last-move");
    if (last) {
      const moves = view && view.phase !== "lobby" ? movesSince(view) : [];
      last.replaceChildren();
      last.hidden = !moves.length;
      moves.forEach((move, i) => {
        // the bot's announcement of it, its first sentence (the rest says whose turn it is now)
        const said = move.lines && move.lines[0] ? move.lines[0].split(/(?<=[.!?])\s/)[0] : "";
        const words = said || move.nick + ": " + (move.said || move.text);
        const item = el("li", typeof move.seat === "number" ? "seat-" + (move.seat % 6) : "", i === moves.length - 1 ? t("Last move: {move}", { move: words }) : words);
        item.title = words;
        last.appendChild(item);
      });
    }
    renderClock();
  }

  /** The moves since the reader's own last move (the last move alone for a spectator): oldest first. */
  function movesSince(view) {
    const r = state.active && state.rooms.get(state.active);
    const me = view.you && view.you.seat;
    const last = view.last;
    if (!last) return [];
    const entries = r ? r.entries : [];
    if (typeof me !== "number" || !entries.length || view.phase !== "running") return [last];
    const upTo = entries.findIndex((e) => e.n === last.n);
    const known = upTo >= 0 ? entries.slice(0, upTo + 1) : [];
    if (!known.length) return [last];
    const out = [];
    // the log's announcements are in the room's language: where the view left the last one's out,
    // the reader reads another, and each move is named by its command in the reader's words instead
    const roomWords = !!(last.lines && last.lines.length);
    for (let i = known.length - 1; i >= 0 && out.length < MAX_BANNER_MOVES; i--) {
      if (known[i].seat === me) break;
      out.unshift(roomWords ? known[i] : { ...known[i], lines: [] });
    }
    return out.length ? out : [last];
  }

  // a burst of views (a fast game, a page that was busy) is drawn once, at the next frame; a page
  // that drew each of them in turn would fall further behind the table the faster it is played
  let tableDrawPending = false;
  function renderTableSoon() {
    if (tableDrawPending) return;
    tableDrawPending = true;
    window.requestAnimationFrame(() => {
      if (tableDrawPending) renderTable();
    });
  }

  /** Where the keyboard was in the table, so a redraw gives it back (a picked card, a move's button). */
  function focusKey() {
    const node = document.activeElement;
    const area = document.querySelector(".table-area");
    if (!node || !area || !area.contains(node) || node === area) return null;
    if (node.id) return "#" + CSS.escape(node.id);
    if (node.dataset && node.dataset.command) return '[data-command="' + CSS.escape(node.dataset.command) + '"]';
    const path = [];
    for (let n = node; n && n !== area; n = n.parentElement) path.unshift([...n.parentElement.children].indexOf(n));
    return path;
  }

  function restoreFocus(key) {
    if (!key) return;
    const area = document.querySelector(".table-area");
    let node = null;
    if (typeof key === "string") node = area.querySelector(key);
    else {
      node = area;
      for (const i of key) node = node && node.children[i];
    }
    if (node && typeof node.focus === "function" && !node.disabled) node.focus({ preventScroll: true });
  }

  function renderTable() {
    const focused = focusKey();
    drawTable();
    restoreFocus(focused);
  }

  function drawTable() {
    tableDrawPending = false;
    const r = state.active && state.rooms.get(state.active);
    const view = r ? r.view : null;
    renderTurn(view);
    const table = $("table");
    table.replaceChildren();
    table.dataset.moves = view && view.phase !== "lobby" ? String(view.moves) : "";
    const handPanel = $("hand-panel");
    const controls = $("controls");
    if (handPanel) handPanel.hidden = true;
    if (controls) {
      controls.hidden = true;
      controls.replaceChildren();
    }
    if (!view) {
      table.appendChild(el("p", "muted", WATCH ? t("Nothing is happening at this table yet.") : t("No game is running here yet. Sit down to play.")));
      if (!WATCH && r) renderLobbyControls({ phase: "lobby", seats: [], games: Object.keys(state.games), titles: state.games, you: null, seating: { free: 1, levels: [] } }, controls);
      return;
    }
    if (view.phase === "lobby") {
      renderLobby(view, table);
      if (!WATCH) renderLobbyControls(view, controls);
      return;
    }
    if (!renderers.has(view.game)) loadRenderer(view.game);
    const renderer = renderers.get(view.game);
    const h = helpers(view);
    if (!WATCH) askLongVerbs(state.active, view);
    if (view.phase === "over" && view.result) table.appendChild(resultBox(view));
    let drawn = null;
    if (renderer && view.public) {
      try {
        drawn = renderer.board(view.public, h);
      } catch (e) {
        drawn = null;
        window.console.error(e);
      }
    }
    if (!drawn) drawn = el("pre", "board-fallback", (view.public && view.public.text) || r.board || "");
    table.appendChild(drawn);
    markLastMover(view, table);
    if (WATCH) return;
    const you = view.you;
    const open = renderer && renderer.hand && !(you && you.private); // a game without secrets: your pieces, drawn apart
    if (you && typeof you.seat === "number" && view.phase === "running" && (you.private || open)) {
      handPanel.hidden = false;
      handPanel.classList.toggle("open-hand", !!open);
      const hand = $("hand");
      hand.replaceChildren();
      let mine = null;
      if (renderer && renderer.hand) {
        try {
          mine = renderer.hand(you.private || null, view.public, h);
        } catch (e) {
          mine = null;
          window.console.error(e);
        }
      }
      if (!mine) mine = el("pre", "hand-text", you.private ? you.private.text || JSON.stringify(you.private) : t("You hold nothing secret in this game."));
      hand.appendChild(mine);
    }
    renderLobbyControls(view, controls);
    if (view.phase !== "over") renderMoveControls(view, renderer, h, controls);
  }

  /** The game's end: one result line, then the score by source per player (or the scores alone). */
  /** The panel of whoever made the last move carries a mark (the game's renderer marks what moved). */
  function markLastMover(view, table) {
    const last = view.phase === "running" ? view.last : null;
    if (!last || typeof last.seat !== "number") return;
    for (const node of table.querySelectorAll('[data-seat="' + last.seat + '"]')) {
      node.classList.add("last-mover");
      node.dataset.lastMove = t("last move");
    }
  }

  function resultBox(view) {
    const result = view.result;
    const box = el("div", "result");
    box.appendChild(el("strong", "result-head", result.headline));
    const seats = result.scores.map((s, seat) => ({ ...s, seat }));
    const rows = Array.isArray(result.breakdown) ? result.breakdown : null;
    if (rows && rows.length) {
      const table = el("table", "result-breakdown");
      const head = el("tr");
      head.appendChild(el("th", "", ""));
      for (const s of seats) {
        const winner = result.winners.includes(s.seat);
        head.appendChild(el("th", "seat-" + (s.seat % 6) + (winner ? " winner" : ""), (winner ? "★ " : "") + s.nick));
      }
      table.appendChild(head);
      for (const row of rows) {
        const tr = el("tr", row.total ? "total" : "");
        tr.appendChild(el("td", "label", row.label));
        seats.forEach((s) => tr.appendChild(el("td", "num", row.values[s.seat] === undefined ? "" : row.values[s.seat])));
        table.appendChild(tr);
      }
      const wrap = el("div", "result-table");
      wrap.appendChild(table);
      box.appendChild(wrap);
      if (view.game_id) box.appendChild(replayLink(view.game_id, t("Replay this game")));
      return box;
    }
    const list = el("ol", "result-scores");
    const rankOf = new Map();
    result.ranking.forEach((group, i) => group.forEach((seat) => rankOf.set(seat, i)));
    seats.sort((a, b) => (rankOf.get(a.seat) || 0) - (rankOf.get(b.seat) || 0));
    for (const s of seats) {
      const winner = result.winners.includes(s.seat);
      list.appendChild(el("li", winner ? "winner" : "", (winner ? "★ " : "") + s.nick + ": " + s.score));
    }
    box.appendChild(list);
    // the result's detail repeats the headline's scores: the list says them once
    if (view.game_id) box.appendChild(replayLink(view.game_id, t("Replay this game")));
    return box;
  }

  function renderLobby(view, table) {
    const box = el("div", "lobby");
    box.appendChild(el("h3", "", view.title));
    const list = el("ul", "lobby-seats");
    for (let n = 1; n <= view.max; n++) {
      const seat = view.seats.find((s) => s.number === n);
      const text = !seat
        ? t("Seat {n}: free", { n })
        : seat.nick === view.host
          ? t("Seat {n}: {nick} (host)", { n, nick: seat.nick })
          : t("Seat {n}: {nick}", { n, nick: seat.nick });
      const li = el("li", seat ? "taken" : "free", text);
      list.appendChild(li);
    }
    box.appendChild(list);
    table.appendChild(box);
  }

  /** The lobby and seat buttons: each sends the command a person could type. */
  function renderLobbyControls(view, controls) {
    if (!controls || WATCH) return;
    const you = view.you || {};
    const seating = view.seating || { free: 0, levels: [] };
    const group = el("div", "verb-group seat-buttons");
    const running = view.phase === "running";
    const empty = !running && !you.seated && !(view.seats && view.seats.length) && view.games && view.games.length;
    if (empty) controls.appendChild(setupChoices(view));
    if (you.take_back) group.appendChild(commandButton(you.take_back, t("Take my seat back"), "primary"));
    else if (empty) group.appendChild(sitWithChoices(view));
    else if (!you.seated && seating.free > 0) group.appendChild(commandButton("/join", running ? t("Sit in") : t("Sit down"), "primary"));
    if (!running && you.seated && (you.host || !view.host) && view.seats.length >= (view.min || 1)) {
      group.appendChild(commandButton("/start", view.phase === "over" ? t("Play again") : t("Start"), "primary"));
    }
    if (!running && you.seated && seating.free > 0 && seating.levels.length) {
      const pick = el("select", "ai-level");
      pick.id = "ai-level";
      pick.setAttribute("aria-label", t("AI level"));
      for (const level of seating.levels) {
        const option = el("option", "", (seating.level_names && seating.level_names[level]) || level);
        option.value = level;
        if (level === "medium") option.selected = true;
        pick.appendChild(option);
      }
      const add = button(t("Add AI"), () => playCommand("/addbot " + pick.value), "btn move");
      add.id = "add-ai";
      group.append(add, pick);
    }
    if (!running && you.seated) group.appendChild(commandButton("/leave", t("Leave")));
    const seatControls = $("seat-controls");
    if (seatControls) {
      // leaving a running game is no move: it waits under the table, out of the way of the moves
      seatControls.replaceChildren();
      seatControls.hidden = !(running && you.seated && !you.take_back);
      if (!seatControls.hidden) seatControls.appendChild(leaveRunning());
    }
    if (group.childElementCount) {
      controls.hidden = false;
      controls.appendChild(group);
    }
    if (!running && you.seated && you.host && view.games && view.games.length > 1) {
      const other = el("div", "verb-group");
      other.appendChild(el("span", "verb", t("game")));
      // each game by its title ("Yspahan"), as the setup row names it, not by its id
      for (const g of view.games) if (g !== view.game) other.appendChild(commandButton("/new " + g, (view.titles && view.titles[g]) || g));
      controls.appendChild(other);
    }
    if (!running && you.seated && you.host) controls.appendChild(clockChoices((choice) => playCommand("/clock " + choice)));
  }

  // before the first seat is taken: the game and its options, chosen here and sent with "Sit down"
  const setup = { game: null, hints: "off", clock: null };

  /** One row of choices as toggle buttons (aria-pressed): ``picked(value)`` when one is pressed. */
  function choiceRow(label, options, current, picked) {
    const row = el("div", "verb-group setup-choice");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", label);
    row.appendChild(el("span", "verb", label));
    for (const [value, words] of options) {
      const b = button(words, () => picked(value), "btn");
      b.setAttribute("aria-pressed", value === current ? "true" : "false");
      b.dataset.choice = value;
      row.appendChild(b);
    }
    return row;
  }

  function clockChoices(picked) {
    const clocks = [["off", t("no clock")], ["90s", t("90 s")], ["5m", t("5 min")], ["1d", t("1 day")]];
    return choiceRow(t("clock"), clocks, setup.clock, (value) => {
      setup.clock = value;
      picked(value);
    });
  }

  function setupChoices(view) {
    if (!setup.game || !view.games.includes(setup.game)) setup.game = view.games.includes(view.game) ? view.game : view.games[0];
    if (view.titles) view.games = Object.keys(view.titles).filter((g) => view.games.includes(g)); // the default first
    const box = el("div", "setup");
    const redraw = () => renderTable();
    box.appendChild(choiceRow(t("game"), view.games.map((g) => [g, (view.titles && view.titles[g]) || g]), setup.game, (g) => {
      setup.game = g;
      redraw();
    }));
    box.appendChild(choiceRow(t("hints"), [["on", t("on")], ["off", t("off")]], setup.hints, (v) => {
      setup.hints = v;
      redraw();
    }));
    box.appendChild(clockChoices(redraw));
    return box;
  }

  /** "Sit down" with the choices made: the game and its hints (plain /join when they are the table's), then the clock. */
  function sitWithChoices(view) {
    const same = setup.game === (view.game || view.games[0]) && setup.hints === "off";
    const command = same ? "/join" : "/new " + setup.game + " hints=" + setup.hints;
    const b = button(t("Sit down"), () => {
      playCommand(command);
      if (setup.clock) playCommand("/clock " + setup.clock);
    }, "btn move primary");
    b.id = "sit-down";
    b.dataset.command = command;
    return b;
  }

  // the room whose running game the player asked to leave: the question stays over redraws until answered
  let leaveAsked = null;

  /** Leave during a game, asked twice so a stray tap on a phone does not hand the seat to an AI. */
  function leaveRunning() {
    const box = el("span", "leave-running");
    if (leaveAsked !== state.active) {
      const ask = button(t("Leave"), () => {
        leaveAsked = state.active;
        renderTable();
      }, "btn");
      ask.id = "leave-game";
      box.appendChild(ask);
      return box;
    }
    box.classList.add("asking");
    box.appendChild(el("span", "leave-question", t("Leave the game? An AI plays on for you.")));
    // plain buttons, not moves: what offers a move to tap stays the game's own controls
    const yes = button(t("Yes, leave"), () => {
      leaveAsked = null;
      playCommand("/leave");
    }, "btn danger");
    yes.dataset.command = "/leave";
    const no = button(t("Stay"), () => {
      leaveAsked = null;
      renderTable();
    }, "btn");
    no.id = "leave-stay";
    box.append(yes, no);
    return box;
  }

  function commandButton(command, label, extra) {
    const b = button(label || command, () => playCommand(command), "btn move" + (extra ? " " + extra : ""));
    b.dataset.command = command;
    return b;
  }

  function renderMoveControls(view, renderer, h, controls) {
    const commands = h.commands();
    if (!commands.length) return;
    controls.hidden = false;
    if (renderer && renderer.picker) {
      try {
        const picker = renderer.picker(view.public, view.you.private, h);
        if (picker) controls.appendChild(picker);
      } catch (e) {
        window.console.error(e);
      }
    }
    const groups = new Map();
    for (const command of commands) {
      if (drawnOffers(renderer, command, h)) continue; // the drawn table offers it itself
      const verb = verbOf(command);
      if (!groups.has(verb)) groups.set(verb, []);
      groups.get(verb).push(command);
    }
    for (const list of groups.values()) {
      const verb = h.said(list[0]).split(" ")[0]; // the group is named in the reader's words
      if (list.length <= (NARROW.matches ? MAX_BUTTONS_NARROW : MAX_BUTTONS)) {
        const group = controls.appendChild(verbButtons(list, verb, renderer, h));
        // on a phone, long buttons stacked row on row would push the board under the chat drawer
        if (!NARROW.matches || rowsOf(group) <= MAX_ROWS_NARROW) continue;
        group.remove();
      }
      controls.appendChild(verbList(list, verb, renderer, h));
    }
    if (!controls.childElementCount) controls.hidden = true;
  }

  /** A command's words after its verb as the board names them (``1 Tuch``, not the typed
   * ``1 tuch``): each a number or a thing the game's ``terms`` name; null when one is neither. After
   * a count above 1 a thing is named as several where the terms say how (``<id>+``: ``2 Gewürze``). */
  function termsOf(command, h) {
    const terms = h.view.terms || {};
    const rest = command.split(" ").slice(1);
    const several = (i) => i > 0 && /^\d+$/.test(rest[i - 1]) && Number(rest[i - 1]) > 1;
    const named = rest.map((w, i) => {
      if (/^\d+$/.test(w)) return w;
      if (several(i) && Object.hasOwn(terms, w + "+")) return terms[w + "+"];
      return Object.hasOwn(terms, w) ? terms[w] : null;
    });
    return rest.length && named.every((w) => w !== null) ? named.join(" ") : null;
  }

  /** A verb's commands as one button each. */
  function verbButtons(list, verb, renderer, h) {
    const group = el("div", "verb-group");
    group.appendChild(el("span", "verb", verb));
    for (const command of list) {
      const words = h.said(command); // the reader's words; the English is sent
      const rest = words.slice(words.split(" ")[0].length).trim();
      const b = commandButton(command, describe(renderer, command, h) || termsOf(command, h) || rest || verb);
      b.title = words;
      group.appendChild(b);
    }
    return group;
  }

  /** How many rows a group's buttons are laid out on (as drawn now). */
  function rowsOf(group) {
    return new Set([...group.querySelectorAll("button")].map((b) => b.offsetTop)).size;
  }

  /** A verb's commands as a list and a Play button. */
  function verbList(list, verb, renderer, h) {
    const group = el("div", "verb-group");
    group.appendChild(el("span", "verb", verb));
    const select = el("select", "move-list");
    select.setAttribute("aria-label", t("{verb} moves", { verb }));
    for (const command of list) {
      const option = el("option", "", describe(renderer, command, h) || h.said(command));
      option.value = command;
      select.appendChild(option);
    }
    const go = button(t("Play"), () => playCommand(select.value), "btn move play-selected");
    go.dataset.verb = verb;
    group.append(select, go);
    return group;
  }

  /** Whether the drawn table has its own control for a command (optional ``handles`` hook). */
  function drawnOffers(renderer, command, h) {
    if (!renderer || typeof renderer.handles !== "function") return false;
    try {
      return !!renderer.handles(command, h);
    } catch (e) {
      window.console.error(e);
      return false;
    }
  }

  /** The renderer's words for a command, if it has any (optional ``label`` hook). */
  function describe(renderer, command, h) {
    if (!renderer || !renderer.label) return null;
    try {
      return renderer.label(command, h);
    } catch (e) {
      window.console.error(e);
      return null;
    }
  }

  function playCommand(command) {
    if (!state.active) return;
    setFeedback(state.active, null);
    const line = $("line");
    if (line) line.value = command;
    // sent as the rules spell it; echoed as the reader would have typed it
    const r = state.rooms.get(state.active);
    const said = r && r.view ? saidOf(state.active, r.view, command) : command;
    send(said !== command ? { t: "say", room: state.active, text: command, said } : { t: "say", room: state.active, text: command });
    if (line) line.value = "";
  }

  function updateTitle() {
    if (WATCH) return; // a spectator has no turn: the page keeps its own title
    const rooms = [...state.myTurn];
    const base = "bazaarbot";
    if (rooms.length) {
      const name = rooms.includes(state.active) ? state.active : rooms[0];
      document.title = t("● your turn · {room}", { room: name });
    } else document.title = state.active ? base + " · " + state.active : base;
    renderRooms();
  }

  function gotView(name, view) {
    const r = room(name);
    const before = momentOf(r.view);
    r.view = view || null;
    const now = momentOf(view);
    const fb = r.feedback;
    if (fb && fb.kind === "clock" && now !== before) {
      // a clock's reminder is about the decision it timed: once the table moves on, it is over
      r.feedback = null;
      if (name === state.active) renderFeedback();
    } else if (fb && fb.at !== null && now !== fb.at && now !== before) {
      // the table the answer came with stays; the next move after it takes the answer away
      if (fb.next === undefined) fb.next = now;
      else if (now !== fb.next) {
        r.feedback = null;
        if (name === state.active) renderFeedback();
      }
    }
    if (view && name === state.active) window.bazaarbotI18n.setLanguage(view.lang || null);
    if (view && view.clock && typeof view.clock.now === "number") {
      readServerClock(view.clock.now);
      startTicking();
    }
    const me = view && view.you && view.you.seat;
    const mine = !!view && view.phase === "running" && typeof me === "number" && view.to_act.includes(me);
    const was = state.myTurn.has(name);
    if (mine) state.myTurn.add(name);
    else state.myTurn.delete(name);
    if (mine && !was) notifyTurn(name);
    if (view && view.game && view.phase !== "lobby") loadRenderer(view.game);
    if (name === state.active) {
      renderTableSoon();
      showExample(view);
    }
    updateTitle();
  }

  /** The input hint and the help line show a move of the room's own game. */
  function showExample(view) {
    const example = view && view.example;
    const line = $("line");
    if (!example || !line) return; // the watch page has no input
    line.placeholder = t("Say something, or a command: /join /start {example}", { example: example });
    const code = $("example-move");
    if (code) code.textContent = example;
  }

  function notifyTurn(name) {
    if (!document.hidden || !("Notification" in window) || window.Notification.permission !== "granted") return;
    try {
      new window.Notification(t("Your turn in {room}", { room: name }), { body: t("bazaarbot: it is your move."), tag: "turn-" + name });
    } catch (_e) {
      /* some browsers allow notifications only from a service worker */
    }
  }

  function notifyOpening(name, text) {
    if (!document.hidden || !("Notification" in window) || window.Notification.permission !== "granted") return;
    try {
      new window.Notification(t("A table opens in {room}", { room: name }), { body: text, tag: "opens-" + name });
    } catch (_e) {
      /* some browsers allow notifications only from a service worker */
    }
  }

  // --- protocol --------------------------------------------------------------------------
  /** The languages the browser shows, first the one it prefers: the reader's until they /lang. */
  function browserLocales() {
    const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    return [...tags].filter((tag) => typeof tag === "string").slice(0, 8);
  }

  function send(frame) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) {
      state.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + window.location.host + bazaarbotBase.url("/ws"));
    state.ws = ws;
    setStatus(t("connecting…"), "connecting");
    ws.addEventListener("open", () => {
      state.backoff = 500;
      setStatus(t("connected"), "up");
      if (WATCH) send({ t: "watch", room: state.watchRoom });
      else send({ t: "hello", token: saved.get("token", null), locales: browserLocales() });
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (_e) {
        return;
      }
      // frames that left together come as one array of them
      for (const one of Array.isArray(frame) ? frame : [frame]) {
        if (one && typeof one.t === "string") handle(one);
      }
    });
    ws.addEventListener("close", () => {
      if (state.ws !== ws) return;
      state.ws = null;
      textBoardRoom = null; // a new connection asks again
      for (const r of state.rooms.values()) {
        r.joined = false;
        r.verbs = null; // what was asked of the old connection is asked again
      }
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
    if (state.wanted && state.rooms.has(state.wanted) && state.active !== state.wanted) activate(state.wanted);
    renderMembers();
  }

  // "my games": the tables where this nick sits (the server's /tables), their move first

  /** Each listed table's time left, as its banner shows it where the page holds the room's clock. */
  function renderTableClocks() {
    for (const [button, c] of tableClocks) {
      if (!button.isConnected) {
        tableClocks.delete(button);
        continue;
      }
      const shown = secondsLeft(state.rooms.get(c.room));
      const left = shown !== null ? shown : Math.max(0, c.deadline - Date.now() / 1000);
      button.textContent = t("{line}, {time} left", { line: c.line, time: clockText(left) });
    }
  }

  function renderMyTables(tables) {
    const list = $("my-tables-list");
    if (!list) return;
    list.replaceChildren();
    tableClocks.clear();
    for (const entry of Array.isArray(tables) ? tables : []) {
      if (!entry || typeof entry.channel !== "string") continue;
      const name = entry.channel.toLowerCase();
      if (!ROOM_RE.test(name)) continue;
      const item = document.createElement("li");
      if (entry.your_move) item.className = "your-move";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(entry.text || entry.channel);
      if (typeof entry.left === "number" && typeof entry.line === "string" && !entry.paused) {
        // its time left counts down with the banner's clock, not frozen where the list was sent
        tableClocks.set(button, { room: name, line: entry.line, deadline: Date.now() / 1000 + entry.left });
        startTicking();
      }
      button.addEventListener("click", () => (state.rooms.has(name) ? activate(name) : join(name)));
      item.append(button);
      list.append(item);
    }
    $("my-tables").hidden = list.childElementCount === 0;
    renderTableClocks();
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
    if (textBoardRoom === name) textBoardRoom = null; // the server forgets it with the room
    r.log.remove();
    r.gamelog.remove();
    if (r.item) r.item.remove();
    state.rooms.delete(name);
    state.myTurn.delete(name);
    saveRooms();
    if (state.active === name) {
      state.active = null;
      const next = state.rooms.keys().next();
      if (!next.done) activate(next.value);
      else {
        $("room-title").textContent = t("no room: /join #bazaar");
        renderBoard();
        renderTable();
        renderMembers();
      }
    }
    updateTitle();
  }

  function showHistory(name, history) {
    for (const h of history || []) {
      if (h && h.t === "chat") {
        roomLine(name, h.nick === "*" ? "system" : "chat", h.nick === "*" ? "" : h.nick, h.text, h.at, true);
      } else if (h && h.t === "bot") roomLine(name, "bot", h.nick, h.text, h.at, true);
    }
  }

  function handle(f) {
    switch (f.t) {
      case "welcome":
        window.bazaarbotI18n.setLanguage(f.lang || null);
        state.bot = f.bot || state.bot;
        if (f.games && typeof f.games === "object") state.games = f.games;
        state.max = f.max || state.max;
        if (!WATCH) $("line").maxLength = state.max;
        if (f.nick) gotNick(f.nick);
        else {
          state.nick = null; // the server does not know this browser (any more): claim again
          enableInput(false);
          showNickBox("");
        }
        break;
      case "tables":
        renderMyTables(f.tables);
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
        const seated = f.view && f.view.you && f.view.you.seated;
        const takeBack = f.view && f.view.you && f.view.you.take_back;
        if (takeBack) {
          const line = t("An AI plays your seat in {room} while you are away. Press “Take my seat back” (or type {command}) to play it again.", { room: f.room, command: takeBack });
          roomLine(f.room, "system", "", line, undefined, true);
          setFeedback(f.room, line, "answer");
        } else if (fresh && !seated) {
          roomLine(
            f.room,
            "system",
            "",
            t(
              "Welcome to {room}. Type /join to sit at the table and /start when everybody is seated; /games lists the games, /help the commands.",
              { room: f.room }
            ),
            undefined,
            true
          );
        }
        gotView(f.room, f.view);
        if (!state.active) activate(f.room);
        if (f.room === state.active) {
          renderBoard();
          renderMembers();
          askTextBoard();
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
        r.view = f.view || null;
        r.joined = true;
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
      case "echo":
        if (state.rooms.has(f.room)) append(room(f.room).log, "mine", t("you → {bot}", { bot: state.bot }), f.text);
        break;
      case "bot":
        if (!state.rooms.has(f.room)) break;
        if (f.asked && typeof f.asked.text === "string" && f.asked.nick !== state.nick) {
          // a command's public answer: the others see what was asked
          roomLine(f.room, "asked", f.asked.nick, f.asked.text, f.at);
        }
        roomLine(f.room, "bot", f.nick, f.text, f.at);
        // the answer to what the reader typed, and a line about the reader's own seat, stand where they look
        if (!WATCH && state.nick && sameNick(f.about, state.nick)) setFeedback(f.room, f.text, "answer");
        else if (!WATCH && state.nick && f.asked && f.asked.nick === state.nick) setFeedback(f.room, f.text, "answer", true);
        // a table opened and the reader asked to be called (/notify on): told in the page, and by the browser
        if (!WATCH && state.nick && Array.isArray(f.invites) && f.invites.some((n) => sameNick(n, state.nick))) {
          setFeedback(f.room, f.text, "answer");
          if (f.room !== state.active) privateLine("tell", f.text, f.room); // another room's call: in Private too
          notifyOpening(f.room, f.text);
        }
        break;
      case "board": {
        const r = state.rooms.get(f.room);
        if (!r) break;
        r.board = f.text || null;
        if (f.room === state.active) renderBoard();
        break;
      }
      case "view":
        if (!state.rooms.has(f.room)) break;
        // a partial view holds the members that changed: the rest is the view this tab has
        if (f.partial) gotView(f.room, Object.assign({}, state.rooms.get(f.room).view || {}, f.view));
        else gotView(f.room, f.view);
        break;
      case "log":
        if (state.rooms.has(f.room)) gameLog(f.room, f);
        break;
      case "moves":
        gotVerb(f);
        break;
      case "pong":
        if (typeof f.now === "number") {
          readServerClock(f.now);
          renderClock();
        }
        break;
      case "tell": {
        const r = state.active && state.rooms.get(state.active);
        if (!(r && r.view)) window.bazaarbotI18n.setLanguage(f.lang || null); // a table's view says it otherwise
        gotTell(f);
        break;
      }
      case "mine":
        privateLine("mine", f.text, t("you → {bot}", { bot: state.bot }));
        break;
      case "error":
        if (f.code === "nick" && (!state.nick || !$("nick-box").hidden)) showNickBox(f.text);
        else if (WATCH) break;
        else setFeedback(state.active, f.text, "error");
        break;
      default:
        break;
    }
  }

  // --- input --------------------------------------------------------------------------
  function submitLine(raw) {
    const line = raw.trim();
    if (!line) return;
    setFeedback(state.active, null); // the next action: the last answer has been read
    const words = line.split(/\s+/);
    const cmd = words[0].toLowerCase();
    if ((cmd === "/join" || cmd === "/j") && words[1] && words[1].startsWith("#")) {
      if (!ROOM_RE.test(words[1])) setFeedback(state.active, t("A room name is # and 1 to 30 letters, digits, - or _."), "error");
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
      if (!words[1]) setFeedback(state.active, t("Use /nick <new nick>."), "error");
      else if (!NICK_RE.test(words[1])) setFeedback(state.active, t("A nick is 1 to 24 letters, digits or - _ [ ] {{ }} | ^ `."), "error");
      else send({ t: "claim", nick: words[1] });
      return;
    }
    if (cmd === "/msg" || cmd === "/query" || cmd === "/dm") {
      const rest = cmd === "/dm" ? words.slice(1) : words.slice(2);
      if (cmd !== "/dm" && (!words[1] || words[1].toLowerCase() !== state.bot.toLowerCase())) {
        setFeedback(state.active, t("Private lines go to the bot only: /msg {bot} <text>.", { bot: state.bot }), "error");
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
      setFeedback(state.active, t("You are in no room: /join #bazaar opens one."), "error");
      return;
    }
    send({ t: "say", room: state.active, text: line });
  }

  /** On a phone or tablet the chat is a drawer under the table: a tab opens it, the open tab closes it. */

  function drawerShut() {
    return NARROW.matches && !document.body.classList.contains("drawer-open");
  }

  function initTabs() {
    const body = document.body;
    for (const tab of document.querySelectorAll(".tab")) {
      tab.addEventListener("click", () => {
        const open = body.classList.contains("drawer-open");
        if (NARROW.matches && open && state.pane === tab.dataset.pane) body.classList.remove("drawer-open");
        else {
          if (NARROW.matches) body.classList.add("drawer-open");
          showPane(tab.dataset.pane); // after the drawer opens, so its pane scrolls to the newest line
          if (tab.dataset.pane === "logs" && $("chat-badge")) $("chat-badge").textContent = "";
        }
      });
    }
    const chat = document.querySelector(".chat");
    if (chat && "ResizeObserver" in window) {
      // the page keeps room under the table for the drawer, so nothing of the table hides behind it
      new window.ResizeObserver(() => body.style.setProperty("--drawer", chat.offsetHeight + "px")).observe(chat);
    }
    const bar = $("turn-bar");
    if (bar && "ResizeObserver" in window) {
      // a control scrolled or tabbed to stops below the sticky turn bar, never under it
      new window.ResizeObserver(() => body.style.setProperty("--turn-bar", bar.offsetHeight + "px")).observe(bar);
    }
  }

  function initNotify() {
    const b = $("notify");
    if (!b || !("Notification" in window) || window.Notification.permission !== "default") return;
    b.hidden = false;
    b.addEventListener("click", () => {
      window.Notification.requestPermission()
        .then((answer) => {
          if (answer !== "granted") {
            setFeedback(state.active, t("This browser blocks notifications from this page, so your turn cannot be announced. Allow them in the site settings, then reload."), "error");
          }
        })
        .finally(() => {
          b.hidden = true;
        });
    });
  }

  /** After a switch of language (/lang, or another room's): draw everything the script wrote again. */
  function redraw() {
    const r = state.active && state.rooms.get(state.active);
    if (r) {
      renderTable();
      showExample(r.view);
    }
    updateTitle();
  }

  function init() {
    initTabs();
    const privatePane = $("private");
    if (privatePane) follow(privatePane);
    NARROW.addEventListener("change", () => renderTable()); // the table is drawn anew for the new size
    const boardText = document.querySelector("details.board-text");
    if (boardText) boardText.addEventListener("toggle", askTextBoard);
    window.bazaarbotI18n.onChange(redraw);
    const close = $("feedback-close");
    if (close) close.addEventListener("click", () => setFeedback(state.active, null));
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && state.active) markSeen(state.active);
    });
    if (WATCH) {
      const part = decodeURIComponent(bazaarbotBase.path().split("/").filter(Boolean)[1] || "bazaar");
      state.watchRoom = ("#" + part).toLowerCase();
      $("room-title").textContent = state.watchRoom;
      document.title = t("bazaarbot — watching {room}", { room: state.watchRoom });
      connect();
      return;
    }
    initNotify();
    $("say-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("line");
      const text = input.value;
      if (text.length > state.max) {
        setFeedback(state.active, t("That line is too long (at most {max} characters).", { max: state.max }), "error");
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
        setFeedback(state.active, t("A room name is # and 1 to 30 letters, digits, - or _."), "error");
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
