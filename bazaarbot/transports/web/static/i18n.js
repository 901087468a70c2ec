// The chat page in its reader's language: the words come from catalogues.js (generated from the
// web.po catalogues). The language is the reader's choice as the server tells it (their /lang, else
// their browser's as the page told the server, else the room's), else the browser's
// (navigator.languages). translatePage() puts the page's own text and attributes into it and can
// run again from the English after a switch; t() serves the lines the page scripts and the drawn
// tables write, and onChange() lets them draw again when it switches.
"use strict";

(() => {
  const catalogues = window.BAZAARBOT_CATALOGUES || {};
  const SKIP = new Set(["CODE", "SCRIPT", "STYLE", "KBD"]);
  const ATTRIBUTES = ["placeholder", "title", "aria-label"];
  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  /** Every English page text some catalogue knows: only these are remembered as a node's source. */
  const known = new Set(Object.values(catalogues).flatMap((words) => Object.keys(words)));
  /** The English a translated text node or attribute came from, so a switch starts from it again. */
  const sourceText = new WeakMap();
  const sourceAttr = new WeakMap();
  const listeners = [];

  /** The first of the given languages the bot speaks ("de-AT" -> "de"); English otherwise. */
  function pick(tags) {
    for (const tag of tags) {
      const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
      if (base === "en" || own(catalogues, base)) return base;
    }
    return "en";
  }

  const browser = () => pick(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  let lang = browser();
  let words = own(catalogues, lang) ? catalogues[lang] : {};

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
      // a command is typed as it is, but its placeholder (<code>/nick <var>name</var></code>) is a word
      if (node.parentElement && node.parentElement.closest("code, script, style, kbd") && node.parentElement.tagName !== "VAR") continue;
      let source = sourceText.get(node);
      if (source === undefined) {
        const k = key(node.nodeValue);
        if (!k || !known.has(k)) continue;
        source = { k, lead: node.nodeValue.match(/^\s*/)[0], tail: node.nodeValue.match(/\s*$/)[0] };
        sourceText.set(node, source);
      }
      node.nodeValue = source.lead + (own(words, source.k) ? words[source.k] : source.k) + source.tail;
    }
    for (const name of ATTRIBUTES) {
      const elements = root.querySelectorAll ? [...root.querySelectorAll(`[${name}]`)] : [];
      for (const element of elements) {
        if (SKIP.has(element.tagName)) continue;
        let sources = sourceAttr.get(element);
        if (!sources) sourceAttr.set(element, (sources = {}));
        if (!own(sources, name)) {
          const k = key(element.getAttribute(name));
          if (!known.has(k)) continue;
          sources[name] = k;
        }
        const k = sources[name];
        element.setAttribute(name, own(words, k) ? words[k] : k);
      }
    }
  }

  /** Speak ``chosen`` now (null: the browser's language): the page's own text at once, then the scripts. */
  function setLanguage(chosen) {
    const next = chosen ? pick([chosen]) : browser();
    if (next === lang) return false;
    lang = next;
    words = own(catalogues, lang) ? catalogues[lang] : {};
    window.bazaarbotI18n.lang = lang;
    document.documentElement.lang = lang;
    translatePage(document);
    for (const listener of listeners) {
      try {
        listener(lang);
      } catch (e) {
        window.console.error(e);
      }
    }
    return true;
  }

  /** Call ``listener(lang)`` after every switch of language (a script draws its text again). */
  function onChange(listener) {
    listeners.push(listener);
  }

  window.bazaarbotI18n = { lang, t, translatePage, setLanguage, onChange };
  document.documentElement.lang = lang;
  translatePage(document);
})();
