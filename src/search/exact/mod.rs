//! The exact-solving layer: what every exact solver and table of the engine shares,
//! naming no game. (Being filled in: issue 35.)

pub mod build;
pub mod byte;
pub mod counts;
pub mod value;

pub use build::Background;
pub use counts::Counts;
pub use value::Value;
