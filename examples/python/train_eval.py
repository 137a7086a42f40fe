"""Train a masked policy in mtrain's vectorised environment, then rate it with the standard
evaluation, in one script: the train -> evaluate loop with numpy alone.

The policy is a masked softmax over the legal actions. Each action is scored by a linear function
of seven features computed from the observation tensor and the action number alone (the tile's
pips, whether it is a double, whether it goes on the seat's own train, the Mexican train or
another seat's, how many other tiles in hand share a number with it, and whether the action is a
stop, bullet or skip), so the same weights play at any table size of the double-12 set. It is
trained by PPO (clipped policy ratio, advantages from returns-to-go less a least-squares value of
the observation) on `mtrain.vec_env`: seat 0 of 4 against `greedy`, two-round matches.

The trained policy is then a *tensor bot* (an object with `act(obs, mask)`), which plays in
tournaments and evaluations exactly as it played in training: no code of its own turns the
tournament's view into its input. `mtrain.evaluate` rates it under the standard protocol against
the frozen baselines.

Usage: python examples/python/train_eval.py [ITERATIONS] [--quick]
  ITERATIONS  PPO iterations (default 60: about a minute on 2 cores); each plays 64 decisions in
              each of 256 games
  --quick     the evaluation's smoke-test variant instead of the full protocol
"""

import sys

import numpy as np

import mtrain

SET_TILES, VALUES = 91, 13  # the double-12 set
GAMES, HORIZON = 256, 64
FEATURES = ["pips", "double", "own", "mexican", "other", "suit", "no_tile"]


class Tables:
    """What the feature function needs about one table size: for each action number its tile, its
    target train and whether it places a tile; for each tile and action whether the tile shares a
    number with the action's tile."""

    def __init__(self, players: int):
        self.players = players
        targets = players + 1  # each seat's train, then the Mexican train (one under these rules)
        self.actions = SET_TILES * targets + 3
        places = self.actions - 3
        tile, target = np.divmod(np.arange(places), targets)
        self.target = np.concatenate([target, np.full(3, -1)])
        high = ((np.sqrt(8 * tile + 1) - 1) // 2).astype(int)
        low = tile - high * (high + 1) // 2
        tiles_high = ((np.sqrt(8 * np.arange(SET_TILES) + 1) - 1) // 2).astype(int)
        tiles_low = np.arange(SET_TILES) - tiles_high * (tiles_high + 1) // 2
        self.static = np.zeros((self.actions, len(FEATURES)), dtype=np.float32)
        self.static[:places, 0] = (low + high) / (2 * (VALUES - 1))
        self.static[:places, 1] = low == high
        self.static[:places, 3] = target == players
        self.static[places:, 6] = 1.0
        # share[a, t]: tile t has a number in common with action a's tile (and is not that tile).
        share = (low[:, None] == tiles_low[None]) | (low[:, None] == tiles_high[None])
        share |= (high[:, None] == tiles_low[None]) | (high[:, None] == tiles_high[None])
        share &= tile[:, None] != np.arange(SET_TILES)[None]
        self.share = np.zeros((self.actions, SET_TILES), dtype=np.float32)
        self.share[:places] = share
        # Where the observation tensor keeps the observing seat, one-hot (docs/python.md).
        self.seat_at = 2 * SET_TILES + targets * (VALUES + 3) + players + 1

    @staticmethod
    def for_observation(width: int) -> "Tables":
        players, rest = divmod(width - (2 * SET_TILES + VALUES + 5), VALUES + 6)
        if rest or not 2 <= players <= 16:
            raise ValueError(f"an observation of {width} numbers is not a double-12 table with one Mexican train")
        return Tables(players)

    def features(self, obs: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """The features (rows x k x features) of the actions idx (rows x k) in each observation."""
        f = self.static[idx]
        seat = obs[:, self.seat_at : self.seat_at + self.players].argmax(axis=1)
        target = self.target[idx]
        own = target == seat[:, None]
        f[:, :, 2] = own
        f[:, :, 4] = (target >= 0) & (target < self.players) & ~own
        f[:, :, 5] = np.einsum("nkt,nt->nk", self.share[idx], obs[:, :SET_TILES]) / 6.0
        return f


def legal_columns(mask: np.ndarray):
    """Each row's legal action numbers, padded to the widest row: (indices, valid)."""
    k = max(int(mask.sum(axis=1).max()), 1)
    idx = np.argsort(mask == 0, axis=1, kind="stable")[:, :k]
    return idx, np.take_along_axis(mask, idx, axis=1) > 0


def policy(theta: np.ndarray, feats: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Probabilities (rows x k) over each row's legal actions under weights theta."""
    logits = np.where(valid, feats @ theta, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def train(iterations: int, seed: int = 1, log=sys.stderr) -> np.ndarray:
    """PPO on seat 0 of four against greedy; returns the policy's weights."""
    rng = np.random.default_rng(seed)
    env = mtrain.vec_env(GAMES, ["greedy"], players=4, rounds=2, seed=seed)
    tables = Tables.for_observation(env.obs.shape[1])
    theta = np.zeros(len(FEATURES))
    for it in range(iterations):
        feats, valids, picks, obs, rewards, dones = [], [], [], [], [], []
        for _ in range(HORIZON):
            o = env.obs.copy()
            idx, valid = legal_columns(env.mask)
            f = tables.features(o, idx)
            p = policy(theta, f, valid)
            j = (p.cumsum(axis=1) > rng.random((GAMES, 1))).argmax(axis=1)
            env.step(idx[np.arange(GAMES), j])
            feats.append(f), valids.append(valid), picks.append(j), obs.append(o)
            rewards.append(env.rewards.copy()), dones.append(env.dones.copy())
        # Returns-to-go within each match (an unfinished match's tail is left out: no bootstrap).
        g = np.zeros((HORIZON, GAMES))
        running = np.zeros(GAMES)
        for t in reversed(range(HORIZON)):
            running = np.where(dones[t], 0.0, running) + rewards[t]
            g[t] = running
        x = np.hstack([np.concatenate(obs), np.ones((HORIZON * GAMES, 1))])
        value = x @ np.linalg.lstsq(x.T @ x + 1e-3 * np.eye(x.shape[1]), x.T @ g.ravel(), rcond=None)[0]
        adv = g.ravel() - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        # One padded width for the whole batch.
        k = max(f.shape[1] for f in feats)
        pad = lambda a, fill: np.pad(a, [(0, 0), (0, k - a.shape[1])] + [(0, 0)] * (a.ndim - 2), constant_values=fill)
        f = np.concatenate([pad(f, 0.0) for f in feats])
        valid = np.concatenate([pad(v, False) for v in valids])
        j, rows = np.concatenate(picks), np.arange(HORIZON * GAMES)
        old = policy(theta, f, valid)[rows, j]
        for _ in range(4):  # epochs of clipped policy-ratio steps
            p = policy(theta, f, valid)
            ratio = p[rows, j] / old
            live = np.where(adv > 0, ratio < 1.2, ratio > 0.8)  # outside the clip, no gradient
            grad_log = f[rows, j] - np.einsum("nk,nkf->nf", p, f)
            theta += 2.0 * ((live * ratio * adv)[:, None] * grad_log).mean(axis=0)
        if (it + 1) % 10 == 0:
            finished = np.concatenate(rewards)[np.concatenate(dones)]
            print(f"iteration {it + 1}: weights {np.round(theta, 2)}, final rewards {finished.mean():+.3f}", file=log)
    return theta


class Policy:
    """The trained policy as a tensor bot: the legal action of highest probability."""

    name = "ppo_example"

    def __init__(self, theta: np.ndarray):
        self.theta = theta
        self.tables = {}

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        width = obs.shape[0]
        if width not in self.tables:
            self.tables[width] = Tables.for_observation(width)
        idx = np.flatnonzero(mask)
        scores = self.tables[width].features(obs[None], idx[None])[0] @ self.theta
        return int(idx[np.argmax(scores)])


def trained(iterations: int = 60) -> Policy:
    """The policy trained with the defaults (seed 1): the example's row of the evaluation
    leaderboard (scripts/studies/eval-leaderboard.sh)."""
    return Policy(train(iterations))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    theta = train(int(args[0]) if args else 60)
    print("weights: " + ", ".join(f"{k}={v:.3f}" for k, v in zip(FEATURES, theta)))
    result = mtrain.evaluate(Policy(theta), quick=quick)
    print(result)


if __name__ == "__main__":
    main()
