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
  style.href = "/static/ratings.css";
  document.head.appendChild(style);

  const pane = document.createElement("section");
  pane.className = "pane ratings-pane";
  pane.id = "ratings";
  pane.setAttribute("aria-label", "Ratings");
  const heading = document.createElement("h2");
  const headingText = document.createTextNode(watching ? "Players' ratings " : "Best players ");
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
    if (watching) return decodeURIComponent(location.pathname.split("/").pop() || "");
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
      value.title = item.games + (item.games === 1 ? " rated game" : " rated games") +
        "; " + item.rating.toFixed(1) + " for the ranking";
    } else {
      value.textContent = "unrated";
    }
    li.append(name, value);
    return li;
  }

  function render(view) {
    headingGame.textContent = view.title || "";
    const items = watching ? view.players : view.top;
    list.replaceChildren(...items.map(entry));
    if (items.length) {
      note.textContent = watching ? "" : "rating±uncertainty, ranked by rating minus three uncertainties";
    } else if (watching) {
      note.textContent = "Nobody sits at this table.";
    } else {
      note.textContent = "Nobody is ranked yet: it takes " + view.min_games +
        (view.min_games === 1 ? " rated game." : " rated games.");
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
      const response = await fetch("/ratings/" + encodeURIComponent(name), { cache: "no-store" });
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
  soon();
})();
