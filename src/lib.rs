pub mod rng;
pub mod tile;
pub mod tile_set;
