//! The rule a machine token's fetch is admitted by, from its counts: the one rule, whether the
//! counts come from the ledger files or from the store.

/// What a fetch of a machine token gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// It may be served: the whole fetches it has left before this one (`None`: any number).
    Left(Option<u32>),
    /// Its whole fetches are spent (401: a replay).
    Spent,
    /// Its last use is held by a fetch whose end nobody saw: its replica was lost after it
    /// began handing the config's end to the kernel, so it may have gone out whole (401 until
    /// an admin gives the machine a new token).
    Unknown,
    /// Too many of its fetches were cut off (401).
    CutOff,
    /// Its last use is held by a fetch being sent now (503: Ignition retries).
    Busy,
}

/// A token's fetches, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Went out whole.
    pub whole: u32,
    /// Their outcome is unknown (see [`Admit::Unknown`]): each holds a use for good.
    pub unknown: u32,
    /// Were cut off before their end.
    pub cut: u32,
    /// Are being sent (here or on another replica).
    pub in_flight: u32,
}

/// What the next fetch of a token with `uses` whole fetches allowed (`None`: any number) gets
/// after the fetches `c`; at most `max_partial` cuts are allowed.
pub fn admit(uses: Option<u32>, c: Counts, max_partial: u32) -> Admit {
    let Some(n) = uses else {
        return Admit::Left(None);
    };
    let held = c.whole.saturating_add(c.unknown);
    if c.whole >= n {
        Admit::Spent
    } else if held >= n {
        Admit::Unknown
    } else if c.cut >= max_partial {
        Admit::CutOff
    } else if held.saturating_add(c.in_flight) >= n {
        Admit::Busy
    } else {
        Admit::Left(Some(n - held))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(whole: u32, unknown: u32, cut: u32, in_flight: u32) -> Counts {
        Counts {
            whole,
            unknown,
            cut,
            in_flight,
        }
    }

    #[test]
    fn spent_before_unknown_before_cut_off_before_busy() {
        assert_eq!(admit(None, c(9, 9, 9, 9), 1), Admit::Left(None));
        assert_eq!(admit(Some(1), c(0, 0, 0, 0), 3), Admit::Left(Some(1)));
        assert_eq!(admit(Some(1), c(1, 1, 3, 1), 3), Admit::Spent);
        assert_eq!(admit(Some(1), c(0, 1, 3, 1), 3), Admit::Unknown);
        assert_eq!(admit(Some(2), c(1, 0, 3, 0), 3), Admit::CutOff);
        assert_eq!(admit(Some(2), c(1, 0, 0, 1), 3), Admit::Busy);
        assert_eq!(admit(Some(3), c(1, 1, 0, 1), 3), Admit::Busy);
        assert_eq!(admit(Some(3), c(1, 0, 0, 1), 3), Admit::Left(Some(2)));
        assert_eq!(admit(Some(3), c(1, 1, 0, 0), 3), Admit::Left(Some(1)));
    }
}
