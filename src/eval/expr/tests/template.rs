//! Tests of templates and the safe known prefix of partly unknown ones.

use super::*;
use crate::eval::prefix::safe_known_prefix;

#[test]
fn templates() {
    assert_eq!(val("\"a${1}b${true}\""), "\"a1btrue\"");
    assert_eq!(val("\"${1}\""), "1", "a lone interpolation keeps its value");
    assert_eq!(val("\"${\"a\"}${1.50}\""), "\"a1.5\"");
    assert_eq!(val("\"e${\"\\u0301\"}\""), "\"\u{e9}\"");
    assert_eq!(val("\"%{if true}yes%{else}no%{endif}\""), "\"yes\"");
    assert_eq!(val("\"%{for x in [1, \"a\"]}${x},%{endfor}\""), "\"1,a,\"");
}

#[test]
fn template_errors() {
    let out = run("\"a${null}b\"");
    assert_eq!(
        out.diags,
        vec![e(
            "Invalid template interpolation value",
            "The expression result is null. Cannot include a null value in a string template.",
            "null"
        )]
    );
    // After an error the rest is not appended.
    assert_eq!(show(&out.value), "\"a\"");
    assert_eq!(
        err("\"x${[1]}\"").1,
        "Cannot include the given value in a string template: string required, but have tuple."
    );
    let out = run("\"%{for x in [null]}${x}%{endfor}\"");
    assert_eq!(
        out.diags[0].1,
        "The expression result is null. Cannot include a null value in a string template."
    );
}

#[test]
fn template_join_errors() {
    let mut vars = test_vars();
    vars.insert("nulls".into(), Value::Tuple(vec![Value::null()].into()));
    vars.insert(
        "lists".into(),
        Value::Tuple(vec![Value::Tuple(vec![].into())].into()),
    );
    let table = test_functions();
    let out = run_with(
        "\"%{for x in nulls}${x}%{endfor}\"",
        vars.clone(),
        Some(&table),
    );
    assert_eq!(out.diags.len(), 1);
    let out = run_with("\"%{for x in lists}%{endfor}\"", vars, Some(&table));
    assert_eq!(show(&out.value), "\"\"");
}

#[test]
fn unknown_templates_keep_a_safe_prefix() {
    // unverified: no unknowns in the oracle; SafeKnownPrefix is approximated with unicode-normalization's and unicode-segmentation's tables, not Go's.
    assert_eq!(val("\"abc-${unk_s}\""), "unknown(string)!\"abc-\"…");
    assert_eq!(val("\"abc${unk_s}\""), "unknown(string)!\"ab\"…");
    assert_eq!(val("\"ab1${unk_s}\""), "unknown(string)!\"ab\"…");
    assert_eq!(val("\"${unk_s}x\""), "unknown(string)!");
    assert_eq!(val("\"a${unk_s}b${1}\""), "unknown(string)!");
    // The join's unknown is unrefined, but the template around it is never null.
    assert_eq!(
        val("\"%{for x in unk_list}${x}%{endfor}\""),
        "unknown(string)!"
    );
    assert_eq!(
        val("\"a%{for x in [unk_s]}${x}%{endfor}\""),
        "unknown(string)!"
    );
}

#[test]
fn safe_prefix_limits() {
    // unverified: Go's norm and textseg tables are approximated here.
    let long = "x-".repeat(100);
    assert_eq!(safe_known_prefix(&long, 128).len(), 128);
    assert_eq!(safe_known_prefix("ab\u{e9}", 128), "ab");
    assert_eq!(safe_known_prefix("ab\u{301}", 128), "a");
    assert_eq!(safe_known_prefix("a:", 128), "a:");
    assert_eq!(safe_known_prefix("a<", 128), "a");
    // CJK characters do not combine, but the last grapheme cluster still goes.
    assert_eq!(safe_known_prefix("日本", 128), "日");
    assert_eq!(safe_known_prefix("aü", 128), "a");
    // Cut inside a two-byte character: the partial character goes and nothing else.
    let text = format!("{}\u{e9}z", "-".repeat(127));
    assert_eq!(safe_known_prefix(&text, 128), "-".repeat(127));
}
