//! SE's uniqueness rules: unique loops (rectangles and longer loops,
//! types 1 to 4) and the bivalue universal grave (types 1 to 4).

mod bug;
mod loops;

pub use bug::bug;
pub use loops::{unique_loop, unique_loop_in};
