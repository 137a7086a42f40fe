//! The per-game records of a tournament, the lines of `games.csv` and `rounds.csv`: a record
//! per line ([`GameRow`], [`RoundRow`]) and its column layout ([`GAMES_COLUMNS`],
//! [`ROUNDS_COLUMNS`]; docs/csv.md lists the columns), stored by serde through the csv crate in
//! mtrain's dialect (`\n` line ends, a field quoted only when it must be), as the run's state is
//! stored by serde in `tally.json`. A [`PerGame`] sink collects one chunk's records as its games
//! end; the runner hands it each finished match. The sink lives on the worker thread that plays
//! the chunk, so the files cost the run no serial time. These are data files a run keeps (a
//! resume appends to them, a merge joins them), not reports: the reports of a tournament are
//! written by `crate::report::tournament`.

use super::{GameSpec, Tournament};
use crate::game::MatchResult;
use crate::round::{EndReason, Seat};
use serde::Serialize;

/// The columns of `games.csv` (docs/csv.md). `deal_seed_hex` repeats `deal_seed` in hex (`0x`
/// and 16 digits): spreadsheets and R read numbers above 2^53 as floating point and lose digits;
/// `--seed` takes either form.
pub const GAMES_COLUMNS: [&str; 11] = [
    "game",
    "deal",
    "deal_seed",
    "deal_seed_hex",
    "rotation",
    "seat",
    "strategy",
    "score",
    "rank",
    "win",
    "rounds_out",
];

/// The columns of `rounds.csv` before the score of each seat (`score0`, `score1`, ...).
pub const ROUNDS_COLUMNS: [&str; 9] =
    ["game", "round", "engine", "first", "reason", "out_seat", "turns", "draws", "boneyard_left"];

/// A CSV line of `fields`, in mtrain's dialect.
fn csv_line<I: IntoIterator<Item = F>, F: AsRef<[u8]>>(fields: I) -> String {
    let mut w = writer(true);
    w.write_record(fields).expect("writing to memory");
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}

/// A CSV writer in mtrain's dialect (docs/csv.md), with or without a header from the records.
fn writer(has_headers: bool) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().has_headers(has_headers).terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new())
}

/// The header line of `games.csv`.
pub fn games_header() -> String {
    csv_line(GAMES_COLUMNS)
}

/// The header line of `rounds.csv` at a table of `players`: a score column per seat.
pub fn rounds_header(players: usize) -> String {
    let mut cols: Vec<String> = ROUNDS_COLUMNS.map(str::to_string).to_vec();
    cols.extend((0..players).map(|s| format!("score{s}")));
    csv_line(cols)
}

/// One seat of one game: a line of `games.csv`, in the order of [`GAMES_COLUMNS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow<'a> {
    /// The game's index in the tournament.
    pub game: u64,
    /// Its deal.
    pub deal: u64,
    /// The deal's seed.
    pub deal_seed: u64,
    /// The same seed in hex (`0x` and 16 digits).
    pub deal_seed_hex: String,
    /// The seat rotation of the deal.
    pub rotation: u8,
    /// The seat.
    pub seat: usize,
    /// The bot in it, as its spec.
    pub strategy: &'a str,
    /// Its match total.
    pub score: u32,
    /// Its place, 1 = best (ties share).
    pub rank: u8,
    /// Its share of the win (1 over the winners, else 0), to 6 places.
    pub win: String,
    /// Rounds it went out in.
    pub rounds_out: usize,
}

/// One round of one game: a line of `rounds.csv`, in the order of [`ROUNDS_COLUMNS`], then the
/// round's score of every seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundRow<'a> {
    /// The game's index.
    pub game: u64,
    /// The round, from 1.
    pub round: usize,
    /// The engine's pips.
    pub engine: u8,
    /// The seat that played first.
    pub first: usize,
    /// How the round ended (`out`, `blocked`, ...).
    pub reason: &'static str,
    /// The seat that went out, if one did.
    pub out_seat: Option<usize>,
    /// Turns played.
    pub turns: u32,
    /// Tiles drawn.
    pub draws: u32,
    /// Tiles left in the boneyard.
    pub boneyard_left: u8,
    /// The round's score of each seat.
    pub scores: &'a [u32],
}

/// A chunk's per-game rows, kept as CSV text until the chunk is recorded.
pub struct PerGame {
    games: csv::Writer<Vec<u8>>,
    rounds: csv::Writer<Vec<u8>>,
}

impl Default for PerGame {
    fn default() -> PerGame {
        // The header is the file's, written once when it is created: rows only here.
        PerGame { games: writer(false), rounds: writer(false) }
    }
}

impl PerGame {
    /// Adds the rows of game `g` of `t`, which ended as `r`: one `games.csv` row per seat and
    /// one `rounds.csv` row per round.
    pub fn add(&mut self, t: &Tournament, g: &GameSpec, r: &MatchResult) {
        let n = t.rules.players as usize;
        let winners = r.winners.count_ones();
        for s in 0..n {
            let seat = Seat::from_index(s);
            let strategy = t.specs[g.seats[s] as usize].to_string();
            let row = GameRow {
                game: g.game,
                deal: g.deal,
                deal_seed: g.deal_seed,
                deal_seed_hex: format!("{:#018x}", g.deal_seed),
                rotation: g.rotation,
                seat: s,
                strategy: &strategy,
                score: r.totals[s],
                rank: r.places[s] + 1,
                win: format!("{:.6}", if r.is_winner(seat) { 1.0 / f64::from(winners) } else { 0.0 }),
                rounds_out: r.round_records().filter(|rec| rec.outcome.reason == EndReason::Out(seat)).count(),
            };
            self.games.serialize(row).expect("writing to memory");
        }
        for (i, rec) in r.round_records().enumerate() {
            let o = &rec.outcome;
            let row = RoundRow {
                game: g.game,
                round: i + 1,
                engine: rec.engine.get(),
                first: rec.first.index(),
                reason: o.reason.name(),
                out_seat: match o.reason {
                    EndReason::Out(s) => Some(s.index()),
                    _ => None,
                },
                turns: o.turns,
                draws: o.draws,
                boneyard_left: o.boneyard_left,
                scores: &o.scores[..n],
            };
            self.rounds.serialize(row).expect("writing to memory");
        }
    }

    /// The `games.csv` and `rounds.csv` text of the rows added.
    pub fn into_bytes(self) -> (Vec<u8>, Vec<u8>) {
        (self.games.into_inner().expect("writing to memory"), self.rounds.into_inner().expect("writing to memory"))
    }
}
