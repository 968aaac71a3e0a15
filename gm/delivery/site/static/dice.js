// gm site: recompute every revealed roll in the reader's browser (docs/site.md, DESIGN.md "Dice").
// The data is the table itself: each turn's <tbody> carries its seed and the commitment published
// before it and the digest binding its roll list (published with the seed), each row a roll
// (label, k, sides, value). Once a game is over, the hidden rolls' <tbody data-secret="1"> carry
// the revealed secret seed, the commitment and digest published with the turn and how many rolls
// the turn announced. Nothing is fetched; works from file://.
// When done: <body data-dice-verified="N" data-dice-failed="M" data-dice-state="done">.
"use strict";
(function () {
  const utf8 = new TextEncoder();

  // SHA-256 in plain JavaScript, for pages served over plain http (no Web Crypto there).
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
  function sha256Plain(bytes) {
    const bitLen = bytes.length * 8;
    const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[bytes.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 4, bitLen >>> 0);
    view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000));
    const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const W = new Uint32Array(64);
    const rot = (x, n) => (x >>> n) | (x << (32 - n));
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rot(W[i - 15], 7) ^ rot(W[i - 15], 18) ^ (W[i - 15] >>> 3);
        const s1 = rot(W[i - 2], 17) ^ rot(W[i - 2], 19) ^ (W[i - 2] >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, h] = H;
      for (let i = 0; i < 64; i++) {
        const t1 = (h + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
        const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    H.forEach((v, i) => outView.setUint32(4 * i, v));
    return out;
  }

  const subtle = window.crypto && window.crypto.subtle;
  async function sha256(bytes) {
    if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
    return sha256Plain(bytes);
  }

  function fromHex(hex) {
    if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }
  const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  // DESIGN.md: h = SHA-256(seed || 0x00 || label || 0x00 || str(k)); first byte b < 256 - 256 % n
  // gives 1 + b % n; when no byte qualifies, h = SHA-256(h) and go on.
  async function rollValue(seed, label, k, sides) {
    const labelBytes = utf8.encode(label);
    const kBytes = utf8.encode(String(k));
    const msg = new Uint8Array(seed.length + labelBytes.length + kBytes.length + 2);
    msg.set(seed, 0);
    msg.set(labelBytes, seed.length + 1);
    msg.set(kBytes, seed.length + labelBytes.length + 2);
    let h = await sha256(msg);
    const limit = 256 - (256 % sides);
    for (;;) {
      for (const b of h) if (b < limit) return 1 + (b % sides);
      h = await sha256(h);
    }
  }

  function mark(cell, ok, text) {
    cell.textContent = "";
    const sign = document.createElement("span");
    sign.setAttribute("aria-hidden", "true");
    sign.textContent = ok ? "✓ " : "✗ ";
    cell.append(sign, text);
    cell.className = "mark " + (ok ? "ok" : "bad");
  }

  // A turn's seed against its commitment: the public seed against the one published before the
  // turn; a hidden (secret) seed, revealed at the game's end, against the one published with it.
  async function checkSeed(body) {
    const turn = Number(body.dataset.turn);
    const hidden = body.dataset.secret === "1";
    const seed = fromHex(body.dataset.seed || "");
    const promised = (body.dataset.commitment || "").toLowerCase();
    if (!seed) {
      return { seed: null, ok: false,
        why: body.dataset.seed ? "the revealed seed is not 64 hex digits" : "no seed was revealed" };
    }
    if (!promised) {
      if (hidden) return { seed, ok: false, why: "no commitment was published with turn " + turn };
      return { seed, ok: true, why: turn === 0 ? "set-up: revealed at once" : "no commitment known" };
    }
    const ok = toHex(await sha256(seed)) === promised;
    const when = hidden ? "published with turn " : "published before turn ";
    return { seed, ok, why: ok ? "matches the commitment" : "does not hash to the commitment " + when + turn };
  }

  // The digest binding a turn's roll list (docs/guide.md, gm/store/dice.py rolls_digest):
  // SHA-256(seed || 0x0A || for each roll: label || 0x00 || k || 0x00 || sides || 0x00 || value || 0x0A).
  async function rollsDigest(seed, rows) {
    const parts = [seed, utf8.encode("\n")];
    for (const row of rows) {
      const label = row.dataset.label;
      if (/[\0\n]/.test(label)) return null;  // a label never holds a NUL or a line break
      const nums = [row.dataset.index, row.dataset.sides, row.dataset.value].map((x) => String(Number(x)));
      parts.push(utf8.encode(label + "\0" + nums.join("\0") + "\n"));
    }
    const total = parts.reduce((n, p) => n + p.length, 0);
    const data = new Uint8Array(total);
    let at = 0;
    for (const p of parts) { data.set(p, at); at += p.length; }
    return toHex(await sha256(data));
  }

  // The roll list against the digest published with it; a turn without a digest passes only on a
  // page where no turn has one (a campaign resolved before gm published them).
  async function checkDigest(body, seed, rows, anyDigest) {
    const promised = (body.dataset.digest || "").toLowerCase();
    if (!promised) {
      return anyDigest ? { ok: false, why: "no roll list digest was published with this turn" }
        : { ok: true, none: true, why: "no digest published (resolved before gm recorded them)" };
    }
    if (!seed) return { ok: false, why: "its seed failed" };
    const found = await rollsDigest(seed, rows);
    if (found === promised) return { ok: true, why: "the roll list matches its digest" };
    return { ok: false, why: "the " + rows.length + " rolls listed do not match the digest published with the turn "
      + "(a roll added, removed, relabelled or given another die)" };
  }

  async function checkRoll(row, seed, counts) {
    const label = row.dataset.label;
    const k = Number(row.dataset.index);
    const sides = Number(row.dataset.sides);
    const value = Number(row.dataset.value);
    const expectedK = counts.get(label) || 0;
    counts.set(label, expectedK + 1);
    if (!(sides >= 1 && sides <= 256) || !Number.isInteger(sides)) return "a die has 1 to 256 sides, not " + row.dataset.sides;
    if (k !== expectedK) return "k is " + row.dataset.index + " but " + expectedK + " earlier rolls have this label";
    const derived = await rollValue(seed, label, k, sides);
    return derived === value ? null : "logged " + value + ", the seed gives " + derived;
  }

  async function run() {
    const failures = [];
    const tally = { verified: 0, failed: 0, seedsOk: 0, seedsBad: 0, secretVerified: 0, secretFailed: 0,
      digestsOk: 0, digestsBad: 0 };
    const bodies = document.querySelectorAll("tbody[data-turn]");
    const anyDigest = [...bodies].some((b) => b.dataset.digest);
    for (const body of bodies) {
      await checkTurn(body, tally, (anchor, text) => failures.push({ anchor, text }), anyDigest);
    }
    tally.failures = failures;
    return tally;
  }

  async function checkTurn(body, tally, fail, anyDigest) {
    const hidden = body.dataset.secret === "1";
    const name = "Turn " + body.dataset.turn + (hidden ? " (hidden rolls)" : "");
    const seedInfo = await checkSeed(body);
    mark(body.querySelector('[data-mark="seed"]'), seedInfo.ok, seedInfo.why);
    if (seedInfo.ok) tally.seedsOk++; else { tally.seedsBad++; fail(body.id, name + ": the seed " + seedInfo.why); }
    const rows = body.querySelectorAll("tr.roll");
    let silent = !seedInfo.ok && rows.length === 0;  // a bad seed is never silent
    if (hidden && rows.length !== Number(body.dataset.announced)) {
      fail(body.id, name + ": " + rows.length + " rolls revealed, but the turn announced " + body.dataset.announced);
      silent = true;
    }
    if (silent) { tally.failed++; if (hidden) tally.secretFailed++; }
    const counts = new Map();
    for (const row of rows) {
      let why = await checkRoll(row, seedInfo.seed || new Uint8Array(32), counts);
      if (!why && !seedInfo.ok) why = "its seed failed";
      mark(row.querySelector(".mark"), !why, why || "ok");
      if (why) {
        tally.failed++;
        if (hidden) tally.secretFailed++;
        fail(row.id, name + ", " + row.dataset.label + " #" + row.dataset.index + " (d" + row.dataset.sides + "): " + why);
      } else {
        tally.verified++;
        if (hidden) tally.secretVerified++;
      }
    }
    // the list as a whole: a turn whose seed failed has every roll failed already, so its digest
    // is marked but not counted again
    const digest = await checkDigest(body, seedInfo.ok ? seedInfo.seed : null, rows, anyDigest);
    const digestMark = body.querySelector('[data-mark="digest"]');
    if (digestMark) mark(digestMark, digest.ok, digest.why);
    if (digest.ok) { if (!digest.none) tally.digestsOk++; }
    else if (seedInfo.ok) {
      tally.digestsBad++;
      tally.failed++;
      if (hidden) tally.secretFailed++;
      fail(body.id, name + ": " + digest.why);
    }
  }

  function report(result) {
    const summary = document.getElementById("dice-summary");
    const box = document.getElementById("dice-failures");
    const list = box.querySelector("ul");
    for (const f of result.failures) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#" + f.anchor;
      a.textContent = f.text;
      li.append(a);
      list.append(li);
    }
    box.hidden = result.failures.length === 0;
    const how = subtle ? "Web Crypto" : "this page's own SHA-256 (Web Crypto needs https)";
    const hiddenNote = result.secretVerified ? " (" + result.secretVerified + " of them hidden rolls revealed at the end)" : "";
    const seeds = result.seedsOk + " seed" + (result.seedsOk === 1 ? "" : "s");
    summary.textContent = result.failed
      ? result.failed + " failed, " + result.verified + " verified: see the list below."
      : result.verified === 0
        ? "No rolls to check; " + seeds + " checked by your browser (" + how + ")."
        : "All " + result.verified + " rolls verified" + hiddenNote + " by your browser (" + how + ").";
    summary.className = "summary " + (result.failed ? "bad" : "ok");
    const b = document.body.dataset;
    b.seedsVerified = result.seedsOk;
    b.seedsFailed = result.seedsBad;
    b.diceFailed = result.failed;
    b.diceVerified = result.verified;
    b.secretVerified = result.secretVerified;
    b.secretFailed = result.secretFailed;
    b.digestsVerified = result.digestsOk;
    b.digestsFailed = result.digestsBad;
    b.diceState = "done";
  }

  run().then(report, (err) => {
    document.getElementById("dice-summary").textContent = "The check could not run: " + err;
    document.body.dataset.diceState = "error";
  });
})();
