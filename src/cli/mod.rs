//! The binary's half: parses arguments, runs a command, prints diagnostics, picks the exit code.
//! The only code that knows clap, colours, stdout/stderr and exit codes.

pub mod args;
mod commands;
mod compare;
pub mod exit;
mod fsutil;
mod inputs;
mod report;
pub mod settings;

use args::{Cli, Command};
use exit::ExitStatus;
use fnhcl::diagnostics::Diagnostic;
use fnhcl::source::SourceMap;
use report::ReportStyle;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// What a running command has: the sources it read, the diagnostics it found, its streams.
pub struct Context {
    /// Every source read so far.
    pub map: SourceMap,
    /// Diagnostics to print when the command ends.
    pub diagnostics: Vec<Diagnostic>,
    /// Data output.
    pub stdout: io::BufWriter<io::Stdout>,
    /// `-q`.
    pub quiet: bool,
    /// `-v`.
    pub verbose: bool,
}

impl Context {
    /// Records an error diagnostic and returns the error status.
    pub fn fail(&mut self, diagnostic: Diagnostic) -> ExitStatus {
        self.diagnostics.push(diagnostic);
        ExitStatus::Error
    }

    /// A progress or result line on stderr, unless `--quiet`.
    pub fn note(&mut self, message: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(io::stderr().lock(), "{message}")
    }
}

/// Runs fnhcl with the process's arguments.
pub fn main() -> ExitCode {
    // `fnhcl --version` alone needs none of the command tree clap would build first (every
    // command's flags): it prints what clap prints for it, `fnhcl X.Y.Z`.
    if let [_, flag] = std::env::args_os().collect::<Vec<_>>().as_slice()
        && (flag == "--version" || flag == "-V")
    {
        let _ = writeln!(io::stdout(), "fnhcl {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap: 0 for --help/--version, 2 for usage errors.
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match run(&cli) {
        Ok(status) => status.into(),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Success.into(),
        Err(e) => {
            let _ = writeln!(io::stderr(), "fnhcl: error: {e}");
            ExitStatus::Error.into()
        }
    }
}

fn run(cli: &Cli) -> io::Result<ExitStatus> {
    let watched = match &cli.command {
        Command::Render(args)
        | Command::Composition(args::Deferred(args::CompositionCommand::Render(args)))
            if args.watch =>
        {
            Some(commands::render::watch_paths(args))
        }
        Command::Test(args) if args.watch => Some(args.paths.clone()),
        _ => None,
    };
    let Some(paths) = watched else {
        return run_once(cli);
    };
    let mut watch = match fnhcl::source::watch::Watch::new(&paths) {
        Ok(watch) => watch,
        Err(e) => {
            writeln!(io::stderr(), "fnhcl: error: cannot watch the inputs: {e}")?;
            return Ok(ExitStatus::Error);
        }
    };
    let clear = io::stdout().is_terminal();
    for round in 1.. {
        if clear {
            // Clear the screen and go home, so each run stands alone.
            print!("\x1b[2J\x1b[H");
        }
        let status = run_once(cli)?;
        writeln!(
            io::stderr(),
            "fnhcl: run {round} done (exit {}); watching {} path(s) for changes, Ctrl-C to stop",
            status.code(),
            paths.len()
        )?;
        watch.wait();
    }
    Ok(ExitStatus::Success)
}

/// Runs the command once: its output, then its diagnostics on stderr.
fn run_once(cli: &Cli) -> io::Result<ExitStatus> {
    let env = settings::ColorEnv::from_process();
    let stderr_color = settings::use_color(cli.global.color, env, io::stderr().is_terminal());
    let style = ReportStyle {
        format: cli.global.format,
        color: stderr_color,
        width: terminal_width(),
    };
    let mut cx = Context {
        map: SourceMap::new(),
        diagnostics: Vec::new(),
        stdout: io::BufWriter::new(io::stdout()),
        quiet: cli.global.quiet,
        verbose: cli.global.verbose,
    };
    if let Err(d) = pin_clock_from_env() {
        cx.diagnostics.push(*d);
        let mut stderr = io::stderr().lock();
        report::write(&mut stderr, &mut cx.diagnostics, &cx.map, style, false)?;
        return Ok(ExitStatus::Error);
    }
    let status = match &cli.command {
        Command::Package(args) => commands::package::run(args, &mut cx),
        Command::Convert(args) => commands::convert::run(args, &mut cx),
        Command::Init(args) => commands::init::run(args, &mut cx),
        Command::Completions(args) => commands::completions::run(args, &mut cx),
        Command::Lsp => fnhcl::lsp::run().map(|()| ExitStatus::Success),
        Command::Eval(args) => commands::eval::run(args, cli.global.format, &mut cx),
        Command::Render(args)
        | Command::Composition(args::Deferred(args::CompositionCommand::Render(args))) => {
            commands::render::run(args, cli.global.format, &mut cx)
        }
        Command::Operation(args::Deferred(args::OperationCommand::Render(args))) => {
            commands::operation::run(args, &mut cx)
        }
        Command::Test(args) => {
            let color = settings::use_color(cli.global.color, env, io::stdout().is_terminal());
            commands::test::run(args, color, &mut cx)
        }
        Command::Diff(args) => {
            let diff_style = compare::Style {
                format: cli.global.format,
                color: settings::use_color(cli.global.color, env, io::stdout().is_terminal()),
                context: args.context,
            };
            commands::diff::run(args, diff_style, &mut cx)
        }
        Command::Fmt(args) => {
            let color = settings::use_color(cli.global.color, env, io::stdout().is_terminal());
            commands::fmt::run(args, color, &mut cx)
        }
        Command::Function(args::Deferred(args::FunctionCommand::Serve(args))) => {
            commands::function::serve(args, &mut cx)
        }
        Command::Function(args::Deferred(args::FunctionCommand::Run(args))) => {
            commands::function::run(args, &mut cx)
        }
        Command::Validate(args) => {
            let (status, mut findings) = commands::validate::run(args, cli.global.format, &mut cx)?;
            // `--format json` printed validate's own document (the diagnostics among it).
            if matches!(
                cli.global.format,
                args::DiagnosticFormat::Github | args::DiagnosticFormat::Sarif
            ) {
                let style = ReportStyle {
                    color: settings::use_color(cli.global.color, env, io::stdout().is_terminal()),
                    ..style
                };
                report::write(&mut cx.stdout, &mut findings, &cx.map, style, true)?;
            }
            Ok(status)
        }
        Command::Check(args) => {
            let (status, mut findings) = commands::check::run(args, &mut cx)?;
            // The findings are check's product: they go to stdout, coloured for its terminal.
            let style = ReportStyle {
                color: settings::use_color(cli.global.color, env, io::stdout().is_terminal()),
                ..style
            };
            report::write(&mut cx.stdout, &mut findings, &cx.map, style, true)?;
            Ok(status)
        }
    };
    let flushed = cx.stdout.flush();
    let status = status?;
    flushed?;
    let mut stderr = io::stderr().lock();
    report::write(&mut stderr, &mut cx.diagnostics, &cx.map, style, false)?;
    Ok(status)
}

/// `SOURCE_DATE_EPOCH` (the reproducible-builds convention: seconds since the Unix epoch)
/// pins what `timestamp()` returns, so that goldens and diffs that use it are stable. Unset
/// or empty: the real clock. Anything else is refused, as the convention asks.
fn pin_clock_from_env() -> Result<(), Box<fnhcl::diagnostics::Diagnostic>> {
    let Some(value) = std::env::var_os("SOURCE_DATE_EPOCH") else {
        return Ok(());
    };
    let text = value.to_string_lossy();
    if text.is_empty() {
        return Ok(());
    }
    match text.parse::<i64>() {
        // Go's time cannot print years past 9999 in RFC 3339; neither do we.
        Ok(secs) if (0..=253_402_300_799).contains(&secs) => {
            fnhcl::eval::functions::pin_clock(secs);
            Ok(())
        }
        _ => Err(fnhcl::diagnostics::usage(
            format!("SOURCE_DATE_EPOCH=`{text}` is not a number of seconds since 1970-01-01"),
            "set it to a whole number of seconds, such as `SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)`, or unset it",
        )),
    }
}

/// `COLUMNS` when set, else 100 columns for the human report.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&w: &usize| w >= 40)
        .unwrap_or(100)
}
