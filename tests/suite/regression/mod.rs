//! Bugs that were fixed, each pinned by a module and a test named after
//! what they pin (not after how the bug was found): the crashes the fuzz
//! targets found (`fuzz`), and the bugs of the reader, the copy and the
//! runs found in review.

mod cells_filed_under_another_row;
mod cells_given_twice;
mod end_record_where_libreoffice_looks;
mod fuzz;
mod name_too_long_is_said_so;
mod note_of_hidden_columns_is_visible;
mod pipe_is_one_input;
mod report_never_replaces_a_workbook;
mod runs;
