//! The copy as faithful as the input: over a corpus of Excel-written
//! workbooks, and as other programs (openpyxl, LibreOffice) read it.

mod corpus;
mod other_programs;
