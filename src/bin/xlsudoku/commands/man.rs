//! `xlsudoku man`: the manual page in roff, made from the parser's
//! definitions (the command takes no flags).

use std::io::Write;

use crate::common::print_generated;

/// `xlsudoku man`: the manual page in roff, made from the same definitions
/// as the parser. One page for the whole tool: the top-level sections, then
/// one section per command with its synopsis, description and options.
pub fn run() -> u8 {
    use clap::CommandFactory;
    print_generated(|out| {
        let mut cmd = crate::Cli::command().disable_help_subcommand(true);
        cmd.build();
        let man = clap_mangen::Man::new(cmd.clone());
        let mut page = Vec::new();
        man.render_title(&mut page)?;
        man.render_name_section(&mut page)?;
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        writeln!(page, ".SH \"HISTORY LETTERS\"")?;
        writeln!(page, ".PP")?;
        writeln!(
            page,
            "Each deduction writes one letter into the history string of the note; a naked single writes none."
        )?;
        writeln!(page, ".PP\n.nf")?;
        for line in xlsudoku::logic::letter_key().lines() {
            writeln!(page, "\\&{line}")?;
        }
        writeln!(page, ".fi")?;
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            writeln!(page, ".SH \"XLSUDOKU {}\"", sub.get_name().to_uppercase())?;
            let part = clap_mangen::Man::new(sub.clone());
            part.render_synopsis_section(&mut page)?;
            part.render_description_section(&mut page)?;
            part.render_options_section(&mut page)?;
        }
        man.render_version_section(&mut page)?;
        // Each rendered piece repeats the page's preamble (two lines) and
        // a command's own headings become paragraphs of its section.
        let mut in_command = false;
        let mut preamble_seen = 0;
        for line in String::from_utf8_lossy(&page).lines() {
            let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
            if preamble {
                preamble_seen += 1;
                if preamble_seen > 2 {
                    continue;
                }
            }
            if line.starts_with(".SH \"XLSUDOKU ") {
                in_command = true;
            } else if line == ".SH VERSION" {
                in_command = false;
            } else if in_command {
                match line {
                    ".SH SYNOPSIS" => continue,
                    ".SH DESCRIPTION" => {
                        writeln!(out, ".PP")?;
                        continue;
                    }
                    ".SH OPTIONS" => {
                        writeln!(out, ".SS Options")?;
                        continue;
                    }
                    _ => {}
                }
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}
