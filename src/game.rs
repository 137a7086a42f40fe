//! A match: rounds from the highest double down, cumulative scores, the winner and tie-break.

use crate::deal::deal;
use crate::rng::{GameRng, below, rng_from_seed, seeds};
use crate::round::{
    ALL_TRAIN_SLOTS, EndReason, Event, History, Move, MoveKind, MoveList, NoObserver, Observer, Outcome, Recording,
    RoundSetup, RoundState, STOP, Seat, SeenEvent, Step, TrainId,
};
use crate::rules::{EngineMode, FirstPlayer, FirstSeat, MAX_PLAYERS, Rules, TieBreak};
use crate::strategy::{MatchStart, Needs, Strategy};
use crate::tile::{PIP_COUNT, Pip, Tile};

/// A match-level observer: round and match boundaries on top of the round events.
pub trait MatchObserver: Observer {
    /// Before the first round.
    fn match_start(&mut self, _rules: &Rules, _seed: u64) {}
    /// After the deal of round `round` (1-based), before its first turn.
    fn round_start(&mut self, _round: u8, _state: &RoundState) {}
    /// After the last round.
    fn match_end(&mut self, _result: &MatchResult) {}
}

impl MatchObserver for NoObserver {}

/// One finished round of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// Engine number.
    pub engine: Pip,
    /// Seat that took the first turn.
    pub first: Seat,
    /// What happened.
    pub outcome: Outcome,
}

/// The result of a match. Fixed-size: no heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Number of seats.
    pub players: u8,
    /// Rounds played.
    pub rounds: u8,
    /// Each round, in play order (first `rounds` entries).
    pub records: [Option<RoundRecord>; PIP_COUNT],
    /// Cumulative score per seat.
    pub totals: [u32; MAX_PLAYERS],
    /// Rounds in which each seat scored 0.
    pub zero_rounds: [u8; MAX_PLAYERS],
    /// Each seat's lowest non-zero round score (`u32::MAX` if none).
    pub min_nonzero: [u32; MAX_PLAYERS],
    /// The winners as a seat mask (more than one bit: co-winners).
    pub winners: u16,
    /// Each seat's finishing place, 0 = first: the number of seats that finished strictly
    /// ahead of it (lower total, then the rules' tie-break). Seats still level share a place.
    pub places: [u8; MAX_PLAYERS],
}

impl MatchResult {
    /// A result with no round played.
    pub fn empty(players: u8) -> MatchResult {
        MatchResult {
            players,
            rounds: 0,
            records: [None; PIP_COUNT],
            totals: [0; MAX_PLAYERS],
            zero_rounds: [0; MAX_PLAYERS],
            min_nonzero: [u32::MAX; MAX_PLAYERS],
            winners: 0,
            places: [0; MAX_PLAYERS],
        }
    }

    /// Back to [`MatchResult::empty`], clearing only the rounds a previous match recorded.
    fn reset(&mut self, players: u8) {
        self.records[..self.rounds as usize].fill(None);
        self.players = players;
        self.rounds = 0;
        self.totals = [0; MAX_PLAYERS];
        self.zero_rounds = [0; MAX_PLAYERS];
        self.min_nonzero = [u32::MAX; MAX_PLAYERS];
        self.winners = 0;
        self.places = [0; MAX_PLAYERS];
    }

    /// Whether `seat` is among the winners.
    pub fn is_winner(&self, seat: Seat) -> bool {
        self.winners & seat.bit() != 0
    }

    /// How many seats share seat `s`'s place (1 when it finished alone).
    pub fn level_with(&self, s: usize) -> usize {
        let n = self.players as usize;
        self.places[..n].iter().filter(|&&p| p == self.places[s]).count()
    }

    /// The winning seats in order.
    pub fn winner_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.players as usize).map(Seat::from_index).filter(|&s| self.is_winner(s))
    }

    /// The rounds played.
    pub fn round_records(&self) -> impl Iterator<Item = &RoundRecord> {
        self.records[..self.rounds as usize].iter().flatten()
    }
}

/// Plays one round to the end: asks each seat's strategy whenever it has a real choice.
///
/// `rngs[s]` is seat `s`'s random stream; `moves` is scratch space. No heap allocation.
pub fn play_round<S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
) -> Outcome {
    // The plain turn loop (round/plain.rs) plays the same game faster when the rules allow it;
    // the general machine takes the setup and any turn already in progress.
    let plain = state.plain_rules();
    let needs = TableNeeds::of(bots, state.players() as usize);
    play_round_with::<false, _, _>(state, bots, rngs, moves, obs, plain, u32::MAX, needs)
        .expect("a round without a turn limit ends")
}

/// [`play_round`] for at most `turns` more turns: the outcome if the round ended within them,
/// `None` if it goes on (the state is then left after the last of those turns, or, on the
/// general machine, after the move that completed it). A search that stops its rollouts early
/// and judges the position reached uses it.
pub fn play_round_for<S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
    turns: u32,
) -> Option<Outcome> {
    let plain = state.plain_rules();
    let until = state.turns().saturating_add(turns);
    let needs = TableNeeds::of(bots, state.players() as usize);
    play_round_with::<true, _, _>(state, bots, rngs, moves, obs, plain, until, needs)
}

/// [`play_round`] with the plain loop allowed or not, stopping, when `LIMITED`, once
/// [`RoundState::turns`] reaches `until`; `needs` are the seats' declarations
/// ([`TableNeeds::of`] `bots`: a match reads them once, since a strategy's needs are the same
/// for its whole life).
#[allow(clippy::too_many_arguments)] // the round's parts, each borrowed separately by its loops
fn play_round_with<const LIMITED: bool, S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
    plain: bool,
    until: u32,
    needs: TableNeeds,
) -> Option<Outcome> {
    start_round(state, bots, needs.voids);
    if needs.events != 0 {
        return play_round_observed(state, bots, rngs, moves, obs, until, needs);
    }
    if needs.history {
        return play_round_recorded(state, bots, rngs, moves, obs, until, needs.hidden);
    }
    let (all, heavy) = (needs.hidden, needs.heaviest_first);
    // A table of `weighted` seats (`expert`'s rollouts) plays its plain turns on the kernel's
    // listing turns (round/kernel.rs), which pick from compact moves and keep the void records.
    // (Not asked at a table with a heaviest-first seat, which `weighted` is not.)
    let listed = plain && all == 0 && heavy == 0 && {
        let n = state.players() as usize;
        bots.iter().take(n).all(|b| b.picks_listed())
    };
    loop {
        if LIMITED && state.turns() >= until {
            return state.outcome().copied();
        }
        match state.advance_until(moves, obs, plain) {
            None if listed => {
                // The list's scratch is kept per thread: built for each round, its zeroing
                // would cost more than a rollout's turns save.
                thread_local! {
                    static LIST: std::cell::RefCell<crate::round::kernel::KList> =
                        std::cell::RefCell::new(crate::round::kernel::KList::new());
                }
                LIST.with_borrow_mut(|list| {
                    state.play_plain_listed::<LIMITED, _>(obs, until, list, &mut |st, p, m| {
                        bots[p.index()].pick_listed(st, p, m)
                    })
                });
                return state.outcome().copied();
            }
            None => {
                state.play_plain::<LIMITED, _>(moves, obs, until, heavy, |st, seat, moves| {
                    let v = st.view_as(seat, all & seat.bit() != 0);
                    bots[seat.index()].choose(&v, moves, &mut rngs[seat.index()])
                });
                return state.outcome().copied();
            }
            Some(Step::Over) => return state.outcome().copied(),
            Some(Step::Choice(seat, _)) => {
                let m = ask(state, bots, rngs, moves, seat, all, None);
                state.play_unchecked(m, obs);
            }
        }
    }
}

/// What the seats of a round declared ([`Strategy::needs`]), read once as it starts: the round
/// loop and its bookkeeping follow from it.
#[derive(Clone, Copy, Debug, Default)]
struct TableNeeds {
    /// Whether a seat at the table reads the voids ([`Needs::voids`]).
    voids: bool,
    /// The seats that want the events ([`Needs::events`]), as a mask.
    events: u16,
    /// Whether a seat reads the record of decisions ([`Needs::history`]).
    history: bool,
    /// The seats that see the hidden tiles ([`Needs::hidden`]), as a mask.
    hidden: u16,
    /// The seats whose pick the fast loop may make ([`Needs::heaviest_first`]), as a mask.
    heaviest_first: u16,
}

impl TableNeeds {
    /// The declarations of `bots`, of which the first `players` sit at the table.
    #[inline]
    fn of<S: Strategy>(bots: &[S], players: usize) -> TableNeeds {
        let mut t = TableNeeds::default();
        for (s, bot) in bots.iter().enumerate() {
            let Needs { voids, rng: _, history, events, hidden, heaviest_first } = bot.needs();
            let bit = |on: bool| u16::from(on) << s;
            t.voids |= voids && s < players;
            t.events |= bit(events);
            t.history |= history;
            t.hidden |= bit(hidden);
            t.heaviest_first |= bit(heaviest_first);
        }
        t
    }
}

/// The move `seat`'s strategy picks from `moves` (`all`: the seats that see everything;
/// `history`: the round's record of decisions, where it is kept).
fn ask<S: Strategy>(
    state: &RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &MoveList,
    seat: Seat,
    all: u16,
    history: Option<&History>,
) -> Move {
    let v = state.view_as(seat, all & seat.bit() != 0).with_history(history);
    let i = bots[seat.index()].choose(&v, moves, &mut rngs[seat.index()]);
    assert!(i < moves.len(), "strategy of seat {seat} chose move {i} of {}", moves.len());
    moves[i]
}

/// The round for strategies that observe events: the general turn machine, every event logged
/// and handed to them before each decision and once at the end.
fn play_round_observed<S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
    until: u32,
    needs: TableNeeds,
) -> Option<Outcome> {
    let mut tee = EventLog { inner: obs, log: Vec::new() };
    let all = needs.hidden;
    // Each seat gets its own view of the events: another seat's draws hidden unless it sees all.
    let mut seen: Vec<SeenEvent> = Vec::new();
    let mut deliver = |bots: &mut [S], log: &mut Vec<Event>| {
        for (s, bot) in bots.iter_mut().enumerate().filter(|&(s, _)| needs.events & 1 << s != 0) {
            let viewer = Seat::from_index(s);
            seen.clear();
            seen.extend(log.iter().map(|e| e.seen_by(viewer, all & viewer.bit() != 0)));
            bot.observe(&seen);
        }
        log.clear();
    };
    loop {
        if state.turns() >= until {
            deliver(bots, &mut tee.log);
            return state.outcome().copied();
        }
        match state.advance_until(moves, &mut tee, false) {
            None | Some(Step::Over) => {
                deliver(bots, &mut tee.log);
                return state.outcome().copied();
            }
            Some(Step::Choice(seat, _)) => {
                deliver(bots, &mut tee.log);
                let m = ask(state, bots, rngs, moves, seat, all, None);
                state.play_unchecked(m, &mut tee);
            }
        }
    }
}

/// The round for strategies that read its record of decisions (inference from behaviour): the
/// general turn machine, a copy of the state kept at every decision, the tiles each seat lays
/// kept from the events. Every strategy's view carries the record.
fn play_round_recorded<S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
    until: u32,
    all: u16,
) -> Option<Outcome> {
    let mut history = History::default();
    loop {
        if state.turns() >= until {
            return state.outcome().copied();
        }
        match state.advance_until(moves, &mut Recording { inner: obs, history: &mut history }, false) {
            None | Some(Step::Over) => return state.outcome().copied(),
            Some(Step::Choice(seat, _)) => {
                let m = ask(state, bots, rngs, moves, seat, all, Some(&history));
                history.record(state, seat, m);
                state.play_unchecked(m, &mut Recording { inner: obs, history: &mut history });
            }
        }
    }
}

/// Passes events on and keeps a copy.
struct EventLog<'a, O: Observer> {
    inner: &'a mut O,
    log: Vec<Event>,
}

impl<O: Observer> Observer for EventLog<'_, O> {
    fn event(&mut self, ev: &Event) {
        self.inner.event(ev);
        self.log.push(*ev);
    }
}

/// The seed seat `s`'s strategy is told ([`MatchStart::seed`]): the one-way image of its stream
/// for a strategy that draws randomness of its own ([`Needs::rng`]), 0 for one that declares it
/// draws none (the image costs a ChaCha20 block, about 900 instructions, a quarter of a greedy
/// one-round game's overhead).
fn public_seed<S: Strategy>(bot: &S, seeds: &MatchSeeds, s: usize) -> u64 {
    if bot.needs().rng { seeds::bot_public(seeds.bots[s]) } else { 0 }
}

/// Before the first move: void inference off unless a strategy reads it (`voids`); every
/// strategy sees the table once.
fn start_round<S: Strategy>(state: &mut RoundState, bots: &mut [S], voids: bool) {
    let n = state.players() as usize;
    if !voids {
        state.set_void_tracking(false);
    }
    for (s, bot) in bots.iter_mut().enumerate().take(n) {
        bot.round_start(&state.view(Seat::from_index(s)));
    }
}

/// [`play_round`] on the general turn machine only, never the plain loop: the reference the
/// plain loop is tested against, and a way to measure what the plain loop gains.
#[doc(hidden)]
pub fn play_round_general<S: Strategy, O: Observer>(
    state: &mut RoundState,
    bots: &mut [S],
    rngs: &mut [GameRng],
    moves: &mut MoveList,
    obs: &mut O,
) -> Outcome {
    let needs = TableNeeds::of(bots, state.players() as usize);
    play_round_with::<false, _, _>(state, bots, rngs, moves, obs, false, u32::MAX, needs)
        .expect("a round without a turn limit ends")
}

/// The first player of round 1 (docs/rules.md §11), drawn from the deal stream when random.
fn first_seat(rules: &Rules, deal_rng: &mut GameRng) -> u8 {
    match rules.first_player {
        FirstPlayer::HighestPipDraw => return highest_pip_draw(rules, deal_rng),
        FirstPlayer::HolderOfTopDouble => return top_double_holder(rules, deal_rng),
        _ => {}
    }
    match rules.first_seat {
        FirstSeat::Seat(s) => s,
        FirstSeat::Random => below(deal_rng, rules.players as u64) as u8,
    }
}

/// first-player methods (docs/rules.md §9): every seat draws a tile from the shuffled set; the highest pip total starts;
/// tied seats draw again. The tiles go back before the deal.
fn highest_pip_draw(rules: &Rules, rng: &mut GameRng) -> u8 {
    let mut tiles: Vec<Tile> = Tile::canonical(rules.set).collect();
    let mut contenders: Vec<u8> = (0..rules.players).collect();
    loop {
        crate::rng::shuffle(rng, &mut tiles);
        let pips: Vec<u16> = (0..contenders.len()).map(|i| tiles[i].pips()).collect();
        let top = pips.iter().copied().max().unwrap_or(0);
        contenders = contenders.iter().zip(&pips).filter(|&(_, &p)| p == top).map(|(&s, _)| s).collect();
        if contenders.len() == 1 {
            return contenders[0];
        }
    }
}

/// first-player methods (docs/rules.md §9): the seat dealt the set's top double in a trial deal from the match stream starts
/// (seat 0 if the top double stays in the boneyard). The trial deal is not played.
fn top_double_holder(rules: &Rules, rng: &mut GameRng) -> u8 {
    let top = Tile::new(rules.set, rules.set);
    let trial = deal(rules, rules.set, false, rng);
    (0..rules.players).find(|&s| trial.hands[s as usize].contains(top)).unwrap_or(0)
}

/// The seeds of one match: the deal stream and each seat's strategy stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSeeds {
    /// The match seed reported to observers.
    pub seed: u64,
    /// Seed of the deal stream (shuffles, random first player).
    pub deal: u64,
    /// Seed of each seat's strategy stream.
    pub bots: [u64; MAX_PLAYERS],
    /// The game's number in its run, told to the strategies ([`MatchStart::game`]).
    pub game: u64,
}

impl MatchSeeds {
    /// The seeds of match seed `seed`: deals from `mix(seed, DEAL)`, seat `s` from
    /// `mix(seed, BOT + s)`.
    pub fn from_seed(seed: u64) -> MatchSeeds {
        MatchSeeds {
            seed,
            deal: seeds::shuffles(seed),
            bots: std::array::from_fn(|s| seeds::bot(seed, s as u64)),
            game: 0,
        }
    }
}

/// Plays a full match with match seed `seed` (see [`MatchSeeds::from_seed`]): the same seed
/// gives the same deals whatever the bots do. `rules` must be valid.
///
/// # Panics
/// Panics if `bots.len()` differs from `rules.players`.
pub fn play_match<S: Strategy, O: MatchObserver>(rules: &Rules, seed: u64, bots: &mut [S], obs: &mut O) -> MatchResult {
    play_match_seeded(rules, &MatchSeeds::from_seed(seed), bots, obs)
}

/// Plays a full match from explicit seeds.
///
/// # Panics
/// Panics if `bots.len()` differs from `rules.players`.
pub(crate) fn play_match_seeded<S: Strategy, O: MatchObserver>(
    rules: &Rules,
    seeds: &MatchSeeds,
    bots: &mut [S],
    obs: &mut O,
) -> MatchResult {
    let mut result = MatchResult::empty(rules.players);
    play_match_into(rules, seeds, bots, obs, &mut MoveList::new(), &mut result);
    result
}

/// [`play_match_seeded`] into buffers the caller keeps: a caller that plays many matches one
/// after another (the tournament runner, `mtrain bench`) sets up one move list (sized for the
/// largest table) and one result instead of a fresh pair for every match. The list's contents
/// on entry do not matter; `result` is overwritten.
///
/// # Panics
/// Panics if `bots.len()` differs from `rules.players`.
pub(crate) fn play_match_into<S: Strategy, O: MatchObserver>(
    rules: &Rules,
    seeds: &MatchSeeds,
    bots: &mut [S],
    obs: &mut O,
    moves: &mut MoveList,
    result: &mut MatchResult,
) {
    play_match_reusing(rules, seeds, bots, obs, moves, &mut None, result);
}

/// [`play_match_into`] with the round state kept in `state` from round to round and from match
/// to match (a runner keeps one per worker): each round is dealt into it in place
/// ([`RoundState::redeal`]), which spares building a deal and a round state and copying them.
/// The games are the same.
pub(crate) fn play_match_reusing<S: Strategy, O: MatchObserver>(
    rules: &Rules,
    seeds: &MatchSeeds,
    bots: &mut [S],
    obs: &mut O,
    moves: &mut MoveList,
    state: &mut Option<RoundState>,
    result: &mut MatchResult,
) {
    assert_eq!(bots.len(), rules.players as usize, "one strategy per seat");
    let n = rules.players as usize;
    let deal_rng = rng_from_seed(seeds.deal);
    // Only the seats at the table get a stream, and only a strategy that draws on it has it
    // seeded (a stream nobody reads changes nothing); such a strategy is also told its public
    // seed ([`public_seed`]), read from the same declaration.
    let unused = rng_from_seed(0);
    let mut rngs: [GameRng; MAX_PLAYERS] = std::array::from_fn(|_| unused.clone());
    obs.match_start(rules, seeds.seed);
    for (s, bot) in bots.iter_mut().enumerate() {
        let draws = bot.needs().rng;
        if draws {
            rngs[s] = rng_from_seed(seeds.bots[s]);
        }
        let seed = if draws { seeds::bot_public(seeds.bots[s]) } else { 0 };
        bot.match_start(&MatchStart { rules, seat: Seat::from_index(s), game: seeds.game, seed });
    }
    // What the seats read, declared once for the whole match (after `match_start`, where a
    // bot's parameters are settled).
    let needs = TableNeeds::of(bots, n);
    let plain = RoundState::rules_are_plain(rules);
    let mut flow = MatchFlow::new(rules, seeds.seed, deal_rng, result);
    // The round is dealt in place: a round state is large, and building and moving one per
    // round would cost the runner more than the flow's bookkeeping.
    while let Some(setup) = flow.next_setup(rules) {
        let state = match state {
            Some(s) => {
                s.redeal(rules, setup, &mut flow.deal_rng);
                s
            }
            None => state.insert(RoundState::with_setup(rules, &flow.deal(rules, &setup), setup)),
        };
        flow.redeal_while_needed(rules, &setup, state, obs);
        let outcome = play_round_with::<false, _, _>(state, bots, &mut rngs[..n], moves, obs, plain, u32::MAX, needs)
            .expect("a round without a turn limit ends");
        flow.end_round(state, outcome, result);
    }
    flow.finish(rules, result);
    obs.match_end(result);
}

/// A match between its rounds: the deal stream, the next round's number, the doubles used as
/// engines, the last round's first player and outcome. [`play_match_into`] and
/// [`MatchState`] both play a match through it, so a match stepped one decision at a time is
/// the match the runner plays.
#[derive(Clone, Debug)]
pub(crate) struct MatchFlow {
    deal_rng: GameRng,
    /// The match seed: each round's last-tile coins come from it ([`seeds::tap_round`]).
    seed: u64,
    /// The seat that leads round 1.
    f1: u8,
    /// The round to deal next (1-based).
    next: u8,
    used_doubles: u32,
    /// Where the rules have the seat that went out lead the next round
    /// ([`FirstPlayer::PreviousOut`]): that seat, once a round has ended.
    previous_out: Option<Seat>,
}

impl MatchFlow {
    /// A match about to deal its first round from the deal stream `deal_rng` (the first player
    /// drawn from it when the rules say so), with match seed `seed` (the last-tile coins of
    /// each round come from it); `result` is reset.
    pub fn new(rules: &Rules, seed: u64, mut deal_rng: GameRng, result: &mut MatchResult) -> MatchFlow {
        let f1 = first_seat(rules, &mut deal_rng);
        result.reset(rules.players);
        MatchFlow { deal_rng, seed, f1, next: 1, used_doubles: 0, previous_out: None }
    }

    /// The setup of the next round (its engine, how the engine is found, who leads and who
    /// plays first, the doubles used), which it then counts as begun; `None` once every round
    /// is played.
    pub(crate) fn next_setup(&mut self, rules: &Rules) -> Option<RoundSetup> {
        let r = self.next;
        if r > rules.round_count() {
            return None;
        }
        self.next += 1;
        let n = rules.players as usize;
        let e = rules.engine_of_round(r);
        let mode = if rules.set_aside_from_round2 && r >= 2 { EngineMode::SetAside } else { rules.engine_mode };
        let lead = Seat::from_index((self.f1 as usize + r as usize - 1) % n);
        let first = match (rules.first_player, self.previous_out) {
            (FirstPlayer::PreviousOut, Some(seat)) => seat,
            _ => lead,
        };
        Some(RoundSetup { e, engine_mode: mode, lead, first, used_doubles: self.used_doubles })
    }

    /// The number of the round begun last (1-based).
    pub fn round(&self) -> u8 {
        self.next - 1
    }

    /// A deal for the round `setup` describes, from the match's deal stream.
    pub fn deal(&mut self, rules: &Rules, setup: &RoundSetup) -> crate::deal::Deal {
        deal(rules, setup.e, setup.engine_mode == EngineMode::SetAside, &mut self.deal_rng)
    }

    /// Tells `obs` of the round `state` just dealt, and deals it again while the rules ask for
    /// it (Great Harbour Cay: nobody holds a tile showing the engine's number). The observer
    /// sees every deal, the redealt ones included (a log repeats the round). Then seeds the
    /// round's last-tile coins ([`seeds::tap_round`] of the match seed and the round's number).
    pub(crate) fn redeal_while_needed<O: MatchObserver>(
        &mut self,
        rules: &Rules,
        setup: &RoundSetup,
        state: &mut RoundState,
        obs: &mut O,
    ) {
        obs.round_start(self.round(), state);
        while state.needs_redeal() {
            state.redeal(rules, *setup, &mut self.deal_rng);
            obs.round_start(self.round(), state);
        }
        state.set_tap_seed(seeds::tap_round(self.seed, self.round()));
    }

    /// The next round, dealt (and redealt while the rules ask for it), told to `obs`; `None`
    /// once every round is played.
    pub(crate) fn next_round<O: MatchObserver>(&mut self, rules: &Rules, obs: &mut O) -> Option<RoundState> {
        let setup = self.next_setup(rules)?;
        let mut state = RoundState::with_setup(rules, &self.deal(rules, &setup), setup);
        self.redeal_while_needed(rules, &setup, &mut state, obs);
        Some(state)
    }

    /// Records the round `state` just ended as `outcome` in `result`.
    pub(crate) fn end_round(&mut self, state: &RoundState, outcome: Outcome, result: &mut MatchResult) {
        let r = self.round();
        let n = result.players as usize;
        let e = state.engine_number();
        let first = state.first();
        self.used_doubles |= 1 << e.get();
        if state.rules().first_player == FirstPlayer::PreviousOut {
            self.previous_out = Some(previous_out(&outcome, first, n));
        }
        for s in 0..n {
            let sc = outcome.scores[s];
            result.totals[s] += sc;
            if sc == 0 {
                result.zero_rounds[s] += 1;
            } else {
                result.min_nonzero[s] = result.min_nonzero[s].min(sc);
            }
        }
        result.records[r as usize - 1] = Some(RoundRecord { engine: e, first, outcome });
        result.rounds = r;
    }

    /// The places and winners of `result`, once every round is recorded.
    pub fn finish(&self, rules: &Rules, result: &mut MatchResult) {
        let n = rules.players as usize;
        result.places = places(rules.tie_break, n, &result.totals, &result.zero_rounds, &result.min_nonzero);
        // The winners are the seats in first place (`places` orders exactly as `winners` decides).
        result.winners = (0..n).filter(|&s| result.places[s] == 0).fold(0, |m, s| m | 1 << s);
    }
}

thread_local! {
    /// Each thread's scratch list for [`with_move_list`].
    static MOVE_SCRATCH: std::cell::RefCell<MoveList> = const { std::cell::RefCell::new(MoveList::new()) };
}

/// Runs `f` with a move list to generate into: the thread's scratch list, or, when that one is
/// in use (a bot that plays a match of its own while choosing, such as a Python bot driving a
/// `State`), a fresh one.
fn with_move_list<R>(f: impl FnOnce(&mut MoveList) -> R) -> R {
    MOVE_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut list) => f(&mut list),
        Err(_) => f(&mut Box::new(MoveList::new())),
    })
}

/// `bot`'s choice at the decision `st` holds (given the moves as the list a strategy takes).
fn choose_held<S: Strategy>(bot: &mut S, view: &crate::view::View<'_>, st: &MatchState, rng: &mut GameRng) -> usize {
    with_move_list(|list| {
        list.set_from(st.legal());
        bot.choose(view, list, rng)
    })
}

/// A match one decision at a time: the state an agent, a search or the Python `State` steps
/// through. Forced actions (draws, passes, markers, a turn with one legal move, the ends of
/// turns and rounds, the next deal) are applied as the engine applies them, so only real
/// choices are asked for, and a match stepped with the choices a bot makes is the match
/// [`play_match`] plays with that bot (a test drives both).
#[derive(Clone)]
pub struct MatchState {
    rules: Rules,
    seeds: MatchSeeds,
    flow: MatchFlow,
    /// The round in play; `None` once the match is over.
    round: Option<RoundState>,
    /// Its number (1-based).
    round_number: u8,
    /// The moves of the decision in hand, kept compactly: a decision offers a few dozen moves,
    /// while a [`MoveList`] holds the worst case (15 KB). The engine generates them into a
    /// scratch list ([`with_move_list`]) and the state keeps a copy, so that a state (one per
    /// game of a Python `VecEnv`, one per decision of a review) stays small.
    moves: Vec<Move>,
    result: MatchResult,
    /// The seat to choose, if any.
    to_act: Option<Seat>,
}

impl std::fmt::Debug for MatchState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchState")
            .field("seed", &self.seeds.seed)
            .field("round", &self.round_number)
            .field("to_act", &self.to_act)
            .field("totals", &&self.result.totals[..self.rules.players as usize])
            .finish_non_exhaustive()
    }
}

impl MatchState {
    /// A match of `rules` (valid) with match seed `seed`, at its first decision.
    pub fn new(rules: &Rules, seed: u64) -> MatchState {
        MatchState::seeded(rules, &MatchSeeds::from_seed(seed))
    }

    /// A match from explicit seeds, at its first decision.
    pub fn seeded(rules: &Rules, seeds: &MatchSeeds) -> MatchState {
        MatchState::seeded_with(rules, seeds, &mut NoObserver)
    }

    /// [`MatchState::seeded`], with `obs` seeing the first deal and the events up to the first
    /// decision.
    pub fn seeded_with<O: MatchObserver>(rules: &Rules, seeds: &MatchSeeds, obs: &mut O) -> MatchState {
        let mut result = MatchResult::empty(rules.players);
        let flow = MatchFlow::new(rules, seeds.seed, rng_from_seed(seeds.deal), &mut result);
        let mut st = MatchState {
            rules: rules.clone(),
            seeds: *seeds,
            flow,
            round: None,
            round_number: 0,
            moves: Vec::new(),
            result,
            to_act: None,
        };
        st.round = st.flow.next_round(&st.rules, obs);
        st.round_number = 1;
        st.settle(obs);
        st
    }

    /// Applies forced actions until a seat has a real choice or the match is over; `obs` sees
    /// every event and every deal.
    fn settle<O: MatchObserver>(&mut self, obs: &mut O) {
        with_move_list(|list| self.settle_with(list, obs));
    }

    fn settle_with<O: MatchObserver>(&mut self, list: &mut MoveList, obs: &mut O) {
        loop {
            let Some(state) = self.round.as_mut() else {
                self.to_act = None;
                self.moves.clear();
                return;
            };
            match state.advance(list, obs) {
                Step::Choice(seat, _) => {
                    self.hold(seat, list);
                    return;
                }
                Step::Over => {
                    let outcome = *state.outcome().expect("a round that is over has its outcome");
                    self.flow.end_round(state, outcome, &mut self.result);
                    self.round = self.flow.next_round(&self.rules, obs);
                    if self.round.is_some() {
                        self.round_number += 1;
                    } else {
                        self.flow.finish(&self.rules, &mut self.result);
                    }
                }
            }
        }
    }

    /// `seat` is to choose among `moves` (kept as a compact copy).
    fn hold(&mut self, seat: Seat, moves: &MoveList) {
        self.to_act = Some(seat);
        self.moves.clear();
        self.moves.extend_from_slice(moves);
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seeds.
    pub fn seeds(&self) -> &MatchSeeds {
        &self.seeds
    }

    /// The seat to choose now; `None` once the match is over.
    pub fn current(&self) -> Option<Seat> {
        self.to_act
    }

    /// The legal moves of the decision in hand, in the engine's order (empty once over).
    pub fn legal(&self) -> &[Move] {
        &self.moves
    }

    /// The round in play (`None` once the match is over).
    pub fn round(&self) -> Option<&RoundState> {
        self.round.as_ref()
    }

    /// The number of the round in play, or of the last one once the match is over.
    pub fn round_number(&self) -> u8 {
        self.round_number
    }

    /// What `seat` may know now, if a round is in play.
    pub fn view(&self, seat: Seat) -> Option<crate::view::View<'_>> {
        self.round.as_ref().map(|r| r.view(seat))
    }

    /// The rounds played so far and their totals; once the match is over, its places and
    /// winners too.
    pub fn result(&self) -> &MatchResult {
        &self.result
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.round.is_none()
    }

    /// A full state consistent with everything `seat` has seen: the hidden hands and boneyard
    /// of the round in play redrawn by the engine's determinization (the worlds the search bots
    /// sample), and the later rounds' deals and last-tile coins redrawn, all from `seed`. Any seat
    /// may resample: when another seat is to act, its hand (and a tile it just drew) is hidden
    /// and redrawn too, among the hands that leave it a real choice, so it is still to act with
    /// the legal moves of its redrawn hand (see `round::determinize`). `None` once the match is
    /// over.
    pub fn resampled(&self, seat: Seat, seed: u64) -> Option<MatchState> {
        let round = self.round.as_ref()?;
        let mut rng = rng_from_seed(seeds::resample_world(seed));
        let world = round.view(seat).sample_world(&mut rng)?;
        let mut st = self.clone();
        st.round = Some(world);
        st.flow.deal_rng = rng_from_seed(seeds::resample_deals(seed));
        // The later rounds' last-tile coins are as hidden as their deals.
        st.flow.seed = seeds::resample_coins(seed);
        st.settle(&mut NoObserver);
        Some(st)
    }

    /// Plays move `i` of [`MatchState::legal`], then the forced actions after it.
    ///
    /// # Panics
    /// Panics when the match is over or `i` is not a legal move's index.
    pub fn apply(&mut self, i: usize) {
        self.apply_observed(i, &mut NoObserver);
    }

    /// [`MatchState::apply`], with `obs` seeing the events and any new deal.
    ///
    /// # Panics
    /// As [`MatchState::apply`].
    pub fn apply_observed<O: MatchObserver>(&mut self, i: usize, obs: &mut O) {
        assert!(i < self.moves.len(), "move {i} of {} legal moves", self.moves.len());
        let m = self.moves[i];
        self.round.as_mut().expect("a decision in hand means a round in play").play_unchecked(m, obs);
        self.settle(obs);
    }
}

/// Bots in some seats of a stepped match (the opponents of an agent learning against the
/// built-ins): they are told of the match and of every deal as [`play_match`] tells them, and
/// [`BotSeats::play`] makes their choices until a seat without a bot is to act. With a bot in
/// every seat, the match is the one [`play_match`] plays (a test checks it).
pub struct BotSeats<S: Strategy> {
    bots: Vec<Option<S>>,
    rngs: Vec<GameRng>,
    /// The seats whose bot sees every hand, as a mask.
    all: u16,
    /// Whether [`BotSeats::play`] and [`BotSeats::apply`] may play the bots' whole turns on the
    /// plain loop (where a round's rules allow it): no bot reads events or the record of
    /// decisions, which the loop does not keep (the round runner decides the same way).
    plain: bool,
    /// The seats whose pick the plain loop may make itself ([`Needs::heaviest_first`]).
    heavy: u16,
    /// Whether a bot reads void records ([`Needs::voids`]).
    bots_read_voids: bool,
    /// Whether the seats without a bot may read them (until [`BotSeats::outside_reads_no_voids`]).
    outside_reads_voids: bool,
}

impl<S: Strategy> BotSeats<S> {
    /// Deals the match of `seeds` under `rules` with `bots` (one entry per seat; `None`: a seat
    /// someone else plays), which hear of the match and its first deal; returns them with the
    /// match at its first decision (which may be a bot's).
    ///
    /// # Panics
    /// Panics if `bots` has not one entry per seat.
    pub fn deal(rules: &Rules, seeds: &MatchSeeds, bots: Vec<Option<S>>) -> (BotSeats<S>, MatchState) {
        assert_eq!(bots.len(), rules.players as usize, "one entry per seat");
        let mut seats = BotSeats::told(rules, seeds, bots);
        let st = MatchState::seeded_with(rules, seeds, &mut seats);
        (seats, st)
    }

    /// [`BotSeats::deal`], with `obs` told of the match (`match_start`) and seeing the first
    /// deal and every event up to the first decision: a game log of a stepped match
    /// ([`crate::log::JsonLog`]) is the log [`play_match`] writes.
    ///
    /// # Panics
    /// As [`BotSeats::deal`].
    pub fn deal_observed<O: MatchObserver>(
        rules: &Rules,
        seeds: &MatchSeeds,
        bots: Vec<Option<S>>,
        obs: &mut O,
    ) -> (BotSeats<S>, MatchState) {
        assert_eq!(bots.len(), rules.players as usize, "one entry per seat");
        obs.match_start(rules, seeds.seed);
        let mut seats = BotSeats::told(rules, seeds, bots);
        let st = MatchState::seeded_with(rules, seeds, &mut Both(&mut seats, obs));
        (seats, st)
    }

    /// The bots told of the match, with their streams.
    fn told(rules: &Rules, seeds: &MatchSeeds, mut bots: Vec<Option<S>>) -> BotSeats<S> {
        for (s, bot) in bots.iter_mut().enumerate() {
            if let Some(b) = bot {
                let seat = Seat::from_index(s);
                let seed = public_seed(b, seeds, s);
                b.match_start(&MatchStart { rules, seat, game: seeds.game, seed });
            }
        }
        let rngs = (0..bots.len()).map(|s| rng_from_seed(seeds.bots[s])).collect();
        let (mut all, mut plain, mut heavy, mut voids) = (0, true, 0, false);
        for (s, b) in bots.iter().enumerate() {
            if let Some(b) = b {
                let needs = b.needs();
                all |= u16::from(needs.hidden) << s;
                heavy |= u16::from(needs.heaviest_first) << s;
                plain &= !needs.events && !needs.history;
                voids |= needs.voids;
            }
        }
        let outside = bots.iter().any(Option::is_none);
        BotSeats { bots, rngs, all, plain, heavy, bots_read_voids: voids, outside_reads_voids: outside }
    }

    /// Says that the seats without a bot read no void records (a learner shown the observation
    /// tensor, which has none): unless a bot reads them, the round in play `st` and the later
    /// ones played by [`BotSeats::play`] and [`BotSeats::apply`] on the plain loop keep none,
    /// which saves their bookkeeping. The game is the same: the records only inform.
    pub fn outside_reads_no_voids(&mut self, st: &mut MatchState) {
        self.outside_reads_voids = false;
        self.keep_voids(st);
    }

    /// Turns the round's void records off where nobody reads them.
    fn keep_voids(&self, st: &mut MatchState) {
        if !self.bots_read_voids
            && !self.outside_reads_voids
            && let Some(round) = st.round.as_mut()
        {
            round.set_void_tracking(false);
        }
    }

    /// These seats with the bots' turns always played on the general turn machine, never the
    /// plain loop: the reference the plain loop is tested against.
    #[doc(hidden)]
    pub fn general_only(mut self) -> BotSeats<S> {
        self.plain = false;
        self
    }

    /// [`MatchState::settle`] with each bot's whole turn played on the plain loop where the
    /// round's rules allow it (the same game: the loop is held to the general machine by the
    /// plain-path tests): stops where a seat has a real choice outside the loop (a seat without
    /// a bot, or a bot in a turn the general machine began) or the match is over.
    fn settle_plain(&mut self, st: &mut MatchState) {
        with_move_list(|list| self.settle_plain_with(st, list));
    }

    fn settle_plain_with(&mut self, st: &mut MatchState, list: &mut MoveList) {
        loop {
            let Some(round) = st.round.as_mut() else {
                st.to_act = None;
                st.moves.clear();
                return;
            };
            // Under plain rules, stop at the next turn boundary: the plain loop plays every
            // seat's turns from there, the bots' choices made in the loop and a seat without a
            // bot stopping it at its first real choice (a turn it cannot choose in, it plays
            // through). Otherwise the general machine runs to a choice.
            let stop_at = if round.plain_rules() { u16::MAX } else { 0 };
            match round.advance_until_seats(list, &mut NoObserver, stop_at) {
                None => {
                    let (bots, rngs, all) = (&mut self.bots, &mut self.rngs, self.all);
                    round.play_plain::<false, _>(list, &mut NoObserver, 0, self.heavy, |rs, seat, moves| {
                        let Some(bot) = bots[seat.index()].as_mut() else { return STOP };
                        let v = rs.view_as(seat, all & seat.bit() != 0);
                        bot.choose(&v, moves, &mut rngs[seat.index()])
                    });
                    if round.at_choice() {
                        // The loop stopped at the choice of a seat without a bot: `list` holds
                        // its moves, the state is where the general machine would stand.
                        let seat = round.current();
                        st.hold(seat, list);
                        return;
                    }
                }
                Some(Step::Choice(seat, _)) => {
                    st.hold(seat, list);
                    return;
                }
                Some(Step::Over) => {
                    let outcome = *round.outcome().expect("a round that is over has its outcome");
                    st.flow.end_round(round, outcome, &mut st.result);
                    st.round = st.flow.next_round(&st.rules, self);
                    if st.round.is_some() {
                        st.round_number += 1;
                        self.keep_voids(st);
                    } else {
                        st.flow.finish(&st.rules, &mut st.result);
                    }
                }
            }
        }
    }

    /// Plays one bot's choice if a bot is to act (`obs` seeing its events and any new deal);
    /// returns whether it did.
    pub fn step_observed<O: MatchObserver>(&mut self, st: &mut MatchState, obs: &mut O) -> bool {
        let Some(seat) = st.current() else { return false };
        let s = seat.index();
        let Some(bot) = self.bots[s].as_mut() else { return false };
        let i = {
            let round = st.round.as_ref().expect("a seat to act means a round in play");
            let view = round.view_as(seat, self.all & seat.bit() != 0);
            choose_held(bot, &view, st, &mut self.rngs[s])
        };
        st.apply_observed(i, &mut Both(self, obs));
        true
    }

    /// [`BotSeats::apply`], with `obs` seeing the events and any new deal.
    pub fn apply_observed<O: MatchObserver>(&mut self, st: &mut MatchState, i: usize, obs: &mut O) {
        st.apply_observed(i, &mut Both(self, obs));
    }

    /// Whether `seat` is a bot's.
    pub fn is_bot(&self, seat: Seat) -> bool {
        self.bots.get(seat.index()).is_some_and(Option::is_some)
    }

    /// Plays the bots' choices until a seat without a bot is to act or the match is over. Where
    /// the rules allow it and no bot reads events, the bots' whole turns are played on the
    /// plain loop (the same game, faster).
    pub fn play(&mut self, st: &mut MatchState) {
        while let Some(seat) = st.current() {
            let s = seat.index();
            let Some(bot) = self.bots[s].as_mut() else { return };
            let i = {
                let round = st.round.as_ref().expect("a seat to act means a round in play");
                let view = round.view_as(seat, self.all & seat.bit() != 0);
                choose_held(bot, &view, st, &mut self.rngs[s])
            };
            self.apply(st, i);
        }
    }

    /// Plays move `i` for the seat to act (one without a bot), the bots hearing of any new deal;
    /// the forced actions after it are applied, and, as in [`BotSeats::play`], the bots' whole
    /// turns may be played on the plain loop, so a bot may be left to choose: call
    /// [`BotSeats::play`] next.
    ///
    /// # Panics
    /// As [`MatchState::apply`].
    pub fn apply(&mut self, st: &mut MatchState, i: usize) {
        if !self.plain {
            st.apply_observed(i, self);
            return;
        }
        assert!(i < st.moves.len(), "move {i} of {} legal moves", st.moves.len());
        let m = st.moves[i];
        // The built-in bots read the table, not the events (`Observer for BotSeats`).
        st.round.as_mut().expect("a decision in hand means a round in play").play_unchecked(m, &mut NoObserver);
        self.settle_plain(st);
    }
}

/// The bots' seats and another observer, both told of every deal and event.
struct Both<'a, S: Strategy, O: MatchObserver>(&'a mut BotSeats<S>, &'a mut O);

impl<S: Strategy, O: MatchObserver> Observer for Both<'_, S, O> {
    fn event(&mut self, ev: &Event) {
        self.0.event(ev);
        self.1.event(ev);
    }
}

impl<S: Strategy, O: MatchObserver> MatchObserver for Both<'_, S, O> {
    fn round_start(&mut self, round: u8, state: &RoundState) {
        self.0.round_start(round, state);
        self.1.round_start(round, state);
    }
}

impl<S: Strategy> Observer for BotSeats<S> {
    /// The built-in bots read the table, not the events.
    fn event(&mut self, _ev: &Event) {}
}

impl<S: Strategy> MatchObserver for BotSeats<S> {
    fn round_start(&mut self, _round: u8, state: &RoundState) {
        for (s, bot) in self.bots.iter_mut().enumerate() {
            if let Some(b) = bot {
                b.round_start(&state.view(Seat::from_index(s)));
            }
        }
    }
}

/// A fixed numbering of every move a match of one configuration (rules, set, table size) can
/// offer, for learners and the Python `State`: a tile on a train target (each seat's personal
/// train, then each Mexican train the rules allow, then the branch slots under branching
/// doubles), laid either way under blanks wild, then `stop`, `bullet` and `skip`. Actions are
/// numbered `((tile * targets) + target) * ways + turned`, the tile by its triangular index,
/// then the three non-placements: the same move always has the same number, whatever the deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    tiles: usize,
    players: usize,
    mexican: usize,
    branches: usize,
    ways: usize,
    /// Each train slot's target number, `NO_TARGET` for a slot these rules never offer: what
    /// `encode` reads for a placement instead of testing which kind of train it is.
    target: [u8; ALL_TRAIN_SLOTS],
}

/// In [`ActionSpace`]'s table, a train slot that is no target.
const NO_TARGET: u8 = u8::MAX;

impl ActionSpace {
    /// The actions of matches under `rules`.
    pub fn new(rules: &Rules) -> ActionSpace {
        let (players, mexican) = (rules.players as usize, rules.max_mexican_trains as usize);
        let branches =
            if rules.branching_doubles == crate::rules::BranchingDoubles::Off { 0 } else { crate::round::MAX_BRANCHES };
        // Personal trains, then the Mexican trains, then the branches, as the numbering says.
        let mut target = [NO_TARGET; ALL_TRAIN_SLOTS];
        let slots = (0..players)
            .map(|s| TrainId::personal(Seat::from_index(s)))
            .chain((0..mexican).map(TrainId::mexican))
            .chain((0..branches).map(TrainId::branch));
        for (k, t) in slots.enumerate() {
            target[t.index()] = k as u8;
        }
        ActionSpace {
            tiles: Tile::set_size(rules.set),
            players,
            mexican,
            branches,
            ways: if rules.blanks_wild { 2 } else { 1 },
            target,
        }
    }

    fn targets(&self) -> usize {
        self.players + self.mexican + self.branches
    }

    fn placements(&self) -> usize {
        self.tiles * self.targets() * self.ways
    }

    /// How many actions there are.
    pub fn len(&self) -> usize {
        self.placements() + 3
    }

    /// Never: there are always the three non-placements.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The number of move `m` (`None` for a move this configuration never offers).
    pub fn encode(&self, m: Move) -> Option<usize> {
        let p = match m.kind() {
            MoveKind::Stop => return Some(self.placements()),
            MoveKind::Bullet => return Some(self.placements() + 1),
            MoveKind::Skip => return Some(self.placements() + 2),
            MoveKind::Place(p) => p,
        };
        let target = self.target.get(p.train.index()).copied().unwrap_or(NO_TARGET);
        let turned = usize::from(p.turned);
        (target != NO_TARGET && p.tile.index() < self.tiles && turned < self.ways)
            .then(|| (p.tile.index() * self.targets() + usize::from(target)) * self.ways + turned)
    }

    /// The move numbered `a` (`None` past the last action).
    pub fn decode(&self, a: usize) -> Option<Move> {
        let base = self.placements();
        match a.checked_sub(base) {
            Some(0) => return Some(Move::STOP),
            Some(1) => return Some(Move::BULLET),
            Some(2) => return Some(Move::SKIP),
            Some(_) => return None,
            None => {}
        }
        let (rest, turned) = (a / self.ways, a % self.ways == 1);
        let (tile, target) = (rest / self.targets(), rest % self.targets());
        let tile = Tile::from_index(tile)?;
        let train = if target < self.players {
            TrainId::personal(Seat::from_index(target))
        } else if target < self.players + self.mexican {
            TrainId::mexican(target - self.players)
        } else {
            TrainId::branch(target - self.players - self.mexican)
        };
        Some(if turned { Move::place_turned(tile, train) } else { Move::place(tile, train) })
    }
}

/// A fixed-size numeric observation of one seat's view, for learners (the Python
/// `State.observation_tensor`, the environments). Every figure is what that seat may know,
/// scaled to 0..1, in this order (docs/python.md has the table):
///
/// 1. its hand: one per tile of the set (1: held), the tile by its triangular index;
/// 2. the tiles on the table (the engine and every train): one per tile;
/// 3. each train target (each seat's personal train, then each Mexican train the rules
///    allow): whether it has a tile, the value it is open to one-hot over the set's values
///    (the engine's for an empty train), whether it ends in an open double, whether it is
///    marked public;
/// 4. each seat's hand size over the set's size, then the boneyard's;
/// 5. the seat observing, one-hot; the seat to act, one-hot (none once the round is over);
/// 6. the round over the match's rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationLayout {
    tiles: usize,
    values: usize,
    players: usize,
    mexican: usize,
    rounds: u8,
}

impl ObservationLayout {
    /// The layout of matches under `rules`.
    pub fn new(rules: &Rules) -> ObservationLayout {
        ObservationLayout {
            tiles: Tile::set_size(rules.set),
            values: rules.set.index() + 1,
            players: rules.players as usize,
            mexican: rules.max_mexican_trains as usize,
            rounds: rules.round_count(),
        }
    }

    fn per_train(&self) -> usize {
        self.values + 3
    }

    /// Numbers in an observation.
    pub fn len(&self) -> usize {
        2 * self.tiles + (self.players + self.mexican) * self.per_train() + self.players + 1 + 2 * self.players + 1
    }

    /// Never: every layout has the hand.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes what `view`'s seat knows in round `round` into `out` (of [`ObservationLayout::len`]
    /// numbers; overwritten), with `to_act` the seat to act.
    ///
    /// # Panics
    /// Panics if `out` is not [`ObservationLayout::len`] long.
    pub fn write(&self, view: &crate::view::View<'_>, round: u8, to_act: Option<Seat>, out: &mut [f32]) {
        assert_eq!(out.len(), self.len(), "an observation of {} numbers", self.len());
        let tiles = self.tiles;
        out[..2 * tiles].fill(0.0);
        for t in view.hand().iter() {
            out[t.index()] = 1.0;
        }
        for t in view.played().iter() {
            out[tiles + t.index()] = 1.0;
        }
        self.write_rest(view, round, to_act, &mut out[2 * tiles..]);
    }

    /// [`ObservationLayout::write`] into a buffer that holds the observation `shown` records (the
    /// same seat's, written by this layout): the two tile blocks are rewritten only where a tile
    /// changed, the rest (about a hundred numbers) number by number without clearing it first
    /// (a train's open end and the seat to act moved where they changed); `shown` is brought up
    /// to date. With `shown` fresh ([`Shown::default`]) it writes everything. The result is what
    /// `write` writes (a test holds them equal over whole matches).
    ///
    /// # Panics
    /// As [`ObservationLayout::write`].
    pub fn write_changes(
        &self,
        view: &crate::view::View<'_>,
        round: u8,
        to_act: Option<Seat>,
        out: &mut [f32],
        shown: &mut Shown,
    ) {
        // A fresh buffer, or a new round (the table cleared, the hand dealt afresh: most of
        // both blocks changed), is written whole.
        if !shown.valid || view.played().len() < shown.played.len() {
            self.write(view, round, to_act, out);
            for k in 0..self.players + self.mexican {
                shown.ends[k] = self.end_index(view.train(self.train_id(k)));
            }
            shown.valid = true;
        } else {
            assert_eq!(out.len(), self.len(), "an observation of {} numbers", self.len());
            let (hand, rest) = out.split_at_mut(self.tiles);
            let (played, rest) = rest.split_at_mut(self.tiles);
            let max = Pip::from_u8(self.values as u8 - 1);
            shown.hand.for_each_change(view.hand(), max, |t, now| hand[t.index()] = f32::from(u8::from(now)));
            shown.played.for_each_change(view.played(), max, |t, now| played[t.index()] = f32::from(u8::from(now)));
            self.write_rest_changes(view, round, to_act, rest, shown);
        }
        // Each set on its own: the two as one struct were copied by a call to `memcpy`.
        shown.hand = *view.hand();
        shown.played = *view.played();
        shown.to_act = to_act;
    }

    /// The train of slot `k` of part 3: the seats' trains, then the Mexican trains.
    fn train_id(&self, k: usize) -> TrainId {
        if k < self.players { TrainId::personal(Seat::from_index(k)) } else { TrainId::mexican(k - self.players) }
    }

    /// The open end's place in a train's slot (after its "started" number).
    fn end_index(&self, t: &crate::round::Train) -> u8 {
        t.end.index().min(self.values - 1) as u8
    }

    /// [`ObservationLayout::write_rest`] over what it wrote for `shown`: every number set again
    /// without clearing the part first, the one-hot open ends and seat to act moved where they
    /// changed (`shown` keeps where they were), the observing seat (the same) left as it is.
    fn write_rest_changes(
        &self,
        view: &crate::view::View<'_>,
        round: u8,
        to_act: Option<Seat>,
        out: &mut [f32],
        shown: &mut Shown,
    ) {
        let values = self.values;
        let at = (self.players + self.mexican) * self.per_train();
        let (trains, out) = out.split_at_mut(at);
        for (k, slot) in trains.chunks_exact_mut(self.per_train()).enumerate() {
            let id = self.train_id(k);
            let t = view.train(id);
            slot[0] = f32::from(u8::from(t.len > 0));
            // Cleared and set again even where the end did not move: a test of whether it moved
            // is a branch the processor cannot predict (the ends move at random).
            let end = self.end_index(t);
            slot[1 + usize::from(shown.ends[k])] = 0.0;
            slot[1 + usize::from(end)] = 1.0;
            shown.ends[k] = end;
            slot[1 + values] = f32::from(u8::from(t.open_double));
            slot[2 + values] = f32::from(u8::from(k < self.players && view.is_marked(Seat::from_index(k))));
        }
        let scale = self.tiles as f32;
        for (s, x) in out[..self.players].iter_mut().enumerate() {
            *x = view.hand_size(Seat::from_index(s)) as f32 / scale;
        }
        out[self.players] = view.boneyard_len() as f32 / scale;
        let at = 1 + 2 * self.players;
        if shown.to_act != to_act {
            if let Some(p) = shown.to_act {
                out[at + p.index()] = 0.0;
            }
            if let Some(p) = to_act {
                out[at + p.index()] = 1.0;
            }
        }
        out[at + self.players] = f32::from(round) / f32::from(self.rounds.max(1));
    }

    /// Everything after the two tile blocks (parts 3 to 6), into `out` (overwritten).
    fn write_rest(&self, view: &crate::view::View<'_>, round: u8, to_act: Option<Seat>, out: &mut [f32]) {
        out.fill(0.0);
        let values = self.values;
        let at = (self.players + self.mexican) * self.per_train();
        let (trains, out) = out.split_at_mut(at);
        for (k, slot) in trains.chunks_exact_mut(self.per_train()).enumerate() {
            let (id, marked) = if k < self.players {
                let s = Seat::from_index(k);
                (TrainId::personal(s), view.is_marked(s))
            } else {
                (TrainId::mexican(k - self.players), false)
            };
            let t = view.train(id);
            slot[0] = f32::from(u8::from(t.len > 0));
            slot[1 + t.end.index().min(values - 1)] = 1.0;
            slot[1 + values] = f32::from(u8::from(t.open_double));
            slot[2 + values] = f32::from(u8::from(marked));
        }
        let mut at = 0;
        let scale = self.tiles as f32;
        for s in 0..self.players {
            out[at + s] = view.hand_size(Seat::from_index(s)) as f32 / scale;
        }
        at += self.players;
        out[at] = view.boneyard_len() as f32 / scale;
        at += 1;
        out[at + view.seat().index()] = 1.0;
        at += self.players;
        if let Some(p) = to_act {
            out[at + p.index()] = 1.0;
        }
        at += self.players;
        out[at] = f32::from(round) / f32::from(self.rounds.max(1));
    }
}

/// What an observation buffer shows of its two tile blocks (the seat's hand and the tiles on the
/// table), for [`ObservationLayout::write_changes`]; [`Shown::default`]: nothing known, the next
/// write is whole.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shown {
    hand: crate::tile_set::TileSet,
    played: crate::tile_set::TileSet,
    /// Each train slot's open end, as [`ObservationLayout::end_index`] places it.
    ends: [u8; crate::round::TRAIN_SLOTS],
    /// The seat shown to act.
    to_act: Option<Seat>,
    valid: bool,
}

impl Shown {
    /// Whether nothing is known of the buffer (the next write is whole).
    pub fn is_blank(&self) -> bool {
        !self.valid
    }
}

/// an edge case of docs/rules.md §11: the seat that went out; after a blocked round the lowest round score, ties to the
/// first such seat clockwise from the previous round's first player (that seat included).
fn previous_out(prev: &Outcome, prev_first: Seat, n: usize) -> Seat {
    if let EndReason::Out(s) = prev.reason {
        return s;
    }
    let low = prev.scores[..n].iter().copied().min().unwrap_or(0);
    (0..n)
        .map(|k| Seat::from_index((prev_first.index() + k) % n))
        .find(|s| prev.scores[s.index()] == low)
        .unwrap_or(prev_first)
}

/// The winners' seat mask: lowest total; ties per the tie-break rule (P-38).
#[doc(hidden)] // for the integration tests
pub fn winners(tie: TieBreak, n: usize, totals: &[u32], zero_rounds: &[u8], min_nonzero: &[u32]) -> u16 {
    let best = totals[..n].iter().copied().min().unwrap_or(0);
    let mut mask: u16 = (0..n).filter(|&s| totals[s] == best).fold(0, |m, s| m | 1 << s);
    if tie == TieBreak::Wikipedia && mask.count_ones() > 1 {
        let in_mask = |s: usize| mask & (1 << s) != 0;
        let most_zero = (0..n).filter(|&s| in_mask(s)).map(|s| zero_rounds[s]).max().unwrap_or(0);
        mask = (0..n).filter(|&s| in_mask(s) && zero_rounds[s] == most_zero).fold(0, |m, s| m | 1 << s);
        let in_mask = |s: usize| mask & (1 << s) != 0;
        let lowest = (0..n).filter(|&s| in_mask(s)).map(|s| min_nonzero[s]).min().unwrap_or(u32::MAX);
        mask = (0..n).filter(|&s| in_mask(s) && min_nonzero[s] == lowest).fold(0, |m, s| m | 1 << s);
    }
    mask
}

/// Each seat's finishing place (0 = first): the seats strictly ahead of it, ordering by the
/// lower total and then by the tie-break rule, so that place 0 is exactly [`winners`]. This is
/// the one order every statistic uses (win share, ranks, head-to-head, the SPRT).
#[doc(hidden)] // for the integration tests
pub fn places(tie: TieBreak, n: usize, totals: &[u32], zero_rounds: &[u8], min_nonzero: &[u32]) -> [u8; MAX_PLAYERS] {
    // Smaller key = further ahead: the lower total, then more zero rounds, then the lower
    // lowest non-zero round (the tuple's order: total and zero rounds in one integer).
    let mut keys = [(0u64, 0u32); MAX_PLAYERS];
    let keys = &mut keys[..n];
    for (s, k) in keys.iter_mut().enumerate() {
        *k = match tie {
            TieBreak::CoWinners => (u64::from(totals[s]), 0),
            TieBreak::Wikipedia => (u64::from(totals[s]) << 8 | u64::from(u8::MAX - zero_rounds[s]), min_nonzero[s]),
        };
    }
    let mut out = [0u8; MAX_PLAYERS];
    for (place, &key) in out.iter_mut().zip(keys.iter()) {
        for &k in keys.iter() {
            *place += u8::from(k < key);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strategy that declares `needs` and counts, at each of its decisions, whether its view
    /// carries the round's record of decisions and how many the record holds.
    #[derive(Clone)]
    struct Reader {
        needs: Needs,
        /// Per decision: the record's size, `None` when the view has none.
        seen: Vec<Option<usize>>,
    }

    impl Strategy for Reader {
        fn choose(&mut self, view: &crate::View<'_>, _moves: &MoveList, _rng: &mut GameRng) -> usize {
            self.seen.push(view.history().map(crate::round::History::decisions));
            0
        }

        fn needs(&self) -> Needs {
            self.needs
        }
    }

    /// A strategy that declares `history` through its one `needs` value gets the round's record
    /// in every view, growing as the round goes; one that does not, never (the other seat of
    /// the table declares nothing).
    #[test]
    fn the_record_of_decisions_goes_to_a_strategy_that_declares_it() {
        let rules = Rules { players: 2, ..Rules::wikipedia() };
        let round = |needs: Needs| {
            let mut bots = vec![Reader { needs, seen: Vec::new() }, Reader { needs: Needs::NOTHING, seen: Vec::new() }];
            play_match(&rules, 3, &mut bots, &mut crate::NoObserver);
            bots.into_iter().map(|b| b.seen).collect::<Vec<_>>()
        };
        let with = round(Needs::NOTHING.history(true));
        assert!(with[0].len() > 20, "{} decisions", with[0].len());
        // Every view of the table carries the record once a seat reads it.
        assert!(with.iter().flatten().all(Option::is_some));
        let sizes: Vec<usize> = with[0].iter().flatten().copied().collect();
        assert!(sizes.iter().any(|&n| n > 10), "{sizes:?}");
        let without = round(Needs::SAFE);
        assert!(without.iter().flatten().all(Option::is_none));
        assert_eq!(without[0].len(), with[0].len(), "the same decisions asked");
    }

    /// A match seeds each round's last-tile coins from its seed and the round's number; a
    /// match resampled for one seat plays the later rounds with coins of its own.
    #[test]
    fn last_tile_coins_come_from_the_match_seed_and_stay_hidden_in_a_resample() {
        let mut rules = Rules { rounds: Some(3), ..Rules::wikipedia() };
        rules.apply_rules(&["tap=draw_two", "tap_forget=0.5"]).unwrap();
        let st = MatchState::new(&rules, 77);
        assert_eq!(st.round.as_ref().unwrap().tap_seed_for_tests(), seeds::tap_round(77, 1));
        assert_eq!(st.flow.seed, 77);
        let seat = st.to_act.unwrap();
        let world = st.resampled(seat, 5).unwrap();
        assert_eq!(world.flow.seed, seeds::resample_coins(5));
        assert_ne!(world.round.as_ref().unwrap().tap_seed_for_tests(), seeds::tap_round(77, 1));
    }

    /// A round state dealt again in place is, field for field, the one `with_setup` builds from
    /// the same deal stream, whatever the state held before: a played-out round of another
    /// preset and table size, so seats past the new table must be emptied.
    #[test]
    fn a_round_dealt_in_place_is_the_round_built_afresh() {
        let mut held: Option<RoundState> = None;
        let mut checked = 0;
        for (i, info) in crate::rules::PRESETS.iter().enumerate() {
            for players in [6u8, 2, 4, 3] {
                let rules = Rules { players, ..Rules::preset(info.name).unwrap() };
                let flow_rng = rng_from_seed(crate::rng::mix(40, i as u64 * 8 + u64::from(players)));
                let mut result = MatchResult::empty(players);
                let mut flow = MatchFlow::new(&rules, 40, flow_rng, &mut result);
                for _ in 0..3 {
                    let setup = flow.next_setup(&rules).unwrap();
                    let before = flow.deal_rng.clone();
                    let fresh = RoundState::with_setup(&rules, &flow.deal(&rules, &setup), setup);
                    let state = match &mut held {
                        Some(s) => {
                            let mut rng = before;
                            s.redeal(&rules, setup, &mut rng);
                            assert_eq!(rng, flow.deal_rng, "the same draws from the deal stream");
                            s
                        }
                        None => held.insert(fresh.clone()),
                    };
                    assert_eq!(format!("{state:?}"), format!("{fresh:?}"), "{} {players}p", info.name);
                    checked += 1;
                    // Play it out, so the next deal lands on a used state.
                    let mut bots = vec![crate::strategies::Bot::parse("greedy").unwrap(); players as usize];
                    let mut rngs = vec![rng_from_seed(1); players as usize];
                    let outcome = play_round(state, &mut bots, &mut rngs, &mut MoveList::new(), &mut NoObserver);
                    flow.end_round(state, outcome, &mut result);
                }
            }
        }
        assert_eq!(checked, 5 * 4 * 3);
    }

    #[test]
    fn wikipedia_tie_break() {
        // Seats 0 and 1 tie on 30; seat 1 has more zero rounds.
        let m = winners(TieBreak::Wikipedia, 3, &[30, 30, 40], &[1, 2, 0], &[5, 10, 3]);
        assert_eq!(m, 0b010);
        // Equal zero rounds: lower minimum non-zero round wins.
        let m = winners(TieBreak::Wikipedia, 3, &[30, 30, 40], &[1, 1, 0], &[5, 10, 3]);
        assert_eq!(m, 0b001);
        // Still tied: co-winners.
        let m = winners(TieBreak::Wikipedia, 3, &[30, 30, 40], &[1, 1, 0], &[5, 5, 3]);
        assert_eq!(m, 0b011);
        // Co-winners rule keeps every tied seat.
        let m = winners(TieBreak::CoWinners, 3, &[30, 30, 40], &[1, 2, 0], &[5, 10, 3]);
        assert_eq!(m, 0b011);
    }

    #[test]
    fn places_follow_the_tie_break_and_agree_with_the_winners() {
        let (totals, zeros, mins) = ([30, 30, 40, 40, 20], [1, 2, 0, 0, 0], [5, 10, 3, 3, 7]);
        let p = places(TieBreak::Wikipedia, 5, &totals, &zeros, &mins);
        // Seat 4 leads on total; seat 1 beats seat 0 on zero rounds; seats 2 and 3 stay level.
        assert_eq!(p[..5], [2, 1, 3, 3, 0]);
        let p = places(TieBreak::CoWinners, 5, &totals, &zeros, &mins);
        assert_eq!(p[..5], [1, 1, 3, 3, 0]);
        let (totals, zeros, mins) = ([30, 30, 40], [1, 1, 0], [5, 5, 3]);
        for tie in [TieBreak::Wikipedia, TieBreak::CoWinners] {
            let p = places(tie, 3, &totals, &zeros, &mins);
            let first: u16 = (0..3).filter(|&s| p[s] == 0).fold(0, |m, s| m | 1 << s);
            assert_eq!(first, winners(tie, 3, &totals, &zeros, &mins));
        }
    }
}
