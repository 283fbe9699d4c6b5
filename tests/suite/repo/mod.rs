//! The repository itself: the data the tests read is in it, and no code
//! names a path outside it; the library's top-level modules import one way.

mod module_circles;
mod outside_paths;
mod test_data;
