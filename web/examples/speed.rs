//! The native side of scripts/bench/web-speed.sh: the page's speed measurement
//! (`mtrain_web::lab::greedy_rounds`) run natively, three times; prints the median rate.
//!
//! Usage: cargo run --release -p mtrain-web --example speed -- [ROUNDS]

fn main() {
    let rounds: u32 = std::env::args().nth(1).map_or(20_000, |a| a.parse().expect("ROUNDS is a number"));
    let mut rates: Vec<f64> = (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            let played = mtrain_web::lab::greedy_rounds(rounds);
            played as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    println!("{:.0}", rates[1]);
}
