"""Golden playthroughs of mtrain.State: each preset at 2 and 4 players, a fixed seed and a fixed
rule for choosing, every step's player, legal actions, action, observation (as a digest of the
protocol message and of the tensor) and the match totals after it (whose changes are the
environments' round rewards), and the final scores and returns. A change that alters a
trajectory, an observation or a reward changes a file here.

Usage: target/pyenv/bin/python python/tests/golden_playthroughs.py   (rewrites the files; the
test checks them, so run it only after a change meant to alter play, and say so in the commit)
"""

import hashlib
import json
import struct
import sys
from pathlib import Path

import mtrain

PRESETS = ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"]
DIR = Path(__file__).resolve().parent / "golden"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def playthrough(preset: str, players: int) -> dict:
    game = mtrain.Game(preset, players=players, rounds=2)
    state = game.new_state(2026)
    steps = []
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        action = legal[(len(steps) * 7 + 3) % len(legal)]
        obs = state.observation(p)
        tensor = state.observation_tensor(p)
        steps.append({
            "player": p,
            "round": state.round(),
            "legal": legal,
            "action": action,
            "move": state.action_to_string(action),
            "observation": digest(json.dumps(obs, sort_keys=True).encode()),
            "tensor": digest(struct.pack(f"{len(tensor)}f", *tensor)),
        })
        state.apply_action(action)
        # The match totals after the step: the environments' round rewards are their changes.
        steps[-1]["scores"] = state.scores()
    return {
        "preset": preset,
        "players": players,
        "rounds": 2,
        "seed": 2026,
        "actions": game.num_distinct_actions(),
        "steps": steps,
        "scores": state.scores(),
        "returns": state.returns(),
    }


def name(preset: str, players: int) -> Path:
    return DIR / f"{preset}-{players}p.json"


def main() -> None:
    DIR.mkdir(exist_ok=True)
    for preset in PRESETS:
        for players in (2, 4):
            text = json.dumps(playthrough(preset, players), indent=1) + "\n"
            name(preset, players).write_text(text)
    print(f"wrote {len(PRESETS) * 2} playthroughs to {DIR}", file=sys.stderr)


if __name__ == "__main__":
    main()
