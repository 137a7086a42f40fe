// mtrain web: the rules lab (docs/web.md). Two rule sets, a table size and a sample; the
// worker plays `mtrain compare`'s comparison a few chunks of deals a request (compare_start,
// compare_step: web/src/lab.rs), so the page shows its progress and stays responsive; then the
// summary in plain words, the differences with their adjusted intervals (a table and a plot
// drawn here as SVG), and compare.csv and summary.txt as the command line writes them.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  let ask = null; // the page's request to the worker (app.js)
  let INFO = null; // presets and rule keys (op "info")
  let result = null; // the last finished comparison
  let running = null; // { stop } while a comparison runs

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids) if (k != null) e.append(k);
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  }

  // ---------------------------------------------------------------- tabs
  // The panels of the other tabs keep their own `hidden` (app.js shows the game or its setup):
  // the tab in view is the body's data-tab, and lab.css hides the rest.
  function showTab(name) {
    for (const b of document.querySelectorAll("#tabs .tab")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
    document.body.dataset.tab = name;
    $("lab").hidden = name !== "lab";
    // A plot drawn while the tab was out of view had no width to fit.
    if (name === "lab" && result) drawPlot();
  }
  for (const b of document.querySelectorAll("#tabs .tab")) b.addEventListener("click", () => showTab(b.dataset.tab));

  // ---------------------------------------------------------------- the form
  // A rule set: a preset and its rule changes, edited as the Play tab's house rules are.
  function ruleSetEditor(box, name, preset, changes) {
    const sel = el("select", { "aria-label": `${name}: rules` });
    for (const p of INFO.presets) sel.append(el("option", { value: p.name, text: p.name }));
    sel.value = preset;
    const about = el("p", { class: "about" });
    const key = el("select", { "aria-label": `${name}: rule` });
    for (const r of INFO.rules) key.append(el("option", { value: r.key, text: r.key }));
    const listId = `${box.id}-values`;
    const values = el("datalist", { id: listId });
    const value = el("input", { "aria-label": `${name}: value`, placeholder: "value", list: listId, size: "14" });
    const add = el("button", { type: "button", text: "Add" });
    const keyAbout = el("p", { class: "about" });
    const list = el("ul", { class: "lab-changes" });
    const rules = changes.slice();
    const drawAbout = () => {
      about.textContent = (INFO.presets.find((p) => p.name === sel.value) || {}).about || "";
    };
    const drawKey = () => {
      const r = INFO.rules.find((x) => x.key === key.value);
      keyAbout.textContent = r ? `${r.about} (values: ${r.valid})` : "";
      // Offer the values where they are a list of words.
      values.replaceChildren();
      const words = r ? r.valid.replace(/^\[|\]$/g, "").split(/,\s*/) : [];
      if (words.every((w) => /^[a-z0-9_.]+$/.test(w))) for (const w of words) values.append(el("option", { value: w }));
    };
    const drawList = () => {
      list.replaceChildren();
      rules.forEach((r, i) => {
        const rm = el("button", { type: "button", class: "link", text: "remove", "aria-label": `remove ${r} from ${name}` });
        rm.addEventListener("click", () => {
          rules.splice(i, 1);
          drawList();
        });
        list.append(el("li", null, el("code", { text: r }), " ", rm));
      });
      if (!rules.length) list.append(el("li", { class: "about", text: "no changes: the preset as it is" }));
    };
    add.addEventListener("click", () => {
      const v = value.value.trim();
      if (!v) {
        $("lab-error").textContent = `give ${key.value} a value`;
        return;
      }
      $("lab-error").textContent = "";
      const at = rules.findIndex((r) => r.split("=")[0] === key.value);
      if (at >= 0) rules[at] = `${key.value}=${v}`;
      else rules.push(`${key.value}=${v}`);
      value.value = "";
      drawList();
    });
    sel.addEventListener("change", drawAbout);
    key.addEventListener("change", drawKey);
    box.append(
      el("label", null, "Rules ", sel),
      about,
      el("div", { class: "rule-add" }, key, value, values, add),
      keyAbout,
      list
    );
    if (changes.length) key.value = changes[0].split("=")[0];
    drawAbout();
    drawKey();
    drawList();
    // `mtrain compare --ruleset`'s form: PRESET or PRESET:key=value,key=value.
    return () => (rules.length ? `${sel.value}:${rules.join(",")}` : sel.value);
  }

  let rulesetA = null;
  let rulesetB = null;

  function setup() {
    rulesetA = ruleSetEditor($("lab-a"), "Baseline", "wikipedia", []);
    rulesetB = ruleSetEditor($("lab-b"), "Compared", "wikipedia", ["tap=draw_two"]);
    for (let n = 2; n <= 8; n++) $("lab-players").append(el("option", { value: n, text: String(n) }));
    $("lab-players").value = "4";
    $("lab-hands").addEventListener("change", () => {
      $("lab-hands-custom").hidden = $("lab-hands").value !== "custom";
    });
    $("lab-run").addEventListener("click", run);
    $("lab-stop").addEventListener("click", () => {
      if (running) running.stop = true;
    });
    $("lab-every").addEventListener("change", drawTable);
    $("lab-csv").addEventListener("click", () => download("compare.csv", result.compare_csv, "text/csv"));
    $("lab-summary-file").addEventListener("click", () => download("summary.txt", result.summary, "text/plain"));
    let resize = 0;
    window.addEventListener("resize", () => {
      clearTimeout(resize);
      resize = setTimeout(() => result && drawPlot(), 150);
    });
    $("lab-run").disabled = false;
  }

  function download(name, text, type) {
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
    document.body.append(a);
    a.click();
    a.remove();
  }

  function labSpec() {
    const hands = $("lab-hands").value === "custom" ? $("lab-hands-custom").value.trim() : $("lab-hands").value;
    const games = $("lab-games").value.trim();
    return {
      rulesets: [rulesetA(), rulesetB()],
      players: Number($("lab-players").value),
      hands,
      games: /^\d+$/.test(games) ? Number(games) : -1,
      seed: $("lab-seed").value.trim(),
    };
  }

  // ---------------------------------------------------------------- running
  async function run() {
    if (running) return;
    $("lab-error").textContent = "";
    const spec = labSpec();
    if (spec.games < 1) {
      $("lab-error").textContent = "games: give a whole number, 1 or more";
      return;
    }
    running = { stop: false };
    result = null;
    $("lab-results").hidden = true;
    $("lab-run").disabled = true;
    $("lab-stop").hidden = false;
    try {
      let a = await ask({ op: "compare_start", lab: spec });
      if (!a.ok) {
        $("lab-error").textContent = a.error;
        return;
      }
      const about = a.about;
      $("lab-progress-box").hidden = false;
      // Steps of about a fifth of a second: the bar moves and the Play tab's requests get a turn.
      let games = 50;
      while (!a.finished) {
        progress(a);
        if (running.stop) {
          $("lab-error").textContent = `Stopped after ${a.done} of ${a.total} games.`;
          return;
        }
        a = await ask({ op: "compare_step", games });
        if (!a.ok) {
          $("lab-error").textContent = a.error;
          return;
        }
        games = Math.max(10, Math.min(20000, Math.round((games * 200) / Math.max(a.ms, 1))));
      }
      progress(a);
      result = Object.assign({ about }, a.result);
      drawResult();
    } finally {
      running = null;
      $("lab-run").disabled = false;
      $("lab-stop").hidden = true;
    }
  }

  function progress(a) {
    $("lab-progress").max = a.total;
    $("lab-progress").value = a.done;
    $("lab-progress-text").textContent = `${a.done.toLocaleString("en")} of ${a.total.toLocaleString("en")} games`;
  }

  // ---------------------------------------------------------------- results
  // As the command line's console table shows them: shares in percentage points, counts as they are.
  function num(v, share, sign) {
    if (v == null || !Number.isFinite(v)) return "";
    const x = share ? 100 * v : v;
    const t = x.toFixed(1);
    return sign && x >= 0 ? `+${t}` : t;
  }
  const VERDICT = { changes: "changes", no_change: "no measurable change", undecided: "undecided" };

  function drawResult() {
    $("lab-results").hidden = false;
    $("lab-summary").replaceChildren(
      ...result.summary
        .split(/\n\n+/)
        .filter((p) => p.trim())
        .map((p) => el("p", { text: p.trim() }))
    );
    $("lab-command").textContent = result.about.command;
    // Too few deals decide nothing (compare's MIN_DEALS): say how many games would.
    const few = result.rows.find((r) => r.deals < result.min_deals);
    $("lab-few").hidden = !few;
    if (few) {
      const games = Math.ceil((result.min_deals * result.about.games) / Math.max(few.deals, 1));
      $("lab-few").textContent =
        `${result.about.games} games are ${few.deals} deals at ${few.hand} tiles (every seat order of a deal is a game); ` +
        `a difference is judged on ${result.min_deals} deals or more, so these are undecided whatever their intervals: ` +
        `give at least ${games} games.`;
    }
    drawPlot();
    drawTable();
  }

  function drawTable() {
    if (!result) return;
    const every = $("lab-every").checked;
    const rows = result.rows.filter((r) => every || r.headline);
    const t = $("lab-table");
    t.replaceChildren();
    const head = el("tr");
    for (const h of ["figure", "tiles", "baseline", "compared", "difference", "adjusted interval", "margin", "verdict"]) {
      head.append(el("th", { scope: "col", text: h }));
    }
    t.append(el("thead", null, head));
    const body = el("tbody");
    for (const r of rows) {
      const unit = r.share ? " pt" : "";
      body.append(
        el(
          "tr",
          { "data-metric": r.metric, "data-hand": r.hand, class: `verdict-${r.verdict}` },
          el("td", { class: "figure", text: every ? r.label : r.headline }),
          el("td", { text: String(r.hand) }),
          el("td", { text: num(r.baseline_value, r.share) }),
          el("td", { text: num(r.value, r.share) }),
          el("td", { class: "difference", "data-value": String(r.difference), text: num(r.difference, r.share, true) + unit }),
          el("td", { text: `${num(r.adjusted_lo, r.share, true)} to ${num(r.adjusted_hi, r.share, true)}${unit}` }),
          el("td", { text: `\u00b1${num(r.margin, r.share)}${unit}` }),
          el("td", { class: "verdict", text: VERDICT[r.verdict] || r.verdict })
        )
      );
    }
    t.append(body);
    t.append(
      el(
        "caption",
        null,
        `Differences from the baseline (shares in percentage points: % of rounds, of matches or of head-to-head points). ` +
          `The adjusted interval holds for all ${result.rows.length} differences at once with 95% confidence (z = ${result.z.toFixed(2)}); ` +
          `a figure changes when it lies wholly beyond the margin, and does not measurably change when it lies wholly within it.`
      )
    );
  }

  // The headline differences in units of their margin, so every figure shares one axis: the
  // shaded band is "within the margin", a bar the adjusted interval, a dot the difference.
  function drawPlot() {
    const box = $("lab-plot");
    box.replaceChildren();
    const rows = result.rows.filter(
      (r) => r.headline && r.margin > 0 && [r.difference, r.adjusted_lo, r.adjusted_hi].every(Number.isFinite)
    );
    if (!rows.length) return;
    const width = Math.max(300, box.clientWidth || 640);
    const narrow = width < 560;
    const left = narrow ? 112 : 190;
    const right = narrow ? 74 : 110;
    const rowH = 22;
    const top = 26;
    const height = top + rows.length * rowH + 34;
    const reach = Math.max(2, ...rows.map((r) => Math.max(Math.abs(r.adjusted_lo), Math.abs(r.adjusted_hi)) / r.margin));
    const lim = Math.ceil(reach * 1.05);
    const x = (v) => left + ((v + lim) / (2 * lim)) * (width - left - right);
    const s = svg("svg", {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": "Each headline difference from the baseline with its adjusted interval, in units of its margin",
    });
    s.append(svg("rect", { x: x(-1), y: top - 6, width: x(1) - x(-1), height: rows.length * rowH + 6, class: "lab-band" }));
    // Ticks: whole margins, a few of them.
    const step = Math.max(1, Math.ceil(lim / (narrow ? 2 : 4)));
    for (let v = -Math.floor(lim / step) * step; v <= lim; v += step) {
      s.append(svg("line", { x1: x(v), x2: x(v), y1: top - 6, y2: top + rows.length * rowH, class: v === 0 ? "lab-zero" : "lab-grid" }));
      s.append(svg("text", { x: x(v), y: top + rows.length * rowH + 14, "text-anchor": "middle", class: "lab-tick" }, v > 0 ? `+${v}` : String(v)));
    }
    s.append(
      svg(
        "text",
        { x: (x(-lim) + x(lim)) / 2, y: height - 4, "text-anchor": "middle", class: "lab-axis" },
        "difference in margins (shaded: within the margin)"
      )
    );
    s.append(svg("text", { x: x(0), y: 12, "text-anchor": "middle", class: "lab-axis" }, `${result.rows[0].ruleset} against ${result.rows[0].baseline}`));
    rows.forEach((r, i) => {
      const y = top + i * rowH + rowH / 2;
      const g = svg("g", { class: `lab-row verdict-${r.verdict}`, "data-metric": r.metric, "data-hand": r.hand });
      const unit = r.share ? " pt" : "";
      g.append(
        svg(
          "title",
          null,
          `${r.label}, ${r.hand} tiles: ${num(r.difference, r.share, true)}${unit} ` +
            `(adjusted ${num(r.adjusted_lo, r.share, true)} to ${num(r.adjusted_hi, r.share, true)}; margin \u00b1${num(r.margin, r.share)}${unit}): ${VERDICT[r.verdict]}`
        )
      );
      const name = rows.some((o) => o.hand !== r.hand) ? `${r.headline}, ${r.hand}` : r.headline;
      g.append(svg("text", { x: left - 8, y: y + 4, "text-anchor": "end", class: "lab-label" }, name));
      const lo = Math.max(-lim, r.adjusted_lo / r.margin);
      const hi = Math.min(lim, r.adjusted_hi / r.margin);
      g.append(svg("line", { x1: x(lo), x2: x(hi), y1: y, y2: y, class: "lab-interval" }));
      for (const v of [lo, hi]) g.append(svg("line", { x1: x(v), x2: x(v), y1: y - 5, y2: y + 5, class: "lab-interval" }));
      g.append(svg("circle", { cx: x(r.difference / r.margin), cy: y, r: 4, class: "lab-dot" }));
      g.append(svg("text", { x: width - right + 6, y: y + 4, class: "lab-value" }, `${num(r.difference, r.share, true)}${unit}`));
      s.append(g);
    });
    box.append(s);
  }

  document.addEventListener("mtrain-ready", (e) => {
    ask = e.detail.ask;
    INFO = e.detail.info;
    setup();
  });
})();
