//! A strategy declares what it needs from the engine once, as one `Needs` value
//! (`Strategy::needs`), and gets what it declared: the voids kept, the events handed over, the
//! hidden tiles shown, the heaviest pick made for it, its random stream seeded. And the round
//! machinery (src/round/) asks for no bot: inference takes its opponent model as a parameter.

use mexican_train::strategies::Registry;
use mexican_train::*;
use std::sync::{Arc, Mutex};

/// What a [`Probe`] saw over a match.
#[derive(Debug, Default)]
struct Seen {
    /// Decisions asked.
    asked: usize,
    /// Decisions at which some seat's voids were known.
    voids: usize,
    /// Decisions at which the view showed the hidden tiles.
    hidden: usize,
    /// Events handed over, and how many of them ended a round.
    events: usize,
    round_ends: usize,
}

/// Plays the first legal move and notes what the engine gave it, having declared `needs`.
#[derive(Clone)]
struct Probe {
    needs: Needs,
    seen: Arc<Mutex<Seen>>,
}

impl Strategy for Probe {
    fn choose(&mut self, view: &View<'_>, _moves: &MoveList, _rng: &mut GameRng) -> usize {
        let mut seen = self.seen.lock().unwrap();
        seen.asked += 1;
        let voids = (0..view.players()).any(|s| view.known_voids(Seat::from_index(s as usize)) != 0);
        seen.voids += usize::from(voids);
        seen.hidden += usize::from(view.hidden().is_some());
        0
    }

    fn needs(&self) -> Needs {
        self.needs
    }

    fn observe(&mut self, events: &[SeenEvent]) {
        let mut seen = self.seen.lock().unwrap();
        seen.events += events.len();
        seen.round_ends += events.iter().filter(|e| matches!(e, SeenEvent::Open(Event::RoundEnd { .. }))).count();
    }
}

/// A 3-player `wikipedia` match (seed 11) of three probes declaring `needs`: what seat 0 saw.
fn probe_match(needs: Needs) -> Seen {
    let rules = Rules { players: 3, ..Rules::wikipedia() };
    let seen: Vec<Arc<Mutex<Seen>>> = (0..3).map(|_| Arc::default()).collect();
    let mut bots: Vec<Bot> = seen.iter().map(|s| Bot::custom(Probe { needs, seen: s.clone() })).collect();
    let result = play_match(&rules, 11, &mut bots, &mut NoObserver);
    assert_eq!(result.rounds, 13);
    drop(bots);
    Arc::try_unwrap(seen.into_iter().next().unwrap()).unwrap().into_inner().unwrap()
}

#[test]
fn a_strategy_that_declares_nothing_gets_nothing_extra() {
    let seen = probe_match(Needs::NOTHING);
    assert!(seen.asked > 50, "{seen:?}");
    // No seat reads the voids: the round keeps none.
    assert_eq!((seen.voids, seen.hidden, seen.events, seen.round_ends), (0, 0, 0, 0), "{seen:?}");
}

#[test]
fn each_declared_need_is_met() {
    let voids = probe_match(Needs::NOTHING.voids(true));
    assert!(voids.voids > 0, "{voids:?}");
    assert_eq!((voids.hidden, voids.events), (0, 0));

    let events = probe_match(Needs::NOTHING.events(true));
    assert!(events.events > 1_000, "{events:?}");
    assert_eq!(events.round_ends, 13, "one round end per round");
    assert_eq!((events.voids, events.hidden), (0, 0));

    let hidden = probe_match(Needs::NOTHING.hidden(true));
    assert_eq!(hidden.hidden, hidden.asked, "every view shows the hidden tiles");
    assert_eq!((hidden.voids, hidden.events), (0, 0));

    // The same decisions are asked whatever is declared: the needs change what the engine
    // keeps and hands over, not the game.
    let safe = probe_match(Needs::SAFE);
    assert_eq!([voids.asked, events.asked, hidden.asked], [safe.asked; 3]);
    assert_eq!(Needs::default(), Needs::SAFE);
    let nothing_but =
        |voids, rng| Needs { voids, rng, history: false, events: false, hidden: false, heaviest_first: false };
    assert_eq!(Needs::SAFE, nothing_but(true, true));
    assert_eq!(Needs::NOTHING, nothing_but(false, false));
}

/// A strategy that plays the first move with the most pips (as `greedy` does), counting the
/// times it is asked, and declares (`declare`) that the engine may make that pick itself, or
/// not.
#[derive(Clone)]
struct Heavy {
    declare: bool,
    asked: Arc<Mutex<usize>>,
}

impl Strategy for Heavy {
    fn choose(&mut self, _view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        *self.asked.lock().unwrap() += 1;
        // The first heaviest move, as declared.
        (0..moves.len()).fold(0, |b, i| {
            let pips = |i: usize| moves[i].tile().map_or(0, |t| t.pips());
            if pips(i) > pips(b) { i } else { b }
        })
    }

    fn needs(&self) -> Needs {
        Needs::NOTHING.heaviest_first(self.declare)
    }
}

#[test]
fn the_engine_makes_the_declared_heaviest_pick_itself_and_the_game_is_the_same() {
    let rules = Rules { players: 4, ..Rules::wikipedia() };
    let play = |declare: bool| {
        let asked = Arc::new(Mutex::new(0));
        let mut bots: Vec<Bot> = (0..4).map(|_| Bot::custom(Heavy { declare, asked: asked.clone() })).collect();
        let result = play_match(&rules, 5, &mut bots, &mut NoObserver);
        let n = *asked.lock().unwrap();
        (result.totals, n)
    };
    let (totals_declared, asked_declared) = play(true);
    let (totals, asked) = play(false);
    assert_eq!(totals_declared, totals, "the same picks, so the same match");
    assert!(asked > 200, "{asked}");
    // Only turns the plain loop does not play (a round's opening) still ask.
    assert!(asked_declared * 4 < asked, "asked {asked_declared} of {asked} times");
}

#[test]
fn a_registry_reads_the_random_stream_from_the_declared_needs() {
    let mut registry = Registry::builtin();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let (a, b) = (seen.clone(), seen);
    registry.add("fixed", "declares nothing", &[], move |_| Ok(Probe { needs: Needs::NOTHING, seen: a.clone() }));
    registry
        .add("dicey", "declares its random stream", &[], move |_| Ok(Probe { needs: Needs::SAFE, seen: b.clone() }));
    let specs = |list: &str| registry.field(list).unwrap().bots;
    assert!(registry.deterministic(&specs("fixed,greedy")));
    assert!(!registry.deterministic(&specs("fixed,dicey")));
    assert!(!registry.deterministic(&specs("fixed,random")));
}

/// The round machinery depends on no bot: nothing under src/round/ names the built-in bots'
/// module; the inference gets its opponent model from its caller.
#[test]
fn the_round_machinery_imports_no_bot() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/round");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            files += 1;
            for needle in ["crate::strategies", "mexican_train::strategies", "super::super::strategies"] {
                assert!(!text.contains(needle), "{} names {needle}", path.display());
            }
        }
    }
    assert!(files >= 9, "{files} files read under {dir}");
}
