//! `xlsudoku completions SHELL`: its flags and run (a shell completion
//! script made from the parser's definitions).

use crate::common::print_generated;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// `xlsudoku completions SHELL`: the completion script, made from the same
/// definitions as the parser.
pub fn run(a: Args) -> u8 {
    use clap::CommandFactory;
    print_generated(|out| {
        clap_complete::generate(a.shell, &mut crate::Cli::command(), "xlsudoku", out);
        Ok(())
    })
}
