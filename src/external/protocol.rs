//! The messages of the bot protocol (`docs/bot-protocol.md`), written with serde: one JSON object
//! per line. Everything a message says comes from one seat's [`View`] and the public events, and
//! an event hides the tiles another seat drew.

use super::wire::{EventJson, Pairs, TileText, Tiles, TrainRef};
use crate::round::{Event, Move, Seat, SeenEvent, TrainId};
use crate::rules::{PARAMS, Rules};
use crate::strategy::MatchStart;
use crate::tile::{Pip, Tile};
use crate::view::View;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// Writes one message and its newline into `out` (cleared first).
fn line<T: Serialize>(out: &mut Vec<u8>, msg: &T) {
    out.clear();
    serde_json::to_writer(&mut *out, msg).expect("protocol messages serialize");
    out.push(b'\n');
}

#[derive(Serialize)]
struct Hello<'a> {
    r#type: &'static str,
    protocol: u32,
    name: &'a str,
    params: Pairs<'a>,
}

/// `hello`: the first message; the bot answers `ready`.
pub(crate) fn hello(out: &mut Vec<u8>, name: &str, params: &[(String, String)]) {
    line(out, &Hello { r#type: "hello", protocol: PROTOCOL_VERSION, name, params: Pairs(params) });
}

/// Every rule of a match: the table and each parameter `mtrain rules` lists, as text.
struct RulesJson<'a>(&'a Rules);

impl Serialize for RulesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("preset", r.preset.name())?;
        m.serialize_entry("set", &r.set.get())?;
        m.serialize_entry("players", &r.players)?;
        m.serialize_entry("hand", &r.hand().unwrap_or(0))?;
        m.serialize_entry("rounds", &r.round_count())?;
        m.serialize_entry("options", &Options(r))?;
        m.end()
    }
}

struct Options<'a>(&'a Rules);

impl Serialize for Options<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(PARAMS.len()))?;
        for p in PARAMS {
            m.serialize_entry(p.key, &p.value(self.0))?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct MatchMsg<'a> {
    r#type: &'static str,
    game: u64,
    seat: usize,
    players: u8,
    seed: u64,
    rules: RulesJson<'a>,
}

/// `match`: a match begins for one seat.
pub(crate) fn match_start(out: &mut Vec<u8>, m: &MatchStart<'_>) {
    line(
        out,
        &MatchMsg {
            r#type: "match",
            game: m.game,
            seat: m.seat.index(),
            players: m.rules.players,
            seed: m.seed,
            rules: RulesJson(m.rules),
        },
    );
}

/// Every seat's count of something, as a list.
struct PerSeat<F>(usize, F);

impl<F: Fn(Seat) -> u64> Serialize for PerSeat<F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0))?;
        for i in 0..self.0 {
            seq.serialize_element(&(self.1)(Seat::from_index(i)))?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
#[serde(bound = "")]
struct RoundMsg<I: Iterator<Item = Tile> + Clone, F: Fn(Seat) -> u64> {
    r#type: &'static str,
    seat: usize,
    round: u8,
    engine: u8,
    hand: Tiles<I>,
    hands: PerSeat<F>,
    boneyard: usize,
}

/// `round`: a round begins; the seat's hand as dealt.
pub(crate) fn round_start(out: &mut Vec<u8>, round: u8, view: &View<'_>) {
    let n = view.players() as usize;
    line(
        out,
        &RoundMsg {
            r#type: "round",
            seat: view.seat().index(),
            round,
            engine: view.engine().1.get(),
            hand: Tiles(view.hand().iter()),
            hands: PerSeat(n, |s| view.hand_size(s) as u64),
            boneyard: view.boneyard_len(),
        },
    );
}

/// The events since a seat's last message.
struct Events<'a> {
    events: &'a [SeenEvent],
    viewer: Seat,
    engine: Pip,
    players: usize,
}

impl Serialize for Events<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.events.len()))?;
        for seen in self.events {
            // A hidden event becomes a stand-in the viewer-aware log writer shows without its
            // tiles: one log vocabulary for the game log and the protocol.
            let hidden = Tile::from_pips(0, 0);
            let ev = match *seen {
                SeenEvent::Open(ev) => ev,
                SeenEvent::HiddenDraw { seat } => Event::Draw { seat, tile: hidden },
                SeenEvent::HiddenPenalty { seat, count, reason } => Event::Penalty {
                    seat,
                    tiles: std::array::from_fn(|i| (i < count as usize).then_some(hidden)),
                    reason,
                },
            };
            debug_assert!(
                !matches!(seen, SeenEvent::Open(Event::Draw { seat, .. } | Event::Penalty { seat, .. }) if *seat != self.viewer)
            );
            seq.serialize_element(&EventJson {
                ev: &ev,
                viewer: Some(self.viewer),
                engine: Some(self.engine),
                players: self.players,
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct RoundEndMsg<'a> {
    r#type: &'static str,
    seat: usize,
    round: u8,
    events: Events<'a>,
}

/// `round_end`: the events after the seat's last decision, the round's end among them.
pub(crate) fn round_end(out: &mut Vec<u8>, seat: Seat, round: u8, engine: Pip, players: usize, events: &[SeenEvent]) {
    line(
        out,
        &RoundEndMsg {
            r#type: "round_end",
            seat: seat.index(),
            round,
            events: Events { events, viewer: seat, engine, players },
        },
    );
}

/// The public state of every train.
struct TrainsJson<'a, 'v>(&'a View<'v>);

impl Serialize for TrainsJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let mut seq = s.serialize_seq(None)?;
        for id in v.train_ids() {
            let t = v.train(id);
            let root = v.root_of(id);
            let owner = root.owner();
            seq.serialize_element(&TrainJson {
                train: TrainRef(id),
                root: (root != id).then_some(TrainRef(root)),
                end: t.end.get(),
                tiles: t.len,
                open_double: t.open_double,
                marked: owner.is_some_and(|o| v.is_marked(o)),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct TrainJson {
    train: TrainRef,
    #[serde(skip_serializing_if = "Option::is_none")]
    root: Option<TrainRef>,
    end: u8,
    tiles: u8,
    open_double: bool,
    marked: bool,
}

#[derive(Serialize)]
struct Owed {
    train: TrainRef,
    value: u8,
    placer: usize,
}

struct OwedList<'a>(&'a [crate::round::Obligation]);

impl Serialize for OwedList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for o in self.0 {
            seq.serialize_element(&Owed { train: TrainRef(o.train), value: o.value.get(), placer: o.placer.index() })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct FollowUp {
    train: TrainRef,
    value: u8,
}

/// The values each seat is publicly known to hold no tile for.
struct Voids<'a, 'v>(&'a View<'v>);

impl Serialize for Voids<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.0.players() as usize;
        let mut seq = s.serialize_seq(Some(n))?;
        for i in 0..n {
            let mask = self.0.known_voids(Seat::from_index(i));
            let values: Vec<u32> = (0..32).filter(|b| mask >> b & 1 == 1).collect();
            seq.serialize_element(&values)?;
        }
        seq.end()
    }
}

/// One legal move.
pub(crate) struct MoveJson(pub(crate) Move);

impl Serialize for MoveJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut map = s.serialize_map(None)?;
        match m.train {
            TrainId::STOP => map.serialize_entry("action", "stop")?,
            TrainId::BULLET => map.serialize_entry("action", "bullet")?,
            TrainId::SKIP => map.serialize_entry("action", "skip")?,
            t => {
                map.serialize_entry("action", "play")?;
                map.serialize_entry("tile", &TileText(m.tile))?;
                map.serialize_entry("train", &TrainRef(t))?;
                if t.is_turned() {
                    map.serialize_entry("turned", &true)?;
                }
            }
        }
        map.end()
    }
}

struct Moves<'a>(&'a [crate::round::Move]);

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for &m in self.0.iter() {
            seq.serialize_element(&MoveJson(m))?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
#[serde(bound = "")]
struct Decide<'a, 'v, I: Iterator<Item = Tile> + Clone, F: Fn(Seat) -> u64, G: Fn(Seat) -> u64> {
    r#type: &'static str,
    seat: usize,
    round: u8,
    decision: &'static str,
    hand: Tiles<I>,
    #[serde(skip_serializing_if = "Option::is_none")]
    drawn: Option<TileText>,
    trains: TrainsJson<'a, 'v>,
    owed: OwedList<'v>,
    #[serde(skip_serializing_if = "Option::is_none")]
    follow_up: Option<FollowUp>,
    boneyard: usize,
    hands: PerSeat<F>,
    draws: PerSeat<G>,
    voids: Voids<'a, 'v>,
    events: Events<'a>,
    moves: Moves<'a>,
}

/// `decide`: the seat must choose; the bot answers `{"move": index}`.
pub(crate) fn decide(
    out: &mut Vec<u8>,
    round: u8,
    view: &View<'_>,
    events: &[SeenEvent],
    moves: &[crate::round::Move],
) {
    use crate::round::Decision;
    let n = view.players() as usize;
    let seat = view.seat();
    let decision = match view.decision() {
        Some(Decision::Normal) | None => "normal",
        Some(Decision::Cover) => "cover",
        Some(Decision::FollowUp) => "follow_up",
        Some(Decision::Build) => "build",
        Some(Decision::Swan) => "swan",
    };
    line(
        out,
        &Decide {
            r#type: "decide",
            seat: seat.index(),
            round,
            decision,
            hand: Tiles(view.hand().iter()),
            drawn: view.drawn().map(TileText),
            trains: TrainsJson(view),
            owed: OwedList(view.pending()),
            follow_up: view.follow_up_double().map(|(t, v)| FollowUp { train: TrainRef(t), value: v.get() }),
            boneyard: view.boneyard_len(),
            hands: PerSeat(n, |s| view.hand_size(s) as u64),
            draws: PerSeat(n, |s| u64::from(view.draws(s))),
            voids: Voids(view),
            events: Events { events, viewer: seat, engine: view.engine().1, players: n },
            moves: Moves(moves),
        },
    );
}

/// `quit`: the run is over; the bot should exit.
pub(crate) fn quit(out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(b"{\"type\":\"quit\"}\n");
}
