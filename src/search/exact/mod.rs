//! The exact-solving layer: what every exact solver and table of the engine shares,
//! naming no game. (Being filled in: issue 35.)

pub mod value;

pub use value::Value;
