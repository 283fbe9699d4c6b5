//! The real binary on the fixtures, and the conventions of the command
//! line (completions, man page, `--version`).

mod conflicts;
mod conventions;
mod runs;
