//! How chainsaw (kyverno-json's assertion trees) reads a key or a string value of an
//! assertion: `~name.` in front iterates (`~.` without a name), `->name` at the end binds,
//! `(…)` around is an expression (`(jp;…)` naming JMESPath, `(cel;…)` CEL), and `\…\` around
//! escapes all of it to a plain field name or text.

/// A key or value, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyExpr<'a> {
    /// `~.` or `~name.`: iterate over the projected list or map, binding `$name` to the
    /// index or key when named.
    pub foreach: Option<Option<&'a str>>,
    /// `->name`: bind `$name` to the projected value.
    pub binding: Option<&'a str>,
    /// The field name or text, or the expression without its parentheses.
    pub statement: &'a str,
    /// Whether the statement is an expression, and in which language (`jp` when not named).
    pub compiler: Option<&'a str>,
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads a key or value as chainsaw does.
pub fn parse(text: &str) -> KeyExpr<'_> {
    let mut rest = text;
    let mut foreach = None;
    if let Some(after) = rest.strip_prefix('~') {
        let name_len = after.find(|c: char| !is_word(c)).unwrap_or(after.len());
        if let Some(body) = after[name_len..].strip_prefix('.') {
            foreach = Some((name_len > 0).then(|| &after[..name_len]));
            rest = body;
        }
    }
    let mut binding = None;
    if let Some(arrow) = rest.rfind("->") {
        let name = rest[arrow + 2..].trim_start();
        if !name.is_empty() && name.chars().all(is_word) {
            binding = Some(name);
            rest = rest[..arrow].trim_end();
        }
    }
    let mut compiler = None;
    if rest.len() >= 3 && rest.starts_with('\\') && rest.ends_with('\\') {
        rest = &rest[1..rest.len() - 1];
    } else if rest.len() >= 3 && rest.starts_with('(') && rest.ends_with(')') {
        let inner = &rest[1..rest.len() - 1];
        let named = inner.find(';').filter(|&semi| {
            semi > 0 && semi + 1 < inner.len() && inner[..semi].chars().all(is_word)
        });
        match named {
            Some(semi) => {
                compiler = Some(&inner[..semi]);
                rest = &inner[semi + 1..];
            }
            None => {
                compiler = Some("jp");
                rest = inner;
            }
        }
    }
    KeyExpr {
        foreach,
        binding,
        statement: rest,
        compiler,
    }
}

impl KeyExpr<'_> {
    /// Whether the text is anything but a plain field name or text.
    pub fn is_special(&self) -> bool {
        self.foreach.is_some() || self.binding.is_some() || self.compiler.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kyverno/kyverno-json, pkg/core/expression/expression_test.go, `TestParse`'s table.
    #[test]
    fn reads_as_kyverno_json() {
        let read = |text| {
            let e = parse(text);
            (e.foreach, e.binding, e.statement, e.compiler)
        };
        assert_eq!(read(""), (None, None, "", None));
        assert_eq!(read("test"), (None, None, "test", None));
        assert_eq!(read("(test)"), (None, None, "test", Some("jp")));
        assert_eq!(read("test.test"), (None, None, "test.test", None));
        assert_eq!(read("(test.test)"), (None, None, "test.test", Some("jp")));
        assert_eq!(read("~.test"), (Some(None), None, "test", None));
        assert_eq!(read("~.(test)"), (Some(None), None, "test", Some("jp")));
        assert_eq!(
            read("~.(test.test)"),
            (Some(None), None, "test.test", Some("jp"))
        );
        assert_eq!(read("test->foo"), (None, Some("foo"), "test", None));
        assert_eq!(read("(test)->foo"), (None, Some("foo"), "test", Some("jp")));
        assert_eq!(read("~.test->foo"), (Some(None), Some("foo"), "test", None));
        assert_eq!(
            read("~.(test)->foo"),
            (Some(None), Some("foo"), "test", Some("jp"))
        );
        assert_eq!(read(r"\~(test)->foo\"), (None, None, "~(test)->foo", None));
        assert_eq!(read(r"\test\"), (None, None, "test", None));
        assert_eq!(read(r"\(test)\"), (None, None, "(test)", None));
        assert_eq!(
            read("~index.(test)"),
            (Some(Some("index")), None, "test", Some("jp"))
        );
        assert_eq!(
            read("(cel;object.x)"),
            (None, None, "object.x", Some("cel"))
        );
        assert_eq!(read("(jp;a.b)"), (None, None, "a.b", Some("jp")));
    }

    #[test]
    fn plain_texts_stay_plain() {
        for text in [
            "crossplane.io/composition-resource-name",
            "~",
            "~x",
            "a -> b c",
            "()",
            "x(y)",
        ] {
            assert!(!parse(text).is_special(), "{text}");
        }
        // A `;` inside an expression names no language unless a bare word precedes it.
        assert_eq!(parse("(join(';', a))").compiler, Some("jp"));
    }
}
