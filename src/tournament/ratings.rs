//! Ratings: the whole field on one Elo scale, with 95% intervals over deals.
//!
//! **Model.** Bradley-Terry on the head-to-head comparisons (`pairs.csv`): bot `i` finishes
//! ahead of bot `j` with probability `1 / (1 + 10^((r_j - r_i) / 400))`, a level finish counting
//! half a comparison won by each. At tables of more than two, every two bots at the table make
//! one comparison, as in `pairs.csv`. The ratings `r` maximise the likelihood of all
//! comparisons, with the anchor bot held at 0. Each pair that met also gets one virtual
//! comparison ending level (the prior of rating programs such as BayesElo), which keeps the
//! rating of a bot that won or lost every comparison finite; with hundreds of comparisons a
//! pair it moves a rating by well under one Elo.
//!
//! **Intervals.** The comparisons of one deal are not independent (rotations share the tiles,
//! and at a table of four six pairs meet in every game), so the covariance of the ratings is
//! the robust "sandwich" `H⁻¹ V H⁻¹ · D / (D − 1)` over the `D` deals: `H` the information of
//! the model, `V` the between-deal covariance of the rating equations, computed exactly from
//! the tally's sums of products of per-deal pair totals ([`super::tally::PairProducts`]). The
//! interval of a bot is `r ± 1.96 se` relative to the anchor. A bot that never met the anchor's
//! part of the field (no chain of comparisons) has no rating.

use super::tally::{Tally, triangle_index};
use crate::stats::Z95;

/// Elo points per natural-log unit of odds.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Virtual comparisons ending level added to every pair that met.
pub(crate) const PRIOR_DRAWS: f64 = 1.0;

/// One bot's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Rating {
    /// Elo relative to the anchor (NaN when the bot is not connected to it).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// Standard error (0 for the anchor).
    pub se: f64,
    /// Comparisons the bot took part in.
    pub comparisons: u64,
}

/// The field's ratings, in field order.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Ratings {
    /// Field index of the bot held at 0.
    pub anchor: usize,
    /// One per bot.
    pub bots: Vec<Rating>,
}

/// Head-to-head data of one pair, in comparisons.
#[derive(Clone, Copy)]
struct PairData {
    i: usize,
    j: usize,
    /// Comparisons `i` won (a level one counting half).
    won: f64,
    /// Comparisons.
    n: f64,
}

/// Ratings of the field in `t`, anchored at `anchor`.
///
/// # Panics
/// Panics if `anchor` is not a field index.
#[doc(hidden)] // the runner's parts, for the integration tests
pub fn ratings(t: &Tally, anchor: usize) -> Ratings {
    let bots = t.layout.bots;
    assert!(anchor < bots, "anchor {anchor} outside a field of {bots}");
    let mut pairs = Vec::with_capacity(t.layout.pair_count());
    let mut comparisons = vec![0u64; bots];
    for i in 0..bots {
        for j in i + 1..bots {
            let c = t.pair_score(i, j);
            let n = c.units as f64 / 2.0;
            comparisons[i] += c.units / 2;
            comparisons[j] += c.units / 2;
            pairs.push(PairData { i, j, won: c.sum as f64 / 2.0, n });
        }
    }
    let connected = component(bots, anchor, &pairs);
    // Rated bots other than the anchor, and each one's coordinate.
    let free: Vec<usize> = (0..bots).filter(|&b| b != anchor && connected[b]).collect();
    let mut coord = vec![usize::MAX; bots];
    for (k, &b) in free.iter().enumerate() {
        coord[b] = k;
    }
    let unrated = Rating { elo: f64::NAN, lo: f64::NAN, hi: f64::NAN, se: f64::NAN, comparisons: 0 };
    let mut out = vec![unrated; bots];
    out[anchor] = Rating { elo: 0.0, lo: 0.0, hi: 0.0, se: 0.0, comparisons: comparisons[anchor] };
    for (b, r) in out.iter_mut().enumerate() {
        r.comparisons = comparisons[b];
    }
    if free.is_empty() {
        return Ratings { anchor, bots: out };
    }
    let beta = fit(bots, &pairs, &coord, free.len());
    let cov = sandwich(t, &pairs, &beta, &coord, free.len());
    for (k, &b) in free.iter().enumerate() {
        let elo = ELO * beta[b];
        let se = cov.as_ref().map_or(f64::NAN, |c| ELO * c[k * free.len() + k].max(0.0).sqrt());
        out[b] = Rating { elo, lo: elo - Z95 * se, hi: elo + Z95 * se, se, comparisons: comparisons[b] };
    }
    Ratings { anchor, bots: out }
}

/// Which bots are linked to `anchor` by a chain of pairs that met.
fn component(bots: usize, anchor: usize, pairs: &[PairData]) -> Vec<bool> {
    let mut seen = vec![false; bots];
    seen[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for p in pairs.iter().filter(|p| p.n > 0.0) {
            if seen[p.i] != seen[p.j] {
                seen[p.i] = true;
                seen[p.j] = true;
                grew = true;
            }
        }
    }
    seen
}

/// Probability that `i` finishes ahead of `j` at log-odds ratings `beta`.
fn p_ahead(beta: &[f64], i: usize, j: usize) -> f64 {
    1.0 / (1.0 + (beta[j] - beta[i]).exp())
}

/// Maximum likelihood (with the prior's virtual draws) by Newton's method: log-odds ratings
/// per bot, the anchor and unrated bots at 0.
fn fit(bots: usize, pairs: &[PairData], coord: &[usize], k: usize) -> Vec<f64> {
    let mut beta = vec![0.0; bots];
    for _ in 0..200 {
        let (grad, hess) = equations(pairs, &beta, coord, k, PRIOR_DRAWS);
        let Some(inv) = invert(&hess, k) else { break };
        let mut largest = 0f64;
        for b in 0..bots {
            if coord[b] == usize::MAX {
                continue;
            }
            let step: f64 = (0..k).map(|c| inv[coord[b] * k + c] * grad[c]).sum();
            // Damped: no step moves a rating by more than 3 log-odds units (about 520 Elo).
            beta[b] += step.clamp(-3.0, 3.0);
            largest = largest.max(step.abs());
        }
        if largest < 1e-12 {
            break;
        }
    }
    beta
}

/// Gradient and information matrix (minus the Hessian) of the log-likelihood over the free
/// coordinates, each pair counted with `prior` extra level comparisons.
fn equations(pairs: &[PairData], beta: &[f64], coord: &[usize], k: usize, prior: f64) -> (Vec<f64>, Vec<f64>) {
    let mut grad = vec![0.0; k];
    let mut hess = vec![0.0; k * k];
    for p in pairs.iter().filter(|p| p.n > 0.0) {
        let (won, n) = (p.won + prior / 2.0, p.n + prior);
        let q = p_ahead(beta, p.i, p.j);
        let r = won - n * q;
        let w = n * q * (1.0 - q);
        let (ci, cj) = (coord[p.i], coord[p.j]);
        if ci != usize::MAX {
            grad[ci] += r;
            hess[ci * k + ci] += w;
        }
        if cj != usize::MAX {
            grad[cj] -= r;
            hess[cj * k + cj] += w;
        }
        if ci != usize::MAX && cj != usize::MAX {
            hess[ci * k + cj] -= w;
            hess[cj * k + ci] -= w;
        }
    }
    (grad, hess)
}

/// The robust covariance of the free log-odds ratings, or `None` with fewer than two deals or
/// a singular information matrix.
fn sandwich(t: &Tally, pairs: &[PairData], beta: &[f64], coord: &[usize], k: usize) -> Option<Vec<f64>> {
    let d = t.deals as f64;
    if t.deals < 2 {
        return None;
    }
    let (_, hess) = equations(pairs, beta, coord, k, PRIOR_DRAWS);
    let inv = invert(&hess, k)?;
    // V over the free coordinates from the pair-level covariances of the per-deal residuals
    // r_a = (x_a - m_a q_a) / 2 (x, m in half comparisons): Σ_d r_a r_b =
    // (Σ x_a x_b - q_b Σ x_a m_b - q_a Σ x_b m_a + q_a q_b Σ m_a m_b) / 4.
    let np = pairs.len();
    let q: Vec<f64> = pairs.iter().map(|p| p_ahead(beta, p.i, p.j)).collect();
    let pr = &t.products;
    let mut v = vec![0.0; k * k];
    for a in 0..np {
        for b in 0..np {
            let (lo, hi) = (a.min(b), a.max(b));
            let tri = triangle_index(np, lo, hi);
            let (xx, mm) = (pr.xx[tri] as f64, pr.mm[tri] as f64);
            let (xa_mb, xb_ma) = (pr.xm[a * np + b] as f64, pr.xm[b * np + a] as f64);
            let cov = (xx - q[b] * xa_mb - q[a] * xb_ma + q[a] * q[b] * mm) / 4.0;
            if cov == 0.0 {
                continue;
            }
            for (ka, sa) in signs(&pairs[a], coord) {
                for (kb, sb) in signs(&pairs[b], coord) {
                    v[ka * k + kb] += sa * sb * cov;
                }
            }
        }
    }
    // H⁻¹ V H⁻¹, with the small-sample factor D / (D - 1).
    let mut tmp = vec![0.0; k * k];
    for r in 0..k {
        for c in 0..k {
            tmp[r * k + c] = (0..k).map(|m| inv[r * k + m] * v[m * k + c]).sum();
        }
    }
    let mut cov = vec![0.0; k * k];
    for r in 0..k {
        for c in 0..k {
            cov[r * k + c] = (0..k).map(|m| tmp[r * k + m] * inv[m * k + c]).sum::<f64>() * d / (d - 1.0);
        }
    }
    Some(cov)
}

/// The free coordinates a pair's equation touches: +1 for its first bot, -1 for its second.
fn signs(p: &PairData, coord: &[usize]) -> impl Iterator<Item = (usize, f64)> {
    [(coord[p.i], 1.0), (coord[p.j], -1.0)].into_iter().filter(|&(c, _)| c != usize::MAX)
}

/// The inverse of the `k × k` matrix `m` (row-major) by Gauss-Jordan elimination with partial
/// pivoting, or `None` if it is singular. Hand-written: the matrices are as small as the
/// field (a dozen bots), and a linear-algebra crate for one inverse would outweigh the rest
/// of the statistics.
fn invert(m: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut a = m.to_vec();
    let mut inv = vec![0.0; k * k];
    for i in 0..k {
        inv[i * k + i] = 1.0;
    }
    let scale = m.iter().fold(0f64, |s, x| s.max(x.abs())).max(f64::MIN_POSITIVE);
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x * k + col].abs().total_cmp(&a[y * k + col].abs()))?;
        if a[pivot * k + col].abs() <= 1e-12 * scale {
            return None;
        }
        if pivot != col {
            for c in 0..k {
                a.swap(pivot * k + c, col * k + c);
                inv.swap(pivot * k + c, col * k + c);
            }
        }
        let d = a[col * k + col];
        for c in 0..k {
            a[col * k + c] /= d;
            inv[col * k + c] /= d;
        }
        for r in 0..k {
            if r != col {
                let f = a[r * k + col];
                if f != 0.0 {
                    for c in 0..k {
                        a[r * k + c] -= f * a[col * k + c];
                        inv[r * k + c] -= f * inv[col * k + c];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Elo difference for a head-to-head score `s` (infinite at 0 and 1).
pub(crate) fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;
    use crate::tournament::{DealAcc, Layout};
    use rand::Rng;

    /// A tally of `deals` synthetic deals: in each, every bot draws a performance
    /// `beta + Gumbel noise` and the order of performances decides every pair, replayed `reps`
    /// times (as rotations of one deal repeat much of its luck). The difference of two Gumbel
    /// variables is logistic, so each pair follows Bradley-Terry exactly at log-odds `beta`,
    /// while the pairs of one deal are correlated and its replays identical.
    fn synthetic(beta: &[f64], deals: u64, reps: u64, seed: u64) -> Tally {
        let layout = Layout { bots: beta.len(), players: 2 };
        let mut t = Tally::new(layout);
        let mut acc = DealAcc::new(layout);
        let mut rng = rng_from_seed(seed);
        for _ in 0..deals {
            let perf: Vec<f64> = beta
                .iter()
                .map(|b| {
                    let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
                    b - (-u.ln()).ln()
                })
                .collect();
            for i in 0..beta.len() {
                for j in i + 1..beta.len() {
                    acc.add_pair(i, j, if perf[i] > perf[j] { 2 * reps } else { 0 }, 2 * reps);
                }
            }
            t.fold(&mut acc);
        }
        t
    }

    #[test]
    fn recovers_the_ratings_of_a_large_synthetic_field() {
        let beta = [0.0, 0.8, -0.5, 1.5];
        let r = ratings(&synthetic(&beta, 40_000, 1, 7), 0);
        for (b, want) in beta.iter().enumerate() {
            let got = r.bots[b].elo / ELO;
            assert!((got - want).abs() < 0.05, "bot {b}: {got} for {want}");
            assert!(r.bots[b].lo <= ELO * want && ELO * want <= r.bots[b].hi, "bot {b}: {:?}", r.bots[b]);
        }
        assert_eq!(r.bots[0].comparisons, 3 * 40_000);
    }

    /// 400 synthetic tournaments of 150 deals, each deal replayed 4 times: the 95% intervals
    /// cover the true ratings about 95% of the time. Intervals that treated the replays as
    /// independent would be half as wide and cover far less.
    #[test]
    fn intervals_cover_the_true_ratings_despite_correlated_deals() {
        let beta = [0.0, 0.4, -0.7];
        let runs = 400;
        let mut covered = [0u32; 3];
        for run in 0..runs {
            let r = ratings(&synthetic(&beta, 150, 4, 1000 + run), 0);
            for b in 1..3 {
                let truth = ELO * beta[b];
                covered[b] += u32::from(r.bots[b].lo <= truth && truth <= r.bots[b].hi);
            }
        }
        for &c in &covered[1..] {
            let rate = f64::from(c) / runs as f64;
            assert!((0.92..=0.98).contains(&rate), "coverage {rate}");
        }
    }

    #[test]
    fn a_bot_with_no_chain_to_the_anchor_is_unrated() {
        let layout = Layout { bots: 4, players: 2 };
        let mut t = Tally::new(layout);
        let mut acc = DealAcc::new(layout);
        for d in 0..10u64 {
            acc.add_pair(0, 1, 2 * (d % 2), 2);
            acc.add_pair(2, 3, 2, 2);
            t.fold(&mut acc);
        }
        let r = ratings(&t, 0);
        assert!(r.bots[1].elo.abs() < 1e-9 && r.bots[1].se > 0.0);
        assert!(r.bots[2].elo.is_nan() && r.bots[3].elo.is_nan());
        // Anchored in the other part, the first two are the unrated ones; the prior keeps a
        // bot that won every comparison finite: 10 won of 10, plus one level, is 10.5 of 11.
        let r = ratings(&t, 3);
        assert!(r.bots[0].elo.is_nan());
        assert!((r.bots[2].elo - ELO * (10.5f64 / 0.5).ln()).abs() < 1e-6, "{:?}", r.bots[2]);
    }

    #[test]
    fn inverse_of_a_small_matrix() {
        let m = [4.0, -2.0, 0.0, -2.0, 5.0, -1.0, 0.0, -1.0, 3.0];
        let inv = invert(&m, 3).unwrap();
        for r in 0..3 {
            for c in 0..3 {
                let v: f64 = (0..3).map(|x| m[r * 3 + x] * inv[x * 3 + c]).sum();
                assert!((v - f64::from(u8::from(r == c))).abs() < 1e-12);
            }
        }
        assert_eq!(invert(&[1.0, 2.0, 2.0, 4.0], 2), None);
    }

    #[test]
    fn elo_of_a_score() {
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!((score_to_elo(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert!(score_to_elo(1.0).is_infinite());
    }
}
