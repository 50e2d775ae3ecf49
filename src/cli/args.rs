//! The command line, as clap derive structs. Describes flags only; `settings` resolves them.
//!
//! Self-contained (clap and std only) so the generated-files test can include it with `#[path]`.

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Render, check, format and package function-hcl compositions, without Docker.
///
/// fnhcl runs the function-hcl language natively: `crossplane render` output in milliseconds,
/// diagnostics that point at the exact file, line and column, and the canonical formatter.
#[derive(Debug, Parser)]
#[command(
    name = "fnhcl",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = EXIT_CODES
)]
pub struct Cli {
    /// Options every command takes.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The exit codes, shown at the end of `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  findings, a failed render, or unformatted files
  2  usage, input, I/O or internal error
  3  differences found (diff)
  130  interrupted (fmt and package remove their temporary file first)

Environment:
  SOURCE_DATE_EPOCH  pins timestamp() to this many seconds since 1970-01-01 (UTC), for
                     reproducible renders, tests and diffs";

/// Options shared by every command.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// When to use colour: `auto` follows the terminal and NO_COLOR, CLICOLOR_FORCE, CLICOLOR
    /// and TERM=dumb; `always` and `never` override them.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN")]
    pub color: ColorChoice,

    /// How to print diagnostics: `human` (source snippets), `json`, `github` (workflow
    /// commands for GitHub Actions annotations), `sarif` (SARIF 2.1.0) or `crossplane` (one
    /// `crossplane: error: …` line per error, as scripts written for the Crossplane CLI
    /// expect). Commands whose output is not diagnostics: `diff` prints its differences as
    /// `human`, `json` or `markdown` and refuses `github` and `sarif`; `eval` prints its value
    /// as HCL (`human`) or `json`; `validate --format json` prints one document, its report
    /// with the diagnostics. Other commands print `markdown` as `human`.
    #[arg(long, value_enum, default_value_t = DiagnosticFormat::Human, global = true, value_name = "FORMAT")]
    pub format: DiagnosticFormat,

    /// Print only errors and the command's output.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more about what is being done.
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when the stream is a terminal and the environment allows it.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiagnosticFormat {
    /// Graphical report with source snippets (for `eval`: the value as HCL).
    #[value(alias = "hcl")]
    Human,
    /// One JSON document: `{"diagnostics": [...], "summary": {...}}`.
    Json,
    /// GitHub Actions workflow commands (`::error file=...::message`).
    Github,
    /// A SARIF 2.1.0 log.
    Sarif,
    /// Markdown, for `diff` (one block per changed document, ready for a pull-request
    /// comment); other commands print their diagnostics as `human`.
    Markdown,
    /// Errors only, one line each, as the Crossplane CLI prints them (`crossplane: error:
    /// …`): a failed render's line is crossplane's word for word, for scripts that match it.
    Crossplane,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a composition folder that checks, renders and tests green at once.
    ///
    /// Writes `main.hcl` (a commented example: a local, a resource with a condition, a
    /// composite status), `.fnhcl.toml`, `composition-pipeline.yaml` (a Composition whose
    /// function-hcl step holds the bundle), `xr.yaml`, `tests/first/` (a golden case, its
    /// `expected.yaml` written by its first render), `tests/composition-test.yaml` (a
    /// CompositionTest) and `.crds/README.md`. With `--from-xrd` the XR type, a resource stub,
    /// the status fields and an example XR come from the XRD. Existing files are listed and
    /// left alone (exit 2) unless `--force`; nothing is written through a symbolic link.
    Init(Deferred<InitArgs>),

    /// Bundle a composition directory as txtar, or write it into (or extract it from) a
    /// Composition.
    ///
    /// With only DIR, prints the txtar bundle that function-hcl's `input.hcl` takes: the
    /// directory's `.hcl` files sorted by name, then the `libraryFiles` listed in its
    /// `composition.yaml` (the same output as `fn-hcl-tools package`).
    Package(Deferred<PackageArgs>),

    /// Convert a Composition's patch-and-transform steps to function-hcl, and prove it.
    ///
    /// Each pipeline step whose input is a `pt.fn.crossplane.io` `Resources` becomes a
    /// function-hcl step: a `resource` block per P&T resource, transforms as HCL functions,
    /// patches to the XR as `composite status`, connection details as `composite connection`,
    /// readiness checks as `ready`, with P&T's semantics (a patch whose source is absent
    /// leaves the base as it is). What cannot be expressed exactly is a warning (M801) and a
    /// `# TODO(fnhcl convert)` comment in the program. With `-o DIR` writes the new
    /// Composition and one folder per step into DIR, else prints the new Composition. With
    /// `--verify XR` renders the original and the converted composition with the same inputs
    /// and compares them: exit status 0 when they are equal, 1 when they differ (the
    /// differences are printed) or a render fails.
    Convert(Deferred<ConvertArgs>),

    /// Find every mistake function-hcl would reject, without running it, and lint the rest.
    ///
    /// Syntax, the block schema, user functions, function-hcl's analyzer (references to
    /// locals, `req`, `self`, `each`, resources and collections; shadowing; cycles;
    /// requirements; `invoke`), the errors the function would fail the render with whatever
    /// the inputs, and lint rules (unused names, typos hidden by `try`, sure type errors, …).
    /// Each finding names its rule; `--list-rules` lists them and `--explain` explains one.
    /// Lint rules are configured in a `.fnhcl.toml` found above each path and suppressed
    /// with `# fnhcl-ignore: RULE` comments. Diagnostics go to standard output in the chosen
    /// `--format`; the exit status is 1 when any finding is at or above `--fail-level`, 2 when
    /// an input or the configuration cannot be read, or a folder holds no `.hcl` files.
    Check(Deferred<CheckArgs>),

    /// Evaluate an expression the way function-hcl does, with `req` built from your files.
    ///
    /// Prints the value as HCL (`--format hcl`, the default) or as JSON (`--format json`:
    /// exact decimal numbers, sets as arrays). Exit status 1 when the expression has an error
    /// or its value is not fully known (the unknown references are listed).
    Eval(Deferred<EvalArgs>),

    /// Format HCL files canonically (Go's `hclwrite.Format`, as `fn-hcl-tools fmt`).
    ///
    /// Rewrites files in place, atomically and only when they change; `-` filters standard
    /// input to standard output. A Composition's function-hcl steps have their inline files
    /// formatted. Files with syntax errors are reported and left untouched (exit 1).
    Fmt(Deferred<FmtArgs>),

    /// Compare two render streams document by document, or what a change does to a render.
    ///
    /// Documents are matched by identity whatever their order: the XR; composed resources by
    /// `apiVersion`, `kind` and `crossplane.io/composition-resource-name` (else their name);
    /// `Result`s by position; the `Context`. Each added, removed or changed document gets a
    /// header and a unified diff of its YAML, then a summary line. With `--rev REV -- <render
    /// arguments>` the render runs twice, with the composition as it is in git revision REV
    /// and as it is now. Exit status 0 without differences, 3 with, 1 when an input cannot be
    /// read or rendered, 2 for a usage error.
    Diff(Deferred<DiffArgs>),

    /// Run composition tests: render each case natively and check the output.
    ///
    /// Three formats, side by side below the PATHs. A case folder holds `xr.yaml` and
    /// `expected.yaml` (the whole output, written by `--update`), `assert.yaml` (subset
    /// documents, absent documents, xprin-style assertions) and/or `expected-error.txt` (the
    /// render must fail: message fragments, `at FILE:LINE[:COL]`), with optional
    /// `observed.yaml`, `extra-resources.yaml`, `context.yaml`, `args`, `ignore-paths` and
    /// `source`; its composition is named by `source`, else its `hcl/` folder, else the
    /// nearest folder at or above it holding `.hcl` files. Each test of a Crossplane
    /// (`test.crossplane.io/v1alpha1`) or Upbound (`meta.dev.upbound.io/v1alpha1`)
    /// CompositionTest YAML file is a case (`FILE::NAME`): inputs from the project root,
    /// chainsaw assertions, fnhcl's reconcile `steps` and `expectError`. Each `run` block of a
    /// `*.fnhcltest.hcl` file is a case (`FILE::RUN`): `assert { condition = … }` over the
    /// output, `expect_failures`, `continue` and `until = "converged"`. Cases run in parallel;
    /// `--lcov`/`--coverage-min` record what they exercised. A folder with only `xr.yaml`
    /// inside a `tests` folder is a new case: listed, not run, until `--update` records it.
    /// Exit status 1 when a case fails, none is found, a new case is not recorded, or coverage
    /// is below `--coverage-min`. Every format: docs/test.md.
    Test(Deferred<TestArgs>),

    /// Validate resources against CRD and XRD schemas, offline, as `crossplane beta validate`.
    ///
    /// `fnhcl validate SCHEMAS… RESOURCES`: SCHEMAS are CRD or XRD files or folders (read
    /// recursively), a `.crd-sources.yaml`, or a folder holding one; without SCHEMAS, the
    /// nearest `.crd-sources.yaml` or `.crds/` folder at or above the current folder is used,
    /// as function-hcl's language server finds them. RESOURCES is a YAML file, a folder or `-`
    /// (the output of `fnhcl render`, or any manifests); each argument may be a comma-separated
    /// list. Each resource is defaulted, then checked against the OpenAPI schema, for fields
    /// the schema does not have (what the API server would prune), and against its CEL
    /// `x-kubernetes-validations` rules, with the API server's messages. An XRD gives its XR
    /// (and claim) schema with the fields Crossplane adds. The report is crossplane's (`[✓]`,
    /// `[x]`, `[!]` lines and a total) or, with `--output json|yaml` or `--format json`, one
    /// document: the report and the diagnostics; with `--format github|sarif` it is
    /// diagnostics pointing at each field in the resources' files.
    /// Exit status 1 when a resource is invalid (or, with `--error-on-missing-schemas`, has no
    /// schema), 2 when an input cannot be read.
    Validate(Deferred<ValidateArgs>),

    /// Render a composite resource like `crossplane render`, without Docker.
    ///
    /// Prints the XR, the composed resources, and with `-r`/`-c` the function results and
    /// the context, as a YAML stream (the classic `crossplane render` output). function-hcl
    /// steps run natively; other functions are called over gRPC when their Function is
    /// annotated `render.crossplane.io/runtime: Development` (or `-a` says so), and a step
    /// that would need Docker is refused with how to run it. Exit status 1 when a step
    /// returns a fatal result or fails, 2 when an input cannot be read.
    Render(Deferred<RenderArgs>),

    /// A language server over standard input and output, for editors.
    ///
    /// Speaks the Language Server Protocol (JSON-RPC on stdio). A composition is the `.hcl`
    /// files of a folder plus its `libraryFiles`, open documents taking the place of the files
    /// on disk; each change re-checks it with every `check` rule (`.fnhcl.toml`, schemas and
    /// suppressions included) and publishes the diagnostics of each file. Also: formatting
    /// (`fnhcl fmt`'s), hover, completion (CRD-aware in bodies), signature help, definition,
    /// references, highlights, rename, symbols, folding, semantic tokens and quick fixes. With
    /// an `[example]` in `.fnhcl.toml`, live values: each resource block's outcome as an inlay
    /// hint and code lens, evaluated values on hover. Editor setups: docs/lsp.md.
    Lsp,

    /// Composition commands, as the Crossplane CLI names them (v2.3 and later).
    #[command(subcommand)]
    Composition(Deferred<CompositionCommand>),

    /// Operation commands, as the Crossplane CLI names them (v2.5 and later).
    #[command(subcommand)]
    Operation(Deferred<OperationCommand>),

    /// Run function-hcl on one RunFunctionRequest, as Crossplane would call it.
    #[command(subcommand)]
    Function(Deferred<FunctionCommand>),

    /// Print a shell completion script.
    Completions(Deferred<CompletionsArgs>),
}

/// `fnhcl fmt`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl fmt                      # every .hcl file below the current directory
  fnhcl fmt --check .            # list unformatted files, exit 1 if there are any
  fnhcl fmt -c -r=false dir      # fn-hcl-tools' short flags: only dir's own files
  fnhcl fmt --diff main.hcl      # show what would change
  fnhcl fmt composition.yaml     # the files inside its function-hcl steps
  cat main.hcl | fnhcl fmt -")]
pub struct FmtArgs {
    /// Files, directories (their `.hcl` files), Composition YAML files, or `-` for standard input.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<String>,

    /// Walk directories recursively, the default (`-r=false` or `--recursive=false`: only
    /// their own `.hcl` files). Hidden folders are walked too; `.git`, `.hg`, `.svn` and `.jj`
    /// are skipped.
    #[arg(short = 'r', long, default_value_t = true, num_args = 0..=1, require_equals = true, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub recursive: bool,

    /// Rewrite `key: value` in object literals to `key = value` first, as function-hcl does
    /// (`--normalize-literals=false`: plain `hclwrite.Format`).
    #[arg(long, default_value_t = true, num_args = 0..=1, require_equals = true, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub normalize_literals: bool,

    /// List the files that are not formatted and exit 1 if there are any; write nothing.
    #[arg(short = 'c', long)]
    pub check: bool,

    /// Print a unified diff of what would change; write nothing.
    #[arg(long)]
    pub diff: bool,
}

/// `fnhcl diff`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl diff before.yaml after.yaml
  fnhcl render xr.yaml hcl/ | fnhcl diff expected.yaml -
  fnhcl diff old.yaml new.yaml --ignore-paths 'metadata.annotations[example.org/build-id]'
  fnhcl diff --format markdown old.yaml new.yaml > comment.md
  fnhcl diff --rev origin/main -- xr.yaml hcl/ -o observed.yaml   # what does my change do?")]
pub struct DiffArgs {
    /// The old render stream: a YAML file, or `-` for standard input.
    #[arg(
        value_name = "OLD",
        required_unless_present = "rev",
        conflicts_with = "rev"
    )]
    pub old: Option<String>,

    /// The new render stream: a YAML file, or `-` for standard input.
    #[arg(
        value_name = "NEW",
        required_unless_present = "rev",
        conflicts_with = "rev"
    )]
    pub new: Option<String>,

    /// Lines of context around each change.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub context: usize,

    /// A field path to leave out of the comparison (repeatable): `metadata.labels`,
    /// `metadata.annotations[example.org/key]` (a key in brackets, dots and slashes
    /// included), `spec.items[0]`; a name reached on a list applies to each element.
    #[arg(long = "ignore-paths", value_name = "PATH")]
    pub ignore_paths: Vec<String>,

    /// Render the arguments after `--` twice, with the composition files as they are in this
    /// git revision (read through git; the work tree is not touched) and as they are now,
    /// and compare the two.
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,

    /// With `--rev`: the arguments of `fnhcl render`, after `--`.
    #[arg(last = true, value_name = "RENDER ARGS", requires = "rev")]
    pub render_args: Vec<String>,
}

/// `fnhcl test`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:
  fnhcl test                        # every case below the current directory
  fnhcl test examples --filter bucket
  fnhcl test --update               # write expected.yaml of the cases whose output changed
  fnhcl test --junit results.xml    # for CI
  mkdir -p tests/new && cp xr.yaml tests/new/ && fnhcl test --update   # a new case
  kubectl logs deploy/function-hcl | fnhcl test import - --out tests/from-cluster",
    args_conflicts_with_subcommands = true
)]
pub struct TestArgs {
    /// `import`: a test case from a function-hcl debug dump.
    #[command(subcommand)]
    pub command: Option<TestCommand>,

    /// Directories to look for test cases in (recursively; hidden folders are skipped).
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<std::path::PathBuf>,

    /// Write `expected.yaml` of every case whose output differs (and of new cases: an
    /// `xr.yaml` in a folder inside a `tests` folder); cases with `expected-error.txt` are
    /// left alone.
    #[arg(long)]
    pub update: bool,

    /// Run only the cases whose name contains this text (a case folder's path, or
    /// `FILE::NAME` of a test in a file).
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,

    /// Also write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<std::path::PathBuf>,

    /// Lines of context around each difference.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub context: usize,

    /// Validate each case's XR and composed resources against these CRD/XRD files or folders
    /// (repeatable or comma-separated), as `render --validate`: a problem fails the case.
    #[arg(long, value_name = "SCHEMAS", value_delimiter = ',')]
    pub validate: Vec<String>,

    /// Run again on every change below the PATHs (the screen is cleared first on a terminal);
    /// Ctrl-C stops.
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// Let cases name files outside the PATHs (an absolute or `..` path in `args` or
    /// `source`, a link leading out). Without it such a case fails, so that a case from an
    /// untrusted change cannot print other files into a CI log.
    #[arg(long)]
    pub allow_outside_paths: bool,

    /// Write the coverage of the compositions the cases rendered to this file, as LCOV
    /// (genhtml, Codecov, editors; `fnhcl lsp` shows it), and print a summary per
    /// composition.
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<std::path::PathBuf>,

    /// Fail (exit 1) when the coverage of the whole run — blocks rendered, branches taken
    /// and user functions called, together — is below this percentage; prints the summary.
    #[arg(long, value_name = "PERCENT", value_parser = percent)]
    pub coverage_min: Option<f64>,
}

/// A percentage from 0 to 100.
fn percent(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// `fnhcl test` subcommands.
#[derive(Debug, Subcommand)]
pub enum TestCommand {
    /// Make a test case of a function-hcl debug dump or a pipeline-inspector log.
    ///
    /// function-hcl logs a dump of its request when its input has `debug: true` (or
    /// `debugNew: true` and the XR is new) or the XR is annotated
    /// `hcl.fn.crossplane.io/debug: "true"`. Its `xr.yaml`, `observed.yaml`,
    /// `extra-resources.yaml` and `context-KEY.json` files become the case's `xr.yaml`,
    /// `observed.yaml`, `extra-resources.yaml` and `context.yaml`; then `fnhcl test --update
    /// DIR` records what the composition renders for it.
    ///
    /// The input may also be the JSON lines of Crossplane's pipeline inspector sidecar: one
    /// recorded request of a function-hcl step (the last one, or the one `--step`, `--xr` and
    /// `--index` choose) becomes the same files.
    Import(Deferred<TestImportArgs>),
}

/// `fnhcl test import`.
#[derive(Debug, Args)]
pub struct TestImportArgs {
    /// The dump: a file holding the function's log (only the first request dump in it is
    /// read) or the pipeline inspector's JSON lines, or `-` to paste it on standard input.
    #[arg(value_name = "DUMP")]
    pub dump: String,

    /// The folder to write the case into, below the composition it tests (created; existing
    /// case files are never overwritten).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Pipeline inspector log: only the requests of this pipeline step (its name, or its
    /// Function's name when the log has no step names).
    #[arg(long, value_name = "NAME")]
    pub step: Option<String>,

    /// Pipeline inspector log: only the requests for this XR (`name` or `namespace/name`).
    #[arg(long, value_name = "NAME")]
    pub xr: Option<String>,

    /// Pipeline inspector log: the Nth request (from 1) of those left by `--step` and `--xr`,
    /// instead of the last function-hcl one.
    #[arg(long, value_name = "N")]
    pub index: Option<usize>,
}

/// `fnhcl validate`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl validate crds/ resources.yaml
  fnhcl render xr.yaml composition.yaml -x | fnhcl validate .crds/ xrd.yaml -
  fnhcl validate manifests/                 # schemas from the nearest .crd-sources.yaml or .crds/
  fnhcl validate --format github crds/ out.yaml")]
pub struct ValidateArgs {
    /// `SCHEMAS… RESOURCES`: schema sources, then the resources (a file, a folder or `-`).
    #[arg(value_name = "PATH", required = true, num_args = 1..)]
    pub paths: Vec<String>,

    /// Print nothing for resources that are valid.
    #[arg(long)]
    pub skip_success_results: bool,

    /// Fail (exit 1) when a resource's kind has no schema.
    #[arg(long)]
    pub error_on_missing_schemas: bool,

    /// The report: crossplane's lines, or one JSON or YAML document: the diagnostics document
    /// of `--format json` (which prints the same), with the totals in `summary` and each
    /// resource as `resources`. (`-o` still works, hidden: elsewhere `-o` names observed
    /// resources.)
    #[arg(
        short_alias = 'o',
        long,
        value_enum,
        value_name = "FORMAT",
        default_value = "text"
    )]
    pub output: ValidateOutput,
}

/// `fnhcl validate -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateOutput {
    /// `[✓]`/`[x]`/`[!]` lines and a total, as `crossplane beta validate` prints them.
    Text,
    /// `{"diagnostics": […], "summary": …, "resources": […]}`, as `--format json`.
    Json,
    /// The same document as YAML.
    Yaml,
}

/// `fnhcl operation …`.
#[derive(Debug, Subcommand)]
pub enum OperationCommand {
    /// Render an Operation like `crossplane operation render`, without Docker.
    ///
    /// Runs the pipeline of an Operation (or of the operation template of a CronOperation or
    /// WatchOperation) once, as Crossplane's Operation reconciler does, and prints the
    /// Operation with its status, then every resource the pipeline applied, and with
    /// `-r`/`-c` the reconciler's events as `Result` documents and the final context.
    /// function-hcl steps run natively (`req.composite` is an empty object: an Operation has
    /// no observed state); other functions are called over gRPC when their Function is
    /// annotated `render.crossplane.io/runtime: Development` (or `-a` says so). Exit status 1
    /// when a step returns a fatal result or fails, 2 when an input cannot be read.
    Render(Deferred<OperationRenderArgs>),
}

/// `fnhcl operation render`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "Examples:
  fnhcl operation render operation.yaml functions.yaml
  fnhcl operation render cronoperation.yaml functions.yaml -r
  fnhcl operation render watchoperation.yaml functions.yaml --watched-resource=configmap.yaml")]
pub struct OperationRenderArgs {
    /// The Operation, CronOperation or WatchOperation, a YAML file.
    #[arg(value_name = "OPERATION")]
    pub operation: PathBuf,

    /// The Functions (a YAML file or directory). A function-hcl step runs natively; a
    /// Function annotated `render.crossplane.io/runtime: Development` is called over gRPC at
    /// its `render.crossplane.io/runtime-development-target` (default `localhost:9443`).
    #[arg(value_name = "FUNCTIONS")]
    pub functions: Option<PathBuf>,

    /// Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated.
    #[arg(long, value_name = "KEY=PATH")]
    pub context_files: Vec<String>,

    /// Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over
    /// `--context-files`.
    #[arg(long, value_name = "KEY=VALUE")]
    pub context_values: Vec<String>,

    /// Secrets whose `data` become the steps' `credentials` (a YAML file or directory).
    #[arg(long, value_name = "PATH")]
    pub function_credentials: Option<PathBuf>,

    /// Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions
    /// file): `-a render.crossplane.io/runtime=Development` calls every step that is not
    /// function-hcl over gRPC.
    #[arg(short = 'a', long, value_name = "KEY=VALUE")]
    pub function_annotations: Vec<String>,

    /// Print the final context as a `Context` document.
    #[arg(short = 'c', long)]
    pub include_context: bool,

    /// Print the input Operation's `spec` in the output Operation.
    #[arg(short = 'o', long)]
    pub include_full_operation: bool,

    /// Print a `Result` document for each of the reconciler's events (the steps' normal and
    /// warning results).
    #[arg(short = 'r', long)]
    pub include_function_results: bool,

    /// Resources the pipeline's requirements may fetch (a YAML file or directory).
    /// Repeatable.
    #[arg(short = 'e', long, value_name = "PATH")]
    pub required_resources: Vec<PathBuf>,

    /// OpenAPI v3 documents served to steps that ask for schemas (a directory of JSON files,
    /// as `kubectl get --raw /openapi/v3/<group-version>` prints them), as `render -s` reads
    /// them.
    #[arg(long, value_name = "DIR")]
    pub required_schemas: Option<PathBuf>,

    /// The watched resource of a WatchOperation (a YAML file holding exactly one resource):
    /// every step gets it as the bootstrap requirement `ops.crossplane.io/watched-resource`,
    /// and it is added to the required resources.
    #[arg(short = 'w', long, value_name = "PATH")]
    pub watched_resource: Option<PathBuf>,

    /// Stop a function-hcl step still evaluating this long after the inputs are read, with
    /// crossplane's `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`).
    #[arg(long, value_name = "DURATION", default_value = "1m")]
    pub timeout: String,

    /// Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal
    /// render` does).
    #[arg(long)]
    pub detailed_exit_code: bool,

    /// `crossplane operation render`'s Crossplane image version: accepted and ignored (fnhcl
    /// renders as engine v2.3.4 does; a warning says so).
    #[arg(long, value_name = "VERSION", help_heading = CONTAINER_FLAGS)]
    pub crossplane_version: Option<String>,

    /// `crossplane operation render`'s Crossplane image: accepted and ignored.
    #[arg(long, value_name = "IMAGE", help_heading = CONTAINER_FLAGS)]
    pub crossplane_image: Option<String>,

    /// `crossplane operation render`'s local Crossplane binary: accepted and ignored.
    #[arg(long, value_name = "PATH", help_heading = CONTAINER_FLAGS)]
    pub crossplane_binary: Option<PathBuf>,

    /// `crossplane operation render`'s Docker network: accepted and ignored.
    #[arg(long, value_name = "NETWORK", help_heading = CONTAINER_FLAGS)]
    pub crossplane_docker_network: Option<String>,

    /// `crossplane operation render`'s package cache: accepted and ignored.
    #[arg(long, value_name = "DIR", help_heading = CONTAINER_FLAGS)]
    pub cache_dir: Option<PathBuf>,

    /// `crossplane operation render`'s concurrency for building embedded functions: accepted
    /// and ignored.
    #[arg(long, value_name = "N", help_heading = CONTAINER_FLAGS)]
    pub max_concurrency: Option<u64>,

    /// `crossplane operation render`'s project file (its functions are built into
    /// containers): accepted and ignored; give FUNCTIONS.
    #[arg(short = 'f', long, value_name = "PATH", help_heading = CONTAINER_FLAGS)]
    pub project_file: Option<PathBuf>,
}

impl OperationRenderArgs {
    /// The container-only flags given, by name.
    pub fn container_flags(&self) -> Vec<&'static str> {
        [
            ("--crossplane-version", self.crossplane_version.is_some()),
            ("--crossplane-image", self.crossplane_image.is_some()),
            ("--crossplane-binary", self.crossplane_binary.is_some()),
            (
                "--crossplane-docker-network",
                self.crossplane_docker_network.is_some(),
            ),
            ("--cache-dir", self.cache_dir.is_some()),
            ("--max-concurrency", self.max_concurrency.is_some()),
            ("--project-file", self.project_file.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// `fnhcl composition …`.
#[derive(Debug, Subcommand)]
pub enum CompositionCommand {
    /// `fnhcl render` under the name `crossplane composition render` gives it.
    Render(Deferred<RenderArgs>),
}

/// `fnhcl render`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "Examples:
  fnhcl render xr.yaml composition.yaml functions.yaml -r -c
  fnhcl render xr.yaml ./hcl -o observed/ -e environment-configs.yaml
  fnhcl render xr.yaml composition.yaml --hcl ./hcl   # iterate on files, not the inline bundle")]
pub struct RenderArgs {
    /// The composite resource (XR), a YAML file.
    #[arg(value_name = "XR")]
    pub xr: PathBuf,

    /// A Composition (mode Pipeline), a composition directory, a `.hcl` file, or a txtar bundle.
    #[arg(value_name = "SOURCE")]
    pub source: String,

    /// The Functions (a YAML file or directory). A function-hcl step runs natively; a
    /// Function annotated `render.crossplane.io/runtime: Development` is called over gRPC at
    /// its `render.crossplane.io/runtime-development-target` (default `localhost:9443`).
    #[arg(value_name = "FUNCTIONS")]
    pub functions: Option<PathBuf>,

    /// Observed composed resources (a YAML file or directory), each with the annotation
    /// `crossplane.io/composition-resource-name`.
    #[arg(short = 'o', long, value_name = "PATH")]
    pub observed_resources: Option<PathBuf>,

    /// Resources the requirements loop may return (a YAML file or directory). Repeatable.
    #[arg(
        short = 'e',
        long,
        visible_alias = "extra-resources",
        value_name = "PATH"
    )]
    pub required_resources: Vec<PathBuf>,

    /// Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated.
    #[arg(long, value_name = "KEY=PATH")]
    pub context_files: Vec<String>,

    /// Context values as `KEY=VALUE` (JSON or YAML), `;`-separated or repeated; they win over
    /// `--context-files`.
    #[arg(long, value_name = "KEY=VALUE")]
    pub context_values: Vec<String>,

    /// Print a `Result` document for every function result.
    #[arg(short = 'r', long)]
    pub include_function_results: bool,

    /// Print the final context as a `Context` document.
    #[arg(short = 'c', long)]
    pub include_context: bool,

    /// Copy the input XR's `spec` and `metadata` into the output XR.
    #[arg(short = 'x', long)]
    pub include_full_xr: bool,

    /// Set an annotation on every Function (`KEY=VALUE`, repeatable; wins over the Functions
    /// file), as crossplane render does: `-a render.crossplane.io/runtime=Development` calls
    /// every step that is not function-hcl over gRPC at
    /// `render.crossplane.io/runtime-development-target` (default `localhost:9443`).
    #[arg(short = 'a', long, value_name = "KEY=VALUE")]
    pub function_annotations: Vec<String>,

    /// Secrets whose `data` become the steps' `credentials` (a YAML file or directory).
    #[arg(long, value_name = "PATH")]
    pub function_credentials: Option<PathBuf>,

    /// An XRD whose OpenAPI schema defaults are applied to the XR first.
    #[arg(long, value_name = "FILE")]
    pub xrd: Option<PathBuf>,

    /// A folder of OpenAPI v3 documents in JSON (`kubectl get --raw
    /// /openapi/v3/<group-version>`, one per `.json` file, sub-folders read too): the schemas
    /// served to functions that ask for a kind's schema (a step's `requiredSchemas`, a
    /// response's `requirements.schemas`). A kind none of them has is answered with an empty
    /// schema, as crossplane answers it.
    #[arg(short = 's', long, value_name = "DIR")]
    pub required_schemas: Option<PathBuf>,

    /// Stop a function-hcl step still evaluating this long after the inputs are read, with
    /// crossplane's `context deadline exceeded` error (`1m`, `30s`, `500ms`, `1m30s`).
    #[arg(long, value_name = "DURATION", default_value = "1m")]
    pub timeout: String,

    /// Use the `.hcl` files of this directory for the function-hcl step instead of the
    /// Composition's inline bundle.
    #[arg(long, value_name = "DIR")]
    pub hcl: Option<PathBuf>,

    /// The function-hcl step `--hcl` replaces, when the Composition has several (only with
    /// `--hcl`: every step of the pipeline runs).
    #[arg(long, value_name = "NAME", requires = "hcl")]
    pub step: Option<String>,

    /// The Crossplane version whose render output to reproduce (default: the newest verified,
    /// CLI 2.5 with engine 2.3.4): up to 2.2 the classic
    /// `crossplane render` (below 2.0 every composed resource gets a `generateName`); 2.3 and
    /// later the engine dialect of `crossplane composition render` (names derived from a
    /// deterministic XR UID, `spec.crossplane.resourceRefs`, the
    /// `Responsive`/`Synced`/`Ready` conditions, results from the reconciler's events). In
    /// the engine dialect a patch version names the engine release, as the CLI's own
    /// `--crossplane-version` picks the Crossplane image: 2.3.0–2.3.3 (and 2.4.0-rc.0) give
    /// that release's output, where it differs (see docs/render.md); other versions the
    /// newest verified engine's.
    #[arg(long, value_name = "X.Y[.Z]", default_value = "2.5")]
    pub crossplane_version: String,

    /// Validate the XR and every composed resource against these CRD/XRD files or folders
    /// (repeatable, or comma-separated; `.crd-sources.yaml` and `.crds/` as in `fnhcl
    /// validate`): problems are errors pointing at the HCL `body` that produced the resource,
    /// at the attribute itself when its key is written literally. Exit status 1 when any.
    #[arg(long, value_name = "SCHEMAS", value_delimiter = ',')]
    pub validate: Vec<String>,

    /// After the documents, list on stderr every block function-hcl discarded or deferred
    /// (a value not known yet, a false condition, a secret that is not base64), one entry per
    /// block (a collection's members together): what was not known, at which file:line:col,
    /// and which input would make it known (observed resources `-o`, the XR's status,
    /// required resources `-e`, context). It replaces the E402 warnings about them; with
    /// `--format json`, `github` or `sarif` the entries are I023 `discarded-block` notes.
    #[arg(long, visible_alias = "explain-missing")]
    pub show_discarded: bool,

    /// Exit with status 3, not 1, when a step returns a fatal result (as `crossplane internal
    /// render` does), so a wrapper can tell a fatal result from other failures.
    #[arg(long)]
    pub detailed_exit_code: bool,

    /// Render again on every save of the composition or an input file (the screen is
    /// cleared first on a terminal); Ctrl-C stops.
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// `crossplane render`'s Crossplane image: accepted and ignored (fnhcl runs no
    /// containers; a warning says so).
    #[arg(long, value_name = "IMAGE", help_heading = CONTAINER_FLAGS)]
    pub crossplane_image: Option<String>,

    /// `crossplane render`'s local Crossplane binary: accepted and ignored.
    #[arg(long, value_name = "PATH", help_heading = CONTAINER_FLAGS)]
    pub crossplane_binary: Option<PathBuf>,

    /// `crossplane render`'s Docker network: accepted and ignored.
    #[arg(long, value_name = "NETWORK", help_heading = CONTAINER_FLAGS)]
    pub crossplane_docker_network: Option<String>,

    /// `crossplane render`'s package cache: accepted and ignored.
    #[arg(long, value_name = "DIR", help_heading = CONTAINER_FLAGS)]
    pub cache_dir: Option<PathBuf>,

    /// `crossplane render`'s concurrency for building embedded functions: accepted and
    /// ignored.
    #[arg(long, value_name = "N", help_heading = CONTAINER_FLAGS)]
    pub max_concurrency: Option<u64>,
}

/// The help heading of the `crossplane render` flags that only concern containers.
const CONTAINER_FLAGS: &str = "Accepted for `crossplane render` scripts, ignored (no containers)";

impl RenderArgs {
    /// The container-only flags given, by name.
    pub fn container_flags(&self) -> Vec<&'static str> {
        [
            ("--crossplane-image", self.crossplane_image.is_some()),
            ("--crossplane-binary", self.crossplane_binary.is_some()),
            (
                "--crossplane-docker-network",
                self.crossplane_docker_network.is_some(),
            ),
            ("--cache-dir", self.cache_dir.is_some()),
            ("--max-concurrency", self.max_concurrency.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// `fnhcl function …`.
#[derive(Debug, Subcommand)]
pub enum FunctionCommand {
    /// Evaluate a composition against a RunFunctionRequest and print the RunFunctionResponse.
    ///
    /// Both are in protobuf JSON form (what `crossplane render` and function-hcl exchange).
    /// The program is SOURCE (a directory, a `.hcl` file, a txtar file or a Composition) or,
    /// without it, the request's own `input.hcl`. Exit status 0 whenever a response was
    /// produced, fatal results included; 2 when the request or SOURCE cannot be read.
    Run(Deferred<FunctionRunArgs>),

    /// Serve function-hcl over gRPC: fnhcl as the function itself.
    ///
    /// A `FunctionRunnerService` (package names v1 and v1beta1) whose every request gets what
    /// `fnhcl function run` computes: the program is the request's `input.hcl`, as
    /// function-hcl reads it. Requests are served concurrently; one log line per request goes
    /// to standard error. `crossplane render` reaches it through a Function annotated
    /// `render.crossplane.io/runtime: Development` (target `localhost:9443` by default).
    /// SIGINT or SIGTERM stops it gracefully: requests in flight finish, exit 0.
    Serve(Deferred<FunctionServeArgs>),
}

/// `fnhcl function serve`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl function serve --insecure                          # 127.0.0.1:9443, plaintext
  fnhcl function serve --insecure --address 127.0.0.1:0    # a free port, printed at start
  fnhcl function serve --insecure --address 0.0.0.0:9443   # plaintext for every interface
  fnhcl function serve --tls-certs-dir /tls/server         # mutual TLS on 0.0.0.0:9443")]
pub struct FunctionServeArgs {
    /// The address to listen on, `HOST:PORT` (port 0: a free one, printed at start). Default:
    /// `127.0.0.1:9443` with `--insecure` (plaintext answers anyone who can reach it: give
    /// `0.0.0.0:9443` to serve other hosts), `0.0.0.0:9443` with mutual TLS.
    #[arg(long, value_name = "HOST:PORT")]
    pub address: Option<String>,

    /// Serve plaintext gRPC (what `crossplane render`'s Development runtime dials).
    #[arg(long, conflicts_with = "tls_certs_dir")]
    pub insecure: bool,

    /// Serve mutual TLS with the certificates in this folder, as function SDKs read them:
    /// `tls.crt` and `tls.key` (the server's), `ca.crt` (the CA that signs clients'
    /// certificates; a client without one is refused). Crossplane mounts them in-cluster.
    #[arg(long, value_name = "DIR", env = "TLS_SERVER_CERTS_DIR")]
    pub tls_certs_dir: Option<PathBuf>,

    /// How each request's log line is written.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub log_format: LogFormat,

    /// The longest one call may evaluate, whatever deadline its caller sent (`1m`, `30s`):
    /// then it ends with `DeadlineExceeded`.
    #[arg(long, value_name = "DURATION", default_value = "1m")]
    pub timeout: String,
}

/// The format of `function serve`'s request log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// `key=value` pairs.
    Text,
    /// One JSON object per line.
    Json,
}

/// `fnhcl function run`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl function run --request request.json ./hcl
  fnhcl function run --request request.json   # the program is the request's input.hcl")]
pub struct FunctionRunArgs {
    /// The RunFunctionRequest as protobuf JSON (`-` reads standard input).
    #[arg(long, value_name = "FILE")]
    pub request: PathBuf,

    /// The composition: a directory, a `.hcl` file, a txtar file or a Composition YAML.
    #[arg(value_name = "SOURCE")]
    pub source: Option<String>,

    /// The pipeline step to use when SOURCE is a Composition with several function-hcl steps.
    #[arg(long, value_name = "NAME")]
    pub step: Option<String>,
}

/// `fnhcl package`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl package ./hcl > bundle.txtar
  fnhcl package ./hcl --into composition.yaml
  fnhcl package --extract composition.yaml --out ./hcl")]
pub struct PackageArgs {
    /// The composition directory.
    #[arg(value_name = "DIR", default_value = ".", conflicts_with = "extract")]
    pub dir: PathBuf,

    /// Write the bundle into the function-hcl step of this Composition (its `input.hcl`),
    /// editing only that value: comments, key order and every other byte stay as they are.
    #[arg(long, value_name = "COMPOSITION")]
    pub into: Option<PathBuf>,

    /// Write the files of the bundle in this Composition's function-hcl step into `--out`.
    #[arg(
        long,
        value_name = "COMPOSITION",
        conflicts_with = "into",
        requires = "out"
    )]
    pub extract: Option<PathBuf>,

    /// The directory `--extract` writes to (created when missing).
    #[arg(long, value_name = "DIR", requires = "extract")]
    pub out: Option<PathBuf>,

    /// The pipeline step to use when the Composition has several function-hcl steps.
    #[arg(long, value_name = "NAME")]
    pub step: Option<String>,

    /// With `--into`, write nothing: exit 1 when the Composition's bundle is stale (differs
    /// from DIR's files, as `fnhcl check` reports with I027), 0 when it is up to date.
    #[arg(long, requires = "into")]
    pub check: bool,

    /// With `--extract`, overwrite files whose contents differ from the bundle.
    #[arg(long, requires = "extract")]
    pub force: bool,

    /// Package even when `fnhcl check` finds errors (syntax and structure) in the files, as
    /// `fn-hcl-tools package --skip-analysis` does.
    #[arg(long)]
    pub skip_analysis: bool,
}

/// `fnhcl convert`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl convert composition.yaml -o converted/
  fnhcl convert composition.yaml -o converted/ --verify xr.yaml --observed-resources observed.yaml")]
pub struct ConvertArgs {
    /// The Composition whose patch-and-transform steps to convert.
    #[arg(value_name = "COMPOSITION")]
    pub composition: PathBuf,

    /// Write the new Composition (`composition.yaml`) and each step's program
    /// (`STEP/main.hcl`) into this folder (created when missing).
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Render the original and the converted composition with this XR and compare the XR's
    /// status and every composed resource.
    #[arg(long, value_name = "XR")]
    pub verify: Option<PathBuf>,

    /// With `--verify`: observed composed resources (a YAML file or directory).
    #[arg(long, value_name = "PATH", requires = "verify")]
    pub observed_resources: Option<PathBuf>,

    /// With `--verify`: resources the requirements loop may return. Repeatable.
    #[arg(short = 'e', long, value_name = "PATH", requires = "verify")]
    pub required_resources: Vec<PathBuf>,

    /// With `--verify`: context values from files, as `KEY=PATH`.
    #[arg(long, value_name = "KEY=PATH", requires = "verify")]
    pub context_files: Vec<String>,

    /// With `--verify`: context values as `KEY=VALUE`.
    #[arg(long, value_name = "KEY=VALUE", requires = "verify")]
    pub context_values: Vec<String>,

    /// With `--verify`: the Functions, for steps that are neither P&T nor function-hcl.
    #[arg(long, value_name = "PATH", requires = "verify")]
    pub functions: Option<PathBuf>,

    /// With `--verify`: the Crossplane version whose render to follow.
    #[arg(long, value_name = "X.Y[.Z]", default_value = "2.5")]
    pub crossplane_version: String,
}

/// `fnhcl init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The folder to create the composition in (created when missing).
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Scaffold for the XR type of this CompositeResourceDefinition: its group, kind and
    /// version, its status fields, and an example XR with its required spec fields filled.
    #[arg(long, value_name = "XRD.yaml")]
    pub from_xrd: Option<PathBuf>,

    /// Overwrite files that exist (never through a symbolic link).
    #[arg(long)]
    pub force: bool,
}

/// `fnhcl completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The clap command, for completions, man pages and tests: every command's flags.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses the process's arguments, building the flags of only the commands they name.
///
/// Building every command's flags is a fifth of a small render's work (clap makes each flag,
/// its help text and its value parser whether or not the command runs): here the commands
/// whose names are not among the arguments get their flags from [`clap::Command::defer`],
/// which clap calls only if it ever needs them. A command named is built as the derive
/// builds it, so its flags, their order and its help are the same as [`command`]'s.
pub fn parse() -> Result<Cli, clap::Error> {
    let words = std::env::args_os()
        .skip(1)
        .map(|word| word.to_string_lossy().into_owned())
        .collect();
    *named() = Some(words);
    let parsed = Cli::try_parse();
    // Anything that builds the command later (completions) wants every flag.
    *named() = None;
    parsed
}

/// The arguments of the parse under way, while [`parse`] runs; `None` builds every command.
static NAMED: std::sync::Mutex<Option<Vec<String>>> = std::sync::Mutex::new(None);

fn named() -> std::sync::MutexGuard<'static, Option<Vec<String>>> {
    NAMED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A command's flags or subcommands `T`, built when the command is named on the command line
/// (see [`parse`]) and otherwise only if clap asks for them.
#[derive(Debug, Clone)]
pub struct Deferred<T>(pub T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Runs `augment` on `cmd` now if the command is named on the command line, else leaves it
/// for clap to run if it ever needs the command's flags.
fn build_or_defer(
    cmd: clap::Command,
    augment: fn(clap::Command) -> clap::Command,
) -> clap::Command {
    if built_now(&cmd) {
        augment(cmd)
    } else {
        cmd.defer(augment)
    }
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        build_or_defer(cmd, T::augment_args)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        build_or_defer(cmd, T::augment_args_for_update)
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: Subcommand> Subcommand for Deferred<T> {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        build_or_defer(cmd, T::augment_subcommands)
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        build_or_defer(cmd, T::augment_subcommands_for_update)
    }

    fn has_subcommand(name: &str) -> bool {
        T::has_subcommand(name)
    }
}

/// Whether `cmd`'s flags are built now: always, except while [`parse`] runs and the command's
/// name is not one of the arguments.
fn built_now(cmd: &clap::Command) -> bool {
    named()
        .as_ref()
        .is_none_or(|words| words.iter().any(|word| word == cmd.get_name()))
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(
        &mut self,
        matches: &mut clap::ArgMatches,
    ) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

/// `fnhcl check`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl check
  fnhcl check compositions/ --format github
  fnhcl check composition.yaml --step 'run hcl composition'
  fnhcl package . | fnhcl check -
  fnhcl check --list-rules
  fnhcl check --explain unused-local
  fnhcl check --config ci/.fnhcl.toml --fail-level warning")]
pub struct CheckArgs {
    /// What to check: directories (every folder below that holds .hcl files is one
    /// composition), .hcl files, txtar bundles, Composition YAML files, or `-` for a txtar
    /// bundle on standard input.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<std::path::PathBuf>,

    /// The pipeline step to check when a Composition has several function-hcl steps.
    #[arg(long, value_name = "NAME")]
    pub step: Option<String>,

    /// The lowest severity that makes the command fail (exit 1).
    #[arg(long, value_enum, default_value_t = FailLevel::Error, value_name = "LEVEL")]
    pub fail_level: FailLevel,

    /// Use this configuration file for every path, instead of the `.fnhcl.toml` found in
    /// each path's folder or above it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,

    /// CRD/XRD files or folders (repeatable or comma-separated) to check resource bodies
    /// against (rules L613–L615); default: `schemas` in `.fnhcl.toml`, else the nearest
    /// `.crd-sources.yaml` or `.crds/` at or above each composition.
    #[arg(long, value_name = "PATHS", value_delimiter = ',')]
    pub schemas: Vec<std::path::PathBuf>,

    /// Explain a rule (by code or name): what it finds, why, a bad and a good example; or
    /// any other diagnostic code fnhcl prints (`E402`, `T301`…): its severity and meaning.
    #[arg(long, value_name = "CODE", conflicts_with = "list_rules")]
    pub explain: Option<String>,

    /// List every rule: code, name, default level and what it finds.
    #[arg(long)]
    pub list_rules: bool,
}

/// `--fail-level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    /// Fail on errors only.
    Error,
    /// Fail on warnings and errors.
    Warning,
}

/// `fnhcl eval`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  fnhcl eval '1 / 3'
  fnhcl eval --xr xr.yaml 'req.composite.spec.region'
  fnhcl eval --xr xr.yaml -o observed.yaml --format json 'req.resource.bucket.status'
  fnhcl eval --context-values 'env=\"prod\"' 'req.context.env'")]
pub struct EvalArgs {
    /// The HCL expression to evaluate.
    #[arg(value_name = "EXPR", allow_hyphen_values = true)]
    pub expr: String,

    /// A composition directory whose checks must pass and whose user functions `invoke` can call.
    #[arg(long, value_name = "DIR")]
    pub hcl: Option<PathBuf>,

    /// The composite resource (XR): `req.composite`.
    #[arg(long, value_name = "FILE")]
    pub xr: Option<PathBuf>,

    /// Observed composed resources (a YAML file or a directory of them): `req.resource` and,
    /// for collection members, `req.resources`. Each needs the annotation
    /// `crossplane.io/composition-resource-name`.
    #[arg(short = 'o', long, value_name = "PATH")]
    pub observed_resources: Option<PathBuf>,

    /// Required resources (a YAML file or a directory), as `render -e` takes them: the
    /// requirements of the `--hcl` program select from them, the program running until they
    /// settle. `NAME=PATH` puts the resources at `req.extra_resources.NAME` directly, with
    /// or without a program. Repeatable.
    #[arg(
        short = 'e',
        long,
        visible_alias = "extra-resources",
        value_name = "[NAME=]PATH"
    )]
    pub required_resources: Vec<String>,

    /// Context values as `KEY=VALUE` (JSON or YAML values), `;`-separated or repeated:
    /// `req.context.KEY`.
    #[arg(long, value_name = "KEY=VALUE")]
    pub context_values: Vec<String>,

    /// Context values from files, as `KEY=PATH` (JSON or YAML), `;`-separated or repeated.
    #[arg(long, value_name = "KEY=PATH")]
    pub context_files: Vec<String>,
}
