//! Tests of variables and traversals (attribute access and indexing).

use super::*;
use crate::eval::value::{Items, Shared};
use std::sync::Arc;

#[test]
fn unknown_variable_with_suggestion() {
    assert_eq!(
        err("unk_z"),
        e(
            "Unknown variable",
            "There is no variable named \"unk_z\". Did you mean \"unk_b\"?",
            "unk_z"
        )
    );
    assert_eq!(
        err("zzzzzz.a"),
        e(
            "Unknown variable",
            "There is no variable named \"zzzzzz\".",
            "zzzzzz"
        )
    );
}

#[test]
fn variables_not_allowed_without_any() {
    let out = run_with("a", BTreeMap::new(), None);
    assert_eq!(
        out.diags,
        vec![e(
            "Variables not allowed",
            "Variables may not be used here.",
            "a"
        )]
    );
}

#[test]
fn attribute_access() {
    assert_eq!(val("{a = {b = 1}}.a.b"), "1");
    assert_eq!(val("m.a"), "\"x\"");
    assert_eq!(
        err("{a = 1}.b"),
        e(
            "Unsupported attribute",
            "This object does not have an attribute named \"b\".",
            ".b"
        )
    );
    assert_eq!(
        err("m.zz"),
        e(
            "Missing map element",
            "This map does not have an element with the key \"zz\".",
            ".zz"
        )
    );
}

#[test]
fn attribute_access_errors() {
    assert_eq!(
        err("null_s.a"),
        e(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            ".a"
        )
    );
    assert_eq!(
        err("\"x\".y"),
        e(
            "Unsupported attribute",
            "Can't access attributes on a primitive-typed value (string).",
            ".y"
        )
    );
    assert_eq!(
        err("[1].y"),
        e(
            "Unsupported attribute",
            "This value does not have any attributes.",
            ".y"
        )
    );
    assert_eq!(
        err("objs.a"),
        e(
            "Unsupported attribute",
            "Can't access attributes on a list of objects. Did you mean to access attribute \"a\" for a specific element of the list, or across all elements of the list?",
            ".a"
        )
    );
    assert_eq!(
        err("objs.b").1,
        "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?"
    );
}

#[test]
fn traversal_stops_at_the_first_error() {
    let out = run("{a = 1}.b.c.d");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(show(&out.value), "unknown(dynamic)");
}

#[test]
fn unknowns_propagate_through_traversals() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("unk_obj.a"), "unknown(number)");
    assert_eq!(val("dyn.a.b[0]"), "unknown(dynamic)");
    assert_eq!(val("unk_list[0]"), "unknown(number)");
    assert_eq!(val("unk_tuple[1]"), "unknown(string)");
    assert_eq!(val("l[unk_n]"), "unknown(number)");
    assert_eq!(val("[1, \"a\"][unk_n]"), "unknown(dynamic)");
    assert_eq!(val("{a = 1}[unk_s]"), "unknown(dynamic)");
    assert_eq!(
        err("unk_obj.b").0,
        "Unsupported attribute",
        "an unknown object still has a known type"
    );
}

#[test]
fn index_values() {
    assert_eq!(val("[1, 2][1]"), "2");
    assert_eq!(val("[1, 2][\"1\"]"), "2");
    assert_eq!(val("l[0]"), "1");
    assert_eq!(val("{a = 1}[\"a\"]"), "1");
    assert_eq!(val("{\"1\" = \"x\"}[1]"), "\"x\"");
    assert_eq!(val("[[1, 2]][0][1]"), "2");
    assert_eq!(val("[1, 2].1"), "2");
    assert_eq!(val("[1,2][-0]"), "1");
}

#[test]
fn invalid_index_messages() {
    let no = "The given key does not identify an element in this collection value";
    assert_eq!(
        err("[1, 2][2]"),
        e(
            "Invalid index",
            &format!(
                "{no}: the given index is greater than or equal to the length of the collection."
            ),
            "[2]"
        )
    );
    assert_eq!(err("[1, 2][5]").1, format!("{no}."));
    assert_eq!(
        err("[][0]").1,
        format!("{no}: the collection has no elements.")
    );
    assert_eq!(err("empty_list[3]").1, format!("{no}."));
    assert_eq!(
        err("[1, 2][1.5]").1,
        format!(
            "{no}: indexing a sequence requires a whole number, but the given index has a fractional part."
        )
    );
    assert_eq!(
        err("l[-1]").1,
        format!("{no}: a negative number is not a valid index for a sequence.")
    );
    assert_eq!(
        err("{a = 1}[0]").1,
        format!(
            "{no}. An object only supports looking up attributes by name, not by numeric index."
        )
    );
    assert_eq!(err("{a = 1}[\"b\"]").1, format!("{no}."));
    assert_eq!(err("[1][\"x\"]").1, format!("{no}: a number is required."));
    assert_eq!(err("m[\"q\"]").1, format!("{no}."));
}

#[test]
fn index_errors_on_null_sets_and_scalars() {
    assert_eq!(
        err("null_list[0]"),
        e(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
            "[0]"
        )
    );
    assert_eq!(
        err("[1][null]"),
        e(
            "Invalid index",
            "Can't use a null value as an indexing key.",
            "[null]"
        )
    );
    assert_eq!(
        err("set[0]").1,
        "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set."
    );
    assert_eq!(err("\"abc\"[0]").1, "This value does not have any indices.");
}

#[test]
fn index_expression_with_computed_key() {
    assert_eq!(val("[10, 20][0 + 1]"), "20");
    assert_eq!(val("{a = 1}[\"${\"a\"}\"]"), "1");
    let out = run("[1][nosuch]");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(out.diags[0].0, "Unknown variable");
    // An index expression's subject is its brackets.
    let out = run("[1][0 + 5]");
    assert_eq!(out.diags[0].2, "[0 + 5]");
}

/// A large object whose attribute `inner` is a list, and that list's storage.
fn large_object() -> (Value, Items) {
    let inner: Items = vec![num("1"), num("2")].into();
    let mut attrs: BTreeMap<String, Value> = (0..10_000)
        .map(|i| (format!("k{i}"), obj(&[("value", num(&i.to_string()))])))
        .collect();
    attrs.insert(
        "inner".into(),
        Value::List {
            elem: Type::Number,
            items: inner.clone(),
        },
    );
    (Value::Object(attrs.into()), inner)
}

#[test]
fn reading_from_a_value_shares_its_storage_instead_of_copying_it() {
    let (big, inner) = large_object();
    let Value::Object(big_attrs) = &big else {
        unreachable!()
    };
    let big_attrs = big_attrs.clone();
    let mut vars = BTreeMap::new();
    vars.insert("big".to_string(), big);
    vars.insert("key".to_string(), s("inner"));
    let table = test_functions();
    for src in ["big.inner", "big[\"inner\"]", "big[key]", "[big][0].inner"] {
        let out = run_with(src, vars.clone(), Some(&table));
        assert!(out.diags.is_empty(), "{src}: {:?}", out.diags);
        let Value::List { items, .. } = &out.value else {
            panic!("{src}: {}", show(&out.value));
        };
        assert!(Shared::ptr_eq(items, &inner), "{src} copied the list");
    }
    let out = run_with("[big][0]", vars, Some(&table));
    let Value::Object(attrs) = &out.value else {
        panic!("{}", show(&out.value));
    };
    assert!(
        Shared::ptr_eq(attrs, &big_attrs),
        "a tuple element was copied"
    );
}

#[test]
fn a_value_keeps_its_type_once_computed() {
    let (big, _) = large_object();
    let first = big.ty();
    let again = big.ty();
    let (Type::Object(a), Type::Object(b)) = (&first, &again) else {
        panic!("{}", first.go_string());
    };
    // The second request returned the kept type, not a newly built one.
    assert!(Arc::ptr_eq(a, b));
    assert_eq!(a.len(), 10_001);
    // A changed copy forgets it: the change may alter the type.
    let Value::Object(mut attrs) = big.clone() else {
        unreachable!()
    };
    Shared::make_mut(&mut attrs).insert("extra".into(), s("x"));
    let changed = Value::Object(attrs).ty();
    let Type::Object(c) = &changed else {
        unreachable!()
    };
    assert_eq!(c.len(), 10_002);
    assert_eq!(c.get("extra"), Some(&Type::String));
    assert_eq!(big.ty(), first, "the original is unchanged");
}
