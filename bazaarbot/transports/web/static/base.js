// Where the bot's routes live: at the root, or behind a reverse proxy under [web] base_path
// (the server names it in <meta name="bazaarbot-base">). Every script builds its URLs with url()
// and reads its own place with path(), so the page works under a prefix unchanged.
"use strict";

(() => {
  const meta = document.querySelector('meta[name="bazaarbot-base"]');
  const base = meta ? meta.getAttribute("content") || "" : "";

  /** An absolute path of the bot ("/ws") under the base path ("/bazaar/ws"). */
  const url = (path) => base + path;

  /** This page's path without the base path ("/bazaar/watch/x" -> "/watch/x"). */
  const path = () => {
    const here = window.location.pathname;
    return base && here.startsWith(base + "/") ? here.slice(base.length) : here;
  };

  window.bazaarbotBase = { base, url, path };
})();
