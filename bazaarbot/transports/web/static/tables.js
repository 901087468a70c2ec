// What the chat page (app.js) and the replay page (replay.js) share to draw a game's table:
// the DOM builders handed to every game's table.js, and the loader of its table.css/table.js
// (each table.js then registers through window.bazaarbotTables, which each page defines itself).
"use strict";

(() => {
  /** An element with a class and text (always textContent, never markup). */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** An SVG element with attributes and text. */
  function svg(tag, attrs, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** A plain button (type=button, so it never submits a form). */
  function button(label, onClick, className) {
    const b = el("button", className || "btn", label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  /**
   * Adds a game's table.css and table.js under the base path; false for a name that is not a
   * game's. onMissing runs (after the stylesheet is removed) when the game has no table.js.
   */
  function load(game, onMissing) {
    if (!/^[a-z0-9_]{1,40}$/.test(game)) return false;
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = bazaarbotBase.url("/games/" + game + "/table.css");
    document.head.appendChild(css);
    const script = document.createElement("script");
    script.src = bazaarbotBase.url("/games/" + game + "/table.js");
    script.addEventListener("error", () => {
      css.remove();
      if (onMissing) onMissing();
    });
    document.head.appendChild(script);
    return true;
  }

  window.bazaarbotTableKit = { el, svg, button, load };
})();
