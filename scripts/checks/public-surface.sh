#!/usr/bin/env bash
# Counts the public surface of the library crate (mexican_train) from rustdoc's JSON output,
# and the public methods of `RoundState`.
#
# (a) Public items: the items a user of the library can name. That is exactly what rustdoc
#     documents without --document-private-items and --document-hidden-items: items declared
#     `pub` (not `pub(crate)`, `pub(super)` or `pub(in ...)`) that are reachable from
#     src/lib.rs through public modules or `pub use` re-exports. `#[cfg(test)]` code is not
#     compiled, and items and modules marked `#[doc(hidden)]` are left out with all they hold.
#     Each item defined in this crate is counted once, however many paths reach it:
#       - items: modules, structs, enums, unions, traits, free functions, constants, statics,
#         type aliases and macros;
#       - methods: `pub` functions, constants and types in inherent `impl` blocks of those types;
#       - fields: `pub` fields of structs (named and tuple fields).
#     The total is their sum. Not counted: enum variants and their fields, the items of traits
#     and of trait impls (they come with the trait), and re-exports (`pub use`, which name an
#     item counted already; printed apart).
# (b) RoundState's public methods: the `pub` methods of `mexican_train::round::RoundState` in
#     every inherent `impl RoundState` block, wherever it lives (the same rules: not in
#     `#[cfg(test)]` code, not `#[doc(hidden)]`).
#
# Needs rustdoc's JSON output, an unstable option: `cargo +nightly` where a nightly toolchain is
# installed, else the default toolchain with RUSTC_BOOTSTRAP=1. It builds in
# target/surface (the dependencies once, about 4 minutes on 2 cores; later runs are quicker).
#
# Usage: scripts/checks/public-surface.sh [REV] [--list]
#   REV     count a commit (e.g. 42f5b04) instead of the working tree (extracted with git archive)
#   --list  also print every counted item with its kind and path, one a line (for diffs)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
REV=""
LIST=0
for arg in "$@"; do
  case "$arg" in
    --list) LIST=1 ;;
    -*) echo "public-surface: unknown option $arg" >&2; exit 2 ;;
    *) REV="$arg" ;;
  esac
done

TARGET="${CARGO_TARGET_DIR:-$ROOT/target}/surface"
SRC="$ROOT"
if [ -n "$REV" ]; then
  SRC="$(mktemp -d)"
  trap 'rm -rf "$SRC"' EXIT
  git archive "$REV" | tar -x -C "$SRC"
fi

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  CARGO=(cargo +nightly)
else
  CARGO=(env RUSTC_BOOTSTRAP=1 cargo)
fi
(cd "$SRC" && CARGO_TARGET_DIR="$TARGET" "${CARGO[@]}" rustdoc --quiet --lib -p mexican-train \
  -- -Z unstable-options --output-format json 2> "$TARGET.log") \
  || { cat "$TARGET.log" >&2; echo "public-surface: rustdoc failed" >&2; exit 1; }

python3 - "$TARGET/doc/mexican_train.json" "$LIST" "${REV:-working tree}" <<'EOF'
import json, sys
from collections import Counter

path, listing, what = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
doc = json.load(open(path))
index = doc["index"]

def kind(item):
    return next(iter(item["inner"]))

def local(item):
    return item["crate_id"] == 0

ITEM_KINDS = {"module", "struct", "enum", "union", "trait", "trait_alias", "function",
              "constant", "static", "type_alias", "macro", "proc_macro"}
ASSOC_KINDS = {"function", "assoc_const", "assoc_type"}

# The parent of every item an impl holds, to tell methods from free functions.
impl_items = set()
for item in index.values():
    if local(item) and kind(item) == "impl":
        impl_items.update(str(i) for i in item["inner"]["impl"]["items"])

def inherent_impls(type_item):
    for i in type_item["inner"][kind(type_item)].get("impls", []):
        imp = index.get(str(i))
        if imp and imp["inner"]["impl"]["trait"] is None and imp["inner"]["impl"].get("blanket_impl") is None:
            yield imp

def name_of(item_id, item):
    p = doc["paths"].get(item_id)
    return "::".join(p["path"]) if p else item.get("name") or "?"

counts = Counter()
listed = []
# Items and the fields of structs.
for item_id, item in index.items():
    if not local(item) or item["visibility"] != "public":
        continue
    k = kind(item)
    if k in ITEM_KINDS and item_id not in impl_items:
        counts["items", k] += 1
        listed.append((k, name_of(item_id, item)))
    elif k == "use":
        counts["re-exports", "use"] += 1
# Methods (inherent impls of public types) and struct fields.
for item_id, item in index.items():
    if not local(item) or kind(item) not in ("struct", "enum", "union"):
        continue
    owner = name_of(item_id, item)
    for imp in inherent_impls(item):
        for m in imp["inner"]["impl"]["items"]:
            mi = index.get(str(m))
            if mi and mi["visibility"] == "public" and kind(mi) in ASSOC_KINDS:
                counts["methods", kind(mi)] += 1
                listed.append((kind(mi), f"{owner}::{mi['name']}"))
    if kind(item) == "struct":
        fields = item["inner"]["struct"]["kind"]
        ids = []
        if isinstance(fields, dict) and "plain" in fields:
            ids = fields["plain"]["fields"]
        elif isinstance(fields, dict) and "tuple" in fields:
            ids = [f for f in fields["tuple"] if f is not None]
        for f in ids:
            fi = index.get(str(f))
            if fi and fi["visibility"] == "public":
                counts["fields", "field"] += 1
                listed.append(("field", f"{owner}.{fi['name']}"))

def total(group):
    return sum(v for (g, _), v in counts.items() if g == group)

def detail(group):
    return ", ".join(f"{k} {v}" for (g, k), v in sorted(counts.items()) if g == group)

# RoundState's public methods.
round_state = [i for i, it in index.items()
               if local(it) and kind(it) == "struct" and it["name"] == "RoundState"]
methods = []
for rs in round_state:
    for imp in inherent_impls(index[rs]):
        for m in imp["inner"]["impl"]["items"]:
            mi = index.get(str(m))
            if mi and mi["visibility"] == "public" and kind(mi) == "function":
                methods.append(mi["name"])

print(f"public surface of mexican_train ({what}):")
print(f"  items:   {total('items')} ({detail('items')})")
print(f"  methods: {total('methods')} ({detail('methods')})")
print(f"  fields:  {total('fields')}")
print(f"  total public items: {total('items') + total('methods') + total('fields')}")
print(f"  re-exports (pub use, not in the total): {total('re-exports')}")
print(f"RoundState public methods: {len(methods)}" + ("" if round_state else " (RoundState not public)"))
if listing:
    for k, name in sorted(listed, key=lambda x: (x[1], x[0])):
        print(f"{k}\t{name}")
    for name in sorted(methods):
        print(f"RoundState::method\t{name}")
EOF
