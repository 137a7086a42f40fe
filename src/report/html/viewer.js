// mtrain view: replays the embedded game log in the browser. Every position shown is computed
// here, by applying the log's events in order (docs/log-format.md); nothing is precomputed.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("mtrain-data").textContent);
  const LINES = DATA.lines;
  const EVENTS = LINES.map((l) => JSON.parse(l));
  const MATCH = EVENTS[0];
  const N = MATCH.players;
  // The seed may exceed 2^53: read its digits from the line's text, never through a number.
  const SEED = (/"seed"\s*:\s*(\d+)/.exec(LINES[0]) || [null, "?"])[1];
  const GAME = DATA.game;
  const LAST = EVENTS.length - 1;
  const BOTS = MATCH.bots || [];
  const {
    halves, pips, byValue, seatName, trainName, moveText, newState, apply, describe: describeEvent, el, tileEl, badge,
  } = mtrainTable(N, { seed: SEED });
  const drawTable = mtrainTable(N, { seed: SEED, label: (p) => BOTS[p] || "" }).drawTrains;

  // Review rows by the move they belong to.
  const REVIEW = new Map();
  for (const r of DATA.review || []) {
    if (!REVIEW.has(r.move)) REVIEW.set(r.move, []);
    REVIEW.get(r.move).push(r);
  }
  const MISTAKES = new Set([...REVIEW].filter(([, rows]) => rows.some((r) => r.mistake === true)).map(([m]) => m));

  // Rounds: the index of the first `round` event of each number (where a jump lands), and the
  // segment (round) each event belongs to. A redeal repeats `round` with the same number.
  const ROUND_START = new Map();
  const SEGMENT = new Array(EVENTS.length).fill(0);
  {
    // The match line goes with the first round; match_end with the last.
    const firstRound = EVENTS.find((ev) => ev.event === "round");
    let seg = firstRound ? firstRound.round : 0;
    EVENTS.forEach((ev, i) => {
      if (ev.event === "round" && !ROUND_START.has(ev.round)) {
        ROUND_START.set(ev.round, i);
        seg = ev.round;
      }
      SEGMENT[i] = seg;
    });
  }

  // The position after move p (events 1..p applied).
  function stateAt(p) {
    const s = newState();
    for (let i = 1; i <= p; i++) apply(s, EVENTS[i], i);
    return s;
  }

  // ---------------------------------------------------------------- drawing
  const $ = (id) => document.getElementById(id);

  function drawHeader() {
    document.title = `mtrain view: ${MATCH.rules}, ${N} players, seed ${SEED}` + (GAME != null ? `, game ${GAME}` : "");
    $("title").textContent = `Mexican Train \u00b7 ${MATCH.rules} rules`;
    const opts = Object.entries(MATCH.options || {}).map(([k, v]) => `${k}=${v}`).join(", ") || "none";
    const facts = [
      ["Rules", MATCH.rules],
      ["Set", `double-${MATCH.set}`],
      ["Players", String(N)],
      ["Hand", `${MATCH.hand} tiles`],
      ["Rounds", String(MATCH.rounds)],
      ["Seed", SEED],
      ["Rule changes", opts],
      ["Log", DATA.file + (GAME != null ? `, game ${GAME}` : "")],
    ];
    const dl = $("facts");
    for (const [k, v] of facts) dl.append(el("div", { "data-fact": k.toLowerCase() }, el("dt", { text: k }), el("dd", { text: v })));
    const seats = $("seats");
    for (let p = 0; p < N; p++) seats.append(el("span", { class: "seat-chip", "data-seat": p }, el("b", { text: `${seatName(p)}: ` }), BOTS[p] || "?"));
    $("source").textContent = DATA.file + (GAME != null ? ` (game ${GAME})` : "");
    const sel = $("round-select");
    for (const [r] of ROUND_START) sel.append(el("option", { value: r, text: `${r} of ${MATCH.rounds}` }));
    if (!ROUND_START.size) sel.disabled = true;
    const range = $("timeline");
    range.max = String(LAST);
    const marks = $("marks");
    for (const [, i] of ROUND_START) {
      marks.append(el("span", { class: "tl-round", style: `left:${(100 * i) / Math.max(LAST, 1)}%` }));
    }
    for (const m of [...MISTAKES].sort((a, b) => a - b)) {
      const b = el("button", { type: "button", class: "tl-mistake", "data-move": m, title: `mistake at move ${m}`, style: `left:${(100 * m) / Math.max(LAST, 1)}%` });
      b.addEventListener("click", () => go(m));
      marks.append(b);
    }
  }

  function describe(i) {
    return describeEvent(EVENTS[i]);
  }

  function drawTrains(s) {
    $("engine-text").textContent = drawTable($("trains"), s);
  }

  function drawHands(s) {
    const box = $("hands");
    box.replaceChildren();
    const outSeat = s.roundEnd && s.roundEnd.reason === "out" ? s.roundEnd.out : null;
    for (let p = 0; p < N; p++) {
      const hand = s.hands[p].slice().sort(byValue);
      const total = hand.reduce((a, t) => a + pips(t), 0);
      const head = el("div", { class: "hand-head" },
        el("span", { class: "name", text: seatName(p) }),
        el("span", { class: "info", text: BOTS[p] || "" }),
        el("span", { class: "info count", text: `${hand.length} tile${hand.length === 1 ? "" : "s"}, ${total} pips` }));
      if (s.markers[p]) head.append(badge("marker", "marked"));
      if (outSeat === p) head.append(badge("out", "out"));
      const row = el("div", { class: "tiles" });
      for (const t of hand) row.append(tileEl(t, { cls: s.newTiles.has(`${p}:${t}`) ? "new" : "" }));
      if (!hand.length) row.append(el("span", { class: "empty", text: s.round ? "no tiles" : "not dealt" }));
      box.append(el("div", { class: `hand${s.actor === p ? " active" : ""}`, "data-seat": p, "data-count": hand.length }, head, row));
    }
    $("boneyard-count").textContent = String(s.boneyard.length);
    const by = $("boneyard");
    by.replaceChildren(...s.boneyard.map((t) => tileEl(t)));
    if (!s.boneyard.length) by.append(el("span", { class: "empty", text: "empty" }));
  }

  function drawScores(s) {
    const table = $("scores");
    table.replaceChildren();
    const head = el("tr", null, el("th", { text: "Round" }));
    for (let p = 0; p < N; p++) head.append(el("th", { text: `Seat ${p}` }));
    table.append(el("thead", null, head));
    const body = el("tbody");
    const totals = new Array(N).fill(0);
    for (const [r] of ROUND_START) {
      const sc = s.scores.get(r);
      const tr = el("tr", { class: r === s.round ? "current" : null, "data-round": r }, el("td", { text: String(r) }));
      for (let p = 0; p < N; p++) {
        if (sc) totals[p] += sc[p];
        tr.append(el("td", { "data-seat": p, class: sc ? (sc[p] === 0 ? "out" : null) : "pending", text: sc ? String(sc[p]) : "\u00b7" }));
      }
      body.append(tr);
    }
    const final = s.matchEnd ? s.matchEnd.totals : totals;
    const winners = s.matchEnd ? new Set(s.matchEnd.winners) : new Set();
    const tot = el("tr", { class: "total", id: "totals" }, el("td", { text: s.matchEnd ? "Total (final)" : "Total" }));
    for (let p = 0; p < N; p++) tot.append(el("td", { "data-total-seat": p, class: winners.has(p) ? "winner" : null, text: String(final[p]) }));
    body.append(tot);
    table.append(body);
  }

  let shownSegment = -1;
  function drawMoves(p) {
    const list = $("moves");
    const seg = SEGMENT[p];
    if (seg !== shownSegment) {
      shownSegment = seg;
      list.replaceChildren();
      for (let i = 0; i <= LAST; i++) {
        if (SEGMENT[i] !== seg) continue;
        const li = el("li", { "data-move": i, class: MISTAKES.has(i) ? "mistake" : null },
          el("span", { class: "num", text: String(i) }), el("span", { class: "text", text: describe(i) }));
        if (MISTAKES.has(i)) li.append(badge("mistake", "mistake"));
        else if (REVIEW.has(i)) li.title = "reviewed";
        li.addEventListener("click", () => go(i));
        list.append(li);
      }
    }
    let cur = null;
    for (const li of list.children) {
      const on = Number(li.dataset.move) === p;
      li.classList.toggle("current", on);
      if (on) cur = li;
    }
    if (cur) {
      // Scroll the list, not the page.
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  function fmt(x, digits) {
    return typeof x === "number" && isFinite(x) ? x.toFixed(digits) : "\u2014";
  }
  function pct(x) {
    return typeof x === "number" && isFinite(x) ? `${(100 * x).toFixed(1)}%` : "\u2014";
  }

  function drawReview(p) {
    const box = $("review");
    const rows = REVIEW.get(p);
    box.replaceChildren();
    if (!rows) {
      box.hidden = true;
      box.className = "";
      return;
    }
    box.hidden = false;
    const bad = rows.some((r) => r.mistake === true);
    box.className = bad ? "mistake" : "";
    for (const r of rows) {
      const grade = r.grade || (r.mistake === true ? "mistake" : "");
      const GRADES = { blunder: "\u2716 Blunder", mistake: "\u2716 Mistake" };
      const SOFT = { inaccuracy: "Inaccuracy", unconfirmed: "Not confirmed by the players' own bots" };
      const verdict = r.mistake === true ? el("span", { class: "verdict", text: GRADES[grade] || "\u2716 Mistake" })
        : el("span", { class: "verdict ok", text: SOFT[grade] || (r.played === r.best ? "Best move" : "No clear mistake") });
      box.append(el("p", { class: "review-line" }, verdict,
        `Seat ${r.seat} played `, el("b", { class: "played", text: moveText(r.played) }),
        "; best: ", el("b", { class: "best", text: moveText(r.best) })));
      box.append(el("p", { class: "review-line loss" },
        `Loss ${fmt(r.loss, 2)} points (95% joint interval ${fmt(r.loss_lo, 2)} to ${fmt(r.loss_hi, 2)}); expected round points ${fmt(r.played_points, 2)} played, ${fmt(r.best_points, 2)} best; round win ${pct(r.played_win)} played, ${pct(r.best_win)} best.`));
      box.append(el("p", { class: "review-line info" },
        `Decision ${r.decision ?? "?"} of round ${r.round ?? "?"}` + (r.kind ? ` (${r.kind})` : "") +
        (r.moves != null ? `, ${r.moves} legal moves` : "") + (r.worlds != null ? `, ${r.worlds} sampled worlds` : "")));
    }
  }

  // ---------------------------------------------------------------- navigation
  let pos = 0;
  let state = null;
  function go(p) {
    const to = Math.max(0, Math.min(LAST, p | 0));
    // One step forward applies one event; any other jump replays from the start.
    if (state && to === pos + 1) apply(state, EVENTS[to], to);
    else state = stateAt(to);
    pos = to;
    const s = state;
    $("counter").textContent = `move ${pos} / ${LAST}`;
    $("timeline").value = String(pos);
    let text = describe(pos);
    if (s.problems.length) text += ` [log inconsistency: ${s.problems[s.problems.length - 1]}]`;
    $("event-text").textContent = text;
    $("first").disabled = pos === 0;
    $("prev").disabled = pos === 0;
    $("next").disabled = pos === LAST;
    $("last").disabled = pos === LAST;
    if (s.round) $("round-select").value = String(s.round);
    drawTrains(s);
    drawHands(s);
    drawScores(s);
    drawMoves(pos);
    drawReview(pos);
    document.body.dataset.move = String(pos);
  }

  function roundStep(dir) {
    const starts = [...ROUND_START.values()];
    if (dir < 0) {
      const before = starts.filter((i) => i < pos);
      go(before.length ? before[before.length - 1] : 0);
    } else {
      const after = starts.find((i) => i > pos);
      go(after == null ? LAST : after);
    }
  }

  let timer = null;
  function setPlaying(on) {
    if (on && pos >= LAST) go(0);
    if (timer) clearInterval(timer);
    timer = on ? setInterval(() => { if (pos >= LAST) setPlaying(false); else go(pos + 1); }, 350) : null;
    $("play").textContent = on ? "pause" : "play";
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(pos - 1));
  $("next").addEventListener("click", () => go(pos + 1));
  $("last").addEventListener("click", () => go(LAST));
  $("play").addEventListener("click", () => setPlaying(!timer));
  $("round-select").addEventListener("change", (e) => {
    const i = ROUND_START.get(Number(e.target.value));
    if (i != null) go(i);
  });
  $("timeline").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
    const acts = {
      ArrowRight: () => go(pos + 1),
      ArrowLeft: () => go(pos - 1),
      Home: () => go(0),
      End: () => go(LAST),
      PageDown: () => roundStep(1),
      PageUp: () => roundStep(-1),
      " ": () => setPlaying(!timer),
    };
    const act = acts[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  });

  // Inline SVG icons for the buttons (no font needs the glyphs).
  const ICONS = {
    first: "M3 2h2v12H3zM14 2v12L6 8z",
    prev: "M12 2v12L4 8z",
    next: "M4 2v12l8-6z",
    last: "M11 2h2v12h-2zM2 2v12l8-6z",
  };
  for (const [id, d] of Object.entries(ICONS)) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    svg.append(path);
    $(id).replaceChildren(svg);
  }

  drawHeader();
  go(0);
})();
