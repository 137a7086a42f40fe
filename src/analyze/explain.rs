//! Why one move is better than another, in plain words: a hint's explanation.
//!
//! The analysis ranks moves by playing them out; it cannot say why. The tuned `weighted` policy
//! (the model the analysis plays its rollouts with) scores a move by a weighted sum of named
//! features ([`crate::strategies::FEATURES`]), so the difference between two moves' scores splits
//! into one term a feature: weight × (the best move's value − the other's). [`why`] reads the
//! largest terms in the best move's favour (and the largest against it) and says each in words,
//! with the position's numbers (pips shed, the seat that is about to go out, the tiles the hand
//! keeps for the end left).
//!
//! When the policy alone prefers the other move, the explanation says so: the analysis found the
//! best move by playing the round out, further than the features see.

use super::Analysis;
use crate::round::{Move, MoveKind, Seat, TrainId};
use crate::strategies::{Bot, FEATURES, Features, Weighted};
use crate::strategy::{MatchStart, Strategy};
use crate::view::View;

/// The explanation of `best` over `other` (indices in the legal list).
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// The reasons in the best move's favour, largest first (at most three).
    pub for_best: Vec<String>,
    /// The largest reason against it, if any weighs.
    pub against: Option<String>,
    /// Whether the policy alone scores the best move above the other.
    pub policy_agrees: bool,
}

/// The tuned policy, told of the rules of `view`'s match.
fn policy(view: &View<'_>) -> Weighted {
    let Ok(Bot::Weighted(mut w)) = Bot::parse("weighted") else { unreachable!("weighted is built in") };
    w.match_start(&MatchStart { rules: view.rules(), seat: view.seat(), game: 0, seed: 0 });
    *w
}

/// The feature terms of `best` over `other` that weigh at least this much are said.
const MIN_TERM: f64 = 0.05;

/// Why `best` is preferred to `other` at `view`'s decision with legal moves `moves`.
pub fn why(view: &View<'_>, moves: &[Move], best: usize, other: usize) -> Why {
    let mut w = policy(view);
    let features = w.features(view, moves);
    let weights = *w.weights();
    let score = |f: &Features| match f {
        Features::Bullet => f64::INFINITY,
        Features::End => 0.0,
        Features::Place(x) => x.iter().zip(&weights).map(|(x, w)| x * w).sum(),
    };
    let policy_agrees = score(&features[best]) >= score(&features[other]);
    let (fb, fo) = match (features[best], features[other]) {
        (Features::Place(b), Features::Place(o)) => (b, o),
        (Features::Bullet, _) => {
            return Why { for_best: vec!["goes out at once with a bullet train".into()], against: None, policy_agrees };
        }
        (Features::End, _) => {
            return Why {
                for_best: vec!["keeps the tiles in hand rather than spending one more now".into()],
                against: None,
                policy_agrees,
            };
        }
        (_, Features::End | Features::Bullet) => {
            return Why {
                for_best: vec!["lays a tile now rather than ending the turn".into()],
                against: None,
                policy_agrees,
            };
        }
    };
    let mut terms: Vec<(usize, f64)> =
        (0..FEATURES.len()).map(|j| (j, weights[j] * (fb[j] - fo[j]))).filter(|t| t.1.abs() >= MIN_TERM).collect();
    terms.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    let say = |j: usize| phrase(view, moves, best, other, j, fb[j] > fo[j]);
    let for_best: Vec<String> = terms.iter().filter(|t| t.1 > 0.0).take(3).map(|t| say(t.0)).collect();
    let against = terms.iter().find(|t| t.1 < 0.0).map(|t| say(t.0));
    Why { for_best, against, policy_agrees }
}

/// The tile and train of a placement.
fn placed(moves: &[Move], i: usize) -> Option<(crate::tile::Tile, TrainId)> {
    match moves[i].kind() {
        MoveKind::Place(p) => Some((p.tile, p.train)),
        _ => None,
    }
}

/// Feature `j` in words, for the best move against the other; `more` when the best move has
/// more of it.
fn phrase(view: &View<'_>, moves: &[Move], best: usize, other: usize, j: usize, more: bool) -> String {
    let (Some((tb, _)), Some((to, _))) = (placed(moves, best), placed(moves, other)) else {
        return String::new();
    };
    let me = view.seat();
    let (pb, po) = (tb.pips(), to.pips());
    let end_after = |i: usize| match moves[i].kind() {
        MoveKind::Place(p) => Some(p.new_end(view.train(p.train).end, view.rules().blanks_wild)),
        _ => None,
    };
    let keeps = |i: usize, t: crate::tile::Tile| end_after(i).map_or(0, |e| view.hand().without(t).suit(e).count());
    match FEATURES[j].0 {
        "pips" => format!("sheds {pb} pips from your hand ({to} sheds {po})"),
        "urgent" => {
            let short: Vec<String> = (0..view.players() as usize)
                .map(Seat::from_index)
                .filter(|&s| s != me && view.hand_size(s) <= 2)
                .map(|s| format!("seat {} holds {}", s.index(), view.hand_size(s)))
                .collect();
            format!("sheds {pb} pips now, while {} and may go out soon ({to}: {po})", short.join(" and "))
        }
        "double" if more => format!("lays the double {tb}, which you may follow with another tile"),
        "double" => format!("lays a single tile rather than the double {to}"),
        "open_double" if more => format!("lays the double {tb}, which your hand cannot cover: the others must"),
        "open_double" => format!("does not lay the double {to}, which your hand could not cover"),
        "own" if more => "plays on your own train".into(),
        "own" => "keeps your own train for later (the tuned policy plays elsewhere first)".into(),
        "unmark" if more => "plays on your own marked train, which lifts the marker".into(),
        "unmark" => "leaves the marker on your train for now".into(),
        "mexican" if more => "plays on the Mexican train, open to everyone".into(),
        "mexican" => "keeps off the Mexican train".into(),
        "other" if more => "plays on another seat's open train, keeping your own tiles' chain".into(),
        "other" => "keeps off the other seats' trains".into(),
        "plan" if more => format!("{tb} is the next tile of your own-train chain"),
        "plan" => format!("{to} would be the next tile of your own-train chain, which can wait"),
        "plan_tile" if more => format!("spends {tb}, a tile of your own-train chain"),
        "plan_tile" => format!("keeps your own-train chain intact ({to} belongs to it)"),
        "follow" => format!(
            "leaves an end you hold {} tile{} for ({to}: {})",
            keeps(best, tb),
            if keeps(best, tb) == 1 { "" } else { "s" },
            keeps(other, to)
        ),
        "void_end" if more => "leaves an end the next seat is known to lack".into(),
        "void_end" => format!("does not leave the next seat an end it is known to lack ({to} would)"),
        "unplayed" => {
            let n = |i: usize| end_after(i).map_or(0, |e| view.unplayed(e));
            format!("leaves an end with {} tiles still unseen on the table ({to}: {})", n(best), n(other))
        }
        _ => String::new(),
    }
}

/// The hint's text for analysis `a` of `view`'s decision: the best move, why (against `asked`,
/// the move the player considers, or the runner-up), and which to prefer when the win chance
/// ranks another first. `number` writes a move as the player enters it.
pub fn hint_text(
    a: &Analysis,
    view: &View<'_>,
    moves: &[Move],
    asked: Option<usize>,
    number: impl Fn(usize) -> String,
) -> String {
    let best = a.best();
    let mut s = format!(
        "hint: {} {} (expected {:+.2} points, wins the round {:.1}%)\n",
        number(best.index),
        best.mv,
        best.points.mean,
        100.0 * best.win.mean
    );
    let other = match asked {
        Some(i) if i == best.index => {
            s.push_str(&format!("{} is the move the analysis ranks first\n", number(i)));
            None
        }
        Some(i) => a.of(i),
        None => a.moves.get(1),
    };
    if let Some(o) = other {
        let w = why(view, moves, best.index, o.index);
        s.push_str(&format!(
            "against {} {} (loses {:.2} points [{:.2}, {:.2}]):\n",
            number(o.index),
            o.mv,
            o.loss.mean,
            o.loss.lo,
            o.loss.hi
        ));
        if !w.policy_agrees {
            s.push_str(&format!(
                "  the tuned policy alone would play {}, but played out to the round's end {} comes out ahead: the search sees further than the policy's features\n",
                o.mv, best.mv
            ));
        }
        for r in &w.for_best {
            s.push_str(&format!("  + {r}\n"));
        }
        if let Some(r) = &w.against {
            s.push_str(&format!(
                "  - though {} {r}\n",
                if w.policy_agrees { "it" } else { "the policy weighs that it" }
            ));
        }
    }
    let top_win = a.moves.iter().max_by(|x, y| x.win.mean.total_cmp(&y.win.mean).then(y.index.cmp(&x.index)));
    if let Some(t) = top_win
        && t.index != best.index
        && t.win.mean > best.win.mean
    {
        s.push_str(&format!(
            "by the chance of winning this round {} {} is ahead ({:.1}% against {:.1}%): the match is scored in points, so prefer {}; prefer {} only if winning this round is all that counts\n",
            number(t.index),
            t.mv,
            100.0 * t.win.mean,
            100.0 * best.win.mean,
            best.mv,
            t.mv
        ));
    }
    s
}
