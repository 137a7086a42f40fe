//! The tournament's statistics as one flat vector of [`Cluster`]s with a fixed layout.
//!
//! Per bot: win share, match score, round score, rounds gone out, and one cluster per finishing
//! rank. Per seat: win share and match score. Per pair of bots: head-to-head score (ahead = 2,
//! tie = 1, over 2 per comparison) and the ahead counts of each side. Per round: turns, draws,
//! blocked, boneyard left, and which seat went out. A game adds to a [`DealAcc`]; a finished deal
//! folds into a [`Tally`], which adds exactly to any other tally of disjoint deals.

use super::schedule::GameSpec;
use crate::game::MatchResult;
use crate::round::EndReason;
use crate::stats::Cluster;
use crate::tile_set::row_len;
use serde::{Deserialize, Serialize};

/// Win shares are counted in units of `1/WIN_UNIT` of a win, so that `w` co-winners (w <= 16)
/// each get an exact integer share: 720720 is the least common multiple of 1..=16.
pub(crate) const WIN_UNIT: u64 = 720_720;

const BOT_WIN: usize = 0;
const BOT_SCORE: usize = 1;
const BOT_ROUND_SCORE: usize = 2;
const BOT_OUTS: usize = 3;
const BOT_RANK: usize = 4;
const SEAT_WIN: usize = 0;
const SEAT_SCORE: usize = 1;
const SEAT_FIELDS: usize = 2;
const PAIR_SCORE: usize = 0;
const PAIR_A_AHEAD: usize = 1;
const PAIR_B_AHEAD: usize = 2;
const PAIR_FIELDS: usize = 3;
const ROUND_TURNS: usize = 0;
const ROUND_DRAWS: usize = 1;
const ROUND_BLOCKED: usize = 2;
const ROUND_BONEYARD: usize = 3;
const ROUND_DRY: usize = 4;
const ROUND_NO_START: usize = 5;
const GAME_MARGIN: usize = 6;
const GAME_SPREAD: usize = 7;
const GAME_LEAD_CHANGES: usize = 8;
const ROUND_TURNS_DIFF2: usize = 9;
const ROUND_OUT_SEAT: usize = 10;

/// Index arithmetic for a field of `bots` bots on `players` seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Layout {
    /// Bots in the field.
    pub bots: usize,
    /// Seats.
    pub players: usize,
}

impl Layout {
    fn bot_fields(&self) -> usize {
        BOT_RANK + self.players
    }
    fn bot(&self, b: usize, f: usize) -> usize {
        b * self.bot_fields() + f
    }
    fn seat(&self, s: usize, f: usize) -> usize {
        self.bots * self.bot_fields() + s * SEAT_FIELDS + f
    }
    /// Number of unordered bot pairs.
    pub(crate) fn pair_count(&self) -> usize {
        self.bots * (self.bots - 1) / 2
    }
    /// Index of the unordered pair `(i, j)`, `i < j`, in lexicographic order.
    pub(crate) fn pair_index(&self, i: usize, j: usize) -> usize {
        debug_assert!(i < j && j < self.bots);
        i * (2 * self.bots - i - 1) / 2 + (j - i - 1)
    }
    fn pair(&self, i: usize, j: usize, f: usize) -> usize {
        self.pair_at(self.pair_index(i, j), f)
    }
    fn pair_at(&self, a: usize, f: usize) -> usize {
        self.seat(self.players, 0) + a * PAIR_FIELDS + f
    }
    fn round(&self, f: usize) -> usize {
        self.seat(self.players, 0) + self.pair_count() * PAIR_FIELDS + f
    }
    /// Per-round win share of the `k`-th seat to act (0 = the round's first player).
    fn position(&self, k: usize) -> usize {
        self.round(ROUND_OUT_SEAT + self.players + k)
    }
    /// Match win share of the seat `k` places after round 1's first player.
    fn match_position(&self, k: usize) -> usize {
        self.round(ROUND_OUT_SEAT + 2 * self.players + k)
    }
    /// Total number of clusters.
    pub fn len(&self) -> usize {
        self.match_position(self.players)
    }
    /// Whether the layout is empty (never, for a valid field).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Exact, mergeable statistics of a set of deals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Tally {
    /// The layout of `clusters`.
    pub layout: Layout,
    /// Deals played.
    pub deals: u64,
    /// Games played.
    pub games: u64,
    /// Rounds played.
    pub rounds: u64,
    /// The clusters, laid out by [`Layout`].
    pub clusters: Vec<Cluster>,
    /// Sums over deals of products of the pairs' per-deal head-to-head totals, for the
    /// ratings' intervals (see [`PairProducts`]).
    pub(crate) products: PairProducts,
}

/// For every two pairs of bots `a`, `b` (pair indices of [`Layout::pair_index`], a pair with
/// itself included), sums over deals of `x_a·x_b`, `x_a·m_b` and `m_a·m_b`, where `x` is a
/// pair's head-to-head points in a deal (2 per comparison won, 1 per level one) and `m` its
/// points available (2 per comparison). A deal seats several pairs at once (every pair at a
/// four-player table), so their results are correlated; these sums give the exact
/// between-deal covariance of the rating equations for any fitted ratings, and they add
/// exactly across chunks, shards and resumes like the clusters do.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PairProducts {
    /// `Σ x_a·x_b` for `a <= b`, row by row of the upper triangle.
    #[serde(with = "u128_vec_text")]
    pub(crate) xx: Vec<u128>,
    /// `Σ x_a·m_b` for every `a`, `b` (`a·pairs + b`).
    #[serde(with = "u128_vec_text")]
    pub(crate) xm: Vec<u128>,
    /// `Σ m_a·m_b` for `a <= b`, as `xx`.
    #[serde(with = "u128_vec_text")]
    pub(crate) mm: Vec<u128>,
}

/// Index of `(a, b)`, `a <= b < n`, in the row-by-row upper triangle of an `n × n` matrix.
#[inline]
pub fn triangle_index(n: usize, a: usize, b: usize) -> usize {
    debug_assert!(a <= b && b < n);
    a * (2 * n - a + 1) / 2 + (b - a)
}

impl PairProducts {
    fn new(pairs: usize) -> PairProducts {
        let tri = pairs * (pairs + 1) / 2;
        PairProducts { xx: vec![0; tri], xm: vec![0; pairs * pairs], mm: vec![0; tri] }
    }

    fn merge(&mut self, o: &PairProducts) {
        for (mine, theirs) in [(&mut self.xx, &o.xx), (&mut self.xm, &o.xm), (&mut self.mm, &o.mm)] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// Whether the vectors fit a field with `pairs` pairs.
    pub fn fits(&self, pairs: usize) -> bool {
        let tri = pairs * (pairs + 1) / 2;
        self.xx.len() == tri && self.mm.len() == tri && self.xm.len() == pairs * pairs
    }
}

/// `u128` sums as decimal strings in files (JSON numbers lose precision past 2^53).
mod u128_vec_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u128], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(u128::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u128>, D::Error> {
        let v = Vec::<String>::deserialize(d)?;
        v.iter().map(|s| s.parse().map_err(serde::de::Error::custom)).collect()
    }
}

/// Per-deal totals `(x, m)` being gathered for each cluster.
#[derive(Clone, Debug)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct DealAcc {
    layout: Layout,
    cells: Vec<(u64, u64)>,
    games: u64,
    rounds: u64,
    /// Scratch: the pairs that met in the deal being folded, with their `(x, m)`.
    met: Vec<(usize, u64, u64)>,
}

impl Tally {
    /// An empty tally.
    pub fn new(layout: Layout) -> Tally {
        Tally {
            layout,
            deals: 0,
            games: 0,
            rounds: 0,
            clusters: vec![Cluster::default(); layout.len()],
            products: PairProducts::new(layout.pair_count()),
        }
    }

    /// Whether the clusters and pair products have the sizes the layout says (a file read
    /// back is checked with this).
    pub(crate) fn fits_layout(&self) -> bool {
        self.clusters.len() == self.layout.len() && self.products.fits(self.layout.pair_count())
    }

    /// Adds a finished deal and clears the accumulator.
    pub fn fold(&mut self, acc: &mut DealAcc) {
        debug_assert_eq!(acc.layout, self.layout);
        let pairs = self.layout.pair_count();
        acc.met.clear();
        for a in 0..pairs {
            let (x, m) = acc.cells[self.layout.pair_at(a, PAIR_SCORE)];
            if m > 0 {
                acc.met.push((a, x, m));
            }
        }
        let p = &mut self.products;
        for &(a, xa, ma) in &acc.met {
            for &(b, xb, mb) in &acc.met {
                if a <= b {
                    let k = triangle_index(pairs, a, b);
                    p.xx[k] += u128::from(xa) * u128::from(xb);
                    p.mm[k] += u128::from(ma) * u128::from(mb);
                }
                p.xm[a * pairs + b] += u128::from(xa) * u128::from(mb);
            }
        }
        // `Cluster::add_deal` without its branch: a cell with no units has no total either
        // (every addition to a cell adds units), so it adds nothing but its zeros.
        for (c, cell) in self.clusters.iter_mut().zip(acc.cells.iter_mut()) {
            let (x, m) = std::mem::take(cell);
            debug_assert!(m != 0 || x == 0, "a total of {x} over no units");
            c.deals += u64::from(m != 0);
            c.units += m;
            c.sum += x;
            c.sum_sq += u128::from(x) * u128::from(x);
        }
        self.deals += 1;
        self.games += acc.games;
        self.rounds += acc.rounds;
        acc.games = 0;
        acc.rounds = 0;
    }

    /// Where `c`, one of this tally's clusters (as an accessor such as [`Tally::round_turns`]
    /// returns it), sits in [`Tally::clusters`]: the index of its per-deal totals in a
    /// [`DealAcc`]. `None` for a cluster of another tally.
    pub(crate) fn index_of(&self, c: &Cluster) -> Option<usize> {
        self.clusters.iter().position(|k| std::ptr::eq(k, c))
    }

    /// Adds a tally of disjoint deals.
    ///
    /// # Panics
    /// Panics if the layouts differ.
    pub fn merge(&mut self, o: &Tally) {
        assert_eq!(self.layout, o.layout, "merging tallies of different fields");
        for (a, b) in self.clusters.iter_mut().zip(&o.clusters) {
            a.merge(b);
        }
        self.products.merge(&o.products);
        self.deals += o.deals;
        self.games += o.games;
        self.rounds += o.rounds;
    }

    /// Bot `b`'s win share (in [`WIN_UNIT`]s per game).
    pub(crate) fn bot_win(&self, b: usize) -> &Cluster {
        &self.clusters[self.layout.bot(b, BOT_WIN)]
    }
    /// Bot `b`'s match score per game.
    pub(crate) fn bot_score(&self, b: usize) -> &Cluster {
        &self.clusters[self.layout.bot(b, BOT_SCORE)]
    }
    /// Bot `b`'s score per round.
    pub(crate) fn bot_round_score(&self, b: usize) -> &Cluster {
        &self.clusters[self.layout.bot(b, BOT_ROUND_SCORE)]
    }
    /// Bot `b`'s share of rounds gone out.
    pub(crate) fn bot_outs(&self, b: usize) -> &Cluster {
        &self.clusters[self.layout.bot(b, BOT_OUTS)]
    }
    /// Bot `b`'s share (in [`WIN_UNIT`]s per game) of games finished at rank `k` (0-based); seats
    /// level after the tie-break share the ranks they span.
    pub(crate) fn bot_rank(&self, b: usize, k: usize) -> &Cluster {
        &self.clusters[self.layout.bot(b, BOT_RANK + k)]
    }
    /// Seat `s`'s win share.
    pub(crate) fn seat_win(&self, s: usize) -> &Cluster {
        &self.clusters[self.layout.seat(s, SEAT_WIN)]
    }
    /// Seat `s`'s match score per game.
    pub(crate) fn seat_score(&self, s: usize) -> &Cluster {
        &self.clusters[self.layout.seat(s, SEAT_SCORE)]
    }
    /// Pair `(i, j)`: `i`'s head-to-head score, 2 per comparison (ahead 2, level 1), ahead
    /// meaning the better finishing place (lower total, then the rules' tie-break).
    pub(crate) fn pair_score(&self, i: usize, j: usize) -> &Cluster {
        &self.clusters[self.layout.pair(i, j, PAIR_SCORE)]
    }
    /// Pair `(i, j)`: comparisons `i` finished ahead.
    pub(crate) fn pair_a_ahead(&self, i: usize, j: usize) -> &Cluster {
        &self.clusters[self.layout.pair(i, j, PAIR_A_AHEAD)]
    }
    /// Pair `(i, j)`: comparisons `j` finished ahead.
    pub(crate) fn pair_b_ahead(&self, i: usize, j: usize) -> &Cluster {
        &self.clusters[self.layout.pair(i, j, PAIR_B_AHEAD)]
    }
    /// Turns per round.
    pub(crate) fn round_turns(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_TURNS)]
    }
    /// Draws per round.
    pub(crate) fn round_draws(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_DRAWS)]
    }
    /// Share of rounds that end with nobody out: blocked, or provably stuck (harbour_cay).
    pub(crate) fn round_blocked(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_BLOCKED)]
    }
    /// Boneyard tiles left per round.
    pub(crate) fn round_boneyard(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_BONEYARD)]
    }
    /// Share of rounds in which seat `s` went out.
    pub(crate) fn round_out_seat(&self, s: usize) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_OUT_SEAT + s)]
    }
    /// Share of rounds that end with the boneyard empty.
    pub(crate) fn round_dry(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_DRY)]
    }
    /// Share of seats, over rounds, that could not start their own train on their first turn.
    pub(crate) fn round_no_start(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_NO_START)]
    }
    /// The winner's margin per game: the second-lowest total minus the lowest (0 on a tie).
    pub(crate) fn game_margin(&self) -> &Cluster {
        &self.clusters[self.layout.round(GAME_MARGIN)]
    }
    /// The score spread per game: highest total minus lowest.
    pub(crate) fn game_spread(&self) -> &Cluster {
        &self.clusters[self.layout.round(GAME_SPREAD)]
    }
    /// Lead changes per game: how often the seat alone in the lead (the lowest running total)
    /// after a round differs from the one alone in the lead after an earlier round.
    pub(crate) fn game_lead_changes(&self) -> &Cluster {
        &self.clusters[self.layout.round(GAME_LEAD_CHANGES)]
    }
    /// Half the squared difference in turns between consecutive rounds of a match: `x` adds
    /// `(t_r - t_(r-1))^2` and `m` adds 2 per pair, so the mean per unit estimates the variance of
    /// round length (its root is the round-to-round spread).
    pub(crate) fn round_turns_diff2(&self) -> &Cluster {
        &self.clusters[self.layout.round(ROUND_TURNS_DIFF2)]
    }
    /// Match win share (in [`WIN_UNIT`]s) of the seat `k` places after the first player of round
    /// 1 in turn order (0 = that player); the first player rotates over the rounds, so this is
    /// the turn-order advantage over a whole match.
    pub(crate) fn match_position_win(&self, k: usize) -> &Cluster {
        &self.clusters[self.layout.match_position(k)]
    }
    /// Per-round win share (in [`WIN_UNIT`]s) of the `k`-th seat to act, 0 being the round's
    /// first player; round winners are the seats with the lowest round score, sharing ties.
    pub(crate) fn position_win(&self, k: usize) -> &Cluster {
        &self.clusters[self.layout.position(k)]
    }
}

impl DealAcc {
    /// An empty accumulator.
    pub fn new(layout: Layout) -> DealAcc {
        DealAcc { layout, cells: vec![(0, 0); layout.len()], games: 0, rounds: 0, met: Vec::new() }
    }

    /// The deal in progress so far: `(x, m)` per cluster, in [`Tally::clusters`] order (what
    /// [`Tally::fold`] is about to add; a paired comparison keeps it to multiply with the same
    /// deal under other rules).
    pub(crate) fn cells(&self) -> &[(u64, u64)] {
        &self.cells
    }

    /// Drops what the deal in progress added (a chunk cut short mid-deal).
    pub fn clear(&mut self) {
        self.cells.fill((0, 0));
        self.games = 0;
        self.rounds = 0;
    }

    /// Adds `x` head-to-head points out of `m` to the pair `(i, j)`, `i < j` (2 points per
    /// comparison, 1 for a level one): for tests of the ratings on synthetic results.
    #[cfg(test)]
    pub(crate) fn add_pair(&mut self, i: usize, j: usize, x: u64, m: u64) {
        let c = &mut self.cells[self.layout.pair(i, j, PAIR_SCORE)];
        c.0 += x;
        c.1 += m;
    }

    /// Adds one game of the deal.
    ///
    /// The cells are reached through the layout's regions (the bots', the seats', the pairs',
    /// the rounds'), each split off once, so that a game's some 60 additions index short
    /// slices rather than each computing and checking its place in the whole vector (a third
    /// fewer instructions; with `greedy` one-round games this is about 4% of a game). The sums
    /// are of integers, so the order they are added in changes nothing.
    ///
    /// Returns the game's decisions (the sum of its rounds' [`crate::round::Outcome::decisions`]),
    /// which the runner reports: summed here in the same pass over the rounds.
    pub(crate) fn add_game(&mut self, spec: &GameSpec, r: &MatchResult) -> u64 {
        #[inline]
        fn add(c: &mut (u64, u64), x: u64, m: u64) {
            c.0 += x;
            c.1 += m;
        }
        let l = self.layout;
        let n = l.players;
        let bf = l.bot_fields();
        let rounds = u64::from(r.rounds);
        // Seat masks are counted by table (`row_len` counts any value under 2^20; the baseline
        // x86-64 build has no `popcnt`).
        let winners = u64::from(row_len(u32::from(r.winners)));
        let totals = &r.totals[..n];
        let places = &r.places[..n];
        let (head, round_cells) = self.cells.split_at_mut(l.round(0));
        let (bot_cells, rest) = head.split_at_mut(l.bots * bf);
        let (seat_cells, pair_cells) = rest.split_at_mut(n * SEAT_FIELDS);
        let (fixed, rest) = round_cells.split_at_mut(ROUND_OUT_SEAT);
        let (out_seat, rest) = rest.split_at_mut(n);
        let (position, match_position) = rest.split_at_mut(n);
        // One pass over the rounds: round figures, the round-to-round change in length, who
        // leads the running totals (a lead change is a new seat alone in the lead), and each
        // seat's rounds gone out. A round adds one unit to each round figure and to each seat's
        // out and position cells, so the pass sums the figures in locals and the units are
        // added once for the game (sums of integers: the order changes nothing).
        let mut outs = [0u64; crate::rules::MAX_PLAYERS];
        let mut positions = [0u64; crate::rules::MAX_PLAYERS];
        let mut running = [0u32; crate::rules::MAX_PLAYERS];
        let (mut leader, mut changes) = (None, 0u64);
        let (mut turns_sum, mut draws, mut blocked, mut boneyard, mut dry, mut no_start) = (0u64, 0u64, 0u64, 0, 0, 0);
        let (mut diff2, mut diffs, mut played, mut decisions) = (0u64, 0u64, 0u64, 0u64);
        let mut previous_turns: Option<u64> = None;
        // The seat that led round 1: match wins by turn-order position from it.
        let mut first = None;
        for rec in r.round_records() {
            let o = &rec.outcome;
            let f = rec.first.index();
            first.get_or_insert(f);
            played += 1;
            decisions += u64::from(o.decisions);
            let turns = u64::from(o.turns);
            if let Some(p) = previous_turns {
                diff2 += turns.abs_diff(p).pow(2);
                diffs += 1;
            }
            previous_turns = Some(turns);
            let scores = &o.scores[..n];
            // The seats lowest on the running totals, and those with the round's best score.
            let (mut low, mut at_low, mut best, mut at_best) = (u32::MAX, 0usize, u32::MAX, 0u32);
            for (s, (t, &sc)) in running[..n].iter_mut().zip(scores).enumerate() {
                *t += sc;
                if *t < low {
                    (low, at_low) = (*t, 1 << s);
                } else if *t == low {
                    at_low |= 1 << s;
                }
                if sc < best {
                    (best, at_best) = (sc, 1 << s);
                } else if sc == best {
                    at_best |= 1 << s;
                }
            }
            if at_low.is_power_of_two() {
                let s = at_low.trailing_zeros() as usize;
                if leader.is_some_and(|p| p != s) {
                    changes += 1;
                }
                leader = Some(s);
            }
            turns_sum += turns;
            draws += u64::from(o.draws);
            // Blocked, or (harbour_cay) ended early as provably stuck: nobody went out.
            match o.reason {
                EndReason::Out(s) => outs[s.index()] += 1,
                _ => blocked += 1,
            }
            boneyard += u64::from(o.boneyard_left);
            dry += u64::from(o.boneyard_left == 0);
            no_start += u64::from(row_len(u32::from(o.no_start)));
            // The round's win, shared by the seats with its best score, by turn-order position.
            let share = WIN_UNIT / u64::from(row_len(at_best));
            let mut winners = at_best;
            while winners != 0 {
                let s = winners.trailing_zeros() as usize;
                winners &= winners - 1;
                positions[if s >= f { s - f } else { s + n - f }] += share;
            }
        }
        add(&mut fixed[ROUND_TURNS_DIFF2], diff2, 2 * diffs);
        add(&mut fixed[ROUND_TURNS], turns_sum, played);
        add(&mut fixed[ROUND_DRAWS], draws, played);
        add(&mut fixed[ROUND_BLOCKED], blocked, played);
        add(&mut fixed[ROUND_BONEYARD], boneyard, played);
        add(&mut fixed[ROUND_DRY], dry, played);
        add(&mut fixed[ROUND_NO_START], no_start, n as u64 * played);
        for ((c, &x), (p, &y)) in out_seat.iter_mut().zip(&outs).zip(position.iter_mut().zip(&positions)) {
            add(c, x, played);
            add(p, y, played);
        }
        add(&mut fixed[GAME_LEAD_CHANGES], changes, 1);
        // The smallest, second smallest and largest totals: the game's margin and spread.
        let (mut lo, mut second, mut hi) = (u32::MAX, u32::MAX, 0);
        for &t in totals {
            if t < lo {
                (second, lo) = (lo, t);
            } else if t < second {
                second = t;
            }
            hi = hi.max(t);
        }
        add(&mut fixed[GAME_MARGIN], u64::from(second - lo), 1);
        add(&mut fixed[GAME_SPREAD], u64::from(hi - lo), 1);
        // Each place's number of seats (seats level after the tie-break share it).
        let mut level = [0usize; crate::rules::MAX_PLAYERS];
        for &p in places {
            level[p as usize] += 1;
        }
        let win_share = WIN_UNIT.checked_div(winners).unwrap_or(0);
        for (s, (&total, &place)) in totals.iter().zip(places).enumerate() {
            let b = spec.seats[s] as usize;
            let win = if r.winners & (1 << s) != 0 { win_share } else { 0 };
            let score = u64::from(total);
            let bot = &mut bot_cells[b * bf..][..bf];
            let (fields, ranks) = bot.split_at_mut(BOT_RANK);
            add(&mut fields[BOT_WIN], win, 1);
            add(&mut fields[BOT_SCORE], score, 1);
            // (A result of no rounds, which no match produces, adds no total over no units.)
            add(&mut fields[BOT_ROUND_SCORE], if rounds > 0 { score } else { 0 }, rounds);
            add(&mut fields[BOT_OUTS], outs[s], rounds);
            // Seats level after the tie-break share the ranks they span equally.
            let (k, w) = (place as usize, level[place as usize]);
            for c in ranks.iter_mut() {
                c.1 += 1;
            }
            let share = WIN_UNIT / w as u64;
            for c in &mut ranks[k..k + w] {
                c.0 += share;
            }
            let seat = &mut seat_cells[s * SEAT_FIELDS..][..SEAT_FIELDS];
            add(&mut seat[SEAT_WIN], win, 1);
            add(&mut seat[SEAT_SCORE], score, 1);
            if let Some(f) = first {
                let k = if s >= f { s - f } else { s + n - f };
                add(&mut match_position[k], win, 1);
            }
            for (&bt, &pt) in spec.seats[s + 1..n].iter().zip(&places[s + 1..]) {
                let bt = bt as usize;
                if bt == b {
                    continue;
                }
                // Ahead = the better finishing place (total, then the tie-break).
                let ps = place;
                let (i, j, ti, tj) = if b < bt { (b, bt, ps, pt) } else { (bt, b, pt, ps) };
                let (a_ahead, b_ahead) = (u64::from(ti < tj), u64::from(tj < ti));
                let pair = &mut pair_cells[l.pair_index(i, j) * PAIR_FIELDS..][..PAIR_FIELDS];
                add(&mut pair[PAIR_SCORE], 2 * a_ahead + u64::from(ti == tj), 2);
                add(&mut pair[PAIR_A_AHEAD], a_ahead, 1);
                add(&mut pair[PAIR_B_AHEAD], b_ahead, 1);
            }
        }
        self.games += 1;
        self.rounds += rounds;
        decisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Seat;

    #[test]
    fn layout_indices_are_a_bijection() {
        let l = Layout { bots: 5, players: 4 };
        let mut seen = vec![false; l.len()];
        let mut mark = |i: usize| {
            assert!(!seen[i], "{i} twice");
            seen[i] = true;
        };
        for b in 0..5 {
            for f in 0..l.bot_fields() {
                mark(l.bot(b, f));
            }
        }
        for s in 0..4 {
            for f in 0..SEAT_FIELDS {
                mark(l.seat(s, f));
            }
        }
        for i in 0..5 {
            for j in i + 1..5 {
                for f in 0..PAIR_FIELDS {
                    mark(l.pair(i, j, f));
                }
            }
        }
        for f in 0..ROUND_OUT_SEAT + 4 {
            mark(l.round(f));
        }
        for k in 0..4 {
            mark(l.position(k));
            mark(l.match_position(k));
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(l.pair_index(3, 4), 9);
    }

    #[test]
    fn round_and_game_figures() {
        use crate::game::RoundRecord;
        use crate::round::Outcome;
        use crate::tile::Pip;
        let l = Layout { bots: 1, players: 3 };
        let mut scores = [0u32; crate::rules::MAX_PLAYERS];
        scores[..3].copy_from_slice(&[10, 4, 4]);
        let outcome = |reason, boneyard_left, no_start| Outcome {
            reason,
            scores,
            turns: 30,
            draws: 6,
            decisions: 20,
            boneyard_left,
            no_start,
        };
        let mut records = [None; crate::tile::PIP_COUNT];
        // Round 1: seat 1 acts first, seats 1 and 2 tie for the round; round 2: seat 2 goes out.
        records[0] = Some(RoundRecord {
            engine: Pip::from_u8(6),
            first: Seat::from_index(1),
            outcome: outcome(EndReason::Blocked, 0, 0b011),
        });
        let mut out_scores = scores;
        out_scores[..3].copy_from_slice(&[7, 3, 0]);
        records[1] = Some(RoundRecord {
            engine: Pip::from_u8(5),
            first: Seat::from_index(2),
            outcome: Outcome { scores: out_scores, ..outcome(EndReason::Out(Seat::from_index(2)), 5, 0) },
        });
        let mut totals = [0u32; crate::rules::MAX_PLAYERS];
        totals[..3].copy_from_slice(&[17, 7, 4]);
        let r = MatchResult {
            players: 3,
            rounds: 2,
            records,
            totals,
            zero_rounds: [0; crate::rules::MAX_PLAYERS],
            min_nonzero: [u32::MAX; crate::rules::MAX_PLAYERS],
            winners: 0b100,
            places: [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        };
        let spec = GameSpec {
            game: 0,
            deal: 0,
            rotation: 0,
            seats: [0; crate::rules::MAX_PLAYERS],
            positions: [0; crate::rules::MAX_PLAYERS],
            deal_seed: 0,
        };
        let mut acc = DealAcc::new(l);
        acc.add_game(&spec, &r);
        let mut t = Tally::new(l);
        t.fold(&mut acc);
        assert_eq!((t.game_margin().sum, t.game_margin().units), (3, 1));
        assert_eq!((t.game_spread().sum, t.game_spread().units), (13, 1));
        // Running totals 10/4/4 (no single leader), then 17/7/4: seat 2 leads, no change yet.
        assert_eq!((t.game_lead_changes().sum, t.game_lead_changes().units), (0, 1));
        // Both rounds took 30 turns: no difference, one pair.
        assert_eq!((t.round_turns_diff2().sum, t.round_turns_diff2().units), (0, 2));
        // Round 1's first player is seat 1; seat 2 won the match: one place after it.
        assert_eq!(t.match_position_win(1).sum, WIN_UNIT);
        assert_eq!(t.match_position_win(0).sum + t.match_position_win(2).sum, 0);
        assert_eq!((t.round_dry().sum, t.round_dry().units), (1, 2));
        assert_eq!((t.round_no_start().sum, t.round_no_start().units), (2, 6));
        // Round 1 (first = seat 1): positions 1 and 2 are seats 1 and 2, half a win each.
        // Round 2 (first = seat 2): position 1 is seat 2, the winner.
        assert_eq!(t.position_win(0).sum, WIN_UNIT / 2 + WIN_UNIT);
        assert_eq!(t.position_win(1).sum, WIN_UNIT / 2);
        assert_eq!(t.position_win(2).sum, 0);
        assert_eq!(t.position_win(0).units, 2);
    }

    #[test]
    fn one_tie_convention_for_wins_ranks_and_pairs() {
        // Seats 0 and 1 level on total and tie-break (places 0, 0), seat 2 last; three bots.
        let mut totals = [0u32; crate::rules::MAX_PLAYERS];
        totals[..3].copy_from_slice(&[30, 30, 40]);
        let mut places = [0u8; crate::rules::MAX_PLAYERS];
        places[..3].copy_from_slice(&[0, 0, 2]);
        let r = MatchResult {
            players: 3,
            rounds: 0,
            records: [None; crate::tile::PIP_COUNT],
            totals,
            zero_rounds: [0; crate::rules::MAX_PLAYERS],
            min_nonzero: [u32::MAX; crate::rules::MAX_PLAYERS],
            winners: 0b011,
            places,
        };
        let mut seats = [0u16; crate::rules::MAX_PLAYERS];
        seats[..3].copy_from_slice(&[0, 1, 2]);
        let spec =
            GameSpec { game: 0, deal: 0, rotation: 0, seats, positions: [0; crate::rules::MAX_PLAYERS], deal_seed: 0 };
        let l = Layout { bots: 3, players: 3 };
        let mut acc = DealAcc::new(l);
        acc.add_game(&spec, &r);
        let mut t = Tally::new(l);
        t.fold(&mut acc);
        // Co-winners split the win, and the ranks 1 and 2 they span; a level pair scores half.
        assert_eq!(t.bot_win(0).sum, WIN_UNIT / 2);
        assert_eq!([0, 1, 2].map(|k| t.bot_rank(1, k).sum), [WIN_UNIT / 2, WIN_UNIT / 2, 0]);
        assert_eq!(t.bot_rank(2, 2).sum, WIN_UNIT);
        assert_eq!((t.pair_score(0, 1).sum, t.pair_score(0, 1).units), (1, 2));
        assert_eq!((t.pair_a_ahead(0, 1).sum, t.pair_b_ahead(0, 1).sum), (0, 0));
        assert_eq!(t.pair_score(1, 2).sum, 2);
    }

    /// `add_game` as it was written before its cells were reached through the layout's
    /// regions: every cell indexed through the layout, the seats' totals sorted.
    fn add_game_reference(acc: &mut DealAcc, spec: &GameSpec, r: &MatchResult) {
        let add = |acc: &mut DealAcc, i: usize, x: u64, m: u64| {
            let c = &mut acc.cells[i];
            c.0 += x;
            c.1 += m;
        };
        let l = acc.layout;
        let n = l.players;
        let rounds = r.rounds as u64;
        let winners = r.winners.count_ones() as u64;
        let totals = &r.totals[..n];
        // The seat that led round 1: match wins by turn-order position from it.
        let first = r.round_records().next().map(|rec| rec.first.index());
        let mut outs = [0u64; crate::rules::MAX_PLAYERS];
        for rec in r.round_records() {
            if let EndReason::Out(s) = rec.outcome.reason {
                outs[s.index()] += 1;
            }
        }
        // Each place's number of seats (seats level after the tie-break share it).
        let mut level = [0usize; crate::rules::MAX_PLAYERS];
        for &p in &r.places[..n] {
            level[p as usize] += 1;
        }
        let win_share = WIN_UNIT.checked_div(winners).unwrap_or(0);
        for (s, &total) in totals.iter().enumerate() {
            let b = spec.seats[s] as usize;
            let seat = Seat::from_index(s);
            let win = if r.is_winner(seat) { win_share } else { 0 };
            let score = total as u64;
            let outs = outs[s];
            add(acc, l.bot(b, BOT_WIN), win, 1);
            add(acc, l.bot(b, BOT_SCORE), score, 1);
            add(acc, l.bot(b, BOT_ROUND_SCORE), score, rounds);
            add(acc, l.bot(b, BOT_OUTS), outs, rounds);
            // Seats level after the tie-break share the ranks they span equally.
            let (k, w) = (r.places[s] as usize, level[r.places[s] as usize]);
            let share = WIN_UNIT / w as u64;
            for j in 0..n {
                add(acc, l.bot(b, BOT_RANK + j), if (k..k + w).contains(&j) { share } else { 0 }, 1);
            }
            add(acc, l.seat(s, SEAT_WIN), win, 1);
            if let Some(first) = first {
                add(acc, l.match_position((s + n - first) % n), win, 1);
            }
            add(acc, l.seat(s, SEAT_SCORE), score, 1);
            for t in s + 1..n {
                let bt = spec.seats[t] as usize;
                if bt == b {
                    continue;
                }
                // Ahead = the better finishing place (total, then the tie-break).
                let (ps, pt) = (r.places[s], r.places[t]);
                let (i, j, ti, tj) = if b < bt { (b, bt, ps, pt) } else { (bt, b, pt, ps) };
                let (a_ahead, b_ahead) = (u64::from(ti < tj), u64::from(tj < ti));
                add(acc, l.pair(i, j, PAIR_SCORE), 2 * a_ahead + u64::from(ti == tj), 2);
                add(acc, l.pair(i, j, PAIR_A_AHEAD), a_ahead, 1);
                add(acc, l.pair(i, j, PAIR_B_AHEAD), b_ahead, 1);
            }
        }
        let mut sorted = [0u32; crate::rules::MAX_PLAYERS];
        sorted[..n].copy_from_slice(totals);
        sorted[..n].sort_unstable();
        add(acc, l.round(GAME_MARGIN), u64::from(sorted[1] - sorted[0]), 1);
        add(acc, l.round(GAME_SPREAD), u64::from(sorted[n - 1] - sorted[0]), 1);
        // One pass over the rounds: round figures, the round-to-round change in length, and
        // who leads the running totals (a lead change is a new seat alone in the lead).
        let mut running = [0u32; crate::rules::MAX_PLAYERS];
        let (mut leader, mut changes) = (None, 0u64);
        let mut previous_turns: Option<u64> = None;
        for rec in r.round_records() {
            let o = &rec.outcome;
            let turns = o.turns as u64;
            if let Some(p) = previous_turns {
                add(acc, l.round(ROUND_TURNS_DIFF2), turns.abs_diff(p).pow(2), 2);
            }
            previous_turns = Some(turns);
            for (t, sc) in running.iter_mut().zip(&o.scores[..n]) {
                *t += sc;
            }
            let low = *running[..n].iter().min().expect("seats");
            let mut at_low = (0..n).filter(|&s| running[s] == low);
            if let (Some(s), None) = (at_low.next(), at_low.next()) {
                if leader.is_some_and(|p| p != s) {
                    changes += 1;
                }
                leader = Some(s);
            }
            add(acc, l.round(ROUND_TURNS), o.turns as u64, 1);
            add(acc, l.round(ROUND_DRAWS), o.draws as u64, 1);
            // Blocked, or (harbour_cay) ended early as provably stuck: nobody went out.
            add(acc, l.round(ROUND_BLOCKED), u64::from(!matches!(o.reason, EndReason::Out(_))), 1);
            add(acc, l.round(ROUND_BONEYARD), o.boneyard_left as u64, 1);
            add(acc, l.round(ROUND_DRY), u64::from(o.boneyard_left == 0), 1);
            add(acc, l.round(ROUND_NO_START), u64::from(o.no_start.count_ones()), n as u64);
            for s in 0..n {
                add(acc, l.round(ROUND_OUT_SEAT + s), u64::from(o.reason == EndReason::Out(Seat::from_index(s))), 1);
            }
            let best = *o.scores[..n].iter().min().expect("seats");
            let winners = o.scores[..n].iter().filter(|&&x| x == best).count() as u64;
            for s in 0..n {
                let k = (s + n - rec.first.index()) % n;
                let share = if o.scores[s] == best { WIN_UNIT / winners } else { 0 };
                add(acc, l.position(k), share, 1);
            }
        }
        add(acc, l.round(GAME_LEAD_CHANGES), changes, 1);
        acc.games += 1;
        acc.rounds += rounds;
    }

    /// Over real matches (every preset, two to seven seats, lineups with a bot repeated and
    /// with every seat a different bot), a game adds to every cell exactly what the reference
    /// adds.
    #[test]
    fn a_game_adds_what_the_cell_by_cell_reference_adds() {
        use crate::rules::Rules;
        use crate::strategies::Bot;
        let names = ["random", "greedy", "planner", "hoarder", "cutthroat"];
        let mut checked = 0;
        for (k, preset) in ["wikipedia", "celko1998", "dominorules", "family_house", "harbour_cay"].iter().enumerate() {
            for players in 2..=7u8 {
                let Ok(rules) = Rules::preset(preset).map(|r| Rules { players, ..r }) else { continue };
                if rules.validate().is_err() {
                    continue;
                }
                for bots in [2usize, players as usize] {
                    let l = Layout { bots, players: players as usize };
                    let mut seats = [0u16; crate::rules::MAX_PLAYERS];
                    for (s, b) in seats.iter_mut().enumerate().take(players as usize) {
                        *b = ((s + k) % bots) as u16;
                    }
                    let mut table: Vec<Bot> = (0..players as usize)
                        .map(|s| Bot::from_spec(&names[seats[s] as usize % names.len()].parse().unwrap()).unwrap())
                        .collect();
                    let r =
                        crate::game::play_match(&rules, 11 + u64::from(players), &mut table, &mut crate::NoObserver);
                    let spec = GameSpec {
                        game: 0,
                        deal: 0,
                        rotation: 0,
                        seats,
                        positions: [0; crate::rules::MAX_PLAYERS],
                        deal_seed: 0,
                    };
                    let (mut new, mut old) = (DealAcc::new(l), DealAcc::new(l));
                    // Twice: the second game adds onto the first's totals.
                    for _ in 0..2 {
                        new.add_game(&spec, &r);
                        add_game_reference(&mut old, &spec, &r);
                    }
                    assert_eq!(new.cells, old.cells, "{preset}, {players} players, {bots} bots");
                    assert_eq!((new.games, new.rounds), (old.games, old.rounds));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 40, "{checked} tables");
    }

    #[test]
    fn win_unit_splits_every_tie_exactly() {
        assert!((1..=16).all(|w| WIN_UNIT.is_multiple_of(w)));
    }
}
