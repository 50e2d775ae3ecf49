//! The `fnhcl` binary: everything lives in the library except the command line in `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
