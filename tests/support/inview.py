"""Page checks a player's eye makes: the page never scrolls sideways, a control is whole in view and
on top, a part of the board is not under another box."""

from __future__ import annotations

from typing import Any

#: how far the page reaches past the viewport's right edge, in CSS pixels (0: it never scrolls sideways)
PAST_THE_EDGE = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

#: why the control ``sel`` is not whole in view and on top, or "" when it is
_NOT_IN_VIEW = """(sel) => {
  const node = document.querySelector(sel);
  if (!node || node.offsetParent === null) return sel + ' is not shown';
  const r = node.getBoundingClientRect();
  const w = document.documentElement.clientWidth;
  const h = window.innerHeight;
  const at = `${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}`;
  if (r.left < -0.5 || r.right > w + 0.5 || r.top < -0.5 || r.bottom > h + 0.5) {
    return `${sel} at ${at} in ${w}x${h}`;
  }
  const middle = r.top + r.height / 2;
  for (const [x, y] of [[r.left + 2, middle], [r.right - 2, middle], [(r.left + r.right) / 2, middle]]) {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === node || node.contains(hit))) {
      const what = hit ? `${hit.tagName}#${hit.id}.${hit.className}` : 'nothing';
      return `${sel} is covered at ${Math.round(x)},${Math.round(y)} by ${what}`;
    }
  }
  return '';
}"""

#: the boxes of ``cover`` (shown ones) that overlap the first shown ``part``: "what at where"
_OVERLAPS = """([part, cover]) => {
  const shown = (n) => n.offsetParent !== null || getComputedStyle(n).position === 'fixed';
  const target = [...document.querySelectorAll(part)].find((n) => n.offsetParent !== null);
  if (!target) return [part + ' is not shown'];
  const p = target.getBoundingClientRect();
  return [...document.querySelectorAll(cover)].filter((n) => shown(n) && !n.hidden).map((n) => {
    const c = n.getBoundingClientRect();
    const apart = c.right <= p.left || c.left >= p.right || c.bottom <= p.top || c.top >= p.bottom;
    return apart || c.width === 0 ? '' : `${cover} ${Math.round(c.top)}..${Math.round(c.bottom)}`
      + ` over ${part} ${Math.round(p.top)}..${Math.round(p.bottom)}`;
  }).filter(Boolean);
}"""


#: the innermost shown boxes that reach past the screen's right edge: "what right-edge"
_STICKING_OUT = """() => {
  const w = document.documentElement.clientWidth;
  const past = (n) => n.getBoundingClientRect().right > w + 0.5;
  return [...document.querySelectorAll('body *')]
    .filter((n) => n.getBoundingClientRect().width > 0 && past(n) && ![...n.children].some(past))
    .slice(0, 6)
    .map((n) => `${n.tagName.toLowerCase()}#${n.id}.${[...n.classList].join('.')}`
      + ` "${(n.textContent || '').trim().slice(0, 30)}" ${Math.round(n.getBoundingClientRect().right)}`);
}"""


async def sticking_out(page: Any) -> list[str]:
    """The innermost boxes that reach past the screen's right edge (what makes a page scroll sideways)."""
    return list(await page.evaluate(_STICKING_OUT))


async def past_the_edge(page: Any) -> float:
    """How many CSS pixels the page reaches past the screen's right edge."""
    return float(await page.evaluate(PAST_THE_EDGE))


async def not_in_view(page: Any, selector: str) -> str:
    """Why the control ``selector`` is not whole in view and on top ("" when it is)."""
    return str(await page.evaluate(_NOT_IN_VIEW, selector))


async def overlaps(page: Any, part: str, cover: str) -> list[str]:
    """The shown boxes of ``cover`` that overlap the shown ``part`` (none: the part is uncovered)."""
    return list(await page.evaluate(_OVERLAPS, [part, cover]))


#: the words under ``sel`` split across two lines ("Pk|t.", "kein|e"): each word of each shown text
#: node measured as a range; a word longer than ``longest`` (a 24-character nickname) may break
_BROKEN_WORDS = """([sel, longest]) => {
  const found = [];
  for (const root of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.parentElement || node.parentElement.offsetParent === null) continue;
      const text = node.textContent;
      for (const m of text.matchAll(/[^\\s\\-\\/,;·]+/g)) {
        if (m[0].length > longest) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        const tops = new Set(boxes.map((r) => Math.round(r.top)));
        if (tops.size > 1) found.push(m[0]);
      }
    }
  }
  return found.slice(0, 12);
}"""


async def broken_words(page: Any, selector: str, longest: int = 15) -> list[str]:
    """The words under ``selector`` that the layout splits across two lines (none: every label reads
    whole; a word longer than ``longest`` characters, a long nickname, may break)."""
    return list(await page.evaluate(_BROKEN_WORDS, [selector, longest]))
