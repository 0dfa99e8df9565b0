#![forbid(unsafe_code)]

use std::process::ExitCode;

use mcsctl::exit;

fn main() -> ExitCode {
    // A shell asking for completions (COMPLETE=bash mcsctl ...) is answered, and mcsctl exits.
    mcsctl::completion::answer_if_asked();
    let cli = mcsctl::cmd::parse();
    let clock = match mcsctl::clock::Clock::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    match mcsctl::cmd::run(cli, &clock) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {}", mcsctl::escape::text(&one_line(&err), false));
            let usage = err.downcast_ref::<exit::UsageError>().is_some();
            ExitCode::from(if usage { exit::USAGE } else { exit::ERROR })
        }
    }
}

/// The error and its causes on one line: "reading x: permission denied".
fn one_line(err: &anyhow::Error) -> String {
    err.chain()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(": ")
}
