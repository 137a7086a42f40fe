//! `View`: everything one seat may know, nothing more.
//!
//! A strategy receives a `View` and nothing else from the table: its own hand, the public table
//! (trains, ends, markers, open doubles, the Mexican trains, tiles played), every hand's size, the
//! boneyard's size, and what each seat drew and marked. It cannot reach another hand or the
//! boneyard order: the wrapped state is private to this module. The one exception is declared:
//! a strategy that declares [`crate::Needs::hidden`] (the `oracle`, a measure of the
//! ceiling) gets the whole round through [`View::hidden`].

use crate::round::{Decision, Obligation, RoundState, Seat, Train, TrainId};
use crate::rules::Rules;
use crate::tile::{Pip, Tile};
use crate::tile_set::TileSet;

/// One seat's view of a round in progress.
#[derive(Clone, Copy)]
pub struct View<'a> {
    state: &'a RoundState,
    seat: Seat,
    /// Whether this seat's strategy sees the hidden tiles ([`crate::Needs::hidden`]).
    all: bool,
    /// The round's decisions so far, for a strategy that reads them
    /// ([`crate::Needs::history`]).
    history: Option<&'a crate::round::History>,
}

impl<'a> View<'a> {
    pub(crate) fn new(state: &'a RoundState, seat: Seat) -> View<'a> {
        View { state, seat, all: false, history: None }
    }

    /// The view of a strategy that sees everything (an oracle).
    pub(crate) fn new_all(state: &'a RoundState, seat: Seat) -> View<'a> {
        View { state, seat, all: true, history: None }
    }

    /// This view with the round's record of decisions attached.
    pub(crate) fn with_history(mut self, history: Option<&'a crate::round::History>) -> View<'a> {
        self.history = history;
        self
    }

    /// The round's decisions so far, where the round keeps them (a seat's strategy declared
    /// [`crate::Needs::history`]).
    pub(crate) fn history(&self) -> Option<&'a crate::round::History> {
        self.history
    }

    /// The whole round, every hand and the boneyard's order included, for a strategy that
    /// declares [`crate::Needs::hidden`] (the `oracle`, a ceiling rather than a
    /// player); `None` for every other strategy, and never anything an external bot is sent.
    pub fn hidden(&self) -> Option<&'a RoundState> {
        self.all.then_some(self.state)
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The rules in force.
    pub fn rules(&self) -> &'a Rules {
        self.state.rules()
    }

    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.state.players()
    }

    /// Own hand.
    pub fn hand(&self) -> &'a TileSet {
        self.state.hand(self.seat)
    }

    /// Size of any seat's hand.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.state.hand(seat).len()
    }

    /// Tiles left in the boneyard.
    pub fn boneyard_len(&self) -> usize {
        self.state.boneyard().len()
    }

    /// The engine tile and its number.
    pub fn engine(&self) -> (Tile, Pip) {
        (self.state.engine(), self.state.engine_number())
    }

    /// One train's public state.
    pub fn train(&self, id: TrainId) -> &'a Train {
        self.state.train(id)
    }

    /// The ids of all trains in play (personal trains, then Mexican slots).
    pub fn train_ids(&self) -> impl Iterator<Item = TrainId> + 'a {
        self.state.train_ids()
    }

    /// The whole train a slot belongs to: a branch's root train (branching doubles), or the
    /// train itself.
    pub fn root_of(&self, id: TrainId) -> TrainId {
        self.state.root_of(id)
    }

    /// Number of Mexican trains started.
    pub fn mexican_started(&self) -> usize {
        self.state.mexican_started()
    }

    /// Whether a seat's marker is on its train.
    pub fn is_marked(&self, seat: Seat) -> bool {
        self.state.is_marked(seat)
    }

    /// Pending obligations (open doubles others must cover), in placement order.
    pub fn pending(&self) -> &'a [Obligation] {
        self.state.pending()
    }

    /// Tiles on the table, engine included.
    pub fn played(&self) -> &'a TileSet {
        self.state.played()
    }

    /// Tiles showing `v` not yet on the table.
    pub fn unplayed(&self, v: Pip) -> u32 {
        self.state.unplayed(v)
    }

    /// Open-end values `seat` is publicly known to hold no fitting tile for (bit `v` = value
    /// `v`; the known voids of docs/rules.md §2).
    ///
    /// A seat that finds no legal placement is void in every value it could have played on
    /// (the ends of the trains open to it, the engine number when it may start a Mexican train,
    /// or only the double's value when it must cover one). The knowledge survives its later
    /// placements (they only remove tiles) and a drawn tile that it plays at once; a drawn tile
    /// it keeps narrows the set to the values that tile was just seen not to fit; any other
    /// draw (engine search, penalty) clears it.
    ///
    /// Only what the table sees counts. Where keeping a playable tile is allowed (the delayed
    /// first turn's pass after a draw), a pass after a draw says nothing, whether it was chosen
    /// or forced, since the two look the same.
    pub fn known_voids(&self, seat: Seat) -> u32 {
        self.state.known_voids(seat)
    }

    /// The void records of `seat` that tiles taken in since have loosened: entry `l` is a set
    /// of open-end values (bit `v` = value `v`) that at most `l + 1` tiles of the hand fit.
    ///
    /// A void record (see [`View::known_voids`]) is exact for the hand it was seen in.
    /// When the seat then takes a tile in that the table does not see (a draw it keeps, a
    /// penalty draw), the hand may hold one tile more that fits: the record moves one level
    /// up instead of being forgotten. Records older than
    /// [`LOOSE_LEVELS`](crate::round::LOOSE_LEVELS) tiles are dropped.
    /// The `expert` bot's sampler deals hidden hands that respect these counts.
    pub fn loose_voids(&self, seat: Seat) -> [u32; crate::round::LOOSE_LEVELS] {
        self.state.loose_voids(seat)
    }

    /// A full round state consistent with everything this seat knows, the hidden tiles dealt
    /// afresh from `rng` (see `round::determinize`; for a seat not to act, the acting seat's
    /// hand and any tile it just drew are hidden too); `None` when no round is in play. For
    /// search bots: the world depends only on this view and `rng`.
    pub fn sample_world(&self, rng: &mut crate::rng::GameRng) -> Option<RoundState> {
        self.state.sample_world(self.seat, rng)
    }

    /// Samples many worlds at this position: each [`crate::round::WorldSampler::sample`] is the
    /// world [`View::sample_world`] deals from the same random stream (and
    /// [`crate::round::WorldSampler::sample_loose`] that of [`View::sample_world_loose`]), with
    /// what every world shares (the unseen tiles, the order the hands are filled in) computed
    /// once, at the first world. For search bots, which deal dozens of worlds a decision.
    pub fn world_sampler(&self) -> crate::round::WorldSampler<'a> {
        crate::round::WorldSampler::new(self.state, self.seat)
    }

    /// A sampled world that also meets every seat's loosened void records
    /// ([`View::loose_voids`]): what the table has seen of hands that took tiles in since.
    pub fn sample_world_loose(&self, rng: &mut crate::rng::GameRng) -> Option<RoundState> {
        self.state.sample_world_with(self.seat, rng, true)
    }

    /// Tiles a seat has drawn this round.
    pub fn draws(&self, seat: Seat) -> u16 {
        self.state.draws(seat)
    }

    /// Turns a seat has completed this round.
    pub fn turns_taken(&self, seat: Seat) -> u16 {
        self.state.turns_taken(seat)
    }

    /// The double this seat must follow up, when deciding a follow-up.
    pub fn follow_up_double(&self) -> Option<(TrainId, Pip)> {
        self.state.follow_up_double()
    }

    /// The tile this seat drew this turn, when the choice is where to play it.
    pub fn drawn(&self) -> Option<Tile> {
        if self.state.current() == self.seat { self.state.drawn_this_turn() } else { None }
    }

    /// The kind of decision, when this seat is to act.
    pub fn decision(&self) -> Option<Decision> {
        if self.state.current() != self.seat || self.state.is_over() {
            return None;
        }
        Some(if self.state.building() {
            Decision::Build
        } else if self.state.swanning() {
            Decision::Swan
        } else if self.state.follow_up_double().is_some() {
            Decision::FollowUp
        } else if !self.state.pending().is_empty() {
            Decision::Cover
        } else {
            Decision::Normal
        })
    }
}
