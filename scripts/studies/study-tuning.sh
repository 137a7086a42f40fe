#!/usr/bin/env bash
# The tuning study: `weighted` tuned by SPSA for `wikipedia`, `dominorules` and `celko1998` at 4 players,
# double-12, full matches, starting from its hand-set weights (`hand` below). The wikipedia
# weights it finds are `weighted`'s defaults (tests/weighted.rs checks that they agree).
#   1. `mtrain tune`: all 13 weights, 400 iterations of 128 games, seed 1, each run confirmed
#      against the starting weights by an SPRT (0, 10) on fresh deals;
#   2. the out-of-sample gain in 4-player match win rate: a tournament on a fresh seed with the
#      field tuned, hand (the start), planner, cutthroat (every seat order in turn), 8,000 games;
#   3. ratings of the tuned bot among the built-ins: field tuned, hand, planner, cutthroat,
#      greedy, montecarlo at 4 players (every combination of four), 3,000 games, ratings.csv;
#   4. transfer: the weights tuned for one preset against those tuned for the other and against
#      the hand-set ones, played under each preset (two seats each, 4,000 games), and the
#      wikipedia weights against the hand-set ones under the three other presets; under
#      celko1998, where they lose, weights tuned for it against both;
#   5. the wikipedia-tuned bot against the search bots under wikipedia, head to head: the former
#      `expert` (its defaults before the policy search, pinned as `expert-v1` =
#      expert:rollout=greedy,prior=0,depth=8,samples=auto) at 4 players (two seats each) and 2
#      players, `montecarlo` at 2 players, 400 games each;
#   6. the cost per decision: `mtrain bench` of greedy, planner, hand and the tuned defaults.
# Writes results/tuning/{runs/, gain.csv, transfer.csv, cost.csv, tables.md}.
#
# Usage: scripts/studies/study-tuning.sh   (about 10 minutes on 2 cores; REUSE=1 keeps the tuning runs,
#        tournaments and cost files already in results/tuning/runs/ and plays only what is missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/tuning}"
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
mkdir -p "$OUT/runs"
# The hand-set weights `weighted` had before tuning (`mtrain strategies` prints the same spec).
HAND="weighted:pips=1,urgent=2,double=0.3,open_double=-0.3,own=0,unmark=1,mexican=0.1,other=0.1,plan=0.5,plan_tile=-0.8,follow=0.3,void_end=0.3,unplayed=-0.2"
PARAMS=(--param pips=0:3 --param urgent=0:5 --param double=-2:2 --param open_double=-2:2 --param own=-2:2
  --param unmark=-2:3 --param mexican=-2:2 --param other=-2:2 --param plan=-2:2 --param plan_tile=-3:1
  --param follow=-2:2 --param void_end=-2:2 --param unplayed=-2:2)
for preset in wikipedia dominorules celko1998; do
  if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/tune-$preset/tuned.txt" ]; then continue; fi
  echo "== tune $preset" >&2
  rm -rf "$OUT/runs/tune-$preset"
  "$MT" tune --rules "$preset" --players 4 --bot "$HAND" "${PARAMS[@]}" --iterations 400 --games 128 --seed 1 \
    --quiet --out "$OUT/runs/tune-$preset" > "$OUT/runs/tune-$preset.txt"
done
TW=$(cat "$OUT/runs/tune-wikipedia/tuned.txt")
# Those weights are `weighted`'s wikipedia set (its defaults under every preset but celko1998,
# where `set=auto` plays the celko1998 set): named, so that `tw` is that set under every preset.
case $TW in weighted) TW="weighted:set=wikipedia" ;; weighted:*) TW="$TW,set=wikipedia" ;; esac
TD=$(cat "$OUT/runs/tune-dominorules/tuned.txt")
TC=$(cat "$OUT/runs/tune-celko1998/tuned.txt")
# run NAME PRESET BOTS GAMES [extra]: a tournament, 4 players unless PLAYERS says otherwise
run() {
  local name=$1 preset=$2 bots=$3 games=$4
  shift 4
  if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/$name/tally.json" ]; then return; fi
  echo "== $name" >&2
  rm -rf "$OUT/runs/$name"
  "$MT" tournament --rules "$preset" --players "${PLAYERS:-4}" --bots "$bots" --games "$games" --seed 2026 --quiet \
    --name "tw=$TW" --name "td=$TD" --name "tc=$TC" --name "hand=$HAND" --out "$OUT/runs/$name" "$@" > "$OUT/runs/$name.txt"
}
FORMER="expert:rollout=greedy,prior=0,depth=8,samples=auto"
run search-4p-expert wikipedia "tw,tw,expert-v1,expert-v1" 400 --name "expert-v1=$FORMER"
PLAYERS=2 run search-2p-expert wikipedia "tw,expert-v1" 400 --name "expert-v1=$FORMER"
PLAYERS=2 run search-2p-montecarlo wikipedia "tw,montecarlo" 400
for preset in wikipedia dominorules; do
  T=tw
  if [ "$preset" = dominorules ]; then T=td; fi
  run "gain-$preset" "$preset" "$T,hand,planner,cutthroat" 8000 --anchor hand
  run "ratings-$preset" "$preset" "$T,hand,planner,cutthroat,greedy,montecarlo" 3000 --anchor planner
  run "transfer-$preset-tw-vs-td" "$preset" "tw,td" 4000
  run "transfer-$preset-tw-vs-start" "$preset" "tw,hand" 4000
  run "transfer-$preset-td-vs-start" "$preset" "td,hand" 4000
done
for preset in celko1998 family_house harbour_cay; do
  run "transfer-$preset-tw-vs-start" "$preset" "tw,hand" 4000
done
# Under celko1998 the wikipedia weights lose to the hand-set ones: its own tuned set.
run "transfer-celko1998-tc-vs-start" celko1998 "tc,hand" 4000
run "transfer-celko1998-tc-vs-tw" celko1998 "tc,tw" 4000
# The cost per decision, one thread, 4 players, double-12, wikipedia.
for bot in greedy planner hand tuned; do
  spec=$bot
  case $bot in hand) spec=$HAND ;; tuned) spec=weighted ;; esac
  if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/runs/cost-$bot.csv" ]; then continue; fi
  "$MT" bench --bots "$spec" --players 4 --threads 1 --seconds 3 --runs 3 --out "$OUT/runs/cost-$bot.csv" > /dev/null
done

python3 - "$OUT" "$TW" "$TD" "$TC" <<'PY'
import csv, os, sys
out, tw, td, tc = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
runs = os.path.join(out, "runs")

def rows(name, f):
    with open(os.path.join(runs, name, f)) as fh:
        return list(csv.DictReader(fh))

pct = lambda x: "%.1f%%" % (100 * float(x))
gain, transfer, ratings = [], [], {}
for preset in ("wikipedia", "dominorules"):
    s = {r["strategy"]: r for r in rows(f"gain-{preset}", "summary.csv")}
    tuned = tw if preset == "wikipedia" else td
    a, b = s["tw" if preset == "wikipedia" else "td"], s["hand"]
    g = float(a["win_rate"]) - float(b["win_rate"])
    # Conservative interval for the difference of two win rates from the same games: the
    # half-widths add (|cov| <= sd_a sd_b).
    h = (float(a["win_hi"]) - float(a["win_lo"])) / 2 + (float(b["win_hi"]) - float(b["win_lo"])) / 2
    conf = rows(f"tune-{preset}", "confirm.csv")[0]
    gain.append([preset, tuned, a["win_rate"], a["win_lo"], a["win_hi"], b["win_rate"], b["win_lo"], b["win_hi"],
                 "%.6f" % g, "%.6f" % (g - h), "%.6f" % (g + h), conf["score"], conf["score_lo"], conf["score_hi"],
                 conf["decision"]])
    ratings[preset] = rows(f"ratings-{preset}", "ratings.csv")
pairs = [(preset, name, label) for preset in ("wikipedia", "dominorules")
         for name, label in (("tw-vs-td", "wikipedia-tuned vs dominorules-tuned"),
                             ("tw-vs-start", "wikipedia-tuned vs hand-set"),
                             ("td-vs-start", "dominorules-tuned vs hand-set"))]
pairs += [(preset, "tw-vs-start", "wikipedia-tuned vs hand-set") for preset in ("celko1998", "family_house", "harbour_cay")]
pairs += [("celko1998", "tc-vs-start", "celko1998-tuned vs hand-set"), ("celko1998", "tc-vs-tw", "celko1998-tuned vs wikipedia-tuned")]
for preset, name, label in pairs:
    p = rows(f"transfer-{preset}-{name}", "pairs.csv")[0]
    transfer.append([preset, label, p["comparisons"], p["a_score"], p["a_score_lo"], p["a_score_hi"], p["elo"],
                     p["elo_lo"], p["elo_hi"]])
cost = []
for bot in ("greedy", "planner", "hand", "tuned"):
    with open(os.path.join(runs, f"cost-{bot}.csv")) as fh:
        r = list(csv.DictReader(fh))[0]
    cost.append([bot, r["decisions_per_s"], r["ns_per_decision"]])

def write(path, header, rws):
    with open(os.path.join(out, path), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rws)

write("gain.csv", ["preset", "tuned", "tuned_win", "tuned_win_lo", "tuned_win_hi", "start_win", "start_win_lo",
                   "start_win_hi", "gain", "gain_lo", "gain_hi", "confirm_score", "confirm_lo", "confirm_hi",
                   "confirm_decision"], gain)
write("cost.csv", ["bot", "decisions_per_s", "ns_per_decision"], cost)
write("transfer.csv", ["played_under", "pair", "comparisons", "score", "score_lo", "score_hi", "elo", "elo_lo",
                       "elo_hi"], transfer)
with open(os.path.join(out, "tables.md"), "w") as f:
    f.write("<!-- written by scripts/studies/study-tuning.sh -->\n\n## Out-of-sample gain (4 players, fresh seed)\n\n")
    f.write("| rules | tuned win rate | hand-set win rate | gain [conservative 95% interval] | confirmation (head to head, SPRT 0/10) |\n|---|---|---|---|---|\n")
    for r in gain:
        f.write(f"| {r[0]} | {pct(r[2])} [{pct(r[3])}, {pct(r[4])}] | {pct(r[5])} [{pct(r[6])}, {pct(r[7])}] | "
                f"{100*float(r[8]):+.1f} points [{100*float(r[9]):+.1f}, {100*float(r[10]):+.1f}] | "
                f"{pct(r[11])} [{pct(r[12])}, {pct(r[13])}], {r[14]} |\n")
    f.write("\nTuned specs:\n\n")
    f.write(f"- wikipedia: `{tw}` (the defaults)\n- dominorules: `{td}`\n- celko1998: `{tc}`\n")
    for preset in ("wikipedia", "dominorules"):
        f.write(f"\n## Ratings at 4 players, {preset} (planner = 0)\n\n| bot | Elo [95% interval] |\n|---|---|\n")
        for r in sorted(ratings[preset], key=lambda r: -float(r["elo"])):
            name = "tuned" if r["bot"] in ("tw", "td") else r["bot"]
            f.write(f"| `{name}` | {float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}] |\n")
    f.write("\n## The wikipedia-tuned bot against the search bots (wikipedia, head to head)\n\n")
    f.write("| players | opponent | comparisons | tuned's score [95% interval] | Elo |\n|---|---|---|---|---|\n")
    for name, n, opp in (("search-4p-expert", 4, "expert-v1"), ("search-2p-expert", 2, "expert-v1"),
                         ("search-2p-montecarlo", 2, "montecarlo")):
        p = rows(name, "pairs.csv")[0]
        f.write(f"| {n} | `{opp}` | {p['comparisons']} | {pct(p['a_score'])} [{pct(p['a_score_lo'])}, {pct(p['a_score_hi'])}] | "
                f"{float(p['elo']):+.0f} [{float(p['elo_lo']):+.0f}, {float(p['elo_hi']):+.0f}] |\n")
    f.write("\n## Cost per decision (4 players, one thread, `mtrain bench`)\n\n| bot | decisions/s | ns per decision |\n|---|---|---|\n")
    for r in cost:
        f.write(f"| `{r[0]}` | {float(r[1]):,.0f} | {float(r[2]):,.0f} |\n")
    f.write("\n## Transfer between presets (head to head, two seats each, 4 players)\n\n")
    f.write("| played under | pair | comparisons | first's score [95% interval] | Elo |\n|---|---|---|---|---|\n")
    for r in transfer:
        f.write(f"| {r[0]} | {r[1]} | {r[2]} | {pct(r[3])} [{pct(r[4])}, {pct(r[5])}] | {float(r[6]):+.0f} [{float(r[7]):+.0f}, {float(r[8]):+.0f}] |\n")
PY
echo "wrote $OUT/gain.csv, transfer.csv, cost.csv, tables.md" >&2
