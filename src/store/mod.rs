//! The durable folder every kind of run shares: a tournament, a balance sweep, a tuning run, and
//! whatever kind comes next.
//!
//! A run keeps its exact state in one file of its folder (`tally.json`, `tune.json`), rewritten
//! at every checkpoint *after* the reports it vouches for, each file atomically: whatever stops
//! the process, the folder holds either the last checkpoint or the one before. A kind of run
//! describes itself by a [`Kind`] (its name, its state file, the files it writes); a [`Folder`]
//! does the rest, written once for every kind:
//!
//! - **A new run** (`Folder::create`) writes into a folder that is new, empty, or holds this
//!   same run (its stored configuration equal), which then starts afresh. Any other content is
//!   refused, naming it, unless `force`: mtrain's own files are then removed and others left
//!   alone. A file is never replaced that mtrain did not write.
//! - **A stored run** (`Folder::open`) is found by its state file, which must be of this kind
//!   (a folder of another kind is named as such); temporary files that a killed write left are
//!   removed.
//! - **A checkpoint** (`Folder::save`) writes the reports, then the state.
//!
//! What a run *is* lives in its state as data (a spec and the bots it adds, serde), never as a
//! command line: a resume or a merge rebuilds the run from it, and two folders hold the same run
//! when their configurations are equal. The runs themselves are plans of numbered chunks (a
//! tournament's chunks of deals, a sweep's chunks per cell, a tuning run's iterations), so a
//! state is the set of chunks done and their exact sums; [`crate::tournament::session`] adds the
//! per-game files and game logs of a tournament on top of a folder.

use std::path::{Path, PathBuf};

mod atomic;
mod progress;

pub use atomic::WriteError;
pub(crate) use atomic::{AtomicFile, discard_unfinished, write_atomic, write_in_folder};
pub use progress::{Progress, Silent};

/// What a kind of run is to its folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The `kind` its state file records (`tournament`, `balance`), and its command's name.
    pub name: &'static str,
    /// The run in words, for messages (`a tournament`).
    pub described: &'static str,
    /// Its state file.
    pub state_file: &'static str,
    /// The files it writes besides its state.
    pub files: &'static [&'static str],
    /// Whether it also writes `.svg` plots (any name).
    pub plots: bool,
    /// Files it writes by a pattern, as (prefix, suffix): a label run's chunk files
    /// (`labels-000012.x.npy`). `None`: only the files named.
    pub patterned: Option<(&'static str, &'static str)>,
    /// The field only this kind's `manifest.json` holds, by which a manifest that `mtrain merge`
    /// wrote (it merges tournaments and sweeps) is known as this kind's; `None`: never merged.
    pub merged_mark: Option<&'static str>,
}

/// A tournament (`mtrain tournament`, `mtrain merge` of its shards).
pub(crate) const TOURNAMENT: Kind = Kind {
    name: "tournament",
    described: "a tournament",
    state_file: "tally.json",
    files: &[
        "summary.csv",
        "seats.csv",
        "pairs.csv",
        "ratings.csv",
        "round_stats.csv",
        "games.csv",
        "rounds.csv",
        "manifest.json",
    ],
    plots: false,
    patterned: None,
    merged_mark: Some("rotate"),
};

/// A balance sweep (`mtrain balance`, `mtrain merge` of its shards).
pub(crate) const BALANCE: Kind = Kind {
    name: "balance",
    described: "a balance sweep",
    state_file: "tally.json",
    files: &["balance.csv", "recommendation.csv", "decisions.csv", "manifest.json"],
    plots: true,
    patterned: None,
    merged_mark: Some("cells"),
};

/// A tuning run (`mtrain tune`).
#[doc(hidden)] // for the integration tests
pub const TUNE: Kind = Kind {
    name: "tune",
    described: "a tuning run",
    state_file: "tune.json",
    files: &["trajectory.csv", "trajectory.svg", "tuned.txt", "confirm.csv"],
    plots: false,
    patterned: None,
    merged_mark: None,
};

/// A comparison of rule sets (`mtrain compare`, `mtrain merge` of its shards).
pub const COMPARE: Kind = Kind {
    name: "compare",
    described: "a comparison of rule sets",
    state_file: "compare.json",
    files: &["compare.csv", "rulesets.csv", "summary.txt", "manifest.json"],
    plots: false,
    patterned: None,
    merged_mark: Some("rulesets"),
};

/// An evaluation against the frozen baselines (`mtrain eval`).
pub const EVAL: Kind = Kind {
    name: "eval",
    described: "an evaluation",
    state_file: "eval.json",
    files: &["eval.csv", "manifest.json"],
    plots: false,
    patterned: None,
    merged_mark: None,
};

/// A label run (`mtrain label`, `mtrain merge` of its shards).
pub const LABEL: Kind = Kind {
    name: "label",
    described: "a label run",
    state_file: "label.json",
    files: &["labels.json", "manifest.json"],
    plots: false,
    patterned: Some(("labels-", ".npy")),
    merged_mark: Some("matches_planned"),
};

/// Every kind, for naming what a folder holds.
#[doc(hidden)] // for the integration tests
pub const KINDS: [Kind; 6] = [TOURNAMENT, BALANCE, TUNE, COMPARE, EVAL, LABEL];

/// The folder of external bots' stderr logs, which every kind may write.
pub(crate) const BOT_LOGS: &str = "bot-logs";

/// The file every run (and every merge) writes first: a folder holding it and no state yet is
/// a start that was stopped before its first checkpoint.
pub(crate) const MANIFEST: &str = "manifest.json";

impl Kind {
    /// Whether `name` is one of this kind's files (its state, reports, plots, bot logs).
    pub(crate) fn owns(&self, name: &str) -> bool {
        name == self.state_file
            || name == BOT_LOGS
            || self.files.contains(&name)
            || (self.plots && name.ends_with(".svg"))
            || self.patterned.is_some_and(|(pre, suf)| name.starts_with(pre) && name.ends_with(suf))
    }

    /// Whether `dir`'s `manifest.json` is one a run of this kind writes first: by its command
    /// (`mtrain tournament`), or by `mtrain merge` writing this kind.
    fn started_in(&self, dir: &Path) -> bool {
        let Some(v) =
            read_state(&dir.join(MANIFEST)).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        else {
            return false;
        };
        match v.get("subcommand").and_then(serde_json::Value::as_str) {
            Some("merge") => self.merged_mark.is_some_and(|mark| v.get(mark).is_some()),
            Some(command) => command == self.name,
            None => false,
        }
    }

    /// The kind of run `dir` holds, from its state file (`None`: no state file mtrain reads).
    /// A `tally.json` without a `kind` is a tournament's (as every format before kinds).
    pub(crate) fn of_folder(dir: &Path) -> Option<Kind> {
        for kind in [TUNE, COMPARE, EVAL, LABEL] {
            if is_regular(&dir.join(kind.state_file)) {
                return Some(kind);
            }
        }
        let text = read_state(&dir.join("tally.json")).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        match v.get("kind").and_then(serde_json::Value::as_str) {
            None => Some(TOURNAMENT),
            Some(k) => KINDS.into_iter().find(|kind| kind.name == k && kind.state_file == "tally.json"),
        }
    }
}

/// A state file that carries a CRC-32 of its own content (its `check` field), so that a file
/// edited by hand, truncated or damaged is refused rather than trusted. Every kind's state is
/// one.
pub(crate) trait SelfChecked: serde::Serialize + Clone {
    /// The `check` field.
    fn check_field(&mut self) -> &mut u32;

    /// The CRC-32 of the state with `check` 0, in its compact JSON form.
    fn content_check(&self) -> u32 {
        let mut plain = self.clone();
        *plain.check_field() = 0;
        crc32fast::hash(serde_json::to_string(&plain).expect("serialisable").as_bytes())
    }

    /// Pretty JSON with the check filled in, as the state file holds it.
    fn checked_json(&self) -> String {
        let mut st = self.clone();
        *st.check_field() = st.content_check();
        serde_json::to_string_pretty(&st).expect("serialisable") + "\n"
    }

    /// Whether the stored check matches the content.
    fn is_intact(&self) -> bool {
        let mut st = self.clone();
        *st.check_field() == self.content_check()
    }
}

/// The first line of every page `mtrain report` writes (`report.html`): by it a run's folder
/// knows the page as mtrain's own, to replace with the run's other files.
pub(crate) const REPORT_MARKER: &str = "<!-- mtrain report -->";

/// Whether `name` in `dir` is a page `mtrain report` wrote there (`report.html` starting with
/// its marker line): a report of the run, mtrain's to replace with the run's other files.
fn is_report_page(dir: &Path, name: &str) -> bool {
    use std::io::Read;
    let marker = REPORT_MARKER.as_bytes();
    let mut head = vec![0u8; marker.len()];
    name == "report.html"
        && std::fs::File::open(dir.join(name)).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && head == marker
}

/// Why a folder cannot hold a run, in one line: it holds something else, no run to continue, or
/// cannot be written (bad input: the caller names another folder).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FolderError(pub String);

/// The folder of a run of one kind.
#[derive(Clone, Debug)]
pub struct Folder {
    /// Where it is.
    pub dir: PathBuf,
    /// The kind of run it holds.
    pub kind: Kind,
}

impl Folder {
    /// The folder `dir` readied for a new run of `kind`: created if missing, and written into
    /// only if it is empty or holds this same run (`same_run` judges the stored state's text),
    /// whose files the new run replaces; `force` allows any folder, removing mtrain's own files
    /// and leaving others alone. Temporary files a killed write left are removed.
    ///
    /// # Errors
    /// What the folder holds (another kind's run, another run of this kind, other files), or
    /// that it cannot be created or written.
    pub(crate) fn create(
        dir: &Path,
        kind: Kind,
        force: bool,
        same_run: impl Fn(&str) -> bool,
    ) -> Result<Folder, FolderError> {
        let advice =
            "give a new or empty folder, --resume the run it holds, or --force to replace mtrain's files in it";
        Folder::readied(dir, kind, force, advice, same_run)
    }

    /// The folder `dir` readied for the output of `mtrain merge`, a run of `kind`: as
    /// [`Folder::create`] without `force` (a merge replaces only a folder of the same run, or
    /// one a stopped merge or run started), and a refusal says so.
    ///
    /// # Errors
    /// As [`Folder::create`].
    pub(crate) fn create_merged(
        dir: &Path,
        kind: Kind,
        same_run: impl Fn(&str) -> bool,
    ) -> Result<Folder, FolderError> {
        let advice = "give a new or empty folder (a merge replaces only the files of this same run, or of a start of it that was stopped)";
        Folder::readied(dir, kind, false, advice, same_run)
    }

    /// [`Folder::create`], whose refusal ends with `advice`.
    fn readied(
        dir: &Path,
        kind: Kind,
        force: bool,
        advice: &str,
        same_run: impl Fn(&str) -> bool,
    ) -> Result<Folder, FolderError> {
        let cannot =
            |e: std::io::Error| FolderError(format!("cannot write to --out '{}': {}", dir.display(), io_text(&e)));
        if dir.exists() && !dir.is_dir() {
            return Err(FolderError(format!(
                "--out '{}' is a file, not a folder: give a folder (new or empty) for the run's files",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(cannot)?;
        probe(dir).map_err(cannot)?;
        let stored = read_state(&dir.join(kind.state_file)).ok();
        // The kinds mtrain knows ([`KINDS`]), and this kind by its own state file (a kind a
        // program adds need not be listed).
        let held = Kind::of_folder(dir).or_else(|| is_regular(&dir.join(kind.state_file)).then_some(kind));
        // A run (or a merge) stopped before its first state file was written leaves its
        // manifest (written first) and maybe some reports: a start of this kind that never
        // finished, whose files the new run replaces like its own.
        let unfinished_start = held.is_none()
            && kind.started_in(dir)
            && std::fs::read_dir(dir).map_err(cannot)?.flatten().all(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                is_temporary(&n) || (kind.owns(&n) && is_regular(&e.path()))
            });
        let same = (held == Some(kind) && stored.as_deref().is_some_and(&same_run)) || unfinished_start;
        let mut entries: Vec<String> = std::fs::read_dir(dir)
            .map_err(cannot)?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        // The state file and then the manifest go last: a removal stopped part-way leaves a
        // folder that is still this run's, or a stopped start's (its manifest alone).
        let is_state = |n: &str| n == kind.state_file || held.is_some_and(|k| n == k.state_file);
        entries.sort_unstable_by_key(|n| (n == MANIFEST, is_state(n), n.clone()));
        let foreign: Vec<String> =
            entries.iter().filter(|n| !same && !is_temporary(n) && !is_report_page(dir, n)).cloned().collect();
        if !foreign.is_empty() && !force {
            let holds = match held {
                Some(k) if k != kind => format!("{}'s files", k.described),
                Some(_) => format!("another {}", kind.described.trim_start_matches("a ")),
                None => "other files".to_string(),
            };
            let mut listed = foreign.clone();
            listed.sort_unstable();
            return Err(FolderError(format!(
                "--out '{}' is not empty: it holds {holds} ({}); {advice}",
                dir.display(),
                shown(&listed)
            )));
        }
        let folder = Folder { dir: dir.to_path_buf(), kind };
        for name in &entries {
            let path = dir.join(name);
            // Whatever is by one of mtrain's names is removed: its own files, and a link, pipe
            // or device planted there (the entry itself: a link's target is never touched, and
            // the files are written afresh in its place). A folder by such a name stays. The
            // bot logs are mtrain's folder.
            let ours = kind.owns(name)
                || held.is_some_and(|k| k.owns(name))
                || is_temporary(name)
                || is_report_page(dir, name);
            if name == BOT_LOGS {
                if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                    let _ = std::fs::remove_dir_all(&path);
                } else {
                    let _ = std::fs::remove_file(&path);
                }
            } else if ours && std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                let _ = std::fs::remove_file(&path);
            }
        }
        Ok(folder)
    }

    /// The folder `dir` of a stored run of `kind` and its state file's text; temporary files
    /// a killed write left are removed.
    ///
    /// # Errors
    /// `dir` holds no state file, or another kind's, or cannot be written.
    pub(crate) fn open(dir: &Path, kind: Kind) -> Result<(Folder, String), FolderError> {
        let bad = |why: String| FolderError(format!("cannot resume from '{}': {why}", dir.display()));
        if let Some(held) = Kind::of_folder(dir).filter(|&k| k != kind) {
            return Err(bad(format!(
                "it holds {}, not {} (continue it with mtrain {} --resume)",
                held.described, kind.described, held.name
            )));
        }
        let text = read_state(&dir.join(kind.state_file)).map_err(|e| {
            if is_regular(&dir.join("manifest.json")) && std::fs::symlink_metadata(dir.join(kind.state_file)).is_err() {
                bad(format!(
                    "no {} yet: the run was stopped before its first checkpoint; run the same command again (it replaces what the stopped start wrote)",
                    kind.state_file
                ))
            } else {
                bad(format!("no readable {} ({})", kind.state_file, io_text(&e)))
            }
        })?;
        probe(dir).map_err(|e| FolderError(format!("cannot write to '{}': {}", dir.display(), io_text(&e))))?;
        let folder = Folder { dir: dir.to_path_buf(), kind };
        folder.remove_temporaries();
        folder.remove_planted();
        Ok((folder, text))
    }

    /// Writes a checkpoint: `files` (name, contents) first, then the `state`, each with
    /// `write` (atomically), so a state never vouches for a file not yet written.
    ///
    /// # Errors
    /// The first failing write.
    pub(crate) fn save<E>(
        &self,
        files: &[(&str, String)],
        state: &str,
        write: &mut impl FnMut(&Path, &[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        for (name, text) in files {
            write(&self.dir.join(name), text.as_bytes())?;
        }
        write(&self.dir.join(self.kind.state_file), state.as_bytes())
    }

    /// Removes what is not a regular file by one of this kind's file names (a link, a pipe)
    /// from a folder being resumed: the run's files are written afresh in its place, and
    /// nothing outside the folder is reached through it. (A per-game file that was a link is
    /// then missing, and the resume says so.)
    fn remove_planted(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let planted = std::fs::symlink_metadata(e.path()).is_ok_and(|m| !m.is_file() && !m.is_dir());
            if planted && (self.kind.owns(&name) || name == BOT_LOGS) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    /// Removes the temporary files an interrupted write of this kind's files left.
    pub(crate) fn remove_temporaries(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if (temporary_of(&name).is_some_and(|of| self.kind.owns(of)) || is_probe(&name)) && is_regular(&e.path()) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// Whether `dir` can be written (a file created and removed), so that a folder that cannot be
/// written is found before anything is played.
fn probe(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!("{PROBE}{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// The file a temporary file `NAME.PID.tmp` was to become (written by a process killed before
/// it could rename it), if `name` is one.
fn temporary_of(name: &str) -> Option<&str> {
    let rest = name.strip_suffix(".tmp")?;
    let (of, pid) = rest.rsplit_once('.')?;
    (!pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit())).then_some(of)
}

/// The name of the file [`probe`] creates and removes at once, before the process id.
const PROBE: &str = ".mtrain-probe-";

/// Whether `name` is the file of a write check ([`probe`]) a process killed in between left.
fn is_probe(name: &str) -> bool {
    name.strip_prefix(PROBE).is_some_and(|pid| !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()))
}

/// Whether `name` is a temporary file mtrain leaves only when killed mid-write.
fn is_temporary(name: &str) -> bool {
    temporary_of(name).is_some_and(|of| KINDS.iter().any(|k| k.owns(of))) || is_probe(name)
}

/// An I/O error in words, without the operating system's error number: what a refusal shows
/// after the file it names.
pub(crate) fn io_text(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let said = match e.kind() {
        K::NotFound => "it does not exist",
        K::PermissionDenied => "permission denied",
        K::AlreadyExists => "something by that name is already there",
        K::NotADirectory => "a part of the path is a file, not a folder",
        K::IsADirectory => "it is a folder, not a file",
        K::ReadOnlyFilesystem => "the file system is read-only",
        K::StorageFull => "no space left on the device",
        K::QuotaExceeded => "the disk quota is exceeded",
        K::InvalidData => "it is not UTF-8 text",
        _ => "",
    };
    if !said.is_empty() {
        return said.to_string();
    }
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// The metadata of `path` if it is a regular file itself; an error naming what it is
/// otherwise.
fn regular(path: &Path) -> std::io::Result<std::fs::Metadata> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(std::io::Error::other("it is a symbolic link, and mtrain reads only the files a run wrote itself"));
    }
    if !meta.file_type().is_file() {
        return Err(std::io::Error::other("not a regular file (a pipe, device or folder is not read)"));
    }
    Ok(meta)
}

/// Reads a file of a run's folder: a regular file only, never through a link.
pub(crate) fn read_regular(path: &Path) -> std::io::Result<String> {
    regular(path)?;
    std::fs::read_to_string(path)
}

/// The largest state file read (a run's `tally.json` of a big sweep is well under a megabyte).
const MAX_STATE_BYTES: u64 = 64 << 20;

/// Reads a run's state file: a regular file only (not a link, a pipe or a device, which could
/// be endless, such as a link to /dev/zero), of at most [`MAX_STATE_BYTES`].
pub(crate) fn read_state(path: &Path) -> std::io::Result<String> {
    let meta = regular(path)?;
    if meta.len() > MAX_STATE_BYTES {
        return Err(std::io::Error::other(format!("larger than {} MiB", MAX_STATE_BYTES >> 20)));
    }
    std::fs::read_to_string(path)
}

/// Whether `path` is a regular file itself (not a link to one, a pipe, a device or a folder).
pub(crate) fn is_regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// The entries a refusal shows: the first five, then `...`.
#[doc(hidden)] // for the integration tests
pub fn shown(entries: &[String]) -> String {
    let mut s = entries.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if entries.len() > 5 {
        s.push_str(", ...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mtrain-folder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_new_run_takes_an_empty_folder_or_its_own_run_and_nothing_else() {
        let d = scratch("new");
        let f = Folder::create(&d, TOURNAMENT, false, |_| false).unwrap();
        let mut write = |p: &Path, b: &[u8]| std::fs::write(p, b);
        f.save(&[("summary.csv", "x\n".into())], "{\"kind\":\"tournament\",\"run\":1}", &mut write).unwrap();
        // The same run starts afresh; its files are removed.
        std::fs::write(d.join("summary.csv.123.tmp"), "half").unwrap();
        Folder::create(&d, TOURNAMENT, false, |s| s.contains("\"run\":1")).unwrap();
        assert!(!d.join("summary.csv").exists() && !d.join("summary.csv.123.tmp").exists());
        // Another run of the kind, another kind, or other files: refused, naming them.
        f.save(&[], "{\"kind\":\"tournament\",\"run\":1}", &mut write).unwrap();
        let e = Folder::create(&d, TOURNAMENT, false, |s| s.contains("\"run\":2")).unwrap_err();
        assert!(e.to_string().contains("holds another tournament (tally.json)"), "{e}");
        let e = Folder::create(&d, BALANCE, false, |_| true).unwrap_err();
        assert!(e.to_string().contains("holds a tournament's files"), "{e}");
        std::fs::write(d.join("notes.txt"), "mine").unwrap();
        // With force, mtrain's files go and the others stay.
        Folder::create(&d, BALANCE, true, |_| false).unwrap();
        assert!(!d.join("tally.json").exists());
        assert_eq!(std::fs::read_to_string(d.join("notes.txt")).unwrap(), "mine");
        let e = Folder::create(&d, BALANCE, false, |_| false).unwrap_err();
        assert!(e.to_string().contains("holds other files (notes.txt)"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_stored_run_opens_only_as_its_own_kind() {
        let d = scratch("open");
        std::fs::create_dir_all(&d).unwrap();
        assert!(Folder::open(&d, TUNE).unwrap_err().to_string().contains("no readable tune.json"));
        std::fs::write(d.join("tally.json"), "{\"kind\":\"balance\"}").unwrap();
        std::fs::write(d.join("tally.json.77.tmp"), "half").unwrap();
        std::fs::write(d.join("notes.txt.77.tmp"), "not ours").unwrap();
        let e = Folder::open(&d, TOURNAMENT).unwrap_err().to_string();
        assert!(
            e.contains("it holds a balance sweep, not a tournament (continue it with mtrain balance --resume)"),
            "{e}"
        );
        let (f, text) = Folder::open(&d, BALANCE).unwrap();
        assert_eq!((f.kind, text.as_str()), (BALANCE, "{\"kind\":\"balance\"}"));
        assert!(!d.join("tally.json.77.tmp").exists());
        assert!(d.join("notes.txt.77.tmp").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_checkpoint_writes_the_state_last_and_not_at_all_after_a_failure() {
        let d = scratch("save");
        let f = Folder::create(&d, TOURNAMENT, false, |_| false).unwrap();
        let mut order = Vec::new();
        let mut write = |p: &Path, b: &[u8]| -> Result<(), String> {
            order.push(p.file_name().unwrap().to_string_lossy().into_owned());
            std::fs::write(p, b).map_err(|e| e.to_string())
        };
        let files = [("summary.csv", "s\n".to_string()), ("manifest.json", "{}\n".to_string())];
        f.save(&files, "first", &mut write).unwrap();
        assert_eq!(order, ["summary.csv", "manifest.json", "tally.json"]);
        // A report that cannot be written: the previous state stands.
        let mut failing = |p: &Path, b: &[u8]| -> Result<(), String> {
            if p.ends_with("manifest.json") {
                return Err("disk full".into());
            }
            std::fs::write(p, b).map_err(|e| e.to_string())
        };
        assert_eq!(f.save(&files, "second", &mut failing).unwrap_err(), "disk full");
        assert_eq!(std::fs::read_to_string(d.join("tally.json")).unwrap(), "first");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_stopped_merge_is_a_start_of_the_kind_it_merges() {
        let d = scratch("merged-start");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("manifest.json"), r#"{"subcommand":"merge","cells":4}"#).unwrap();
        std::fs::write(d.join(".mtrain-probe-12"), "").unwrap();
        // A sweep's merge is not a tournament's start; the refusal names no option merge lacks.
        let e = Folder::create_merged(&d, TOURNAMENT, |_| false).unwrap_err().to_string();
        assert!(e.contains("holds other files (manifest.json); give a new or empty folder"), "{e}");
        assert!(!e.contains("--force") && !e.contains("--resume"), "{e}");
        Folder::create_merged(&d, BALANCE, |_| false).unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        // A tournament's merge, with some reports: replaced by the tournament's merge.
        std::fs::write(d.join("manifest.json"), r#"{"subcommand":"merge","rotate":true}"#).unwrap();
        std::fs::write(d.join("summary.csv"), "s\n").unwrap();
        assert!(Folder::create_merged(&d, BALANCE, |_| false).is_err());
        Folder::create_merged(&d, TOURNAMENT, |_| false).unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn temporaries_are_recognised_by_their_pid() {
        assert_eq!(temporary_of("tally.json.4242.tmp"), Some("tally.json"));
        assert_eq!(temporary_of("tally.json.tmp"), None);
        assert_eq!(temporary_of("a.b.x1.tmp"), None);
        assert!(is_temporary("trajectory.svg.9.tmp"));
        assert!(!is_temporary("notes.txt.9.tmp"));
        assert!(
            is_temporary(".mtrain-probe-31") && !is_temporary(".mtrain-probe-") && !is_temporary(".mtrain-probe-x")
        );
    }
}
