#!/bin/bash
# Runs one set of commands with two builds of mtrain and compares what they write: stdout and
# every output file, byte for byte, except the files that record the build and the moment
# (manifest.json) or the state format (tally.json, tune.json). A refactoring that must not
# change results is checked with it against the build before.
#
# Usage: scripts/checks/compare-builds.sh OLD_MTRAIN NEW_MTRAIN   (about two minutes on 2 cores)
# Exit code 0 when every output is the same, 1 naming the first difference.
set -euo pipefail
OLD="$1"
NEW="$2"
WORK="$(mktemp -d)"
[ -n "${KEEP:-}" ] && echo "keeping $WORK" >&2 || trap 'rm -rf "$WORK"' EXIT

# Each line: a name, then the command's arguments; OUT is the run's folder.
COMMANDS=(
  "default|tournament --games 2000 --seed 3 --quiet --out OUT"
  "per-game|tournament --bots greedy,planner,random --players 3 --games 1200 --seed 9 --quiet --per-game --log-games OUT/logs --out OUT"
  "gauntlet|tournament --rules dominorules --players 4 --bots greedy,random,hoarder --gauntlet planner --games 800 --quiet --out OUT"
  "sprt|tournament --bots planner,greedy --players 2 --sprt 0,20 --games 40000 --quiet --out OUT"
  "shard1|tournament --bots greedy,random --games 3000 --seed 5 --quiet --shard 1/2 --out OUT"
  "shard2|tournament --bots greedy,random --games 3000 --seed 5 --quiet --shard 2/2 --out OUT"
  "balance|balance --players 3-4 --hands 8-10 --games 200 --bots planner,greedy --quiet --out OUT"
  "bshard1|balance --players 3 --hands 8-9 --games 200 --max-games 200 --bots planner,greedy --quiet --shard 1/2 --out OUT"
  "bshard2|balance --players 3 --hands 8-9 --games 200 --max-games 200 --bots planner,greedy --quiet --shard 2/2 --out OUT"
  "tune|tune --bot weighted --param pips=0:3 --iterations 6 --games 32 --confirm-games 400 --quiet --out OUT"
  "play|play --bots greedy,planner --players 2 --seed 4 --log OUT/match.jsonl"
  # Every preset, and plain-rule variations, with greedy tables (the plain-rules kernel) and
  # montecarlo (its rollouts on the kernel).
  "celko|tournament --rules celko1998 --bots greedy,random --players 3 --games 600 --seed 21 --quiet --out OUT"
  "family|tournament --rules family_house --bots greedy,planner --players 4 --games 300 --seed 22 --quiet --out OUT"
  "harbour|tournament --rules harbour_cay --bots greedy,montecarlo:samples=3 --players 3 --games 24 --seed 23 --quiet --out OUT"
  "wiki-mc|tournament --bots greedy,montecarlo:samples=3 --players 4 --games 24 --seed 24 --per-game --quiet --out OUT"
  "vary1|tournament --bots greedy --players 6 --games 800 --seed 25 --rule marker_removal=any_play_on_train --rule only_others_unmark=true --rule obligation_order=fifo --rule early_end_when_stuck=true --per-game --quiet --out OUT"
  "vary2|tournament --bots greedy,random --players 2 --set 9 --games 800 --seed 26 --rule mexican_start=requires_own_train_play --rule max_mexican_trains=2 --rule mark_on_empty_boneyard=false --rule followup_draw_per_double=false --rule go_out_on_double=must_cover --per-game --quiet --out OUT"
  # expert (weighted rollouts with plan searches, the plan memo), at 2 players under celko1998
  # where draws swell hands and the per-decision plan budget can bind, and analyze's rollouts.
  "expert4|tournament --bots weighted,expert:samples=4 --players 4 --games 8 --seed 28 --per-game --quiet --out OUT"
  "expert2|tournament --rules celko1998 --bots planner,expert:samples=6 --players 2 --games 8 --seed 29 --per-game --log-games OUT/logs --quiet --out OUT"
  "analyze|analyze --log OUT/../expert2/logs/games-000000.jsonl --round 1 --decision 5 --seed 30"
  "vary3|tournament --bots greedy --players 5 --games 800 --seed 27 --rule first_turn_own_train_only=false --rule reprivatise_exempt=true --rule last_of_suit_exempt=false --rule parsons_first_move=true --rule obligation_overrides_first_turn=true --per-game --quiet --out OUT"
)

run_all() {
  local mt="$1" dir="$2"
  mkdir -p "$dir"
  for entry in "${COMMANDS[@]}"; do
    local name="${entry%%|*}" args="${entry#*|}"
    mkdir -p "$dir/$name"
    # shellcheck disable=SC2086 # the arguments are words
    "$mt" ${args//OUT/$dir/$name} > "$dir/$name.stdout" 2> /dev/null || echo "exit $?" >> "$dir/$name.stdout"
  done
  "$mt" merge "$dir/shard1" "$dir/shard2" --out "$dir/merged" > "$dir/merged.stdout" 2> /dev/null
  "$mt" merge "$dir/bshard1" "$dir/bshard2" --out "$dir/bmerged" > "$dir/bmerged.stdout" 2> /dev/null
  # A merge that lacks a shard: what it writes and says, and its exit code.
  "$mt" merge "$dir/shard1" --out "$dir/partial" > "$dir/partial.stdout" 2> /dev/null || echo "exit $?" >> "$dir/partial.stdout"
}

run_all "$OLD" "$WORK/old"
run_all "$NEW" "$WORK/new"
# The console tables name no folder, but the headers of some commands do: compare them with the
# folder's name made the same.
sed -i "s|$WORK/old|WORK|g" "$WORK"/old/*.stdout
sed -i "s|$WORK/new|WORK|g" "$WORK"/new/*.stdout
# analyze says how long its rollouts took.
sed -i -E 's/ in [0-9.]+ s: / in T s: /' "$WORK"/old/analyze.stdout "$WORK"/new/analyze.stdout
if diff -r -x manifest.json -x tally.json -x tune.json -x bot-logs "$WORK/old" "$WORK/new" > "$WORK/diff.txt"; then
  echo "same output: $(find "$WORK/new" -type f ! -name manifest.json ! -name tally.json ! -name tune.json | wc -l) files and stdouts compared"
else
  head -20 "$WORK/diff.txt"
  exit 1
fi
