// The replay page: a finished game step by step with the game's own drawn table (its table.js
// registers through the same window.bazaarbotTables API as on the chat page), first/back/
// forward/last buttons and the arrow keys, and the review's win-chance graph, one line per
// player, whose points jump to their position. The data is public: GET /replay/<id>/data.
"use strict";

(() => {
  const t = (text, args) => window.bazaarbotI18n.t(text, args);
  const $ = (id) => document.getElementById(id);
  const segment = bazaarbotBase.path().split("/").filter(Boolean)[1] || "";
  /** The game's number; "" when the address names none (``/replay/abc``: no such game). */
  const gameId = /^[0-9]{1,12}$/.test(segment) ? segment : "";
  const state = { data: null, at: 0, renderer: null };

  const { el, svg, button } = window.bazaarbotTableKit; // static/tables.js

  window.bazaarbotTables = {
    register(game, renderer) {
      if (state.data && game === state.data.game) {
        state.renderer = renderer;
        draw();
      }
    },
  };

  function frame(at) {
    const d = state.data;
    return at === 0 ? d.start : d.steps[at - 1];
  }

  function helpers(view) {
    const seatName = (seat) => (view.players && view.players[seat]) || "?";
    return {
      el,
      svg,
      button,
      view,
      you: null,
      label: (key, fallback) => (view.public && view.public.labels && view.public.labels[key]) || fallback || key,
      seatName,
      seatClass: (seat) => "seat-" + (typeof seat === "number" ? seat % 6 : "x"),
      initial: (seat) => initialOf(view, seat),
      term: (id) => (state.data && state.data.terms && state.data.terms[id]) || String(id).replace(/_/g, " "),
      commands: () => [],
      play: () => {},
      rerender: () => draw(),
    };
  }

  /** A seat's badge as on the live table: its initial, or its number when another seat shares it (two AIs). */
  function initialOf(view, seat) {
    const name = (s) => (view.players && view.players[s]) || "?";
    const letter = (n) => String(n || "?").replace(/^AI:/, "").slice(0, 1).toUpperCase();
    const mine = letter(name(seat));
    const shared = (view.players || []).filter((n) => letter(n) === mine).length > 1;
    return shared ? String(seat + 1) : mine;
  }

  function go(at) {
    const d = state.data;
    if (!d || !d.replayable) return;
    state.at = Math.max(0, Math.min(d.steps.length, at));
    draw();
  }

  function draw() {
    const d = state.data;
    if (!d || !d.replayable) return;
    const total = d.steps.length;
    const at = state.at;
    const current = frame(at);
    $("step").textContent = t("Step {n} of {total}", { n: at, total });
    $("step").dataset.at = String(at);
    $("first").disabled = $("back").disabled = at === 0;
    $("last").disabled = $("forward").disabled = at === total;
    const move = $("move");
    move.replaceChildren();
    if (at === 0) {
      move.appendChild(el("span", "muted", t("The start of the game.")));
    } else {
      move.appendChild(el("strong", "replay-mover", current.nick + ": "));
      move.appendChild(el("code", "replay-command", current.said || current.text));
      const lines = el("ul", "lines");
      for (const line of current.lines || []) lines.appendChild(el("li", "", line));
      move.appendChild(lines);
    }
    const view = { game: d.game, players: d.players, public: current.public, to_act: current.to_act, phase: "replay" };
    const table = $("table");
    table.replaceChildren();
    if (at === total && d.result) {
      const box = el("div", "result");
      box.appendChild(el("strong", "result-head", d.result.headline));
      const list = el("ol", "result-scores");
      const rankOf = new Map();
      d.result.ranking.forEach((group, i) => group.forEach((seat) => rankOf.set(seat, i)));
      const order = d.result.scores.map((s, seat) => ({ ...s, seat })).sort((a, b) => (rankOf.get(a.seat) || 0) - (rankOf.get(b.seat) || 0));
      for (const s of order) {
        const winner = d.result.winners.includes(s.seat);
        list.appendChild(el("li", winner ? "winner" : "", (winner ? "★ " : "") + s.nick + ": " + s.score));
      }
      box.appendChild(list);
      table.appendChild(box);
    }
    let drawn = null;
    if (state.renderer && current.public) {
      try {
        drawn = state.renderer.board(current.public, helpers(view));
      } catch (e) {
        drawn = null;
        window.console.error(e);
      }
    }
    if (!drawn) drawn = el("pre", "board-fallback", (current.public && current.public.text) || "");
    table.appendChild(drawn);
    drawGraph();
  }

  const W = 600;
  const H = 240;
  const PAD = 28;
  /** The finger-sized area around a point (CSS pixels), narrowed where the points stand closer. */
  const HIT_MOST = 40;
  const HIT_LEAST = 24;

  const DOT = 6;

  /** The see-through ring around a point's dot (in the graph's own units) that makes its tap area
   * 40 screen pixels across at the graph's drawn width, or the room between two steps, at least 24. */
  function hitRing(total) {
    const scale = ($("graph").getBoundingClientRect().width || W) / W;
    const between = ((W - 2 * PAD) / total) * scale;
    const across = Math.max(HIT_LEAST, Math.min(HIT_MOST, between));
    return Math.max(0, across / scale - 2 * DOT).toFixed(1) + "px";
  }

  function drawGraph() {
    const d = state.data;
    const holder = $("graph");
    holder.replaceChildren();
    const review = d.review;
    if (!review) {
      $("review-note").textContent = t("The win chances of this game are being worked out; the graph appears here when they are ready.");
      waitForReview();
      return;
    }
    $("review-note").textContent = review.complete ? "" : t("The review stopped before the end of this long game.");
    const total = Math.max(1, d.steps.length);
    const x = (at) => PAD + ((W - 2 * PAD) * at) / total;
    const y = (chance) => H - PAD - (H - 2 * PAD) * chance;
    const graph = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": t("Estimated win chance of each player over the game"), id: "chance-graph" });
    graph.style.setProperty("--hit", hitRing(total));
    graph.appendChild(svg("line", { class: "axis", x1: PAD, y1: y(0), x2: W - PAD, y2: y(0) }));
    graph.appendChild(svg("line", { class: "axis", x1: PAD, y1: y(0), x2: PAD, y2: y(1) }));
    graph.appendChild(svg("text", { x: 2, y: y(1) + 4, "font-size": 10 }, "100%"));
    graph.appendChild(svg("text", { x: 8, y: y(0) + 4, "font-size": 10 }, "0%"));
    graph.appendChild(svg("line", { class: "cursor", x1: x(state.at), y1: y(0), x2: x(state.at), y2: y(1) }));
    const played = new Map(review.decisions.map((dec) => [dec.step + ":" + dec.seat, dec.played]));
    review.lines.forEach((points, seat) => {
      if (!points.length) return;
      const cls = "seat-" + (seat % 6);
      const path = points.map((p) => x(p.step + 1).toFixed(1) + "," + y(p.chance).toFixed(1)).join(" ");
      graph.appendChild(svg("polyline", { class: cls, points: path, "data-seat": seat }));
      for (const p of points) {
        const dot = svg("circle", { class: cls + " point", cx: x(p.step + 1), cy: y(p.chance), r: DOT, tabindex: 0, "data-step": p.step + 1, "data-seat": seat });
        const name = d.players[seat] || "?";
        dot.appendChild(svg("title", {}, t("{nick}, step {n}: {move} (win chance {chance}%)", { nick: name, n: p.step + 1, move: played.get(p.step + ":" + seat) || "", chance: Math.round(100 * p.chance) })));
        dot.addEventListener("click", () => go(p.step + 1));
        dot.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            go(p.step + 1);
          }
        });
        graph.appendChild(dot);
      }
    });
    // a click anywhere on the graph jumps to the step under it
    graph.addEventListener("click", (e) => {
      if (e.target && e.target.tagName === "circle") return;
      const box = graph.getBoundingClientRect();
      const at = Math.round((((e.clientX - box.left) / box.width) * W - PAD) / ((W - 2 * PAD) / total));
      go(at);
    });
    holder.appendChild(graph);
    const legend = el("ul", "replay-legend");
    d.players.forEach((nick, seat) => {
      const item = el("li", "");
      const swatch = el("span", "swatch seat-" + (seat % 6));
      item.append(swatch, document.createTextNode(nick));
      legend.appendChild(item);
    });
    holder.appendChild(legend);
  }

  /** A page with nothing to step through: what happened, a way back, and no controls; for a game
   * that is not there, where the reader finds their finished games. */
  function fail(text, missing) {
    $("replay-controls").hidden = true;
    $("replay-review").hidden = true;
    $("move").hidden = true;
    const home = el("a", "replay-home", t("Back to the tables"));
    home.href = bazaarbotBase.url("/");
    const found = missing ? [el("p", "replay-where", t("Your finished games are listed on the tables page: type /history there, and follow a game's link to its replay."))] : [];
    if (missing) {
      // the network's recent games, each a link to its replay, on a page of their own
      const recent = el("a", "replay-recent", t("Recent games"));
      recent.href = bazaarbotBase.url("/history");
      found.push(el("p", "", ""));
      found[found.length - 1].appendChild(recent);
    }
    $("table").replaceChildren(el("p", "replay-refused", text), ...found, home);
  }

  // the background review of a game just finished: the page asks again until its graph is there
  const REVIEW_POLLS = 40;
  const REVIEW_POLL_MS = 3000;
  let polls = 0;
  let polling = null;
  function waitForReview() {
    if (polling !== null || polls >= REVIEW_POLLS) return;
    polling = window.setTimeout(async () => {
      polling = null;
      polls += 1;
      try {
        const response = await fetch(bazaarbotBase.url("/replay/" + gameId + "/data"), { cache: "no-store" });
        if (response.ok) {
          const d = await response.json();
          if (d.review && state.data) {
            state.data.review = d.review;
            drawGraph();
            return;
          }
        }
      } catch (_e) {
        /* the next poll tries again */
      }
      waitForReview();
    }, REVIEW_POLL_MS);
  }

  async function load() {
    if (!gameId) return fail(t("No such game."), true);
    let response;
    try {
      response = await fetch(bazaarbotBase.url("/replay/" + gameId + "/data?lang=" + window.bazaarbotI18n.lang), { cache: "no-store" });
    } catch (e) {
      return fail(t("The replay could not be loaded."));
    }
    if (!response.ok) return fail(t("There is no game {id}.", { id: gameId }), true);
    const d = await response.json();
    document.title = "bazaarbot — " + t("replay of game {id}", { id: d.game_id });
    if (!d.replayable) return fail(d.reason);
    state.data = d;
    $("replay-title").textContent = t("game {id}, {title}: {players}", { id: d.game_id, title: d.title, players: d.players.join(", ") });
    $("replay-tagline").hidden = false;
    $("replay-controls").hidden = false;
    $("replay-review").hidden = false;
    window.bazaarbotTableKit.load(d.game);
    draw();
  }

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(state.at - 1));
  $("forward").addEventListener("click", () => go(state.at + 1));
  $("last").addEventListener("click", () => go(state.data ? state.data.steps.length : 0));
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    if (e.key === "ArrowLeft") go(state.at - 1);
    else if (e.key === "ArrowRight") go(state.at + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(state.data ? state.data.steps.length : 0);
    else return;
    e.preventDefault();
  });
  // the tap areas follow the graph's drawn width (a phone turned, a window resized)
  window.addEventListener("resize", () => {
    const graph = $("chance-graph");
    if (graph && state.data) graph.style.setProperty("--hit", hitRing(Math.max(1, state.data.steps.length)));
  });
  load();
})();
