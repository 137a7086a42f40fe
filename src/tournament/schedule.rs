//! The schedule: a pure function from game index to who sits where and which deal is played.
//!
//! - The **field** is the list of bots as given (`--bots`), each entry naming one of the
//!   distinct bots (the same bot may appear several times). A **lineup** is the bots in seat
//!   order for one deal: with as many entries as seats, the list itself; with more entries than
//!   seats, every combination of `players` entries in list order, taken in turn (deal `d` uses
//!   lineup `d mod L`), so each combination is played equally often; with fewer entries than
//!   seats, the list repeated to fill the table (`A,B` on four seats is `A,B,A,B`).
//! - **Rotations**: with rotation on, deal `d` is replayed `players` times, rotation `r` moving
//!   every bot `r` seats clockwise, so each bot holds each hand from each seat.
//! - Game index `g = d × rotations + r`. Deal `d` is dealt from seed `mix(master, d)`; the bot in
//!   lineup position `p` gets the stream `mix(mix(master, d), BOT + p)` in every rotation, so a
//!   rotation changes who holds which hand and nothing else.
//!
//! Within a combination the cyclic order of the bots is the field's order: who sits after whom
//! (and so receives open doubles) follows the field order. Reorder the field to study that.

use crate::rng::{mix, stream};
use crate::rules::MAX_PLAYERS;

/// Who plays one game and from which seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Game index.
    pub game: u64,
    /// Deal index.
    pub deal: u64,
    /// Rotation of the lineup, `0..rotations`.
    pub rotation: u8,
    /// Field index of the bot in each seat (first `players` entries).
    pub seats: [u16; MAX_PLAYERS],
    /// Lineup position of the bot in each seat (its random stream).
    pub positions: [u8; MAX_PLAYERS],
    /// Seed of the deals (shared by every rotation of the deal).
    pub deal_seed: u64,
}

impl GameSpec {
    /// The bot stream seed of seat `s`.
    pub fn bot_seed(&self, s: usize) -> u64 {
        mix(self.deal_seed, stream::BOT + self.positions[s] as u64)
    }
}

/// Why a schedule cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// No bot given.
    #[error("the field is empty: give at least one bot")]
    EmptyField,
    /// More bots than seats without rotation.
    #[error(
        "--no-rotate plays one fixed lineup, but {bots} bots do not fit {players} seats (give at most {players} bots, or allow rotation)"
    )]
    LineupTooLarge {
        /// Bots in the field.
        bots: usize,
        /// Seats.
        players: u8,
    },
    /// Zero games.
    #[error("--games 0 plays nothing (valid: 1 or more)")]
    NoGames,
    /// Too many lineups to schedule.
    #[error(
        "{bots} bots on {players} seats make {lineups} lineups, more than the 100000 mtrain schedules; use a smaller field"
    )]
    TooManyLineups {
        /// Bots.
        bots: usize,
        /// Seats.
        players: u8,
        /// Lineups that would be needed.
        lineups: u128,
    },
}

/// A tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Seats.
    pub players: u8,
    /// Distinct bots in the field.
    pub field: usize,
    /// Whether deals are replayed in every rotation.
    pub rotate: bool,
    /// Deals to play.
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    lineups: Vec<[u16; MAX_PLAYERS]>,
}

fn binomial(n: u128, k: u128) -> u128 {
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

impl Schedule {
    /// A schedule of at least `games` games (rounded up to whole deals) for a field whose list
    /// entries are the distinct bots `entries` (indices from 0, each bot at least once).
    ///
    /// # Errors
    /// See [`ScheduleError`].
    pub fn new(entries: &[u16], players: u8, rotate: bool, games: u64, seed: u64) -> Result<Schedule, ScheduleError> {
        let listed = entries.len();
        if listed == 0 {
            return Err(ScheduleError::EmptyField);
        }
        if games == 0 {
            return Err(ScheduleError::NoGames);
        }
        let field = *entries.iter().max().expect("not empty") as usize + 1;
        let n = players as usize;
        if !rotate && listed > n {
            return Err(ScheduleError::LineupTooLarge { bots: listed, players });
        }
        let lineups = if listed <= n {
            let mut l = [0u16; MAX_PLAYERS];
            for (s, slot) in l.iter_mut().enumerate().take(n) {
                *slot = entries[s % listed];
            }
            vec![l]
        } else {
            let count = binomial(listed as u128, n as u128);
            if count > 100_000 {
                return Err(ScheduleError::TooManyLineups { bots: listed, players, lineups: count });
            }
            let mut all = combinations(listed, n);
            for l in &mut all {
                for slot in l.iter_mut().take(n) {
                    *slot = entries[*slot as usize];
                }
            }
            all
        };
        let rotations = if rotate { players as u64 } else { 1 };
        Ok(Schedule { players, field, rotate, deals: games.div_ceil(rotations), seed, lineups })
    }

    /// A schedule for a field of `bots` distinct bots, each listed once.
    ///
    /// # Errors
    /// See [`ScheduleError`].
    pub fn distinct(bots: usize, players: u8, rotate: bool, games: u64, seed: u64) -> Result<Schedule, ScheduleError> {
        let entries: Vec<u16> = (0..bots as u16).collect();
        Schedule::new(&entries, players, rotate, games, seed)
    }

    /// The lineups, in the order deals cycle through them (the bot of each seat in rotation 0).
    pub fn lineups(&self) -> impl Iterator<Item = &[u16]> {
        self.lineups.iter().map(|l| &l[..self.players as usize])
    }

    /// Games per deal.
    pub fn rotations(&self) -> u64 {
        if self.rotate { self.players as u64 } else { 1 }
    }

    /// Total games.
    pub fn games(&self) -> u64 {
        self.deals * self.rotations()
    }

    /// Number of distinct lineups.
    pub fn lineup_count(&self) -> usize {
        self.lineups.len()
    }

    /// The game with index `g`.
    pub fn game(&self, g: u64) -> GameSpec {
        let r = self.rotations();
        let deal = g / r;
        let rotation = (g % r) as u8;
        let lineup = &self.lineups[(deal % self.lineups.len() as u64) as usize];
        let n = self.players as usize;
        let mut seats = [0u16; MAX_PLAYERS];
        let mut positions = [0u8; MAX_PLAYERS];
        for (p, &bot) in lineup.iter().enumerate().take(n) {
            let s = (p + rotation as usize) % n;
            seats[s] = bot;
            positions[s] = p as u8;
        }
        GameSpec { game: g, deal, rotation, seats, positions, deal_seed: mix(self.seed, deal) }
    }

    /// The games of deal `d`, in rotation order.
    pub fn deal_games(&self, d: u64) -> impl Iterator<Item = GameSpec> + '_ {
        let r = self.rotations();
        (d * r..(d + 1) * r).map(|g| self.game(g))
    }
}

/// Every `k`-subset of `0..n`, each in increasing order, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<[u16; MAX_PLAYERS]> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        let mut l = [0u16; MAX_PLAYERS];
        for (i, &v) in idx.iter().enumerate() {
            l[i] = v as u16;
        }
        out.push(l);
        // Advance the rightmost index that can still move.
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_put_every_bot_in_every_seat() {
        let s = Schedule::distinct(4, 4, true, 8, 1).unwrap();
        assert_eq!((s.deals, s.games()), (2, 8));
        let seats: Vec<[u16; 4]> = s.deal_games(0).map(|g| g.seats[..4].try_into().unwrap()).collect();
        assert_eq!(seats, [[0, 1, 2, 3], [3, 0, 1, 2], [2, 3, 0, 1], [1, 2, 3, 0]]);
        // Same deal seed in every rotation; the bot keeps its stream.
        let g0 = s.game(0);
        let g1 = s.game(1);
        assert_eq!(g0.deal_seed, g1.deal_seed);
        assert_eq!(g0.bot_seed(0), g1.bot_seed(1));
        assert_ne!(s.game(4).deal_seed, g0.deal_seed);
    }

    #[test]
    fn larger_fields_cycle_through_every_combination() {
        let s = Schedule::distinct(5, 4, true, 40, 1).unwrap();
        assert_eq!(s.lineup_count(), 5);
        let mut per_bot = [0u32; 5];
        for d in 0..s.deals {
            for g in s.deal_games(d) {
                for &b in &g.seats[..4] {
                    per_bot[b as usize] += 1;
                }
            }
        }
        assert_eq!(per_bot, [32; 5]);
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(4, 2)[5][..2], [2, 3]);
    }

    #[test]
    fn small_fields_fill_the_table_and_games_round_up() {
        let s = Schedule::distinct(2, 4, true, 10, 1).unwrap();
        assert_eq!(s.game(0).seats[..4], [0, 1, 0, 1]);
        assert_eq!(s.games(), 12);
        let s = Schedule::distinct(2, 3, false, 10, 1).unwrap();
        assert_eq!((s.games(), s.game(0).seats[..3].to_vec()), (10, vec![0, 1, 0]));
        assert_eq!(
            Schedule::distinct(5, 4, false, 10, 1).unwrap_err(),
            ScheduleError::LineupTooLarge { bots: 5, players: 4 }
        );
        assert_eq!(Schedule::distinct(2, 4, true, 0, 1).unwrap_err(), ScheduleError::NoGames);
    }

    #[test]
    fn lists_with_repeats_are_lineups_and_combinations_of_entries() {
        // Two greedy against two planners: the list is the lineup.
        let s = Schedule::new(&[0, 0, 1, 1], 4, true, 8, 1).unwrap();
        assert_eq!((s.field, s.lineup_count()), (2, 1));
        assert_eq!(s.game(1).seats[..4], [1, 0, 0, 1]);
        // Self-play fills every seat with the one bot.
        let s = Schedule::new(&[0], 4, true, 4, 1).unwrap();
        assert_eq!(s.game(0).seats[..4], [0; 4]);
        // A longer list: combinations of entries, a bot listed twice can sit twice.
        let s = Schedule::new(&[0, 0, 1], 2, true, 6, 1).unwrap();
        let l: Vec<Vec<u16>> = s.lineups().map(<[u16]>::to_vec).collect();
        assert_eq!(l, [vec![0, 0], vec![0, 1], vec![0, 1]]);
    }
}
