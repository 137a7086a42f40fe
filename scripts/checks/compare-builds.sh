#!/bin/bash
# Runs one set of commands with two builds of mtrain and compares what they write: stdout and
# every output file, byte for byte, except the files that record the build and the moment
# (manifest.json) or the state format (tally.json, tune.json). A refactoring that must not
# change results is checked with it against the build before.
#
# Usage: scripts/checks/compare-builds.sh OLD_MTRAIN NEW_MTRAIN   (about a minute on 2 cores)
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
if diff -r -x manifest.json -x tally.json -x tune.json -x bot-logs "$WORK/old" "$WORK/new" > "$WORK/diff.txt"; then
  echo "same output: $(find "$WORK/new" -type f ! -name manifest.json ! -name tally.json ! -name tune.json | wc -l) files and stdouts compared"
else
  head -20 "$WORK/diff.txt"
  exit 1
fi
