//! Tests of `variables` and `unknown_references`.

use super::*;

#[test]
fn variables_lists_references() {
    let mut map = SourceMap::new();
    let id = map.add(
        "t.hcl",
        "[for k, v in a.b: k + v + c[0] if d] + {e = f, (g) = h} + i[*].j + \"${k}\"",
    );
    let (expr, _) = parse_expression(map.get(id));
    let names: Vec<String> = variables(&expr)
        .iter()
        .map(|r| format!("{}/{}", r.root, r.steps.len()))
        .collect();
    assert_eq!(
        names,
        vec!["a/1", "c/1", "d/0", "f/0", "g/0", "h/0", "i/0", "k/0"]
    );
}

#[test]
fn unknown_references_name_what_is_not_known() {
    let mut map = SourceMap::new();
    let id = map.add(
        "t.hcl",
        "[unk_obj.a, m.a, partial[1], partial[0], dyn.x[\"y\"], unk_obj.a, nosuch, {a = 1}.b]",
    );
    let (expr, _) = parse_expression(map.get(id));
    let table = test_functions();
    let scope = Scope {
        variables: test_vars(),
        functions: Some(&table),
        parent: None,
        bound: Default::default(),
    };
    assert_eq!(
        unknown_references(&expr, &scope),
        vec!["unk_obj.a", "partial[1]", "dyn.x[\"y\"]"]
    );
}
