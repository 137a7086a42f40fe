//! The seeded deal: how a round's tiles are shuffled and dealt, exactly.
//!
//! 1. Start from the set in canonical `(low, high)` order, with the engine removed first when it
//!    is set aside. 2. Shuffle with our Fisher–Yates ([`crate::rng::shuffle`]). 3. Seat `s`
//!    receives positions `[s*h, (s+1)*h)`. 4. The rest, in order, is the boneyard; a draw takes
//!    its first tile.

use crate::rng::{GameRng, shuffle_first};
use crate::rules::{EngineMode, MAX_PLAYERS, Rules};
use crate::tile::{MAX_TILES, Pip, Tile};
use crate::tile_set::TileSet;

/// The face-down pile, in draw order. Fixed capacity: no heap. Only the slots from `head` to
/// `end` hold the pile; two boneyards are equal when their piles are, and that is what they
/// show.
#[derive(Clone, Copy)]
pub struct Boneyard {
    tiles: [Tile; MAX_TILES],
    head: u8,
    end: u8,
}

impl PartialEq for Boneyard {
    fn eq(&self, other: &Boneyard) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Boneyard {}

impl std::fmt::Debug for Boneyard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Boneyard").field(&self.as_slice()).finish()
    }
}

impl Boneyard {
    /// An empty boneyard.
    pub const EMPTY: Boneyard = Boneyard { tiles: [Tile::from_pips(0, 0); MAX_TILES], head: 0, end: 0 };

    /// A boneyard holding `tiles` in draw order.
    ///
    /// # Panics
    /// Panics if more than [`MAX_TILES`] tiles are given.
    pub fn from_tiles(tiles: &[Tile]) -> Boneyard {
        let mut b = Boneyard::EMPTY;
        b.refill(tiles);
        b
    }

    /// Makes `tiles` the whole boneyard, in draw order. Only the slots it fills are written: the
    /// rest are never read.
    #[inline]
    pub(crate) fn refill(&mut self, tiles: &[Tile]) {
        self.tiles[..tiles.len()].copy_from_slice(tiles);
        self.head = 0;
        self.end = tiles.len() as u8;
    }

    /// Takes the next tile, if any.
    #[inline]
    pub fn draw(&mut self) -> Option<Tile> {
        if self.head == self.end {
            return None;
        }
        let t = self.tiles[self.head as usize];
        self.head += 1;
        Some(t)
    }

    /// Tiles left.
    #[inline]
    pub fn len(&self) -> usize {
        (self.end - self.head) as usize
    }

    /// Whether no tile is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.head == self.end
    }

    /// The tiles left, in draw order.
    pub fn as_slice(&self) -> &[Tile] {
        &self.tiles[self.head as usize..self.end as usize]
    }
}

/// One round's starting position: engine, hands, and the ordered boneyard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The round's engine: set aside and placed in the centre when `set_aside`, otherwise the
    /// nominal `[e|e]` that the engine search looks for among the dealt tiles.
    pub engine: Tile,
    /// Whether the engine was removed before the shuffle.
    pub set_aside: bool,
    /// Number of seats.
    pub players: u8,
    /// Each seat's hand (seats past `players` are empty).
    pub hands: [TileSet; MAX_PLAYERS],
    /// The boneyard in draw order.
    pub boneyard: Boneyard,
}

impl Deal {
    /// A deal from explicit hands and boneyard order (scenario tests, replays).
    ///
    /// # Panics
    /// Panics if more than [`MAX_PLAYERS`] hands are given.
    pub fn from_parts(engine: Tile, hands: &[TileSet], boneyard: &[Tile]) -> Deal {
        let mut h = [TileSet::EMPTY; MAX_PLAYERS];
        h[..hands.len()].copy_from_slice(hands);
        Deal { engine, set_aside: true, players: hands.len() as u8, hands: h, boneyard: Boneyard::from_tiles(boneyard) }
    }

    /// A deal of the whole set, engine included, for rounds whose engine comes from a hand:
    /// `e` is the round's engine number.
    ///
    /// # Panics
    /// Panics if more than [`MAX_PLAYERS`] hands are given.
    pub fn with_engine_in_play(e: Pip, hands: &[TileSet], boneyard: &[Tile]) -> Deal {
        Deal { set_aside: false, ..Deal::from_parts(Tile::new(e, e), hands, boneyard) }
    }

    /// Whether no hand holds a tile showing `e` (Great Harbour Cay: then everything is reshuffled).
    pub fn no_hand_shows(&self, e: Pip) -> bool {
        self.hands[..self.players as usize].iter().all(|h| !h.has_suit(e))
    }
}

/// Deals round `e` (engine number) with `rules` from `rng` (docs/rules.md §11), setting `[e|e]` aside when
/// the rules' engine mode is `SetAside`.
///
/// # Panics
/// Panics if the rules are not valid (call [`Rules::validate`] first).
pub fn deal_round(rules: &Rules, e: Pip, rng: &mut GameRng) -> Deal {
    deal(rules, e, rules.engine_mode == EngineMode::SetAside, rng)
}

/// Deals round `e`: the set in canonical order (minus `[e|e]` when `set_aside`), shuffled,
/// seat blocks, the rest the boneyard (docs/rules.md §11).
///
/// # Panics
/// Panics if the rules are not valid (call [`Rules::validate`] first).
pub fn deal(rules: &Rules, e: Pip, set_aside: bool, rng: &mut GameRng) -> Deal {
    let mut hands = [TileSet::EMPTY; MAX_PLAYERS];
    let mut boneyard = Boneyard::EMPTY;
    let engine = deal_into(rules, e, set_aside, rng, &mut hands, &mut boneyard);
    Deal { engine, set_aside, players: rules.players, hands, boneyard }
}

/// [`deal`] written where the round keeps it: the hands of the `rules.players` seats (each
/// emptied first) and the boneyard. Returns the engine tile. A round state dealt again in place
/// ([`crate::round::RoundState::redeal`]) is spared building a `Deal` and copying it in.
///
/// # Panics
/// Panics if the rules are not valid (call [`Rules::validate`] first).
#[inline]
pub(crate) fn deal_into(
    rules: &Rules,
    e: Pip,
    set_aside: bool,
    rng: &mut GameRng,
    hands: &mut [TileSet; MAX_PLAYERS],
    boneyard: &mut Boneyard,
) -> Tile {
    let engine = Tile::new(e, e);
    // 256 entries, not MAX_TILES: `shuffle_first` indexes them without bounds checks.
    let mut tiles = [Tile::from_pips(0, 0); 256];
    let canonical = Tile::canonical_slice(rules.set);
    let mut n = canonical.len();
    tiles[..n].copy_from_slice(canonical);
    if set_aside {
        // [e|e] sits after the rows of the lower values: row a holds max + 1 - a tiles.
        let (e, m) = (e.index(), rules.set.index());
        let i = e * (m + 1) - e * e.saturating_sub(1) / 2;
        debug_assert_eq!(canonical[i], engine);
        tiles.copy_within(i + 1..n, i);
        n -= 1;
    }
    shuffle_first(rng, &mut tiles, n);
    let h = rules.hand().expect("validated rules have a hand size") as usize;
    let players = rules.players as usize;
    for (s, hand) in hands.iter_mut().enumerate().take(players) {
        *hand = TileSet::EMPTY;
        for &t in &tiles[s * h..(s + 1) * h] {
            hand.insert_new(t);
        }
    }
    boneyard.refill(&tiles[players * h..n]);
    engine
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    #[test]
    fn deal_partitions_the_set() {
        let rules = Rules::wikipedia();
        let d = deal_round(&rules, Pip::from_u8(12), &mut rng_from_seed(3));
        let mut all = TileSet::EMPTY.with(d.engine);
        let mut count = 1;
        for h in &d.hands[..4] {
            assert_eq!(h.len(), 15);
            count += h.len();
            all = all.union(h);
        }
        for &t in d.boneyard.as_slice() {
            assert!(all.insert(t));
            count += 1;
        }
        assert_eq!(count, 91);
        assert_eq!(all, TileSet::full(Pip::from_u8(12)));
        assert_eq!(d.boneyard.len(), 30);
    }

    #[test]
    fn deal_vector_seed7() {
        // Pins an edge case of docs/rules.md §11 end to end: canonical order, our shuffle, seat blocks, boneyard order.
        let rules = Rules::wikipedia();
        let d = deal_round(&rules, Pip::from_u8(12), &mut rng_from_seed(7));
        assert_eq!(d.hands[0].to_string(), DEAL7_SEAT0);
        let first: Vec<String> = d.boneyard.as_slice()[..5].iter().map(Tile::to_string).collect();
        assert_eq!(first.join(" "), DEAL7_BONEYARD5);
    }

    const DEAL7_SEAT0: &str = "0-2 0-8 1-4 1-6 2-6 2-7 3-3 5-6 5-9 5-10 6-6 6-7 7-10 9-11 10-12";
    const DEAL7_BONEYARD5: &str = "1-8 1-3 6-12 5-5 8-9";
}
