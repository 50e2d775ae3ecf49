//! The table of diagnostic codes: stable identifiers, kebab names, default severities.
//!
//! Areas: `I0xx` input and files, `S0xx` syntax, `B1xx` blocks and schema, `R2xx` references,
//! `T3xx` evaluation, `E4xx` function-hcl's run-time errors, `C5xx` composition errors found
//! without running it, `L6xx` lints (warnings by default), `V7xx` schema validation. Codes are never reused.

use super::Severity;

/// A diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// A file or directory could not be read or written.
    I001,
    /// Malformed YAML.
    I002,
    /// A file is not UTF-8.
    I003,
    /// A YAML file is not a Composition.
    I004,
    /// A Composition has no function-hcl step.
    I005,
    /// A Composition has several function-hcl steps and no `--step`.
    I006,
    /// `--step` names no step.
    I007,
    /// `--step` names a step that is not function-hcl's.
    I008,
    /// A bundle has no files.
    I009,
    /// A bundle has two files with the same name.
    I010,
    /// A `libraryFiles` entry is wrong.
    I011,
    /// `composition.yaml` is wrong.
    I012,
    /// A directory was needed.
    I013,
    /// A YAML text edit could not be made safely.
    I014,
    /// A file would be overwritten.
    I015,
    /// A bundle member would be written outside the target directory.
    I016,
    /// A command-line value is malformed.
    I017,
    /// A request file is not a RunFunctionRequest.
    I018,
    /// A `.fnhcl.toml` is invalid.
    I019,
    /// A step meant for function-hcl whose input is not an HclInput.
    I020,
    /// A test run's coverage is below `--coverage-min`.
    I021,
    /// A `crossplane render` flag that only concerns containers, accepted and ignored.
    I022,
    /// A block function-hcl discarded, as `render --show-discarded` lists it.
    I023,
    /// An input of `operation render` that its steps cannot see.
    I024,
    /// A `--required-schemas` folder holds no JSON file, or a file that is not an OpenAPI v3
    /// document.
    I025,
    /// A command found nothing to work on (no function-hcl files, no test cases), or test
    /// cases with no expected output yet.
    I026,
    /// A Composition's inline function-hcl bundle differs from the folder it was packaged from.
    I027,
    /// A legacy `mode: Resources` Composition, rendered as crossplane-migrator converts it.
    I028,
    /// HCL syntax error (the summary is Go HCL's).
    S001,
    /// Nesting deeper than the parser allows.
    S002,
    /// An argument the block does not take.
    B101,
    /// A block type not allowed here.
    B102,
    /// A required argument is missing.
    B103,
    /// A block has too many labels.
    B104,
    /// A block lacks a label.
    B105,
    /// A block inside an attributes-only body (`locals`).
    B106,
    /// Two resources, collections or requirements with one name.
    B107,
    /// An invalid user function definition.
    B108,
    /// An invalid requirement selector.
    B109,
    /// An HCL expression could not be evaluated (the summary is Go HCL's).
    T301,
    /// An expression's value is not known yet.
    T302,
    /// A local is declared twice in one scope.
    R201,
    /// A local has the name of a variable of an enclosing scope.
    R202,
    /// A reference to a variable that does not exist.
    R203,
    /// Locals that depend on each other in a cycle.
    R204,
    /// function-hcl rejected a block while evaluating the program.
    E401,
    /// A block was discarded because its values are not known yet.
    E402,
    /// A user function call failed or a user function definition is wrong.
    E403,
    /// `req`, `self` or `each` indexed with `[…]` where an attribute name is expected.
    R205,
    /// A `req.*` or `self.*` attribute that does not exist in that block.
    R206,
    /// An `each` attribute other than `key` and `value`.
    R207,
    /// `req.resource(s)`/`req.connection(s)` naming no resource or collection of the composition.
    R208,
    /// A `composite` block labelled neither `status` nor `connection`.
    C501,
    /// A `resources` block without exactly one `template`.
    C502,
    /// A `ready` value that is not one of the Ready enum names.
    C503,
    /// A `condition` that is not a bool.
    C504,
    /// A `for_each` that cannot be evaluated or iterated.
    C505,
    /// A `composite connection` value that is not a string.
    C506,
    /// A `context` key that is not a string.
    C507,
    /// A resource or composite body that is not an object.
    C508,
    /// Two blocks produce the same composed resource name.
    C509,
    /// A collection's `name` expression that does not produce a string.
    C510,
    /// Constant outputs of two blocks that cannot be merged.
    C511,
    /// A local that nothing reads.
    L601,
    /// A user function that nothing invokes.
    L602,
    /// A user function argument its body never reads.
    L603,
    /// A requirement whose resources nothing reads.
    L604,
    /// `req.extra_resources.X` with no requirement `X`.
    L605,
    /// A `try`/`can` argument that fails whatever the inputs.
    L606,
    /// A condition that is the same whatever the inputs.
    L607,
    /// An expression that fails whatever the inputs.
    L608,
    /// A body object literal without `apiVersion` or `kind`.
    L609,
    /// A file that `fnhcl fmt` would change.
    L610,
    /// `self.resources`/`self.connections`, which function-hcl never fills.
    L611,
    /// An inline suppression comment that names no rule, or a rule that cannot be suppressed.
    L612,
    /// A literal key of a resource body that its CRD does not have.
    L613,
    /// A literal value of a resource body that its CRD refuses.
    L614,
    /// A field the CRD requires that a body object literal certainly lacks.
    L615,
    /// A read of the XR (`req.composite`) naming a field its XRD does not have.
    L616,
    /// A condition that is an XR field of another type than bool, or compares one with a
    /// literal of another type.
    L617,
    /// A read of an XR `spec` field that its XRD neither requires nor defaults, outside `try`.
    L618,
    /// A resource that breaks its OpenAPI schema.
    V701,
    /// A field its schema does not have (the API server would prune it).
    V702,
    /// A resource that fails an `x-kubernetes-validations` rule.
    V703,
    /// A resource whose kind has no schema among those given.
    V704,
    /// A CRD or XRD that cannot be read as a schema.
    V705,
    /// A CRD schema the API server would refuse when the CRD is created.
    V706,
    /// An evaluation built more values than fnhcl's budget.
    T303,
    /// `check` stopped evaluating a composition at its time bound.
    T304,
    /// `convert` met a patch-and-transform feature it cannot express exactly (a TODO).
    M801,
    /// `convert` was given a Composition with nothing it converts.
    M802,
    /// `convert --verify`: the converted composition renders differently from the original.
    M803,
    /// A patch-and-transform input the function would refuse.
    P901,
    /// A patch-and-transform field path that does not parse.
    P902,
    /// A patch-and-transform path into the XR that its XRD does not have.
    P903,
    /// A patch-and-transform path into a composed resource that its CRD does not have.
    P904,
}

/// What the table says about a code.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    /// The code.
    pub code: Code,
    /// Its text (`I001`).
    pub id: &'static str,
    /// Kebab-case name.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// One line describing the problem class.
    pub description: &'static str,
}

const fn info(
    code: Code,
    id: &'static str,
    name: &'static str,
    description: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        id,
        name,
        severity: Severity::Error,
        description,
    }
}

/// A note: information that never fails a run.
const fn note(
    code: Code,
    id: &'static str,
    name: &'static str,
    description: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        id,
        name,
        severity: Severity::Info,
        description,
    }
}

/// A warning that is not a lint (nothing configures it): printed, and never fails a run by
/// itself.
const fn warning(
    code: Code,
    id: &'static str,
    name: &'static str,
    description: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        id,
        name,
        severity: Severity::Warning,
        description,
    }
}

/// A lint: a warning unless configured otherwise.
const fn lint(
    code: Code,
    id: &'static str,
    name: &'static str,
    description: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        id,
        name,
        severity: Severity::Warning,
        description,
    }
}

static UNKNOWN: CodeInfo = CodeInfo {
    code: Code::I001,
    id: "????",
    name: "unknown",
    severity: Severity::Error,
    description: "A code missing from the table",
};

/// Every code, sorted.
pub static CODES: &[CodeInfo] = &[
    info(
        Code::I001,
        "I001",
        "io-error",
        "A file or directory could not be read or written",
    ),
    info(
        Code::I002,
        "I002",
        "invalid-yaml",
        "A YAML file is malformed",
    ),
    info(Code::I003, "I003", "not-utf8", "A file is not UTF-8 text"),
    info(
        Code::I004,
        "I004",
        "not-a-composition",
        "A YAML file is not a Crossplane Composition",
    ),
    info(
        Code::I005,
        "I005",
        "no-hcl-step",
        "A Composition has no function-hcl step",
    ),
    info(
        Code::I006,
        "I006",
        "ambiguous-step",
        "A Composition has several function-hcl steps",
    ),
    info(
        Code::I007,
        "I007",
        "unknown-step",
        "No pipeline step has the given name",
    ),
    info(
        Code::I008,
        "I008",
        "not-hcl-step",
        "The chosen step is not a function-hcl step",
    ),
    info(
        Code::I009,
        "I009",
        "empty-bundle",
        "A txtar bundle holds no files",
    ),
    info(
        Code::I010,
        "I010",
        "duplicate-bundle-file",
        "Two bundle files have the same name",
    ),
    info(
        Code::I011,
        "I011",
        "invalid-library-file",
        "A libraryFiles entry is invalid",
    ),
    info(
        Code::I012,
        "I012",
        "invalid-config",
        "composition.yaml is invalid",
    ),
    info(
        Code::I013,
        "I013",
        "not-a-directory",
        "A directory was expected",
    ),
    info(
        Code::I014,
        "I014",
        "unsafe-yaml-edit",
        "A YAML file cannot be edited safely as text",
    ),
    info(
        Code::I015,
        "I015",
        "would-overwrite",
        "A changed file would be overwritten",
    ),
    info(
        Code::I016,
        "I016",
        "path-outside-target",
        "A file would be written outside the target directory",
    ),
    info(
        Code::I017,
        "I017",
        "invalid-flag-value",
        "A command-line value is malformed",
    ),
    info(
        Code::I018,
        "I018",
        "invalid-request",
        "A request file is not a RunFunctionRequest in protobuf JSON",
    ),
    info(
        Code::I019,
        "I019",
        "invalid-check-config",
        "A .fnhcl.toml file is invalid",
    ),
    info(
        Code::I020,
        "I020",
        "invalid-hcl-input",
        "A step meant for function-hcl has an input function-hcl cannot read",
    ),
    info(
        Code::I021,
        "I021",
        "coverage-below-minimum",
        "A test run covered less of its compositions than `--coverage-min` asks",
    ),
    lint(
        Code::I022,
        "I022",
        "container-flag",
        "A `crossplane render` flag that only concerns containers: accepted, so scripts run unchanged, and ignored (fnhcl runs no containers)",
    ),
    note(
        Code::I023,
        "I023",
        "discarded-block",
        "A block function-hcl discarded or deferred (`render --show-discarded`): what was not known, where, and which input would make it known",
    ),
    lint(
        Code::I024,
        "I024",
        "unseen-operation-input",
        "An input of `operation render` its steps cannot see: a function-hcl step's bootstrap requirements (function-hcl v0.2.0 reads only `extra_resources`)",
    ),
    info(
        Code::I025,
        "I025",
        "invalid-openapi",
        "A `--required-schemas` folder holds no JSON file, or one that is not an OpenAPI v3 document",
    ),
    info(
        Code::I026,
        "I026",
        "nothing-found",
        "A command found nothing to work on (no function-hcl files under a folder, no test cases), or test cases with no expected output yet (`fnhcl test --update` records them)",
    ),
    info(
        Code::I027,
        "I027",
        "stale-bundle",
        "A Composition's inline function-hcl bundle differs from the `.hcl` files of its folder (run `fnhcl package DIR --into`)",
    ),
    note(
        Code::I028,
        "I028",
        "legacy-composition",
        "A legacy `mode: Resources` Composition (which Crossplane v2 refuses), rendered as crossplane-migrator converts it: one function-patch-and-transform step",
    ),
    info(
        Code::S001,
        "S001",
        "syntax-error",
        "The HCL is not syntactically valid",
    ),
    info(
        Code::S002,
        "S002",
        "nesting-too-deep",
        "Expressions or blocks are nested too deeply",
    ),
    info(
        Code::B101,
        "B101",
        "unsupported-argument",
        "An argument the block does not take",
    ),
    info(
        Code::B102,
        "B102",
        "unsupported-block",
        "A block type that is not allowed here",
    ),
    info(
        Code::B103,
        "B103",
        "missing-argument",
        "A required argument is missing",
    ),
    info(
        Code::B104,
        "B104",
        "extraneous-label",
        "A block has more labels than it takes",
    ),
    info(Code::B105, "B105", "missing-label", "A block lacks a label"),
    info(
        Code::B106,
        "B106",
        "block-in-attributes",
        "A block where only arguments are allowed",
    ),
    info(
        Code::B107,
        "B107",
        "duplicate-name",
        "A resource, collection or requirement name is used twice",
    ),
    info(
        Code::B108,
        "B108",
        "invalid-function",
        "A user function definition is invalid",
    ),
    info(
        Code::B109,
        "B109",
        "invalid-requirement",
        "A requirement's select block is invalid",
    ),
    info(
        Code::T301,
        "T301",
        "eval-error",
        "An HCL expression could not be evaluated",
    ),
    info(
        Code::T302,
        "T302",
        "unknown-value",
        "A value is not known yet",
    ),
    info(
        Code::R201,
        "R201",
        "duplicate-local",
        "A local is declared twice in one scope",
    ),
    info(
        Code::R202,
        "R202",
        "shadowed-variable",
        "A local has the name of a variable of an enclosing scope",
    ),
    info(
        Code::R203,
        "R203",
        "undefined-variable",
        "A reference to a variable that does not exist",
    ),
    info(
        Code::R204,
        "R204",
        "local-cycle",
        "Locals depend on each other in a cycle",
    ),
    info(
        Code::E401,
        "E401",
        "evaluation-error",
        "function-hcl rejected a block while evaluating the program",
    ),
    warning(
        Code::E402,
        "E402",
        "incomplete-block",
        "A block was discarded because its values are not known yet",
    ),
    info(
        Code::E403,
        "E403",
        "user-function-error",
        "A user function definition or call is wrong",
    ),
    info(
        Code::R205,
        "R205",
        "invalid-index-reference",
        "`req`, `self` or `each` indexed with `[…]` where an attribute name is expected",
    ),
    info(
        Code::R206,
        "R206",
        "unknown-attribute",
        "A `req.*` or `self.*` attribute that does not exist in that block",
    ),
    info(
        Code::R207,
        "R207",
        "invalid-each-reference",
        "An `each` attribute other than `key` and `value`",
    ),
    info(
        Code::R208,
        "R208",
        "undeclared-resource",
        "`req.resource(s)`/`req.connection(s)` naming no resource or collection of the composition",
    ),
    info(
        Code::C501,
        "C501",
        "invalid-composite-label",
        "A `composite` block labelled neither `status` nor `connection`",
    ),
    info(
        Code::C502,
        "C502",
        "template-count",
        "A `resources` block without exactly one `template`",
    ),
    info(
        Code::C503,
        "C503",
        "invalid-ready-value",
        "A `ready` value that is not one of the Ready enum names",
    ),
    info(
        Code::C504,
        "C504",
        "non-bool-condition",
        "A `condition` that is not a bool",
    ),
    info(
        Code::C505,
        "C505",
        "invalid-for-each",
        "A `for_each` that cannot be evaluated or iterated",
    ),
    info(
        Code::C506,
        "C506",
        "invalid-connection-value",
        "A `composite connection` value that is not a string",
    ),
    info(
        Code::C507,
        "C507",
        "invalid-context-key",
        "A `context` key that is not a string",
    ),
    info(
        Code::C508,
        "C508",
        "invalid-body",
        "A resource or composite body that is not an object",
    ),
    info(
        Code::C509,
        "C509",
        "duplicate-resource",
        "Two blocks produce the same composed resource name",
    ),
    info(
        Code::C510,
        "C510",
        "invalid-member-name",
        "A collection's `name` expression that does not produce a string",
    ),
    info(
        Code::C511,
        "C511",
        "conflicting-outputs",
        "Two blocks set one status, connection or context key to different constants",
    ),
    lint(
        Code::L601,
        "L601",
        "unused-local",
        "A local that nothing reads",
    ),
    lint(
        Code::L602,
        "L602",
        "unused-function",
        "A user function that nothing invokes",
    ),
    lint(
        Code::L603,
        "L603",
        "unused-argument",
        "A user function argument its body never reads",
    ),
    lint(
        Code::L604,
        "L604",
        "unused-requirement",
        "A requirement whose resources nothing reads",
    ),
    lint(
        Code::L605,
        "L605",
        "undeclared-requirement",
        "`req.extra_resources.X` with no requirement `X`",
    ),
    lint(
        Code::L606,
        "L606",
        "try-never-succeeds",
        "A `try`/`can` argument that fails whatever the inputs",
    ),
    lint(
        Code::L607,
        "L607",
        "constant-condition",
        "A condition that is the same whatever the inputs",
    ),
    lint(
        Code::L608,
        "L608",
        "always-fails",
        "An expression that fails whatever the inputs",
    ),
    lint(
        Code::L609,
        "L609",
        "missing-api-version-or-kind",
        "A body object literal without `apiVersion` or `kind`",
    ),
    lint(
        Code::L610,
        "L610",
        "unformatted",
        "A file that `fnhcl fmt` would change",
    ),
    lint(
        Code::L611,
        "L611",
        "self-collection-null",
        "`self.resources`/`self.connections`, which function-hcl never fills",
    ),
    lint(
        Code::L612,
        "L612",
        "invalid-suppression",
        "An inline suppression comment that names no rule, or a rule that cannot be suppressed",
    ),
    lint(
        Code::L613,
        "L613",
        "unknown-body-field",
        "A literal key of a resource body that its CRD does not have",
    ),
    lint(
        Code::L614,
        "L614",
        "invalid-body-value",
        "A literal value of a resource body that its CRD refuses",
    ),
    lint(
        Code::L615,
        "L615",
        "missing-body-field",
        "A field the CRD requires that a body object literal certainly lacks",
    ),
    lint(
        Code::L616,
        "L616",
        "unknown-composite-field",
        "A read of the XR (`req.composite`) naming a field its XRD does not have",
    ),
    lint(
        Code::L617,
        "L617",
        "composite-field-type",
        "A condition that is an XR field of another type than bool, or compares one with a literal of another type",
    ),
    lint(
        Code::L618,
        "L618",
        "optional-composite-field",
        "A read of an XR `spec` field that its XRD neither requires nor defaults, outside `try`",
    ),
    info(
        Code::V701,
        "V701",
        "schema-violation",
        "A resource that breaks its OpenAPI schema",
    ),
    info(
        Code::V702,
        "V702",
        "unknown-field",
        "A field its schema does not have (the API server would prune it)",
    ),
    info(
        Code::V703,
        "V703",
        "validation-rule-failed",
        "A resource that fails an `x-kubernetes-validations` rule",
    ),
    lint(
        Code::V704,
        "V704",
        "missing-schema",
        "A resource whose kind has no schema among those given",
    ),
    info(
        Code::V705,
        "V705",
        "invalid-schema",
        "A CRD or XRD that cannot be read as a schema",
    ),
    lint(
        Code::V706,
        "V706",
        "refused-schema",
        "A CRD schema the API server would refuse when the CRD is created (a CEL rule that does not compile, costs too much or fails its checks of rules, messages, reasons and field paths; a pattern that does not compile)",
    ),
    info(
        Code::T303,
        "T303",
        "budget-exceeded",
        "An evaluation built more values than fnhcl's budget allows",
    ),
    lint(
        Code::T304,
        "T304",
        "evaluation-timeout",
        "`check` stopped evaluating a composition at its time bound",
    ),
    warning(
        Code::M801,
        "M801",
        "convert-todo",
        "`convert` met a patch-and-transform feature it cannot express exactly in function-hcl; the program has a `# TODO(fnhcl convert)` comment at the place",
    ),
    info(
        Code::M802,
        "M802",
        "nothing-to-convert",
        "`convert` was given a Composition without a patch-and-transform pipeline step (or a legacy `mode: Resources` one)",
    ),
    info(
        Code::M803,
        "M803",
        "conversion-differs",
        "`convert --verify`: the converted composition renders a different XR status or composed resources than the original",
    ),
    info(
        Code::P901,
        "P901",
        "pt-invalid-input",
        "A function-patch-and-transform input (or a legacy `mode: Resources` spec) the function would refuse: its decoding error, or each problem its validation finds, in its words",
    ),
    info(
        Code::P902,
        "P902",
        "pt-field-path-syntax",
        "A patch-and-transform field path (`fromFieldPath`, `toFieldPath`, a combine variable, a readiness check or connection detail) that does not parse: the patch fails when it runs",
    ),
    warning(
        Code::P903,
        "P903",
        "pt-unknown-composite-field",
        "A patch-and-transform path into the XR naming a field its XRD does not have: an Optional patch from it is skipped without a word",
    ),
    warning(
        Code::P904,
        "P904",
        "pt-unknown-resource-field",
        "A patch-and-transform path into a composed resource naming a field its CRD does not have",
    ),
];

impl Code {
    /// The table entry.
    pub fn info(self) -> &'static CodeInfo {
        // The unit test below proves every variant has its entry at its own index; the search
        // keeps a missing entry from ever being a panic.
        CODES
            .get(self as usize)
            .filter(|entry| entry.code == self)
            .or_else(|| CODES.iter().find(|entry| entry.code == self))
            .unwrap_or(&UNKNOWN)
    }

    /// The code's text.
    pub fn as_str(self) -> &'static str {
        self.info().id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_indexed_by_variant() {
        assert_eq!(
            CODES.last().map(|c| c.code),
            Some(Code::P904),
            "the table ends with the last variant"
        );
        for (i, entry) in CODES.iter().enumerate() {
            assert_eq!(entry.code as usize, i, "{} is out of place", entry.id);
            assert_eq!(format!("{:?}", entry.code), entry.id);
            assert!(
                entry
                    .name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
            );
        }
        let mut names: Vec<_> = CODES.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CODES.len());
    }
}
