//! Reaching the serve of one asset directory: each serve writes `run/serve-<pid>.pid` there
//! (0600 in a 0700 directory, written atomically) once its signal handlers are in, and removes
//! it when it exits; `mcsctl serve --reload` sends SIGHUP to the serves the files name, and to
//! no other process. `kill -HUP "$(pidof mcsctl)"` signals whichever mcsctl the machine runs.
//!
//! A file outlives a serve killed with SIGKILL, and its PID may be reused. So the file holds
//! the PID, the process's start time (field 22 of `/proc/PID/stat`, in clock ticks since boot)
//! and the address it listens on: a process is signalled only when its start time is the one
//! recorded, and a file whose process is gone, or is another process now, is removed.

use std::fs;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::assets::{AssetDir, Overwrite, SECRET_MODE};

/// Where the pid files live, relative to the asset directory.
pub const RUN: &str = "run";

/// This serve's pid file; removed when dropped (serve's end, an error on the way out, a panic
/// that unwinds).
#[derive(Debug)]
pub struct PidFile {
    path: PathBuf,
}

impl PidFile {
    /// Writes this process's file. A directory serve cannot write to (a Secret mounted
    /// read-only in a pod) is an error the caller reports as an event, not a reason to stop.
    pub fn write(dir: &AssetDir, listen: SocketAddr) -> Result<PidFile> {
        let pid = std::process::id();
        let start = start_time(pid).context("reading this process's start time")?;
        let run = dir.path(RUN);
        crate::assets::ensure_private_dir(&run)?;
        let path = run.join(format!("serve-{pid}.pid"));
        let text = format!("{pid}\n{start}\n{listen}\n");
        crate::assets::write_atomic_quietly(&path, text.as_bytes(), SECRET_MODE, Overwrite::Allow)?;
        Ok(PidFile { path })
    }

    /// Where the file is.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for PidFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// What `--reload` found in one pid file.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// A running serve, sent SIGHUP.
    Reloaded {
        /// Its PID.
        pid: u32,
        /// The address its TLS listener is bound to.
        listen: String,
    },
    /// The process is gone (killed with SIGKILL, say): the file was removed.
    Gone {
        /// The PID the file named.
        pid: u32,
    },
    /// The PID now belongs to another process: not signalled, the file was removed.
    Reused {
        /// The PID the file named.
        pid: u32,
    },
    /// A file that is not one serve wrote: left alone.
    Unreadable {
        /// The file.
        file: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Sends SIGHUP to every serve of `dir`, as its pid files say; what each file was, in name
/// order. An empty list: no serve of `dir` is running (or none could write its file).
pub fn reload_all(dir: &AssetDir) -> Result<Vec<Found>> {
    let run = dir.path(RUN);
    let mut files: Vec<PathBuf> = match fs::read_dir(&run) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("serve-") && n.ends_with(".pid"))
            })
            .collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", run.display())),
    };
    files.sort();
    Ok(files.iter().map(|f| reload_one(f)).collect())
}

fn reload_one(file: &std::path::Path) -> Found {
    let unreadable = |why: String| Found::Unreadable {
        file: file.display().to_string(),
        why,
    };
    // A few dozen bytes; anything longer is not ours.
    let text = match crate::assets::read_regular(file).map(String::from_utf8) {
        Ok(Ok(t)) if t.len() <= 256 => t,
        Ok(_) => return unreadable("not a pid file's text".into()),
        Err(e) => return unreadable(format!("{e:#}")),
    };
    let mut lines = text.lines();
    let (Some(pid), Some(start), Some(listen)) = (
        lines.next().and_then(|l| l.parse::<u32>().ok()),
        lines.next().and_then(|l| l.parse::<u64>().ok()),
        lines.next(),
    ) else {
        return unreadable("not PID, start time and address on three lines".into());
    };
    if pid <= 1 {
        return unreadable(format!("PID {pid}"));
    }
    match start_time(pid) {
        Err(_) => {
            let _ = fs::remove_file(file);
            Found::Gone { pid }
        }
        Ok(now) if now != start => {
            let _ = fs::remove_file(file);
            Found::Reused { pid }
        }
        Ok(_) => {
            let target = rustix::process::Pid::from_raw(pid as i32);
            match target.map(|p| rustix::process::kill_process(p, rustix::process::Signal::HUP)) {
                Some(Ok(())) => Found::Reloaded {
                    pid,
                    listen: listen.to_string(),
                },
                Some(Err(e)) => unreadable(format!("signalling PID {pid}: {e}")),
                None => unreadable(format!("PID {pid}")),
            }
        }
    }
}

/// A process's start time in clock ticks since boot: field 22 of `/proc/PID/stat`, counted
/// after the command name (which may hold spaces and parentheses: the last `)` ends it).
fn start_time(pid: u32) -> io::Result<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"))?;
    let after = stat
        .rfind(')')
        .map(|i| &stat[i + 1..])
        .ok_or_else(|| io::Error::other("no command name"))?;
    // Fields 3 onwards; field 22 is the 20th of them.
    after
        .split_whitespace()
        .nth(19)
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| io::Error::other("no start time"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_for_this_process_is_written_private_and_removed_on_drop() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let dir = AssetDir::new(d.path().to_path_buf());
        let f = PidFile::write(&dir, "127.0.0.1:22623".parse().unwrap()).unwrap();
        let meta = fs::metadata(f.path()).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        let run = fs::metadata(d.path().join(RUN)).unwrap();
        assert_eq!(run.permissions().mode() & 0o777, 0o700);
        let text = fs::read_to_string(f.path()).unwrap();
        assert!(
            text.starts_with(&format!("{}\n", std::process::id())),
            "{text}"
        );
        let path = f.path().to_path_buf();
        drop(f);
        assert!(!path.exists());
    }

    #[test]
    fn a_stale_file_and_a_reused_pid_are_removed_and_not_signalled() {
        let d = tempfile::tempdir().unwrap();
        let dir = AssetDir::new(d.path().to_path_buf());
        let run = d.path().join(RUN);
        fs::create_dir(&run).unwrap();
        // This process, with another start time: a PID reused.
        let me = std::process::id();
        fs::write(
            run.join(format!("serve-{me}.pid")),
            format!("{me}\n1\n127.0.0.1:1\n"),
        )
        .unwrap();
        // A PID no process has (above the kernel's maximum).
        fs::write(run.join("serve-9999999.pid"), "9999999\n5\n127.0.0.1:2\n").unwrap();
        fs::write(run.join("serve-x.pid"), "hello\n").unwrap();
        let found = reload_all(&dir).unwrap();
        assert_eq!(found.len(), 3);
        assert!(found.contains(&Found::Reused { pid: me }), "{found:?}");
        assert!(found.contains(&Found::Gone { pid: 9999999 }), "{found:?}");
        assert!(
            matches!(found.last(), Some(Found::Unreadable { .. })),
            "{found:?}"
        );
        assert!(!run.join(format!("serve-{me}.pid")).exists());
        assert!(run.join("serve-x.pid").exists());
    }
}
