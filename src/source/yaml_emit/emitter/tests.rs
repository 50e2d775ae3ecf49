//! What the two dialects change: the same events written as the output documents write them
//! and as `yamlencode` writes them.

use super::*;
use std::convert::Infallible;

/// go-yaml v2's choice, reduced to what these cases reach: plain unless the text is special.
fn plain_unless_special(s: &str) -> Style {
    match s {
        "true" | "1" => Style::DoubleQuoted,
        _ if s.contains('\n') => Style::Literal,
        _ => Style::Plain,
    }
}

/// go-cty-yaml's choice: double quotes, or a literal block for text with a newline.
fn quoted_or_literal(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else {
        Style::DoubleQuoted
    }
}

const PLAIN: Dialect = Dialect {
    string_style: plain_unless_special,
    open_ended_root: false,
};

const QUOTED: Dialect = Dialect {
    string_style: quoted_or_literal,
    open_ended_root: true,
};

/// `{"a": ["x", 1], "b\nc": "1"}` as events: keys and strings in the dialect's style.
fn document(dialect: Dialect) -> String {
    let mut e = Emitter::new(dialect);
    let entries = [("a", false), ("b\nc", true)];
    let Ok(()) = e.mapping(entries, |e, second, ctx| -> Result<(), Infallible> {
        if second {
            e.string("1", ctx);
            return Ok(());
        }
        e.sequence(["x", "1"], ctx, |e, item, ctx| {
            if item == "x" {
                e.string(item, ctx);
            } else {
                e.scalar(item, Style::Plain, ctx);
            }
            Ok(())
        })
    });
    e.finish()
}

#[test]
fn strings_and_keys_take_the_dialects_style() {
    assert_eq!(document(PLAIN), "a:\n- x\n- 1\n? |-\n  b\n  c\n: \"1\"\n");
    assert_eq!(
        document(QUOTED),
        "\"a\":\n- \"x\"\n- 1\n? |-\n  b\n  c\n: \"1\"\n"
    );
}

#[test]
fn only_an_open_ended_dialect_ends_a_plain_root_with_dots() {
    for (dialect, want) in [(PLAIN, "5\n"), (QUOTED, "5\n...\n")] {
        let mut e = Emitter::new(dialect);
        e.scalar("5", Style::Plain, Context::ROOT);
        assert_eq!(e.finish(), want);
    }
    // A quoted root, a literal one (even with a kept final break) and a plain scalar below
    // the root never leave the stream open.
    let mut e = Emitter::new(QUOTED);
    e.string("5", Context::ROOT);
    assert_eq!(e.finish(), "\"5\"\n");
    let mut e = Emitter::new(QUOTED);
    e.string("x\n\n", Context::ROOT);
    assert_eq!(e.finish(), "|+\n  x\n\n");
    let mut e = Emitter::new(QUOTED);
    let Ok(()) = e.sequence(
        [()],
        Context::ROOT,
        |e, (), ctx| -> Result<(), Infallible> {
            e.scalar("5", Style::Plain, ctx);
            Ok(())
        },
    );
    assert_eq!(e.finish(), "- 5\n");
}
