//! `fnhcl render`'s flags as the library's render request (also for `diff --rev -- …` and a
//! test case's `args`), and the render's outside parts: the gRPC client and the log.

use crate::cli::args::RenderArgs;
use fnhcl::diagnostics::Diagnostic;
use fnhcl::render::Remote;
use fnhcl::render::inputs::Request;
use std::io::Write;

pub use fnhcl::diagnostics::usage;

impl From<&RenderArgs> for Request {
    fn from(args: &RenderArgs) -> Request {
        Request {
            xr: args.xr.clone(),
            source: args.source.clone(),
            functions: args.functions.clone(),
            observed_resources: args.observed_resources.clone(),
            required_resources: args.required_resources.clone(),
            context_files: args.context_files.clone(),
            context_values: args.context_values.clone(),
            context_data: Vec::new(),
            include_function_results: args.include_function_results,
            include_context: args.include_context,
            include_full_xr: args.include_full_xr,
            function_annotations: args.function_annotations.clone(),
            function_credentials: args.function_credentials.clone(),
            xrd: args.xrd.clone(),
            required_schemas: args.required_schemas.clone(),
            timeout: args.timeout.clone(),
            hcl: args.hcl.clone(),
            step: args.step.clone(),
            crossplane_version: args.crossplane_version.clone(),
            validate: args.validate.clone(),
            coverage: false,
        }
    }
}

/// `fnhcl render` arguments given as a list (`diff --rev -- …`, a test case's), parsed as the
/// command parses them.
pub fn parse_render_args(list: &[String]) -> Result<Request, Box<Diagnostic>> {
    #[derive(clap::Parser)]
    #[command(name = "render", no_binary_name = true)]
    struct Render {
        #[command(flatten)]
        args: RenderArgs,
    }
    <Render as clap::Parser>::try_parse_from(list)
        .map(|r| Request::from(&r.args))
        .map_err(|e| {
            // clap's message up to its usage section, on one line.
            let text = e.to_string();
            let message = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(|l| l.trim().trim_start_matches("error: "))
                .collect::<Vec<_>>()
                .join(" ");
            usage(
                format!("the render arguments after `--`: {message}"),
                "give them as to `fnhcl render XR SOURCE [options]`",
            )
        })
}

/// The client for steps that run elsewhere: gRPC, as crossplane render calls them.
pub fn grpc_remote() -> Box<dyn Remote> {
    Box::new(fnhcl::grpc::remote::GrpcRemote::new())
}

/// Where function-hcl's log (its debug dumps) goes: stderr as it writes it, before any
/// diagnostics; nowhere with `--quiet`.
pub fn stderr_log(quiet: bool) -> impl FnMut(String) {
    move |text: String| {
        if !quiet {
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
    }
}
