//! The schedule: a pure function from game index to who sits where and which deal is played.
//!
//! - The **field** is the list of bots as given (`--bots`), each entry naming one of the
//!   distinct bots (the same bot may appear several times). A **lineup** is the bots at the
//!   table for one deal: with as many entries as seats, the list itself; with more entries than
//!   seats, every combination of `players` entries in list order, taken in turn, so each
//!   combination is played equally often; with fewer entries than seats, the list repeated to
//!   fill the table (`A,B` on four seats is `A,B,A,B`).
//! - **Seating order**: rotation (below) changes who leads, not who sits next to whom, and the
//!   order around the table matters (the next seat receives open doubles, plays on the trains
//!   just opened). So by default the order varies over deals: with `n <= 8` seats, every one of
//!   the `(n-1)!` orders of the lineup's positions with position 1 first, in turn; with more
//!   seats (so many orders that a run would never go through them) a uniformly random order per
//!   deal, drawn from the deal's seed. Deal `d` plays lineup `d mod L` in order
//!   `(d / L) mod O`, so after every `L x O` deals each lineup has sat in each order equally
//!   often, and with rotations each bot has had every neighbour on either side equally often.
//!   `fixed_order` keeps the list order in every deal (the old design, for studies of one order).
//! - **Rotations**: with rotation on, deal `d` is replayed `players` times, rotation `r` moving
//!   every bot `r` seats clockwise, so each bot holds each hand from each seat. When every seat
//!   holds the same bot and that bot never draws on its random stream, the rotations would replay
//!   one game `players` times: the schedule then plays each deal once (`replays_skipped`), and
//!   `--games` counts distinct games.
//! - Game index `g = d × rotations + r`. Deal `d` is dealt from seed `mix(master, d)`; the bot
//!   sitting at seat `p` in rotation 0 gets the stream `mix(mix(master, d), BOT + p)` in every
//!   rotation, so a rotation changes who holds which hand and nothing else, and `mtrain play`
//!   with that deal seed and the bots of rotation 0 in seat order replays the game.

use crate::rng::seeds;
use crate::rules::MAX_PLAYERS;

/// Who plays one game and from which seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct GameSpec {
    /// Game index.
    pub game: u64,
    /// Deal index.
    pub deal: u64,
    /// Rotation of the lineup, `0..rotations`.
    pub rotation: u8,
    /// Field index of the bot in each seat (first `players` entries).
    pub seats: [u16; MAX_PLAYERS],
    /// The place around the table of the bot in each seat: its seat in rotation 0, and its
    /// random stream in every rotation.
    pub positions: [u8; MAX_PLAYERS],
    /// Seed of the deals (shared by every rotation of the deal).
    pub(crate) deal_seed: u64,
}

impl GameSpec {
    /// The bot stream seed of seat `s`.
    pub fn bot_seed(&self, s: usize) -> u64 {
        seeds::bot(self.deal_seed, self.positions[s] as u64)
    }
}

/// Why a schedule cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[doc(hidden)] // the runner's parts, for the integration tests
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
    /// A gauntlet with nobody to play.
    #[error("--gauntlet needs at least one other bot in the field to play against")]
    EmptyGauntlet,
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

/// How the seats of a deal are filled: rotations, seating order, replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seating {
    /// Replay each deal in every seat rotation.
    pub rotate: bool,
    /// Vary the order around the table over deals (otherwise the list order, always).
    pub vary_order: bool,
    /// Every bot of the field ignores its random stream (same view, same move): with one bot
    /// in every seat, rotations would replay one game, so they are skipped.
    pub deterministic: bool,
    /// A gauntlet: the list entry (index into the entries) that sits at every table, the
    /// other entries filling the remaining seats (see [`Schedule::with_seating`]).
    pub gauntlet: Option<usize>,
}

impl Default for Seating {
    fn default() -> Seating {
        Seating { rotate: true, vary_order: true, deterministic: false, gauntlet: None }
    }
}

/// The most seats whose every order is enumerated; larger tables draw an order per deal.
pub const MAX_ENUMERATED_SEATS: u8 = 8;

/// A tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Schedule {
    /// Seats.
    pub players: u8,
    /// Distinct bots in the field.
    pub field: usize,
    /// Whether deals are replayed in every rotation (false too when replays are skipped).
    pub rotate: bool,
    /// Rotation was asked for but skipped: one deterministic bot in every seat.
    pub(crate) replays_skipped: bool,
    /// Whether the order around the table varies over deals.
    pub vary_order: bool,
    /// Deals to play.
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    lineups: Vec<[u16; MAX_PLAYERS]>,
    /// The orders, as lineup positions by place around the table (place 0 is position 0); empty
    /// when an order is drawn per deal.
    orders: Vec<[u8; MAX_PLAYERS]>,
}

fn binomial(n: u128, k: u128) -> u128 {
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

impl Schedule {
    /// A schedule of at least `games` games (rounded up to whole deals) for a field whose list
    /// entries are the distinct bots `entries` (indices from 0, each bot at least once), with the
    /// seating order varied over deals and no replays skipped.
    ///
    /// # Errors
    /// See [`ScheduleError`].
    pub fn new(entries: &[u16], players: u8, rotate: bool, games: u64, seed: u64) -> Result<Schedule, ScheduleError> {
        Schedule::with_seating(entries, players, Seating { rotate, ..Seating::default() }, games, seed)
    }

    /// A schedule with the given seating design.
    ///
    /// In a gauntlet (`seating.gauntlet` is entry `k`), entry `k` holds the first position of
    /// every lineup and the other entries fill the remaining `players − 1` positions by the
    /// usual rule: every combination of them in list order when there are more than fit,
    /// otherwise the list of them repeated (`expert` against `planner` at four seats is
    /// `expert,planner,planner,planner`).
    ///
    /// # Errors
    /// See [`ScheduleError`].
    pub(crate) fn with_seating(
        entries: &[u16],
        players: u8,
        seating: Seating,
        games: u64,
        seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        let listed = entries.len();
        if listed == 0 {
            return Err(ScheduleError::EmptyField);
        }
        if games == 0 {
            return Err(ScheduleError::NoGames);
        }
        let field = *entries.iter().max().expect("not empty") as usize + 1;
        let n = players as usize;
        if let Some(k) = seating.gauntlet {
            let rest: Vec<u16> = entries.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &e)| e).collect();
            if rest.is_empty() {
                return Err(ScheduleError::EmptyGauntlet);
            }
            if !seating.rotate && rest.len() > n - 1 {
                return Err(ScheduleError::LineupTooLarge { bots: listed, players });
            }
            let inner = Schedule::with_seating(&rest, players - 1, Seating { gauntlet: None, ..seating }, games, seed)?;
            let mut lineups = inner.lineups;
            for l in &mut lineups {
                l.copy_within(0..n - 1, 1);
                l[0] = entries[k];
            }
            return Ok(Schedule::from_lineups(lineups, field, players, seating, games, seed));
        }
        if !seating.rotate && listed > n {
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
        Ok(Schedule::from_lineups(lineups, field, players, seating, games, seed))
    }

    /// The schedule that plays `lineups` under `seating`.
    fn from_lineups(
        lineups: Vec<[u16; MAX_PLAYERS]>,
        field: usize,
        players: u8,
        seating: Seating,
        games: u64,
        seed: u64,
    ) -> Schedule {
        let n = players as usize;
        // One bot everywhere: every order is the same table, and a deterministic bot replays
        // one game in every rotation.
        let one_bot = field == 1;
        let replays_skipped = seating.rotate && one_bot && seating.deterministic;
        let rotate = seating.rotate && !replays_skipped;
        let vary_order = seating.vary_order && !one_bot && n > 2;
        let orders = if !vary_order {
            let mut id = [0u8; MAX_PLAYERS];
            for (k, slot) in id.iter_mut().enumerate().take(n) {
                *slot = k as u8;
            }
            vec![id]
        } else if players <= MAX_ENUMERATED_SEATS {
            orders(n)
        } else {
            Vec::new()
        };
        let rotations = if rotate { players as u64 } else { 1 };
        Schedule {
            players,
            field,
            rotate,
            replays_skipped,
            vary_order,
            deals: games.div_ceil(rotations),
            seed,
            lineups,
            orders,
        }
    }

    /// A schedule for a field of `bots` distinct bots, each listed once.
    ///
    /// # Errors
    /// See [`ScheduleError`].
    pub fn distinct(bots: usize, players: u8, rotate: bool, games: u64, seed: u64) -> Result<Schedule, ScheduleError> {
        let entries: Vec<u16> = (0..bots as u16).collect();
        Schedule::new(&entries, players, rotate, games, seed)
    }

    /// The lineups, in the order deals cycle through them (the bot of each seat in rotation 0
    /// of the list order).
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
    pub(crate) fn lineup_count(&self) -> usize {
        self.lineups.len()
    }

    /// Number of seating orders gone through in turn (0: one drawn at random per deal).
    pub(crate) fn order_count(&self) -> usize {
        self.orders.len()
    }

    /// Deals after which every lineup has sat in every order equally often (`None`: orders
    /// drawn at random).
    pub(crate) fn balance_period(&self) -> Option<u64> {
        (!self.orders.is_empty()).then(|| (self.lineups.len() * self.orders.len()) as u64)
    }

    /// The seating design in words (for headers and manifests).
    pub(crate) fn seating_text(&self) -> String {
        let n = self.players;
        let rotations = if self.rotate {
            "every seat rotation".to_string()
        } else if self.replays_skipped {
            "one rotation (one deterministic bot in every seat: the others would replay the same game)".to_string()
        } else {
            "one rotation".to_string()
        };
        let order = if !self.vary_order {
            "the list's order around the table".to_string()
        } else if self.orders.is_empty() {
            format!("a random order around the table per deal ({n} seats have too many orders to go through)")
        } else {
            format!(
                "all {} orders around the table in turn (balanced every {} deals)",
                self.orders.len(),
                self.balance_period().unwrap_or(0)
            )
        };
        format!("{rotations}, {order}")
    }

    /// The game with index `g`.
    pub fn game(&self, g: u64) -> GameSpec {
        let r = self.rotations();
        let deal = g / r;
        let rotation = (g % r) as u8;
        let l_count = self.lineups.len() as u64;
        let lineup = &self.lineups[(deal % l_count) as usize];
        let n = self.players as usize;
        let deal_seed = seeds::deal(self.seed, deal);
        let order = if self.orders.is_empty() {
            random_order(n, seeds::seating(deal_seed))
        } else {
            self.orders[((deal / l_count) % self.orders.len() as u64) as usize]
        };
        let mut seats = [0u16; MAX_PLAYERS];
        let mut positions = [0u8; MAX_PLAYERS];
        for (place, &p) in order.iter().enumerate().take(n) {
            let s = (place + rotation as usize) % n;
            seats[s] = lineup[p as usize];
            positions[s] = place as u8;
        }
        GameSpec { game: g, deal, rotation, seats, positions, deal_seed }
    }

    /// The games of deal `d`, in rotation order.
    pub(crate) fn deal_games(&self, d: u64) -> impl Iterator<Item = GameSpec> + '_ {
        let r = self.rotations();
        (d * r..(d + 1) * r).map(|g| self.game(g))
    }
}

/// Every order of positions `0..n` with position 0 first, in lexicographic order.
fn orders(n: usize) -> Vec<[u8; MAX_PLAYERS]> {
    let mut out = Vec::new();
    let mut cur = [0u8; MAX_PLAYERS];
    for (k, slot) in cur.iter_mut().enumerate().take(n) {
        *slot = k as u8;
    }
    loop {
        out.push(cur);
        // Next permutation of places 1..n (lexicographic).
        let tail = &mut cur[1..n];
        let Some(i) = (0..tail.len().saturating_sub(1)).rev().find(|&i| tail[i] < tail[i + 1]) else {
            return out;
        };
        let j = (i + 1..tail.len()).rev().find(|&j| tail[j] > tail[i]).expect("a larger element follows");
        tail.swap(i, j);
        tail[i + 1..].reverse();
    }
}

/// A uniformly random order of positions `0..n` with position 0 first (Fisher-Yates on the rest).
fn random_order(n: usize, seed: u64) -> [u8; MAX_PLAYERS] {
    let mut rng = crate::rng::rng_from_seed(seed);
    let mut o = [0u8; MAX_PLAYERS];
    for (k, slot) in o.iter_mut().enumerate().take(n) {
        *slot = k as u8;
    }
    for i in (2..n).rev() {
        let j = 1 + crate::rng::below(&mut rng, i as u64) as usize;
        o.swap(i, j);
    }
    o
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

    #[test]
    fn orders_go_through_every_neighbour_pair_equally() {
        assert_eq!(orders(4).len(), 6);
        assert_eq!(orders(4)[0][..4], [0, 1, 2, 3]);
        assert_eq!(orders(4)[5][..4], [0, 3, 2, 1]);
        assert_eq!(orders(8).len(), 5040);
        // Four distinct bots: after 6 deals (one period) each bot has had each other bot as its
        // left-hand neighbour equally often.
        let s = Schedule::distinct(4, 4, true, 24, 1).unwrap();
        assert_eq!((s.order_count(), s.balance_period()), (6, Some(6)));
        let mut next = [[0u32; 4]; 4];
        for d in 0..s.deals {
            for g in s.deal_games(d) {
                for seat in 0..4 {
                    next[g.seats[seat] as usize][g.seats[(seat + 1) % 4] as usize] += 1;
                }
            }
        }
        for (a, row) in next.iter().enumerate() {
            for (b, &c) in row.iter().enumerate() {
                assert_eq!(c, if a == b { 0 } else { 8 }, "{a} before {b}");
            }
        }
        // The fixed order keeps the list's neighbours: 0 always sits before 1.
        let fixed = Seating { vary_order: false, ..Seating::default() };
        let s = Schedule::with_seating(&[0, 1, 2, 3], 4, fixed, 24, 1).unwrap();
        assert_eq!(s.order_count(), 1);
        for g in (0..s.games()).map(|g| s.game(g)) {
            let at = |b: u16| g.seats[..4].iter().position(|&x| x == b).unwrap();
            assert_eq!((at(0) + 1) % 4, at(1));
        }
    }

    #[test]
    fn one_deterministic_bot_everywhere_plays_each_deal_once() {
        let det = Seating { deterministic: true, ..Seating::default() };
        let s = Schedule::with_seating(&[0], 4, det, 10, 1).unwrap();
        assert!(s.replays_skipped && !s.rotate);
        assert_eq!((s.deals, s.games(), s.rotations()), (10, 10, 1));
        // Two bots, or a bot that uses its random stream: rotations are kept.
        let s = Schedule::with_seating(&[0, 1], 4, det, 10, 1).unwrap();
        assert!(!s.replays_skipped && s.rotate);
        let s = Schedule::new(&[0], 4, true, 10, 1).unwrap();
        assert_eq!((s.replays_skipped, s.games()), (false, 12));
    }

    #[test]
    fn large_tables_draw_a_permutation_per_deal() {
        let s = Schedule::distinct(10, 10, true, 100, 7).unwrap();
        assert_eq!((s.order_count(), s.balance_period()), (0, None));
        let mut seen = std::collections::HashSet::new();
        for d in 0..s.deals {
            let g = s.deal_games(d).next().unwrap();
            let mut bots = g.seats[..10].to_vec();
            assert_eq!(g.seats[0], 0, "position 1 leads rotation 0");
            seen.insert(bots.clone());
            bots.sort_unstable();
            assert_eq!(bots, (0..10).collect::<Vec<u16>>());
        }
        assert!(seen.len() >= 9, "orders vary: {}", seen.len());
    }
}
