//! Deal tables: tiles per player by set and player count (`docs/rules.md` gives each table and its sources).

/// One row: on double-`set`, `players_lo..=players_hi` players draw `hand` tiles each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealRow {
    /// Highest double of the set.
    pub set: u8,
    /// Fewest players the row covers.
    pub players_lo: u8,
    /// Most players the row covers.
    pub players_hi: u8,
    /// Tiles per player.
    pub hand: u8,
}

/// A preset's deal table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealTable(pub &'static [DealRow]);

const fn row(set: u8, players_lo: u8, players_hi: u8, hand: u8) -> DealRow {
    DealRow { set, players_lo, players_hi, hand }
}

impl DealTable {
    /// `wikipedia` (engine default): the Galt 1994 row of the Encyclopedia's table for d12; its
    /// Glowing Eye, Parsons 1994, Mexican Train Fun and DillyDally rows for the others.
    pub(crate) const WIKIPEDIA: DealTable = DealTable(&[
        row(6, 2, 2, 9),
        row(6, 3, 3, 8),
        row(6, 4, 4, 6),
        row(9, 2, 2, 12),
        row(9, 3, 3, 11),
        row(9, 4, 4, 10),
        row(12, 2, 4, 15),
        row(12, 5, 6, 12),
        row(12, 7, 8, 11),
        row(15, 9, 12, 11),
        row(18, 6, 9, 11),
        row(18, 13, 13, 11),
    ]);

    /// `celko1998` (engine default, the source's table is lost): the Galt 1994 row, double-12 only.
    pub(crate) const CELKO1998: DealTable = DealTable(&[row(12, 2, 4, 15), row(12, 5, 6, 12), row(12, 7, 8, 11)]);

    /// `dominorules`: dominorules.com for double-12; engine defaults for double-9, -15 and -18.
    pub(crate) const DOMINORULES: DealTable = DealTable(&[
        row(9, 2, 2, 12),
        row(9, 3, 3, 11),
        row(9, 4, 4, 10),
        row(12, 2, 2, 16),
        row(12, 3, 3, 15),
        row(12, 4, 4, 14),
        row(12, 5, 5, 12),
        row(12, 6, 6, 11),
        row(12, 7, 7, 10),
        row(12, 8, 8, 9),
        row(15, 9, 12, 11),
        row(18, 9, 13, 11),
    ]);

    /// `family_house` (engine default, the source's table is missing): the Great Harbour Cay table
    /// for double-12; double-9 from the Encyclopedia's Parsons 1994 row, 5 players from its unnamed row.
    pub(crate) const FAMILY_HOUSE: DealTable = DealTable(&[
        row(9, 2, 2, 12),
        row(9, 3, 3, 11),
        row(9, 4, 4, 10),
        row(9, 5, 5, 9),
        row(12, 2, 4, 15),
        row(12, 5, 6, 12),
        row(12, 7, 8, 10),
        row(12, 9, 10, 8),
    ]);

    /// `harbour_cay`: Great Harbour Cay, Dealing.
    pub(crate) const HARBOUR_CAY: DealTable =
        DealTable(&[row(12, 2, 4, 15), row(12, 5, 6, 12), row(12, 7, 8, 10), row(12, 9, 10, 8)]);

    /// Tiles per player for (set, players), if the table has a row.
    pub(crate) fn hand(&self, set: u8, players: u8) -> Option<u8> {
        self.0.iter().find(|r| r.set == set && (r.players_lo..=r.players_hi).contains(&players)).map(|r| r.hand)
    }

    /// Whether any row uses the set.
    pub(crate) fn has_set(&self, set: u8) -> bool {
        self.0.iter().any(|r| r.set == set)
    }

    /// The sets in the table, e.g. "6, 9, 12, 15, 18".
    pub(crate) fn sets_text(&self) -> String {
        let mut sets: Vec<u8> = self.0.iter().map(|r| r.set).collect();
        sets.dedup();
        sets.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
    }

    /// The player counts the table covers for a set, e.g. "2-8" or "6-9, 13".
    pub(crate) fn players_text(&self, set: u8) -> String {
        let mut spans: Vec<(u8, u8)> = Vec::new();
        for r in self.0.iter().filter(|r| r.set == set) {
            match spans.last_mut() {
                Some(last) if last.1 + 1 == r.players_lo => last.1 = r.players_hi,
                _ => spans.push((r.players_lo, r.players_hi)),
            }
        }
        spans
            .iter()
            .map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Every (players, hand) pair the table gives for a set, in player order.
    pub fn entries(&self, set: u8) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.0
            .iter()
            .filter(move |r| r.set == set)
            .flat_map(|r| (r.players_lo..=r.players_hi).map(move |p| (p, r.hand)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikipedia_table_reads_as_published() {
        let t = DealTable::WIKIPEDIA;
        assert_eq!(t.hand(12, 3), Some(15));
        assert_eq!(t.hand(12, 6), Some(12));
        assert_eq!(t.hand(12, 8), Some(11));
        assert_eq!(t.hand(12, 9), None);
        assert_eq!(t.hand(18, 13), Some(11));
        assert_eq!(t.hand(18, 10), None);
        assert_eq!(t.players_text(12), "2-8");
        assert_eq!(t.players_text(18), "6-9, 13");
        assert_eq!(t.sets_text(), "6, 9, 12, 15, 18");
        assert_eq!(t.entries(6).collect::<Vec<_>>(), vec![(2, 9), (3, 8), (4, 6)]);
    }
}
