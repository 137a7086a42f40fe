// mtrain web: the Guide tab. The rules of thumb of docs/strategy.md, each with its measured size
// and an example position from the study's logged match, set on a table drawn as the viewer
// draws it (table.js). Nothing here asks the engine.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const DATA = JSON.parse($("mtrain-guide").textContent);
  const EVENTS = DATA.log.map((l) => JSON.parse(l));
  const N = EVENTS[0].players;
  const T = mtrainTable(N, { seed: (/"seed"\s*:\s*(\d+)/.exec(DATA.log[0]) || [null, "?"])[1], label: () => "weighted" });

  // The position before move `m` (events 1..m-1), with move m described.
  function show(m) {
    const s = T.newState();
    for (let i = 1; i < m && i < EVENTS.length; i++) T.apply(s, EVENTS[i], i);
    const ev = EVENTS[m];
    const targets = new Map();
    if (ev && ev.event === "play") {
      T.train(s, ev.train);
      targets.set(String(ev.train), () => {});
    }
    const engine = T.drawTrains($("guide-trains"), s, { targets });
    const hands = $("guide-hands");
    hands.replaceChildren();
    for (let p = 0; p < N; p++) {
      const row = T.el("div", { class: "tiles", "data-seat": p }, T.el("b", { text: `Seat ${p}: ` }));
      for (const t of s.hands[p].slice().sort(T.byValue)) {
        const mine = ev && ev.seat === p && ev.tile && T.key(ev.tile) === t;
        row.append(T.tileEl(t, { cls: mine ? "selected" : "" }));
      }
      hands.append(row);
    }
    $("guide-position-text").textContent = `Move ${m} of the example match (${engine}): ${ev ? T.describe(ev) : ""}. The tile and its train are outlined; every hand is shown.`;
    $("guide-position").hidden = false;
    $("guide-position").scrollIntoView({ block: "start" });
  }

  const list = $("guide-rules");
  for (const r of DATA.rules) {
    const li = T.el("li", { class: "guide-rule" }, T.el("h3", { text: r.title.replace(/^\d+\.\s*/, "") }));
    for (const p of r.paragraphs) {
      const para = document.createElement("p");
      // The paragraphs are HTML the page's builder made from docs/strategy.md (escaped text,
      // bold and code spans only).
      para.innerHTML = p;
      li.append(para);
    }
    if (r.move != null) {
      const b = T.el("button", { type: "button", "data-move": r.move, text: `Show the example (move ${r.move})` });
      b.addEventListener("click", () => show(r.move));
      li.append(b);
    }
    list.append(li);
  }

  for (const b of document.querySelectorAll("#tabs .tab")) {
    b.addEventListener("click", () => {
      $("guide").hidden = b.dataset.tab !== "guide";
    });
  }
})();
