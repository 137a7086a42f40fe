//! Files written whole or not at all: every file mtrain writes (a run's reports and state, a
//! log, a page) goes through [`AtomicFile`].

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, TryLockError};

/// Why a file could not be written: it cannot be created where the user asked (bad input), or
/// the write failed on the way (a full disk).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The file cannot be created there (a path the user gave).
    #[error("{0}")]
    Refused(String),
    /// Writing it failed.
    #[error("{0}")]
    Failed(String),
}

/// A file written under a temporary name and renamed into place only when complete.
///
/// Only a regular file (or a new name) is ever replaced: a destination that is a symbolic link is
/// followed (the file it points at is written, the link stays), and one that is a device, a FIFO
/// or a socket (`/dev/stdout`, a named pipe) is written directly, in place, since renaming over it
/// would replace something mtrain did not make.
///
/// The temporary file goes when the value is dropped unfinished, and also when the process
/// panics: release builds abort on a panic without running `Drop`, so every unfinished
/// temporary file is registered with a panic hook that removes it before the abort. (A process
/// killed by a signal it cannot catch still leaves its `NAME.PID.tmp`.)
pub(crate) struct AtomicFile {
    /// The temporary file; the destination itself when it is written directly.
    tmp: PathBuf,
    /// Where the file goes (the final target of a symbolic link).
    dest: PathBuf,
    /// Whether `dest` is written in place (a device, FIFO or socket).
    direct: bool,
    file: Option<BufWriter<File>>,
}

/// The path a chain of symbolic links at `path` ends at (the path itself when it is no link),
/// whether or not that final file exists yet.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // The kernel's own limit on links followed in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() { to } else { p.parent().unwrap_or(Path::new(".")).join(to) };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// The temporary files of unfinished [`AtomicFile`]s, for the panic hook.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Installs, once, the panic hook that removes unfinished temporary files and then reports
/// the panic as before.
fn install_cleanup_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            remove_unfinished();
        }));
    });
}

/// Removes the temporary file of every unfinished [`AtomicFile`] now: for a process about to
/// exit on a signal, which runs no `Drop`.
pub(crate) fn discard_unfinished() {
    for tmp in unfinished().drain(..) {
        let _ = std::fs::remove_file(tmp);
    }
}

/// Removes every registered temporary file. Never blocks: a panic raised while the registry
/// is locked (by this thread) skips the cleanup rather than deadlock.
fn remove_unfinished() {
    let list = match UNFINISHED.try_lock() {
        Ok(l) => l,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => return,
    };
    for tmp in list.iter() {
        let _ = std::fs::remove_file(tmp);
    }
}

impl AtomicFile {
    /// A file inside a run's folder (its CSVs, state, plots, game logs): whatever is at `path`
    /// (a link planted there, a pipe) is replaced when the file is committed, never followed or
    /// written through, so nothing outside the folder can be reached by its names.
    pub(crate) fn create_in_folder(path: &Path) -> Result<AtomicFile, WriteError> {
        let cannot = |e: std::io::Error| {
            WriteError::Refused(format!("cannot write '{}': {}", path.display(), super::io_text(&e)))
        };
        AtomicFile::through_temporary(path, |tmp| {
            // The temporary name too is created afresh: an entry already there (a link) is removed.
            if std::fs::symlink_metadata(tmp).is_ok() {
                std::fs::remove_file(tmp).map_err(cannot)?;
            }
            std::fs::OpenOptions::new().write(true).create_new(true).open(tmp).map_err(cannot)
        })
    }

    /// The file `dest` written under a temporary name beside it (`open` creates that file),
    /// renamed to `dest` on commit; the temporary file is on the panic hook's list meanwhile.
    fn through_temporary(
        dest: &Path,
        open: impl FnOnce(&Path) -> Result<File, WriteError>,
    ) -> Result<AtomicFile, WriteError> {
        let name =
            dest.file_name().ok_or_else(|| WriteError::Refused(format!("invalid output file '{}'", dest.display())))?;
        let mut tmp_name = name.to_os_string();
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = dest.with_file_name(tmp_name);
        install_cleanup_hook();
        let mut list = unfinished();
        let file = open(&tmp)?;
        list.push(tmp.clone());
        Ok(AtomicFile { tmp, dest: dest.to_path_buf(), direct: false, file: Some(BufWriter::new(file)) })
    }

    /// A file the user named: a link is followed (the file it points to is replaced), and a
    /// device or pipe is written in place.
    pub fn create(given: &Path) -> Result<AtomicFile, WriteError> {
        let cannot = |e: std::io::Error| {
            WriteError::Refused(format!("cannot write '{}': {}", given.display(), super::io_text(&e)))
        };
        // Something that is not a regular file (a device, a FIFO, a socket, also reached through
        // a link such as /dev/stdout) is written in place.
        if std::fs::metadata(given).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = std::fs::OpenOptions::new().write(true).open(given).map_err(cannot)?;
            return Ok(AtomicFile {
                tmp: given.to_path_buf(),
                dest: given.to_path_buf(),
                direct: true,
                file: Some(BufWriter::new(file)),
            });
        }
        let dest = &link_target(given).map_err(cannot)?;
        AtomicFile::through_temporary(dest, |tmp| {
            File::create(tmp)
                .map_err(|e| WriteError::Refused(format!("cannot write '{}': {}", dest.display(), super::io_text(&e))))
        })
    }

    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        self.file.as_mut().expect("open")
    }

    pub fn commit(mut self) -> Result<(), WriteError> {
        let mut w = self.file.take().expect("open");
        if self.direct {
            // A device or pipe: what was written is flushed; there is nothing to rename or sync.
            return w.flush().map_err(|e| {
                WriteError::Failed(format!("cannot write '{}': {}", self.dest.display(), super::io_text(&e)))
            });
        }
        let done = w.flush().and_then(|_| w.get_ref().sync_all()).and_then(|_| std::fs::rename(&self.tmp, &self.dest));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        self.forget_tmp();
        done.map_err(|e| WriteError::Failed(format!("cannot write '{}': {}", self.dest.display(), super::io_text(&e))))
    }

    /// Takes the temporary file off the panic hook's list.
    fn forget_tmp(&self) {
        let mut list = unfinished();
        if let Some(i) = list.iter().position(|t| *t == self.tmp) {
            list.swap_remove(i);
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() && !self.direct {
            let _ = std::fs::remove_file(&self.tmp);
            self.forget_tmp();
        }
    }
}

/// Writes `contents` to `path`, a file of a run's folder, atomically, replacing (never
/// following) whatever is at `path` ([`AtomicFile::create_in_folder`]).
pub(crate) fn write_in_folder(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    let mut f = AtomicFile::create_in_folder(path)?;
    f.writer()
        .write_all(contents)
        .map_err(|e| WriteError::Failed(format!("cannot write '{}': {}", path.display(), super::io_text(&e))))?;
    f.commit()
}

/// Writes `contents` to `path` atomically.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    let mut f = AtomicFile::create(path)?;
    f.writer()
        .write_all(contents)
        .map_err(|e| WriteError::Failed(format!("cannot write '{}': {}", path.display(), super::io_text(&e))))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_panic_removes_unfinished_temporary_files() {
        let dir = std::env::temp_dir().join(format!("mtrain-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("log.jsonl");
        let mut f = AtomicFile::create(&dest).unwrap();
        f.writer().write_all(b"half a line").unwrap();
        let tmp = f.tmp.clone();
        assert!(tmp.exists());
        // What `panic = "abort"` does: no destructor runs. The hook must clean up alone.
        std::mem::forget(f);
        let caught = std::panic::catch_unwind(|| panic!("deliberate panic: the hook removes temporary files"));
        assert!(caught.is_err());
        assert!(!tmp.exists(), "{} left behind after a panic", tmp.display());
        assert!(!dest.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_committed_file_is_off_the_list() {
        let dir = std::env::temp_dir().join(format!("mtrain-atomic-commit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.csv");
        let mut f = AtomicFile::create(&dest).unwrap();
        f.writer().write_all(b"a,b\n").unwrap();
        let tmp = f.tmp.clone();
        f.commit().unwrap();
        assert!(dest.exists() && !tmp.exists());
        assert!(!unfinished().contains(&tmp));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
