//! What serve holds and how it changes: the parts read from the asset directory (`live`,
//! `current`), reloaded part by part when their files change (`reload`, `watched`), the tokens
//! the store published (`published`), and what every connection shares (`shared`).

pub(crate) mod current;
pub mod live;
pub mod pidfile;
pub(crate) mod published;
pub(crate) mod reload;
pub(crate) mod shared;
pub(crate) mod watched;
