//! The save file of `mtrain play --human`: what a stopped match needs to go on.
//!
//! A person's match is the command's table options, the bots, the person's seat, the seed and
//! the person's choices: the bots play deterministically from the seed, so replaying the choices
//! (as indices into the legal moves offered) rebuilds the match exactly where it stopped. The
//! file is one line of JSON whose first key is `mtrain_save` (the format's version), written
//! under a temporary name and renamed when complete, and it only ever replaces a save file
//! mtrain wrote (the same first key).

use super::CliError;
use crate::store::AtomicFile;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The save file a person's match writes unless `--save` names another, in the current folder.
pub(crate) const DEFAULT_SAVE: &str = "mtrain-save.json";

/// The format version this build writes and reads.
const VERSION: u32 = 1;

/// How a save file begins: what tells mtrain's save files from other files.
const HEAD: &str = "{\"mtrain_save\":";

/// A stopped match, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Save {
    /// The format version ([`VERSION`]).
    pub(crate) mtrain_save: u32,
    /// `--rules`.
    pub(crate) rules: String,
    /// `--rule` options, as given.
    pub(crate) rule: Vec<String>,
    /// `--set`.
    pub(crate) set: u8,
    /// `--players`.
    pub(crate) players: u8,
    /// `--hand`, if given.
    pub(crate) hand: Option<u8>,
    /// `--rounds`, if given.
    pub(crate) rounds: Option<u8>,
    /// The bots in seat order (the person's seat included, where the person's seat replaces it).
    pub(crate) bots: String,
    /// `--name NAME=SPEC` options.
    pub(crate) names: Vec<(String, String)>,
    /// The person's seat.
    pub(crate) human: u8,
    /// The match seed, as hex (`0x...`).
    pub(crate) seed: String,
    /// The person's choices in order: each the index (from 0) of the move chosen among the legal
    /// moves offered.
    pub(crate) choices: Vec<u32>,
}

impl Save {
    /// A save of the current format with no choices yet.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        rules: String,
        rule: Vec<String>,
        set: u8,
        players: u8,
        hand: Option<u8>,
        rounds: Option<u8>,
        bots: String,
        names: Vec<(String, String)>,
        human: u8,
        seed: u64,
    ) -> Save {
        Save {
            mtrain_save: VERSION,
            rules,
            rule,
            set,
            players,
            hand,
            rounds,
            bots,
            names,
            human,
            seed: format!("0x{seed:016x}"),
            choices: Vec::new(),
        }
    }

    /// The seed as a number.
    pub(crate) fn seed(&self) -> Option<u64> {
        super::values::seed(&self.seed).ok()
    }

    /// Reads the save at `path` (the file of `--resume`): a file that cannot be read, is not a
    /// save mtrain wrote or is of another version is bad input, named in one line.
    pub(crate) fn read(path: &Path) -> Result<Save, CliError> {
        let bad = |why: String| CliError::usage(format!("--resume '{}': {why}", path.display()));
        let text =
            std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {}", crate::store::io_text(&e))))?;
        if !text.starts_with(HEAD) {
            return Err(bad(format!(
                "not a save file mtrain wrote (a save is one line of JSON that begins {HEAD}; `mtrain play --human SEAT` writes one when the match is stopped)"
            )));
        }
        let save: Save =
            serde_json::from_str(text.trim_end()).map_err(|e| bad(format!("not a save file mtrain can read: {e}")))?;
        if save.mtrain_save != VERSION {
            return Err(bad(format!("save format {} is not the one this mtrain reads ({VERSION})", save.mtrain_save)));
        }
        if save.seed().is_none() {
            return Err(bad(format!("the seed '{}' is not a number (expected hex like 0x1f)", save.seed)));
        }
        Ok(save)
    }

    /// Writes the save to `path`, whole or not at all.
    pub(crate) fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        let mut f = AtomicFile::create(path).map_err(|e| e.to_string())?;
        f.writer()
            .write_all(text.as_bytes())
            .and_then(|()| f.writer().write_all(b"\n"))
            .map_err(|e| format!("cannot write '{}': {}", path.display(), crate::store::io_text(&e)))?;
        f.commit().map_err(|e| e.to_string())
    }
}

/// Refuses a `--save` path that cannot be written or holds a file that is not a save mtrain
/// wrote (run before the match starts).
pub(crate) fn check_save_path(path: &Path) -> Result<(), CliError> {
    super::check_out_file("--save", path)?;
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) };
    if !meta.is_file() {
        return Ok(());
    }
    let mut head = Vec::with_capacity(64);
    std::fs::File::open(path).and_then(|f| f.take(64).read_to_end(&mut head)).map_err(|e| {
        CliError::usage(format!(
            "cannot read --save '{}' to check it before replacing it: {}",
            path.display(),
            crate::store::io_text(&e)
        ))
    })?;
    if String::from_utf8_lossy(&head).starts_with(HEAD) {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "--save '{}' exists and is not a save file mtrain wrote: not replacing it (remove it, or choose another file with --save FILE)",
        path.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_reads_back_as_written() {
        let dir = std::env::temp_dir().join(format!("mtrain-save-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json");
        let mut s = Save::new(
            "wikipedia".into(),
            vec!["v1=true".into()],
            12,
            3,
            None,
            Some(2),
            "greedy,planner,greedy".into(),
            vec![("tuned".into(), "weighted:pips=0.5".into())],
            1,
            0xfeed_beef_0123_4567,
        );
        s.choices = vec![0, 2, 1];
        s.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\"mtrain_save\":1,\"rules\":\"wikipedia\""), "{text}");
        assert!(text.contains("\"seed\":\"0xfeedbeef01234567\""), "{text}");
        let back = Save::read(&path).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.seed(), Some(0xfeed_beef_0123_4567));
        assert!(check_save_path(&path).is_ok(), "a save may be replaced");
        std::fs::write(&path, "notes\n").unwrap();
        assert!(check_save_path(&path).is_err(), "another file may not");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
