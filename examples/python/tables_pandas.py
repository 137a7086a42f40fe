"""A tournament's tables in pandas, and a plot of its ratings with their intervals.

Usage: python examples/python/tables_pandas.py [OUT.png]   (a few seconds; needs pandas and
matplotlib)
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import mtrain  # noqa: E402


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "ratings.png"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 6000
    r = mtrain.tournament(["greedy", "planner", "cutthroat", "hoarder", "random"], players=4, games=games, seed=3)
    ratings = r.ratings.to_pandas().sort_values("elo")
    summary = r.summary.to_pandas().set_index("strategy")
    print(summary[["win_rate", "win_lo", "win_hi", "mean_score"]].round(3).to_string())
    fig, ax = plt.subplots(figsize=(6, 3.2))
    err = [ratings["elo"] - ratings["elo_lo"], ratings["elo_hi"] - ratings["elo"]]
    ax.barh(ratings["bot"], ratings["elo"], xerr=err, color="#4477aa", capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"Elo against {ratings.loc[ratings['anchor'] == 1, 'bot'].iloc[0]} (95% interval)")
    ax.set_title(f"4-player wikipedia, {r.games:,} games")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
