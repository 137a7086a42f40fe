#!/usr/bin/env bash
# Builds the engine of `mtrain web`'s play page: the `web/` crate (the library, its bots and
# analyst behind one JSON entry point) for wasm32-unknown-unknown, with the custom sections
# (names, the unused bindings' descriptions) stripped, into web/mtrain.wasm, which is committed:
# `mtrain web` carries it, so a clone writes the page without this toolchain. Records in
# web/mtrain.wasm.json the CRC-32 of the sources it was built from (tests/web_page.rs fails when
# they have changed since), its size and the build's time; then writes the page to
# web/dist/mtrain.html (ignored by git), ready for a static host.
#
# Usage: scripts/regen/build-web.sh   (about 2-3 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
if command -v rustup >/dev/null 2>&1; then
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
fi
start=$(date +%s.%N)
cargo build --quiet -p mtrain-web --target wasm32-unknown-unknown --release
seconds=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
python3 - "$seconds" "$(rustc --version)" <<'PY'
import json, os, sys, zlib

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80:
            return r, i

raw = open("target/wasm32-unknown-unknown/release/mtrain_web.wasm", "rb").read()
out = bytearray(raw[:8])
i = 8
while i < len(raw):
    sid = raw[i]
    n, j = leb(raw, i + 1)
    if sid != 0:  # custom sections (id 0) carry nothing the engine runs
        out += raw[i:j + n]
    i = j + n
open("web/mtrain.wasm", "wb").write(out)

# The sources the module is built from (the Rust files; the pages' scripts and styles are the
# command line's); tests/web_page.rs computes the same.
roots = ["src", "strategies", "web/src"]
files = ["Cargo.toml", "Cargo.lock", "web/Cargo.toml", "results/ladder/league.csv"]
for r in roots:
    for d, _, fs in os.walk(r):
        for f in fs:
            p = os.path.join(d, f).replace(os.sep, "/")
            if not p.endswith(".rs") or p.startswith("src/cli/") or p == "src/main.rs":
                continue
            files.append(p)
crc = 0
for p in sorted(set(files)):
    crc = zlib.crc32(p.encode() + b"\n", crc)
    crc = zlib.crc32(open(p, "rb").read(), crc)
info = {"sources_crc32": f"{crc:08x}", "bytes": len(out), "unstripped_bytes": len(raw),
        "build_seconds": float(sys.argv[1]), "rustc": sys.argv[2]}
open("web/mtrain.wasm.json", "w").write(json.dumps(info, indent=1) + "\n")
print(f"web/mtrain.wasm: {len(out)} bytes ({len(raw)} before stripping), built in {sys.argv[1]} s")
PY
cargo build --quiet --release --bin mtrain
mkdir -p web/dist
target/release/mtrain web --out web/dist/mtrain.html
