#!/usr/bin/env bash
# The prototypes results/benchmarks/STEPS.md cites for the bounds of the plain-rules kernel's
# targets: each is a patch in results/benchmarks/prototypes/, applied to a copy of this tree's
# HEAD (a git worktree in a temporary folder), built, and measured with callgrind beside HEAD
# itself, in the units of scripts/bench/instructions.sh.
#
#   no-statistics       the tournament runner with its statistics taken out (a game's additions
#                       and the deal's fold not made): what the match flow and the runner alone
#                       cost above the engine round (`tournament_round`, `tournament_match_round`)
#   greedy-void-records void records kept at every table, so that greedy seats play their turns
#                       on the plain loop's listing-free path instead of the kernel
#                       (`greedy_round`): what a kernel turn saves over a plain-loop turn
#   kernel-one-turn     the kernel's greedy turn and its listing turn written once, generic over
#                       how the turn chooses (`greedy_round`, `expert_decision`): what removing
#                       the second statement would cost the greedy round
#
# Usage: [KEEP=DIR] scripts/bench/prototypes.sh [NAME...]     (default: all three; about 9 minutes)
# Prints one line per measure: HEAD's figure, the prototype's, and the change. KEEP=DIR copies
# each prototype's `mtrain` binary to DIR/NAME-mtrain (for scripts/bench/floor-rates.sh's BASE).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DIR=results/benchmarks/prototypes
command -v valgrind >/dev/null || { echo "prototypes.sh: valgrind is not installed" >&2; exit 2; }
NAMES=("$@")
[[ ${#NAMES[@]} -eq 0 ]] && NAMES=(no-statistics greedy-void-records kernel-one-turn)
for name in "${NAMES[@]}"; do
  [[ -f "$DIR/$name.patch" ]] || {
    echo "prototypes.sh: no prototype '$name' (choose from: $(cd "$DIR" && ls ./*.patch | sed 's#^./##; s#\.patch$##' | tr '\n' ' '))" >&2
    exit 2
  }
done
TMP=$(mktemp -d)
cleanup() {
  git -C "$ROOT" worktree remove --force "$TMP/tree" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

# Built as instructions.sh builds them: the binary alone, then the example (built together,
# the binary would be compiled with the example's dev-dependency features, and count otherwise).
build() { cargo build --release --quiet && cargo build --release --quiet --example rounds; }
build
refs() { # command... -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$TMP/cg.txt" >"$TMP/out.txt"
  grep -oE "refs: +[0-9,]+" "$TMP/cg.txt" | tr -d ', ' | cut -d: -f2
}
decisions() { grep -oE "[0-9]+ decisions" "$TMP/out.txt" | cut -d' ' -f1; }
tournament() { # mtrain rounds games -> instructions
  rm -rf "$TMP/t"
  refs "$1" tournament --quiet --bots greedy --players 4 --set 12 --rounds "$2" --games "$3" --threads 1 --out "$TMP/t"
}
measure() { # name target-dir -> "measure value" lines
  local m="$2/release/mtrain" r="$2/release/examples/rounds"
  case "$1" in
    no-statistics)
      local a b c d
      a=$(tournament "$m" 1 4)
      b=$(tournament "$m" 1 4004)
      c=$(tournament "$m" 13 4)
      d=$(tournament "$m" 13 404)
      echo "tournament_round $(((b - a) / 4000))"
      echo "tournament_match_round $(((d - c) / 5200))"
      ;;
    greedy-void-records)
      echo "greedy_round $(($(refs "$r" greedy 20000 play) / 20000))"
      ;;
    kernel-one-turn)
      echo "greedy_round $(($(refs "$r" greedy 20000 play) / 20000))"
      local ex
      ex=$(refs "$r" expert 4 play)
      echo "expert_decision $((ex / $(decisions)))"
      ;;
  esac
}
git worktree add --quiet --detach "$TMP/tree" HEAD
for name in "${NAMES[@]}"; do
  git -C "$TMP/tree" checkout --quiet --force HEAD
  git -C "$TMP/tree" apply "$ROOT/$DIR/$name.patch"
  (cd "$TMP/tree" && export CARGO_TARGET_DIR="$TMP/target" && build 2>/dev/null)
  if [[ -n "${KEEP:-}" ]]; then
    mkdir -p "$KEEP"
    cp "$TMP/target/release/mtrain" "$KEEP/$name-mtrain"
  fi
  measure "$name" target >"$TMP/head.txt"
  measure "$name" "$TMP/target" >"$TMP/proto.txt"
  paste -d' ' "$TMP/head.txt" "$TMP/proto.txt" | while read -r what head _ proto; do
    python3 -c "import sys; w,h,p=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]); print(f'{sys.argv[4]}: {w} HEAD {h:,} prototype {p:,} ({(p-h)/h:+.1%})')" \
      "$what" "$head" "$proto" "$name"
  done
done
