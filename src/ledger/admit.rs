//! The rule a machine token's fetch is admitted by, from its counts: the one rule, whether the
//! counts come from the ledger files or from the store.

/// What a fetch of a machine token gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// It may be served: the whole fetches it has left before this one (`None`: any number).
    Left(Option<u32>),
    /// Its whole fetches are spent (401: a replay).
    Spent,
    /// Too many of its fetches were cut off (401).
    CutOff,
    /// Its last use is held by a fetch being sent now (503: Ignition retries).
    Busy,
}

/// The fetch counts of a token with `uses` whole fetches allowed (`None`: any number):
/// `whole` went out whole, `cut` were cut off, `in_flight` are being sent (here or on another
/// replica); at most `max_partial` cuts are allowed.
pub fn admit(uses: Option<u32>, whole: u32, cut: u32, in_flight: u32, max_partial: u32) -> Admit {
    let Some(n) = uses else {
        return Admit::Left(None);
    };
    if whole >= n {
        Admit::Spent
    } else if cut >= max_partial {
        Admit::CutOff
    } else if whole.saturating_add(in_flight) >= n {
        Admit::Busy
    } else {
        Admit::Left(Some(n - whole))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spent_before_cut_off_before_busy() {
        assert_eq!(admit(None, 9, 9, 9, 1), Admit::Left(None));
        assert_eq!(admit(Some(1), 0, 0, 0, 3), Admit::Left(Some(1)));
        assert_eq!(admit(Some(1), 1, 3, 1, 3), Admit::Spent);
        assert_eq!(admit(Some(2), 1, 3, 0, 3), Admit::CutOff);
        assert_eq!(admit(Some(2), 1, 0, 1, 3), Admit::Busy);
        assert_eq!(admit(Some(3), 1, 0, 1, 3), Admit::Left(Some(2)));
    }
}
