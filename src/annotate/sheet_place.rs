//! Where an element of a worksheet part stands, for the scans that read a
//! sheet's columns, rows and cells: only `<cols><col>`, `<sheetData><row>`
//! and `<row><c>` are those. The same names elsewhere (a form control's
//! `<xdr:row>` and `<xdr:col>` inside `<controls>` or
//! `<mc:AlternateContent>`, anything in an `<extLst>`) are not.

/// What a start tag is, by its place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Item {
    Col,
    Row,
    Cell,
    Other,
}

/// The child of `<worksheet>` the scan is in.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
enum Section {
    Cols,
    SheetData,
    #[default]
    Other,
}

/// The elements open around the scan.
#[derive(Debug, Default)]
pub(crate) struct Place {
    depth: usize,
    section: Section,
}

impl Place {
    /// A start (`empty`: or empty) tag with the local name `name`: what it is.
    pub(crate) fn start(&mut self, name: &str, empty: bool) -> Item {
        let d = self.depth;
        if !empty {
            self.depth += 1;
        }
        if d == 1 {
            self.section = match name {
                "cols" => Section::Cols,
                "sheetData" => Section::SheetData,
                _ => Section::Other,
            };
        }
        match (d, self.section, name) {
            (2, Section::Cols, "col") => Item::Col,
            (2, Section::SheetData, "row") => Item::Row,
            (3, Section::SheetData, "c") => Item::Cell,
            _ => Item::Other,
        }
    }

    /// An end tag with the local name `name`: true when it closes the
    /// sheet data.
    pub(crate) fn end(&mut self, name: &str) -> bool {
        self.depth = self.depth.saturating_sub(1);
        let closes_data =
            self.depth == 1 && self.section == Section::SheetData && name == "sheetData";
        if self.depth == 1 {
            self.section = Section::Other;
        }
        closes_data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_elements_at_their_place_count() {
        let mut p = Place::default();
        assert_eq!(p.start("worksheet", false), Item::Other);
        assert_eq!(p.start("cols", false), Item::Other);
        assert_eq!(p.start("col", true), Item::Col);
        assert!(!p.end("cols"));
        assert_eq!(p.start("sheetData", false), Item::Other);
        assert_eq!(p.start("row", false), Item::Row);
        assert_eq!(p.start("c", false), Item::Cell);
        assert_eq!(p.start("extLst", false), Item::Other);
        assert_eq!(p.start("c", true), Item::Other);
        assert!(!p.end("extLst"));
        assert!(!p.end("c"));
        assert!(!p.end("row"));
        assert!(p.end("sheetData"));
        // A form control's anchor after the data.
        for name in [
            "AlternateContent",
            "Choice",
            "controls",
            "control",
            "anchor",
            "from",
        ] {
            assert_eq!(p.start(name, false), Item::Other);
        }
        assert_eq!(p.start("col", false), Item::Other);
        p.end("col");
        assert_eq!(p.start("row", false), Item::Other);
        assert_eq!(p.start("c", true), Item::Other);
    }
}
