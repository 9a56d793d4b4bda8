//! Who gets a place in a match: `--max-per-match` places in all, `--max-per-match-per-address` for
//! one source address, and which connection a newcomer replaces when there is no free place.
//!
//! The relay cannot tell a player from a stranger who knows the match id, so the rule looks at
//! addresses only, and gives each address a fair share:
//!
//! 1. A newcomer whose address already holds its `per_address` places replaces that address's oldest
//!    connection (a player reconnecting while its stale socket is still open replaces the stale one).
//! 2. Otherwise it takes a free place if there is one.
//! 3. In a full match, it replaces the oldest connection of the address holding the most places
//!    (among addresses holding as many, the one whose oldest connection is oldest), if that address
//!    holds at least two more places than the newcomer's; else the oldest connection of its own
//!    address, if it holds one; else it is refused (4008 `match full`).
//!
//! So an address holding one place of a match never loses it to another address (rule 3 takes from an
//! address holding two or more), a newcomer whose address already holds a place is never refused, and
//! a newcomer of a new address is refused only when every place of a full match is held by a different
//! address. Each replacement for another address makes the places strictly more even (the sum of the
//! squares of the places per address drops), so no sequence of joins makes two addresses take turns
//! replacing each other.

use std::net::IpAddr;

use crate::hub::Close;
use crate::limits::Source;

/// The close of a newcomer refused by a full match.
pub(crate) const MATCH_FULL: Close = (4008, "match full");

/// The caps of one match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caps {
    /// Connections in all (`--max-per-match`).
    pub(crate) per_match: usize,
    /// Connections of one source address (`--max-per-match-per-address`), at least 1.
    pub(crate) per_address: usize,
}

/// Why a connection gives its place to a newcomer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replaced {
    /// The newcomer is of its address, which holds all the places it may (rule 1), or all the match's
    /// places are taken and no address holds two more than the newcomer's (rule 3).
    SameAddress,
    /// The match is full and its address holds the most places, two or more above the newcomer's.
    OverShare,
}

impl Replaced {
    /// The close code and reason the replaced connection gets.
    pub(crate) fn close(self) -> Close {
        match self {
            Replaced::SameAddress => (4009, "replaced by a newer connection from this address"),
            Replaced::OverShare => (4009, "replaced: this address holds the most places of the full match"),
        }
    }
}

/// What a newcomer to a match is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A free place.
    Free,
    /// The place of the connection at this index of the match (oldest first), which is closed.
    Replace(usize, Replaced),
    /// No place: [`MATCH_FULL`].
    Full,
}

/// The address a connection counts for, and the one its lines on standard error name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Address {
    pub(crate) ip: IpAddr,
    pub(crate) source: Source,
}

impl Address {
    pub(crate) fn of(ip: IpAddr) -> Address {
        Address { ip, source: Source::of(ip) }
    }
}

impl Caps {
    /// The place of a newcomer from `newcomer` in a match whose connections, oldest first, are of the
    /// sources `held`.
    pub(crate) fn place(&self, held: &[Source], newcomer: Source) -> Place {
        let count = |source: Source| held.iter().filter(|&&s| s == source).count();
        let own = count(newcomer);
        let own_oldest = held.iter().position(|&s| s == newcomer);
        if own >= self.per_address
            && let Some(at) = own_oldest
        {
            return Place::Replace(at, Replaced::SameAddress);
        }
        if held.len() < self.per_match {
            return Place::Free;
        }
        // The first connection (in age) of an address holding the most places.
        let mut most = (0, 0);
        for (at, &source) in held.iter().enumerate() {
            let n = count(source);
            if n > most.0 {
                most = (n, at);
            }
        }
        match (most, own_oldest) {
            ((n, at), _) if n >= own + 2 => Place::Replace(at, Replaced::OverShare),
            (_, Some(at)) => Place::Replace(at, Replaced::SameAddress),
            (_, None) => Place::Full,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    fn source(n: u8) -> Source {
        Source::of(IpAddr::from([192, 0, 2, n]))
    }

    /// A match as the hub keeps it: the sources of its connections, oldest first.
    #[derive(Debug, Default)]
    struct Model {
        held: Vec<Source>,
    }

    impl Model {
        /// A newcomer of `from` joins: its place, the match applied.
        fn join(&mut self, caps: Caps, from: Source) -> Place {
            let place = caps.place(&self.held, from);
            match place {
                Place::Free => self.held.push(from),
                Place::Replace(at, _) => {
                    self.held.remove(at);
                    self.held.push(from);
                }
                Place::Full => {}
            }
            place
        }

        /// The oldest connection of `from` leaves (the client closed it), if it has one.
        fn leave(&mut self, from: Source) {
            if let Some(at) = self.held.iter().position(|&s| s == from) {
                self.held.remove(at);
            }
        }

        fn count(&self, from: Source) -> usize {
            self.held.iter().filter(|&&s| s == from).count()
        }
    }

    const DEFAULT: Caps = Caps { per_match: 8, per_address: 2 };

    #[test]
    fn a_third_connection_of_one_address_replaces_its_oldest() {
        let mut m = Model::default();
        for _ in 0..2 {
            assert_eq!(m.join(DEFAULT, source(1)), Place::Free);
        }
        assert_eq!(m.join(DEFAULT, source(2)), Place::Free);
        assert_eq!(m.join(DEFAULT, source(1)), Place::Replace(0, Replaced::SameAddress));
        assert_eq!(m.held, [source(1), source(2), source(1)]);
        assert_eq!(m.join(DEFAULT, source(1)), Place::Replace(0, Replaced::SameAddress));
        assert_eq!(m.held, [source(2), source(1), source(1)]);
    }

    #[test]
    fn a_full_match_gives_the_place_of_the_largest_holder_to_a_new_address() {
        let mut m = Model::default();
        // Four addresses, two places each, the fourth joining first.
        for n in [4, 1, 2, 3, 1, 2, 3, 4] {
            assert_eq!(m.join(DEFAULT, source(n)), Place::Free);
        }
        // A new address: the oldest connection of the addresses holding two.
        assert_eq!(m.join(DEFAULT, source(10)), Place::Replace(0, Replaced::OverShare));
        assert_eq!(m.count(source(4)), 1);
        assert_eq!(m.join(DEFAULT, source(11)), Place::Replace(0, Replaced::OverShare));
        assert_eq!(m.count(source(1)), 1);
        // An address holding one, in a full match whose largest holders hold two: its own oldest.
        assert_eq!(m.join(DEFAULT, source(1)), Place::Replace(2, Replaced::SameAddress));
        assert_eq!(m.join(DEFAULT, source(12)), Place::Replace(0, Replaced::OverShare));
        assert_eq!(m.join(DEFAULT, source(13)), Place::Replace(0, Replaced::OverShare));
        // Eight addresses, one place each: a new address is refused, an old one replaces its own.
        assert_eq!(m.join(DEFAULT, source(14)), Place::Full);
        let at = m.held.iter().position(|&s| s == source(10)).unwrap();
        assert_eq!(m.join(DEFAULT, source(10)), Place::Replace(at, Replaced::SameAddress));
        assert_eq!(m.held.len(), 8);
    }

    #[test]
    fn caps_of_two_places_and_a_cap_per_address_above_the_match() {
        let caps = Caps { per_match: 2, per_address: 64 };
        let mut m = Model::default();
        assert_eq!(m.join(caps, source(1)), Place::Free);
        assert_eq!(m.join(caps, source(1)), Place::Free);
        assert_eq!(m.join(caps, source(1)), Place::Replace(0, Replaced::SameAddress));
        assert_eq!(m.join(caps, source(2)), Place::Replace(0, Replaced::OverShare));
        assert_eq!(m.join(caps, source(3)), Place::Full);
        assert_eq!(m.join(caps, source(1)), Place::Replace(0, Replaced::SameAddress));
    }

    /// A step of a stranger: a join from one of its addresses, or the close of one of its connections.
    #[derive(Debug, Clone, Copy)]
    enum Step {
        Join(u8),
        Leave(u8),
    }

    fn steps(addresses: u8) -> impl Strategy<Value = Vec<Step>> {
        let step = prop_oneof![
            3 => (0..addresses).prop_map(Step::Join),
            1 => (0..addresses).prop_map(Step::Leave),
        ];
        proptest::collection::vec(step, 0..40)
    }

    fn caps() -> impl Strategy<Value = Caps> {
        (2..=10usize, 1..=4usize).prop_map(|(per_match, per_address)| Caps { per_match, per_address })
    }

    proptest! {
        /// Whatever joins and leaves come, the caps hold; a newcomer whose address holds a place is
        /// never refused; one of a new address is refused only when every place is held by a different
        /// address; a replacement takes another address's place only from an address that held the
        /// most, at least two more than the newcomer's, and always the oldest of that address.
        #[test]
        fn the_rule_keeps_its_promises(caps in caps(), steps in steps(12)) {
            let mut m = Model::default();
            for step in steps {
                match step {
                    Step::Leave(n) => m.leave(source(n)),
                    Step::Join(n) => {
                        let from = source(n);
                        let before = m.held.clone();
                        let own = m.count(from);
                        match m.join(caps, from) {
                            Place::Free => prop_assert!(before.len() < caps.per_match && own < caps.per_address),
                            Place::Full => {
                                prop_assert_eq!(own, 0);
                                prop_assert_eq!(before.len(), caps.per_match);
                                let distinct: HashSet<Source> = before.iter().copied().collect();
                                prop_assert_eq!(distinct.len(), caps.per_match, "{:?}", before);
                            }
                            Place::Replace(at, why) => {
                                let victim = before[at];
                                prop_assert_eq!(before.iter().position(|&s| s == victim), Some(at), "its oldest");
                                let held = |s: Source| before.iter().filter(|&&t| t == s).count();
                                match why {
                                    Replaced::SameAddress => prop_assert_eq!(victim, from),
                                    Replaced::OverShare => {
                                        prop_assert_eq!(before.len(), caps.per_match);
                                        prop_assert!(held(victim) >= own + 2);
                                        prop_assert!(before.iter().all(|&s| held(s) <= held(victim)));
                                    }
                                }
                            }
                        }
                        prop_assert!(m.held.len() <= caps.per_match);
                        prop_assert!(m.held.iter().all(|&s| m.count(s) <= caps.per_address));
                    }
                }
            }
        }

        /// A stranger with as many addresses as the match has places but two, joining and leaving as it
        /// likes before and between the players' joins: both players get a place, and keep it (each
        /// holds one connection) whatever the stranger does next.
        #[test]
        fn a_stranger_with_fewer_addresses_than_places_minus_one_cannot_lock_the_players_out(
            caps in caps(),
            before in steps(8),
            between in steps(8),
            after in steps(8),
        ) {
            let stranger = caps.per_match.saturating_sub(2).min(8) as u8;
            let (a, b) = (source(100), source(101));
            let mut m = Model::default();
            let play = |m: &mut Model, steps: &[Step]| {
                for step in steps {
                    match *step {
                        Step::Join(n) if n < stranger => {
                            m.join(caps, source(n));
                        }
                        Step::Leave(n) => m.leave(source(n)),
                        Step::Join(_) => {}
                    }
                }
            };
            play(&mut m, &before);
            prop_assert_ne!(m.join(caps, a), Place::Full);
            play(&mut m, &between);
            prop_assert_ne!(m.join(caps, b), Place::Full);
            play(&mut m, &after);
            prop_assert_eq!((m.count(a), m.count(b)), (1, 1), "{:?}", m.held);
        }
    }
}
