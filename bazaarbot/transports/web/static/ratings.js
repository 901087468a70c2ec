// The ratings pane: the best players of the room's game beside the table (chat page), and the
// ratings of the players at the table (spectator page). Read from GET /ratings/<room>; refreshed
// when the room or its board changes, and every half minute. Every text goes in with textContent.
(function () {
  "use strict";

  const REFRESH_MS = 30000;
  const watching = document.body.dataset.mode === "watch";
  const side = document.querySelector(".side");
  if (!side) return;

  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = bazaarbotBase.url("/static/ratings.css");
  document.head.appendChild(style);

  const pane = document.createElement("section");
  pane.className = "pane ratings-pane";
  pane.id = "ratings";
  const t = (text, args) => window.bazaarbotI18n.t(text, args);
  pane.setAttribute("aria-label", t("Ratings"));
  const heading = document.createElement("h2");
  const headingText = document.createTextNode("");
  const headingWords = () => (watching ? t("Players' ratings") : t("Best players")) + " ";
  headingText.nodeValue = headingWords();
  const headingGame = document.createElement("span");
  headingGame.className = "muted";
  heading.append(headingText, headingGame);
  const list = document.createElement("ol");
  list.id = "ratings-list";
  list.className = watching ? "ratings-list seated" : "ratings-list";
  const note = document.createElement("p");
  note.id = "ratings-note";
  note.className = "muted small";
  pane.append(heading, list, note);
  side.appendChild(pane);

  function room() {
    const title = document.getElementById("room-title");
    const shown = title ? title.textContent.trim() : "";
    if (shown.startsWith("#")) return shown.slice(1);
    if (watching) return decodeURIComponent(bazaarbotBase.path().split("/").pop() || "");
    return "";
  }

  function entry(item) {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "ratings-name";
    name.textContent = item.name;
    const value = document.createElement("span");
    value.className = "ratings-value";
    if (item.games > 0) {
      value.textContent = item.mu.toFixed(1) + "±" + item.sigma.toFixed(1);
      const games = item.games === 1 ? t("{n} rated game", { n: item.games }) : t("{n} rated games", { n: item.games });
      value.title = t("{games}; {rating} for the ranking", { games, rating: item.rating.toFixed(1) });
    } else {
      value.textContent = t("unrated");
    }
    li.append(name, value);
    return li;
  }

  let last = null;
  function render(view) {
    last = view;
    headingText.nodeValue = headingWords();
    headingGame.textContent = view.title || "";
    const items = watching ? view.players : view.top;
    list.replaceChildren(...items.map(entry));
    if (items.length) {
      note.textContent = watching ? "" : t("rating±uncertainty, ranked by rating minus three uncertainties");
    } else if (watching) {
      note.textContent = t("Nobody sits at this table.");
    } else {
      note.textContent =
        view.min_games === 1
          ? t("Nobody is ranked yet: it takes {n} rated game.", { n: view.min_games })
          : t("Nobody is ranked yet: it takes {n} rated games.", { n: view.min_games });
    }
  }

  let timer = null;
  let asked = "";
  async function refresh() {
    timer = null;
    const name = room();
    pane.hidden = !name;
    if (!name) return;
    asked = name;
    try {
      const response = await fetch(bazaarbotBase.url("/ratings/" + encodeURIComponent(name)), { cache: "no-store" });
      if (!response.ok) return;
      const view = await response.json();
      if (asked === name) render(view);
    } catch (error) {
      // the chat page shows the connection state; the pane simply keeps its last figures
    }
  }

  function soon() {
    if (timer === null) timer = setTimeout(refresh, 300);
  }

  const observer = new MutationObserver(soon);
  for (const id of ["room-title", "board"]) {
    const node = document.getElementById(id);
    if (node) observer.observe(node, { childList: true, characterData: true, subtree: true });
  }
  setInterval(soon, REFRESH_MS);
  window.bazaarbotI18n.onChange(() => {
    pane.setAttribute("aria-label", t("Ratings"));
    if (last) render(last);
    else headingText.nodeValue = headingWords();
  });
  soon();
})();
