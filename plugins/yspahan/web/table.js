// Yspahan's drawn table: the dice tower, the city's four neighbourhoods with souks and shops,
// the road with the supervisor, the caravan, and every player's standing; your cards apart.
"use strict";

(() => {
  const CELL = 17;
  // arm -> [dx, dy] of one step away from the crossing
  const STEP = { west: [-1, 0], east: [1, 0], north: [0, -1], south: [0, 1] };

  /** A game thing's id (souk, field, building, card) as the reader names it (the server's terms). */
  const T = (pub, id) => (pub && pub.terms && pub.terms[id]) || id;

  function owner(h, seat, text) {
    const node = h.el("span", "ys-cube " + h.seatClass(seat), text || h.initial(seat));
    node.title = h.seatName(seat);
    return node;
  }

  function tower(pub, h, L) {
    const box = h.el("section", "ys-tower");
    box.appendChild(h.el("h4", "", L("tower", "Tower")));
    if (!pub.rolled) box.appendChild(h.el("p", "muted small", L("not_rolled", "not rolled yet")));
    for (const row of [...pub.tower].reverse()) {
      const line = h.el("div", "ys-field");
      line.appendChild(h.el("span", "ys-field-name", T(pub, row.field)));
      const dice = h.el("span", "ys-dice");
      for (let i = 0; i < row.white; i++) dice.appendChild(h.el("span", "ys-die", String(row.value)));
      for (let i = 0; i < row.yellow; i++) {
        const die = h.el("span", "ys-die yellow", String(row.value));
        die.title = L("yellow", "yellow");
        die.appendChild(h.el("sup", "", "Y"));
        dice.appendChild(die);
      }
      if (!row.white && !row.yellow) dice.appendChild(h.el("span", "muted", "–"));
      line.appendChild(dice);
      box.appendChild(line);
    }
    return box;
  }

  function caravan(pub, h, L) {
    const box = h.el("section", "ys-caravan");
    box.appendChild(h.el("h4", "", L("caravan", "Caravan") + " " + pub.caravan.count + "/" + pub.caravan.cap));
    for (let r = 2; r >= 0; r--) {
      const line = h.el("div", "ys-caravan-row");
      line.appendChild(h.el("span", "ys-row-name", L("row", "row") + " " + (r + 1)));
      const cells = pub.caravan.rows[r] || [];
      for (let i = 0; i < pub.caravan.per_row; i++) {
        if (i < cells.length) line.appendChild(owner(h, cells[i]));
        else line.appendChild(h.el("span", "ys-cube empty", "·"));
      }
      box.appendChild(line);
    }
    return box;
  }

  function city(pub, h, L) {
    const box = h.el("section", "ys-city");
    for (const nb of pub.neighbourhoods) {
      const part = h.el("div", "ys-nb ys-nb-" + nb.name.toLowerCase());
      part.appendChild(h.el("h4", "", T(pub, nb.name)));
      for (const souk of nb.souks) {
        const line = h.el("div", "ys-souk" + (souk.complete ? " complete" : ""));
        const name = h.el("span", "ys-souk-name", T(pub, souk.id));
        name.appendChild(h.el("span", "ys-points", " " + souk.points));
        line.appendChild(name);
        const shops = h.el("span", "ys-shops");
        for (const shop of souk.shops) {
          const cell = shop.owner === null ? h.el("span", "ys-shop free", "") : owner(h, shop.owner);
          cell.classList.add("ys-shop");
          if (shop.space) {
            cell.classList.add("road");
            cell.title = (cell.title ? cell.title + " · " : "") + shop.space;
          }
          shops.appendChild(cell);
        }
        line.appendChild(shops);
        if (souk.complete) line.appendChild(h.el("span", "ys-done", "✓ " + L("done", "complete")));
        part.appendChild(line);
      }
      box.appendChild(part);
    }
    return box;
  }

  function road(pub, h, L) {
    const box = h.el("section", "ys-road");
    box.appendChild(h.el("h4", "", L("road", "Road") + " · " + L("supervisor", "Supervisor") + " " + pub.supervisor));
    const len = Object.fromEntries(pub.road.map((a) => [a.arm, a.spaces.length]));
    const left = len.west || 0;
    const top = len.north || 0;
    const width = (left + 1 + (len.east || 0)) * CELL + 2;
    const height = (top + 1 + (len.south || 0)) * CELL + 2;
    const pic = h.svg("svg", { viewBox: "0 0 " + width + " " + height, width, height, role: "img", class: "ys-road-map" });
    pic.appendChild(h.svg("title", {}, L("supervisor", "Supervisor") + ": " + pub.supervisor));
    const cells = [{ name: "X", x: left, y: top }];
    for (const arm of pub.road) {
      const [dx, dy] = STEP[arm.arm] || [0, 0];
      arm.spaces.forEach((name, i) => cells.push({ name, x: left + dx * (i + 1), y: top + dy * (i + 1) }));
    }
    for (const c of cells) {
      const here = c.name === pub.supervisor;
      pic.appendChild(
        h.svg("rect", { x: c.x * CELL + 1, y: c.y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 2, class: here ? "sup" : "space" })
      );
      pic.appendChild(h.svg("text", { x: c.x * CELL + CELL / 2 + 1, y: c.y * CELL + CELL / 2 + 4, class: here ? "sup-label" : "label" }, here ? "S" : c.name.slice(1) || "X"));
    }
    box.appendChild(pic);
    return box;
  }

  function players(pub, h, L) {
    const table = h.el("table", "ys-players");
    const head = h.el("tr");
    for (const k of ["", "score", "gold", "camels", "cards", "buildings"]) head.appendChild(h.el("th", "", k ? L(k, k) : ""));
    table.appendChild(head);
    pub.players.forEach((p, seat) => {
      const row = h.el("tr", h.seatClass(seat) + (pub.current === seat ? " to-act" : ""));
      const name = h.el("td", "ys-name");
      name.appendChild(owner(h, seat));
      name.appendChild(h.el("span", "", " " + (pub.current === seat ? "▶ " : "") + p.name + (pub.start === seat ? " (" + L("start", "start player") + ")" : "")));
      row.appendChild(name);
      for (const v of [p.score, p.gold, p.camels, p.cards]) row.appendChild(h.el("td", "num", String(v)));
      row.appendChild(h.el("td", "ys-buildings", p.buildings.length ? p.buildings.map((b) => T(pub, b)).join(", ") : L("none", "none")));
      table.appendChild(row);
    });
    return table;
  }

  function board(pub, h) {
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "ys-table");
    const head = h.el("div", "ys-head");
    head.appendChild(h.el("strong", "", L("week", "Week") + " " + pub.week + "/3 · " + L("day", "Day") + " " + pub.day + "/7"));
    head.appendChild(h.el("span", "muted", " · " + L("start", "start player") + ": " + h.seatName(pub.start)));
    root.appendChild(head);
    const grid = h.el("div", "ys-grid");
    const side = h.el("div", "ys-side");
    side.append(tower(pub, h, L), caravan(pub, h, L));
    grid.append(side, city(pub, h, L));
    root.appendChild(grid);
    const bottom = h.el("div", "ys-bottom");
    bottom.append(road(pub, h, L), players(pub, h, L));
    root.appendChild(bottom);
    return root;
  }

  function hand(priv, pub, h) {
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "ys-hand");
    const cards = h.el("ul", "ys-cards");
    if (!priv.cards.length) cards.appendChild(h.el("li", "muted", L("no_cards", "no cards")));
    for (const c of priv.cards) {
      const li = h.el("li", "ys-card");
      li.appendChild(h.el("strong", "", T(pub, c.id)));
      li.appendChild(h.el("span", "", " — " + c.text));
      cards.appendChild(li);
    }
    root.appendChild(cards);
    if (priv.to_build.length) {
      const line = h.el("p", "ys-to-build", L("to_build", "Still to build") + ": ");
      priv.to_build.forEach((b, i) => {
        const item = h.el("abbr", "", T(pub, b.id));
        item.title = b.text;
        line.appendChild(item);
        if (i < priv.to_build.length - 1) line.appendChild(document.createTextNode(", "));
      });
      root.appendChild(line);
    }
    return root;
  }

  window.bazaarbotTables.register("yspahan", { board, hand });
})();
