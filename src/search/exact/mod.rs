//! The exact-solving layer: what every exact solver and table of the engine shares,
//! naming no game. (Being filled in: issue 35.)

pub mod build;
pub mod byte;
pub mod counts;

pub use build::Background;
pub use counts::Counts;
