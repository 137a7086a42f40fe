//! The measure of `expert:infer=policy`'s inference from behaviour, for
//! `scripts/studies/study-inference.sh`: one CSV row per probe (a decision of seat 0), with the share
//! of the tiles in the other hands that worlds from each sampler deal to the right hand.
//!
//! Usage: `inference PRESET PLAYERS OPPONENT GAMES SEED WORLDS POOL TEMP` (stdout: CSV).
use mexican_train::round::measure_inference;
use mexican_train::{Bot, Rules};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert_eq!(a.len(), 8, "inference PRESET PLAYERS OPPONENT GAMES SEED WORLDS POOL TEMP");
    let players: u8 = a[1].parse().expect("PLAYERS");
    let rules = Rules { players, ..Rules::preset(&a[0]).expect("a preset") };
    // `weighted` in seat 0, the opponent in the others; the opponent model is `weighted` too,
    // as in `expert:infer=policy`.
    let mut bots: Vec<Bot> =
        (0..players).map(|s| Bot::parse(if s == 0 { "weighted" } else { &a[2] }).expect("an opponent spec")).collect();
    let Ok(Bot::Weighted(mut policy)) = Bot::parse("weighted") else { unreachable!("weighted parses as weighted") };
    let probes = measure_inference(
        &rules,
        &mut bots,
        &mut *policy,
        a[3].parse().expect("GAMES"),
        a[4].parse().expect("SEED"),
        a[5].parse().expect("WORLDS"),
        a[6].parse().expect("POOL"),
        a[7].parse().expect("TEMP"),
    );
    println!("game,played_share,hidden,uniform,policy");
    for p in probes {
        println!("{},{:.4},{},{:.6},{:.6}", p.game, p.played_share, p.hidden, p.uniform, p.policy);
    }
}
