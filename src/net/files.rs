//! The files of `mtrain label` as the network's training reads them: `.npy` arrays (written
//! and read here), the chunk files' names, and what the target and meta columns hold.

use crate::error::InvalidInput;

/// The targets of a label, in the order of `y`'s columns.
pub const TARGETS: [&str; 4] = ["margin", "win", "own", "margin_sd"];

/// What `meta`'s columns hold.
pub const META: [&str; 5] = ["match", "round", "turn", "seat", "to_act"];

/// The file name of chunk `c`'s `part` (`x`, `y` or `meta`).
pub fn chunk_file(c: u64, part: &str) -> String {
    format!("labels-{c:06}.{part}.npy")
}

/// A number that an `.npy` file stores little-endian.
pub trait NpyElement: Copy {
    /// Its bytes, little-endian.
    fn le(self) -> [u8; 4];
}

impl NpyElement for f32 {
    fn le(self) -> [u8; 4] {
        self.to_le_bytes()
    }
}

impl NpyElement for u32 {
    fn le(self) -> [u8; 4] {
        self.to_le_bytes()
    }
}

/// `data` as an `.npy` file (format version 1.0) of dtype `descr` and `shape`, C order.
///
/// Written here rather than with a crate: the crates that write `.npy` also read it, through a
/// parser of Python literals and a C-compiled stack guard, which this library (built for
/// WebAssembly too) would carry for a writer of one fixed header. The format: the magic
/// `\x93NUMPY`, version 1.0, the header's length (u16, little-endian), the header (a Python
/// dict literal padded with spaces and ending in a newline so that the data starts at a
/// multiple of 64 bytes), then the data. Tests read the files back with numpy.
pub fn npy<T: NpyElement>(data: &[T], descr: &str, shape: &[usize]) -> Vec<u8> {
    assert_eq!(data.len(), shape.iter().product::<usize>(), "the data fills the shape");
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic (6) + version (2) + length (2) + header + newline, to a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 4 * data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&u16::try_from(header.len()).expect("a short header").to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for &v in data {
        out.extend_from_slice(&v.le());
    }
    out
}

/// The shape and data of an `.npy` file of dtype `descr` as [`npy`] writes it (version 1.0, C
/// order): what `mtrain label` wrote, read back for training.
///
/// # Errors
/// A phrase: not such a file, another dtype, or data that does not fill the shape.
pub fn read_npy<'a>(bytes: &'a [u8], descr: &str) -> Result<(Vec<usize>, &'a [u8]), InvalidInput> {
    let bad = |why: String| InvalidInput(why);
    if bytes.len() < 10 || &bytes[..8] != b"\x93NUMPY\x01\x00" {
        return Err(bad("not an .npy file of format version 1.0".into()));
    }
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let damaged = || bad("a damaged .npy header".into());
    let header = bytes.get(10..10 + len).and_then(|h| std::str::from_utf8(h).ok()).ok_or_else(damaged)?;
    let field = |key: &str, end: char| -> Option<&str> { header.split(key).nth(1)?.split(end).next() };
    if field("'descr': '", '\'') != Some(descr) || !header.contains("'fortran_order': False") {
        return Err(bad(format!("not a C-order array of {descr}")));
    }
    let shape: Vec<usize> = field("'shape': (", ')')
        .ok_or_else(damaged)?
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<usize>().map_err(|_| damaged()))
        .collect::<Result<_, _>>()?;
    let data = &bytes[10 + len..];
    if data.len() != 4 * shape.iter().product::<usize>() {
        return Err(bad(format!("{} bytes of data for shape {shape:?}", data.len())));
    }
    Ok((shape, data))
}
