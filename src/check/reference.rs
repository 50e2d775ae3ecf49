//! The rule reference (`docs/rules.md`), written from the registry so it cannot go stale: a
//! test compares the file with [`markdown`]. Also its terminal forms: `fnhcl check
//! --list-rules` ([`list`]) and `--explain` ([`explain`]).

use super::rules::{self, RULES, Rule};
use crate::diagnostics::{Code, Diagnostic};

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

/// `--explain KEY`: the header and explanation of the rule a code or name names.
pub fn explain(key: &str) -> Result<String, Box<Diagnostic>> {
    let Some(rule) = rules::find(key) else {
        let names: Vec<&str> = rules::RULES.iter().map(|r| r.name()).collect();
        let help = crate::diagnostics::suggest::did_you_mean(key, &names, str::to_string)
            .unwrap_or_else(|| {
                "`fnhcl check --list-rules` lists every rule by code and name".into()
            });
        return Err(Box::new(
            Diagnostic::new(Code::I017, format!("no rule is called `{key}`")).with_help(help),
        ));
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
];

/// `docs/codes.md`: every diagnostic code, from the code table.
pub fn codes_markdown() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         <!-- Generated from src/diagnostics/code.rs by `UPDATE_GENERATED=1 cargo test --test generated`; do not edit. -->\n\n\
         Every diagnostic fnhcl prints carries a stable code and a kebab-case name: the header of\n\
         the human report (`× R203 undefined-variable: …`), `\"code\"` and `\"rule\"` in JSON, the\n\
         title of a GitHub annotation, `ruleId` in SARIF. The severity is the default; `check`'s\n\
         configurable rules (see [rules.md](rules.md)) can be given another in `.fnhcl.toml`.\n",
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
