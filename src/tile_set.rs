//! `TileSet`: a set of tiles stored as a suit matrix.
//!
//! `rows[p]` has bit `q` set when `[p|q]` is in the set, so a tile sits in two rows and a double
//! in one. The tiles that can join an open end `p` are exactly `rows[p]`, one word, and the other
//! half of each candidate is its bit index. Count and pip sum are cached because the engine asks
//! for them on every score and every view; tests compare them with recomputation.

use crate::tile::{MAX_PIP, PIP_COUNT, Pip, Tile};
use std::fmt;

/// Set bits of every 10-bit number: half of [`row_len`].
const BITS_OF_10: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The tiles in a suit row (its set bits; a row holds bits 0 to 18): by two lookups in a table
/// of 1,024 bytes. The build targets baseline x86-64, where `count_ones` compiles to a
/// 15-instruction bit-twiddling sequence (no `popcnt`); `weighted`'s scoring and the world
/// deals of the search bots count rows in their inner loops.
#[inline(always)]
pub(crate) const fn row_len(row: u32) -> u32 {
    debug_assert!(row < 1 << 20);
    BITS_OF_10[(row & 1023) as usize] as u32 + BITS_OF_10[(row >> 10 & 1023) as usize] as u32
}

/// A set of tiles (hand, table, or any subset of a double-M set, M <= 18).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet {
    rows: [u32; PIP_COUNT],
    len: u8,
    pips: u16,
}

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet { rows: [0; PIP_COUNT], len: 0, pips: 0 };

    /// Every tile of the double-`max` set.
    pub fn full(max: Pip) -> TileSet {
        // Every value 0..=max pairs with every other: each row up to `max` holds bits 0..=max.
        let m = max.get() as usize;
        let mut s = TileSet::EMPTY;
        for row in &mut s.rows[..=m] {
            *row = (1u32 << (m + 1)) - 1;
        }
        // (m + 1)(m + 2) / 2 tiles; each value shows m + 2 times (once on every tile of its
        // suit, twice on its double).
        s.len = ((m + 1) * (m + 2) / 2) as u8;
        s.pips = (m * (m + 1) / 2 * (m + 2)) as u16;
        s
    }

    /// Whether `t` is in the set.
    #[inline]
    pub const fn contains(&self, t: Tile) -> bool {
        self.rows[t.low().index()] >> t.high().get() & 1 == 1
    }

    /// Adds `t`; returns false if it was already present.
    #[inline]
    pub fn insert(&mut self, t: Tile) -> bool {
        if self.contains(t) {
            return false;
        }
        let (a, b) = (t.low(), t.high());
        self.rows[a.index()] |= 1 << b.get();
        self.rows[b.index()] |= 1 << a.get();
        self.len += 1;
        self.pips += t.pips();
        true
    }

    /// Removes `t`; returns false if it was absent.
    #[inline]
    pub fn remove(&mut self, t: Tile) -> bool {
        if !self.contains(t) {
            return false;
        }
        let (a, b) = (t.low(), t.high());
        self.rows[a.index()] &= !(1 << b.get());
        self.rows[b.index()] &= !(1 << a.get());
        self.len -= 1;
        self.pips -= t.pips();
        true
    }

    /// Adds `t`, which the caller knows to be absent (the hot path's unchecked twin of
    /// [`TileSet::insert`]; checked in debug builds).
    #[inline]
    pub fn insert_new(&mut self, t: Tile) {
        debug_assert!(!self.contains(t), "{t} already present");
        let (a, b) = (t.low(), t.high());
        self.rows[a.index()] |= 1 << b.get();
        self.rows[b.index()] |= 1 << a.get();
        self.len += 1;
        self.pips += t.pips();
    }

    /// Removes `t`, which the caller knows to be present (the unchecked twin of
    /// [`TileSet::remove`]; checked in debug builds).
    #[inline]
    pub fn remove_present(&mut self, t: Tile) {
        debug_assert!(self.contains(t), "{t} absent");
        let (a, b) = (t.low(), t.high());
        self.rows[a.index()] &= !(1 << b.get());
        self.rows[b.index()] &= !(1 << a.get());
        self.len -= 1;
        self.pips -= t.pips();
    }

    /// The suit rows (bit `b` of row `a`: the tile `[a|b]`), for a key that names the set.
    #[inline]
    pub(crate) fn rows(&self) -> &[u32; PIP_COUNT] {
        &self.rows
    }

    /// Adds the tile with halves `a` and `b` (either order), which the caller knows to be absent:
    /// [`TileSet::insert_new`] for a caller that holds the halves, not the tile (the plain-rules
    /// kernel, whose moves are a train, the end joined and the other half).
    #[inline(always)]
    pub(crate) fn insert_halves(&mut self, a: Pip, b: Pip) {
        debug_assert!(!self.contains(Tile::new(a, b)), "[{a}|{b}] already present");
        self.rows[a.index()] |= 1 << b.get();
        self.rows[b.index()] |= 1 << a.get();
        self.len += 1;
        self.pips += u16::from(a.get() + b.get());
    }

    /// Removes the tile with halves `a` and `b`, which the caller knows to be present (the twin
    /// of [`TileSet::insert_halves`]).
    #[inline(always)]
    pub(crate) fn remove_halves(&mut self, a: Pip, b: Pip) {
        debug_assert!(self.contains(Tile::new(a, b)), "[{a}|{b}] absent");
        self.rows[a.index()] &= !(1 << b.get());
        self.rows[b.index()] &= !(1 << a.get());
        self.len -= 1;
        self.pips -= u16::from(a.get() + b.get());
    }

    /// This set plus `t`.
    #[must_use]
    pub fn with(mut self, t: Tile) -> TileSet {
        self.insert(t);
        self
    }

    /// This set minus `t`.
    #[must_use]
    pub fn without(mut self, t: Tile) -> TileSet {
        self.remove(t);
        self
    }

    /// Calls `f(t, now)` for every tile `t` in exactly one of this set and `now`, in canonical
    /// order, with whether `now` holds it: what changed from this set to `now`. Both sets are
    /// within the double-`max` set.
    #[inline]
    pub fn for_each_change(&self, now: &TileSet, max: Pip, mut f: impl FnMut(Tile, bool)) {
        // The rows that differ first, all of them compared at once (a fixed count the compiler
        // lays out without a loop; rows above `max` are empty in both), then only those walked:
        // a hand or a table changes in a few rows between two looks.
        let mut changed = 0u32;
        for a in 0..PIP_COUNT {
            changed |= u32::from(self.rows[a] != now.rows[a]) << a;
        }
        debug_assert!(changed >> (max.index() + 1) == 0, "a set beyond double-{max:?}");
        while changed != 0 {
            let a = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            // Bits >= a only: each tile once, from its low half.
            let mut diff = (self.rows[a] ^ now.rows[a]) & (u32::MAX << a);
            while diff != 0 {
                let q = diff.trailing_zeros();
                diff &= diff - 1;
                f(Tile::from_pips(a as u8, q as u8), now.rows[a] >> q & 1 == 1);
            }
        }
    }

    /// Tiles in both sets.
    #[must_use]
    pub fn intersect(&self, other: &TileSet) -> TileSet {
        let mut s = TileSet::EMPTY;
        for p in 0..PIP_COUNT {
            s.rows[p] = self.rows[p] & other.rows[p];
        }
        s.recount();
        s
    }

    /// Tiles in either set.
    #[must_use]
    pub fn union(&self, other: &TileSet) -> TileSet {
        let mut s = TileSet::EMPTY;
        for p in 0..PIP_COUNT {
            s.rows[p] = self.rows[p] | other.rows[p];
        }
        s.recount();
        s
    }

    /// Tiles in this set and not in `other`.
    #[must_use]
    pub fn difference(&self, other: &TileSet) -> TileSet {
        let mut s = TileSet::EMPTY;
        for p in 0..PIP_COUNT {
            s.rows[p] = self.rows[p] & !other.rows[p];
        }
        s.recount();
        s
    }

    fn recount(&mut self) {
        let (len, pips) = self.recompute();
        self.len = len as u8;
        self.pips = pips;
    }

    /// Count and pip sum recomputed from the bits (what the caches must equal).
    pub fn recompute(&self) -> (usize, u16) {
        // By one population count per row instead of visiting every tile. The rows are
        // symmetric: `[a|b]` is bit `b` of row `a` and bit `a` of row `b`, a double one bit. So
        // the set bits count every tile twice but the doubles once, and value `a` shows on the
        // tiles of row `a`, twice on its double.
        let (mut bits, mut doubles, mut pips) = (0u32, 0u32, 0u32);
        for (a, &row) in self.rows.iter().enumerate() {
            let count = row.count_ones();
            let double = row >> a & 1;
            bits += count;
            doubles += double;
            pips += a as u32 * (count + double);
        }
        (((bits + doubles) / 2) as usize, pips as u16)
    }

    /// Number of tiles (cached).
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sum of pips over all tiles (cached).
    #[inline]
    pub const fn pips(&self) -> u16 {
        self.pips
    }

    /// The suit row of `v`: bit `q` is set when `[v|q]` is in the set.
    #[inline]
    pub const fn row(&self, v: Pip) -> u32 {
        self.rows[v.index()]
    }

    /// Number of tiles that show `v`.
    #[inline]
    pub const fn suit_len(&self, v: Pip) -> u32 {
        row_len(self.rows[v.index()])
    }

    /// Whether some tile shows `v`.
    #[inline]
    pub const fn has_suit(&self, v: Pip) -> bool {
        self.rows[v.index()] != 0
    }

    /// The tiles that show `v`, in increasing order of the other half.
    #[inline]
    pub fn suit(&self, v: Pip) -> SuitIter {
        SuitIter { v, bits: self.rows[v.index()] }
    }

    /// All tiles in canonical (low, high) order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { set: self, a: 0, bits: self.rows[0] }
    }

    /// Whether every tile is in the double-`max` set.
    pub fn within(&self, max: Pip) -> bool {
        self.rows[max.index() + 1..].iter().all(|&r| r == 0)
            && self.rows[..=max.index()].iter().all(|&r| r >> (max.get() + 1) == 0)
    }
}

/// Iterator over the tiles of one suit.
pub struct SuitIter {
    v: Pip,
    bits: u32,
}

impl Iterator for SuitIter {
    type Item = Tile;
    #[inline]
    fn next(&mut self) -> Option<Tile> {
        if self.bits == 0 {
            return None;
        }
        let q = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Tile::new(self.v, Pip::from_u8(q)))
    }
}

/// Iterator over a set in canonical (low, high) order.
#[derive(Clone)]
pub struct Iter<'a> {
    set: &'a TileSet,
    a: u8,
    bits: u32,
}

impl Iterator for Iter<'_> {
    type Item = Tile;
    fn next(&mut self) -> Option<Tile> {
        loop {
            // Only bits >= a in row a: each tile is visited once, from its low half.
            let masked = self.bits & (u32::MAX << self.a);
            if masked != 0 {
                let q = masked.trailing_zeros() as u8;
                self.bits = masked & (masked - 1);
                return Some(Tile::from_pips(self.a, q));
            }
            if self.a >= MAX_PIP {
                return None;
            }
            self.a += 1;
            self.bits = self.set.rows[self.a as usize];
        }
    }
}

impl<'a> IntoIterator for &'a TileSet {
    type Item = Tile;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut s = TileSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Display for TileSet {
    /// Space-separated tiles in canonical order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for t in self {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn row_len_counts_the_bits_of_every_row() {
        for row in 0..1u32 << 19 {
            assert_eq!(row_len(row), row.count_ones(), "{row:#x}");
        }
    }

    #[test]
    fn insert_remove_and_caches() {
        let mut s = TileSet::EMPTY;
        assert!(s.insert(t("3-12")));
        assert!(!s.insert(t("12-3")));
        assert!(s.insert(t("5-5")));
        assert_eq!(s.len(), 2);
        assert_eq!(s.pips(), 25);
        assert_eq!(s.row(Pip::new(5).unwrap()), 1 << 5);
        assert_eq!(s.suit(Pip::new(12).unwrap()).collect::<Vec<_>>(), vec![t("3-12")]);
        assert!(s.remove(t("3-12")));
        assert!(!s.remove(t("3-12")));
        assert_eq!((s.len(), s.pips()), (1, 10));
        assert_eq!(s.recompute(), (1, 10));
    }

    #[test]
    fn counts_by_population_equal_counts_tile_by_tile() {
        let mut rng = crate::rng::rng_from_seed(5);
        let all: Vec<Tile> = Tile::canonical(Pip::new(18).unwrap()).collect();
        for keep in [0u64, 1, 3, 7, 15, u64::MAX] {
            for _ in 0..200 {
                let s: TileSet =
                    all.iter().copied().filter(|_| rand::RngCore::next_u64(&mut rng) & keep == 0).collect();
                let by_tile = (s.iter().count(), s.iter().map(|t| t.pips()).sum::<u16>());
                assert_eq!(s.recompute(), by_tile);
                assert_eq!(s.difference(&TileSet::EMPTY).pips(), by_tile.1);
            }
        }
        // The double-12 set: 91 tiles, 1,092 pips (each value appears 14 times).
        assert_eq!(TileSet::full(Pip::new(12).unwrap()).recompute(), (91, 1092));
    }

    #[test]
    fn full_sets_have_the_right_sizes_and_suits() {
        for (m, n) in [(6u8, 28usize), (9, 55), (12, 91), (15, 136), (18, 190)] {
            let max = Pip::new(m).unwrap();
            let s = TileSet::full(max);
            assert_eq!(s.len(), n);
            assert_eq!(s.recompute().0, n);
            assert_eq!(s.recompute(), (s.len(), s.pips()));
            assert_eq!(s, Tile::canonical(max).collect::<TileSet>());
            assert!(s.within(max));
            for v in 0..=m {
                assert_eq!(s.suit_len(Pip::new(v).unwrap()), m as u32 + 1);
            }
            let order: Vec<Tile> = s.iter().collect();
            let canon: Vec<Tile> = Tile::canonical(max).collect();
            assert_eq!(order, canon);
        }
        assert!(!TileSet::full(Pip::new(12).unwrap()).within(Pip::new(9).unwrap()));
    }

    #[test]
    fn set_algebra() {
        let a: TileSet = ["1-2", "2-2", "3-4"].iter().map(|s| t(s)).collect();
        let b: TileSet = ["2-2", "3-4", "0-9"].iter().map(|s| t(s)).collect();
        assert_eq!(a.intersect(&b).to_string(), "2-2 3-4");
        assert_eq!(a.union(&b).len(), 4);
        assert_eq!(a.union(&b).pips(), 3 + 4 + 7 + 9);
        assert_eq!(a.with(t("0-0")).without(t("1-2")).to_string(), "0-0 2-2 3-4");
    }

    #[test]
    fn for_each_change_reports_each_changed_tile_once_in_order() {
        // Random pairs of subsets of the double-`max` set (a small LCG), against a walk of every
        // tile: the tiles in exactly one set, ascending, each with whether the second holds it.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            x >> 33
        };
        let mut changes = 0;
        for max in [6u8, 9, 12, 15, 18] {
            let full = TileSet::full(Pip::from_u8(max));
            for _ in 0..200 {
                let (mut a, mut b) = (TileSet::EMPTY, TileSet::EMPTY);
                let keep = next() % 8;
                for tile in full.iter() {
                    if next() % 2 == 0 {
                        a.insert(tile);
                    }
                    // Mostly the same as `a` (as between two looks at a hand), sometimes not.
                    if (next() % 8 < keep) == a.contains(tile) {
                        b.insert(tile);
                    }
                }
                let mut seen = Vec::new();
                a.for_each_change(&b, Pip::from_u8(max), |tile, now| seen.push((tile, now)));
                let want: Vec<(Tile, bool)> = full
                    .iter()
                    .filter(|&tile| a.contains(tile) != b.contains(tile))
                    .map(|tile| (tile, b.contains(tile)))
                    .collect();
                assert_eq!(seen, want, "double-{max}");
                changes += seen.len();
            }
        }
        assert!(changes > 10_000, "{changes} changes");
    }
}
