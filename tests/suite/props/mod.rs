//! Property tests: the annotator, the technique ladder and the exact
//! solver on generated inputs.

mod annotate;
mod logic;
mod search;
