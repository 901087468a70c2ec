// The recent games page: the network's last finished games, latest first, each a link to its
// replay (/replay/<id>), with who played, their scores and the winner; in the reader's language.
// The data is public: GET /history/data.
"use strict";

(() => {
  const t = (text, args) => window.bazaarbotI18n.t(text, args);
  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** One game: "Jaipur #12" as the link, then when it ended and each seat with its score. */
  function item(game) {
    const row = el("li", "history-game");
    const link = el("a", "history-link", t("{title} #{id}", { title: game.title, id: game.id }));
    link.href = bazaarbotBase.url("/replay/" + game.id);
    row.appendChild(link);
    if (game.ended) {
      const when = new Date(game.ended * 1000).toLocaleString(window.bazaarbotI18n.lang, { dateStyle: "medium", timeStyle: "short" });
      row.appendChild(el("span", "history-when muted", " · " + when));
    }
    const seats = el("ul", "history-players");
    for (const seat of game.players) {
      const who = el("li", seat.winner ? "history-winner" : "", (seat.winner ? "★ " : "") + seat.nick + " " + seat.score);
      seats.appendChild(who);
    }
    row.appendChild(seats);
    return row;
  }

  async function load() {
    let games = [];
    try {
      const response = await fetch(bazaarbotBase.url("/history/data?lang=" + window.bazaarbotI18n.lang), { cache: "no-store" });
      if (response.ok) games = (await response.json()).games || [];
    } catch (error) {
      games = [];
    }
    $("games").replaceChildren(...games.map(item));
    $("none").hidden = games.length > 0;
    document.body.dataset.loaded = "1";
  }

  $("home").href = bazaarbotBase.url("/");
  load();
})();
