//! SPSA tuning of a bot's numeric parameters (`mtrain tune`).
//!
//! Simultaneous perturbation stochastic approximation, as chess engines tune their evaluation
//! weights: each iteration perturbs every parameter at once by `±c_k` (a random sign per
//! parameter), plays the two perturbed bots against each other on duplicate deals, and moves
//! every parameter by `a_k · (s − ½) / (c_k · Δ_i)`, where `s` is the first bot's head-to-head
//! score and `Δ_i` the sign of parameter `i`. Two games' worth of information move all the
//! parameters at once, whatever their number.
//!
//! The search runs in unit coordinates: each parameter's range `[lo, hi]` maps to `[0, 1]`, so
//! one step size suits all of them, and every point is clamped into its range. The gains
//! follow Spall's recommended decay: `c_k = c / (k + 1)^0.101` and
//! `a_k = r · c² · ((A + 1) / (A + k + 1))^0.602` with `A` a tenth of the iterations; so the
//! first step moves a parameter by `r · c · (s − ½)` of its range (with the defaults `c = 0.1`
//! and `r = 2`, a score of 55% moves it 1%).
//!
//! Everything is seeded: iteration `k`'s signs come from `mix(seed, SIGNS + k)` and its deals
//! from the master seed `mix(seed, k)`, so a run is reproducible at any thread count and a
//! resumed run continues exactly; the confirmation games (`mix(seed, CONFIRM)`) use deals no
//! iteration played.

use crate::rng::{rng_from_seed, seeds};
use crate::strategy::StrategySpec;
use rand::RngCore;

mod run;

pub use run::{Confirmation, Row, TUNE_FORMAT, TuneError, TuneState, Tuning, TuningSpec};

/// One tuned parameter and its range.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)] // SPSA's parts, for the integration tests
pub struct TuneParam {
    /// The bot's parameter key.
    pub key: String,
    /// Lower end of the range.
    pub lo: f64,
    /// Upper end of the range.
    pub hi: f64,
    /// Whether the bot takes whole numbers only (values are rounded).
    pub integer: bool,
}

impl TuneParam {
    /// Parses `key=lo:hi` (`lo < hi`, both finite numbers).
    ///
    /// # Errors
    /// A message naming the problem.
    pub fn parse(s: &str) -> Result<TuneParam, crate::error::InvalidInput> {
        let bad = || format!("invalid --param '{s}': expected key=lo:hi with numbers lo < hi, e.g. pips=0:3");
        let (key, range) = s.split_once('=').ok_or_else(bad)?;
        let (lo, hi) = range.split_once(':').ok_or_else(bad)?;
        let (lo, hi): (f64, f64) = (lo.trim().parse().map_err(|_| bad())?, hi.trim().parse().map_err(|_| bad())?);
        let key = key.trim();
        if key.is_empty() || !lo.is_finite() || !hi.is_finite() {
            return Err(bad().into());
        }
        if lo >= hi {
            return Err(format!("invalid --param '{s}': the range is empty (lo {lo} is not below hi {hi})").into());
        }
        Ok(TuneParam { key: key.to_string(), lo, hi, integer: false })
    }

    /// The value at unit coordinate `u` (rounded for an integer parameter).
    pub fn value(&self, u: f64) -> f64 {
        let v = self.lo + u.clamp(0.0, 1.0) * (self.hi - self.lo);
        if self.integer { v.round() } else { v }
    }

    /// The unit coordinate of value `v`, clamped into the range.
    pub fn unit(&self, v: f64) -> f64 {
        ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }

    /// `v` as the bot reads it: an integer, or a decimal with 6 places, trailing zeros cut.
    pub fn text(&self, v: f64) -> String {
        if self.integer {
            return format!("{}", v.round() as i64);
        }
        let s = format!("{v:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" { "0".to_string() } else { s.to_string() }
    }
}

/// The gains and length of a run.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Gains {
    /// Iterations.
    pub iterations: u64,
    /// Perturbation size in unit coordinates at the first iteration.
    pub c: f64,
    /// Learning rate (see the module docs).
    pub r: f64,
}

impl Gains {
    /// `c_k`.
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(0.101)
    }

    /// `a_k`.
    pub fn a_k(&self, k: u64) -> f64 {
        let big_a = self.iterations as f64 / 10.0;
        self.r * self.c * self.c * ((big_a + 1.0) / (big_a + k as f64 + 1.0)).powf(0.602)
    }
}

/// Iteration `k`'s signs, one per parameter.
pub(crate) fn signs(seed: u64, k: u64, d: usize) -> Vec<f64> {
    let mut rng = rng_from_seed(seeds::tune_signs(seed, k));
    (0..d).map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect()
}

/// The two points an iteration plays, in unit coordinates: `u ± c_k Δ`, clamped.
pub(crate) fn perturbed(u: &[f64], delta: &[f64], c_k: f64) -> (Vec<f64>, Vec<f64>) {
    let plus = u.iter().zip(delta).map(|(x, d)| (x + c_k * d).clamp(0.0, 1.0)).collect();
    let minus = u.iter().zip(delta).map(|(x, d)| (x - c_k * d).clamp(0.0, 1.0)).collect();
    (plus, minus)
}

/// The step after the plus point scored `score` against the minus point.
#[doc(hidden)] // SPSA's parts, for the integration tests
pub fn step(u: &mut [f64], delta: &[f64], gains: &Gains, k: u64, score: f64) {
    let (a, c) = (gains.a_k(k), gains.c_k(k));
    for (x, d) in u.iter_mut().zip(delta) {
        *x = (*x + a * (score - 0.5) / (c * d)).clamp(0.0, 1.0);
    }
}

/// `base` with each tuned parameter set to its value at `u` (other parameters kept).
pub(crate) fn spec_at(base: &StrategySpec, params: &[TuneParam], u: &[f64]) -> StrategySpec {
    let mut spec = base.clone();
    for (p, &x) in params.iter().zip(u) {
        let text = p.text(p.value(x));
        match spec.params.iter_mut().find(|(k, _)| *k == p.key) {
            Some(slot) => slot.1 = text,
            None => spec.params.push((p.key.clone(), text)),
        }
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_and_bad_ones_are_named() {
        let p = TuneParam::parse("pips=0:3").unwrap();
        assert_eq!((p.key.as_str(), p.lo, p.hi), ("pips", 0.0, 3.0));
        assert_eq!(TuneParam::parse(" follow = -1.5 : 2 ").unwrap().lo, -1.5);
        for bad in ["pips", "pips=3", "pips=a:b", "=0:1", "pips=0:inf"] {
            assert!(TuneParam::parse(bad).unwrap_err().contains("expected key=lo:hi"), "{bad}");
        }
        assert!(TuneParam::parse("pips=2:1").unwrap_err().contains("the range is empty"));
        assert!(TuneParam::parse("pips=1:1").unwrap_err().contains("the range is empty"));
    }

    #[test]
    fn values_map_to_units_and_text() {
        let mut p = TuneParam::parse("w=-1:3").unwrap();
        assert_eq!(p.value(0.25), 0.0);
        assert_eq!(p.unit(2.0), 0.75);
        assert_eq!(p.unit(9.0), 1.0);
        assert_eq!(p.text(0.5), "0.5");
        assert_eq!(p.text(-0.0000001), "0");
        assert_eq!(p.text(1.0), "1");
        p.integer = true;
        assert_eq!(p.value(0.3), 0.0);
        assert_eq!(p.text(2.6), "3");
    }

    #[test]
    fn an_iteration_moves_toward_the_winning_point() {
        let gains = Gains { iterations: 100, c: 0.1, r: 2.0 };
        let delta = signs(5, 0, 3);
        assert_eq!(delta, signs(5, 0, 3));
        assert_ne!((0..8).map(|k| signs(5, k, 3)).collect::<Vec<_>>(), vec![delta.clone(); 8]);
        let mut u = vec![0.5; 3];
        let (plus, minus) = perturbed(&u, &delta, gains.c_k(0));
        for i in 0..3 {
            assert!((plus[i] - 0.5 - 0.1 * delta[i]).abs() < 1e-12 && (minus[i] - 0.5 + 0.1 * delta[i]).abs() < 1e-12);
        }
        // The plus point won 60%: every parameter moves toward it, by r·c·0.1 = 2%.
        step(&mut u, &delta, &gains, 0, 0.6);
        for i in 0..3 {
            assert!((u[i] - (0.5 + 0.02 * delta[i])).abs() < 1e-12, "{u:?}");
        }
        // Clamped into the range.
        let mut edge = vec![1.0; 3];
        step(&mut edge, &[1.0, 1.0, 1.0], &gains, 0, 1.0);
        assert_eq!(edge, vec![1.0; 3]);
        assert!(gains.a_k(50) < gains.a_k(0) && gains.c_k(50) < gains.c_k(0));
    }

    #[test]
    fn the_spec_at_a_point_sets_only_the_tuned_keys() {
        let base = StrategySpec { name: "weighted".into(), params: vec![("urgent".into(), "3".into())] };
        let params = [TuneParam::parse("pips=0:2").unwrap(), TuneParam::parse("urgent=0:4").unwrap()];
        assert_eq!(spec_at(&base, &params, &[0.25, 0.5]).to_string(), "weighted:urgent=2,pips=0.5");
    }
}
