//! One module per subcommand, as cargo does: each owns its flags (`Args`,
//! flattened into [`crate::Command`]) and its `run`, which returns the
//! exit status.

pub mod bench;
pub mod check;
pub mod completions;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod man;
pub mod rate;
pub mod solve;
pub mod techniques;
