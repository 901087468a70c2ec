// Yspahan's drawn table: the dice tower, the city's four neighbourhoods with souks and shops,
// the road with the supervisor, the caravan, and every player's standing; your cards apart.
"use strict";

(() => {
  // arm -> [dx, dy] of one step away from the crossing
  const STEP = { west: [-1, 0], east: [1, 0], north: [0, -1], south: [0, 1] };

  function owner(h, seat, text) {
    const node = h.el("span", "ys-cube " + h.seatClass(seat), text || h.initial(seat));
    node.title = h.seatName(seat);
    return node;
  }

  const t = (text, args) => window.bazaarbotI18n.t(text, args);
  // a name from the view's terms; a page whose helpers have none (an older one) shows the id
  const term = (h, id) => (h.term ? h.term(id) : String(id));

  // the commands that take a dice group of the tower: take/deliver by field, draw by the dice's value
  function groupCommands(h, row) {
    const mine = [];
    for (const c of h.commands()) {
      const w = c.split(" ");
      if ((w[0] === "take" || w[0] === "deliver") && w[1] === row.field) mine.push(c);
      else if (w[0] === "draw" && Number(w[1]) === row.value) mine.push(c);
    }
    return mine;
  }

  function tower(pub, h, L) {
    const acting = pub.tower.some((row) => groupCommands(h, row).length > 0);
    const box = h.el("section", "ys-tower" + (acting ? " acting" : ""));
    box.appendChild(h.el("h4", "", L("tower", "Tower")));
    if (!pub.rolled) box.appendChild(h.el("p", "muted small", L("not_rolled", "not rolled yet")));
    const two = pub.players.length === 2;
    let yellow = 0;
    for (const row of [...pub.tower].reverse()) {
      const line = h.el("div", "ys-field" + (row.white || row.yellow ? "" : " empty"));
      line.appendChild(h.el("span", "ys-field-name", term(h, row.field)));
      const dice = h.el("span", "ys-dice");
      for (let i = 0; i < row.white; i++) dice.appendChild(h.el("span", "ys-die", String(row.value)));
      for (let i = 0; i < row.yellow; i++) {
        const die = h.el("span", "ys-die yellow" + (two ? " reserved " + h.seatClass(pub.start) : ""), String(row.value));
        die.title = two ? t("yellow: {name}'s alone", { name: h.seatName(pub.start) }) : L("yellow", "yellow");
        die.appendChild(h.el("sup", "", "Y"));
        dice.appendChild(die);
      }
      yellow += row.yellow;
      if (!row.white && !row.yellow) dice.appendChild(h.el("span", "muted", "–"));
      line.appendChild(dice);
      // the group is the thing you pick: its actions sit on it
      for (const command of groupCommands(h, row)) {
        const words = label(command, h) || (h.said ? h.said(command) : command);
        // on a phone the row names the group: the button says only what it does, in one word
        const b = h.button(h.narrow ? short(command) : words, () => h.play(command), "btn move ys-act");
        b.dataset.command = command;
        b.title = h.said ? h.said(command) : command; // as the reader could type it
        if (h.narrow) b.setAttribute("aria-label", words);
        line.appendChild(b);
      }
      box.appendChild(line);
    }
    if (two && yellow) {
      box.appendChild(
        h.el("p", "ys-rule", t("2 players: the yellow dice are {name}'s alone (the start player). The other player may not take a group of only yellow dice; in a mixed group they count for nothing.", { name: h.seatName(pub.start) }))
      );
    }
    return box;
  }

  /** A tower group's action in one word (the row it sits on says which group). */
  function short(command) {
    const verb = command.split(" ")[0];
    if (verb === "take") return t("take");
    if (verb === "deliver") return t("deliver");
    return t("draw");
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

  // where each quarter lies around the crossing, by the arms its shops face
  const QUADRANT = { chests: "nw", vases: "ne", sacks: "sw", barrels: "se" };

  // the place commands the map's free shops offer in this drawing (the generic controls skip them)
  let offered = new Set();

  /** The command that puts a cube in this free shop, if it is legal now (one button per interior). */
  function placeCommand(souk, shop, legal, used) {
    if (shop.space) return shop.space.split("/").map((sp) => "place " + souk.id + " " + sp).find((c) => legal.has(c)) || null;
    const command = "place " + souk.id;
    if (used.has(command) || !legal.has(command)) return null;
    used.add(command);
    return command;
  }

  /** The last move's words while the game runs (English, as played), else none. */
  function lastWords(h) {
    return h.view.phase === "running" && h.view.last ? String(h.view.last.text).split(" ") : [];
  }

  /** Where the last move put a cube: its souk and, for a shop on the road, the space named. */
  function lastPlaced(h) {
    const w = lastWords(h);
    if (w[0] === "place") return { souk: w[1], space: w[2] || null };
    if (w[0] === "play" && w[1] === "souk_cube") return { souk: w[2], space: w[3] || null };
    return null;
  }

  /** The shop of this souk the last move filled: the named road shop, else the last inner shop taken. */
  function placedShop(souk, placed) {
    if (!placed || placed.souk !== souk.id) return null;
    if (placed.space) return souk.shops.find((s) => s.owner !== null && s.space && s.space.split("/").includes(placed.space)) || null;
    const inner = souk.shops.filter((s) => !s.space && s.owner !== null);
    return inner.length ? inner[inner.length - 1] : null;
  }

  // the road space or souk whose facts are shown under the map: a tap chooses it, another tap lets go
  const choice = { key: null, space: null, souk: null };

  /** Forget the choice when the table has moved on (another game, another move). */
  function keepChoice(h) {
    const key = String(h.view.game_id) + ":" + String(h.view.moves);
    if (choice.key === key) return;
    choice.key = key;
    choice.space = null;
    choice.souk = null;
  }

  /** Who sits in a shop, in words: the seat's name, else "free". */
  function sitter(h, seat) {
    return seat === null || seat === undefined ? t("free") : h.seatName(seat);
  }

  /** A souk's facts in one line: its points, then each shop's sitter (and its road space). */
  function soukFacts(souk, h, L) {
    const shops = souk.shops.map((shop) => sitter(h, shop.owner) + (shop.space ? " (" + shop.space + ")" : ""));
    const done = souk.complete ? " · " + L("done", "complete") : "";
    return t("{souk}, {points} points: {shops}", { souk: term(h, souk.id), points: souk.points, shops: shops.join(", ") }) + done;
  }

  function quarter(nb, h, L) {
    const legal = new Set(h.commands().filter((c) => c.startsWith("place ")));
    const used = new Set();
    const placed = lastPlaced(h);
    const souks = new Set(nb.souks.map((souk) => souk.id));
    const acting = [...legal].some((c) => souks.has(c.split(" ")[1]));
    const part = h.el("div", "ys-nb ys-nb-" + nb.name.toLowerCase() + (acting ? " acting" : ""));
    part.appendChild(h.el("h4", "", term(h, nb.name)));
    for (const souk of nb.souks) {
      const line = h.el("div", "ys-souk" + (souk.complete ? " complete" : ""));
      line.dataset.souk = souk.id;
      // the souk's name is a button: a tap shows who sits in each of its shops, in words
      const name = h.button("", () => {
        choice.souk = choice.souk === souk.id ? null : souk.id;
        choice.space = null;
        h.rerender();
        showFacts();
      }, "ys-souk-name");
      name.append(h.el("span", "", term(h, souk.id)), h.el("span", "ys-points", String(souk.points)));
      name.setAttribute("aria-label", soukFacts(souk, h, L));
      name.setAttribute("aria-pressed", choice.souk === souk.id ? "true" : "false");
      name.setAttribute("aria-controls", "ys-facts");
      line.appendChild(name);
      const shops = h.el("span", "ys-shops");
      const fresh = placedShop(souk, placed);
      for (const shop of souk.shops) {
        const command = shop.owner === null ? placeCommand(souk, shop, legal, used) : null;
        let cell;
        if (command) {
          cell = h.button("", () => h.play(command), "btn move ys-shop free ys-place");
          cell.dataset.command = command;
          cell.setAttribute("aria-label", h.said ? h.said(command) : command);
          offered.add(command);
        } else {
          cell = shop.owner === null ? h.el("span", "ys-shop free", "") : owner(h, shop.owner);
          cell.removeAttribute("title");
          cell.setAttribute("aria-hidden", "true"); // the souk's button says who sits here, in words
        }
        cell.classList.add("ys-shop");
        if (shop === fresh) cell.classList.add("last-here");
        if (shop.space) cell.classList.add("road");
        shops.appendChild(cell);
      }
      line.appendChild(shops);
      if (souk.complete) line.appendChild(h.el("span", "ys-done", "✓ " + L("done", "complete")));
      part.appendChild(line);
    }
    return part;
  }

  function alongTheRoad(pub) {
    const along = {};
    for (const nb of pub.neighbourhoods) {
      for (const souk of nb.souks) {
        for (const shop of souk.shops) {
          if (!shop.space) continue;
          for (const space of shop.space.split("/")) {
            const list = along[space] || (along[space] = []);
            list.push({ nb: nb.name, souk: souk.id, owner: shop.owner });
          }
        }
      }
    }
    return along;
  }

  /** A road space's facts in one line: the supervisor, the shops beside it and who sits there, the moves there. */
  function spaceFacts(name, here, shops, options, h, L) {
    const parts = [name];
    if (here) parts.push(L("supervisor", "Supervisor"));
    for (const s of shops) parts.push(term(h, s.souk) + ": " + sitter(h, s.owner));
    for (const m of options) parts.push(moveLabel(m, h));
    return parts.join(" · ");
  }

  /** One space of the road as a button: a tap shows its facts and the moves of the supervisor there. */
  function roadSpace(c, pub, h, L, along, to, moved, full) {
    const here = c.name === pub.supervisor;
    const options = to[c.name] || [];
    const cell = h.button("", () => {
      choice.space = choice.space === c.name ? null : c.name;
      choice.souk = null;
      h.rerender();
      showFacts(choice.space === c.name && options.length > 0);
    }, "ys-space" + (options.length ? " dest" : ""));
    if (here) cell.classList.add("sup");
    if (here && moved) cell.classList.add("last-here");
    if (choice.space === c.name) cell.classList.add("chosen");
    cell.dataset.space = c.name;
    const shown = full ? (c.name === "X" ? "✕" : c.name) : c.name.slice(1) || "✕";
    cell.appendChild(h.el("span", "ys-space-name", here ? "S" : shown));
    const shops = along[c.name] || [];
    if (shops.length) cell.classList.add("ys-along-" + shops[0].nb.toLowerCase());
    for (const shop of shops) if (shop.owner !== null) cell.appendChild(h.el("span", "ys-dot " + h.seatClass(shop.owner)));
    if (options.length) {
      const cheapest = Math.min(...options.map((m) => m.gold));
      if (cheapest) cell.appendChild(h.el("span", "ys-cost", cheapest + "g"));
    }
    cell.setAttribute("aria-label", spaceFacts(c.name, here, shops, options, h, L));
    cell.setAttribute("aria-pressed", choice.space === c.name ? "true" : "false");
    cell.setAttribute("aria-controls", "ys-facts");
    return cell;
  }

  /** The facts just chosen, scrolled into view when they lie below (or above) the screen; with
   * ``toMove``, the keyboard's focus on the first move they offer. */
  function showFacts(toMove) {
    const box = document.getElementById("ys-facts");
    if (!box) return;
    box.scrollIntoView({ block: "nearest" });
    // a lit space chosen: the keyboard goes on to its first move, not through the rest of the road
    const first = toMove ? box.querySelector("button.ys-move-here") : null;
    if (first) first.focus({ preventScroll: true });
  }

  /** What the chosen road space or souk holds, in words, and the supervisor's moves to that space. */
  function facts(pub, h, L, along, to) {
    const box = h.el("div", "ys-facts");
    box.id = "ys-facts";
    box.setAttribute("aria-live", "polite");
    const souk = choice.souk && pub.neighbourhoods.flatMap((nb) => nb.souks).find((s) => s.id === choice.souk);
    if (souk) {
      box.appendChild(h.el("p", "", soukFacts(souk, h, L)));
      return box;
    }
    const space = choice.space;
    if (!space) {
      const moving = Object.keys(to).length > 0;
      box.appendChild(h.el("p", "muted small", moving
        ? t("Tap a lit space of the road to move the supervisor there (the gold it costs is on it); tap any space or souk to read who sits there.")
        : t("Tap a space of the road or a souk to read who sits there.")));
      return box;
    }
    const here = space === pub.supervisor;
    box.appendChild(h.el("strong", "", space + (here ? " · " + L("supervisor", "Supervisor") : "")));
    const shops = along[space] || [];
    box.appendChild(h.el("p", "", shops.length
      ? shops.map((s) => term(h, s.souk) + ": " + sitter(h, s.owner)).join(" · ")
      : t("No souk along this space.")));
    const options = to[space] || [];
    if (options.length) {
      const pick = h.el("div", "verb-group ys-move-choice");
      for (const m of options) {
        const b = h.button(t("Move here {how}", { how: moveLabel(m, h) }), () => h.play(m.command), "btn move ys-move-here");
        b.dataset.command = m.command;
        b.title = h.said ? h.said(m.command) : m.command; // as the reader could type it
        pick.appendChild(b);
      }
      box.appendChild(pick);
    } else if (Object.keys(to).length) box.appendChild(h.el("p", "muted small", t("The supervisor cannot reach this space now.")));
    return box;
  }

  /** A phone's road: a row of finger-sized spaces per arm, from the crossing outward. */
  function roadRows(pub, h, L, along, to, moved) {
    const rows = h.el("div", "ys-road-rows");
    const north = pub.road.find((a) => a.arm === "north");
    const order = [north, ...pub.road.filter((a) => a.arm !== "north")].filter(Boolean);
    order.forEach((arm, i) => {
      const row = h.el("div", "ys-road-row ys-arm-" + arm.arm);
      if (i === 0) row.appendChild(roadSpace({ name: "X" }, pub, h, L, along, to, moved, true));
      for (const name of arm.spaces) row.appendChild(roadSpace({ name }, pub, h, L, along, to, moved, true));
      rows.appendChild(row);
    });
    return rows;
  }

  /** The city: the road's cross, the supervisor on it, and the four quarters in the corners it makes. */
  function cityMap(pub, h, L) {
    const box = h.el("section", "ys-map ys-city ys-road");
    box.appendChild(h.el("h4", "", L("road", "Road") + " · " + L("supervisor", "Supervisor") + " " + pub.supervisor));
    keepChoice(h);
    const moves = (h.you && h.you.private && h.you.private.road_moves) || [];
    const to = {};
    for (const m of moves) (to[m.to] || (to[m.to] = [])).push(m);
    const along = alongTheRoad(pub);
    // the supervisor just moved: its space carries the last-move mark
    const moved = lastWords(h)[0] === "move";
    if (h.narrow) {
      // a phone: the road's arms as rows of finger-sized spaces, then the quarters two by two
      const quarters = h.el("div", "ys-quarters");
      const byCorner = {};
      for (const nb of pub.neighbourhoods) byCorner[QUADRANT[nb.name.toLowerCase()]] = nb;
      for (const corner of ["nw", "ne", "sw", "se"]) {
        const nb = byCorner[corner];
        if (!nb) continue;
        const part = quarter(nb, h, L);
        if (part.classList.contains("acting")) {
          box.insertBefore(part, box.children[1] || null); // whole and finger-sized, over the others
          quarters.appendChild(h.el("div", "ys-nb ys-nb-away ys-nb-" + nb.name.toLowerCase(), term(h, nb.name) + " ↑"));
        } else quarters.appendChild(part);
      }
      // the road first: its lit spaces and what a tap on one shows come before the quarters' souks
      box.appendChild(roadRows(pub, h, L, along, to, moved));
      box.appendChild(facts(pub, h, L, along, to));
      box.appendChild(quarters);
      return box;
    }
    const len = Object.fromEntries(pub.road.map((a) => [a.arm, a.spaces.length]));
    const left = len.west || 0;
    const top = len.north || 0;
    const grid = h.el("div", "ys-road-grid");
    const cols = left + 1 + (len.east || 0);
    const rows = top + 1 + (len.south || 0);
    grid.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
    const corner = {
      nw: [1, left + 1, 1, top + 1],
      ne: [left + 2, cols + 1, 1, top + 1],
      sw: [1, left + 1, top + 2, rows + 1],
      se: [left + 2, cols + 1, top + 2, rows + 1],
    };
    for (const nb of pub.neighbourhoods) {
      const area = corner[QUADRANT[nb.name.toLowerCase()]];
      const part = quarter(nb, h, L);
      if (area) {
        part.style.gridColumn = area[0] + " / " + area[1];
        part.style.gridRow = area[2] + " / " + area[3];
      }
      grid.appendChild(part);
    }
    const cells = [{ name: "X", x: left, y: top }];
    for (const arm of pub.road) {
      const [dx, dy] = STEP[arm.arm] || [0, 0];
      arm.spaces.forEach((name, i) => cells.push({ name, x: left + dx * (i + 1), y: top + dy * (i + 1) }));
    }
    for (const c of cells) {
      const cell = roadSpace(c, pub, h, L, along, to, moved, false);
      cell.style.gridColumn = String(c.x + 1);
      cell.style.gridRow = String(c.y + 1);
      grid.appendChild(cell);
    }
    box.appendChild(grid);
    box.appendChild(facts(pub, h, L, along, to));
    return box;
  }

  function moveLabel(m, h) {
    const field = term(h, m.field);
    return m.gold
      ? t("with the {dice}s ({field}), {gold} gold", { dice: m.dice, field, gold: m.gold })
      : t("with the {dice}s ({field})", { dice: m.dice, field });
  }

  /** A button's words for a command of this game (the generic controls use them too). */
  function label(command, h) {
    const w = command.split(" ");
    const road = (h.you && h.you.private && h.you.private.road_moves) || [];
    const move = road.find((m) => m.command === command);
    if (move) return move.to + ": " + moveLabel(move, h);
    if (w[0] === "draw") return w[1] ? t("draw a card (the {v}s)", { v: w[1] }) : t("draw a card");
    if (w[0] === "take") return t("take {what}", { what: term(h, w[1]) });
    if (w[0] === "deliver") return t("deliver {what}", { what: term(h, w[1]) });
    if (w[0] === "yellow") return t("buy {n} yellow dice ({n} gold) and roll", { n: w[1] });
    if (w[0] === "roll") return t("roll the dice");
    if (w[0] === "play" && w[1]) {
      // the card by its name, then what it is played on: a thing by its name, any other word (``with``)
      // as the reader types it
      const said = h.said(command).split(" ");
      const terms = h.view.terms || {};
      const rest = w.slice(2).map((x, i) => (Object.hasOwn(terms, x) ? terms[x] : said.length === w.length ? said[i + 2] : x));
      return [term(h, w[1]), ...rest].join(" ");
    }
    if (w[0] === "extra" && w[1]) return t("extra die: {card}", { card: term(h, w[1]) });
    if (w[0] === "build" && w[1]) return t("build {what}", { what: term(h, w[1]) });
    return null;
  }

  function players(pub, h, L) {
    const table = h.el("table", "ys-players");
    const head = h.el("tr");
    for (const k of ["", "score", "gold", "camels", "cards", "buildings"]) head.appendChild(h.el("th", "", k ? L(k, k) : ""));
    table.appendChild(head);
    pub.players.forEach((p, seat) => {
      const row = h.el("tr", h.seatClass(seat) + (pub.current === seat ? " to-act" : ""));
      row.dataset.seat = String(seat);
      const name = h.el("td", "ys-name");
      name.appendChild(owner(h, seat));
      name.appendChild(h.el("span", "", " " + (pub.current === seat ? "▶ " : "") + p.name + (pub.start === seat ? " (" + L("start", "start player") + ")" : "")));
      row.appendChild(name);
      for (const v of [p.score, p.gold, p.camels, p.cards]) row.appendChild(h.el("td", "num", String(v)));
      row.appendChild(h.el("td", "ys-buildings", p.buildings.length ? p.buildings.map((b) => term(h, b)).join(", ") : L("none", "none")));
      table.appendChild(row);
    });
    return table;
  }

  function board(pub, h) {
    offered = new Set();
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "ys-table");
    const head = h.el("div", "ys-head");
    head.appendChild(h.el("strong", "", L("week", "Week") + " " + pub.week + "/3 · " + L("day", "Day") + " " + pub.day + "/7"));
    head.appendChild(h.el("span", "muted", " · " + L("start", "start player") + ": " + h.seatName(pub.start)));
    root.appendChild(head);
    const grid = h.el("div", "ys-grid");
    const side = h.el("div", "ys-side");
    side.append(tower(pub, h, L), caravan(pub, h, L));
    const map = cityMap(pub, h, L);
    // on a phone the quarter a cube goes into now comes first, over the tower and the caravan
    if (h.narrow && map.querySelector(":scope > .ys-nb.acting")) grid.append(map, side);
    else grid.append(side, map);
    root.appendChild(grid);
    root.appendChild(players(pub, h, L));
    return root;
  }

  function hand(priv, pub, h) {
    const L = (k, f) => h.label(k, f);
    const root = h.el("div", "ys-hand");
    const cards = h.el("ul", "ys-cards");
    if (!priv.cards.length) cards.appendChild(h.el("li", "muted", L("no_cards", "no cards")));
    for (const c of priv.cards) {
      const li = h.el("li", "ys-card");
      li.dataset.card = c.id;
      li.appendChild(h.el("strong", "", c.name || term(h, c.id)));
      li.appendChild(h.el("span", "", " — " + (c.summary || c.text)));
      cards.appendChild(li);
    }
    root.appendChild(cards);
    if (priv.to_build.length) {
      // each building's cost and power in words (a phone shows no tooltip)
      // a phone folds the list under its names; a tap opens it
      const box = h.el("details", "ys-to-build");
      box.open = !h.narrow;
      const names = priv.to_build.map((b) => b.name || term(h, b.id)).join(", ");
      box.appendChild(h.el("summary", "ys-to-build-head", L("to_build", "Still to build") + ": " + names));
      const list = h.el("ul", "ys-buildings-left");
      for (const b of priv.to_build) {
        const item = h.el("li", "");
        item.dataset.building = b.id;
        item.appendChild(h.el("strong", "", b.name || term(h, b.id)));
        item.appendChild(h.el("span", "", " " + b.text));
        list.appendChild(item);
      }
      box.appendChild(list);
      root.appendChild(box);
    }
    return root;
  }

  /** Whether the drawn table offers ``command`` itself (a tower group's action, a lit road space). */
  function handles(command, h) {
    const moves = (h.you && h.you.private && h.you.private.road_moves) || [];
    if (moves.some((m) => m.command === command) || offered.has(command)) return true;
    const pub = h.view.public;
    return !!pub && pub.tower.some((row) => groupCommands(h, row).includes(command));
  }

  // the tower's groups and the road's lit spaces play those moves: they are not repeated under the table
  window.bazaarbotTables.register("yspahan", { board, hand, label, handles });
})();
