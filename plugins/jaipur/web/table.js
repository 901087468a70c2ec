// Jaipur's drawn table: market, token piles, bonus piles, players; your hand as cards.
// A move can be built by picking cards: market cards to take, hand cards or camels to give
// or sell. Only cards that still lead to a legal command can be picked.
"use strict";

(() => {
  const KINDS = ["diamond", "gold", "silver", "cloth", "spice", "leather", "camel"];
  const PLURAL = { diamonds: "diamond", camels: "camel" };
  const SHORT = { diamond: "Di", gold: "Go", silver: "Si", cloth: "Cl", spice: "Sp", leather: "Le", camel: "Ca" };

  // the cards picked for the move being built; forgotten when the table changes
  const pick = { key: null, market: new Set(), hand: new Set(), herd: new Set() };

  function kindOf(word) {
    const w = PLURAL[word] || word;
    return KINDS.includes(w) ? w : null;
  }

  function counts(words) {
    const out = {};
    let n = 1;
    for (const word of words) {
      if (/^\d+$/.test(word)) {
        n = Number(word);
        continue;
      }
      const kind = kindOf(word);
      if (!kind) return null;
      out[kind] = (out[kind] || 0) + n;
      n = 1;
    }
    return out;
  }

  // a legal command as the cards it moves: m from the market, h from your hand and herd
  function shape(command, pub) {
    const words = command.split(" ");
    if (words[0] === "sell") {
      const h = counts(words.slice(1));
      return h ? { command, m: {}, h } : null;
    }
    if (words[0] !== "take") return null;
    if (command === "take camels") {
      const camels = pub.market.filter((k) => k === "camel").length;
      return { command, m: { camel: camels }, h: {} };
    }
    const give = words.indexOf("give");
    const m = counts(give < 0 ? words.slice(1) : words.slice(1, give));
    const h = give < 0 ? {} : counts(words.slice(give + 1));
    return m && h ? { command, m, h } : null;
  }

  function picked(pub, priv) {
    const m = {};
    const h = {};
    for (const i of pick.market) m[pub.market[i]] = (m[pub.market[i]] || 0) + 1;
    for (const i of pick.hand) h[priv.hand[i]] = (h[priv.hand[i]] || 0) + 1;
    if (pick.herd.size) h.camel = pick.herd.size;
    return { m, h };
  }

  function within(a, b) {
    return Object.entries(a).every(([k, n]) => (b[k] || 0) >= n);
  }

  function same(a, b) {
    return within(a, b) && within(b, a);
  }

  function shapes(pub, h) {
    return h.commands().map((c) => shape(c, pub)).filter(Boolean);
  }

  function reachable(sel, all) {
    return all.some((s) => within(sel.m, s.m) && within(sel.h, s.h));
  }

  function exact(sel, all) {
    return all.find((s) => same(sel.m, s.m) && same(sel.h, s.h)) || null;
  }

  function fresh(h) {
    const key = String(h.view.game_id) + ":" + String(h.view.moves);
    if (pick.key !== key) {
      pick.key = key;
      pick.market.clear();
      pick.hand.clear();
      pick.herd.clear();
    }
  }

  /** The two letters on a card: from its name in the reader's language (Gewürz: Ge), else the English. */
  function short(h, kind) {
    const name = h.label(kind, "");
    return name && name !== kind ? name.charAt(0).toUpperCase() + name.charAt(1) : SHORT[kind] || "?";
  }

  function card(h, kind, label, extra) {
    const node = h.el(extra && extra.button ? "button" : "div", "jp-card jp-" + kind + (extra && extra.cls ? " " + extra.cls : ""));
    if (extra && extra.button) node.type = "button";
    node.appendChild(h.el("span", "jp-short", short(h, kind)));
    node.appendChild(h.el("span", "jp-name", label));
    return node;
  }

  // a card that can be picked: pressed when picked, disabled when it leads to no legal move
  function pickable(h, node, set, index, trial, all, pub) {
    const on = set.has(index);
    node.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) node.classList.add("picked");
    node.disabled = !on && !reachable(trial(), all);
    node.addEventListener("click", () => {
      if (set.has(index)) set.delete(index);
      else set.add(index);
      h.rerender();
    });
    return node;
  }

  /** What the last move took from the market (and gave to it), read from its English text. */
  function lastTaken(h) {
    if (h.view.phase !== "running" || !h.view.last) return null;
    const words = String(h.view.last.text).split(" ");
    if (words[0] !== "take") return null;
    if (words[1] === "camels" && words.length === 2) return { m: { camel: 0 }, h: {} };
    const give = words.indexOf("give");
    const m = counts(give < 0 ? words.slice(1) : words.slice(1, give));
    const g = give < 0 ? {} : counts(words.slice(give + 1));
    return m && g ? { m, h: g } : null;
  }

  /** The cards the last move took, drawn beside the market with the last-move mark. */
  function takenStrip(h, taken) {
    const strip = h.el("div", "jp-taken last-here");
    strip.title = t("last move") + ": " + (h.view.last.said || h.view.last.text);
    strip.appendChild(h.el("span", "jp-taken-label", t("last move")));
    for (const [kind, n] of Object.entries(taken.m)) {
      // "take camels" takes them all; the count is gone from the market, so one card stands for them
      for (let i = 0; i < Math.max(1, n); i += 1) strip.appendChild(card(h, kind, labelOf(h, kind), { cls: "jp-took" }));
    }
    return strip;
  }

  function labelOf(h, kind) {
    return h.label(kind, kind);
  }

  function board(pub, h) {
    fresh(h);
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "jp-table");
    const head = h.el("div", "jp-head");
    head.appendChild(h.el("strong", "", L("round", "Round") + " " + pub.round));
    const seals = h.el("span", "jp-seals");
    seals.appendChild(h.el("span", "muted", L("seals", "Seals") + ": "));
    pub.players.forEach((p, seat) => {
      const s = h.el("span", "jp-seal-count " + h.seatClass(seat), p.name + " " + "★".repeat(p.seals) + "☆".repeat(Math.max(0, 2 - p.seals)));
      s.title = p.name + ": " + p.seals;
      seals.appendChild(s);
    });
    head.appendChild(seals);
    root.appendChild(head);

    // market and deck
    const mine = h.commands().length > 0 && h.you !== null;
    const all = mine ? shapes(pub, h) : [];
    const market = h.el("div", "jp-row jp-market" + (mine ? " acting" : ""));
    market.appendChild(h.el("span", "jp-label", L("market", "Market")));
    const cards = h.el("div", "jp-cards");
    const camels = pub.market.map((k, i) => (k === "camel" ? i : -1)).filter((i) => i >= 0);
    const taken = lastTaken(h);
    const given = Object.assign({}, taken ? taken.h : {});
    pub.market.forEach((kind, i) => {
      // the cards an exchange gave are in the market now: point them out
      const came = (given[kind] || 0) > 0;
      if (came) given[kind] -= 1;
      const node = card(h, kind, L(kind, kind), { button: mine, cls: came ? "last-here jp-came" : "" });
      if (mine) {
        const priv = h.you.private;
        if (kind === "camel") {
          // the camels are taken all together
          const on = camels.every((c) => pick.market.has(c));
          node.setAttribute("aria-pressed", on ? "true" : "false");
          if (on) node.classList.add("picked");
          const trial = () => {
            const sel = picked(pub, priv);
            sel.m.camel = camels.length;
            return sel;
          };
          node.disabled = !on && !reachable(trial(), all);
          node.addEventListener("click", () => {
            for (const c of camels) on ? pick.market.delete(c) : pick.market.add(c);
            h.rerender();
          });
        } else {
          pickable(h, node, pick.market, i, () => {
            const sel = picked(pub, priv);
            sel.m[kind] = (sel.m[kind] || 0) + 1;
            return sel;
          }, all, pub);
        }
      }
      cards.appendChild(node);
    });
    market.appendChild(cards);
    const deck = h.el("div", "jp-deck");
    deck.appendChild(h.el("span", "jp-deck-n", String(pub.deck)));
    deck.appendChild(h.el("span", "jp-deck-label", L("deck", "Deck")));
    market.appendChild(deck);
    // after the deck, so on a narrow screen it is the mark that wraps, not the deck
    if (taken) market.appendChild(takenStrip(h, taken));
    root.appendChild(market);

    // goods token piles: top value first
    const piles = h.el("div", "jp-row jp-piles");
    piles.appendChild(h.el("span", "jp-label", L("tokens", "Goods tokens")));
    const grid = h.el("div", "jp-pile-grid");
    const last = h.view.phase === "running" && h.view.last ? String(h.view.last.text).split(" ") : [];
    const sold = last[0] === "sell" ? kindOf(last[last.length - 1]) : null;
    for (const pile of pub.piles) {
      const row = h.el("div", "jp-pile jp-" + pile.good + (pile.good === sold ? " last-here" : ""));
      row.appendChild(h.el("span", "jp-short", short(h, pile.good)));
      row.appendChild(h.el("span", "jp-pile-name", L(pile.good, pile.good)));
      const values = h.el("span", "jp-values");
      if (!pile.left.length) values.appendChild(h.el("span", "muted", "— " + L("none", "none")));
      pile.left.forEach((v, i) => values.appendChild(h.el("span", i === 0 ? "jp-token jp-top" : "jp-token", String(v))));
      row.appendChild(values);
      grid.appendChild(row);
    }
    piles.appendChild(grid);
    root.appendChild(piles);

    const bonus = h.el("div", "jp-row jp-bonus");
    bonus.appendChild(h.el("span", "jp-label", L("bonus", "Bonus tokens")));
    for (const b of pub.bonus_piles) bonus.appendChild(h.el("span", "jp-bonus-pile", b.label + " ×" + b.left));
    bonus.appendChild(h.el("span", "jp-bonus-pile jp-camel-token", L("camel_token", "Camel token") + " " + pub.camel_token));
    root.appendChild(bonus);

    // players
    const players = h.el("div", "jp-players");
    pub.players.forEach((p, seat) => {
      const box = h.el("div", "jp-player " + h.seatClass(seat) + (pub.turn === seat ? " to-act" : ""));
      box.dataset.seat = String(seat); // the page puts the turn clock's mark on it
      box.appendChild(h.el("strong", "jp-player-name", (pub.turn === seat ? "▶ " : "") + p.name));
      const facts = [
        L("hand", "hand") + " " + p.hand + "/" + pub.hand_limit,
        L("herd", "herd") + " " + p.herd,
        p.points + " " + L("rupees", "rupees") + " (" + p.tokens + ")",
        L("bonus", "Bonus tokens") + " " + p.bonus.join("/"),
      ];
      for (const f of facts) box.appendChild(h.el("span", "jp-fact", f));
      players.appendChild(box);
    });
    root.appendChild(players);
    if (pub.rounds.length) {
      const last = pub.rounds[pub.rounds.length - 1];
      root.appendChild(h.el("p", "jp-last-round", L("round", "Round") + " " + last.round + ": " + last.text));
    }
    return root;
  }

  function hand(priv, pub, h) {
    fresh(h);
    const L = (k, f) => h.label(k, f);
    const mine = h.commands().length > 0;
    const all = mine ? shapes(pub, h) : [];
    const root = h.el("div", "jp-hand");
    const cards = h.el("div", "jp-cards jp-goods");
    cards.setAttribute("aria-label", L("your_hand", "Your hand"));
    priv.hand.forEach((kind, i) => {
      const node = card(h, kind, L(kind, kind), { button: mine });
      if (mine) {
        pickable(h, node, pick.hand, i, () => {
          const sel = picked(pub, priv);
          sel.h[kind] = (sel.h[kind] || 0) + 1;
          return sel;
        }, all, pub);
      }
      cards.appendChild(node);
    });
    if (!priv.hand.length) cards.appendChild(h.el("span", "muted", "—"));
    root.appendChild(cards);
    const herd = h.el("div", "jp-cards jp-herd");
    herd.appendChild(h.el("span", "jp-label", L("your_herd", "Your herd") + " (" + priv.herd + ")"));
    for (let i = 0; i < priv.herd; i++) {
      const node = card(h, "camel", L("camel", "camel"), { button: mine, cls: "small" });
      if (mine) {
        pickable(h, node, pick.herd, i, () => {
          const sel = picked(pub, priv);
          sel.h.camel = (sel.h.camel || 0) + 1;
          return sel;
        }, all, pub);
      }
      herd.appendChild(node);
    }
    root.appendChild(herd);
    const bonus = priv.bonus.length ? priv.bonus.map((b) => b.label + " " + b.value).join(", ") : L("none", "none");
    root.appendChild(h.el("p", "jp-own-bonus", L("your_bonus", "Your bonus tokens") + ": " + bonus));
    return root;
  }

  const t = (text, args) => window.bazaarbotI18n.t(text, args);

  function goodsText(counts, h) {
    return Object.entries(counts)
      .map(([kind, n]) => (n > 1 ? n + " " : "") + h.label(kind, kind))
      .join(", ");
  }

  /** What the cards picked so far make, while they are not a whole move yet: what to pick next. */
  function partial(sel, h) {
    const taking = Object.keys(sel.m).length > 0;
    const giving = Object.keys(sel.h).length > 0;
    if (taking && giving) return t("take {take}, give {give} — pick as many cards to give as you take", { take: goodsText(sel.m, h), give: goodsText(sel.h, h) });
    if (taking) return t("take {take} — now pick as many cards to give from your hand or herd", { take: goodsText(sel.m, h) });
    return t("{give} — pick more of the same good to sell, or market cards to exchange for them", { give: goodsText(sel.h, h) });
  }

  // the command the picked cards make, shown as text; playable only when it is legal
  function picker(pub, priv, h) {
    fresh(h);
    const sel = picked(pub, priv);
    const found = exact(sel, shapes(pub, h));
    const any = pick.market.size + pick.hand.size + pick.herd.size > 0;
    const t = h.t || ((text) => text);
    const row = h.el("div", "verb-group jp-picker");
    row.appendChild(h.el("span", "verb", t("pick")));
    const shown = found ? (h.said ? h.said(found.command) : found.command) : "";
    const text = found ? shown : any ? partial(sel, h) : t("Pick cards in the market and in your hand.");
    const preview = h.el("code", "jp-preview" + (found ? " ready" : ""), text);
    preview.id = "command-preview";
    row.appendChild(preview);
    const play = h.button(t("Play"), () => {
      if (found) h.play(found.command);
    }, "btn primary");
    play.id = "play-picked";
    play.disabled = !found;
    row.appendChild(play);
    const clear = h.button(t("Clear"), () => {
      pick.market.clear();
      pick.hand.clear();
      pick.herd.clear();
      h.rerender();
    });
    clear.disabled = !any;
    row.appendChild(clear);
    return row;
  }

  window.bazaarbotTables.register("jaipur", { board, hand, picker });
})();
