//! `fnhcl operation render`: render the Operation the arguments describe and print the
//! stream.

use crate::cli::Context;
use crate::cli::args::OperationRenderArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{grpc_remote, stderr_log};
use fnhcl::render::inputs::{self, Io, OperationRequest, Stopped};
use std::io::{self, Write};

/// Runs the command.
pub fn run(args: &OperationRenderArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    if !cx.quiet {
        cx.diagnostics
            .extend(inputs::container_flags(&args.container_flags()));
    }
    let mut stdin = io::empty();
    let mut log = stderr_log(cx.quiet);
    let mut io = Io {
        stdin: &mut stdin,
        remote: &grpc_remote,
        log: &mut log,
        quiet: cx.quiet,
        show_discarded: false,
    };
    let request = OperationRequest {
        operation: args.operation.clone(),
        functions: args.functions.clone(),
        context_files: args.context_files.clone(),
        context_values: args.context_values.clone(),
        function_credentials: args.function_credentials.clone(),
        function_annotations: args.function_annotations.clone(),
        include_context: args.include_context,
        include_full_operation: args.include_full_operation,
        include_function_results: args.include_function_results,
        required_resources: args.required_resources.clone(),
        required_schemas: args.required_schemas.clone(),
        watched_resource: args.watched_resource.clone(),
        timeout: args.timeout.clone(),
    };
    let documents =
        match inputs::operation_documents(&mut cx.map, &request, &mut io, &mut cx.diagnostics) {
            Ok(documents) => documents,
            Err(Stopped::Input) => return Ok(ExitStatus::Error),
            Err(Stopped::Render { fatal }) => {
                return Ok(if fatal && args.detailed_exit_code {
                    ExitStatus::Fatal
                } else {
                    ExitStatus::Failure
                });
            }
        };
    for doc in &documents {
        write!(cx.stdout, "---\n{}", fnhcl::source::yaml_emit::to_yaml(doc))?;
    }
    Ok(ExitStatus::Success)
}
