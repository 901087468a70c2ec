// The layout check run in the page (tests/test_web_layout.py): every part present, not collapsed,
// not cut by any box that clips, and no box of the table scrolling inside itself.
(parts) => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const name = (n) => n.id ? "#" + n.id : n.tagName.toLowerCase() + "." + [...n.classList].join(".");
  for (const sel of parts) {
    const nodes = [...document.querySelectorAll(sel)].filter((n) => n.offsetParent !== null);
    if (!nodes.length) { problems.push(sel + " is missing"); continue; }
    for (const n of nodes) {
      const r = n.getBoundingClientRect();
      if (r.height < 8 || r.width < 8) problems.push(sel + " collapsed to " + r.width + "x" + r.height);
      if (r.left < -1 || r.right > W + 1) problems.push(sel + " runs out sideways (" + r.left + ".." + r.right + ")");
      for (let a = n.parentElement; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowY === "visible" && cs.overflowX === "visible") continue;
        if (a === document.documentElement || a === document.body) {
          if (cs.overflowY === "hidden" && r.bottom > H + 1) problems.push(sel + " is below the page, which cannot scroll");
          continue;
        }
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1)
          problems.push(sel + " is cut by " + name(a) + " (" + a.scrollHeight + " in " + a.clientHeight + ")");
      }
    }
  }
  for (const n of document.querySelectorAll(".table-area, .table-area *")) {
    if (n.offsetParent === null || n.tagName === "SELECT" || n.closest(".board-text")) continue;
    if (n.scrollHeight > n.clientHeight + 1 && getComputedStyle(n).overflowY !== "visible")
      problems.push(name(n) + " scrolls inside itself (" + n.scrollHeight + " in " + n.clientHeight + ")");
  }
  return [...new Set(problems)];
}
