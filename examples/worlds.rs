//! The forecast in sampled worlds against the true hands, for `scripts/studies/study-analyze-worlds.sh`:
//! one CSV row per forecast (see `mexican_train::analyze::worlds::measure`).
//!
//! Usage: `worlds PRESET PLAYERS BOT GAMES SEED WORLDS EVERY` (stdout: CSV).
use mexican_train::Rules;
use mexican_train::analyze::worlds::measure;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert_eq!(a.len(), 7, "worlds PRESET PLAYERS BOT GAMES SEED WORLDS EVERY");
    let players: u8 = a[1].parse().expect("PLAYERS");
    let rules = Rules { players, ..Rules::preset(&a[0]).expect("a preset") };
    let forecasts = measure(
        &rules,
        &a[2],
        a[3].parse().expect("GAMES"),
        a[4].parse().expect("SEED"),
        a[5].parse().expect("WORLDS"),
        a[6].parse().expect("EVERY"),
    )
    .expect("a bot spec");
    println!("game,seat,sampled,planned,true_hands,realised,plan_sampled,plan_planned,plan_true");
    for f in forecasts {
        println!(
            "{},{},{:.6},{:.6},{:.6},{:.4},{:.4},{:.4},{:.4}",
            f.game, f.seat, f.sampled, f.planned, f.true_hands, f.realised, f.plan_sampled, f.plan_planned, f.plan_true
        );
    }
}
