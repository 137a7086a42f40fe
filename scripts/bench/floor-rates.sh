#!/usr/bin/env bash
# Greedy tournaments against the bare prototype engine (issue "A plain-rules kernel": its rates
# per CPU-second, interleaved with the prototype in one run). The prototype is the team's
# measuring stick, not part of this repository: a build of its `floor` binary is given as FLOOR.
#
# Each pair runs, in turn: `floor play 400000 1` (400,000 greedy rounds, 4 players, double-12),
# then `mtrain tournament --bots greedy --players 4 --set 12 --threads 1 --seed 3` with 400,000
# one-round games and with 30,770 full matches (400,010 rounds), each once with this tree's build
# and, when BASE names another `mtrain` binary, once with it. A figure is the command's user CPU
# seconds; a rate ratio is the prototype's seconds over mtrain's for the same rounds. Medians over
# the pairs. Each pair also times this tree's engine alone, with no tournament around it:
# `examples/rounds greedy 400000 play all` (400,000 greedy rounds through `play_round`, the
# engine cycling 12..0 as in a match, each round dealt in place), the ceiling of what the
# tournament's rate can reach. Run on a quiet machine.
#
# Usage: FLOOR=/path/to/floor [BASE=/path/to/old/mtrain] scripts/bench/floor-rates.sh [PAIRS]
#        (PAIRS default 7; about 8 seconds a pair with a BASE)
# Writes results/benchmarks/floor-rates.csv (one row a pair and build) and prints the medians.
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS="${1:-7}"
OUT="${OUT:-results/benchmarks}"
[[ -x "${FLOOR:-}" ]] || { echo "floor-rates.sh: FLOOR must name the prototype's floor binary" >&2; exit 2; }
[[ -z "${BASE:-}" || -x "$BASE" ]] || { echo "floor-rates.sh: BASE '$BASE' is not an executable" >&2; exit 2; }
[[ "$PAIRS" =~ ^[1-9][0-9]*$ ]] || { echo "floor-rates.sh: PAIRS must be a positive whole number, not '$PAIRS'" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "floor-rates.sh: /usr/bin/time is not installed" >&2; exit 2; }
cargo build --release --quiet --bin mtrain
# The example apart: built together, the binary would take the example's dev-dependency features.
cargo build --release --quiet --example rounds
NEW=target/release/mtrain
ENGINE=target/release/examples/rounds
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

secs() { # command... -> user CPU seconds
  /usr/bin/time -f %U -o "$TMP/time" "$@" >/dev/null
  cat "$TMP/time"
}
builds=("new|$NEW")
[[ -n "${BASE:-}" ]] && builds+=("base|$BASE")
echo "pair,build,floor_s,one_round_s,full_match_s,engine_s" > "$TMP/rates.csv"
for pair in $(seq 1 "$PAIRS"); do
  floor=$(secs "$FLOOR" play 400000 1)
  for b in "${builds[@]}"; do
    name=${b%%|*}
    bin=${b#*|}
    rm -rf "$TMP/t"
    one=$(secs "$bin" tournament --bots greedy --players 4 --set 12 --rounds 1 --games 400000 --threads 1 --seed 3 --quiet --out "$TMP/t")
    rm -rf "$TMP/t"
    full=$(secs "$bin" tournament --bots greedy --players 4 --set 12 --games 30770 --threads 1 --seed 3 --quiet --out "$TMP/t")
    engine=""
    [[ $name == new ]] && engine=$(secs "$ENGINE" greedy 400000 play all)
    echo "$pair,$name,$floor,$one,$full,$engine" >> "$TMP/rates.csv"
    echo "pair $pair: floor $floor s, $name one-round $one s, full matches $full s${engine:+, engine alone $engine s}"
  done
done
mv "$TMP/rates.csv" "$OUT/floor-rates.csv"
python3 - "$OUT/floor-rates.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for build in ("new", "base"):
    mine = [r for r in rows if r["build"] == build]
    if not mine:
        continue
    for col, what in (("one_round_s", "one-round games"), ("full_match_s", "full matches"), ("engine_s", "the engine alone")):
        if not mine[0][col]:
            continue
        ratios = [float(r["floor_s"]) / float(r[col]) for r in mine]
        print(f"{build}: {what} {statistics.median(ratios):.3f}x the prototype's rounds per CPU-second "
              f"({min(ratios):.3f} to {max(ratios):.3f}, {len(ratios)} pairs)")
print(f"written to {sys.argv[1]}")
PY
