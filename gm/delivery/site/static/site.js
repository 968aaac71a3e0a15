// gm site: the next deadline in the reader's own time zone, and the time left, kept up to date.
"use strict";
(function () {
  const when = document.querySelector("time[data-deadline]");
  if (!when) return;
  const deadline = new Date(when.getAttribute("datetime"));
  if (isNaN(deadline)) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "your time zone";
  const utc = deadline.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short", timeZone: "UTC" });
  const local = deadline.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
  when.textContent = utc + " UTC";
  const localBox = document.querySelector('[data-local-for="deadline"]');
  if (localBox) localBox.textContent = "(" + local + ", " + zone + ")";
  const leftBox = document.querySelector('[data-left-for="deadline"]');
  function period(ms) {
    const minutes = Math.floor(Math.abs(ms) / 60000);
    const d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60;
    const parts = [];
    if (d) parts.push(d + (d === 1 ? " day" : " days"));
    if (h) parts.push(h + (h === 1 ? " hour" : " hours"));
    if (m || !parts.length) parts.push(m + (m === 1 ? " minute" : " minutes"));
    return parts.join(" ");
  }
  function tick() {
    if (!leftBox) return;
    const ms = deadline - Date.now();
    leftBox.textContent = ms >= 0 ? period(ms) + " left." : "The deadline passed " + period(ms) + " ago.";
  }
  tick();
  setInterval(tick, 30000);
})();
