#!/usr/bin/env bash
# Memory of resume and merge on a run with large per-game files (issue "Durable runs"): both
# stream, so their peak memory stays flat whatever the size of games.csv and rounds.csv.
#   1. a --per-game tournament stopped by SIGTERM after most of its games, then resumed;
#   2. the same tournament as two shards, merged.
# Prints the per-game bytes and the peak resident memory (GNU time's "Maximum resident set
# size") of the resume and of the merge, and checks both against an uninterrupted run.
#
# Usage: scripts/bench/durability-memory.sh [GAMES]   (default 240000 games: about 200 MB of rows)
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${1:-240000}"
W="${W:-/tmp/mtrain-durability}"
rm -rf "$W"; mkdir -p "$W"
cargo build --release --quiet
M=target/release/mtrain
common=(tournament --bots greedy,random --games "$GAMES" --per-game --quiet)
$M "${common[@]}" --out "$W/whole" > /dev/null
bytes=$(( $(stat -c %s "$W/whole/games.csv") + $(stat -c %s "$W/whole/rounds.csv") ))
secs=$(/usr/bin/time -f %e $M "${common[@]}" --out "$W/timing" 2>&1 >/dev/null | tail -1)
# Stop at about 90% of the run's time, then resume.
$M "${common[@]}" --out "$W/stopped" --checkpoint 5 > /dev/null & pid=$!
sleep "$(python3 -c "print(round($secs * 0.9, 2))")"
kill -TERM "$pid"; wait "$pid" || true
/usr/bin/time -f "%M" -o "$W/resume.rss" $M tournament --resume "$W/stopped" --quiet > /dev/null
for s in 1 2; do $M "${common[@]}" --shard "$s/2" --out "$W/shard$s" > /dev/null; done
/usr/bin/time -f "%M" -o "$W/merge.rss" $M merge "$W/shard1" "$W/shard2" --out "$W/merged" > /dev/null
for d in stopped merged; do
  for f in summary.csv games.csv rounds.csv; do cmp -s "$W/$d/$f" "$W/whole/$f" || { echo "$d/$f differs"; exit 1; }; done
done
echo "per-game files: $((bytes / 1000000)) MB ($GAMES games)"
echo "resume peak memory: $(( $(cat "$W/resume.rss") / 1024 )) MB"
echo "merge peak memory: $(( $(cat "$W/merge.rss") / 1024 )) MB"
echo "resumed and merged files identical to the uninterrupted run"
rm -rf "$W"
