//! The integration tests, as one test binary (one link of the library
//! instead of one per file). Modules by subject; run one of them with
//! `cargo test --test suite detect::`. The layout and the data the tests
//! read are described in docs/testing.md.

mod annotate;
mod answers;
mod cli;
mod detect;
mod explain;
mod faults;
mod fidelity;
mod folders;
mod generate;
mod hint;
mod props;
mod rate;
mod regression;
mod repo;
mod search;
mod util;
