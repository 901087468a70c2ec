// Bazaar's drawn table: the exchange rows (both sides), the four fields with their top
// combination, the price level, and every player's stones and score. Each stone shows its
// colour and a shape of its own (no letter: an initial fits one language only), and its
// colour's name in the reader's language on hover.
"use strict";

(() => {
  const SHAPE = { blue: "■", green: "▲", red: "◆", white: "●", yellow: "★" };

  function stones(h, list, L, extra) {
    const box = h.el("span", "bz-stones" + (extra ? " " + extra : ""));
    for (const colour of list) {
      const stone = h.el("span", "bz-stone bz-" + colour, SHAPE[colour] || "?");
      stone.title = L(colour, colour);
      box.appendChild(stone);
    }
    if (!list.length) box.appendChild(h.el("span", "muted", "–"));
    return box;
  }

  function board(pub, h) {
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "bz-table");
    const head = h.el("div", "bz-head");
    head.appendChild(h.el("strong", "", L("sold", "sold") + " " + pub.sold + "/" + pub.total));
    head.appendChild(h.el("span", "bz-rate" + (pub.high_rates ? " high" : ""), pub.high_rates ? "▲ " + L("high_rates") : L("normal_rates")));
    root.appendChild(head);

    const grid = h.el("div", "bz-grid");
    // where the reader acts now: the exchange for a trade, the fields for a purchase
    const verbs = new Set(h.commands().map((c) => c.split(" ")[0]));
    const rows = h.el("section", "bz-exchange" + (verbs.has("trade") || (verbs.size && !verbs.has("buy")) ? " acting" : ""));
    rows.appendChild(h.el("h4", "", L("exchange", "Exchange")));
    const list = h.el("ol", "bz-rows");
    const last = h.view.phase === "running" && h.view.last ? String(h.view.last.text).split(" ") : [];
    const lastRow = last[0] === "trade" ? Number(last[1]) - 1 : -1;
    const lastField = last[0] === "buy" ? Number(last[1]) - 1 : -1;
    pub.rows.forEach((row, i) => {
      const li = h.el("li", "bz-row" + (i === lastRow ? " last-here" : ""));
      li.append(stones(h, row.left, L, "left"), h.el("span", "bz-eq", "⇄"), stones(h, row.right, L, "right"));
      list.appendChild(li);
    });
    rows.appendChild(list);
    grid.appendChild(rows);

    const fields = h.el("section", "bz-fields" + (verbs.has("buy") && !verbs.has("trade") ? " acting" : ""));
    fields.appendChild(h.el("h4", "", L("fields", "Fields")));
    pub.fields.forEach((field, i) => {
      const box = h.el("div", "bz-field" + (field.valuable ? " valuable" : "") + (field.top ? "" : " sold-out") + (i === lastField ? " last-here" : ""));
      box.appendChild(h.el("span", "bz-field-n", String(i + 1)));
      if (field.top) {
        box.appendChild(stones(h, field.top, L));
        if (field.valuable) box.appendChild(h.el("span", "bz-valuable", "★ " + L("valuable", "valuable")));
      } else box.appendChild(h.el("span", "muted", L("sold_out", "sold out")));
      box.appendChild(h.el("span", "bz-left", field.left + "/" + field.per_field + " " + L("left", "left")));
      fields.appendChild(box);
    });
    const prices = h.el("table", "bz-prices");
    const head2 = h.el("tr");
    head2.appendChild(h.el("th", "", L("leftover", "stones left after buying")));
    for (const n of ["0", "1", "2", "3+"]) head2.appendChild(h.el("th", "num", n));
    prices.appendChild(head2);
    for (const [key, label] of [["normal", L("normal", "normal")], ["valuable", "★ " + L("valuable", "valuable")]]) {
      const tr = h.el("tr");
      tr.appendChild(h.el("td", "", label));
      for (const v of pub.prices[key]) tr.appendChild(h.el("td", "num", String(v)));
      prices.appendChild(tr);
    }
    fields.appendChild(h.el("h4", "", L("prices", "Prices") + " (" + L("pts", "pts") + ")"));
    fields.appendChild(prices);
    grid.appendChild(fields);
    // on a phone the part the turn acts on comes first, under the reader's stones, not below the fold
    if (h.narrow && fields.classList.contains("acting")) grid.prepend(fields);
    root.appendChild(grid);

    const players = h.el("div", "bz-players");
    pub.players.forEach((p, seat) => {
      const box = h.el("div", "bz-player " + h.seatClass(seat) + (pub.turn === seat ? " to-act" : ""));
      box.dataset.seat = String(seat); // the page puts the turn clock's mark on it
      const name = h.el("strong", "bz-player-name", (pub.turn === seat ? "▶ " : "") + p.name);
      box.appendChild(name);
      box.appendChild(h.el("span", "bz-score", p.score + " " + L("pts", "pts") + " · " + L("bought", "bought") + " " + p.bought));
      box.appendChild(stones(h, p.stones, L));
      players.appendChild(box);
    });
    root.appendChild(players);
    if (pub.bank) {
      const bank = h.el("div", "bz-bank");
      bank.appendChild(h.el("span", "muted", L("bank", "Bank") + ": "));
      bank.appendChild(stones(h, pub.bank, L, "small"));
      root.appendChild(bank);
    }
    return root;
  }

  /** Your own stones and score beside your moves (Bazaar has no secrets: everybody sees them too). */
  function hand(_priv, pub, h) {
    const L = (k, f) => h.label(k, f);
    const seat = h.you ? h.you.seat : null;
    const p = typeof seat === "number" ? pub.players[seat] : null;
    if (!p) return null;
    const box = h.el("div", "bz-hand");
    box.appendChild(stones(h, p.stones, L));
    box.appendChild(h.el("span", "bz-score", p.score + " " + L("pts", "pts") + " · " + L("bought", "bought") + " " + p.bought));
    return box;
  }

  /** Stones as a count of each colour in the reader's words: "2 green + 1 red". */
  function group(list, h) {
    const counts = new Map();
    for (const colour of list) counts.set(colour, (counts.get(colour) || 0) + 1);
    return [...counts].map(([colour, n]) => n + " " + h.term(colour)).join(" + ");
  }

  /** A button's words for a command: a trade says what it gives and what it gets (its row, the
   * right side for "back"), so a newcomer need not read "row 2" or "5 back" off the exchange; a
   * purchase names its field. */
  function label(command, h) {
    const w = command.split(" ");
    const t = window.bazaarbotI18n.t;
    if (w[0] === "buy" && w.length === 2) return t("field {n}", { n: w[1] }); // not a bare "1"
    if (w[0] !== "trade" || w.length < 2) return null;
    const row = h && h.view.public && h.view.public.rows ? h.view.public.rows[Number(w[1]) - 1] : null;
    if (!row) return t("row {n}", { n: w[1] });
    const back = w[2] === "back";
    const [give, get] = back ? [row.right, row.left] : [row.left, row.right];
    return t("row {n}: give {give}, get {get}", { n: w[1], give: group(give, h), get: group(get, h) });
  }

  window.bazaarbotTables.register("bazaar", { board, hand, label });
})();
