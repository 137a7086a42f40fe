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

fn ask(request: Value) -> Value {
    serde_json::from_str(&handle(&request.to_string())).unwrap()
}

/// Plays a comparison through the lab's ops, a few games a step, and returns the last answer.
fn lab_run(lab: Value, games_a_step: u64) -> Value {
    let mut a = ask(json!({"op": "compare_start", "lab": lab}));
    assert_eq!(a["ok"], true, "{a}");
    let mut steps = 0;
    while a["finished"] != true {
        let before = a["done"].as_u64().unwrap();
        a = ask(json!({"op": "compare_step", "games": games_a_step}));
        assert_eq!(a["ok"], true, "{a}");
        assert!(a["done"].as_u64().unwrap() > before, "every step plays");
        assert!(a["done"].as_u64().unwrap() <= a["total"].as_u64().unwrap());
        steps += 1;
    }
    assert!(steps > 1, "the games came in steps");
    a
}

/// The lab steps through the chunks one at a time on one thread; the command line plays them on
/// a pool of threads. The files are the same: the same comparison, the same folding.
#[test]
fn the_labs_stepped_comparison_writes_what_the_command_lines_threaded_one_writes() {
    let a = lab_run(
        json!({"rulesets": ["wikipedia", "wikipedia:tap=draw_two"], "players": 3, "hands": "9-10",
               "games": 60, "seed": "0x2a", "rounds": 2}),
        25,
    );
    assert_eq!(a["done"], a["total"]);
    let spec = mexican_train::compare::CompareSpec {
        rulesets: vec![
            mexican_train::compare::RuleSet::parse("wikipedia").unwrap(),
            mexican_train::compare::RuleSet::parse("wikipedia:tap=draw_two").unwrap(),
        ],
        set: 12,
        rounds: Some(2),
        players: (3, 3),
        hands: Some((9, 10)),
        bots: mexican_train::balance::DEFAULT_POPULATION.into(),
        games: 60,
        seed: 0x2a,
        margin: mexican_train::compare::MARGIN,
        relative_margin: mexican_train::compare::RELATIVE_MARGIN,
        seconds_per_turn: mexican_train::compare::SECONDS_PER_TURN,
    };
    let registry = Registry::builtin();
    let c = mexican_train::compare::Comparison::new(&spec, &registry).unwrap();
    let mut st = c.new_state(Value::Null, None);
    let opts = mexican_train::tournament::RunOptions::new(3);
    let stopped = c.play::<mexican_train::error::InvalidInput>(&mut st, &opts, &registry, |_| {}, |_| Ok(())).unwrap();
    assert!(!stopped && st.complete());
    assert_eq!(a["total"].as_u64().unwrap(), st.games());
    let files = mexican_train::report::compare::result_files(&c, &st.cells);
    let r = &a["result"];
    assert_eq!(files[0], ("compare.csv".to_string(), r["compare_csv"].as_str().unwrap().to_string()));
    assert_eq!(files[1], ("rulesets.csv".to_string(), r["rulesets_csv"].as_str().unwrap().to_string()));
    assert_eq!(files[2], ("summary.txt".to_string(), r["summary"].as_str().unwrap().to_string()));
    // A row a difference, the CSV's figures as data.
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len() + 1, files[0].1.lines().count());
    let turns = rows.iter().find(|x| x["metric"] == "turns" && x["hand"] == 10).unwrap();
    assert_eq!(turns["headline"], "turns/round");
    assert_eq!(r["min_deals"], mexican_train::compare::MIN_DEALS);
    assert!(turns["deals"].as_u64().unwrap() > 0);
    let line = files[0].1.lines().find(|l| l.starts_with("3,10,") && l.contains(",turns,")).unwrap();
    assert_eq!(line.split(',').nth(7).unwrap(), format!("{:.6}", turns["difference"].as_f64().unwrap()));
    // Asked again, the same results.
    assert_eq!(ask(json!({"op": "compare_result"}))["result"], *r);
}

#[test]
fn the_lab_plays_the_baselines_dealt_hand_unless_asked_and_names_the_command_line() {
    let a = ask(json!({"op": "compare_start", "lab": {"rulesets": ["wikipedia", "wikipedia:tap=draw_two"]}}));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["about"]["hands"], json!([15]));
    assert_eq!(
        a["about"]["command"],
        "mtrain compare --ruleset wikipedia --ruleset wikipedia:tap=draw_two --players 4 --hands 15 --games 200 --seed 1"
    );
    assert_eq!(a["finished"], false);
    let early = ask(json!({"op": "compare_result"}));
    assert!(early["error"].as_str().unwrap().contains("not finished: 0 of"), "{early}");
    let a = ask(json!({"op": "compare_start", "lab": {"rulesets": ["wikipedia", "celko1998:tap=draw_two"],
        "players": 2, "hands": "auto", "games": 7, "seed": "0x10", "bots": "planner, greedy"}}));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["about"]["hands"][0], 5);
    assert_eq!(
        a["about"]["command"],
        "mtrain compare --ruleset wikipedia --ruleset celko1998:tap=draw_two --players 2 --games 7 --bots 'planner, greedy' --seed 16"
    );
}

#[test]
fn a_bad_comparison_is_refused_in_one_line() {
    let lab = |v: Value| {
        let a = ask(json!({"op": "compare_start", "lab": v}));
        assert_eq!(a["ok"], false, "{a}");
        let e = a["error"].as_str().unwrap().to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    };
    let two = |extra: Value| {
        let mut v = json!({"rulesets": ["wikipedia", "wikipedia:tap=draw_two"]});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    assert!(lab(json!({"rulesets": ["wikipedia"]})).contains("at least two rule sets"));
    assert!(lab(json!({"rulesets": []})).contains("at least two rule sets"));
    assert!(lab(json!({"rulesets": ["wikipedai", "wikipedia"]})).contains("unknown preset 'wikipedai'"));
    assert!(lab(json!({"rulesets": ["wikipedia", "wikipedia:tap=never"]})).contains("tap"));
    assert!(lab(json!({"rulesets": ["wikipedia", "wikipedia:tap=always_announced"]})).contains("the same rules"));
    assert!(lab(two(json!({"hands": "30"}))).contains("at most"));
    assert!(lab(two(json!({"hands": "9-x"}))).contains("expected dealt, auto, H or A-B"));
    assert!(lab(two(json!({"hands": "0"}))).contains("expected dealt, auto, H or A-B"));
    assert!(lab(two(json!({"games": 0}))).contains("0 games"));
    assert!(lab(two(json!({"seed": "x"}))).contains("seed 'x'"));
    assert!(lab(two(json!({"players": 1}))).contains("players"));
    assert!(lab(two(json!({"bots": "nobody"}))).contains("nobody"));
    assert!(lab(two(json!({"colour": "red"}))).contains("unknown field `colour`"));
    let a = ask(json!({"op": "compare_step"}));
    assert!(a["error"].as_str().unwrap().contains("'games'"), "{a}");
}
