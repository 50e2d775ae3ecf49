//! cel-go `ext/comprehensions_test.go`: TestTwoVarComprehensions (the rows using version
//! 3's string `reverse()` left out) and the expressions of TestTwoVarComprehensionsCost;
//! the macros are the parser's, `cel.@mapInsert` is this module's.

use super::{Case, fails, ok, run_table};

/// cel-go ext/comprehensions_test.go, TestTwoVarComprehensions.
const TWO_VAR: &[Case] = &[
    ok("[1, 2, 3, 4].all(i, v, i < 5 && v > 0)"),
    ok("[1, 2, 3, 4].all(i, v, i < v)"),
    ok("[1, 2, 3, 4].all(i, v, i > v) == false"),
    ok("cel.bind(listA, [1, 2, 3, 4],
		cel.bind(listB, [1, 2, 3, 4, 5],
		   listA.all(i, v, listB[?i].hasValue() && listB[i] == v)
		))"),
    ok("cel.bind(listA, [1, 2, 3, 4, 5, 6],
		cel.bind(listB, [1, 2, 3, 4, 5],
		   listA.all(i, v, listB[?i].hasValue() && listB[i] == v)
		)) == false"),
    ok("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'],
		  l.exists(i, v,
		    v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)
		  )
		)"),
    ok("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'],
		  l.existsOne(i, v,
		    v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)
		  )
		)"),
    ok(r#"cel.bind(l, ['hello', 'goodbye', 'hello!', 'goodbye'],
		  l.exists_one(i, v,
		    v.startsWith('hello') && l[?(i+1)].optMap(next, next == "goodbye").orValue(false)
		  )
		) == false"#),
    ok(
        r#"['Hello', 'world'].transformList(i, v, "[%d]%s".format([i, v.lowerAscii()])) == ["[0]hello", "[1]world"]"#,
    ),
    ok(
        r#"['hello', 'world'].transformList(i, v, v.startsWith('greeting'), "[%d]%s".format([i, v])) == []"#,
    ),
    ok(
        "[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar) == [1, 4, 9]",
    ),
    ok(
        "[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar) == [1, 9]",
    ),
    ok("['Hello', 'world'].transformMap(i, v, [v.lowerAscii()]) == {0: ['hello'], 1: ['world']}"),
    ok("// round-tripping example
		['world', 'Hello'].transformMap(i, v, [v.lowerAscii()])
		  .transformList(k, v, v) // extract the list back form the map
		  .flatten()
		  .sort() == ['hello', 'world']"),
    ok("[1, 2, 3].transformMap(indexVar, valueVar,
	      (indexVar * valueVar) + valueVar) == {0: 1, 1: 4, 2: 9}"),
    ok(
        "[1, 2, 3].transformMap(indexVar, valueVar, indexVar % 2 == 0,
	  	  (indexVar * valueVar) + valueVar) == {0: 1, 2: 9}",
    ),
    ok(r#""key1:value1 key2:value2 key3:value3".split(" ")
		.transformMapEntry(i, v,
		  cel.bind(entry, v.split(":"),
		    entry.size() == 2 ? {entry[0]: entry[1]} : {}
		  )
		) == {'key1': 'value1', 'key2': 'value2', 'key3': 'value3'}"#),
    ok(r#""key1:value1:extra key2:value2 key3".split(" ")
		.transformMapEntry(i, v,
		  cel.bind(entry, v.split(":"), {?entry[0]: entry[?1]})
		) == {'key1': 'value1', 'key2': 'value2'}"#),
    ok("{'hello': 'world', 'hello!': 'world'}.all(k, v, k.startsWith('hello') && v == 'world')"),
    ok(
        "{'hello': 'world', 'hello!': 'worlds'}.all(k, v, k.startsWith('hello') && v.endsWith('world')) == false",
    ),
    ok(
        "{'hello': 'world', 'hello!': 'worlds'}.exists(k, v, k.startsWith('hello') && v.endsWith('world'))",
    ),
    ok(
        "{'hello': 'world', 'hello!': 'worlds'}.existsOne(k, v, k.startsWith('hello') && v.endsWith('world'))",
    ),
    ok(
        "{'hello': 'world', 'hello!': 'worlds'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world'))",
    ),
    ok(
        "{'hello': 'world', 'hello!': 'wow, world'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world')) == false",
    ),
    ok(
        r#"{'Hello': 'world'}.transformList(k, v, "%s=%s".format([k.lowerAscii(), v])) == ["hello=world"]"#,
    ),
    ok(
        r#"dyn({'Hello': 'world'}).transformList(k, v, "%s=%s".format([k.lowerAscii(), v])) == ["hello=world"]"#,
    ),
    ok(
        r#"{'hello': 'world'}.transformList(k, v, k.startsWith('greeting'), "%s=%s".format([k, v])) == []"#,
    ),
    ok("{'greeting': 'hello', 'farewell': 'goodbye'}
		  .transformList(k, _, k).sort() == ['farewell', 'greeting']"),
    ok("{'greeting': 'hello', 'farewell': 'goodbye'}
		  .transformList(_, v, v).sort() == ['goodbye', 'hello']"),
    ok(
        r#"{'hello': 'world', 'goodbye': 'cruel world'}.transformMap(k, v, "%s, %s!".format([k, v]))
		   == {'hello': 'hello, world!', 'goodbye': 'goodbye, cruel world!'}"#,
    ),
    ok(
        r#"dyn({'hello': 'world', 'goodbye': 'cruel world'}).transformMap(k, v, "%s, %s!".format([k, v]))
		   == {'hello': 'hello, world!', 'goodbye': 'goodbye, cruel world!'}"#,
    ),
    ok(
        r#"{'hello': 'world', 'goodbye': 'cruel world'}.transformMap(k, v, v.startsWith('world'), "%s, %s!".format([k, v]))
		   == {'hello': 'hello, world!'}"#,
    ),
    ok("{'hello': 'world', 'greetings': 'tacocat'}.transformMapEntry(k, v, {}) == {}"),
];

#[test]
fn comprehensions_test_go_test_two_var_comprehensions() {
    run_table(
        "ext/comprehensions_test.go TestTwoVarComprehensions",
        TWO_VAR,
    );
}

/// cel-go ext/comprehensions_test.go, TestTwoVarComprehensionsCost's expressions, and
/// `cel.@mapInsert`'s duplicate-key error through `transformMapEntry`.
#[test]
fn comprehensions_test_go_costs_values_and_errors() {
    run_table(
        "ext/comprehensions_test.go TestTwoVarComprehensionsCost",
        &[
            ok("[1, 2, 3, 4].all(i, v, i < 5 && v > 0)"),
            ok("{1: 1, 2: 2, 3: 3}.all(i, v, i < 5 && v > 0)"),
            ok("!{0: 0}.all(i, v, i < 5 && v > 0)"),
            ok("[].transformList(i, v, v) == []"),
            ok("[1].transformList(i, v, i) == [0]"),
            ok("[3, 2, 1].transformList(i, v, v > i, v) == [3, 2]"),
            ok("[].transformMap(k, v, v + 1) == {}"),
            ok("{}.transformMap(k, v, v + 1) == {}"),
            ok("{1: 2}.transformMap(k, v, v + 1) == {1: 3}"),
            ok("{1: 2, 3: 4, 5: 6}.transformMap(k, v, k % 3 == 0, v + 1) == {3: 5}"),
            ok("{1: 2}.transformMapEntry(k, v, {v: k}) == {2: 1}"),
            fails(
                "[1, 2].transformMapEntry(i, v, {'a': v})",
                "insert failed: key a already exists",
            ),
            fails(
                "[1, 2].transformMapEntry(i, v, {1: v})",
                "insert failed: key 1 already exists",
            ),
            ok("[1, 2].transformMapEntry(i, v, {v: i}) == {1: 0, 2: 1}"),
        ],
    );
}
