//! One request (`message`: its facts and its answer, as these modules share them): what it
//! asks for (`route`: the pool, or the answer to any other path; `handler`; `classify`: the
//! token it presents; `auth`: who it presented itself as), what it is answered (`respond`,
//! `refusals`), its access-log line (`access_line`), and the delivery of a machine token's
//! config, whose end is what spends the token (`delivery`); and a machine's first-boot report
//! (`report`, `POST /report/<pool>`).

pub(crate) mod access_line;
pub mod auth;
pub(crate) mod classify;
pub(crate) mod delivery;
pub mod handler;
pub(crate) mod message;
pub(crate) mod refusals;
pub(crate) mod report;
pub(crate) mod respond;
pub(crate) mod route;
