// The players' web door: checks the orders as they are typed (the server judges, this page only
// shows its answer) and writes a route clicked on the map into the orders as text.
"use strict";
(function () {
  const main = document.getElementById("me");
  const area = document.getElementById("orders");
  const box = document.getElementById("check");
  if (!main || !area || !box) return;
  const form = document.getElementById("orders-form");
  const csrf = form.querySelector("input[name=csrf]").value;
  let timer = null, sent = 0, shown = 0;

  function show(result, status) {
    box.textContent = "";
    if (status === 429) { box.dataset.state = "paused"; box.textContent = "Checking paused a moment (too many checks)."; return; }
    const errors = result.errors || [], notes = result.notes || [];
    box.dataset.state = errors.length ? "errors" : "ok";
    const head = document.createElement("p");
    head.className = errors.length ? "bad" : "ok";
    head.textContent = errors.length ? errors.length + " error(s):" : "No errors: these orders can be stored.";
    box.appendChild(head);
    if (errors.length) {
      const list = document.createElement("ul");
      list.id = "errors";
      for (const e of errors) {
        const li = document.createElement("li");
        li.textContent = (e.line ? "line " + e.line + (e.col ? ", col " + e.col : "") + ": " : "") + e.message;
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    for (const n of notes) {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = "Note: " + n;
      box.appendChild(p);
    }
  }

  async function check() {
    const mine = ++sent;
    box.dataset.state = "checking";
    try {
      const body = new URLSearchParams({orders: area.value, csrf: csrf});
      const answer = await fetch(main.dataset.check, {method: "POST", body: body, credentials: "same-origin"});
      const result = await answer.json();
      if (mine >= shown) { shown = mine; show(result, answer.status); }
      if (answer.status === 429) { clearTimeout(timer); timer = setTimeout(check, 1500); }
    } catch (err) {
      box.dataset.state = "offline";
      box.textContent = "Could not reach the server to check (the form still works).";
    }
  }

  function later() { clearTimeout(timer); timer = setTimeout(check, 350); }
  area.addEventListener("input", later);

  // ---- a route clicked on the map, written as an order line (the game says how: data-* of the buttons)
  const map = document.getElementById("map");
  const wrap = document.getElementById("map-wrap");
  const route = document.getElementById("route");
  if (!map || !wrap) return;
  let spots = null, chosen = null, places = [];
  fetch(map.dataset.hotspots, {credentials: "same-origin"}).then(r => r.json()).then(data => { spots = data; map.dataset.ready = "yes"; });
  const buttons = Array.from(document.querySelectorAll("button.compose"));
  function choose(button) {
    chosen = button; places = [];
    for (const b of buttons) b.classList.toggle("active", b === button);
    redraw();
  }
  buttons.forEach(b => b.addEventListener("click", () => choose(b)));
  if (buttons.length) choose(buttons[0]);
  document.getElementById("undo").addEventListener("click", () => { places.pop(); redraw(); write(); });
  document.getElementById("clear").addEventListener("click", () => { places = []; redraw(); write(); });

  function composed() {
    if (!chosen) return "";
    let text = chosen.dataset.line;
    places.forEach((p, i) => { text += (i ? chosen.dataset.then : chosen.dataset.first).split("{}").join(p); });
    return text;
  }

  function write() {
    if (!chosen) return;
    const start = chosen.dataset.line.toLowerCase();
    const lines = area.value.split("\n");
    const at = lines.findIndex(l => l.trim().toLowerCase().startsWith(start));
    const text = composed();
    if (at >= 0) {
      const hash = lines[at].indexOf("#");
      const comment = hash >= 0 ? "   " + lines[at].slice(hash) : "";
      lines[at] = text + comment;
    } else {
      if (lines.length && lines[lines.length - 1] === "") lines.pop();
      lines.push(text, "");
    }
    area.value = lines.join("\n");
    check();
  }

  function redraw() {
    wrap.querySelectorAll(".mark").forEach(m => m.remove());
    route.textContent = chosen ? (places.length ? composed() : "Click the first hex of " + chosen.textContent + ".") : "";
    if (!spots) return;
    const scale = map.clientWidth / map.naturalWidth;
    for (const p of places) {
      const at = spots.spots[p];
      if (!at) continue;
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.style.left = (at[0] * scale) + "px";
      mark.style.top = (at[1] * scale) + "px";
      wrap.appendChild(mark);
    }
  }

  map.addEventListener("click", (event) => {
    if (!spots || !chosen) return;
    const rect = map.getBoundingClientRect();
    const x = (event.clientX - rect.left) * map.naturalWidth / rect.width;
    const y = (event.clientY - rect.top) * map.naturalHeight / rect.height;
    let best = null, bestDistance = Infinity;
    for (const [label, at] of Object.entries(spots.spots)) {
      const d = Math.hypot(at[0] - x, at[1] - y);
      if (d < bestDistance) { best = label; bestDistance = d; }
    }
    if (best === null || bestDistance > spots.r) return;
    if (places[places.length - 1] === best) return;
    places.push(best);
    redraw();
    write();
  });
  window.addEventListener("resize", redraw);
})();
