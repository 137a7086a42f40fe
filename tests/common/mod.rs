//! Helpers shared by the scenario test suites: tile and move shorthands, expected events, and an
//! observer that records every event.

#![allow(dead_code)]

use mexican_train::*;

/// Seats of the scenarios.
pub const A: Seat = Seat::from_index(0);
pub const B: Seat = Seat::from_index(1);
pub const C: Seat = Seat::from_index(2);
pub const D: Seat = Seat::from_index(3);
/// The first Mexican train.
pub const MEX: TrainId = TrainId::mexican(0);

pub fn own(s: Seat) -> TrainId {
    TrainId::personal(s)
}

pub fn t(s: &str) -> Tile {
    s.parse().unwrap_or_else(|e| panic!("bad tile {s:?}: {e:?}"))
}

pub fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace().map(t).collect()
}

pub fn pip(v: u8) -> Pip {
    Pip::from_u8(v)
}

pub fn mv(tile: &str, train: TrainId) -> Move {
    Move { tile: t(tile), train }
}

pub fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

pub fn moves(list: &[(&str, TrainId)]) -> Vec<Move> {
    sorted(list.iter().map(|&(x, tr)| mv(x, tr)).collect())
}

pub fn ev_play(seat: Seat, tile: &str, train: TrainId, end: u8) -> Event {
    Event::Play { seat, tile: t(tile), train, end: pip(end) }
}

pub fn ev_draw(seat: Seat, tile: &str) -> Event {
    Event::Draw { seat, tile: t(tile) }
}

pub fn obligation(train: TrainId, value: u8, placer: Seat) -> Obligation {
    Obligation { train, value: pip(value), placer }
}

/// Records every event.
#[derive(Default)]
pub struct Log(pub Vec<Event>);

impl Observer for Log {
    fn event(&mut self, ev: &Event) {
        self.0.push(*ev);
    }
}
