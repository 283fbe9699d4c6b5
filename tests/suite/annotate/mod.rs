//! The annotated copy: what it writes, what it keeps, where the note goes.

mod data_loss;
mod malformed;
mod notes;
mod perf;
mod roundtrip;
