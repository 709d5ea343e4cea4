// Clearhouse console: the little the server cannot do. Times are shown in
// the viewer's own time zone, and the history's date search learns that
// zone. Pages work without this file (times then read in UTC).
"use strict";
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  const localize = (root) => {
    for (const t of root.querySelectorAll("time[data-local]")) {
      const d = new Date(t.dateTime);
      if (!Number.isNaN(d.getTime())) {
        t.textContent = format.format(d);
        t.title = t.dateTime;
      }
    }
    for (const input of root.querySelectorAll("input.tz")) input.value = zone;
  };
  document.addEventListener("DOMContentLoaded", () => localize(document));
  document.addEventListener("htmx:afterSettle", (e) => localize(e.target));
})();
