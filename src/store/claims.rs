//! A machine token's fetches as the store keeps them (`claims/<token>`), and the claim protocol
//! that changes them (docs/replicas.md states it with each failure case).
//!
//! The promise: a token with limited uses is served whole at most that many times across all
//! replicas, whatever their clocks, flags, kills, pauses and partitions; and a machine whose
//! fetch cannot have completed may fetch again.
//!
//! 1. *Claim.* A replica process (a holder, [`super::holders`]) takes one of the token's uses in
//!    one compare-and-swap on this key's revision: the fetch joins `sending`, naming its
//!    holder, and its record (`"whole":false`) is written in the same transaction.
//! 2. *End mark.* Before the config's last piece is handed to the kernel, the holder sets the
//!    fetch's `ending`, in a transaction that also requires its own holder key to exist. If
//!    that fails (the store silent, the lease gone, the claim given back), the last piece is
//!    never sent: the connection is closed short, and the fetch is a cut one.
//! 3. *Confirm or cut.* Once the response is in the socket, the holder counts it whole; once
//!    the connection ended first, cut. A confirm is retried until the store takes it, also
//!    after a restart (serve keeps it in a journal until then).
//! 4. *A holder gone.* Anyone reading the state settles the fetches whose holder key is gone
//!    (its lease ended, on etcd's clock): one not `ending` never had its end sent, so its use is
//!    given back (counted cut: the machine fetches again); one `ending` may have gone out
//!    whole, so its outcome is *unknown* and it holds its use for good, until an admin gives
//!    the machine a new token (`machine add --force`). A late confirm of it makes it whole.
//!
//! Why it holds: the end is sent only after the mark was written while the holder was alive;
//! a fetch is given back only when its holder is gone and no mark was written. A holder key
//! never comes back once gone, and every change is a compare-and-swap on one revision, so the
//! two cannot both happen to one fetch.

use std::collections::HashSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Store, Swap, Versioned, claims_key, fetch_key};
use crate::ledger::{self, Counts};

/// Attempts of one compare-and-swap before giving up (replicas changing one token at once).
pub const ATTEMPTS: u32 = 16;

/// A claim an earlier mcsctl made (no holder, judged by its age then) is settled as unknown once
/// it is older than the longest fetch serve's defaults allow.
const LEGACY_SETTLE: Duration = ledger::LONGEST_FETCH;

/// A token's fetches.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenState {
    /// Fetches that went out whole.
    pub whole: u32,
    /// Fetches cut off before their end.
    pub cut: u32,
    /// Fetches whose outcome is unknown (their holder was lost after their end mark).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unknown: u32,
    /// The first whole fetch's record (a refused replay names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_whole: Option<String>,
    /// The latest cut fetch's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_cut: Option<String>,
    /// The latest fetch of unknown outcome's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_unknown: Option<String>,
    /// The fetches being sent, on any replica.
    #[serde(default)]
    pub sending: Vec<Sending>,
    /// The claims of the fetches of unknown outcome (a late confirm makes one whole). At most
    /// the token's uses: each holds one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknowns: Vec<String>,
    /// The ledger files' records counted here already (their import keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imported: Vec<String>,
    /// Of them, those counted as cut: counted again as whole if a later import finds the
    /// fetch went out whole after all (it was being sent at the first import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imported_cut: Vec<String>,
    /// Fetch records to write with this state (claim, record): those it settled or ended.
    #[serde(skip)]
    pub records: Vec<(String, String)>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A fetch being sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sending {
    /// Its claim (`<holder>-<n>`).
    pub claim: String,
    /// The serve process holding it (`holders/<holder>`); empty in a claim of protocol 1.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub holder: String,
    /// When it was claimed, Unix seconds (said, never compared with another replica's clock).
    pub since: i64,
    /// Its record, `"whole":false`.
    pub record: String,
    /// Its holder was alive when it began handing the config's end to the kernel.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ending: bool,
}

/// How a fetch ended, as its holder saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Its response is in the socket.
    Whole,
    /// Its connection ended first.
    Cut,
}

impl TokenState {
    /// The state in `v` (absent: no fetch yet).
    pub fn read(v: &Versioned) -> Result<TokenState, String> {
        if v.revision == 0 {
            return Ok(TokenState::default());
        }
        serde_json::from_slice(&v.value).map_err(|e| format!("the store's claim state: {e}"))
    }

    /// The counts the admission rule decides by ([`ledger::admit`]).
    pub fn counts(&self) -> Counts {
        Counts {
            whole: self.whole,
            unknown: self.unknown,
            cut: self.cut,
            in_flight: u32::try_from(self.sending.len()).unwrap_or(u32::MAX),
        }
    }

    /// The holders of the fetches being sent, each once.
    pub fn holders(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.sending {
            if !s.holder.is_empty() && !out.contains(&s.holder.as_str()) {
                out.push(&s.holder);
            }
        }
        out
    }

    /// Settles the fetches whose holder is not in `alive` (rule 4 above): given back (cut)
    /// without an end mark, unknown with one. A claim of protocol 1 is unknown once older than
    /// [`LEGACY_SETTLE`] at `now` (Unix seconds). Each settled fetch's record, as the store
    /// keeps it now, goes to `records`; returns how many were settled.
    pub fn settle_gone(&mut self, alive: &HashSet<String>, now: i64) -> usize {
        let gone = |s: &Sending| {
            if s.holder.is_empty() {
                now.saturating_sub(s.since) >= LEGACY_SETTLE.as_secs() as i64
            } else {
                !alive.contains(&s.holder)
            }
        };
        let (gone, live): (Vec<Sending>, Vec<Sending>) = std::mem::take(&mut self.sending)
            .into_iter()
            .partition(gone);
        self.sending = live;
        let n = gone.len();
        for s in gone {
            let text = if s.ending || s.holder.is_empty() {
                let text = ledger::with_flag(&s.record, "\"unknown\"");
                self.unknown = self.unknown.saturating_add(1);
                self.last_unknown = Some(text.clone());
                self.unknowns.push(s.claim.clone());
                text
            } else {
                let text = ledger::with_flag(&s.record, "\"cut\"");
                self.count(false, &text);
                text
            };
            self.records.push((s.claim, text));
        }
        n
    }

    /// Sets `claim`'s end mark (rule 2); an error when it is no longer being sent (settled by
    /// another replica: its holder was taken for gone).
    pub fn mark_ending(&mut self, claim: &str) -> Result<(), String> {
        match self.sending.iter_mut().find(|s| s.claim == claim) {
            Some(s) => {
                s.ending = true;
                Ok(())
            }
            None => Err(format!(
                "fetch {claim} was settled by another replica meanwhile (this replica's lease ended)"
            )),
        }
    }

    /// `claim` ended as its holder saw it, with its record `text` (rule 3); whether that
    /// changed anything (its record, then, goes to `records`). A fetch of unknown outcome
    /// confirmed whole becomes whole; one that is neither being sent nor unknown was settled
    /// already (a confirm from the journal, again), and nothing changes. Never un-spends: an
    /// unknown fetch its holder saw cut stays unknown.
    pub fn end(&mut self, claim: &str, end: End, text: &str) -> bool {
        if let Some(i) = self.sending.iter().position(|s| s.claim == claim) {
            self.sending.remove(i);
            self.count(end == End::Whole, text);
        } else if end == End::Whole
            && let Some(i) = self.unknowns.iter().position(|c| c == claim)
        {
            self.unknowns.remove(i);
            self.unknown = self.unknown.saturating_sub(1);
            self.count(true, text);
        } else {
            return false;
        }
        self.records.push((claim.to_string(), text.to_string()));
        true
    }

    /// Counts a settled record (whole or cut).
    pub fn count(&mut self, whole: bool, text: &str) {
        if whole {
            self.whole = self.whole.saturating_add(1);
            self.first_whole.get_or_insert_with(|| text.to_string());
        } else {
            self.cut = self.cut.saturating_add(1);
            self.last_cut = Some(text.to_string());
        }
    }

    /// The state as stored.
    pub fn json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a claim state serialises")
    }
}

/// `token`'s state as it stands now (the fetches of gone holders settled in memory, nothing
/// written): what a check, `inspect` or `machine list` decides by.
pub async fn read(store: &Store, token: &str, now: i64) -> Result<TokenState, String> {
    let v = store.get(&claims_key(token)).await?;
    let mut s = TokenState::read(&v)?;
    let alive = store.alive(&s.holders()).await?;
    s.settle_gone(&alive, now);
    Ok(s)
}

/// Changes `token`'s claim state by `f` in one compare-and-swap on its revision, with the
/// `also` writes and the records the state settled or ended (`records`) in the same
/// transaction; the fetches of gone holders are settled first. With `holder`, only while that
/// holder is alive. When another writer changed the state first, reads it again and retries (at most
/// [`ATTEMPTS`] times). An error of `f` stops without writing anything. The one way the claim
/// state changes: serve's claims, marks and settlements, and the import.
pub async fn update<T, E: From<String>>(
    store: &Store,
    token: &str,
    holder: Option<&str>,
    now: i64,
    also: &[(&str, &[u8])],
    mut f: impl FnMut(&mut TokenState) -> Result<T, E>,
) -> Result<T, E> {
    let key = claims_key(token);
    for _ in 0..ATTEMPTS {
        let v = store.get(&key).await?;
        let mut s = TokenState::read(&v)?;
        let alive = store.alive(&s.holders()).await?;
        s.settle_gone(&alive, now);
        let out = f(&mut s)?;
        let json = s.json();
        let records: Vec<(String, &str)> = s
            .records
            .iter()
            .map(|(claim, text)| (fetch_key(token, claim), text.as_str()))
            .collect();
        let mut puts: Vec<(&str, &[u8])> = vec![(key.as_str(), json.as_slice())];
        puts.extend_from_slice(also);
        // A record settled and then ended in one change is written once, as it ended (etcd
        // refuses a key twice in one transaction).
        for (k, t) in records.iter().rev() {
            if !puts.iter().any(|(p, _)| p == k) {
                puts.push((k.as_str(), t.as_bytes()));
            }
        }
        match store.swap(&key, v.revision, holder, &puts).await? {
            Swap::Done => return Ok(out),
            Swap::Changed => continue,
            Swap::HolderGone => {
                return Err(E::from(
                    "this replica's lease in the store ended (it was paused or cut off from the members for longer than --store-lease)".to_string(),
                ));
            }
        }
    }
    Err(E::from(format!(
        "the store: token {token}'s fetches kept changing under other writers; try again"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sending(claim: &str, holder: &str, ending: bool) -> Sending {
        Sending {
            claim: claim.into(),
            holder: holder.into(),
            since: 100,
            record: r#"{"time":"t","whole":false}"#.into(),
            ending,
        }
    }

    #[test]
    fn a_gone_holder_s_fetch_is_given_back_without_its_mark_and_unknown_with_it() {
        let mut s = TokenState {
            sending: vec![
                sending("a-1-0", "a-1", false),
                sending("b-2-0", "b-2", true),
                sending("c-3-0", "c-3", true),
            ],
            ..TokenState::default()
        };
        let alive: HashSet<String> = ["c-3".to_string()].into();
        assert_eq!(s.settle_gone(&alive, 100), 2);
        assert_eq!(
            std::mem::take(&mut s.records),
            vec![
                ("a-1-0".into(), r#"{"time":"t","whole":"cut"}"#.into()),
                ("b-2-0".into(), r#"{"time":"t","whole":"unknown"}"#.into()),
            ]
        );
        assert_eq!((s.cut, s.unknown, s.sending.len()), (1, 1, 1));
        assert_eq!(s.unknowns, ["b-2-0"]);
        // A late confirm makes the unknown one whole; its holder seeing it cut changes nothing.
        assert!(!s.end("b-2-0", End::Cut, "x"));
        assert_eq!((s.whole, s.unknown), (0, 1));
        assert!(s.end("b-2-0", End::Whole, "w"));
        assert_eq!(
            (s.whole, s.unknown, s.first_whole.as_deref()),
            (1, 0, Some("w"))
        );
        assert_eq!(s.records, [("b-2-0".to_string(), "w".to_string())]);
        // Confirmed again (the journal, after a restart): nothing changes.
        assert!(!s.end("b-2-0", End::Whole, "w"));
        assert_eq!(s.whole, 1);
        // A fetch given back and then confirmed cannot happen (its mark fails first).
        assert!(s.mark_ending("a-1-0").is_err());
        assert!(s.mark_ending("c-3-0").is_ok());
    }

    #[test]
    fn a_claim_of_protocol_1_is_unknown_once_older_than_any_fetch() {
        let mut s = TokenState {
            sending: vec![sending("old", "", false)],
            ..TokenState::default()
        };
        let young = 100 + LEGACY_SETTLE.as_secs() as i64 - 1;
        assert_eq!(s.settle_gone(&HashSet::new(), young), 0);
        assert_eq!(s.settle_gone(&HashSet::new(), young + 1), 1);
        assert_eq!((s.unknown, s.cut), (1, 0));
    }
}
