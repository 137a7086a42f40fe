//! What one decision of each built-in bot costs at two players under every preset, where draws
//! swell hands the most, for `scripts/bench/bench-decision-cost.sh`: one CSV row per preset and bot.
//!
//! Each bot plays `MATCHES` full matches against itself (seeds 1..=MATCHES). A decision's cost
//! is what happens between two consecutive events of a round (each event follows at most one
//! decision): wall time, plan-search nodes expanded ([`plan_nodes_on_this_thread`]) and rollouts
//! played ([`rollouts_on_this_thread`]). The node and rollout columns and `max_hand` do not
//! depend on the machine; the times do.
//!
//! Usage: `decision_cost MATCHES [PRESET,...] [BOT,...]` (stdout: CSV).
use std::time::Instant;

use mexican_train::game::{MatchObserver, play_match};
use mexican_train::round::{Event, Observer, RoundState, Seat};
use mexican_train::strategies::plan::plan_nodes_on_this_thread;
use mexican_train::strategies::rollouts_on_this_thread;
use mexican_train::{Bot, Rules};

const PRESETS: &str = "wikipedia,celko1998,dominorules,family_house,harbour_cay";
const BOTS: &str = "random,greedy,planner,hoarder,cutthroat,weighted,montecarlo,expert,oracle";

/// Costs of the decisions seen so far, and the largest hand.
struct Costs {
    last: Instant,
    nodes: u64,
    rollouts: u64,
    hands: [i32; 2],
    max_hand: i32,
    /// (milliseconds, nodes, rollouts) of each decision.
    seen: Vec<(f64, u64, u64)>,
}

impl Costs {
    fn mark(&mut self) {
        self.last = Instant::now();
        self.nodes = plan_nodes_on_this_thread();
        self.rollouts = rollouts_on_this_thread();
    }
}

impl Observer for Costs {
    fn event(&mut self, ev: &Event) {
        let ms = self.last.elapsed().as_secs_f64() * 1e3;
        let nodes = plan_nodes_on_this_thread() - self.nodes;
        let rollouts = rollouts_on_this_thread() - self.rollouts;
        let mut hand = |s: Seat, d: i32| {
            self.hands[s.index()] += d;
            self.max_hand = self.max_hand.max(self.hands[s.index()]);
        };
        match *ev {
            Event::Play { seat, .. } | Event::Engine { seat, .. } => hand(seat, -1),
            Event::Draw { seat, .. } => hand(seat, 1),
            Event::Penalty { seat, tiles, .. } => hand(seat, tiles.iter().flatten().count() as i32),
            _ => {}
        }
        self.seen.push((ms, nodes, rollouts));
        self.mark();
    }
}

impl MatchObserver for Costs {
    fn round_start(&mut self, _round: u8, state: &RoundState) {
        for s in 0..2 {
            self.hands[s] = state.hand(Seat::from_index(s)).len() as i32;
            self.max_hand = self.max_hand.max(self.hands[s]);
        }
        self.mark();
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let matches: u64 = a.first().and_then(|m| m.parse().ok()).expect("decision_cost MATCHES [PRESETS] [BOTS]");
    let presets = a.get(1).map_or(PRESETS, String::as_str);
    let bots = a.get(2).map_or(BOTS, String::as_str);
    println!("preset,bot,matches,decisions,max_hand,mean_ms,p99_ms,max_ms,mean_nodes,max_nodes,max_rollouts");
    for preset in presets.split(',') {
        let rules = Rules { players: 2, ..Rules::preset(preset).expect("a preset") };
        let mut costs =
            Costs { last: Instant::now(), nodes: 0, rollouts: 0, hands: [0; 2], max_hand: 0, seen: Vec::new() };
        for bot in bots.split(',') {
            costs.seen.clear();
            costs.max_hand = 0;
            for seed in 1..=matches {
                let mut seats = vec![Bot::parse(bot).expect("a bot"), Bot::parse(bot).expect("a bot")];
                play_match(&rules, seed, &mut seats, &mut costs);
            }
            let n = costs.seen.len();
            let mut ms: Vec<f64> = costs.seen.iter().map(|c| c.0).collect();
            ms.sort_by(f64::total_cmp);
            let nodes: u64 = costs.seen.iter().map(|c| c.1).sum();
            let max_nodes = costs.seen.iter().map(|c| c.1).max().unwrap_or(0);
            let max_rollouts = costs.seen.iter().map(|c| c.2).max().unwrap_or(0);
            println!(
                "{preset},{bot},{matches},{n},{},{:.4},{:.3},{:.3},{:.0},{max_nodes},{max_rollouts}",
                costs.max_hand,
                ms.iter().sum::<f64>() / n as f64,
                ms[(n * 99 / 100).min(n - 1)],
                ms[n - 1],
                nodes as f64 / n as f64,
            );
        }
    }
}
