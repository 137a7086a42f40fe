//! The `oracle`: the one strategy that sees hidden tiles, a ceiling rather than a player.

use mexican_train::strategies::Registry;
use mexican_train::{Bot, GameRng, MoveList, Needs, NoObserver, Rules, Seat, Strategy, View, play_match};
use std::process::Command;

/// Records what its view lets it reach, and plays the first move.
#[derive(Clone, Default)]
struct Peek {
    all: bool,
    asked: usize,
    saw_hidden: usize,
    consistent: bool,
}

impl Strategy for Peek {
    fn choose(&mut self, view: &View<'_>, _moves: &MoveList, _rng: &mut GameRng) -> usize {
        self.asked += 1;
        if let Some(state) = view.hidden() {
            self.saw_hidden += 1;
            // The hidden state is the true one: the hands the view counts, the boneyard's size.
            let ok = (0..view.players())
                .all(|s| state.hand(Seat::new(s).unwrap()).len() == view.hand_size(Seat::new(s).unwrap()))
                && state.boneyard().len() == view.boneyard_len();
            self.consistent &= ok;
        }
        0
    }

    fn needs(&self) -> Needs {
        Needs::SAFE.hidden(self.all)
    }
}

#[test]
fn only_a_strategy_that_declares_it_sees_hidden_tiles() {
    let rules = Rules { players: 3, ..Rules::wikipedia() };
    let mut bots = vec![
        Peek { all: true, consistent: true, ..Peek::default() },
        Peek { consistent: true, ..Peek::default() },
        Peek::default(),
    ];
    play_match(&rules, 4, &mut bots, &mut NoObserver);
    assert!(bots[0].asked > 0 && bots[0].saw_hidden == bots[0].asked && bots[0].consistent);
    assert!(bots[1].asked > 0 && bots[1].saw_hidden == 0);
    assert_eq!(bots[2].saw_hidden, 0);
}

#[test]
fn the_oracle_is_a_ceiling_above_montecarlo_and_never_fielded_by_default() {
    let registry = Registry::builtin();
    assert!(!registry.default_field().contains("oracle"));
    assert!(registry.get("oracle").unwrap().about.starts_with("CEILING, NOT A PLAYER"));
    let err = Bot::parse("oracle:sees=more").unwrap_err().to_string();
    assert!(err.contains("invalid value 'more' for oracle:sees (valid: auto, all, hands)"), "{err}");
    let err = Bot::parse("oracle:search=deep").unwrap_err().to_string();
    assert!(err.contains("invalid value 'deep' for oracle:search (valid: guided, flat)"), "{err}");
    // The guided search's own parameters mean nothing to the flat one: refused, not ignored.
    let err = Bot::parse("oracle:search=flat,prior=2").unwrap_err().to_string();
    assert!(err.contains("oracle:prior") && err.contains("search=guided only"), "{err}");
    assert!(Bot::parse("oracle:prior=2,depth=0").is_ok());
    let err = Bot::parse("oracle:seats=all").unwrap_err().to_string();
    assert!(err.contains("invalid value 'all' for oracle:seats (valid: own, policy)"), "{err}");
    let err = Bot::parse("oracle:search=flat,seats=own").unwrap_err().to_string();
    assert!(err.contains("oracle:seats") && err.contains("search=guided only"), "{err}");
    // Only the model of each seat reads the round's record of decisions.
    assert!(Bot::parse("oracle").unwrap().needs().history);
    assert!(!Bot::parse("oracle:seats=policy").unwrap().needs().history);
    let err = Bot::parse("oracle:samples=0").unwrap_err().to_string();
    assert!(err.contains("oracle:samples"), "{err}");
    // The flat search seeing everything wins far more than half against the same search on
    // sampled worlds; seeing the hands but not the draws, less, but still more than half. The
    // guided search on the true hands wins more than half against `expert` itself.
    let score = |a: &str, b: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_mtrain"))
            .args(["tournament", "--players", "2", "--games", "120", "--seed", "3", "--quiet", "--bots"])
            .arg(format!("{a},{b}"))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let versus = format!(" vs {}", b.split(':').next().unwrap());
        let line = text.lines().find(|l| l.contains(&versus)).unwrap_or_else(|| panic!("{text}")).to_string();
        let lo: f64 = line
            .split("score")
            .nth(1)
            .unwrap()
            .split('[')
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        lo
    };
    assert!(score("oracle:search=flat,samples=4", "montecarlo:samples=4") > 75.0);
    assert!(score("oracle:search=flat,sees=hands,samples=4", "montecarlo:samples=4") > 52.0);
    assert!(score("oracle:samples=16", "expert") > 50.0);
}
