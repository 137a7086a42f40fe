//! Reports: the human transcript and the JSONL game log of `mtrain play`.

pub mod jsonl;
pub mod transcript;
