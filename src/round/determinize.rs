//! Determinization: a full round state that one seat cannot tell apart from the real one.
//!
//! A search bot (`montecarlo`, `expert`) plays hypothetical futures. It may not look at the
//! other hands or the boneyard order, so it plays them in a *sampled world*: the table, every
//! public counter and its own hand as they are, and the tiles it cannot see dealt afresh into the
//! other hands (same sizes) and the boneyard (same size, new order).
//!
//! The sample reads only what the seat may know: its own hand, the tiles on the table, hand and
//! boneyard sizes, and each seat's publicly known voids ([`RoundState::known_voids`]). A seat
//! known void in `v` receives no tile fitting an end `v`. Seats are filled most constrained
//! first, each with a uniform draw from the unseen tiles it may hold; the boneyard takes the rest
//! in a uniform order. (The sequential fill is close to, not exactly, uniform over all consistent
//! worlds; exact rejection sampling can take thousands of tries late in a round.) If the voids
//! cannot all be met — they always can in the real world, so only by bad luck in the fill — it
//! retries, and after [`FILL_TRIES`] it drops the void constraints. Nothing here allocates.

use super::Seat;
use super::state::{LOOSE_LEVELS, Phase, RoundState};
use crate::deal::Boneyard;
use crate::rng::{GameRng, below, shuffle};
use crate::rules::MAX_PLAYERS;
use crate::tile::{MAX_TILES, Tile};
use crate::tile_set::TileSet;

/// Attempts at a fill that meets every known void before dropping them.
pub(crate) const FILL_TRIES: usize = 8;

/// Attempts at a watcher's world in which the seat to act still faces a choice
/// ([`RoundState::sample_world`] for a seat not to act).
const CHOICE_TRIES: usize = 256;

/// What every world dealt for one seat at one position shares, computed once
/// ([`RoundState::world_deal`]) for the many worlds a search deals there: the tiles the seat
/// cannot see in their order, the order the other hands are filled in, and the first hand's
/// pool with the tiles it may hold moved to the front. A world dealt from it
/// ([`RoundState::fill_world_from`]) is the one [`RoundState::fill_world`] deals from the same
/// random stream.
#[derive(Clone)]
pub(crate) struct WorldDeal {
    unseen: [Tile; MAX_TILES],
    n_unseen: usize,
    /// The seats to fill, most constrained first: (tiles they may hold, seat).
    order: [(usize, usize); MAX_PLAYERS],
    k: usize,
    /// `unseen` with the tiles the first seat of `order` may hold (by its exact voids) at the
    /// front, and how many those are.
    first_pool: [Tile; MAX_TILES],
    first_fit: usize,
}

/// Worlds for one view's seat at one position ([`crate::View::world_sampler`]): each is the
/// world [`crate::View::sample_world`] (or [`crate::View::sample_world_loose`]) would deal from
/// the same random stream, with what every world shares computed once.
pub struct WorldSampler<'a> {
    state: &'a RoundState,
    seat: Seat,
    /// Whether the seat is to act in a round in play (a watcher's worlds are dealt by
    /// [`RoundState::sample_world`] each time).
    to_act: bool,
    /// What the worlds share, made at the first world (a search that plays the true world
    /// deals none).
    deal: std::cell::OnceCell<WorldDeal>,
}

impl<'a> WorldSampler<'a> {
    pub(crate) fn new(state: &'a RoundState, seat: Seat) -> WorldSampler<'a> {
        let to_act = seat == state.current && !matches!(state.phase, Phase::Setup | Phase::Over);
        WorldSampler { state, seat, to_act, deal: std::cell::OnceCell::new() }
    }

    /// What the worlds share, for a seat to act.
    fn deal(&self) -> Option<&WorldDeal> {
        self.to_act.then(|| self.deal.get_or_init(|| self.state.world_deal(self.seat, 0)))
    }

    /// As [`crate::View::sample_world`]: a world the seat cannot tell from the real one, or
    /// `None` when no round is in play.
    pub fn sample(&self, rng: &mut GameRng) -> Option<RoundState> {
        match self.deal() {
            Some(deal) => Some(self.state.fill_world_from(deal, rng, false)),
            None => self.state.sample_world(self.seat, rng),
        }
    }

    /// As [`crate::View::sample_world_loose`]: a sampled world that also meets every seat's
    /// loosened void records.
    pub fn sample_loose(&self, rng: &mut GameRng) -> Option<RoundState> {
        match self.deal() {
            Some(deal) => Some(self.state.fill_world_from(deal, rng, true)),
            None => self.state.sample_world_with(self.seat, rng, true),
        }
    }

    /// [`Self::sample_loose`] when `loose`, else [`Self::sample`].
    pub fn sample_with(&self, rng: &mut GameRng, loose: bool) -> Option<RoundState> {
        if loose { self.sample_loose(rng) } else { self.sample(rng) }
    }
}

impl RoundState {
    /// Whether `t` could be laid on an open end `v` (blanks wild counts blanks, `blanks_wild`, docs/rules.md §9): the
    /// definition [`Self::allowed`] computes for a whole mask of values.
    #[cfg(test)]
    fn fits_end(&self, t: Tile, v: crate::tile::Pip) -> bool {
        use crate::tile::Pip;
        t.contains(v) || (self.rules.blanks_wild && (t.contains(Pip::ZERO) || v == Pip::ZERO))
    }

    /// The tiles `seat` cannot see: in another hand or in the boneyard.
    pub(crate) fn unseen_by(&self, seat: Seat) -> TileSet {
        let mut s = TileSet::full(self.rules.set).difference(&self.table.played);
        s = s.difference(&self.holdings.hands[seat.index()]);
        s
    }

    /// A world `seat` cannot tell from this one, or `None` when the round is not in play. For
    /// the seat to act it is [`Self::fill_world`]'s; for another seat (a watcher) it is
    /// [`Self::watched_world`]'s.
    pub(crate) fn sample_world(&self, seat: Seat, rng: &mut GameRng) -> Option<RoundState> {
        if seat != self.current && !matches!(self.phase, Phase::Setup | Phase::Over) {
            return Some(self.watched_world(seat, rng));
        }
        self.sample_world_with(seat, rng, false)
    }

    /// A world a seat that is not to act (`seat`) cannot tell from this one. Everything it
    /// cannot see is hidden from it, the acting seat's hand included, and so is the tile that
    /// seat may have just drawn (the table saw a draw, not the tile): the acting seat's hand
    /// less that tile is dealt as every hidden hand is (meeting its known voids, which were
    /// recorded before the draw), and the drawn tile is the next one of the redealt boneyard.
    /// The watcher has also seen that the acting seat faces a real choice (two or more legal
    /// moves: the engine plays a lone move itself), so worlds where it would not are redrawn,
    /// up to [`CHOICE_TRIES`] times; after that (rare: a one- or two-tile hand with few
    /// fitting tiles) the acting seat keeps its real hand and only the other hidden tiles are
    /// redrawn.
    fn watched_world(&self, seat: Seat, rng: &mut GameRng) -> RoundState {
        let c = self.current;
        let drawn = self.drawn_this_turn();
        let mut before = self.clone();
        if let Some(d) = drawn {
            before.holdings.hands[c.index()].remove_present(d);
        }
        let mut moves = crate::round::MoveList::new();
        let deal = before.world_deal(seat, 0);
        for _ in 0..CHOICE_TRIES {
            let mut world = before.fill_world_from(&deal, rng, false);
            if drawn.is_some() {
                let d = world.holdings.boneyard.draw().expect("the drawn tile is among the unseen");
                world.holdings.hands[c.index()].insert_new(d);
                world.phase = match world.phase {
                    Phase::Normal(_) => Phase::Normal(Some(d)),
                    Phase::Cover(_) => Phase::Cover(Some(d)),
                    Phase::FollowUp { train, value, .. } => Phase::FollowUp { train, value, drawn: Some(d) },
                    other => other,
                };
            }
            world.legal_moves(&mut moves);
            if moves.len() >= 2 {
                return world;
            }
        }
        self.fill_world(seat, c.bit(), rng, false)
    }

    /// As [`RoundState::sample_world`]; with `loose`, each hand also meets the seat's loosened
    /// void records ([`RoundState::loose_voids`]): at most `l + 1` of its tiles fit level `l`.
    /// Those are counts, so the fill draws tile by tile, each uniformly among the tiles that
    /// keep every count met. After [`FILL_TRIES`] failed fills the loosened records are dropped,
    /// then (as without `loose`) the exact voids.
    pub(crate) fn sample_world_with(&self, seat: Seat, rng: &mut GameRng, loose: bool) -> Option<RoundState> {
        if seat != self.current || matches!(self.phase, Phase::Setup | Phase::Over) {
            return None;
        }
        Some(self.fill_world(seat, 0, rng, loose))
    }

    /// The world of [`Self::sample_world_with`] for `seat` in play: every hand but `seat`'s
    /// and those of `keep` (a mask of seats) and the boneyard dealt afresh from the tiles
    /// `seat` cannot see (less `keep`'s hands).
    fn fill_world(&self, seat: Seat, keep: u16, rng: &mut GameRng, loose: bool) -> RoundState {
        self.fill_world_from(&self.world_deal(seat, keep), rng, loose)
    }

    /// What every world [`Self::fill_world`] deals for `seat` and `keep` in this state shares:
    /// the unseen tiles, the order the hands are filled in, and the first hand's pool.
    pub(crate) fn world_deal(&self, seat: Seat, keep: u16) -> WorldDeal {
        let mut unseen_set = self.unseen_by(seat);
        for s in (0..self.players as usize).filter(|&s| keep >> s & 1 == 1) {
            unseen_set = unseen_set.difference(&self.holdings.hands[s]);
        }
        let mut unseen = [Tile::from_pips(0, 0); MAX_TILES];
        let mut n_unseen = 0;
        for t in &unseen_set {
            unseen[n_unseen] = t;
            n_unseen += 1;
        }
        let n = self.players as usize;
        // Other seats, most constrained first (fewest unseen tiles they may hold), then by seat.
        let mut order = [(0usize, 0usize); MAX_PLAYERS];
        let mut k = 0;
        for s in (0..n).filter(|&s| s != seat.index() && keep >> s & 1 == 0) {
            let voids = self.known_voids(Seat::from_index(s));
            order[k] = (self.allowed_count(&unseen_set, voids), s);
            k += 1;
        }
        order[..k].sort_unstable();
        // The first hand's pool while the voids are respected: the tiles it may hold moved to
        // the front, as every such attempt of every world starts.
        let mut first_pool = unseen;
        let mut first_fit = n_unseen;
        if k > 0 {
            let voids = self.known_voids(Seat::from_index(order[0].1));
            if voids != 0 {
                first_fit = 0;
                for i in 0..n_unseen {
                    if self.allowed(first_pool[i], voids) {
                        first_pool.swap(i, first_fit);
                        first_fit += 1;
                    }
                }
            }
        }
        WorldDeal { unseen, n_unseen, order, k, first_pool, first_fit }
    }

    /// One world of `deal` (made by [`Self::world_deal`] for `seat` in this state), its hidden
    /// tiles drawn from `rng`.
    pub(crate) fn fill_world_from(&self, deal: &WorldDeal, rng: &mut GameRng, loose: bool) -> RoundState {
        let order = &deal.order[..deal.k];
        let mut world = self.clone();
        // The last-tile coins of the real round are as hidden as its boneyard: the world gets
        // coins of its own (drawn only when the rules have coins, so no other game changes).
        world.tap_seed = if self.rules.tap_coins() { rand::RngCore::next_u64(rng) } else { 0 };
        // With `loose`, the loosened records are tried first and dropped before the exact ones.
        let loose_tries = if loose { FILL_TRIES } else { 0 };
        for attempt in 0..=FILL_TRIES + loose_tries {
            let respect_voids = attempt < FILL_TRIES + loose_tries;
            let loose = attempt < loose_tries;
            // The first hand's tiles are at the front of the pool (every tile when the voids
            // are dropped).
            let (mut pool, first_fit) =
                if respect_voids { (deal.first_pool, deal.first_fit) } else { (deal.unseen, deal.n_unseen) };
            let mut left = deal.n_unseen;
            let mut ok = true;
            for (i_order, &(_, s)) in order.iter().enumerate() {
                let need = self.holdings.hands[s].len();
                // Move the tiles seat s may hold to the front of the pool, then draw from them
                // (with no void, every tile: the pool as it is).
                let mut fit = 0;
                if i_order == 0 {
                    fit = first_fit;
                } else {
                    let voids = if respect_voids { self.known_voids(Seat::from_index(s)) } else { 0 };
                    if voids == 0 {
                        fit = left;
                    } else {
                        for i in 0..left {
                            if self.allowed(pool[i], voids) {
                                pool.swap(i, fit);
                                fit += 1;
                            }
                        }
                    }
                }
                if fit < need {
                    ok = false;
                    break;
                }
                let mut hand = TileSet::EMPTY;
                let levels = if loose { self.loose_voids(Seat::from_index(s)) } else { [0; LOOSE_LEVELS] };
                if levels == [0; LOOSE_LEVELS] {
                    for j in 0..need {
                        let r = j + below(rng, (fit - j) as u64) as usize;
                        pool.swap(j, r);
                        hand.insert_new(pool[j]);
                    }
                } else if !self.fill_counted(&mut pool[..fit], need, levels, rng) {
                    ok = false;
                    break;
                } else {
                    for &t in &pool[..need] {
                        hand.insert_new(t);
                    }
                }
                world.holdings.hands[s] = hand;
                // Drop the dealt tiles from the pool.
                pool.copy_within(need..left, 0);
                left -= need;
            }
            if ok {
                shuffle(rng, &mut pool[..left]);
                world.holdings.boneyard = Boneyard::from_tiles(&pool[..left]);
                return world;
            }
        }
        unreachable!("a fill without void constraints always succeeds")
    }

    /// Moves `need` tiles of `pool` to its front, one at a time, each uniformly among those
    /// that keep at most `l + 1` chosen tiles fitting `levels[l]`; false when none is left.
    fn fill_counted(&self, pool: &mut [Tile], need: usize, levels: [u32; LOOSE_LEVELS], rng: &mut GameRng) -> bool {
        let mut room = [0usize; LOOSE_LEVELS];
        for (l, r) in room.iter_mut().enumerate() {
            *r = l + 1;
        }
        // Which levels each pool tile fits (bit l), computed once.
        let mut fits = [0u8; MAX_TILES];
        for (f, &t) in fits.iter_mut().zip(pool.iter()) {
            for (l, &mask) in levels.iter().enumerate() {
                if !self.allowed(t, mask) {
                    *f |= 1 << l;
                }
            }
        }
        let takes = |f: u8, room: &[usize; LOOSE_LEVELS]| (0..LOOSE_LEVELS).all(|l| f & (1 << l) == 0 || room[l] > 0);
        for j in 0..need {
            let candidates = (j..pool.len()).filter(|&i| takes(fits[i], &room)).count();
            if candidates == 0 {
                return false;
            }
            let mut r = below(rng, candidates as u64) as usize;
            let pick = (j..pool.len())
                .filter(|&i| takes(fits[i], &room))
                .find(|_| {
                    let hit = r == 0;
                    r = r.wrapping_sub(1);
                    hit
                })
                .expect("a candidate was counted");
            pool.swap(j, pick);
            fits.swap(j, pick);
            for (l, left) in room.iter_mut().enumerate() {
                if fits[j] & (1 << l) != 0 {
                    *left -= 1;
                }
            }
        }
        true
    }

    /// How many tiles of `set` are [`Self::allowed`] for `voids`, by rows of the suit matrix: the
    /// tiles with neither half in the mask (under blanks wild, no blank either, and none at all
    /// when a blank end is void).
    fn allowed_count(&self, set: &TileSet, voids: u32) -> usize {
        if voids == 0 {
            return set.len();
        }
        let mut v = voids;
        if self.rules.blanks_wild {
            if v & 1 != 0 {
                return 0;
            }
            v |= 1;
        }
        let keep = !v;
        // Each tile `[a|b]` is bit `b` of row `a` and bit `a` of row `b`; a double is one bit.
        let (mut bits, mut doubles) = (0u32, 0u32);
        for a in (0..crate::tile::PIP_COUNT).filter(|&a| keep >> a & 1 != 0) {
            let row = set.row(crate::tile::Pip::from_u8(a as u8)) & keep;
            bits += crate::tile_set::row_len(row);
            doubles += row >> a & 1;
        }
        ((bits + doubles) / 2) as usize
    }

    /// Whether `t` fits none of the open ends in `voids` (a value mask): [`Self::fits_end`] for
    /// every value of the mask at once. A tile `[a|b]` shows `a` and `b`; under blanks wild a
    /// blank fits any end and a blank end takes any tile.
    #[inline]
    fn allowed(&self, t: Tile, voids: u32) -> bool {
        if voids == 0 {
            return true;
        }
        let (a, b) = (t.low().get(), t.high().get());
        let shows_void = (voids >> a | voids >> b) & 1 != 0;
        let wild = self.rules.blanks_wild && (a == 0 || voids & 1 != 0);
        !(shows_void || wild)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_round;
    use crate::rng::rng_from_seed;
    use crate::rules::Rules;
    use crate::tile::Pip;

    /// A sampled world's last-tile coins are its own: drawn from the sampler, never the real
    /// round's seed, so a search cannot foresee a coin (and without coins nothing is drawn).
    #[test]
    fn a_sampled_world_never_holds_the_real_coin_seed() {
        use crate::rules::{Probability, TapModel};
        let half = Probability::from_millionths(500_000).unwrap();
        let coins = Rules { tap: TapModel::DrawTwo, tap_forget: half, ..Rules::wikipedia() };
        let deal = deal_round(&coins, Pip::new(12).unwrap(), &mut rng_from_seed(5));
        let worlds = |rules: &Rules, real: u64| {
            let mut state = RoundState::new(rules, &deal, Seat::from_index(0));
            state.set_tap_seed(real);
            let mut rng = rng_from_seed(9);
            let world = state.sample_world(Seat::from_index(0), &mut rng).unwrap();
            (world, rng)
        };
        let (a, rng_a) = worlds(&coins, 1);
        let (b, rng_b) = worlds(&coins, 2);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "the world does not depend on the real coins");
        assert_eq!(rng_a, rng_b);
        assert!(a.tap_seed != 1 && a.tap_seed != 2);
        // No coins in the rules: the sampler's stream is what it always was.
        let (c, rng_c) = worlds(&Rules::wikipedia(), 1);
        let (_, rng_d) = worlds(&Rules::wikipedia(), 2);
        assert_eq!((c.tap_seed, &rng_c), (0, &rng_d));
        assert_ne!(rng_c, rng_a);
    }

    #[test]
    fn allowed_count_counts_the_allowed_tiles() {
        for blanks_wild in [false, true] {
            let rules = Rules { blanks_wild, ..Rules::wikipedia() };
            let deal = deal_round(&rules, Pip::new(12).unwrap(), &mut rng_from_seed(5));
            let state = RoundState::new(&rules, &deal, Seat::from_index(0));
            let mut rng = rng_from_seed(6);
            for _ in 0..500 {
                let voids = rand::RngCore::next_u32(&mut rng) & 0x1FFF >> (rand::RngCore::next_u32(&mut rng) % 13);
                let mut set = TileSet::EMPTY;
                for t in Tile::canonical(Pip::new(12).unwrap()) {
                    if !rand::RngCore::next_u32(&mut rng).is_multiple_of(3) {
                        set.insert(t);
                    }
                }
                let by_tile = set.iter().filter(|&t| state.allowed(t, voids)).count();
                assert_eq!(state.allowed_count(&set, voids), by_tile, "voids {voids:#x} blanks wild {blanks_wild}");
            }
        }
    }

    #[test]
    fn allowed_is_fits_end_over_every_value_of_the_mask() {
        for blanks_wild in [false, true] {
            // Only the rules' blanks wild matters here; the tiles go up to the double-18.
            let rules = Rules { blanks_wild, ..Rules::wikipedia() };
            let deal = deal_round(&rules, Pip::new(12).unwrap(), &mut rng_from_seed(3));
            let state = RoundState::new(&rules, &deal, Seat::from_index(0));
            let mut rng = rng_from_seed(4);
            let masks = (0..400)
                .map(|_| rand::RngCore::next_u32(&mut rng) & 0x7FFFF >> (rand::RngCore::next_u32(&mut rng) % 19));
            for voids in [0, 1, 1 << 18, 0x7FFFF].into_iter().chain(masks) {
                for t in Tile::canonical(Pip::new(18).unwrap()) {
                    let by_value =
                        (0..19u8).filter(|&v| voids >> v & 1 == 1).all(|v| !state.fits_end(t, Pip::from_u8(v)));
                    assert_eq!(state.allowed(t, voids), by_value, "{t} voids {voids:#x} blanks wild {blanks_wild}");
                }
            }
        }
    }

    /// The fill as it was before [`WorldDeal`] kept what the worlds share: every attempt
    /// lists the unseen tiles, orders the seats and filters the first seat's pool again. The
    /// reference [`RoundState::fill_world_from`] is held to.
    fn fill_world_reference(state: &RoundState, seat: Seat, rng: &mut GameRng, loose: bool) -> RoundState {
        let unseen_set = state.unseen_by(seat);
        let mut unseen = [Tile::from_pips(0, 0); MAX_TILES];
        let mut n_unseen = 0;
        for t in &unseen_set {
            unseen[n_unseen] = t;
            n_unseen += 1;
        }
        let mut order = Vec::new();
        for s in (0..state.players as usize).filter(|&s| s != seat.index()) {
            order.push((state.allowed_count(&unseen_set, state.known_voids(Seat::from_index(s))), s));
        }
        order.sort_unstable();
        let mut world = state.clone();
        world.tap_seed = if state.rules.tap_coins() { rand::RngCore::next_u64(rng) } else { 0 };
        let loose_tries = if loose { FILL_TRIES } else { 0 };
        for attempt in 0..=FILL_TRIES + loose_tries {
            let respect_voids = attempt < FILL_TRIES + loose_tries;
            let loose = attempt < loose_tries;
            let mut pool = unseen;
            let mut left = n_unseen;
            let mut ok = true;
            for &(_, s) in &order {
                let need = state.holdings.hands[s].len();
                let voids = if respect_voids { state.known_voids(Seat::from_index(s)) } else { 0 };
                let mut fit = 0;
                for i in 0..left {
                    if state.allowed(pool[i], voids) {
                        pool.swap(i, fit);
                        fit += 1;
                    }
                }
                if fit < need {
                    ok = false;
                    break;
                }
                let mut hand = TileSet::EMPTY;
                let levels = if loose { state.loose_voids(Seat::from_index(s)) } else { [0; LOOSE_LEVELS] };
                if levels == [0; LOOSE_LEVELS] {
                    for j in 0..need {
                        let r = j + below(rng, (fit - j) as u64) as usize;
                        pool.swap(j, r);
                        assert!(hand.insert(pool[j]));
                    }
                } else if !state.fill_counted(&mut pool[..fit], need, levels, rng) {
                    ok = false;
                    break;
                } else {
                    for &t in &pool[..need] {
                        assert!(hand.insert(t));
                    }
                }
                world.holdings.hands[s] = hand;
                pool.copy_within(need..left, 0);
                left -= need;
            }
            if ok {
                shuffle(rng, &mut pool[..left]);
                world.holdings.boneyard = Boneyard::from_tiles(&pool[..left]);
                return world;
            }
        }
        unreachable!()
    }

    /// A sampler's worlds are the reference fill's and those of the per-call samples from the
    /// same streams, exact and loose, for the seat to act and for a watcher, at every decision of
    /// twelve rounds of a table that reads voids (so the fills meet void records).
    #[test]
    fn a_world_sampler_deals_the_worlds_of_sample_world() {
        use crate::strategy::{Needs, Strategy};
        /// Lays its lightest tile (the round machinery names no built-in bot).
        struct Lightest;
        impl Strategy for Lightest {
            fn choose(&mut self, _: &crate::View<'_>, moves: &crate::round::MoveList, _: &mut GameRng) -> usize {
                (0..moves.len()).min_by_key(|&i| moves[i].tile().map_or(u16::MAX, |t| t.pips())).unwrap_or(0)
            }
            fn needs(&self) -> Needs {
                Needs::NOTHING.voids(true)
            }
        }
        let mut bots: Vec<Lightest> = (0..4).map(|_| Lightest).collect();
        let (mut probes, mut with_voids) = (0, 0);
        crate::round::recorded_rounds(12, &mut bots, |state, _| {
            probes += 1;
            with_voids += usize::from((1..4).any(|s| state.known_voids(Seat::from_index(s)) != 0));
            for seat in [Seat::from_index(0), Seat::from_index(2)] {
                let view = state.view(seat);
                let sampler = view.world_sampler();
                for i in 0..3 {
                    let world = |w: Option<RoundState>| format!("{w:?}");
                    if seat == state.current {
                        for loose in [false, true] {
                            assert_eq!(
                                world(sampler.sample_with(&mut rng_from_seed(i), loose)),
                                world(Some(fill_world_reference(state, seat, &mut rng_from_seed(i), loose)))
                            );
                        }
                    }
                    assert_eq!(
                        world(sampler.sample(&mut rng_from_seed(i))),
                        world(view.sample_world(&mut rng_from_seed(i)))
                    );
                    assert_eq!(
                        world(sampler.sample_loose(&mut rng_from_seed(i))),
                        world(view.sample_world_loose(&mut rng_from_seed(i)))
                    );
                }
            }
        });
        assert!(probes > 100 && with_voids > 20, "{probes} positions, {with_voids} with voids");
    }
}
