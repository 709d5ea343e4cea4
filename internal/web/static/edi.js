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
