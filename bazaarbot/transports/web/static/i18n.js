// The chat page in the browser's language: the words come from catalogues.js (generated from the
// web.po catalogues); this picks the language from navigator.languages, translates the page's own
// text and attributes once it is parsed, and offers t() to app.js for the lines it writes.
"use strict";

(() => {
  const catalogues = window.BAZAARBOT_CATALOGUES || {};
  const SKIP = new Set(["CODE", "SCRIPT", "STYLE", "KBD"]);
  const ATTRIBUTES = ["placeholder", "title", "aria-label"];
  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

  /** The first of the browser's languages the bot speaks ("de-AT" -> "de"); English otherwise. */
  function pick(tags) {
    for (const tag of tags) {
      const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
      if (base === "en" || own(catalogues, base)) return base;
    }
    return "en";
  }

  const lang = pick(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  const words = own(catalogues, lang) ? catalogues[lang] : {};

  /** One English sentence in the page's language; {name} is filled from args, {{ and }} are braces. */
  function t(text, args) {
    const chosen = own(words, text) ? words[text] : text;
    return chosen.replace(/\{(\w+)\}|\{\{|\}\}/g, (match, name) => {
      if (name === undefined) return match[0];
      return args && own(args, name) ? String(args[name]) : match;
    });
  }

  /** The catalogue key of a page text, as the extraction writes it: whitespace collapsed. */
  const key = (text) => text.replace(/\s+/g, " ").trim();

  function translatePage(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    for (const node of nodes) {
      if (node.parentElement && node.parentElement.closest("code, script, style, kbd")) continue;
      const k = key(node.nodeValue);
      if (!k || !own(words, k)) continue;
      const lead = node.nodeValue.match(/^\s*/)[0];
      const tail = node.nodeValue.match(/\s*$/)[0];
      node.nodeValue = lead + words[k] + tail;
    }
    for (const name of ATTRIBUTES) {
      for (const element of root.querySelectorAll(`[${name}]`)) {
        if (SKIP.has(element.tagName)) continue;
        const k = key(element.getAttribute(name));
        if (own(words, k)) element.setAttribute(name, words[k]);
      }
    }
  }

  window.bazaarbotI18n = { lang, t, translatePage };
  document.documentElement.lang = lang;
  translatePage(document);
})();
