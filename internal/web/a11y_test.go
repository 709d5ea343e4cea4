package web

import (
	"context"
	"testing"
)

// a11yAudit is run in the page: the structural rules a screen reader and
// keyboard user depend on, and WCAG AA text contrast (4.5:1, 3:1 for large
// text) of every visible text against its effective background. It
// returns one line per problem.
const a11yAudit = `(() => {
  const problems = [];
  const count = sel => document.querySelectorAll(sel).length;
  if (count("main") !== 1) problems.push("main landmarks: " + count("main"));
  if (count("header") < 1 || count("footer") < 1) problems.push("missing header or footer landmark");
  if (count("h1") !== 1) problems.push("h1 elements: " + count("h1"));
  if (!document.documentElement.lang) problems.push("no lang on html");
  for (const e of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!e.labels || e.labels.length === 0) problems.push("no label: " + (e.id || e.name));
  }
  for (const e of document.querySelectorAll("button, a[href]")) {
    if (!e.textContent.trim() && !e.getAttribute("aria-label")) problems.push("no accessible name: " + e.outerHTML.slice(0, 60));
  }
  const seen = {};
  for (const e of document.querySelectorAll("[id]")) {
    if (seen[e.id]) problems.push("duplicate id: " + e.id);
    seen[e.id] = true;
  }
  for (const e of document.querySelectorAll("[aria-describedby]")) {
    for (const id of e.getAttribute("aria-describedby").split(/\s+/).filter(Boolean)) {
      if (!document.getElementById(id)) problems.push("aria-describedby names a missing id: " + id);
    }
  }
  const channels = c => (c.match(/[\d.]+/g) || []).map(Number);
  const luminance = c => {
    const [r, g, b] = channels(c).slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = e => {
    for (; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== "none") return null; // a pattern: not measured here
      const c = channels(s.backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return s.backgroundColor;
    }
    return "rgb(255, 255, 255)";
  };
  for (const e of document.querySelectorAll("body *")) {
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    if (e.closest(".visually-hidden, [aria-hidden=true], option, datalist") || e.disabled) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden" || e.getClientRects().length === 0) continue;
    const bg = background(e);
    if (!bg) continue;
    const a = luminance(s.color), b = luminance(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) problems.push("contrast " + ratio.toFixed(2) + " < " + need + ": " + e.tagName.toLowerCase() + "." + e.className + " \"" + e.textContent.trim().slice(0, 30) + "\"");
  }
  return problems;
})()`

// checkA11y fails the test with every problem a11yAudit finds on the page.
func checkA11y(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	for _, p := range eval[[]string](t, ctx, a11yAudit) {
		t.Errorf("%s: %s", page, p)
	}
}
