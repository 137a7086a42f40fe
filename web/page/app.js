// mtrain web: the page. The engine runs in a Web Worker (worker.js, the WebAssembly inlined in
// this file); the page sends it requests and draws what it answers. The table is the replay of
// the game's log lines with the viewer's code (table.js), so what is drawn is what the log says.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const SAVE_KEY = "mtrain-web-save";

  // ---------------------------------------------------------------- the worker
  let worker = null;
  let nextId = 1;
  const waiting = new Map();
  function ask(request) {
    return new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ id, request });
    });
  }
  function startWorker() {
    const src = $("mtrain-worker").textContent;
    worker = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    const b64 = $("mtrain-wasm").textContent.trim();
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        const m = e.data;
        if (m.ready) {
          worker.onmessage = (ev) => {
            const r = waiting.get(ev.data.id);
            waiting.delete(ev.data.id);
            const answer = JSON.parse(ev.data.answer);
            answer.ms = ev.data.ms;
            if (r) r(answer);
          };
          resolve();
        } else if (m.failed) reject(new Error(m.failed));
      };
      worker.postMessage({ wasm: bytes }, [bytes.buffer]);
    });
  }

  // ---------------------------------------------------------------- setup
  let INFO = null;
  const chosenRules = [];

  // The element builder the table script shares (it needs no table to build an element).
  const { el } = mtrainTable(0);

  function randomSeed() {
    const w = new Uint32Array(2);
    crypto.getRandomValues(w);
    return "0x" + w[0].toString(16).padStart(8, "0") + w[1].toString(16).padStart(8, "0");
  }

  function eloText(bot, preset, players) {
    const byPreset = bot.elo[preset] || bot.elo.wikipedia || {};
    const counts = Object.keys(byPreset).map(Number);
    if (!counts.length) return "";
    const near = counts.reduce((a, b) => (Math.abs(b - players) < Math.abs(a - players) ? b : a));
    const e = byPreset[String(near)];
    const rules = bot.elo[preset] ? preset : "wikipedia";
    return `Elo ${e >= 0 ? "+" : ""}${e} (${rules}, ${near} players; greedy = 0)`;
  }

  function drawSeats() {
    const n = Number($("players").value);
    const box = $("seat-list");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    for (let p = 0; p < n; p++) {
      const sel = el("select", { "data-seat": p, "aria-label": `Seat ${p}` });
      sel.append(el("option", { value: "human", text: p === 0 ? "You" : "A person (pass and play)" }));
      for (const b of INFO.bots) {
        sel.append(el("option", { value: b.bot, text: `${b.name} bot (${b.bot}): ${eloText(b, $("preset").value, n)}` }));
      }
      sel.value = old[p] || (p === 0 ? "human" : "expert");
      box.append(el("label", { class: "seat" }, `Seat ${p} `, sel));
    }
  }

  function drawRules() {
    const list = $("rule-list");
    list.replaceChildren();
    chosenRules.forEach((r, i) => {
      const about = (INFO.rules.find((x) => x.key === r.split("=")[0]) || {}).about || "";
      const rm = el("button", { type: "button", class: "link", text: "remove", "aria-label": `remove ${r}` });
      rm.addEventListener("click", () => {
        chosenRules.splice(i, 1);
        drawRules();
      });
      list.append(el("li", null, el("code", { text: r }), ` ${about} `, rm));
    });
  }

  function setupForm() {
    for (const p of INFO.presets) $("preset").append(el("option", { value: p.name, text: p.name }));
    $("preset").value = "wikipedia";
    const about = () => {
      $("preset-about").textContent = (INFO.presets.find((p) => p.name === $("preset").value) || {}).about || "";
      drawSeats();
    };
    $("preset").addEventListener("change", about);
    // 2 to 16 seats: the engine says which counts the preset deals on the chosen set.
    for (let n = 2; n <= 16; n++) $("players").append(el("option", { value: n, text: String(n) }));
    $("players").value = "4";
    $("players").addEventListener("change", drawSeats);
    for (const r of INFO.rules) $("rule-key").append(el("option", { value: r.key, text: r.key }));
    const ruleAbout = () => {
      const r = INFO.rules.find((x) => x.key === $("rule-key").value);
      $("rule-about").textContent = r ? `${r.about} (values: ${r.valid})` : "";
    };
    $("rule-key").addEventListener("change", ruleAbout);
    $("rule-add").addEventListener("click", () => {
      const v = $("rule-value").value.trim();
      if (!v) {
        $("setup-error").textContent = `give ${$("rule-key").value} a value`;
        return;
      }
      $("setup-error").textContent = "";
      chosenRules.push(`${$("rule-key").value}=${v}`);
      $("rule-value").value = "";
      drawRules();
    });
    $("rounds").append(el("option", { value: "", text: "a full match" }));
    for (const r of [1, 2, 3, 5]) $("rounds").append(el("option", { value: r, text: `${r} round${r > 1 ? "s" : ""}` }));
    $("seed").value = randomSeed();
    $("new-seed").addEventListener("click", () => ($("seed").value = randomSeed()));
    about();
    ruleAbout();
    $("resume").hidden = !localStorage.getItem(SAVE_KEY);
  }

  function specFromForm() {
    const seats = [...$("seat-list").querySelectorAll("select")].map((s) => s.value);
    const rounds = $("rounds").value;
    return {
      preset: $("preset").value,
      set: Number($("set").value),
      rules: chosenRules.slice(),
      rounds: rounds ? Number(rounds) : null,
      seats,
      seed: $("seed").value.trim(),
    };
  }

  // ---------------------------------------------------------------- the game
  let G = null; // { spec, practice, T, state, match, lines, answer, shownSeat, selected }
  let animating = Promise.resolve();
  let pending = 0;

  // Runs a job after those queued before it. While any is queued or running, the body carries
  // data-busy, so whoever drives the page (a person's script, the browser tests) knows the
  // decision on screen may be the last one's and waits for the answer.
  function queue(job) {
    pending += 1;
    document.body.dataset.busy = "true";
    animating = animating
      .then(job)
      .catch((e) => {
        $("game-error").textContent = String(e && e.message ? e.message : e);
      })
      .finally(() => {
        pending -= 1;
        if (!pending) delete document.body.dataset.busy;
      });
    return animating;
  }

  function show(id) {
    $("setup").hidden = id !== "setup";
    $("game").hidden = id !== "game";
  }

  function people(spec) {
    return spec.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  }

  function seatLabel(p) {
    const s = G.spec.seats[p];
    if (s === "human") return people(G.spec).length > 1 ? `Seat ${p} (person)` : "You";
    const b = INFO.bots.find((x) => x.bot === s);
    return b ? `Seat ${p} (${b.name} bot)` : `Seat ${p} (${s})`;
  }

  function newTable() {
    const solo = people(G.spec).length === 1 ? people(G.spec)[0] : null;
    const opts = { seed: G.spec.seed, seatName: (p) => (p === solo ? "You" : `Seat ${p}`), yours: solo, label: seatLabel };
    G.T = mtrainTable(G.spec.seats.length, opts);
    G.state = G.T.newState();
    G.lines = [];
  }

  async function begin(request, spec, practice) {
    $("setup-error").textContent = "";
    const a = await ask(request);
    if (!a.ok) {
      $("setup-error").textContent = a.error;
      return false;
    }
    G = { spec, practice, selected: null, shownSeat: null };
    newTable();
    show("game");
    $("feed").replaceChildren();
    await receive(a);
    return true;
  }

  function delay(ms) {
    return new Promise((r) => setTimeout(r, ms));
  }

  // Applies an answer's new log lines one by one (the bots' moves shown as they happen), then
  // shows the decision in hand.
  async function receive(a) {
    if (a.reset) {
      newTable();
      $("feed").replaceChildren();
    }
    // While the new events are shown one by one, nobody is asked anything yet.
    G.answer = { ...a, to_act: null, legal: [], paused: false, over: false };
    const speed = Number($("speed").value);
    const solo = people(G.spec).length === 1;
    for (const line of a.lines) {
      const ev = JSON.parse(line);
      G.lines.push(line);
      if (ev.event === "match") {
        G.match = ev;
        continue;
      }
      G.T.apply(G.state, ev, G.lines.length - 1);
      feed(ev);
      const bot = typeof ev.seat === "number" && G.spec.seats[ev.seat] !== "human";
      if (!a.reset && speed > 0 && (ev.event === "play" || ev.event === "engine") && (bot || !solo)) {
        draw();
        await delay(speed);
      }
    }
    G.answer = a;
    draw();
    saveLocal();
  }

  function feed(ev) {
    let text = G.T.describe(ev);
    const person = typeof ev.seat === "number" && G.spec.seats[ev.seat] === "human";
    if (person && ["draw", "pass", "mark", "skip", "penalty"].includes(ev.event)) text += " (forced)";
    const li = el("li", { class: ev.event === "round_end" || ev.event === "round" ? "round-line" : null, text });
    $("feed").append(li);
    $("feed").scrollTop = $("feed").scrollHeight;
  }

  function moveLabel(m) {
    if (m.kind === "stop") return "stop here";
    if (m.kind === "bullet") return "bullet train: play the whole hand";
    if (m.kind === "skip") return "skip";
    return `${m.tile} on ${G.T.trainName(m.train)}` + (m.turned ? " (turned)" : "");
  }

  function play(i) {
    G.selected = null;
    $("hint-text").hidden = true;
    queue(async () => {
      const a = await ask({ op: "play", move: i });
      if (!a.ok) {
        $("game-error").textContent = a.error;
        return;
      }
      $("game-error").textContent = "";
      await receive(a);
    });
  }

  function draw() {
    if (G.viewing) return drawPosition();
    $("position").hidden = true;
    const a = G.answer;
    const s = G.state;
    const toAct = a.to_act;
    const many = people(G.spec).length > 1;
    // Pass and play: the next person's tiles stay covered until they ask.
    const cover = many && toAct != null && G.shownSeat !== toAct && !a.paused && !a.over;
    $("cover").hidden = !cover;
    if (cover) $("cover-text").textContent = `Seat ${toAct}'s turn: pass the device to seat ${toAct}.`;
    const seat = toAct != null ? toAct : people(G.spec)[0];
    const targets = new Map();
    const legal = a.legal || [];
    const playable = new Set(legal.filter((m) => m.kind === "play").map((m) => G.T.key(m.tile)));
    // A train a move may start (the Mexican train before its first tile) is drawn, empty.
    for (const m of legal) if (m.kind === "play") G.T.train(s, m.train);
    if (G.selected && !cover) {
      for (const m of legal) if (m.kind === "play" && G.T.key(m.tile) === G.selected) targets.set(m.train, () => play(m.index));
    }
    const engineText = G.T.drawTrains($("trains"), s, { targets });
    $("engine-text").textContent = engineText;
    // The hand of the person in the seat.
    $("hand-title").textContent = many ? `Seat ${seat}'s hand` : "Your hand";
    const hand = $("hand");
    hand.replaceChildren();
    if (!cover) {
      for (const t of s.hands[seat].slice().sort(G.T.byValue)) {
        const can = playable.has(t) && toAct === seat;
        const cls = [can ? "playable" : "", G.selected === t ? "selected" : "", s.newTiles.has(`${seat}:${t}`) ? "new" : ""].filter(Boolean).join(" ");
        const tile = G.T.tileEl(t, { cls });
        if (can) {
          tile.setAttribute("role", "button");
          tile.tabIndex = 0;
          const pick = () => {
            G.selected = G.selected === t ? null : t;
            draw();
          };
          tile.addEventListener("click", pick);
          tile.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
        }
        hand.append(tile);
      }
    }
    // The prompt and the legal moves as buttons (also every move that places no tile).
    const list = $("move-list");
    list.replaceChildren();
    let prompt = "";
    if (a.over) prompt = "The match is over.";
    else if (a.paused) prompt = "The round is over.";
    else if (toAct == null) prompt = "The bots are playing\u2026";
    else if (!cover) {
      prompt = G.selected ? `Where does ${G.selected} go? Tap a highlighted train.` : "Your move: tap a highlighted tile, then its train, or pick a move below.";
      if (a.drawn) prompt = `You drew ${a.drawn}: play it or pass. ` + prompt;
      if (a.decision === "cover") prompt = "Cover the open double. " + prompt;
      legal.forEach((m, k) => {
        const b = el("button", { type: "button", class: "move", "data-move": m.index, text: `${k + 1}. ${moveLabel(m)}` });
        b.addEventListener("click", () => play(m.index));
        list.append(b);
      });
    }
    $("prompt").textContent = prompt;
    $("hint").disabled = toAct == null || cover || a.paused || a.over;
    $("undo").hidden = !G.practice;
    $("undo").disabled = !a.choices;
    // Status, players, scores.
    const n = G.spec.seats.length;
    const rounds = G.match ? G.match.rounds : "?";
    $("status").textContent = a.over ? "Match over." : `Round ${a.round} of ${rounds}` + (toAct != null ? ` \u00b7 ${many ? `seat ${toAct}` : "you"} to play` : "");
    $("boneyard-text").textContent = `boneyard ${s.boneyard.length}`;
    const seats = $("seats");
    seats.replaceChildren();
    for (let p = 0; p < n; p++) {
      const chip = el("div", { class: `seat-chip${toAct === p ? " active" : ""}`, "data-seat": p },
        el("b", { text: seatLabel(p) }), ` ${s.hands[p].length} tiles`, s.markers[p] ? " \u00b7 marker" : "");
      seats.append(chip);
    }
    drawScores($("scores"));
    // Between rounds, and at the end.
    const pause = a.paused || a.over;
    $("pause").hidden = !pause;
    if (!pause) {
      $("review").hidden = true;
      $("review-list").replaceChildren();
      $("review-progress").textContent = "";
      G.reviewed = null;
    }
    if (pause) {
      const end = s.matchEnd;
      $("pause-title").textContent = end ? "Match over" : `Round ${a.round - 1} over`;
      if (end) {
        const w = end.winners.map((p) => seatLabel(p)).join(", ");
        $("pause-text").textContent = `${end.winners.length > 1 ? "Winners" : "Winner"}: ${w}. Lowest total wins.`;
      } else {
        $("pause-text").textContent = `Running totals after round ${a.round - 1}; round ${a.round} is dealt.`;
      }
      drawScores($("pause-scores"));
      $("pause-go").textContent = end ? "New game" : `Continue to round ${a.round}`;
    }
  }

  function drawScores(table) {
    const s = G.state;
    const n = G.spec.seats.length;
    table.replaceChildren();
    const head = el("tr", null, el("th", { text: "Round" }));
    for (let p = 0; p < n; p++) head.append(el("th", { title: seatLabel(p), text: G.T.seatName(p) }));
    table.append(el("thead", null, head));
    const body = el("tbody");
    const totals = new Array(n).fill(0);
    for (const [r, sc] of [...s.scores].sort((x, y) => x[0] - y[0])) {
      const tr = el("tr", null, el("td", { text: String(r) }));
      for (let p = 0; p < n; p++) {
        totals[p] += sc[p];
        tr.append(el("td", { class: sc[p] === 0 ? "out" : null, text: String(sc[p]) }));
      }
      body.append(tr);
    }
    const tot = el("tr", { class: "total" }, el("td", { text: "Total" }));
    for (let p = 0; p < n; p++) tot.append(el("td", { "data-total-seat": p, text: String(totals[p]) }));
    body.append(tot);
    table.append(body);
  }

  // ---------------------------------------------------------------- review
  const GRADE_TEXT = { blunder: "blunder", mistake: "mistake", inaccuracy: "inaccuracy", "": "good" };

  // Grades each of the people's decisions of the round just over (of the whole match at its
  // end), one analysis per request so the progress shows.
  async function reviewRound() {
    const a = G.answer;
    const round = a.over ? null : a.round - 1;
    $("review-go").disabled = true;
    $("review").hidden = false;
    $("review-list").replaceChildren();
    const rows = [];
    for (let k = 0; ; k++) {
      const r = await ask({ op: "review", round, k });
      if (!r.ok) {
        $("review-progress").textContent = r.error;
        break;
      }
      if (!r.row) break;
      $("review-progress").textContent = `reviewed ${k + 1} of ${r.total}`;
      rows.push({ ...r.row, choice: r.choice });
      $("review-list").append(reviewItem(rows[rows.length - 1]));
    }
    $("review-go").disabled = false;
    G.reviewed = rows;
    $("review-summary").textContent = reviewSummary(rows);
  }

  function reviewSummary(rows) {
    const bySeat = new Map();
    for (const r of rows) {
      const m = bySeat.get(r.seat) || { n: 0, loss: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
      m.n += 1;
      m.loss += Math.max(0, r.loss);
      if (r.grade in m) m[r.grade] += 1;
      bySeat.set(r.seat, m);
    }
    if (!bySeat.size) return "No decisions of yours to review.";
    return [...bySeat].map(([seat, m]) => `${G.T.seatName(seat)}: ${m.n} decisions, ${m.blunder} blunders, ${m.mistake} mistakes, ${m.inaccuracy} inaccuracies; ${m.loss.toFixed(1)} points lost in all against the best moves (expected).`).join(" ");
  }

  function reviewItem(r) {
    const g = GRADE_TEXT[r.grade] || r.grade;
    const li = el("li", { tabindex: 0, "data-choice": r.choice, "data-grade": r.grade || "good" },
      el("span", { class: `grade ${r.grade || "good"}`, text: g }),
      ` round ${r.round}: played ${G.T.moveText(r.played)}` + (r.played === r.best ? " (the best move)" : `; best ${G.T.moveText(r.best)}, ${r.loss.toFixed(2)} points better [${r.loss_lo.toFixed(2)}, ${r.loss_hi.toFixed(2)}]`));
    const open = () => showPosition(r);
    li.addEventListener("click", open);
    li.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
    return li;
  }

  // The position before a reviewed decision, its best move marked on the table.
  function showPosition(r) {
    G.viewing = r;
    draw();
  }

  function drawPosition() {
    const r = G.viewing;
    const s = G.T.newState();
    // Events before the decision's first event (log line r.line, from 1; G.lines[0] is line 1).
    for (let i = 1; i < r.line - 1 && i < G.lines.length; i++) G.T.apply(s, JSON.parse(G.lines[i]), i);
    const best = /^(\S+) on (\S+)$/.exec(r.best);
    const targets = new Map();
    if (best) {
      G.T.train(s, best[2]);
      targets.set(best[2], () => {});
    }
    $("engine-text").textContent = G.T.drawTrains($("trains"), s, { targets });
    const hand = $("hand");
    hand.replaceChildren();
    for (const t of s.hands[r.seat].slice().sort(G.T.byValue)) {
      hand.append(G.T.tileEl(t, { cls: best && G.T.key(best[1]) === t ? "selected" : "" }));
    }
    $("hand-title").textContent = "The hand at that decision";
    $("move-list").replaceChildren();
    $("prompt").textContent = "";
    $("position").hidden = false;
    $("pause").hidden = true;
    $("position-text").textContent = `Round ${r.round}, before your decision: you played ${G.T.moveText(r.played)}; the best was ${G.T.moveText(r.best)} (outlined on the table and in the hand).`;
    $("position-retry").hidden = !G.practice;
  }

  // ---------------------------------------------------------------- saving
  async function currentSave() {
    const a = await ask({ op: "save" });
    return a.ok ? { ...a.saved, practice: G.practice } : null;
  }
  async function saveLocal() {
    if (!G) return;
    const s = await currentSave();
    if (s) localStorage.setItem(SAVE_KEY, JSON.stringify(s));
  }
  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  async function resumeFrom(saved) {
    const practice = saved.practice !== false;
    const { practice: _, ...plain } = saved;
    return begin({ op: "resume", saved: plain }, saved.game, practice);
  }

  // ---------------------------------------------------------------- buttons
  function wire() {
    $("start").addEventListener("click", () => queue(() => begin({ op: "new", game: specFromForm() }, specFromForm(), $("practice").checked)));
    $("resume").addEventListener("click", () => {
      try {
        const saved = JSON.parse(localStorage.getItem(SAVE_KEY));
        queue(() => resumeFrom(saved));
      } catch (e) {
        $("setup-error").textContent = `the saved game cannot be read: ${e.message}`;
      }
    });
    $("open-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      try {
        await resumeFrom(JSON.parse(await f.text()));
      } catch (err) {
        $("setup-error").textContent = `${f.name} is not a saved game: ${err.message}`;
      }
    });
    $("cover-show").addEventListener("click", () => {
      G.shownSeat = G.answer.to_act;
      draw();
    });
    $("pause-go").addEventListener("click", () => {
      if (G.answer.over) {
        G = null;
        localStorage.removeItem(SAVE_KEY);
        $("resume").hidden = true;
        $("seed").value = randomSeed();
        show("setup");
        return;
      }
      queue(async () => receive(await ask({ op: "continue" })));
    });
    $("review-go").addEventListener("click", () => {
      queue(reviewRound);
    });
    $("position-back").addEventListener("click", () => {
      G.viewing = null;
      draw();
    });
    $("position-retry").addEventListener("click", () => {
      const choice = G.viewing.choice;
      G.viewing = null;
      queue(async () => {
        const a = await ask({ op: "rewind", choice });
        if (!a.ok) $("game-error").textContent = a.error;
        else await receive(a);
      });
    });
    $("hint").addEventListener("click", () => {
      $("hint").disabled = true;
      $("hint-text").hidden = false;
      $("hint-text").textContent = "thinking\u2026";
      queue(async () => {
        const a = await ask({ op: "hint" });
        $("hint").disabled = false;
        if (!a.ok) {
          $("hint-text").textContent = a.error;
          return;
        }
        const best = G.answer.legal.find((m) => m.index === a.best);
        $("hint-text").textContent = `Best: ${best ? moveLabel(best) : a.best}\n${a.text}(${a.worlds} sampled deals, ${(a.ms / 1000).toFixed(2)} s)`;
        if (best && best.kind === "play") {
          G.selected = G.T.key(best.tile);
          draw();
        }
      });
    });
    $("undo").addEventListener("click", () => {
      queue(async () => {
        const a = await ask({ op: "undo" });
        if (!a.ok) $("game-error").textContent = a.error;
        else await receive(a);
      });
    });
    $("save").addEventListener("click", async () => {
      await saveLocal();
      $("game-error").textContent = "Saved in this browser: Resume on the start screen brings it back.";
    });
    $("download-log").addEventListener("click", async () => {
      const a = await ask({ op: "log" });
      if (a.ok) download(`mtrain-${G.spec.seed}.jsonl`, a.log, "application/x-ndjson");
    });
    $("download-save").addEventListener("click", async () => {
      const s = await currentSave();
      if (s) download(`mtrain-save-${G.spec.seed}.json`, JSON.stringify(s, null, 1), "application/json");
    });
    $("quit").addEventListener("click", () => {
      G = null;
      $("resume").hidden = !localStorage.getItem(SAVE_KEY);
      show("setup");
    });
    $("bench").addEventListener("click", async () => {
      $("bench-result").textContent = "measuring\u2026";
      const a = await ask({ op: "bench", rounds: Number($("bench").dataset.rounds || 20000) });
      $("bench-result").textContent = `${Math.round(a.rounds / (a.ms / 1000)).toLocaleString("en")} greedy rounds a second (${a.rounds} rounds in ${(a.ms / 1000).toFixed(2)} s)`;
      $("bench-result").dataset.rate = String(a.rounds / (a.ms / 1000));
    });
  }

  // ---------------------------------------------------------------- start
  startWorker()
    .then(() => ask({ op: "info" }))
    .then((info) => {
      INFO = info;
      // The rules lab (lab.js) asks the same worker.
      document.dispatchEvent(new CustomEvent("mtrain-ready", { detail: { ask, info } }));
      setupForm();
      wire();
      $("engine-state").textContent = "";
      document.body.dataset.ready = "true";
      show("setup");
    })
    .catch((e) => {
      $("engine-state").textContent = `The engine could not start: ${e.message}`;
      $("engine-state").className = "error";
    });
})();
