//! The rule reference (`docs/rules.md`), written from the registry so it cannot go stale: a
//! test compares the file with [`markdown`].

use super::rules::{RULES, Rule};

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

/// The level a rule has without configuration: its severity, or `off`.
pub fn level(rule: &Rule) -> &'static str {
    if rule.enabled {
        rule.severity().as_str()
    } else {
        "off"
    }
}
