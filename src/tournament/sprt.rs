//! Sequential probability ratio test for two-bot comparisons (`--sprt elo0,elo1`).
//!
//! The statistic is bot A's head-to-head score against bot B: per comparison 1 if A finished
//! ahead, ½ for a tie, 0 if behind, averaged per deal (the duplicate deal is the independent
//! unit). Under Elo difference `d` the expected score is `s(d) = 1 / (1 + 10^(-d/400))`. With
//! the observed mean score `x̄` and the squared standard error `v` of that mean over deals, the
//! generalized SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) is the normal one:
//!
//! `LLR = (s1 - s0) (2 x̄ - s0 - s1) / (2 v)`.
//!
//! The test stops for H1 when `LLR >= ln((1-β)/α)` and for H0 when `LLR <= ln(β/(1-α))`.
//! α = β = 0.05 by default. It is evaluated after every chunk, in chunk order, so the stopping
//! point does not depend on the number of threads.

use crate::stats::Cluster;

/// The test's settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// False positive rate.
    pub(crate) alpha: f64,
    /// False negative rate.
    pub(crate) beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct SprtState {
    /// The log-likelihood ratio.
    pub(crate) llr: f64,
    /// Lower bound (accept H0).
    pub lower: f64,
    /// Upper bound (accept H1).
    pub upper: f64,
    /// The decision, once made.
    pub decision: Option<Hypothesis>,
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub enum Hypothesis {
    /// `elo0`.
    H0,
    /// `elo1`.
    H1,
}

/// Expected score for an Elo difference.
pub(crate) fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// Parses `elo0,elo1`.
    ///
    /// # Errors
    /// A message naming the expected form.
    pub fn parse(s: &str) -> Result<Sprt, crate::error::InvalidInput> {
        let bad = || "expected two Elo differences elo0,elo1 with elo0 < elo1, like 0,10 or -5,5".to_string();
        let (a, b) = s.split_once(',').ok_or_else(bad)?;
        let (elo0, elo1): (f64, f64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(bad().into());
        }
        Ok(Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 })
    }

    /// Lower and upper bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The LLR from A's head-to-head score cluster (`x` = 2 per win and 1 per tie over `m` = 2
    /// per comparison, so `x/m` is the score).
    pub fn state(&self, score: &Cluster) -> SprtState {
        let (lower, upper) = self.bounds();
        let llr = match score.mean(1.0) {
            Some(e) if score.deals >= 2 => {
                let se = (e.hi - e.value) / crate::stats::Z95;
                let v = se * se;
                let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
                if v > 0.0 { (s1 - s0) * (2.0 * e.value - s0 - s1) / (2.0 * v) } else { 0.0 }
            }
            _ => 0.0,
        };
        let decision = if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        };
        SprtState { llr, lower, upper, decision }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        let t = Sprt::parse("0,10").unwrap();
        let (lo, hi) = t.bounds();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
        // s(10) = 1/(1+10^(-1/40)) = 0.514387.
        assert!((elo_to_score(10.0) - 0.514_387).abs() < 1e-6);
        assert_eq!(elo_to_score(0.0), 0.5);
        // Four deals with head-to-head totals 3, 4, 2, 3 out of 4 half-points each (2
        // comparisons per deal): mean score x̄ = 12/16 = 0.75. The per-deal totals have sample
        // variance 2/3, so v = s² / (D · m̄²) = (2/3) / (4 · 4²) = 1/96.
        let mut c = Cluster::default();
        for x in [3, 4, 2, 3] {
            c.add_deal(x, 4);
        }
        let s = t.state(&c);
        let (s0, s1) = (0.5, elo_to_score(10.0));
        let expect = (s1 - s0) * (2.0 * 0.75 - s0 - s1) / (2.0 / 96.0);
        assert!((s.llr - expect).abs() < 1e-9, "{} vs {expect}", s.llr);
        assert!((s.llr - 0.335_357).abs() < 1e-5, "{}", s.llr);
        assert_eq!(s.decision, None);
        // The same mean over 40 deals decides for H1.
        let mut c = Cluster::default();
        for _ in 0..10 {
            for x in [3, 4, 2, 3] {
                c.add_deal(x, 4);
            }
        }
        assert_eq!(t.state(&c).decision, Some(Hypothesis::H1));
        assert!(Sprt::parse("10,0").is_err() && Sprt::parse("x").is_err());
    }
}
