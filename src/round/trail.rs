//! Longest trails: the most tiles of a hand that can be laid one after another from an open end.
//!
//! Used by the maximum-length builds of the fast game (§4.2, ED-30). Exhaustive depth-first
//! search over the suit matrix; a hand holds at most a few dozen tiles and a trail from one end
//! visits each tile once, so the search is small for real hands.

use crate::tile::{Pip, Tile};
use crate::tile_set::TileSet;

/// The number of tiles in a longest trail of `hand` starting at open end `start`.
pub fn longest_trail(hand: &TileSet, start: Pip) -> usize {
    let mut h = *hand;
    dfs(&mut h, start, usize::MAX)
}

/// Longest trail from `v`, stopping early once `cap` tiles are reached.
fn dfs(hand: &mut TileSet, v: Pip, cap: usize) -> usize {
    if cap == 0 {
        return 0;
    }
    let mut best = 0;
    let mut bits = hand.row(v);
    while bits != 0 {
        let q = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let t = Tile::new(v, Pip::from_u8(q));
        hand.remove(t);
        let len = 1 + dfs(hand, Pip::from_u8(q), cap.saturating_sub(1).min(hand.len()));
        hand.insert(t);
        best = best.max(len);
        if best >= cap.min(hand.len()) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> TileSet {
        s.split_whitespace().map(|t| t.parse::<Tile>().unwrap()).collect()
    }

    #[test]
    fn trails_count_doubles_as_loops() {
        let p = Pip::from_u8;
        assert_eq!(longest_trail(&set("12-5 5-5 5-3 3-9 1-1"), p(12)), 4);
        assert_eq!(longest_trail(&set("12-5 5-5 5-3 3-9 1-1"), p(7)), 0);
        // A branch: from 12, 12-4 (1 tile) or 12-5 5-6 6-6 6-2 (4 tiles).
        assert_eq!(longest_trail(&set("12-4 12-5 5-6 6-6 6-2"), p(12)), 4);
        // A cycle returns to its start: 1-2 2-3 3-1 1-4.
        assert_eq!(longest_trail(&set("1-2 2-3 1-3 1-4"), p(1)), 4);
        assert_eq!(longest_trail(&TileSet::EMPTY, p(0)), 0);
    }
}
