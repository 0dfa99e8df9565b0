//! The one HTTP client of mcsctl (`doctor`, `render --from-mcs`) and the URL type it takes.
//! Built on hyper's HTTP/1.1 client connection over tokio-rustls: the request is the one a
//! booting machine's Ignition sends, and the answer is judged as Go's HTTP client would judge it
//! (a body cut short or reset is an error, not a shorter config).

pub mod client;
pub mod resolve;
pub mod url;

pub use client::{BodyFailure, Exchange, Failure, Method, Request, first_line, get};
pub use url::HttpUrl;

/// The response header with which mcsctl serve tells the holder of a token of limited uses (a
/// machine's) how many whole fetches it has left before the request, so that a check (a HEAD,
/// `mcsctl doctor`) knows not to spend one.
pub const FETCHES_LEFT: &str = "mcsctl-fetches-left";
