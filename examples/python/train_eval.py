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
    target train and whether it places a tile; for each pair of tiles whether they share a number."""

    def __init__(self, players: int):
        self.players = players
        targets = players + 1  # each seat's train, then the Mexican train (one under these rules)
        self.actions = SET_TILES * targets + 3
        tile, self.target = np.divmod(np.arange(self.actions - 3), targets)
        high = ((np.sqrt(8 * tile + 1) - 1) // 2).astype(int)
        low = tile - high * (high + 1) // 2
        tiles_high = ((np.sqrt(8 * np.arange(SET_TILES) + 1) - 1) // 2).astype(int)
        tiles_low = np.arange(SET_TILES) - tiles_high * (tiles_high + 1) // 2
        self.static = np.zeros((self.actions, len(FEATURES)), dtype=np.float32)
        self.static[: self.actions - 3, 0] = (low + high) / (2 * (VALUES - 1))
        self.static[: self.actions - 3, 1] = low == high
        self.static[: self.actions - 3, 3] = self.target == players
        self.static[self.actions - 3 :, 6] = 1.0
        # share[t, a]: tile t has a number in common with action a's tile (and is not that tile).
        share = (tiles_low[:, None] == low[None]) | (tiles_low[:, None] == high[None])
        share |= (tiles_high[:, None] == low[None]) | (tiles_high[:, None] == high[None])
        share &= np.arange(SET_TILES)[:, None] != tile[None]
        self.share = np.zeros((SET_TILES, self.actions), dtype=np.float32)
        self.share[:, : self.actions - 3] = share
        # Where the observation tensor keeps the observing seat, one-hot (docs/python.md).
        self.seat_at = 2 * SET_TILES + targets * (VALUES + 3) + players + 1

    @staticmethod
    def for_observation(width: int) -> "Tables":
        players, rest = divmod(width - (2 * SET_TILES + VALUES + 5), VALUES + 6)
        if rest or not 2 <= players <= 16:
            raise ValueError(f"an observation of {width} numbers is not a double-12 table with one Mexican train")
        return Tables(players)

    def features(self, obs: np.ndarray) -> np.ndarray:
        """The feature matrix (games x actions x features) of a batch of observations."""
        n = obs.shape[0]
        f = np.broadcast_to(self.static, (n,) + self.static.shape).copy()
        seat = obs[:, self.seat_at : self.seat_at + self.players].argmax(axis=1)
        placing = slice(0, self.actions - 3)
        own = self.target[None] == seat[:, None]
        f[:, placing, 2] = own
        f[:, placing, 4] = (self.target[None] < self.players) & ~own
        f[:, :, 5] = obs[:, :SET_TILES] @ self.share / 6.0
        return f


def policy(theta: np.ndarray, feats: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities (games x actions) under weights theta, zero outside the mask."""
    logits = np.where(mask > 0, feats @ theta, -np.inf)
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
        obs, masks, acts, rewards, dones = [], [], [], [], []
        for _ in range(HORIZON):
            o, m = env.obs.copy(), env.mask.copy()
            p = policy(theta, tables.features(o), m)
            a = (p.cumsum(axis=1) > rng.random((GAMES, 1))).argmax(axis=1)
            env.step(a.astype(np.int64))
            obs.append(o), masks.append(m), acts.append(a)
            rewards.append(env.rewards.copy()), dones.append(env.dones.copy())
        # Returns-to-go within each match (an unfinished match's tail is left out: no bootstrap).
        g = np.zeros((HORIZON, GAMES))
        running = np.zeros(GAMES)
        for t in reversed(range(HORIZON)):
            running = np.where(dones[t], 0.0, running) + rewards[t]
            g[t] = running
        o = np.concatenate(obs)
        x = np.hstack([o, np.ones((len(o), 1))])
        value = x @ np.linalg.lstsq(x.T @ x + 1e-3 * np.eye(x.shape[1]), x.T @ g.ravel(), rcond=None)[0]
        adv = g.ravel() - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        feats, m, a = tables.features(o), np.concatenate(masks), np.concatenate(acts)
        rows = np.arange(len(a))
        old = policy(theta, feats, m)[rows, a]
        for _ in range(4):  # epochs of clipped policy-ratio steps
            p = policy(theta, feats, m)
            ratio = p[rows, a] / old
            live = np.where(adv > 0, ratio < 1.2, ratio > 0.8)  # outside the clip, no gradient
            grad_log = feats[rows, a] - np.einsum("na,naf->nf", p, feats)
            theta += 2.0 * ((live * ratio * adv)[:, None] * grad_log).mean(axis=0)
        if (it + 1) % 10 == 0:
            finished = np.concatenate(rewards)[np.concatenate(dones)]
            print(f"iteration {it + 1}: weights {np.round(theta, 2)}, final rewards {finished.mean():+.3f}", file=log)
    return theta


class Policy:
    """The trained policy as a tensor bot: the action of highest probability among the legal ones."""

    name = "ppo_example"

    def __init__(self, theta: np.ndarray):
        self.theta = theta
        self.tables = {}

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        width = obs.shape[0]
        if width not in self.tables:
            self.tables[width] = Tables.for_observation(width)
        feats = self.tables[width].features(obs[None])[0]
        return int(np.argmax(np.where(mask > 0, feats @ self.theta, -np.inf)))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    theta = train(int(args[0]) if args else 60)
    print("weights: " + ", ".join(f"{k}={v:.3f}" for k, v in zip(FEATURES, theta)))
    result = mtrain.evaluate(Policy(theta), quick=quick)
    print(result)


if __name__ == "__main__":
    main()
