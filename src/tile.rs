//! Pips and tiles: the atoms of the game.
//!
//! A [`Tile`] is the unordered pair `[a|b]` with `a <= b`, stored as its triangular index
//! `b(b+1)/2 + a`. That numbering is nested: the double-M set is exactly the indices
//! `0..(M+1)(M+2)/2`, so one type and one table serve double-6 through double-18.

use std::fmt;
use std::str::FromStr;

/// The highest pip value any supported set uses (double-18).
pub const MAX_PIP: u8 = 18;
/// Number of distinct pip values, `0..=MAX_PIP`.
pub const PIP_COUNT: usize = MAX_PIP as usize + 1;
/// Number of tiles in the largest supported set (double-18).
pub const MAX_TILES: usize = PIP_COUNT * (PIP_COUNT + 1) / 2;

/// One half of a tile: a pip value `0..=18`.
///
/// Held as an enum of the nineteen values (not a bare `u8`), so that the compiler knows the range
/// of every pip it loads: indexing an array of [`PIP_COUNT`] entries by a pip (a tile set's suit
/// rows, above all) then needs no bounds check. Without it, each such index in the engine's hot
/// loops cost a compare and a branch.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pip(Value);

/// The values of a [`Pip`]; see there.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
enum Value {
    #[default]
    V0,
    V1,
    V2,
    V3,
    V4,
    V5,
    V6,
    V7,
    V8,
    V9,
    V10,
    V11,
    V12,
    V13,
    V14,
    V15,
    V16,
    V17,
    V18,
}

/// `VALUES[v]`: the value `v` (padded to 256 entries with the highest, which no caller asks
/// for, so that a lookup by any `u8` needs no bounds check).
const VALUES: [Value; 256] = {
    use Value::*;
    let all = [V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18];
    let mut t = [V18; 256];
    let mut i = 0;
    while i < PIP_COUNT {
        t[i] = all[i];
        i += 1;
    }
    t
};

impl Pip {
    /// The blank.
    pub const ZERO: Pip = Pip(Value::V0);

    /// A checked pip value; `None` above [`MAX_PIP`].
    pub const fn new(v: u8) -> Option<Pip> {
        if v <= MAX_PIP { Some(Pip(VALUES[v as usize])) } else { None }
    }

    /// A pip value the caller knows to be in range.
    ///
    /// # Panics
    /// Panics (in debug builds) if `v > MAX_PIP`.
    #[inline]
    pub const fn from_u8(v: u8) -> Pip {
        debug_assert!(v <= MAX_PIP);
        Pip(VALUES[v as usize])
    }

    /// The numeric value.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0 as u8
    }

    /// The value as an array index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Pip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pip({})", self.get())
    }
}

impl fmt::Display for Pip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

const fn build_halves() -> ([u8; 256], [u8; 256]) {
    let mut lo = [0u8; 256];
    let mut hi = [0u8; 256];
    let mut b = 0;
    while b < PIP_COUNT {
        let mut a = 0;
        while a <= b {
            let i = b * (b + 1) / 2 + a;
            lo[i] = a as u8;
            hi[i] = b as u8;
            a += 1;
        }
        b += 1;
    }
    (lo, hi)
}

/// Low and high halves by triangular index, padded to 256 entries so that a lookup by any `u8`
/// needs no bounds check.
const HALVES: ([u8; 256], [u8; 256]) = build_halves();

/// [`HALVES`] as pips, so that a tile's halves are read with their range known.
const HALF_PIPS: ([Pip; 256], [Pip; 256]) = {
    let mut lo = [Pip::ZERO; 256];
    let mut hi = [Pip::ZERO; 256];
    let mut i = 0;
    while i < 256 {
        lo[i] = Pip::from_u8(HALVES.0[i]);
        hi[i] = Pip::from_u8(HALVES.1[i]);
        i += 1;
    }
    (lo, hi)
};

const fn build_index() -> [[u8; 32]; 32] {
    let mut t = [[0u8; 32]; 32];
    let mut a = 0;
    while a < PIP_COUNT {
        let mut b = 0;
        while b < PIP_COUNT {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            t[a][b] = (hi * (hi + 1) / 2 + lo) as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

const fn build_pips() -> [u8; 256] {
    let (lo, hi) = build_halves();
    let mut p = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        p[i] = lo[i] + hi[i];
        i += 1;
    }
    p
}

/// Pip total by triangular index (one lookup where greedy play and scoring need it).
const PIPS: [u8; 256] = build_pips();

/// `INDEX[a][b]`: the triangular index of `[a|b]`, a lookup instead of a multiply on the hot path
/// (32 x 32; indexed by pips, whose range the compiler knows, it needs no bounds check).
const INDEX: [[u8; 32]; 32] = build_index();

const fn build_canonical() -> [[Tile; MAX_TILES]; PIP_COUNT] {
    let mut t = [[Tile(0); MAX_TILES]; PIP_COUNT];
    let mut max = 0;
    while max < PIP_COUNT {
        let mut n = 0;
        let mut a = 0;
        while a <= max {
            let mut b = a;
            while b <= max {
                t[max][n] = Tile(INDEX[a][b]);
                n += 1;
                b += 1;
            }
            a += 1;
        }
        max += 1;
    }
    t
}

/// `CANONICAL[m]`: the double-`m` set in canonical order (low half major), padded.
static CANONICAL: [[Tile; MAX_TILES]; PIP_COUNT] = build_canonical();

/// A domino `[a|b]`, identified by its triangular index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Tile(u8);

impl Tile {
    /// The tile with halves `a` and `b`, in either order.
    #[inline]
    pub const fn new(a: Pip, b: Pip) -> Tile {
        Tile(INDEX[a.index()][b.index()])
    }

    /// The triangular indices of `[v|q]` for every `q` (entries past [`MAX_PIP`] are
    /// meaningless): `Tile::suit_indices(v)[q]` is `Tile::new(v, q).index()`, for loops that
    /// build many tiles of one suit.
    #[inline]
    pub fn suit_indices(v: Pip) -> &'static [u8; 32] {
        &INDEX[v.index()]
    }

    /// The tile with a triangular index from [`Tile::suit_indices`].
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Tile {
        debug_assert!((i as usize) < MAX_TILES);
        Tile(i)
    }

    /// Convenience constructor from raw values.
    ///
    /// # Panics
    /// Panics if either value exceeds [`MAX_PIP`].
    pub const fn from_pips(a: u8, b: u8) -> Tile {
        assert!(a <= MAX_PIP && b <= MAX_PIP, "pip out of range");
        Tile::new(Pip::from_u8(a), Pip::from_u8(b))
    }

    /// The tile with triangular index `i`; `None` past the double-18 set.
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < MAX_TILES { Some(Tile(i as u8)) } else { None }
    }

    /// The triangular index, usable as an array index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The smaller half.
    #[inline]
    pub const fn low(self) -> Pip {
        HALF_PIPS.0[self.0 as usize]
    }

    /// The larger half.
    #[inline]
    pub const fn high(self) -> Pip {
        HALF_PIPS.1[self.0 as usize]
    }

    /// Whether both halves are equal.
    #[inline]
    pub const fn is_double(self) -> bool {
        self.low().get() == self.high().get()
    }

    /// Whether one half shows `v`.
    #[inline]
    pub const fn contains(self, v: Pip) -> bool {
        self.low().get() == v.get() || self.high().get() == v.get()
    }

    /// The half opposite `v` (the new open end after joining at `v`).
    /// For a double this is `v` itself.
    #[inline]
    pub const fn other(self, v: Pip) -> Pip {
        let lo = self.low();
        if lo.get() == v.get() { self.high() } else { lo }
    }

    /// Sum of both halves.
    #[inline]
    pub const fn pips(self) -> u16 {
        PIPS[self.0 as usize] as u16
    }

    /// Number of tiles in the double-`max` set.
    pub const fn set_size(max: Pip) -> usize {
        let m = max.index();
        (m + 1) * (m + 2) / 2
    }

    /// Whether the tile belongs to the double-`max` set.
    #[inline]
    pub const fn in_set(self, max: Pip) -> bool {
        self.high().get() <= max.get()
    }

    /// The tiles of the double-`max` set in canonical order: sorted by (low, high).
    pub fn canonical(max: Pip) -> impl Iterator<Item = Tile> {
        Tile::canonical_slice(max).iter().copied()
    }

    /// The tiles of the double-`max` set in canonical order, as a slice of a table built at
    /// compile time (the deal starts from it every round).
    #[inline]
    pub fn canonical_slice(max: Pip) -> &'static [Tile] {
        &CANONICAL[max.index()][..Tile::set_size(max)]
    }

    /// [`Tile::canonical`] computed directly (the table's definition, kept for the test).
    #[cfg(test)]
    fn canonical_computed(max: Pip) -> impl Iterator<Item = Tile> {
        (0..=max.get()).flat_map(move |a| (a..=max.get()).map(move |b| Tile::from_pips(a, b)))
    }
}

impl fmt::Display for Tile {
    /// Low half first: `3-12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.low(), self.high())
    }
}

/// Why a tile name did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid tile '{0}': expected two pip values 0..=18 joined by '-', like 3-12")]
pub struct ParseTileError(pub String);

impl FromStr for Tile {
    type Err = ParseTileError;

    /// Parses `a-b` (either order, `|` also accepted).
    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let err = || ParseTileError(s.to_string());
        let (a, b) = s.trim().split_once(['-', '|']).ok_or_else(err)?;
        let a: u8 = a.trim().parse().map_err(|_| err())?;
        let b: u8 = b.trim().parse().map_err(|_| err())?;
        let (a, b) = (Pip::new(a).ok_or_else(err)?, Pip::new(b).ok_or_else(err)?);
        Ok(Tile::new(a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_table_is_the_canonical_order() {
        for m in 0..=MAX_PIP {
            let max = Pip::from_u8(m);
            assert!(Tile::canonical(max).eq(Tile::canonical_computed(max)), "double-{m}");
            assert_eq!(Tile::canonical(max).count(), Tile::set_size(max));
        }
    }

    #[test]
    fn triangular_index_is_nested_and_round_trips() {
        for m in [6u8, 9, 12, 15, 18] {
            let max = Pip::new(m).unwrap();
            let n = Tile::set_size(max);
            let mut seen = vec![false; n];
            for t in Tile::canonical(max) {
                assert!(t.index() < n);
                assert!(!seen[t.index()]);
                seen[t.index()] = true;
                assert_eq!(Tile::new(t.high(), t.low()), t);
                let back: Tile = t.to_string().parse().unwrap();
                assert_eq!(back, t);
            }
            assert!(seen.iter().all(|&s| s));
        }
        assert_eq!(Tile::set_size(Pip::new(12).unwrap()), 91);
        assert_eq!(Tile::set_size(Pip::new(18).unwrap()), 190);
    }

    #[test]
    fn display_and_parse() {
        let t: Tile = "12-3".parse().unwrap();
        assert_eq!(t.to_string(), "3-12");
        assert_eq!(t.other(Pip::new(12).unwrap()), Pip::new(3).unwrap());
        assert_eq!(t.pips(), 15);
        assert!("5|5".parse::<Tile>().unwrap().is_double());
        assert!("3-19".parse::<Tile>().is_err());
        assert!("x-1".parse::<Tile>().is_err());
        assert!("7".parse::<Tile>().is_err());
    }
}
