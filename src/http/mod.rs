//! The one HTTP client of mcsctl (`doctor`, `render --from-mcs`) and the URL type it takes.
//! Built on hyper's HTTP/1.1 client connection over tokio-rustls: the request is the one a
//! booting machine's Ignition sends, and the answer is judged as Go's HTTP client would judge it
//! (a body cut short or reset is an error, not a shorter config).

pub mod client;
pub mod url;

pub use client::{BodyFailure, Exchange, Failure, Request, first_line, get};
pub use url::HttpUrl;
