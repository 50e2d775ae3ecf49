//! `L610`: unformatted — a file that `fnhcl fmt` would change.

use super::{Rule, RuleKind};
use crate::check::Context;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

/// The rule.
pub static RULE: Rule = Rule {
    code: Code::L610,
    kind: RuleKind::Lint,
    enabled: false,
    explain: r#"A file that `fnhcl fmt` would change (function-hcl's canonical formatting). Off by default:
turn it on in `.fnhcl.toml` (`unformatted = "warning"`) to make `check` cover formatting
too.

Bad:

```hcl
resource bucket {
body={kind="Bucket"}
}
```

Good:

```hcl
resource bucket {
  body = { kind = "Bucket" }
}
```
"#,
    run,
};

/// `fmt` depends only on the syntax layer, so this check-layer rule may use it.
fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    for parsed in cx.files {
        let file = cx.map.get(parsed.file);
        let Ok(formatted) = crate::fmt::format_file(file, true) else {
            continue;
        };
        let text = file.text();
        if formatted == text {
            continue;
        }
        let first = text
            .bytes()
            .zip(formatted.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(text.len().min(formatted.len()));
        let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[first..].find('\n').map_or(text.len(), |i| first + i);
        out.push(
            Diagnostic::new(code, format!("`{}` is not formatted", file.display_name()))
                .with_primary(Span::new(parsed.file, line_start..line_end), None)
                .with_help(format!("run `fnhcl fmt {}`", file.display_name())),
        );
    }
}
