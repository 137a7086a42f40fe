#!/usr/bin/env bash
# The league: every bot in one field, rated on one Elo scale (issue "The strongest player",
# item 5), and the search bots' skill against their time per decision.
#
#   1. For `wikipedia` and `dominorules`, double-12, full matches, at 2, 4 and 6 players: one
#      tournament of the whole field, every combination of seats equally often, duplicate deals:
#        random, greedy, planner, hoarder, cutthroat, hand (`weighted:set=hand`, the hand-set
#        weights), weighted (the tuned weights, its defaults), montecarlo, expert-v1 (the
#        former `expert`: expert:rollout=greedy,prior=0,depth=8,samples=auto), expert (its
#        defaults), and oracle, which sees every hand: a ceiling, not a player.
#      Bradley-Terry ratings over every head-to-head comparison, greedy = 0, 95% intervals over
#      deals. Games: 2,200 at 2 players (20 times the 55 pairs in both seats), 2,640 at 4 (twice
#      the 330 lineups in every rotation), 2,772 at 6 (the 462 lineups once in every rotation).
#   2. The share of the montecarlo-to-oracle gap each expert closes, on a scale that does not
#      saturate: points per round, which every bot's games in the league give against the same
#      opponents (every combination equally often, the same deals), g = r(montecarlo) - r(bot),
#      share = g(bot) / g(oracle), with a delta-method 95% interval (each g's standard error
#      bounded by the sum of the two bots' own: their correlation is not in the files).
#   3. The skill curve against time: `expert` and `expert-v1` at five budgets each (samples)
#      against tuned `weighted` head to head (`X,X,weighted,weighted`, 4 players, wikipedia,
#      400 games, seed 11: the policy search's deals), each point's time per decision from
#      `mtrain bench` (4 players, one thread, median of 3 runs of 2 s).
# Writes results/ladder/{league.csv, league-gap.csv, league-skill.csv, league.md,
# league-ratings-*.svg, league-skill.svg} and one tournament folder per run under
# results/ladder/runs/ (league-*, skill-ms-*).
#
# Usage: scripts/studies/study-league.sh   (about 25 minutes on 2 cores; REUSE=1 keeps the runs already
#        in results/ladder/runs/ and plays only what is missing; SCALE=0.05 for a quick look, into
#        OUT=some/folder)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet --bin mtrain
MT="${MT:-target/release/mtrain}"   # MT=path runs another build
OUT="${OUT:-results/ladder}"
mkdir -p "$OUT/runs"
SCALE="${SCALE:-1}"
games() { python3 -c "import math,sys; print(max(8, math.ceil($1 * $SCALE)))"; }
FORMER="expert:rollout=greedy,prior=0,depth=8,samples=auto"
FIELD="random,greedy,planner,hoarder,cutthroat,hand,weighted,montecarlo,expert-v1,expert,oracle"
NAMES=(--name "hand=weighted:set=hand" --name "expert-v1=$FORMER")

for preset in wikipedia dominorules; do
  for n in 2 4 6; do
    name="league-$preset-${n}p"
    case $n in 2) games=$(games 2200) ;; 4) games=$(games 2640) ;; 6) games=$(games 2772) ;; esac
    if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/$name/tally.json" ]; then continue; fi
    echo "== $name: $games games" >&2
    rm -rf "$OUT/runs/$name"
    "$MT" tournament --rules "$preset" --players "$n" "${NAMES[@]}" --bots "$FIELD" --anchor greedy \
      --games "$games" --seed 2027 --quiet --out "$OUT/runs/$name" > /dev/null
  done
done

# bot label, spec, samples
SKILL=(
  "expert 4" "expert 8" "expert 16" "expert 31" "expert 62"
  "expert-v1 12" "expert-v1 23" "expert-v1 46" "expert-v1 92" "expert-v1 184"
)
echo "bot,samples,spec,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,ms_per_decision,us_per_decision" > "$OUT/league-skill.csv.tmp"
for point in "${SKILL[@]}"; do
  read -r bot samples <<< "$point"
  case $bot in
    expert) spec="expert:rollout=weighted,prior=5,depth=12,samples=$samples" ;;
    expert-v1) spec="expert:rollout=greedy,prior=0,depth=8,samples=$samples" ;;
  esac
  name="skill-ms-$bot-$samples"
  if ! { [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/$name/tally.json" ]; }; then
    echo "== $name" >&2
    rm -rf "$OUT/runs/$name"
    "$MT" tournament --players 4 --name "x=$spec" --bots x,x,weighted,weighted --games "$(games 400)" --seed 11 --quiet \
      --out "$OUT/runs/$name" > /dev/null
  fi
  if ! { [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/$name-bench.csv" ]; }; then
    "$MT" bench --bots "$spec" --players 4 --threads 1 --seconds 2 --runs 3 --out "$OUT/runs/$name-bench.csv" > /dev/null
  fi
  row=$(awk -F, '$1=="x" && $2=="weighted" {print $3","$7","$8","$9","$10","$11","$12}' "$OUT/runs/$name/pairs.csv")
  ms=$(python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(f\"{float(r[-1]['ns_per_decision'])/1e6:.3f}\")" \
    "$OUT/runs/$name-bench.csv")
  echo "$bot,$samples,\"$spec\",$row,$ms,$(python3 -c "print(round($ms * 1000))")" >> "$OUT/league-skill.csv.tmp"
done
mv "$OUT/league-skill.csv.tmp" "$OUT/league-skill.csv"

python3 - "$OUT" <<'PY'
import csv, json, math, os, sys
out = sys.argv[1]
runs = os.path.join(out, "runs")
Z = 1.959964
PLAYERS = {"random", "greedy", "planner", "hoarder", "cutthroat", "hand", "weighted", "montecarlo", "expert-v1", "expert"}

def rows(name, f):
    with open(os.path.join(runs, name, f)) as fh:
        return list(csv.DictReader(fh))

def fmt(x):
    return "%.6f" % x

league, gap = [], []
for preset in ("wikipedia", "dominorules"):
    for n in (2, 4, 6):
        name = f"league-{preset}-{n}p"
        summary = {r["strategy"]: r for r in rows(name, "summary.csv")}
        with open(os.path.join(runs, name, "manifest.json")) as fh:
            played = json.load(fh)["games"]
        ratings = sorted(rows(name, "ratings.csv"), key=lambda r: -float(r["elo"]))
        rank = 0
        for r in ratings:
            s = summary[r["bot"]]
            player = r["bot"] in PLAYERS and r["sees_hidden"] == "0"
            rank += player
            league.append([preset, n, rank if player else "", r["bot"], played, r["sees_hidden"], r["elo"], r["elo_lo"], r["elo_hi"],
                           r["comparisons"], s["games"], s["win_rate"], s["win_lo"], s["win_hi"], s["round_score"],
                           s["round_score_lo"], s["round_score_hi"]])
        def pts(bot):
            s = summary[bot]
            # An interval is empty only in a run too short to have one (SCALE for a quick look).
            lo, hi = (float(s[k] or "nan") for k in ("round_score_lo", "round_score_hi"))
            return float(s["round_score"]), (hi - lo) / (2 * Z)
        mc, se_mc = pts("montecarlo")
        o, se_o = pts("oracle")
        go, se_go = mc - o, se_mc + se_o
        for bot in ("expert", "expert-v1"):
            b, se_b = pts(bot)
            gb, se_gb = mc - b, se_mc + se_b
            share = gb / go
            se = math.sqrt((se_gb / go) ** 2 + (gb * se_go / go ** 2) ** 2)
            gap.append([preset, n, bot, fmt(gb), fmt(gb - Z * se_gb), fmt(gb + Z * se_gb), fmt(go), fmt(go - Z * se_go),
                        fmt(go + Z * se_go), fmt(share), fmt(share - Z * se), fmt(share + Z * se)])

def write(path, header, body):
    with open(os.path.join(out, path), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(body)

write("league.csv", ["preset", "players", "rank", "bot", "games_in_run", "sees_hidden", "elo", "elo_lo", "elo_hi", "comparisons", "games",
                     "win_rate", "win_lo", "win_hi", "round_score", "round_score_lo", "round_score_hi"], league)
write("league-gap.csv", ["preset", "players", "bot", "gain", "gain_lo", "gain_hi", "ceiling_gain", "ceiling_gain_lo",
                         "ceiling_gain_hi", "share", "share_lo", "share_hi"], gap)
skill = list(csv.DictReader(open(os.path.join(out, "league-skill.csv"))))

num = lambda x: float("nan") if x in ("", None) else float(x)  # empty only in a run too short for an interval
pct = lambda x: "%.1f%%" % (100 * num(x))
elo = lambda x: "%+.0f" % num(x)
with open(os.path.join(out, "league.md"), "w") as f:
    f.write("<!-- written by scripts/studies/study-league.sh -->\n\n")
    cells = [(p, n) for p in ("wikipedia", "dominorules") for n in (2, 4, 6)]
    f.write("## Ratings at a glance (Elo, greedy = 0; `oracle` sees every hand: a ceiling, not a player)\n\n")
    f.write("| bot | " + " | ".join(f"{p} {n}p" for p, n in cells) + " |\n|---|" + "---|" * len(cells) + "\n")
    order = [r[3] for r in league if r[0] == "wikipedia" and r[1] == 4]
    for bot in order:
        vals = []
        for p, n in cells:
            r = next(r for r in league if r[0] == p and r[1] == n and r[3] == bot)
            vals.append(f"{elo(r[6])} [{elo(r[7])}, {elo(r[8])}]")
        f.write(f"| `{bot}` | " + " | ".join(vals) + " |\n")
    f.write("\n## The first player against the runner-up, head to head in the same games\n\n")
    f.write("| rules | players | first | runner-up | comparisons | first's score [95% interval] | Elo [95% interval] |\n")
    f.write("|---|---|---|---|---|---|---|\n")
    for p, n in cells:
        ranked = sorted((r for r in league if r[0] == p and r[1] == n and r[2] != ""), key=lambda r: r[2])
        a, b = ranked[0][3], ranked[1][3]
        pair = next(r for r in rows(f"league-{p}-{n}p", "pairs.csv") if {r["a"], r["b"]} == {a, b})
        flip = pair["a"] != a
        sc = [float(pair[k]) for k in ("a_score", "a_score_lo", "a_score_hi")]
        el = [float(pair[k]) for k in ("elo", "elo_lo", "elo_hi")]
        if flip:
            sc = [1 - sc[0], 1 - sc[2], 1 - sc[1]]
            el = [-el[0], -el[2], -el[1]]
        f.write(f"| {p} | {n} | `{a}` | `{b}` | {int(pair['comparisons']):,} | {pct(sc[0])} [{pct(sc[1])}, {pct(sc[2])}] | "
                f"{elo(el[0])} [{elo(el[1])}, {elo(el[2])}] |\n")
    f.write("\n## Ratings: every bot in one field (Elo, greedy = 0, 95% intervals over deals)\n\n")
    f.write("Rank among players; `oracle` sees every hand: a ceiling, not a player.\n\n")
    for preset in ("wikipedia", "dominorules"):
        for n in (2, 4, 6):
            cell = [r for r in league if r[0] == preset and r[1] == n]
            f.write(f"### {preset}, {n} players ({int(cell[0][4]):,} games)\n\n")
            f.write("| rank | bot | Elo [95% interval] | match win rate [95% interval] | points per round [95% interval] |\n")
            f.write("|---|---|---|---|---|\n")
            for r in cell:
                who = f"`{r[3]}`" + (" (ceiling)" if r[5] == "1" else "")
                f.write(f"| {r[2] or '-'} | {who} | {elo(r[6])} [{elo(r[7])}, {elo(r[8])}] | {pct(r[11])} [{pct(r[12])}, "
                        f"{pct(r[13])}] | {num(r[14]):.2f} [{num(r[15]):.2f}, {num(r[16]):.2f}] |\n")
            f.write("\n")
    f.write("## Share of the montecarlo-to-oracle gap closed, in points per round\n\n")
    f.write("| rules | players | bot | saves against montecarlo | oracle saves | share closed [95% interval] |\n")
    f.write("|---|---|---|---|---|---|\n")
    p2 = lambda x: "%.2f" % num(x)
    for r in gap:
        f.write(f"| {r[0]} | {r[1]} | `{r[2]}` | {p2(r[3])} [{p2(r[4])}, {p2(r[5])}] | {p2(r[6])} [{p2(r[7])}, {p2(r[8])}] | "
                f"{pct(r[9])} [{pct(r[10])}, {pct(r[11])}] |\n")
    f.write("\n## Skill against time (wikipedia, 4 players, against tuned `weighted`, 400 games)\n\n")
    f.write("| bot | samples | ms per decision | score [95% interval] | Elo [95% interval] |\n|---|---|---|---|---|\n")
    for r in skill:
        f.write(f"| `{r['bot']}` | {r['samples']} | {num(r['ms_per_decision']):.2f} | {pct(r['score'])} [{pct(r['score_lo'])}, "
                f"{pct(r['score_hi'])}] | {elo(r['elo'])} [{elo(r['elo_lo'])}, {elo(r['elo_hi'])}] |\n")
PY
for preset in wikipedia dominorules; do
  "$MT" plot --force --kind dot --csv "$OUT/league.csv" --where "preset=$preset" --x bot --y elo --lo elo_lo --hi elo_hi \
    --group players --group-prefix "players: " --title "Every bot in one field, $preset: Elo (greedy = 0; oracle is a ceiling)" \
    --y-label "Elo" --out "$OUT/league-ratings-$preset.svg"
done
# In microseconds: the line chart labels whole numbers on its x axis.
"$MT" plot --force --csv "$OUT/league-skill.csv" --x us_per_decision --y score --lo score_lo --hi score_hi --group bot --percent \
  --reference 0.5 --title "Search against tuned weighted by time per decision (wikipedia, 4 players)" \
  --x-label "microseconds per decision (one core)" --y-label "head-to-head score" --out "$OUT/league-skill.svg"
cat "$OUT/league.md"
