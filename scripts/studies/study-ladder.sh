#!/usr/bin/env bash
# The ladder study: how far the bots are from each other and from the ceiling of play.
#
# `expert` below is the former `expert`: its defaults before the policy search, pinned as
# `expert-v1` = expert:rollout=greedy,prior=0,depth=8,samples=auto, so that this script keeps
# reproducing its results (the tables name it `expert-v1`). scripts/studies/study-league.sh rates
# today's `expert` among every bot.
#
# For `wikipedia` and `dominorules`, double-12, at 2 and 4 players (4 players: two seats each,
# every seating order), full matches, duplicate deals:
#   1. the ladder: each bot against the one below it, random < greedy < planner < cutthroat <
#      montecarlo < expert < oracle, a tournament with a 95% interval on the head-to-head score;
#      the montecarlo -> expert step is an SPRT (elo0 = 0, elo1 = 20) at equal time, both at their
#      defaults (expert's decision costs no more time than montecarlo's: scripts/bench/bench-search.sh);
#   2. the share of the ceiling gap that expert closes, against the common field `montecarlo`, on
#      a scale that does not saturate: the points per round each saves against montecarlo in the
#      same games, g = r(montecarlo) - r(bot), share = g(expert) / g(oracle), over fixed-size
#      runs (not the SPRT's), with a delta-method 95% interval (each gain's standard error bounded
#      by the sum of the two bots' own, their correlation within a run being unknown); the
#      head-to-head scores beside it (a score saturates: the oracle wins every 2-player match);
#      the same for the oracle that sees the hands but not the boneyard's order (no ceiling:
#      expert is level with it at 4 players);
#      the oracle here is the flat one, `oracle:search=flat` (montecarlo's search with random
#      rollouts on the true round: the `oracle` these runs were made with, before its guided
#      search); the tables keep its former labels `oracle` and `oracle:sees=hands`.
#      scripts/studies/study-league.sh measures the gap against today's guided `oracle`;
#   3. the skill curve (wikipedia, 2 players): expert with a budget of 1, 2, 4, ..., 256 samples
#      (its default at 2 players: 80) against montecarlo at its default 32.
# Writes results/ladder/{ladder.csv, gap.csv, skill.csv, skill_curve.svg, tables.md} and one
# tournament folder per run under results/ladder/runs/.
#
# Usage: scripts/studies/study-ladder.sh   (about 20 minutes on 2 cores; SCALE=0.1 for a quick look;
#        REUSE=1 recomputes the tables from the runs already in results/ladder/runs/)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/ladder}"
SCALE="${SCALE:-1}"
SEED=2026
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
mkdir -p "$OUT/runs"
FORMER="expert:rollout=greedy,prior=0,depth=8,samples=auto"
games() { python3 -c "import math,sys; print(max(8, math.ceil($1 * $SCALE)))"; }

# run NAME PLAYERS PRESET A B GAMES [extra tournament options]: A against B.
run() {
  local name=$1 n=$2 preset=$3 a=$4 b=$5 g=$6
  shift 6
  local bots="$a,$b"
  if [ "$n" = 4 ]; then bots="$a,$a,$b,$b"; fi
  if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/$name/tally.json" ]; then return; fi
  case "$a,$b" in expert-v1*|*,expert-v1*) set -- --name "expert-v1=$FORMER" "$@" ;; esac
  echo "== $name: $a vs $b, $preset, $n players, up to $g games" >&2
  rm -rf "$OUT/runs/$name"
  "$MT" tournament --rules "$preset" --players "$n" --bots "$bots" --games "$g" --seed "${RUN_SEED:-$SEED}" --quiet \
    --out "$OUT/runs/$name" "$@" > /dev/null
}

for preset in wikipedia dominorules; do
  for n in 2 4; do
    c="$preset-${n}p"
    run "$c-greedy-random" "$n" "$preset" greedy random "$(games 1000)"
    run "$c-planner-greedy" "$n" "$preset" planner greedy "$(games 1000)"
    run "$c-cutthroat-planner" "$n" "$preset" cutthroat planner "$(games 1000)"
    run "$c-montecarlo-cutthroat" "$n" "$preset" montecarlo cutthroat "$(games 400)"
    run "$c-expert-montecarlo-sprt" "$n" "$preset" expert-v1 montecarlo "$(games 8000)" --sprt 0,20
    run "$c-oracle-expert" "$n" "$preset" oracle:search=flat expert-v1 "$(games 200)"
    # The gap: fixed-size runs against the common field montecarlo, their own seed.
    RUN_SEED=$((SEED + 1)) run "$c-gap-expert" "$n" "$preset" expert-v1 montecarlo "$(games 2000)"
    RUN_SEED=$((SEED + 1)) run "$c-gap-oracle" "$n" "$preset" oracle:search=flat montecarlo "$(games 400)"
    RUN_SEED=$((SEED + 1)) run "$c-gap-oracle-hands" "$n" "$preset" oracle:search=flat,sees=hands montecarlo "$(games 400)"
  done
done
for s in 1 2 4 8 16 32 64 128 256; do
  run "skill-$s" 2 wikipedia "expert:rollout=greedy,prior=0,depth=8,samples=$s" montecarlo "$(games 300)"
done

python3 - "$OUT" <<'PY'
import csv, json, math, os, sys
out = sys.argv[1]
runs = os.path.join(out, "runs")

# The flat oracle keeps the labels it had as the default `oracle`.
FLAT = {"oracle:search=flat": "oracle", "oracle:search=flat,sees=hands": "oracle:sees=hands"}

def pair(name):
    """Head-to-head score of the first bot against the second: value, lo, hi, comparisons."""
    with open(os.path.join(runs, name, "pairs.csv")) as f:
        r = next(csv.DictReader(f))
    return (float(r["a_score"]), float(r["a_score_lo"]), float(r["a_score_hi"]), int(r["comparisons"]),
            FLAT.get(r["a"], r["a"]), FLAT.get(r["b"], r["b"]))

def points(name):
    """Mean points per round of the run's two bots, each with its standard error, first bot first."""
    with open(os.path.join(runs, name, "summary.csv")) as f:
        rows = list(csv.DictReader(f))
    return [(float(r["round_score"]), (float(r["round_score_hi"]) - float(r["round_score_lo"])) / (2 * 1.959964))
            for r in rows]

def gain(name):
    """Points per round the first bot saves against the second in the same games, with a bound on
    its standard error (the sum of the two: their correlation within a run is not in the files)."""
    (a, sa), (b, sb) = points(name)
    return b - a, sa + sb

def games(name):
    with open(os.path.join(runs, name, "manifest.json")) as f:
        m = json.load(f)
    return m, m["games_done"] if "games_done" in m else None

def fmt(x):
    return "%.6f" % x

steps = ["greedy-random", "planner-greedy", "cutthroat-planner", "montecarlo-cutthroat", "expert-montecarlo-sprt",
         "oracle-expert"]
ladder, gap = [], []
for preset in ("wikipedia", "dominorules"):
    for n in (2, 4):
        c = f"{preset}-{n}p"
        for st in steps:
            name = f"{c}-{st}"
            v, lo, hi, comps, a, b = pair(name)
            with open(os.path.join(runs, name, "manifest.json")) as f:
                m = json.load(f)
            sprt = m.get("sprt") or {}
            ladder.append([preset, n, a, b, comps, fmt(v), fmt(lo), fmt(hi), sprt.get("decision", ""),
                           fmt(sprt["llr"]) if sprt else ""])
        # Gap share on points per round, with a delta-method interval (the runs are independent).
        e, elo, ehi, _, _, _ = pair(f"{c}-gap-expert")
        ge, se_e = gain(f"{c}-gap-expert")
        for who in ("oracle", "oracle-hands"):
            o, olo, ohi, _, oname, _ = pair(f"{c}-gap-{who}")
            go, se_o = gain(f"{c}-gap-{who}")
            share = ge / go
            se = math.sqrt((se_e / go) ** 2 + (ge * se_o / go ** 2) ** 2)
            z = 1.959964
            gap.append([preset, n, oname, fmt(e), fmt(elo), fmt(ehi), fmt(o), fmt(olo), fmt(ohi),
                        fmt(ge), fmt(ge - z * se_e), fmt(ge + z * se_e), fmt(go), fmt(go - z * se_o), fmt(go + z * se_o),
                        fmt(share), fmt(share - z * se), fmt(share + z * se)])

skill = []
for s in (1, 2, 4, 8, 16, 32, 64, 128, 256):
    v, lo, hi, comps, _, _ = pair(f"skill-{s}")
    skill.append([s, int(math.log2(s)), comps, fmt(v), fmt(lo), fmt(hi)])

def write(path, header, rows):
    with open(os.path.join(out, path), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)

write("ladder.csv", ["preset", "players", "a", "b", "comparisons", "a_score", "a_score_lo", "a_score_hi",
                     "sprt_decision", "sprt_llr"], ladder)
write("gap.csv", ["preset", "players", "ceiling", "expert_score", "expert_lo", "expert_hi", "ceiling_score",
                  "ceiling_lo", "ceiling_hi", "expert_gain", "expert_gain_lo", "expert_gain_hi", "ceiling_gain",
                  "ceiling_gain_lo", "ceiling_gain_hi", "share", "share_lo", "share_hi"], gap)
write("skill.csv", ["samples", "log2_samples", "comparisons", "score", "score_lo", "score_hi"], skill)

pct = lambda x: "%.1f%%" % (100 * float(x))
with open(os.path.join(out, "tables.md"), "w") as f:
    f.write("<!-- written by scripts/studies/study-ladder.sh -->\n\n## Ladder: each bot against the one below it\n\n")
    f.write("| rules | players | bot | against | comparisons | head-to-head score [95% interval] | SPRT (0, 20) |\n")
    f.write("|---|---|---|---|---|---|---|\n")
    for r in ladder:
        sprt = f"{r[8]}, LLR {float(r[9]):.2f}" if r[8] else ""
        f.write(f"| {r[0]} | {r[1]} | `{r[2]}` | `{r[3]}` | {r[4]} | {pct(r[5])} [{pct(r[6])}, {pct(r[7])}] | {sprt} |\n")
    f.write("\n## Share of the gap closed, in points per round saved against `montecarlo`\n\n")
    f.write("| rules | players | against | expert-v1 saves | it saves | share closed [95% interval] | expert-v1's score | its score |\n")
    f.write("|---|---|---|---|---|---|---|---|\n")
    pts = lambda x: "%.2f" % float(x)
    for r in gap:
        f.write(f"| {r[0]} | {r[1]} | `{r[2]}` | {pts(r[9])} [{pts(r[10])}, {pts(r[11])}] | "
                f"{pts(r[12])} [{pts(r[13])}, {pts(r[14])}] | {pct(r[15])} [{pct(r[16])}, {pct(r[17])}] | "
                f"{pct(r[3])} [{pct(r[4])}, {pct(r[5])}] | {pct(r[6])} [{pct(r[7])}, {pct(r[8])}] |\n")
    f.write("\n## Skill curve (wikipedia, 2 players): the former expert's budget against montecarlo at 32 samples\n\n")
    f.write("| samples | comparisons | score against montecarlo [95% interval] |\n|---|---|---|\n")
    for r in skill:
        f.write(f"| {r[0]} | {r[2]} | {pct(r[3])} [{pct(r[4])}, {pct(r[5])}] |\n")
PY
"$MT" plot --force --csv "$OUT/skill.csv" --x log2_samples --y score --lo score_lo --hi score_hi --percent --reference 0.5 \
  --title "the former expert's search budget against montecarlo (32 samples), wikipedia, 2 players" \
  --x-label "log2(samples per legal move)" --y-label "head-to-head score" --out "$OUT/skill_curve.svg"
echo "wrote $OUT/ladder.csv, gap.csv, skill.csv, skill_curve.svg, tables.md" >&2
