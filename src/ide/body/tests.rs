//! The tolerant reader, the cursor and the completion items, on small bodies.

use super::written::*;
use super::*;
use crate::syntax::lex::lex;

/// The object in `text` (its `|` is the cursor) read from its first `{`, and the cursor.
fn read(marked: &str) -> (String, usize, Object) {
    let offset = marked.find('|').unwrap();
    let text = marked.replacen('|', "", 1);
    let tokens = lex(&text);
    let start = text.find('{').unwrap();
    let first = tokens
        .iter()
        .position(|t| t.start as usize == start)
        .unwrap();
    let object = Reader {
        text: &text,
        tokens: &tokens,
        at: first,
        end: text.len(),
    }
    .object();
    (text, offset, object)
}

/// The path to the cursor as text, the place, and the keys written in its object.
fn at(marked: &str) -> Option<(String, String, Vec<String>)> {
    let (text, offset, object) = read(marked);
    let cursor = locate(&object, offset)?;
    let place = match &cursor.place {
        Place::Key { current: None } => "key".to_string(),
        Place::Key { current: Some(i) } => {
            let item = &cursor.object.items[*i];
            format!("key {:?}", &text[item.key_span.clone()])
        }
        Place::Value { span } => format!("value {:?}", &text[span.clone()]),
    };
    let keys = cursor
        .object
        .items
        .iter()
        .map(|i| i.key.clone().unwrap_or_else(|| "?".into()))
        .collect();
    Some((path_text(&cursor.path), place, keys))
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn an_empty_line_inside_nested_objects() {
    let text = "{\n  apiVersion = \"a/v1\"\n  kind = \"B\"\n  spec = {\n    forProvider = {\n      region = \"x\"\n      |\n    }\n  }\n}";
    assert_eq!(
        at(text),
        Some((
            "spec.forProvider".into(),
            "key".into(),
            strings(&["region"])
        ))
    );
}

#[test]
fn a_partial_key_before_the_brace() {
    let text = "{\n  kind = \"B\"\n  spec = {\n    forProvider = {\n      tags = {}\n      reg|\n    }\n  }\n  metadata = {}\n}";
    assert_eq!(
        at(text),
        Some((
            "spec.forProvider".into(),
            "key \"reg\"".into(),
            strings(&["tags", "reg"])
        ))
    );
    // The objects around it are read to their end: `metadata` is still a root key.
    let (text, _, object) = read(text);
    let keys: Vec<_> = object.items.iter().filter_map(|i| i.key.clone()).collect();
    assert_eq!(keys, strings(&["kind", "spec", "metadata"]));
    assert_eq!(object.literal("kind"), Some("B"));
    assert!(text[object.span.clone()].ends_with('}'));
}

#[test]
fn the_root_and_one_line_objects() {
    assert_eq!(
        at("{ kind = \"B\", | }"),
        Some(("".into(), "key".into(), strings(&["kind"])))
    );
    assert_eq!(
        at("{ spec = { a = 1, b| } }"),
        Some(("spec".into(), "key \"b\"".into(), strings(&["a", "b"])))
    );
    // Quoted keys and colons.
    assert_eq!(
        at("{ \"spec\": { \"for-provider\" = { | } } }"),
        Some(("spec.for-provider".into(), "key".into(), vec![]))
    );
}

#[test]
fn values() {
    assert_eq!(
        at("{ spec = { acl = |\n } }"),
        Some(("spec.acl".into(), "value \"\"".into(), strings(&["acl"])))
    );
    assert_eq!(
        at("{ spec = { acl = \"pri|\" } }"),
        Some((
            "spec.acl".into(),
            "value \"\\\"pri\\\"\"".into(),
            strings(&["acl"])
        ))
    );
    assert_eq!(
        at("{ spec = { acl = |local.x } }"),
        Some(("spec.acl".into(), "value \"\"".into(), strings(&["acl"])))
    );
    // A key with `=` and its value: the cursor on the key.
    assert_eq!(
        at("{ spec = { ac|l = 1 } }"),
        Some(("spec".into(), "key \"acl\"".into(), strings(&["acl"])))
    );
}

#[test]
fn tuples_of_objects_and_of_values() {
    assert_eq!(
        at("{ spec = { rules = [{ id = 1 }, {\n  |\n}] } }"),
        Some(("spec.rules[1]".into(), "key".into(), vec![]))
    );
    assert_eq!(
        at("{ spec = { modes = [\"a\", |] } }"),
        Some((
            "spec.modes[1]".into(),
            "value \"\"".into(),
            strings(&["modes"])
        ))
    );
    assert_eq!(
        at("{ spec = { modes = [\"a\", \"b|\"] } }"),
        Some((
            "spec.modes[1]".into(),
            "value \"\\\"b\\\"\"".into(),
            strings(&["modes"])
        ))
    );
}

#[test]
fn computed_keys_values_and_outside() {
    // Under a computed key nothing is known.
    assert_eq!(at("{ (local.k) = { | } }"), None);
    // Inside a function call's object: not a body object.
    assert_eq!(
        at("{ spec = merge({ | }, {}) }"),
        Some((
            "spec".into(),
            "value \"merge({  }, {})\"".into(),
            strings(&["spec"])
        ))
    );
    // A `for` object is a value, not an object of keys.
    let (_, place, _) = at("{ tags = { for k, v in x : k => | } }").unwrap();
    assert!(place.starts_with("value"));
    // Interpolations and heredocs do not end the value early.
    assert_eq!(
        at("{ a = \"${ {x = 1}.x }\", b = <<EOT\n}\nEOT\n  | }"),
        Some(("".into(), "key".into(), strings(&["a", "b"])))
    );
}

#[test]
fn an_unterminated_object_ends_at_the_bound() {
    assert_eq!(
        at("{ spec = {\n  forProvider = {\n    |"),
        Some(("spec.forProvider".into(), "key".into(), vec![]))
    );
}

#[test]
fn fields_required_first_with_their_types() {
    let schema = Node::compile(&serde_json::json!({
        "type": "object",
        "required": ["z"],
        "properties": {
            "a": {"type": "string", "enum": ["x", "y"]},
            "b": {"type": "array", "items": {"type": "object"}},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
            "w": {"type": "boolean"},
            "z": {"type": "string", "description": "Zed."},
        },
    }))
    .unwrap();
    let items = field_items(&schema, false, &["w"], false);
    let shown: Vec<(String, String, String)> = items
        .iter()
        .map(|i| {
            (
                i.label.clone(),
                i.detail.clone().unwrap_or_default(),
                i.insert_text.clone().unwrap_or_default(),
            )
        })
        .collect();
    let row = |l: &str, d: &str, t: &str| (l.to_string(), d.to_string(), t.to_string());
    assert_eq!(
        shown,
        vec![
            row("z", "string, required", "z = $0"),
            row("a", "string (enum)", "a = $0"),
            row("b", "array of object", "b = [$0]"),
            row("m", "map of integer", "m = {\n  $0\n}"),
        ]
    );
    // A value position: the enum's values quoted, replacing what is written.
    let text = "a = \"x\"";
    let values = value_items(schema.property("a").unwrap(), text, 4..7).unwrap();
    assert_eq!(values[0].label, "\"x\"");
    assert!(values[0].edit.is_some());
    assert!(value_items(schema.property("z").unwrap(), text, 4..4).is_none());
}
