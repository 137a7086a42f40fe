"""Labels and the value network from Python: numpy reads `mtrain label`'s files as docs/labels.md
describes them, and a numpy forward pass of the shipped network answers its test vectors."""

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np

import mtrain

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("MTRAIN", str(ROOT / "target" / "debug" / "mtrain"))


def test_numpy_reads_the_labels_as_documented(tmp_path):
    out = tmp_path / "labels"
    subprocess.run([CLI, "label", "--matches", "6", "--rollouts", "2", "--quiet", "--out", str(out)], check=True,
                   capture_output=True)
    about = json.loads((out / "labels.json").read_text())
    x = np.concatenate([np.load(out / f[0]) for f in about["files"]])
    y = np.concatenate([np.load(out / f[1]) for f in about["files"]])
    meta = np.concatenate([np.load(out / f[2]) for f in about["files"]])
    assert x.dtype == np.float32 and y.dtype == np.float32 and meta.dtype == np.uint32
    assert len(x) == len(y) == len(meta) == about["labels"] > 100
    obs = mtrain.Game("wikipedia", players=4).observation_shape()[0]
    assert about["observation"] == [0, obs] and about["hands"] == [obs, x.shape[1]]
    tiles, n = 91, 4
    hands = x[:, obs:].reshape(len(x), n, tiles)
    seen = meta[:, 3].astype(int)
    # The seat's own hand in its observation is its block among the hands.
    assert np.array_equal(x[:, :tiles], hands[np.arange(len(x)), seen])
    # The observation's hand sizes (over the set's size) are the hands' sizes.
    sizes_at = obs - 1 - 2 * n - 1 - n
    assert np.allclose(x[:, sizes_at:sizes_at + n] * tiles, hands.sum(axis=2))
    assert ((y[:, 1] >= 0) & (y[:, 1] <= 1)).all() and (y[:, 3] >= 0).all()


def forward(net, idx, val):
    h = np.zeros(net["sizes"][0], np.float32)
    h[np.array(idx, dtype=np.int64)] = np.array(val, np.float32)
    for k, layer in enumerate(net["layers"]):
        w = np.array(layer["w"], np.float32).reshape(net["sizes"][k], net["sizes"][k + 1])
        h = h @ w + np.array(layer["b"], np.float32)
        if k + 1 < len(net["layers"]):
            h = np.maximum(h, 0)
    return h


def test_a_numpy_forward_pass_answers_the_shipped_test_vectors():
    files = sorted((ROOT / "strategies" / "nets").glob("*.json"))
    assert [f.name for f in files] == [
        "learned-d12-2p.json", "learned-d12-4p.json", "value-d12-2p.json", "value-d12-4p.json"]
    for f in files:
        net = json.loads(f.read_text())
        assert net["format"] == "mtrain-value-net" and net["version"] == 1 and net["sizes"][-1] == 2
        assert len(net["test_vectors"]) == 8
        for v in net["test_vectors"]:
            out = forward(net, v["idx"], v["val"])
            # The sums run in another order than Rust's: equal to float32 rounding.
            assert np.allclose(out, v["out"], rtol=1e-4, atol=1e-5), (f.name, out, v["out"])


def test_the_loading_example_of_docs_labels_runs(tmp_path, monkeypatch):
    subprocess.run([CLI, "label", "--matches", "4", "--rollouts", "1", "--quiet", "--out", str(tmp_path / "labels")],
                   check=True, capture_output=True)
    (code,) = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "labels.md").read_text(), re.S)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(code, "docs/labels.md", "exec"), scope)
    assert scope["x"].shape == (scope["about"]["labels"], 640) and scope["y"].shape[1] == 4
