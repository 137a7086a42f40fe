#!/usr/bin/env bash
# The search bots before and after a series of engine steps, `mtrain bench` of the build before
# the series and of this tree, in turn (old, new, old, new, ...), on one thread, 4 players,
# wikipedia, double-12, full matches. Both builds play the same worlds and moves (the
# comparisons of builds in STEPS.md), so the rates compare the engines alone. Medians over the
# pairs. Run on a quiet machine. Two series:
#
# - `engine` (issue "The engine at the floor's speed"): the build of commit 0e87e7a;
#   `montecarlo` at its defaults and the `expert` of that commit (its defaults then,
#   `expert:rollout=greedy,prior=0,depth=8,samples=auto` now). Writes engine-steps.csv/.md.
# - `kernel` (issue "A plain-rules kernel"): the build of commit 1c43345; `montecarlo` and
#   `expert` at their defaults (weighted rollouts). Writes kernel-steps.csv/.md.
#
# Usage: scripts/bench/bench-engine-steps.sh [PAIRS] [engine|kernel]   (PAIRS default 3; about
#        4 minutes, plus a build of the old commit the first time)
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS="${1:-3}"
SERIES="${2:-engine}"
OUT="${OUT:-results/benchmarks}"
# bot label, the spec for the old build, the spec for this one
case "$SERIES" in
  engine)
    BEFORE=0e87e7a
    TITLE="the engine steps"
    BOTS=("montecarlo|montecarlo|montecarlo" "expert (former defaults)|expert|expert:rollout=greedy,prior=0,depth=8,samples=auto")
    ;;
  kernel)
    BEFORE=1c43345
    TITLE="the plain-rules kernel steps"
    BOTS=("montecarlo|montecarlo|montecarlo" "expert|expert|expert")
    ;;
  *)
    echo "bench-engine-steps.sh: unknown series '$SERIES' (engine, kernel)" >&2
    exit 2
    ;;
esac
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
for ((i = 1; i <= PAIRS; i++)); do
  for k in "${!BOTS[@]}"; do
    IFS='|' read -r _ old_spec new_spec <<< "${BOTS[$k]}"
    "$OLD" bench --bots "$old_spec" --players 4 --threads 1 --seconds 3 --runs 1 --out "$TMP/old-$k-$i.csv" > /dev/null
    "$NEW" bench --bots "$new_spec" --players 4 --threads 1 --seconds 3 --runs 1 --out "$TMP/new-$k-$i.csv" > /dev/null
  done
done
python3 - "$TMP" "$OUT" "$PAIRS" "$SERIES" "$BEFORE" "$TITLE" "${BOTS[@]}" <<'PY'
import csv, os, platform, statistics, sys
tmp, out, pairs, series, before, title, bots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]
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
with open(f"{out}/{series}-steps.csv", "w", newline="") as f:
    w = csv.DictWriter(f, cols)
    w.writeheader()
    for r in rows:
        w.writerow({c: (f"{v:.4f}" if isinstance(v, float) else v) for c, v in r.items()})
with open(f"{out}/{series}-steps.md", "w") as f:
    f.write(f"# Search bots before and after {title}\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores. Written by `scripts/bench/bench-engine-steps.sh {pairs} {series}` (do not edit): "
            f"`mtrain bench --players 4 --threads 1 --seconds 3 --runs 1` of commit {before} and of this tree in turn, "
            f"{pairs} pairs, medians; wikipedia, double-12, full matches, every seat the same bot.\n\n")
    f.write("| bot | decisions/s before | after | ratio | rollouts/s before | after | ratio |\n|---|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        f.write(f"| {r['bot']} | {r['decisions_per_s_old']:,.0f} | {r['decisions_per_s_new']:,.0f} | {r['decisions_ratio']:.2f} | "
                f"{r['rollouts_per_s_old']:,.0f} | {r['rollouts_per_s_new']:,.0f} | {r['rollouts_ratio']:.2f} |\n")
PY
cat "$OUT/$SERIES-steps.md"
