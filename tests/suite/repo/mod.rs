//! The repository itself: the data the tests read is in it, and no code
//! names a path outside it.

mod outside_paths;
mod test_data;
