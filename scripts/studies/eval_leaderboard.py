"""The mtrain-eval v1 leaderboard table from the evaluations under OUT/runs/ (eval-leaderboard.sh).

Usage: python3 scripts/studies/eval_leaderboard.py OUT THREADS

Writes OUT/leaderboard.csv (a row per bot, best first: the overall rating and its 95% interval,
the rating per preset and table size, the Elo difference to each baseline averaged over the four
presets and table sizes, and the evaluation's wall seconds) OUT/leaderboard.md (the same as a
Markdown table) and OUT/README.md (the table with the command that made it).
"""

import csv
import pathlib
import sys

GROUPS = [("wikipedia", "2"), ("wikipedia", "4"), ("dominorules", "2"), ("dominorules", "4")]
BASELINES = ["random", "greedy", "planner", "weighted", "expert"]


def row_of(run: pathlib.Path) -> dict:
    rows = list(csv.DictReader(open(run / "eval.csv")))
    if not rows or not rows[0]["protocol"] == "mtrain-eval v1":
        raise SystemExit(f"{run}: not an mtrain-eval v1 result")
    rating = {(r["preset"], r["players"]): r for r in rows if r["baseline"] == "rating"}
    cells = [r for r in rows if r["baseline"] != "rating"]
    out = {"bot": rows[0]["candidate"]}
    total = rating[("all", "all")]
    out["rating"], out["rating_lo"], out["rating_hi"] = total["elo"], total["elo_lo"], total["elo_hi"]
    for p, n in GROUPS:
        out[f"{p}_{n}p"] = rating[(p, n)]["elo"]
    for b in BASELINES:
        elos = [float(r["elo"]) for r in cells if r["baseline"] == b]
        out[f"vs_{b}"] = f"{sum(elos) / len(elos):.1f}"
    secs = run / "seconds.txt"
    out["seconds"] = secs.read_text().strip() if secs.exists() else ""
    return out


def main() -> None:
    out, threads = pathlib.Path(sys.argv[1]), sys.argv[2]
    rows = [row_of(d) for d in sorted((out / "runs").iterdir()) if (d / "eval.csv").exists()]
    rows.sort(key=lambda r: -float(r["rating"]))
    fields = list(rows[0])
    with open(out / "leaderboard.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    lines = [
        f"| bot | rating [95%] | {' | '.join(f'{p} {n}p' for p, n in GROUPS)} | {' | '.join('vs ' + b for b in BASELINES)} | seconds ({threads} threads) |",
        "|" + "---|" * (3 + len(GROUPS) + len(BASELINES)),
    ]
    for r in rows:
        rating = f"{float(r['rating']):+.0f} [{float(r['rating_lo']):+.0f}, {float(r['rating_hi']):+.0f}]"
        groups = " | ".join(f"{float(r[f'{p}_{n}p']):+.0f}" for p, n in GROUPS)
        vs = " | ".join(f"{float(r[f'vs_{b}']):+.0f}" for b in BASELINES)
        lines.append(f"| {r['bot']} | {rating} | {groups} | {vs} | {r['seconds']} |")
    table = "\n".join(lines) + "\n"
    (out / "leaderboard.md").write_text(table)
    (out / "README.md").write_text(README.format(table=table, threads=threads))


README = """# results/eval/: the mtrain-eval v1 leaderboard

Every frozen baseline of the standard evaluation, and `hoarder`, evaluated as candidates under the
full mtrain-eval v1 protocol (docs/eval.md): 2 presets (`wikipedia`, `dominorules`) x 2 table
sizes (2 and 4 players) x 5 baselines, 3-round matches on duplicate deals, 640 games a cell at 2
players and 384 at 4.

```sh
scripts/studies/eval-leaderboard.sh
```

{table}
- **rating**: the overall rating on the scale where `greedy` is 0, with its 95% interval; then the
  rating per preset and table size. The baselines' frozen league ratings are minus `greedy`'s Elo
  differences, so `greedy` rates 0 by construction, and a baseline evaluated against its own frozen
  copy rates close to its league rating.
- **vs BASELINE**: the Elo difference to that baseline, the mean over the four presets and table
  sizes (each cell's figure and interval is in `runs/BOT/eval.csv`).
- **seconds**: the evaluation's wall time on {threads} threads, on a 2-core machine shared with other
  jobs.

`runs/BOT/` holds each evaluation's `eval.csv`, `manifest.json` (the command, the protocol, the
candidate's full spec) and console output; `protocol.txt` is `mtrain eval --protocol`.
A trained Python policy's row is added with `PY_BOTS="name=module:factory"` (see the script).
"""


if __name__ == "__main__":
    main()
