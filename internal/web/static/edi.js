// Clearhouse console, EDI pages: copy buttons (a secret shown once).
"use strict";
document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-copy]");
  if (!b) return;
  const src = document.getElementById(b.dataset.copy);
  if (!src) return;
  const text = src.value !== undefined ? src.value : src.textContent;
  const done = () => {
    const status = document.getElementById(b.dataset.copy + "-copied");
    if (status) status.textContent = "Copied.";
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => { src.select && src.select(); });
  } else if (src.select) {
    src.select();
    document.execCommand("copy");
    done();
  }
});

// A file's page follows its deliveries by swapping its view every 2 s.
// The Retry buttons keep their ids, so htmx puts keyboard focus back on the
// same button after each swap; what changed is said in #file-live, a live
// region outside the swapped view (regions inside it are replaced, and
// screen readers may not announce a region that was just inserted).
(() => {
  let before = null;
  const attempts = () => [...document.querySelectorAll("#file-view .attempt[id]")];
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.target && e.detail.target.id === "file-view") {
      before = { ids: new Set(attempts().map((a) => a.id)), notice: document.getElementById("retry-notice")?.textContent || "" };
    }
  });
  document.addEventListener("htmx:afterSettle", () => {
    const live = document.getElementById("file-live");
    if (!before || !live) return;
    const said = [];
    const notice = document.getElementById("retry-notice")?.textContent || "";
    if (notice && notice !== before.notice) said.push(notice);
    for (const a of attempts()) {
      if (!before.ids.has(a.id)) said.push("New delivery attempt. " + a.textContent.trim().replace(/\s+/g, " "));
    }
    before = null;
    if (said.length) live.textContent = said.join(" ");
  });
})();
