#!/usr/bin/env bash
# The search bots before and after the engine work of issue "The engine at the floor's speed":
# `mtrain bench` of the build before it (commit 0e87e7a) and of this tree, in turn (old, new,
# old, new, ...), on one thread: `montecarlo` at its defaults and the `expert` of that commit
# (its defaults then, `expert:rollout=greedy,prior=0,depth=8,samples=auto` now), 4 players,
# wikipedia, double-12, full matches. Both play the same worlds and moves (the comparison of
# builds in STEPS.md), so the rates compare the engines alone. Medians over the pairs.
# Run on a quiet machine.
#
# Usage: scripts/bench/bench-engine-steps.sh [PAIRS]   (PAIRS default 3; about 4 minutes, plus a build
#                                                 of the old commit the first time)
# Writes results/benchmarks/engine-steps.csv and engine-steps.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS="${1:-3}"
OUT="${OUT:-results/benchmarks}"
BEFORE=0e87e7a
OLD_TREE="${OLD_TREE:-target/before-$BEFORE}"
cargo build --release --quiet --bin mtrain
if [ ! -x "$OLD_TREE/target/release/mtrain" ]; then
  rm -rf "$OLD_TREE"
  git worktree prune
  git worktree add -f --detach "$OLD_TREE" "$BEFORE" > /dev/null
  (cd "$OLD_TREE" && cargo build --release --quiet --bin mtrain)
fi
OLD="$OLD_TREE/target/release/mtrain"
NEW=target/release/mtrain
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# bot label, the spec for the old build, the spec for this one
BOTS=("montecarlo|montecarlo|montecarlo" "expert (former defaults)|expert|expert:rollout=greedy,prior=0,depth=8,samples=auto")
for ((i = 1; i <= PAIRS; i++)); do
  for k in "${!BOTS[@]}"; do
    IFS='|' read -r _ old_spec new_spec <<< "${BOTS[$k]}"
    "$OLD" bench --bots "$old_spec" --players 4 --threads 1 --seconds 3 --runs 1 --out "$TMP/old-$k-$i.csv" > /dev/null
    "$NEW" bench --bots "$new_spec" --players 4 --threads 1 --seconds 3 --runs 1 --out "$TMP/new-$k-$i.csv" > /dev/null
  done
done
python3 - "$TMP" "$OUT" "$PAIRS" "${BOTS[@]}" <<'PY'
import csv, os, platform, statistics, sys
tmp, out, pairs, bots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
def med(build, k, col):
    return statistics.median(float(next(csv.DictReader(open(f"{tmp}/{build}-{k}-{i}.csv")))[col]) for i in range(1, pairs + 1))
rows = []
for k, b in enumerate(bots):
    label = b.split("|")[0]
    r = {"bot": label}
    for build in ("old", "new"):
        r[f"decisions_per_s_{build}"] = med(build, k, "decisions_per_s")
        r[f"rollouts_per_s_{build}"] = med(build, k, "rollouts_per_s")
    r["decisions_ratio"] = r["decisions_per_s_new"] / r["decisions_per_s_old"]
    r["rollouts_ratio"] = r["rollouts_per_s_new"] / r["rollouts_per_s_old"]
    rows.append(r)
cols = list(rows[0])
with open(f"{out}/engine-steps.csv", "w", newline="") as f:
    w = csv.DictWriter(f, cols)
    w.writeheader()
    for r in rows:
        w.writerow({c: (f"{v:.4f}" if isinstance(v, float) else v) for c, v in r.items()})
with open(f"{out}/engine-steps.md", "w") as f:
    f.write("# Search bots before and after the engine steps\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores. Written by `scripts/bench/bench-engine-steps.sh` (do not edit): "
            f"`mtrain bench --players 4 --threads 1 --seconds 3 --runs 1` of commit 0e87e7a and of this tree in turn, "
            f"{pairs} pairs, medians; wikipedia, double-12, full matches, every seat the same bot.\n\n")
    f.write("| bot | decisions/s before | after | ratio | rollouts/s before | after | ratio |\n|---|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        f.write(f"| {r['bot']} | {r['decisions_per_s_old']:,.0f} | {r['decisions_per_s_new']:,.0f} | {r['decisions_ratio']:.2f} | "
                f"{r['rollouts_per_s_old']:,.0f} | {r['rollouts_per_s_new']:,.0f} | {r['rollouts_ratio']:.2f} |\n")
PY
cat "$OUT/engine-steps.md"
