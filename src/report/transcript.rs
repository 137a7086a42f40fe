//! The human transcript of `mtrain play`: one line per turn, round scores and totals.
//!
//! The transcript is an observer: it rebuilds turns from the event stream (every turn emits at
//! least one event, and consecutive turns belong to different seats), and keeps the markers and
//! open doubles it has seen so each turn line can show the table's public status.

use super::Lines;
use crate::game::{MatchObserver, MatchResult};
use crate::round::{EndReason, Event, Observer, PenaltyReason, RoundState, Seat, TrainId};
use crate::rules::Rules;
use crate::tile::Tile;
use std::fmt::Write as _;
use std::io::Write;

/// Writes a readable transcript to `out`. The first write error is kept in `error`.
pub struct Transcript<W: Write> {
    /// The output; its `error` holds the first I/O error, if any.
    pub out: Lines<W>,
    bots: Vec<String>,
    players: u8,
    turn: u32,
    actor: Option<Seat>,
    line: String,
    markers: u16,
    open: Vec<(TrainId, Tile)>,
    turn_played: bool,
    turn_drew: bool,
    turn_marked: bool,
    searching: bool,
    changes: String,
    /// The one seat whose hidden tiles are shown (a person's seat), or `None` for all.
    viewer: Option<Seat>,
    /// The turn line in progress was already shown up to here ([`Transcript::flush_partial`]).
    continued: bool,
    /// The viewer chose the move whose event comes next ([`Transcript::chosen`]); the viewer's
    /// other actions are marked `(forced)`.
    choice_pending: bool,
    /// Each seat's points so far (shown after each round when there is a viewer).
    totals: Vec<u32>,
}

impl<W: Write> Transcript<W> {
    /// Names the `--rule` changes in the header (text like `" (changed: v1=true)"`).
    pub fn with_changes(mut self, changes: String) -> Transcript<W> {
        self.changes = changes;
        self
    }

    /// Shows only `seat`'s hidden tiles: the other hands as sizes, the other seats' draws without
    /// the tile (the transcript a person at that seat reads). That seat's train is called "your
    /// train", its actions it did not choose ([`Transcript::chosen`]) are marked `(forced)`, and
    /// each round's scores are followed by the running totals.
    pub fn with_viewer(mut self, seat: Seat) -> Transcript<W> {
        self.viewer = Some(seat);
        self
    }

    /// Whether `seat`'s hidden tiles may be shown.
    fn shows(&self, seat: Seat) -> bool {
        self.viewer.is_none_or(|v| v == seat)
    }

    /// The viewer has just chosen a move: its event is not marked `(forced)`.
    pub fn chosen(&mut self) {
        self.choice_pending = true;
    }

    /// Each seat's points over the rounds finished so far.
    pub fn totals(&self) -> &[u32] {
        &self.totals
    }

    /// Writes the turn line in progress now (before a person decides), and flushes; the rest of
    /// the turn, if any, follows on a continuation line.
    pub fn flush_partial(&mut self) {
        if let Some(seat) = self.actor
            && !self.continued
        {
            let line = std::mem::replace(&mut self.line, format!("  turn {:>3}  seat {seat}  ...", self.turn));
            self.emit(&line);
            self.continued = true;
        }
        self.out.flush();
    }

    /// A transcript for a match between `bots` (one name per seat).
    pub fn new(out: W, bots: Vec<String>) -> Transcript<W> {
        Transcript {
            out: Lines::new(out),
            players: bots.len() as u8,
            bots,
            turn: 0,
            actor: None,
            line: String::new(),
            markers: 0,
            open: Vec::new(),
            turn_played: false,
            turn_drew: false,
            changes: String::new(),
            turn_marked: false,
            searching: false,
            viewer: None,
            continued: false,
            choice_pending: false,
            totals: Vec::new(),
        }
    }

    fn emit(&mut self, s: &str) {
        self.out.line(s);
    }

    /// A train as the transcript names it: `train 2`, `mexican`, and `your train` for the
    /// viewer's own.
    fn train_name(&self, t: TrainId) -> String {
        train_name(t, self.viewer)
    }

    fn start_turn(&mut self, seat: Seat) {
        self.flush_turn();
        self.turn += 1;
        self.actor = Some(seat);
        self.line = format!("  turn {:>3}  seat {seat}  ", self.turn);
        self.turn_played = false;
        self.turn_drew = false;
        self.turn_marked = false;
        self.continued = false;
    }

    fn flush_turn(&mut self) {
        if self.actor.take().is_none() {
            return;
        }
        if std::mem::take(&mut self.continued) && self.line.ends_with("...") {
            // Shown whole by `flush_partial`: nothing happened since.
            self.line.clear();
            return;
        }
        if self.turn_drew && !self.turn_played && !self.turn_marked {
            self.line.push_str(", cannot play (marker already on)");
        }
        let mut status = String::new();
        if self.markers != 0 {
            status.push_str("markers:");
            for s in 0..self.players as usize {
                if self.markers & (1 << s) != 0 {
                    let _ = write!(status, " {s}");
                }
            }
        }
        if !self.open.is_empty() {
            if !status.is_empty() {
                status.push_str("  ");
            }
            status.push_str("open:");
            for &(t, d) in &self.open {
                let _ = write!(status, " {d} on {}", self.train_name(t));
            }
        }
        let line = std::mem::take(&mut self.line);
        if status.is_empty() {
            self.emit(&line);
        } else {
            self.emit(&format!("{line:<58} | {status}"));
        }
    }

    fn seat_list<T: std::fmt::Display>(&self, label: &str, values: &[T]) -> String {
        let mut s = format!("  {label:<8}");
        for (i, v) in values.iter().enumerate().take(self.players as usize) {
            let _ = write!(s, "  {i}: {v:>4}");
        }
        s
    }
}

/// A train as a person at `viewer` reads it: `your train` for the viewer's own, `train 2` for
/// another seat's, `mexican` (`mexican2`, `branch1`, ...) for the others, `(turned)` after a
/// turned placement's train.
pub fn train_name(t: TrainId, viewer: Option<Seat>) -> String {
    if t.is_turned() {
        return format!("{} (turned)", train_name(t.base(), viewer));
    }
    match t.owner() {
        Some(s) if Some(s) == viewer => "your train".to_string(),
        Some(s) => format!("train {s}"),
        None => t.to_string(),
    }
}

impl<W: Write> Observer for Transcript<W> {
    fn event(&mut self, ev: &Event) {
        // A turn begins with the first event whose acting seat differs from the last one; start
        // it before updating the status, so each line shows the table after its own turn.
        if self.searching {
            match *ev {
                Event::Draw { seat, tile } => {
                    let what = if self.shows(seat) { format!(" {tile}") } else { String::new() };
                    self.emit(&format!("  engine search: seat {seat} draws{what}"));
                    return;
                }
                Event::Engine { seat, tile } => {
                    self.searching = false;
                    self.emit(&format!("  seat {seat} places the engine {tile}"));
                    return;
                }
                _ => self.searching = false,
            }
        }
        let actor = match *ev {
            Event::Play { seat, .. }
            | Event::Draw { seat, .. }
            | Event::Mark { seat }
            | Event::Pass { seat }
            | Event::Skip { seat } => Some(seat),
            Event::Unmark { .. }
            | Event::RoundEnd { .. }
            | Event::Engine { .. }
            | Event::Penalty { .. }
            | Event::Tap { .. }
            | Event::Branch { .. } => None,
        };
        // The viewer's actions that were not chosen are forced (draws, passes, markers, a single
        // legal move played for the person); another seat's action ends any pending choice.
        let mut forced = false;
        if let (Some(seat), Some(viewer)) = (actor, self.viewer) {
            if seat == viewer {
                forced = !std::mem::take(&mut self.choice_pending);
            } else {
                self.choice_pending = false;
            }
        }
        if let Some(seat) = actor {
            if self.actor == Some(seat) {
                if !self.line.ends_with("...") {
                    self.line.push_str(", ");
                } else {
                    self.line.push(' ');
                }
            } else {
                self.start_turn(seat);
            }
        }
        match *ev {
            Event::Play { tile, train, end, .. } => {
                self.open.retain(|&(t, _)| t != train);
                if tile.is_double() {
                    self.open.push((train, tile));
                }
                self.turn_played = true;
                let inward = tile.other(end);
                let name = self.train_name(train);
                let _ = write!(self.line, "plays {inward}-{end} on {name} (end {end})");
            }
            Event::Draw { seat, tile } => {
                self.turn_drew = true;
                if self.shows(seat) {
                    let _ = write!(self.line, "draws {tile}");
                } else {
                    self.line.push_str("draws");
                }
            }
            Event::Mark { seat } => {
                self.markers |= 1 << seat.index();
                self.turn_marked = true;
                self.line.push_str("marks own train");
            }
            Event::Unmark { seat } => {
                self.markers &= !(1 << seat.index());
                let _ = write!(self.line, " [marker {seat} off]");
            }
            Event::Branch { value, first, root, .. } => {
                let second = TrainId::branch(first.branch_index().unwrap_or(0) + 1);
                let name = self.train_name(root);
                let _ = write!(self.line, " [{value}-{value} branches: {first} and {second} of {name}]");
            }
            Event::Pass { .. } => self.line.push_str("passes"),
            Event::Skip { .. } => self.line.push_str("misses the turn (last-tile penalty)"),
            _ => {}
        }
        if forced {
            self.line.push_str(" (forced)");
        }
        match *ev {
            Event::Tap { seat, forgot, caught } => {
                self.flush_turn();
                let what = match (forgot, caught) {
                    (false, _) => "announced its last tile",
                    (true, false) => "forgot to announce its last tile; nobody caught it",
                    (true, true) => "forgot to announce its last tile and was caught",
                };
                self.emit(&format!("  seat {seat} {what}"));
            }
            Event::Penalty { seat, tiles, reason } => {
                self.flush_turn();
                let drawn: Vec<String> = tiles.iter().flatten().map(ToString::to_string).collect();
                let what = if drawn.is_empty() {
                    "nothing left to draw".to_string()
                } else if self.shows(seat) {
                    format!("draws {}", drawn.join(" "))
                } else {
                    format!("draws {} tile{}", drawn.len(), if drawn.len() == 1 { "" } else { "s" })
                };
                let why = match reason {
                    PenaltyReason::LastTile => "did not announce its last tile",
                    PenaltyReason::UncoveredDouble => "left a double uncovered",
                };
                self.emit(&format!("  seat {seat} {why}: {what}"));
            }
            Event::Engine { seat, tile } => self.emit(&format!("  seat {seat} places the engine {tile}")),
            Event::RoundEnd { reason, scores } => {
                self.flush_turn();
                let why = match reason {
                    EndReason::Out(s) => format!("seat {s} went out"),
                    EndReason::Blocked => "blocked: nobody can play and the boneyard is empty".to_string(),
                    EndReason::Stuck => "stuck: no tile can ever be played".to_string(),
                };
                self.emit(&format!("Round over after {} turns: {why}", self.turn));
                let line = self.seat_list("scores", &scores[..self.players as usize]);
                self.emit(&line);
                if self.viewer.is_some() {
                    self.totals.resize(self.players as usize, 0);
                    for (t, s) in self.totals.iter_mut().zip(scores) {
                        *t += s;
                    }
                    let line = self.seat_list("totals", &self.totals);
                    self.emit(&line);
                }
            }
            _ => {}
        }
    }
}

impl<W: Write> MatchObserver for Transcript<W> {
    fn match_start(&mut self, rules: &Rules, seed: u64) {
        self.emit(&format!(
            "mtrain play: {} rules{}, double-{}, {} players, {} tiles each, {} round{}, seed {seed}",
            rules.preset,
            self.changes,
            rules.set,
            rules.players,
            rules.hand().unwrap_or(0),
            rules.round_count(),
            if rules.round_count() == 1 { "" } else { "s" }
        ));
        let seats: Vec<String> = self.bots.iter().enumerate().map(|(i, b)| format!("seat {i}: {b}")).collect();
        self.emit(&seats.join("   "));
    }

    fn round_start(&mut self, round: u8, state: &RoundState) {
        self.turn = 0;
        self.markers = 0;
        self.open.clear();
        self.searching = state.engine_mode() != crate::rules::EngineMode::SetAside;
        self.emit("");
        let found = matches!(
            state.engine_mode(),
            crate::rules::EngineMode::GaltFirstPlayerHighestDouble
                | crate::rules::EngineMode::HighestUnusedDoubleInHands
        );
        if found {
            self.emit(&format!(
                "Round {round}: the engine is a double found in the hands (search starts at seat {}), {} tiles in the boneyard",
                state.lead(),
                state.boneyard().len()
            ));
        } else if self.searching {
            self.emit(&format!(
                "Round {round}: engine number {}, the engine comes from a hand (search starts at seat {}), {} tiles in the boneyard",
                state.engine_number(),
                state.lead(),
                state.boneyard().len()
            ));
        } else {
            self.emit(&format!(
                "Round {round}: engine {}, seat {} plays first, {} tiles in the boneyard",
                state.engine(),
                state.first(),
                state.boneyard().len()
            ));
        }
        for s in 0..self.players as usize {
            let seat = Seat::from_index(s);
            let h = state.hand(seat);
            let n = h.len();
            let plural = if n == 1 { "" } else { "s" };
            if self.shows(seat) {
                self.emit(&format!("  hand {s}: {h} ({n} tile{plural}, {} pips)", h.pips()));
            } else {
                self.emit(&format!("  hand {s}: {n} tile{plural}"));
            }
        }
        if state.needs_redeal() {
            self.emit(&format!(
                "  no hand holds a tile showing {}: the tiles are gathered, reshuffled and redealt",
                state.engine_number()
            ));
        }
    }

    fn match_end(&mut self, result: &MatchResult) {
        let totals = &result.totals[..self.players as usize];
        let line = self.seat_list("totals", totals);
        self.emit("");
        self.emit("Match over");
        self.emit(&line);
        let zero: Vec<u8> = result.zero_rounds[..self.players as usize].to_vec();
        let line = self.seat_list("0-rounds", &zero);
        self.emit(&line);
        let winners: Vec<String> =
            result.winner_seats().map(|s| format!("seat {s} ({})", self.bots[s.index()])).collect();
        let label = if winners.len() > 1 { "Co-winners" } else { "Winner" };
        self.emit(&format!("{label}: {}", winners.join(", ")));
        self.out.flush();
    }
}
