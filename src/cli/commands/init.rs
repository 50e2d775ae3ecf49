//! `fnhcl init`: a new composition folder. The scaffold is the library's
//! (`fnhcl::scaffold`); this prints what was written and picks the exit code.

use crate::cli::Context;
use crate::cli::args::InitArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::parse_render_args;
use fnhcl::scaffold;

/// Runs the command.
pub fn run(args: &InitArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    crate::cli::fsutil::clean_up_on_interrupt();
    let options = scaffold::Options {
        dir: &args.dir,
        from_xrd: args.from_xrd.as_deref(),
        force: args.force,
    };
    match scaffold::init(&mut cx.map, &options, &parse_render_args) {
        Ok(created) => {
            let shown = args.dir.display();
            let count = created.len();
            let list: Vec<String> = created.iter().map(|p| p.display().to_string()).collect();
            cx.note(&format!(
                "created {count} files in {shown}: {}\nnext: fnhcl check {shown} && fnhcl render {shown}/xr.yaml {shown}/{} && fnhcl test {shown}",
                list.join(", "),
                scaffold::templates::COMPOSITION,
            ))?;
            Ok(ExitStatus::Success)
        }
        Err(problems) => {
            cx.diagnostics.extend(problems);
            Ok(ExitStatus::Error)
        }
    }
}
