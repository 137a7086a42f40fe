//! A Rust strategy that observes the table sees only what its seat sees, by construction: another
//! seat's draws and penalty tiles arrive hidden, as an external bot is sent them; only a strategy
//! that declares `Needs::hidden` gets them whole.

use mexican_train::*;
use std::sync::{Arc, Mutex};

/// Plays greedy's move and keeps every event it is handed.
#[derive(Clone)]
struct Watcher {
    seen: Arc<Mutex<Vec<SeenEvent>>>,
    all: bool,
}

impl Strategy for Watcher {
    fn choose(&mut self, _view: &View<'_>, _moves: &MoveList, _rng: &mut GameRng) -> usize {
        0
    }
    fn needs(&self) -> Needs {
        Needs::SAFE.events(true).hidden(self.all)
    }
    fn observe(&mut self, events: &[SeenEvent]) {
        self.seen.lock().unwrap().extend_from_slice(events);
    }
}

/// The events seat 0 receives in a 4-player match under `rules` (a watcher in seat 0).
fn watch(rules: &Rules, all: bool) -> Vec<SeenEvent> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut bots = vec![Bot::custom(Watcher { seen: seen.clone(), all })];
    bots.extend((1..rules.players).map(|_| Bot::parse("greedy").unwrap()));
    play_match(rules, 7, &mut bots, &mut NoObserver);
    seen.lock().unwrap().to_vec()
}

fn seat0() -> Seat {
    Seat::from_index(0)
}

#[test]
fn another_seats_draws_arrive_hidden() {
    let rules = Rules { rounds: Some(3), ..Rules::wikipedia() };
    let seen = watch(&rules, false);
    let (mut own, mut hidden) = (0, 0);
    for ev in &seen {
        match *ev {
            SeenEvent::Open(Event::Draw { seat, .. }) => {
                assert_eq!(seat, seat0(), "another seat's draw shown whole");
                own += 1;
            }
            SeenEvent::Open(Event::Penalty { seat, .. }) => assert_eq!(seat, seat0()),
            SeenEvent::HiddenDraw { seat } | SeenEvent::HiddenPenalty { seat, .. } => {
                assert_ne!(seat, seat0(), "its own draw hidden from it");
                hidden += 1;
            }
            SeenEvent::Open(_) => {}
        }
    }
    assert!(own > 0 && hidden > own, "own draws {own}, hidden draws {hidden}");
    assert_eq!(seen.iter().filter(|e| matches!(e, SeenEvent::Open(Event::RoundEnd { .. }))).count(), 3);
}

#[test]
fn penalty_tiles_of_another_seat_arrive_as_a_count() {
    let mut rules = Rules { rounds: Some(4), ..Rules::wikipedia() };
    rules.apply_rule("tap=draw_two").unwrap();
    let seen = watch(&rules, false);
    let counts: Vec<u8> = seen
        .iter()
        .filter_map(|e| if let SeenEvent::HiddenPenalty { count, .. } = e { Some(*count) } else { None })
        .collect();
    assert!(seen.iter().all(|e| !matches!(e, SeenEvent::Open(Event::Penalty { seat, .. }) if *seat != seat0())));
    assert!(counts.iter().all(|&c| c <= 2), "{counts:?}");
}

#[test]
fn a_strategy_that_sees_hidden_tiles_gets_every_event_whole() {
    let rules = Rules { rounds: Some(3), ..Rules::wikipedia() };
    let seen = watch(&rules, true);
    assert!(seen.iter().all(|e| matches!(e, SeenEvent::Open(_))));
    let others =
        seen.iter().filter(|e| matches!(e, SeenEvent::Open(Event::Draw { seat, .. }) if *seat != seat0())).count();
    assert!(others > 0);
    // The same match, seen from the seat: the same events, the others' draws hidden.
    let mine = watch(&rules, false);
    assert_eq!(mine.len(), seen.len());
    for (a, b) in seen.iter().zip(&mine) {
        if let SeenEvent::Open(ev) = a {
            assert_eq!(ev.seen_by(seat0(), false), *b);
        }
    }
}

/// The house rules' events: a last tile's coins (`tap`) are public, whole for every seat; an
/// uncovered-double penalty of another seat arrives as a count, with its reason.
#[test]
fn last_tile_coins_are_public_and_double_penalties_hidden() {
    let mut rules = Rules { rounds: Some(6), ..Rules::wikipedia() };
    rules.apply_rules(&["tap=draw_two", "tap_forget=0.5", "tap_catch=0.5", "uncovered_double_penalty=2"]).unwrap();
    let seen = watch(&rules, false);
    let taps = seen.iter().filter(|e| matches!(e, SeenEvent::Open(Event::Tap { .. }))).count();
    let doubles = seen
        .iter()
        .filter(|e| matches!(e, SeenEvent::HiddenPenalty { reason: PenaltyReason::UncoveredDouble, count, .. } if *count <= 2))
        .count();
    assert!(taps > 0 && doubles > 0, "{taps} taps, {doubles} hidden double penalties");
    assert!(seen.iter().all(|e| !matches!(e, SeenEvent::Open(Event::Penalty { seat, .. }) if *seat != seat0())));
}
