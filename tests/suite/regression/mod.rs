//! Bugs that were fixed, each pinned by a test named after what it pins:
//! the crashes the fuzz targets found, and the bugs found in review.

mod cell_outside_its_row;
mod duplicate_cells;
mod fuzz;
mod note_in_hidden_columns;
mod output_name_too_long;
mod pipe_input;
mod report_over_input;
mod review;
mod zip_comment_for_libreoffice;
