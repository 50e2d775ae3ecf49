//! The rule reference (`docs/rules.md`), written from the registry so it cannot go stale: a
//! test compares the file with [`markdown`]. Also its terminal forms: `fnhcl check
//! --list-rules` ([`list`]) and `--explain` ([`explain`]).

use super::rules::{self, RULES, Rule};
use crate::diagnostics::{Code, CodeInfo, Diagnostic};

/// The whole reference page.
pub fn markdown() -> String {
    let mut out = String::from(
        "# `fnhcl check` rules\n\n\
         <!-- Generated from src/check/rules/ by `UPDATE_GENERATED=1 cargo test --test generated`; do not edit. -->\n\n\
         Every finding of `fnhcl check` names its rule by code and name (`L601 unused-local`).\n\
         `fnhcl check --list-rules` prints this table and `fnhcl check --explain NAME` one\n\
         section. Kinds:\n\n\
         - **rejects**: function-hcl rejects the composition (the render fails, or `fn-hcl-tools\n  \
           analyze` does). Always an error; cannot be configured or suppressed.\n\
         - **analyzer**: function-hcl's analyzer rejects it, but the function can run it. An error\n  \
           by default; may be configured or suppressed.\n\
         - **lint**: fnhcl's own; a warning by default (`off` when marked so).\n\n\
         Configure levels in `.fnhcl.toml` (`[rules]` `name = \"off\" | \"info\" | \"warning\" | \"error\"`)\n\
         and suppress one finding with `# fnhcl-ignore: name` on the line before it or at the end of its\n\
         line, or a whole file with `# fnhcl-ignore-file: name`.\n\n\
         | code | name | kind | default | finds |\n| --- | --- | --- | --- | --- |\n",
    );
    for rule in RULES {
        out.push_str(&format!(
            "| {} | [`{}`](#{}) | {} | {} | {} |\n",
            rule.id(),
            rule.name(),
            anchor(rule),
            rule.kind.short(),
            level(rule),
            rule.summary().replace('|', "\\|"),
        ));
    }
    for rule in RULES {
        out.push_str(&format!(
            "\n## {} {}\n\n*{}; {} by default.*\n\n{}",
            rule.id(),
            rule.name(),
            rule.kind.short(),
            level(rule),
            rule.explain
        ));
    }
    out
}

fn anchor(rule: &Rule) -> String {
    format!("{}-{}", rule.id().to_lowercase(), rule.name())
}

/// `--list-rules`: one line per rule.
pub fn list() -> String {
    let width = RULES.iter().map(|r| r.name().len()).max().unwrap_or(0);
    let mut out = format!(
        "{:<4}  {:<width$}  {:<7}  {:<8}  WHAT IT FINDS\n",
        "CODE", "NAME", "DEFAULT", "KIND"
    );
    for rule in RULES {
        out.push_str(&format!(
            "{}  {:<width$}  {:<7}  {:<8}  {}\n",
            rule.id(),
            rule.name(),
            level(rule),
            rule.kind.short(),
            rule.summary(),
        ));
    }
    out.push_str(
        "\nKIND: `rejects` = function-hcl rejects it (cannot be configured or suppressed); \
         `analyzer` = fn-hcl-tools analyze rejects it; `lint` = fnhcl's own.\n\
         `fnhcl check --explain NAME` explains a rule.\n",
    );
    out
}

/// `--explain KEY`: the header and explanation of the rule a code or name names; for a code
/// no rule reports (a syntax error, an evaluation error, an input problem…), the code table's
/// row, its family and, for the codes a first render meets, a longer explanation. Every code
/// of the table is explainable.
pub fn explain(key: &str) -> Result<String, Box<Diagnostic>> {
    let Some(rule) = rules::find(key) else {
        return match crate::diagnostics::CODES
            .iter()
            .find(|info| info.id.eq_ignore_ascii_case(key) || info.name == key)
        {
            Some(info) => Ok(explain_code(info)),
            None => {
                let names: Vec<&str> = crate::diagnostics::CODES.iter().map(|c| c.name).collect();
                let help = crate::diagnostics::suggest::did_you_mean(key, &names, str::to_string)
                    .unwrap_or_else(|| {
                        "`fnhcl check --list-rules` lists every rule by code and name; docs/codes.md lists every code".into()
                    });
                Err(Box::new(
                    Diagnostic::new(Code::I017, format!("no rule or code is called `{key}`"))
                        .with_help(help),
                ))
            }
        };
    };
    let configurable = if rule.kind.configurable() {
        "can be configured and suppressed"
    } else {
        "cannot be configured or suppressed"
    };
    Ok(format!(
        "{} {}: {}\n({}; {} by default; {})\n\n{}",
        rule.id(),
        rule.name(),
        rule.summary(),
        rule.kind.describe(),
        level(rule),
        configurable,
        rule.explain
    ))
}

/// `--explain` of a code no rule reports.
fn explain_code(info: &CodeInfo) -> String {
    let mut out = format!(
        "{} {}: {}\n({} by default; not a `check` rule: it cannot be configured or suppressed)\n",
        info.id,
        info.name,
        info.description,
        info.severity.as_str(),
    );
    if let Some((_, heading, about)) = FAMILIES
        .iter()
        .find(|(letter, _, _)| info.id.starts_with(*letter))
    {
        out.push_str(&format!("\n{heading}: {about}\n"));
    }
    if let Some((_, text)) = CODE_DETAILS.iter().find(|(code, _)| *code == info.code) {
        out.push('\n');
        out.push_str(text);
    }
    out
}

/// The longer explanations of codes no rule reports: those a newcomer meets first.
const CODE_DETAILS: &[(Code, &str)] = &[
    (
        Code::M801,
        "`fnhcl convert` writes function-hcl that does exactly what function-patch-and-transform\n\
         does. Some P&T features have no exact function-hcl counterpart: patches to or from the\n\
         environment, toFieldPath merge policies, writes through `[*]` or into arrays P&T would\n\
         extend, Go format verbs HCL prints differently (`%05d`), `ToAdler32`, quantities.\n\
         Each is reported once with the step and resource, and the program has a\n\
         `# TODO(fnhcl convert): …` comment above that resource. Write that part by hand, then\n\
         run `fnhcl convert --verify XR.yaml` (or `fnhcl render` and `fnhcl diff`) to compare\n\
         with the original. docs/convert.md lists every case and why.\n",
    ),
    (
        Code::M803,
        "`fnhcl convert --verify` rendered the original Composition (P&T natively) and the\n\
         converted one with the same XR, observed resources and context, and the XR's status or a\n\
         composed resource differs. Each differing document is printed as a unified diff\n\
         (`--- original`, `+++ converted`). A TODO of the conversion (M801) usually explains it;\n\
         otherwise it is a bug of the conversion worth reporting with the inputs.\n",
    ),
    (
        Code::T301,
        "An expression could not be evaluated. The summary is Go HCL's (`Unsupported attribute`,\n\
         `Invalid function argument`, `Invalid index`, `Unknown variable`…) and the detail says\n\
         why, pointing at the expression. In `render` and `function run` function-hcl returns a\n\
         fatal result and nothing is composed; `eval` prints it for the expression given.\n\n\
         Common causes:\n\n\
         - a field the value does not have: `req.composite.spec.regoin` (a typo), or an optional\n  \
           field the XR leaves out; read an optional field with `try(req.composite.spec.size, \"small\")`;\n\
         - a function given the wrong type: `cidrsubnet(\"10.0.0.0/16\", \"8\", 1)`;\n\
         - a key missing from a map: `zones[\"c\"]`; use `lookup(map, key, default)`.\n\n\
         `fnhcl check` finds many of these without running the composition.\n",
    ),
    (
        Code::E402,
        "function-hcl evaluates a block only when every value it reads is known. On a first render\n\
         nothing is observed yet, so a block that reads an observed resource\n\
         (`req.resource.vpc.status.atProvider.id`), the XR's status, a required resource\n\
         (`req.extra_resources.NAME`) or a context key that is not there yet is discarded: it is\n\
         left out of the desired state, and the XR's `FullyResolved` condition is False. Crossplane\n\
         calls the function again once the resource is observed, and the block appears then.\n\n\
         So this is a warning, not an error: a discarded block is the normal first step of a\n\
         composition that reads what it composes. `fnhcl render --show-discarded` says, per block,\n\
         what was not known, where, and which input would make it known; pass the observed\n\
         resources with `-o`, required resources with `-e` and context with `--context-values` to\n\
         render the later steps.\n",
    ),
];

/// The level a rule has without configuration: its severity, or `off`.
pub fn level(rule: &Rule) -> &'static str {
    if rule.enabled {
        rule.severity().as_str()
    } else {
        "off"
    }
}

/// The families of diagnostic codes, by their letter: a heading and what prints them.
const FAMILIES: &[(char, &str, &str)] = &[
    (
        'I',
        "I0xx — input, files and flags",
        "Files that cannot be read, YAML that is not a Composition, steps that cannot be found, bad flag values and configuration. Every command.",
    ),
    (
        'S',
        "S0xx — syntax",
        "HCL that does not parse; the summary is Go HCL's. Every command that reads HCL.",
    ),
    (
        'B',
        "B1xx — blocks and schema",
        "The function-hcl block schema, user function definitions and requirement selectors. `check`, `package`, `render`, `function run`, `eval --hcl`.",
    ),
    (
        'R',
        "R2xx — references",
        "function-hcl's analyzer: locals, `req`/`self`/`each` attributes, cycles. `check`, `package`, `render` (as the causes of a fatal result).",
    ),
    (
        'T',
        "T3xx — expression evaluation",
        "An expression that cannot be evaluated or whose value is not known; the summary is Go HCL's. `eval`, `render`, `function run`.",
    ),
    (
        'E',
        "E4xx — function-hcl run-time errors",
        "What function-hcl fails a request with, or discards while running it. `render`, `function run`, `eval --hcl`, `check` (E403).",
    ),
    (
        'C',
        "C5xx — composition errors",
        "What the function would fail the render with whatever the inputs, found by `check` without running it.",
    ),
    (
        'L',
        "L6xx — lints",
        "fnhcl's own rules; warnings by default and configurable in `.fnhcl.toml`. `check`.",
    ),
    (
        'V',
        "V7xx — schema validation",
        "Resources checked against CRD and XRD schemas as the API server checks them. `validate`.",
    ),
    (
        'M',
        "M8xx — migration from patch-and-transform",
        "What `convert` could not express in function-hcl, and what `convert --verify` found different between the original and the converted composition. `convert`.",
    ),
    (
        'P',
        "P9xx — patch-and-transform",
        "function-patch-and-transform inputs and legacy `mode: Resources` Compositions, checked as the function reads them. `check` and the language server.",
    ),
];

/// `docs/codes.md`: every diagnostic code, from the code table.
pub fn codes_markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         <!-- Generated from src/diagnostics/code.rs by `UPDATE_GENERATED=1 cargo test --test generated`; do not edit. -->\n\n\
         Every diagnostic fnhcl prints carries a stable code and a kebab-case name: the header of\n\
         the human report (`× R203 undefined-variable: …`), `\"code\"` and `\"rule\"` in JSON, the\n\
         title of a GitHub annotation, `ruleId` in SARIF. The severity is the default; `check`'s\n\
         configurable rules (see [rules.md](rules.md)) can be given another in `.fnhcl.toml`.\n\
         `fnhcl check --explain CODE` explains any of them (a rule's code or name explains the rule).\n",
    );
    for (letter, heading, about) in FAMILIES {
        out.push_str(&format!(
            "\n## {heading}\n\n{about}\n\n| code | name | severity | meaning |\n| --- | --- | --- | --- |\n"
        ));
        for info in crate::diagnostics::CODES
            .iter()
            .filter(|info| info.id.starts_with(*letter))
        {
            let name = match super::rules::for_code(info.code) {
                Some(rule) => format!("[`{}`](rules.md#{})", info.name, anchor(rule)),
                None => format!("`{}`", info.name),
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                info.id,
                name,
                info.severity.as_str(),
                info.description.replace('|', "\\|"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rule_is_explained_by_code_or_name() {
        let rule = super::RULES[0];
        let by_code = super::explain(rule.id()).unwrap();
        assert_eq!(super::explain(rule.name()).unwrap(), by_code);
        assert!(by_code.starts_with(&format!("{} {}: ", rule.id(), rule.name())));
        assert!(super::explain("no-such-rule").is_err());
        assert!(super::list().contains(rule.name()));
    }

    /// Issue 32: every code the CLI can print is explainable, by code and by name; a code a
    /// rule reports explains the rule.
    #[test]
    fn every_code_is_explained() {
        for info in crate::diagnostics::CODES {
            let by_code = super::explain(info.id).unwrap();
            assert_eq!(super::explain(info.name).unwrap(), by_code, "{}", info.id);
            assert!(
                by_code.starts_with(&format!("{} {}: ", info.id, info.name)),
                "{by_code}"
            );
        }
        let e402 = super::explain("e402").unwrap();
        assert!(e402.contains("(warning by default;"), "{e402}");
        assert!(e402.contains("--show-discarded"), "{e402}");
        assert!(super::explain("T301").unwrap().contains("try("));
    }

    #[test]
    fn every_code_is_in_a_family() {
        for info in crate::diagnostics::CODES {
            assert!(
                super::FAMILIES
                    .iter()
                    .any(|(letter, _, _)| info.id.starts_with(*letter)),
                "{} has no family in docs/codes.md",
                info.id
            );
        }
    }
}
