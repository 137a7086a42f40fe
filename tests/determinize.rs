//! `View::sample_world`: the sampled world keeps everything the seat knows, deals the rest
//! afresh, meets the known voids, and depends on nothing the seat cannot see.

use mexican_train::rng::{below, rng_from_seed};
use mexican_train::*;

/// Random play under `preset` until seat to act has a choice, `stop` choices in.
fn position(preset: &str, players: u8, seed: u64, stop: usize) -> Option<RoundState> {
    let mut rules = Rules::preset(preset).unwrap();
    rules.players = players;
    let mut rng = rng_from_seed(seed);
    let deal = deal::deal_round(&rules, rules.engine_of_round(1), &mut rng);
    let mut st = RoundState::new(&rules, &deal, Seat::from_index(0));
    let mut moves = MoveList::new();
    for _ in 0..stop {
        match st.advance(&mut moves, &mut NoObserver) {
            Step::Over => return None,
            Step::Choice(..) => {
                let m = moves[below(&mut rng, moves.len() as u64) as usize];
                st.play(m, &mut NoObserver).unwrap();
            }
        }
    }
    match st.advance(&mut moves, &mut NoObserver) {
        Step::Over => None,
        Step::Choice(..) => Some(st),
    }
}

fn fits(rules: &Rules, t: Tile, v: u8) -> bool {
    t.contains(Pip::from_u8(v)) || (rules.blanks_wild && (t.contains(Pip::ZERO) || v == 0))
}

#[test]
fn sampled_worlds_keep_the_view_and_meet_the_voids() {
    let mut checked = 0;
    let mut voids_seen = 0;
    let mut redrawn = 0;
    for (i, preset) in ["wikipedia", "dominorules", "celko1998", "family_house", "harbour_cay"].iter().enumerate() {
        for seed in 0..60u64 {
            let Some(st) = position(preset, 4, seed * 7 + i as u64, (seed % 40) as usize) else { continue };
            let me = st.current();
            let view = st.view(me);
            let mut rng = rng_from_seed(seed);
            let w = view.sample_world(&mut rng).expect("seat to act may sample");
            // What the seat knows is unchanged.
            assert_eq!(w.hand(me), st.hand(me));
            assert_eq!(w.view(me).played(), view.played());
            assert_eq!(w.boneyard().len(), st.boneyard().len());
            assert_eq!(w.marker_mask(), st.marker_mask());
            assert_eq!(w.view(me).pending(), view.pending());
            let mut all = w.view(me).played().to_owned();
            for s in 0..4 {
                let seat = Seat::from_index(s);
                assert_eq!(w.hand(seat).len(), st.hand(seat).len());
                assert!(all.intersect(w.hand(seat)).is_empty());
                all = all.union(w.hand(seat));
                assert_eq!(w.view(me).known_voids(seat), view.known_voids(seat));
                if seat != me {
                    for t in w.hand(seat) {
                        for v in 0..=view.rules().set.get() {
                            assert!(view.known_voids(seat) & (1 << v) == 0 || !fits(view.rules(), t, v));
                        }
                    }
                    voids_seen += view.known_voids(seat).count_ones();
                }
            }
            for &t in w.boneyard().as_slice() {
                assert!(all.insert(t), "{t} twice");
            }
            assert_eq!(all, TileSet::full(view.rules().set));
            // The same seed gives the same world.
            let w2 = view.sample_world(&mut rng_from_seed(seed)).unwrap();
            assert_eq!(w2.boneyard().as_slice(), w.boneyard().as_slice());
            // Another seat (a watcher) samples too: its hand and the table kept, every other
            // hand (the acting seat's included) and the boneyard dealt afresh, the seat to act
            // still at a choice.
            let watcher = me.next(4);
            let ww = st.view(watcher).sample_world(&mut rng).expect("a watcher may sample");
            assert_eq!(ww.hand(watcher), st.hand(watcher));
            assert_eq!(ww.current(), me);
            assert_eq!(ww.view(watcher).played(), st.view(watcher).played());
            assert_eq!(ww.boneyard().len(), st.boneyard().len());
            let mut all = ww.view(watcher).played().to_owned();
            for s in 0..4 {
                let seat = Seat::from_index(s);
                assert_eq!(ww.hand(seat).len(), st.hand(seat).len());
                assert!(all.intersect(ww.hand(seat)).is_empty());
                all = all.union(ww.hand(seat));
            }
            for &t in ww.boneyard().as_slice() {
                assert!(all.insert(t), "{t} twice");
            }
            assert_eq!(all, TileSet::full(view.rules().set));
            let mut moves = MoveList::new();
            ww.legal_moves(&mut moves);
            assert!(moves.len() >= 2, "the seat to act still has a choice");
            if ww.hand(me) != st.hand(me) {
                redrawn += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
    assert!(voids_seen > 50, "voids exercised: {voids_seen}");
    assert!(redrawn * 2 > checked, "the acting seat's hand is hidden from a watcher: {redrawn} of {checked}");
}

/// The sampled world is a function of the view and the rng only: two real worlds the seat
/// cannot tell apart give identical samples.
#[test]
fn sampled_world_depends_only_on_the_view() {
    let mut checked = 0;
    for seed in 0..100u64 {
        let Some(real) = position("wikipedia", 4, seed, (seed % 30) as usize) else { continue };
        let me = real.current();
        let other = real.view(me).sample_world(&mut rng_from_seed(seed ^ 0xabc)).unwrap();
        let mut differs = false;
        for s in 0..4 {
            differs |= other.hand(Seat::from_index(s)) != real.hand(Seat::from_index(s));
        }
        let a = real.view(me).sample_world(&mut rng_from_seed(seed)).unwrap();
        let b = other.view(me).sample_world(&mut rng_from_seed(seed)).unwrap();
        for s in 0..4 {
            assert_eq!(a.hand(Seat::from_index(s)), b.hand(Seat::from_index(s)));
        }
        assert_eq!(a.boneyard().as_slice(), b.boneyard().as_slice());
        checked += usize::from(differs);
    }
    assert!(checked > 50, "{checked}");
}

/// `View::sample_world_loose` also meets the void records that later draws loosened: a seat
/// that was void in a value and has since taken in `l + 1` tiles unseen holds at most `l + 1`
/// tiles fitting it. The plain sampler, which forgets those records, breaks the counts.
#[test]
fn loose_sampled_worlds_meet_the_loosened_void_counts() {
    let fitting = |rules: &Rules, hand: &TileSet, mask: u32| {
        hand.iter().filter(|&t| (0..=rules.set.get()).any(|v| mask & (1 << v) != 0 && fits(rules, t, v))).count()
    };
    let (mut checked, mut records, mut plain_breaks) = (0, 0, 0);
    for (i, preset) in ["wikipedia", "dominorules", "celko1998", "family_house", "harbour_cay"].iter().enumerate() {
        for seed in 0..80u64 {
            let Some(st) = position(preset, 4, seed * 11 + i as u64, 20 + (seed % 50) as usize) else { continue };
            let me = st.current();
            let view = st.view(me);
            for k in 0..4u64 {
                let w = view.sample_world_loose(&mut rng_from_seed(seed * 4 + k)).expect("seat to act may sample");
                let p = view.sample_world(&mut rng_from_seed(seed * 4 + k)).unwrap();
                assert_eq!(w.hand(me), st.hand(me));
                assert_eq!(w.view(me).played(), view.played());
                assert_eq!(w.boneyard().len(), st.boneyard().len());
                let mut all = w.view(me).played().union(&TileSet::from_iter(w.boneyard().as_slice().iter().copied()));
                for s in (0..4).map(Seat::from_index) {
                    assert_eq!(w.hand(s).len(), st.hand(s).len());
                    assert!(all.intersect(w.hand(s)).is_empty());
                    all = all.union(w.hand(s));
                    if s == me {
                        continue;
                    }
                    for t in w.hand(s) {
                        for v in 0..=view.rules().set.get() {
                            assert!(view.known_voids(s) & (1 << v) == 0 || !fits(view.rules(), t, v));
                        }
                    }
                    for (l, &mask) in view.loose_voids(s).iter().enumerate() {
                        if mask == 0 {
                            continue;
                        }
                        records += 1;
                        // The true hand meets the count (the engine's records are sound) ...
                        assert!(fitting(view.rules(), st.hand(s), mask) <= l + 1);
                        // ... and so does every loose sample.
                        assert!(
                            fitting(view.rules(), w.hand(s), mask) <= l + 1,
                            "{preset} seed {seed}: seat {s} dealt {} tiles fitting level {l}",
                            fitting(view.rules(), w.hand(s), mask)
                        );
                        plain_breaks += usize::from(fitting(view.rules(), p.hand(s), mask) > l + 1);
                    }
                }
                assert_eq!(all, TileSet::full(view.rules().set));
                checked += 1;
            }
        }
    }
    assert!(checked > 600, "{checked}");
    assert!(records > 100, "loose records exercised: {records}");
    assert!(plain_breaks > 10, "the plain sampler broke a loose count {plain_breaks} times");
}
