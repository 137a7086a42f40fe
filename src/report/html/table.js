// The table of a game log, shared by the viewer (`mtrain view`) and the play page (`mtrain web`):
// tiles and train names, the replay of a log's events (docs/log-format.md) into a position, the
// text of an event, and the drawing of tiles and trains. Nothing here knows the rules: a position
// is what the log's events say happened.
"use strict";
// `players`: the table's seats; `opts.seed`: the match seed as text (it may exceed 2^53);
// `opts.seatName(s)`: a seat's name; `opts.yours`: the seat whose train is "your train".
function mtrainTable(players, opts) {
  const N = players;
  opts = opts || {};
  // ---------------------------------------------------------------- tiles
  function halves(t) {
    const [a, b] = String(t).split("-").map(Number);
    return [a, b];
  }
  // A tile's name lower half first, as hands and the boneyard write it.
  function key(t) {
    const [a, b] = halves(t);
    return a <= b ? `${a}-${b}` : `${b}-${a}`;
  }
  function pips(t) {
    const [a, b] = halves(t);
    return a + b;
  }
  function byValue(x, y) {
    const [a, b] = halves(x);
    const [c, d] = halves(y);
    return a - c || b - d;
  }

  // ---------------------------------------------------------------- names
  function seatName(s) {
    return opts.seatName ? opts.seatName(s) : `Seat ${s}`;
  }
  function trainName(id) {
    const t = String(id);
    if (/^\d+$/.test(t)) return opts.yours != null && Number(t) === opts.yours ? "your train" : `seat ${t}'s train`;
    if (t === "mexican") return "the Mexican train";
    let m = /^mexican(\d+)$/.exec(t);
    if (m) return `Mexican train ${m[1]}`;
    m = /^branch(\d+)$/.exec(t);
    if (m) return `branch ${m[1]}`;
    return t;
  }
  function trainTitle(id) {
    const t = trainName(id);
    return t.startsWith("the ") ? t.slice(4) : t.charAt(0).toUpperCase() + t.slice(1);
  }
  // A review move text ("4-6 on 2", "4-6 on mexican", "stop") for people.
  function moveText(m) {
    if (m == null || m === "") return "\u2014";
    const x = /^(.*) on (\S+)$/.exec(m);
    return x ? `${x[1]} on ${trainName(x[2])}` : m;
  }

  // ---------------------------------------------------------------- replay
  function newState() {
    return {
      round: 0,
      engine: null,
      engineTile: null,
      placer: null,
      first: null,
      redeals: 0,
      hands: Array.from({ length: N }, () => []),
      boneyard: [],
      trains: new Map(),
      markers: new Array(N).fill(false),
      scores: new Map(),
      roundEnd: null,
      matchEnd: null,
      lastTrain: null,
      lastTile: null,
      newTiles: new Set(),
      actor: null,
      problems: [],
    };
  }

  function train(s, id) {
    const k = String(id);
    if (!s.trains.has(k)) s.trains.set(k, { id: k, tiles: [], end: s.engine, root: null, from: null });
    return s.trains.get(k);
  }

  function take(s, seat, tile, where) {
    const hand = s.hands[seat];
    const i = hand.indexOf(key(tile));
    if (i >= 0) hand.splice(i, 1);
    else s.problems.push(`${key(tile)} was not in seat ${seat}'s hand (${where})`);
  }

  function drawTile(s, seat, tile) {
    const k = key(tile);
    const i = s.boneyard.indexOf(k);
    if (i < 0) s.problems.push(`${k} was not in the boneyard`);
    else {
      if (i !== 0) s.problems.push(`${k} was not the boneyard's next tile`);
      s.boneyard.splice(i, 1);
    }
    s.hands[seat].push(k);
    s.newTiles.add(`${seat}:${k}`);
  }

  function apply(s, ev, i) {
    s.lastTrain = null;
    s.lastTile = null;
    s.newTiles = new Set();
    s.actor = typeof ev.seat === "number" ? ev.seat : null;
    switch (ev.event) {
      case "round": {
        if (s.round === ev.round) s.redeals += 1;
        else s.redeals = 0;
        s.round = ev.round;
        s.engine = ev.engine;
        s.engineTile = "lead" in ev ? null : `${ev.engine}-${ev.engine}`;
        s.placer = null;
        s.first = "first" in ev ? ev.first : null;
        s.hands = ev.hands.map((h) => h.slice());
        s.boneyard = ev.boneyard.slice();
        s.trains = new Map();
        for (let p = 0; p < N; p++) train(s, p);
        s.markers = new Array(N).fill(false);
        s.roundEnd = null;
        s.problems = [];
        break;
      }
      case "engine":
        take(s, ev.seat, ev.tile, "engine");
        s.engineTile = ev.tile;
        s.placer = ev.seat;
        break;
      case "play": {
        take(s, ev.seat, ev.tile, "play");
        const t = train(s, ev.train);
        t.tiles.push({ tile: ev.tile, seat: ev.seat, move: i });
        t.end = ev.end;
        s.lastTrain = t.id;
        s.lastTile = t.tiles.length - 1;
        break;
      }
      case "draw":
        drawTile(s, ev.seat, ev.tile);
        break;
      case "penalty":
        for (const t of ev.tiles) drawTile(s, ev.seat, t);
        break;
      case "mark":
        s.markers[ev.seat] = true;
        break;
      case "unmark":
        s.markers[ev.seat] = false;
        break;
      case "branch":
        for (const b of ev.branches) {
          const t = train(s, b);
          t.root = String(ev.root);
          t.from = { train: String(ev.train), value: ev.value };
          t.end = ev.value;
        }
        s.lastTrain = String(ev.train);
        break;
      case "round_end":
        s.scores.set(s.round, ev.scores.slice());
        s.roundEnd = ev;
        break;
      case "match_end":
        s.matchEnd = ev;
        break;
      default:
        break;
    }
  }

  // ---------------------------------------------------------------- text of a move
  function describe(ev) {
    const who = typeof ev.seat === "number" ? seatName(ev.seat) : "";
    // The person addressed as "You" takes the second person's verb.
    const you = who === "You";
    const v = (third, second) => (you ? second : third);
    const their = you ? "your" : "their";
    switch (ev.event) {
      case "match":
        return `Match: ${ev.rules} rules, double-${ev.set}, ${N} players, ${ev.rounds} rounds, seed ${opts.seed}`;
      case "round":
        if (ev.redeal) return `Round ${ev.round} redealt: no hand held a tile showing ${ev.engine}`;
        return `Round ${ev.round} dealt: engine ${ev.engine}` + ("first" in ev ? `; ${seatName(ev.first) === "You" ? "you play" : `seat ${ev.first} plays`} first` : "");
      case "engine":
        return `${who} ${v("places", "place")} the engine ${ev.tile}`;
      case "play": {
        const [a, b] = halves(ev.tile);
        const where = String(ev.train) === String(ev.seat) ? `${their} own train` : trainName(ev.train);
        return `${who} ${v("plays", "play")} ${ev.tile} on ${where}` + (a === b ? " (a double)" : `, open end ${ev.end}`);
      }
      case "draw":
        return `${who} ${v("draws", "draw")} ${ev.tile}`;
      case "mark":
        return `${who} ${v("puts", "put")} a marker on ${their} train: it is public`;
      case "unmark":
        return you ? "Your marker comes off" : `${seatName(ev.seat)}'s marker comes off`;
      case "pass":
        return `${who} ${v("passes", "pass")}`;
      case "skip":
        return `${who} ${v("misses", "miss")} this turn (penalty)`;
      case "penalty":
        return `${who} ${ev.reason === "uncovered_double" ? "left a double uncovered" : "did not announce the last tile"}: ${v("draws", "draw")} ` + (ev.tiles.length ? ev.tiles.join(", ") : "nothing (empty boneyard)");
      case "tap":
        return `${who} ` + (!ev.forgot ? v("announces the last tile", "announce the last tile") : ev.caught ? `forgot to announce the last tile and ${v("is", "are")} caught` : "forgot to announce the last tile; nobody catches it");
      case "branch":
        return `The double ${ev.value}-${ev.value} on ${trainName(ev.train)} is covered: ${ev.branches.map(trainName).join(" and ")} open at ${ev.value}`;
      case "round_end": {
        const why = ev.reason === "out" ? `${seatName(ev.out)} went out` : ev.reason === "blocked" ? "blocked" : ev.reason === "stuck" ? "stuck: no tile can be played again" : ev.reason;
        return `Round over (${why}); scores ${ev.scores.join(", ")}`;
      }
      case "match_end":
        return `Match over: totals ${ev.totals.join(", ")}; ` + (ev.winners.length > 1 ? `winners ${ev.winners.map(seatName).join(", ")}` : `${seatName(ev.winners[0])} wins`);
      default:
        return ev.event;
    }
  }

  // ---------------------------------------------------------------- drawing
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v == null || v === false) continue;
        if (k === "class") e.className = v;
        else if (k === "text") e.textContent = v;
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const k of kids) if (k != null) e.append(k);
    return e;
  }

  function tileEl(t, extra) {
    const [a, b] = halves(t);
    const vertical = extra && extra.vertical;
    const cls = ["tile", vertical ? "vertical" : "", extra && extra.cls ? extra.cls : ""].filter(Boolean).join(" ");
    return el("span", { class: cls, "data-tile": t, title: t, role: "img", "aria-label": t },
      el("span", { class: `half p${a}`, text: String(a) }),
      el("span", { class: `half p${b}`, text: String(b) }));
  }

  function badge(cls, text) {
    return el("span", { class: `badge ${cls}`, text });
  }

  // The trains in table order: personal trains, then Mexican ones, each followed by its branches.
  function trainOrder(s) {
    const all = [...s.trains.values()];
    const tops = all.filter((t) => t.root == null && !/^branch/.test(t.id));
    const rank = (t) => (/^\d+$/.test(t.id) ? [0, Number(t.id)] : [1, Number((/\d+$/.exec(t.id) || ["1"])[0])]);
    tops.sort((x, y) => rank(x)[0] - rank(y)[0] || rank(x)[1] - rank(y)[1]);
    const out = [];
    for (const t of tops) {
      out.push(t);
      for (const b of all) if (b.root === t.id) out.push(b);
    }
    for (const b of all) if (!out.includes(b)) out.push(b);
    return out;
  }

  // Draws the trains of `s` into `box` and returns the line that names the engine; `opts.label`
  // names a train's owner; `extra.targets` maps a train id to a click handler (a legal target).
  function drawTrains(box, s, extra) {
    const targets = extra && extra.targets;
    box.replaceChildren();
    if (s.round === 0) {
      box.append(el("p", { class: "empty", text: "The first round has not been dealt yet." }));
      return "";
    }
    const et = s.engineTile ? s.engineTile : `${s.engine} (not yet placed)`;
    const engineText = `round ${s.round}, engine ${et}` + (s.placer != null ? ` placed by ${seatName(s.placer)}` : "");
    for (const t of trainOrder(s)) {
      const owner = /^\d+$/.test(t.id) ? Number(t.id) : null;
      const isBranch = t.from != null;
      const head = el("div", { class: "train-head" }, el("span", { class: "name", text: trainTitle(t.id) }));
      if (owner != null) head.append(el("span", { class: "info", text: opts.label ? opts.label(owner) : "" }));
      if (isBranch) head.append(el("span", { class: "info", text: `off the ${t.from.value}-${t.from.value} on ${trainName(t.from.train)}` }));
      if (owner != null && owner === opts.yours) head.append(badge("yours", "yours"));
      if (owner != null && s.markers[owner]) head.append(badge("marker", "marker: public"));
      if (owner == null && !isBranch) head.append(badge("public", "public"));
      const lastTile = t.tiles.length ? t.tiles[t.tiles.length - 1].tile : null;
      const open = lastTile && halves(lastTile)[0] === halves(lastTile)[1];
      if (open) head.append(badge("open", `open double ${lastTile}`));
      head.append(el("span", { class: "info", text: `${t.tiles.length} tile${t.tiles.length === 1 ? "" : "s"}, end ${t.end}` }));
      const row = el("div", { class: "tiles" });
      row.append(el("span", { class: "hub", text: isBranch ? `${t.from.value}\u2192` : `${s.engine}\u2192` }));
      t.tiles.forEach((x, j) => {
        const [a, b] = halves(x.tile);
        const cls = s.lastTrain === t.id && s.lastTile === j ? "last" : "";
        row.append(tileEl(x.tile, { vertical: a === b, cls }));
      });
      if (!t.tiles.length) row.append(el("span", { class: "empty", text: "empty" }));
      const target = targets && targets.get(t.id);
      const div = el("div", {
        class: `train${isBranch ? " branch" : ""}${owner != null && s.markers[owner] ? " marked" : ""}${owner != null && owner === opts.yours ? " yours" : ""}${target ? " target" : ""}`,
        "data-train": t.id, "data-count": t.tiles.length, "data-end": t.end,
      }, head, row);
      if (target) {
        div.setAttribute("role", "button");
        div.tabIndex = 0;
        div.addEventListener("click", target);
        div.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); target(); } });
      }
      box.append(div);
    }
    return engineText;
  }

  return {
    halves, key, pips, byValue, seatName, trainName, trainTitle, moveText,
    newState, train, apply, describe, el, tileEl, badge, trainOrder, drawTrains,
  };
}
