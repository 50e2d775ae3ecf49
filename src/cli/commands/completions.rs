//! `fnhcl completions`: a shell completion script on stdout.

use crate::cli::Context;
use crate::cli::args::{CompletionsArgs, command};
use crate::cli::exit::ExitStatus;

/// Runs the command.
pub fn run(args: &CompletionsArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    let mut cmd = command();
    clap_complete::generate(args.shell, &mut cmd, "fnhcl", &mut cx.stdout);
    Ok(ExitStatus::Success)
}
