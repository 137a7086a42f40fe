"""A tournament's shards on a Dask cluster, merged into the results of one process.

Each task runs one shard with the command line the package installs (`python -m mtrain
tournament ... --shard I/N --out DIR`); `mtrain merge` adds them. The merged CSV files are
byte-identical to one process playing the whole run, which this example checks.

Usage: python examples/python/dask_shards.py [SHARDS] [GAMES]   (8 shards of 20,000 games by
default: half a minute on 2 cores). On a real cluster, give `Client` your scheduler's address
and a folder every worker can write.
"""

import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

from dask.distributed import Client, LocalCluster

RUN = ["tournament", "--bots", "greedy,planner,random", "--players", "3", "--seed", "42", "--quiet"]
FILES = ["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"]


def mtrain(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "mtrain", *args], check=True, stdout=subprocess.DEVNULL)


def shard(i: int, n: int, games: int, folder: str) -> str:
    """Plays shard i of n into its own folder (a retried task replaces its own files only)."""
    out = f"{folder}/shard-{i}"
    mtrain(*RUN, "--games", str(games), "--threads", "1", "--shard", f"{i}/{n}", "--out", out)
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    with tempfile.TemporaryDirectory() as folder, LocalCluster(n_workers=2, threads_per_worker=1) as cluster:
        with Client(cluster) as client:
            dirs = client.gather(client.map(shard, range(1, n + 1), n=n, games=games, folder=folder))
        mtrain("merge", *dirs, "--out", f"{folder}/merged")
        mtrain(*RUN, "--games", str(games), "--out", f"{folder}/one")
        same = all(filecmp.cmp(Path(folder, "merged", f), Path(folder, "one", f), shallow=False) for f in FILES)
        print(Path(folder, "merged", "summary.csv").read_text())
        print(f"{n} shards on Dask, merged: {'byte-identical to' if same else 'DIFFERENT from'} one process")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
