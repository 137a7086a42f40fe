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

/// Hands, then a boneyard of `front` followed by every remaining tile of double-6 in canonical
/// order, leaving `skip` out (the set-aside engine).
pub fn layout(hands: &[&str], front: &str, skip: Option<Tile>) -> (Vec<TileSet>, Vec<Tile>) {
    let mut seen = TileSet::EMPTY;
    if let Some(x) = skip {
        seen.insert(x);
    }
    let mut hand_sets = Vec::new();
    for h in hands {
        let mut hs = TileSet::EMPTY;
        for x in tiles(h) {
            assert!(seen.insert(x), "{x} dealt twice");
            hs.insert(x);
        }
        hand_sets.push(hs);
    }
    let mut bone = tiles(front);
    for &x in &bone {
        assert!(seen.insert(x), "{x} dealt twice");
    }
    for x in Tile::canonical(pip(6)) {
        if !seen.contains(x) {
            bone.push(x);
        }
    }
    (hand_sets, bone)
}

/// A deal of the double-6 set with `[6|6]` set aside (`wikipedia`, `dominorules`).
pub fn deal_aside(hands: &[&str], front: &str) -> Deal {
    let engine = t("6-6");
    let (h, bone) = layout(hands, front, Some(engine));
    let deal = Deal::from_parts(engine, &h, &bone);
    assert_conserved(&deal);
    deal
}

/// A deal of the whole set for the presets whose engine comes from a hand (e = 6).
pub fn deal_hand(hands: &[&str], front: &str) -> Deal {
    let (h, bone) = layout(hands, front, None);
    let deal = Deal::with_engine_in_play(pip(6), &h, &bone);
    assert_conserved(&deal);
    deal
}

/// Every tile of double-6 exactly once across (a set-aside engine,) hands and boneyard.
pub fn assert_conserved(deal: &Deal) {
    let mut all = TileSet::EMPTY;
    let mut count = 0;
    if deal.set_aside {
        all.insert(deal.engine);
        count += 1;
    }
    for h in &deal.hands[..deal.players as usize] {
        for x in h {
            assert!(all.insert(x), "{x} twice");
            count += 1;
        }
    }
    for &x in deal.boneyard.as_slice() {
        assert!(all.insert(x), "{x} twice");
        count += 1;
    }
    assert_eq!(count, 28);
    assert_eq!(all, TileSet::full(pip(6)));
}
