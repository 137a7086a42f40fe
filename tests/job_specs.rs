//! Every kind of run is described by plain data: a spec that serialises to JSON and back to
//! the same spec, and rebuilds the same job (the same rules, field, schedule and seed), so a run can be stored,
//! sent to another machine or written by hand and give the same games.

use mexican_train::balance::{Limits, Objective, Sweep, SweepSpec};
use mexican_train::rules::TableSpec;
use mexican_train::strategies::Registry;
use mexican_train::tournament::{Sprt, TournamentJob, TournamentSpec};
use mexican_train::tune::{Gains, Tuning, TuningSpec};

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(spec: &T) -> T {
    let json = serde_json::to_string(spec).unwrap();
    let back: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, spec, "{json}");
    back
}

fn table(players: u8) -> TableSpec {
    TableSpec {
        preset: "dominorules".into(),
        set: 9,
        players,
        hand: Some(8),
        rounds: Some(3),
        rules: vec!["tap=draw_two".into()],
    }
}

#[test]
fn a_tournament_spec_round_trips_and_rebuilds_the_same_job() {
    let registry = Registry::builtin();
    let spec = TournamentSpec {
        table: table(4),
        bots: Some("greedy,planner".into()),
        gauntlet: Some("cutthroat".into()),
        anchor: Some("planner".into()),
        games: 400,
        seed: 9,
        rotate: true,
        vary_order: true,
        sprt: None,
        shard: Some((2, 3)),
    };
    let back = round_trip(&spec);
    let (a, b) = (TournamentJob::new(&spec, &registry).unwrap(), TournamentJob::new(&back, &registry).unwrap());
    assert_eq!(a.tournament.rules, b.tournament.rules);
    assert_eq!(a.tournament.specs, b.tournament.specs);
    assert_eq!(a.tournament.schedule, b.tournament.schedule);
    assert_eq!((a.anchor, a.gauntlet, a.shard), (b.anchor, b.gauntlet, b.shard));
    assert_eq!(a.changes, vec![("tap".to_string(), "draw_two".to_string())]);
    assert_eq!((a.tournament.rules.players, a.tournament.rules.hand_size), (4, Some(8)));
    // The gauntlet bot joined the field; the anchor is planner.
    assert_eq!(a.tournament.specs.len(), 3);
    assert_eq!(a.tournament.specs[a.anchor].to_string(), "planner");
    // A two-bot SPRT on a shard is refused as the command line refuses it.
    let bad = TournamentSpec { gauntlet: None, sprt: Some(Sprt::parse("0,20").unwrap()), ..spec };
    let e = TournamentJob::new(&bad, &registry).err().unwrap();
    assert!(e.contains("cannot be combined with --shard"), "{e}");
}

#[test]
fn a_sweep_spec_round_trips_and_rebuilds_the_same_sweep() {
    let registry = Registry::builtin();
    let spec = SweepSpec {
        preset: "wikipedia".into(),
        set: 12,
        rounds: Some(2),
        rules: vec![],
        players: (3, 4),
        hands: Some((8, 10)),
        bots: "weighted,planner,greedy".into(),
        games: 200,
        max_games: None,
        seed: 4,
        objective: Objective::NoDefect,
        limits: Limits::default(),
        metrics: Some(vec!["skill".into(), "blocked_rate".into()]),
        rank_by: Default::default(),
        seconds_per_turn: mexican_train::balance::SECONDS_PER_TURN,
    };
    let back = round_trip(&spec);
    let (a, b) = (Sweep::new(&spec, &registry).unwrap(), Sweep::new(&back, &registry).unwrap());
    assert_eq!((&a.base, &a.cells, &a.specs, &a.entries), (&b.base, &b.cells, &b.specs, &b.entries));
    assert_eq!((a.games, a.max_games, a.seed, a.limits), (b.games, b.max_games, b.seed, b.limits));
    assert_eq!(a.cells.len(), 6);
    assert_eq!(a.max_games, 800);
    assert_eq!(a.metrics.iter().map(|m| m.name).collect::<Vec<_>>(), ["skill", "blocked_rate"]);
    let json = serde_json::to_value(&spec).unwrap();
    assert_eq!(json["objective"], "no_defect");
    assert_eq!(json["limits"]["first_player"], "match");
}

#[test]
fn a_tuning_spec_round_trips_and_rebuilds_the_same_run() {
    let registry = Registry::builtin();
    let spec = TuningSpec {
        table: table(2),
        bot: Some("weighted:pips=1".into()),
        params: vec!["pips=0:3".into(), "own=-2:2".into()],
        gains: Gains { iterations: 10, c: 0.1, r: 2.0 },
        games: 32,
        seed: 5,
        confirm: Sprt::parse("0,10").unwrap(),
        confirm_games: 1000,
    };
    let back = round_trip(&spec);
    let ((a, start_a), (b, start_b)) = (Tuning::new(&spec, &registry).unwrap(), Tuning::new(&back, &registry).unwrap());
    assert_eq!(start_a, start_b);
    assert_eq!(a.params, b.params);
    // The spec's pips=1 is the start: a third of the way through 0..3.
    assert!((start_a[0] - 1.0 / 3.0).abs() < 1e-12);
}
