//! What a command stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) left behind, in one line.
//!
//! A change lands whole or not at all whatever moment the process dies ([`super::change`]); a
//! signal is the one death mcsctl sees coming, so it also says which. The command and its
//! directory are recorded when it starts, each change's staged files as they are written, and
//! its commit point under one lock: the signal's thread takes that lock, so it never speaks
//! of a change half applied. It waits for a change past its commit point to land (a few
//! renames), or removes the staged files of one that is not (wiped first: they may hold keys).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// Where the running command is.
#[derive(Debug, Default)]
enum Progress {
    /// Nothing written yet (or no command recorded).
    #[default]
    Idle,
    /// A change being staged: nothing of it is in place yet.
    Staging {
        /// Files the change writes or removes.
        files: usize,
        /// The staged files so far.
        staged: Vec<PathBuf>,
    },
    /// Past its commit point but not in place (an error stopped it): the journal holds it,
    /// and the next command completes it.
    Pending {
        /// Files it writes or removes.
        files: usize,
    },
    /// The change landed.
    Landed {
        /// Files it wrote or removed.
        files: usize,
    },
}

#[derive(Debug, Default)]
struct State {
    /// The command, as typed (`token rotate`).
    command: String,
    /// Its asset directory, if it has one.
    dir: Option<PathBuf>,
    /// Whether that directory was there when the command started.
    existed: bool,
    /// Where it is.
    progress: Progress,
    /// Files written whole (`--output`) since it started.
    outputs: Vec<PathBuf>,
    /// The temporary file of an `--output` being written.
    temp: Option<PathBuf>,
}

static STATE: Mutex<State> = Mutex::new(State {
    command: String::new(),
    dir: None,
    existed: false,
    progress: Progress::Idle,
    outputs: Vec::new(),
    temp: None,
});

fn state() -> MutexGuard<'static, State> {
    // A panic while holding it leaves the state as it was: still worth reading.
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records the command that runs and its directory, and takes over SIGINT, SIGTERM and
/// SIGHUP: on one, `report` gets the line of [`stopped`] and the exit code (128 + the
/// signal's number) on a thread of its own, and ends the process.
pub fn install(command: &str, dir: Option<&Path>, report: fn(&str, i32)) -> Result<()> {
    {
        let mut s = state();
        s.command = command.to_string();
        s.dir = dir.map(Path::to_path_buf);
        s.existed = dir.is_some_and(|d| d.exists());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("installing the signal handlers")?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let name = match sig {
                    SIGINT => "interrupted",
                    SIGTERM => "terminated (SIGTERM)",
                    _ => "hung up (SIGHUP)",
                };
                // The state stays locked until the process is gone: a change that had not
                // reached its commit point (its staged files wiped here) never will.
                let s = state();
                report(&stopped(&s, name), 128 + sig);
            }
        })
        .context("starting the signal thread")?;
    Ok(())
}

/// A change of `files` steps starts staging.
pub(super) fn staging(files: usize) {
    state().progress = Progress::Staging {
        files,
        staged: Vec::new(),
    };
}

/// A file was staged (created beside its target).
pub(super) fn staged(path: &Path) {
    if let Progress::Staging { staged, .. } = &mut state().progress {
        staged.push(path.to_path_buf());
    }
}

/// Held from before the commit point to the change in place: a signal waits for it.
pub(super) struct Committing(MutexGuard<'static, State>);

/// The change is about to pass its commit point.
pub(super) fn committing() -> Committing {
    let mut s = state();
    let files = match &s.progress {
        Progress::Staging { files, .. } => *files,
        _ => 0,
    };
    s.progress = Progress::Pending { files };
    Committing(s)
}

impl Committing {
    /// The change is in place.
    pub(super) fn landed(mut self) {
        if let Progress::Pending { files } = self.0.progress {
            self.0.progress = Progress::Landed { files };
        }
    }
}

/// A change failed before its commit point: its staged files are gone already.
pub(super) fn abandoned() {
    state().progress = Progress::Idle;
}

/// A file is being written outside a change (`--output`): its temporary file.
pub(super) fn temporary(path: &Path) {
    state().temp = Some(path.to_path_buf());
}

/// A file was written whole outside a change (`--output`).
pub(super) fn wrote(path: &Path) {
    let mut s = state();
    s.temp = None;
    s.outputs.push(path.to_path_buf());
}

/// On the signal's thread, with the state locked (so the command can go no further): cleans up
/// what it staged and says, in one line, what was and was not written. Taking the lock waited
/// for a change past its commit point to be in place.
fn stopped(s: &State, signal: &str) -> String {
    if let Some(t) = &s.temp {
        super::journal::wipe(t);
    }
    let cmd = if s.command.is_empty() {
        "mcsctl".to_string()
    } else {
        format!("`{}`", s.command)
    };
    let dir = s.dir.as_ref().map_or(String::new(), |d| {
        format!(" ({} is as it was)", d.display())
    });
    let outputs = match s.outputs.as_slice() {
        [] => String::new(),
        o => format!(
            "; it had written {}",
            o.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    match &s.progress {
        Progress::Idle => {
            // A directory the command made (to hold its lock) and never wrote goes again.
            if let Some(d) = s.dir.as_ref().filter(|_| !s.existed) {
                let d = super::AssetDir::new(d);
                if d.is_empty().unwrap_or(false) {
                    let _ = std::fs::remove_file(d.path(super::layout::LOCK));
                    let _ = std::fs::remove_dir(d.root());
                }
            }
            format!("{signal}: {cmd} stopped before writing anything{dir}{outputs}")
        }
        Progress::Staging { files, staged } => {
            for p in staged {
                super::journal::wipe(p);
            }
            format!(
                "{signal}: {cmd} stopped before its change landed: none of its {files} file(s) was written{dir}{outputs}"
            )
        }
        Progress::Pending { .. } => format!(
            "{signal}: {cmd} stopped with its change committed but not all in place: the next mcsctl command{} completes it",
            s.dir
                .as_ref()
                .map_or(String::new(), |d| format!(" in {}", d.display()))
        ),
        Progress::Landed { files } => {
            let d = s
                .dir
                .as_ref()
                .map_or(String::new(), |d| format!(" in {}", d.display()));
            format!(
                "{signal}: {cmd} stopped after writing its {files} file(s){d}; what follows them (its report, a store to publish to) was not done{outputs}"
            )
        }
    }
}
