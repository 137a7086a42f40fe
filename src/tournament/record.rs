//! The output folder of a tournament as a durable record: per-game files appended chunk by chunk
//! in game order, and checkpoints that say exactly how much of them is good.
//!
//! A checkpoint flushes and syncs `games.csv` and `rounds.csv`, and records in `tally.json`
//! their length and CRC-32 at that moment ([`FileMark`]); `tally.json` itself is replaced
//! atomically, last. Whatever happens after (more rows, a `SIGKILL` in the middle of a line, a
//! half-written temporary file), [`Record::reopen`] restores the folder to its last checkpoint:
//! rows past the mark are cut off, a file shorter than its mark or whose bytes do not match is
//! refused (rows were lost or changed), and leftover temporary files are removed. Resume then
//! appends, so the files stay in game order and nothing is ever held in memory.

use super::ChunkOutput;
use crate::error::RecordError;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How much of a per-game file a checkpoint vouches for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct FileMark {
    /// Bytes, header included.
    pub bytes: u64,
    /// CRC-32 of those bytes.
    pub(crate) crc32: u32,
}

/// The marks of both per-game files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct PerGameMarks {
    /// `games.csv`.
    pub games: FileMark,
    /// `rounds.csv`.
    pub rounds: FileMark,
}

/// The per-game file names.
pub const GAMES_FILE: &str = "games.csv";
/// See [`GAMES_FILE`].
pub const ROUNDS_FILE: &str = "rounds.csv";

/// One per-game file open for appending, with its running length and CRC.
struct Appender {
    out: BufWriter<File>,
    mark: FileMark,
    crc: crc32fast::Hasher,
}

impl Appender {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.crc.update(bytes);
        self.mark.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Flushes and syncs; the mark of everything written.
    fn sync(&mut self) -> std::io::Result<FileMark> {
        self.out.flush()?;
        self.out.get_ref().sync_data()?;
        Ok(FileMark { bytes: self.mark.bytes, crc32: self.crc.clone().finalize() })
    }
}

/// The per-game files of a run folder.
pub struct Record {
    dir: PathBuf,
    files: Option<(Appender, Appender)>,
}

fn io_err(path: &Path, e: std::io::Error) -> RecordError {
    RecordError(format!("cannot write '{}': {}", path.display(), crate::store::io_text(&e)))
}

impl Record {
    /// A record without per-game files.
    pub fn without_games(dir: &Path) -> Record {
        Record { dir: dir.to_path_buf(), files: None }
    }

    /// Starts the per-game files afresh in `dir` with their headers.
    ///
    /// # Errors
    /// A file that cannot be written, as one line.
    pub fn create(dir: &Path, games_header: &str, rounds_header: &str) -> Result<Record, RecordError> {
        let open = |name: &str, header: &str| -> Result<Appender, RecordError> {
            let path = dir.join(name);
            let f = File::create(&path).map_err(|e| io_err(&path, e))?;
            let mut a = Appender { out: BufWriter::new(f), mark: FileMark::default(), crc: crc32fast::Hasher::new() };
            a.write(header.as_bytes()).map_err(|e| io_err(&path, e))?;
            Ok(a)
        };
        let files = (open(GAMES_FILE, games_header)?, open(ROUNDS_FILE, rounds_header)?);
        Ok(Record { dir: dir.to_path_buf(), files: Some(files) })
    }

    /// Reopens the per-game files of `dir` at their checkpoint `marks`: each file must hold at
    /// least the bytes the mark records, with the same CRC; anything after is cut off.
    ///
    /// # Errors
    /// A missing, short or changed file, as one line naming it.
    pub fn reopen(dir: &Path, marks: &PerGameMarks) -> Result<Record, RecordError> {
        let open = |name: &str, mark: &FileMark| -> Result<Appender, RecordError> {
            let path = dir.join(name);
            let mut f = OpenOptions::new().read(true).write(true).open(&path).map_err(|e| {
                format!(
                    "cannot resume from '{}': {name} is missing or unreadable ({})",
                    dir.display(),
                    crate::store::io_text(&e)
                )
            })?;
            let len = f.metadata().map_err(|e| io_err(&path, e))?.len();
            if len < mark.bytes {
                return Err(RecordError(format!(
                    "cannot resume from '{}': {name} has {len} bytes, fewer than the {} its last checkpoint recorded: rows are missing",
                    dir.display(),
                    mark.bytes
                )));
            }
            let mut crc = crc32fast::Hasher::new();
            let mut left = mark.bytes;
            let mut buf = vec![0u8; 1 << 16];
            while left > 0 {
                let n = (left as usize).min(buf.len());
                f.read_exact(&mut buf[..n]).map_err(|e| io_err(&path, e))?;
                crc.update(&buf[..n]);
                left -= n as u64;
            }
            if crc.clone().finalize() != mark.crc32 {
                return Err(RecordError(format!(
                    "cannot resume from '{}': {name} was changed since its last checkpoint (its first {} bytes do not match)",
                    dir.display(),
                    mark.bytes
                )));
            }
            // Rows written after the checkpoint are played again.
            f.set_len(mark.bytes).map_err(|e| io_err(&path, e))?;
            f.seek(SeekFrom::Start(mark.bytes)).map_err(|e| io_err(&path, e))?;
            Ok(Appender { out: BufWriter::new(f), mark: *mark, crc })
        };
        let files = (open(GAMES_FILE, &marks.games)?, open(ROUNDS_FILE, &marks.rounds)?);
        Ok(Record { dir: dir.to_path_buf(), files: Some(files) })
    }

    /// Appends a chunk's rows.
    ///
    /// # Errors
    /// A write error, as one line.
    pub fn append(&mut self, out: &ChunkOutput) -> Result<(), RecordError> {
        if let Some((g, r)) = self.files.as_mut() {
            g.write(&out.games_csv).map_err(|e| io_err(&self.dir.join(GAMES_FILE), e))?;
            r.write(&out.rounds_csv).map_err(|e| io_err(&self.dir.join(ROUNDS_FILE), e))?;
        }
        Ok(())
    }

    /// Flushes and syncs the per-game files; their marks, for the checkpoint.
    ///
    /// # Errors
    /// A write error, as one line.
    pub fn sync(&mut self) -> Result<Option<PerGameMarks>, RecordError> {
        match self.files.as_mut() {
            None => Ok(None),
            Some((g, r)) => Ok(Some(PerGameMarks {
                games: g.sync().map_err(|e| io_err(&self.dir.join(GAMES_FILE), e))?,
                rounds: r.sync().map_err(|e| io_err(&self.dir.join(ROUNDS_FILE), e))?,
            })),
        }
    }
}

/// Concatenates the per-game file `name` of several run folders, in the order given, into
/// `out`: the header once, then each folder's rows up to its mark, each checked against its
/// mark on the way (length and CRC-32). Streams: memory does not grow with the files. Returns
/// the mark of what was written.
///
/// # Errors
/// A file that is missing, shorter than its mark or changed, or a write error, as one line.
pub fn concatenate<W: Write>(name: &str, parts: &[(&Path, FileMark)], out: &mut W) -> Result<FileMark, RecordError> {
    let mut written = FileMark::default();
    let mut crc = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 16];
    for (i, (dir, mark)) in parts.iter().enumerate() {
        let path = dir.join(name);
        let f = File::open(&path)
            .map_err(|e| format!("cannot read '{}': {}", path.display(), crate::store::io_text(&e)))?;
        let mut r = std::io::BufReader::new(f);
        let mut check = crc32fast::Hasher::new();
        let mut header = Vec::new();
        std::io::BufRead::read_until(&mut r, b'\n', &mut header).map_err(|e| io_err(&path, e))?;
        check.update(&header);
        let mut left = mark.bytes.checked_sub(header.len() as u64).ok_or_else(|| {
            format!("'{}' is shorter than the {} bytes its tally.json records", path.display(), mark.bytes)
        })?;
        let mut emit = |bytes: &[u8], out: &mut W| -> Result<(), RecordError> {
            out.write_all(bytes)
                .map_err(|e| format!("cannot write the merged {name}: {}", crate::store::io_text(&e)))?;
            crc.update(bytes);
            written.bytes += bytes.len() as u64;
            Ok(())
        };
        if i == 0 {
            emit(&header, out)?;
        }
        while left > 0 {
            let n = (left as usize).min(buf.len());
            r.read_exact(&mut buf[..n]).map_err(|_| {
                format!("'{}' is shorter than the {} bytes its tally.json records", path.display(), mark.bytes)
            })?;
            check.update(&buf[..n]);
            emit(&buf[..n], out)?;
            left -= n as u64;
        }
        if check.finalize() != mark.crc32 {
            return Err(format!(
                "'{}' was changed after its run wrote it (its bytes do not match its tally.json)",
                path.display()
            )
            .into());
        }
    }
    written.crc32 = crc.finalize();
    Ok(written)
}

/// The file of chunk `c`'s game logs in a `--log-games` folder.
pub fn log_file_name(c: u64) -> String {
    format!("games-{c:06}.jsonl")
}

/// The chunk of a `--log-games` file name, if it is one.
fn log_file_chunk(name: &str) -> Option<u64> {
    name.strip_prefix("games-")?.strip_suffix(".jsonl")?.parse().ok()
}

/// Removes from a `--log-games` folder the logs of chunks that `keep` does not count (written
/// after the last checkpoint) and leftover temporary files: what stays are the logs of the
/// games the checkpoint counts.
pub fn prune_game_logs(dir: &Path, keep: impl Fn(u64) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let stale_tmp = name.starts_with("games-") && name.ends_with(".tmp");
        if (stale_tmp || log_file_chunk(&name).is_some_and(|c| !keep(c))) && crate::store::is_regular(&e.path()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Layout, Tally};

    fn chunk(c: u64, games: &str, rounds: &str) -> ChunkOutput {
        ChunkOutput {
            chunk: c,
            tally: Tally::new(Layout { bots: 1, players: 2 }),
            games_csv: games.as_bytes().to_vec(),
            rounds_csv: rounds.as_bytes().to_vec(),
            games_jsonl: Vec::new(),
            decisions: 0,
            failed: false,
            bot_failed: false,
        }
    }

    #[test]
    fn reopen_cuts_rows_past_the_checkpoint_and_refuses_lost_or_changed_rows() {
        let dir = std::env::temp_dir().join(format!("mtrain-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut r = Record::create(&dir, "g\n", "r\n").unwrap();
        r.append(&chunk(0, "g0\n", "r0\n")).unwrap();
        let marks = r.sync().unwrap().unwrap();
        assert_eq!(marks.games.bytes, 5);
        // Rows after the checkpoint, the last one cut in the middle by a kill.
        r.append(&chunk(1, "g1\ng", "r1\n")).unwrap();
        r.sync().unwrap();
        drop(r);
        let mut r = Record::reopen(&dir, &marks).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap(), "g\ng0\n");
        r.append(&chunk(1, "g1\n", "r1\n")).unwrap();
        let marks2 = r.sync().unwrap().unwrap();
        drop(r);
        assert_eq!(std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap(), "g\ng0\ng1\n");
        assert_eq!(std::fs::read_to_string(dir.join(ROUNDS_FILE)).unwrap(), "r\nr0\nr1\n");
        // The same bytes give the same mark, however they were written.
        let mut fresh = crc32fast::Hasher::new();
        fresh.update(b"g\ng0\ng1\n");
        assert_eq!(marks2.games, FileMark { bytes: 8, crc32: fresh.finalize() });
        // Truncated below the mark: refused.
        std::fs::write(dir.join(GAMES_FILE), "g\ng0").unwrap();
        let e = Record::reopen(&dir, &marks2).err().unwrap();
        assert!(e.contains("games.csv has 4 bytes, fewer than the 8"), "{e}");
        // Same length, other bytes: refused.
        std::fs::write(dir.join(GAMES_FILE), "g\ng0\ng2\n").unwrap();
        let e = Record::reopen(&dir, &marks2).err().unwrap();
        assert!(e.contains("games.csv was changed"), "{e}");
        // Missing: refused.
        std::fs::remove_file(dir.join(ROUNDS_FILE)).unwrap();
        std::fs::write(dir.join(GAMES_FILE), "g\ng0\ng1\n").unwrap();
        let e = Record::reopen(&dir, &marks2).err().unwrap();
        assert!(e.contains("rounds.csv is missing"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
