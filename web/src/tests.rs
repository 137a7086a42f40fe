use super::*;

fn spec(seats: &[&str], seed: &str) -> GameSpec {
    GameSpec {
        preset: "wikipedia".into(),
        set: 12,
        rules: vec![],
        hand: None,
        rounds: Some(2),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        seed: seed.into(),
    }
}

/// Plays a game to its end, the person always taking the first legal move.
fn play_out(s: &mut Session) {
    for _ in 0..10_000 {
        if s.state.is_over() {
            return;
        }
        if s.paused {
            s.proceed();
        } else {
            s.play(0).expect("a person to act");
        }
    }
    panic!("the game did not end");
}

#[test]
fn a_game_with_a_person_runs_to_its_end_and_resumes_to_the_same_log() {
    let mut s = Session::new(spec(&["human", "expert", "greedy"], "7")).unwrap();
    play_out(&mut s);
    let log = s.log_text();
    assert!(log.starts_with("{\"event\":\"match\""));
    assert!(log.trim_end().lines().last().unwrap().starts_with("{\"event\":\"match_end\""));
    assert!(log.contains("\"bots\":[\"human\",\"expert\",\"greedy\"]"));
    let saved = s.saved();
    assert!(!saved.choices.is_empty());
    let again = Session::resume(&saved).unwrap();
    assert_eq!(again.log_text(), log);
    // Half way: the same log up to there.
    let half = Saved { choices: saved.choices[..saved.choices.len() / 2].to_vec(), ..saved.clone() };
    let h = Session::resume(&half).unwrap();
    assert!(log.starts_with(&h.log_text()));
}

#[test]
fn requests_answer_in_json_and_bad_ones_say_why() {
    let a: Value = serde_json::from_str(&handle(r#"{"op":"info"}"#)).unwrap();
    assert_eq!(a["ok"], true);
    assert_eq!(a["bots"][3]["bot"], "expert");
    assert!(a["bots"][3]["elo"]["wikipedia"]["4"].as_f64().unwrap() > 400.0);
    let bad: Value = serde_json::from_str(&handle(r#"{"op":"fly"}"#)).unwrap();
    assert_eq!(bad["ok"], false);
    assert!(bad["error"].as_str().unwrap().contains("unknown op 'fly'"));
    let bad: Value =
        serde_json::from_str(&handle(r#"{"op":"new","game":{"preset":"nope","seats":["human","greedy"],"seed":"1"}}"#))
            .unwrap();
    assert!(bad["error"].as_str().unwrap().contains("wikipedia"), "{bad}");
    let bad: Value = serde_json::from_str(&handle(
        r#"{"op":"new","game":{"preset":"wikipedia","seats":["human","greedy"],"seed":"x1"}}"#,
    ))
    .unwrap();
    assert!(bad["error"].as_str().unwrap().contains("seed 'x1'"), "{bad}");
    let ok: Value = serde_json::from_str(&handle(
        r#"{"op":"new","game":{"preset":"wikipedia","seats":["human","greedy"],"seed":"0x10","rounds":1}}"#,
    ))
    .unwrap();
    assert_eq!(ok["ok"], true, "{ok}");
    assert_eq!(ok["to_act"], 0);
    assert!(!ok["legal"].as_array().unwrap().is_empty());
    let too_far: Value = serde_json::from_str(&handle(r#"{"op":"play","move":999}"#)).unwrap();
    assert!(too_far["error"].as_str().unwrap().contains("not one of the"), "{too_far}");
    let hint: Value = serde_json::from_str(&handle(r#"{"op":"hint"}"#)).unwrap();
    assert_eq!(hint["ok"], true, "{hint}");
    assert!(hint["text"].as_str().unwrap().starts_with("hint: move "), "{hint}");
}

#[test]
fn greedy_rounds_counts_whole_matches() {
    // Each wikipedia match plays 13 rounds.
    assert_eq!(lab::greedy_rounds(20), 26);
}

/// A person's seat that plays given choices in order (what `mtrain play --human` reads).
#[derive(Clone)]
struct Scripted(std::sync::Arc<std::sync::Mutex<Vec<usize>>>);

impl mexican_train::Strategy for Scripted {
    fn choose(
        &mut self,
        _view: &mexican_train::View<'_>,
        _moves: &mexican_train::MoveList,
        _rng: &mut mexican_train::GameRng,
    ) -> usize {
        self.0.lock().unwrap().remove(0)
    }
}

#[test]
fn the_log_is_the_one_play_match_writes_with_the_same_choices() {
    for (seats, seed) in [(&["human", "expert", "greedy", "planner"][..], "11"), (&["weighted", "human"][..], "0x2a")] {
        let mut s = Session::new(spec(seats, seed)).unwrap();
        play_out(&mut s);
        let saved = s.saved();
        let table = TableSpec {
            preset: "wikipedia".into(),
            set: 12,
            players: seats.len() as u8,
            hand: None,
            rounds: Some(2),
            rules: vec![],
        };
        let (rules, changes) = table.build().unwrap();
        let registry = Registry::builtin();
        let script = Scripted(std::sync::Arc::new(std::sync::Mutex::new(saved.choices.clone())));
        let mut bots: Vec<Bot> =
            seats
                .iter()
                .map(|b| {
                    if *b == "human" {
                        Bot::custom(script.clone())
                    } else {
                        registry.build(&b.parse().unwrap()).unwrap()
                    }
                })
                .collect();
        let names = seats.iter().map(|b| b.to_string()).collect();
        let buffer = Buffer::default();
        let mut log = JsonLog::new(buffer.clone(), names).with_options(changes);
        mexican_train::play_match(&rules, parse_seed(seed).unwrap(), &mut bots, &mut log);
        assert!(script.0.lock().unwrap().is_empty(), "every choice was asked for");
        assert_eq!(String::from_utf8(buffer.0.borrow().clone()).unwrap(), s.log_text());
    }
}

#[test]
fn a_review_grades_each_of_the_persons_decisions_and_rewinds_to_one() {
    let mut s = Session::new(spec(&["human", "greedy"], "5")).unwrap();
    play_out(&mut s);
    let all = s.review(None, 0).unwrap();
    let total = all["total"].as_u64().unwrap() as usize;
    assert_eq!(total, s.choices.len(), "every choice is a decision reviewed");
    let first_round = s.review(Some(1), 0).unwrap();
    assert_eq!(first_round["choice"], 0);
    assert_eq!(first_round["row"]["seat"], 0);
    assert_eq!(first_round["row"]["round"], 1);
    let grade = first_round["row"]["grade"].as_str().unwrap();
    assert!(["", "inaccuracy", "mistake", "blunder"].contains(&grade), "{grade}");
    assert!(s.review(Some(1), total + 5).unwrap().get("row").is_none());
    // Back to the third decision: two choices kept, the person to act.
    let log = s.log_text();
    s.rewind(2).unwrap();
    assert_eq!(s.choices.len(), 2);
    assert!(s.person().is_some());
    assert!(log.starts_with(&s.log_text()));
}
