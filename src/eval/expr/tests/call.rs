//! Tests of function calls and of `try` and `can`.

use super::*;

#[test]
fn calls_convert_arguments() {
    assert_eq!(val("upper(\"a\")"), "\"A\"");
    assert_eq!(val("upper(1)"), "\"1\"");
    assert_eq!(val("sum(1, \"2\", 3)"), "6");
    assert_eq!(val("pair(\"x\", \"5\")"), "\"x5\"");
}

#[test]
fn call_to_unknown_function() {
    assert_eq!(
        err("uper(\"a\")"),
        e(
            "Call to unknown function",
            "There is no function named \"uper\". Did you mean \"upper\"?",
            "uper"
        )
    );
    assert_eq!(
        err("nope::hello()"),
        e(
            "Call to unknown function",
            "There are no functions in namespace \"nope::\".",
            "nope::hello"
        )
    );
    assert_eq!(
        err("ns::bye()").1,
        "There is no function named \"bye\" in namespace ns::."
    );
    assert_eq!(val("ns::hello()"), "\"hi\"");
}

#[test]
fn function_calls_not_allowed_without_functions() {
    let out = run_with("f(1)", test_vars(), None);
    assert_eq!(
        out.diags,
        vec![e(
            "Function calls not allowed",
            "Functions may not be called here.",
            "f(1)"
        )]
    );
}

#[test]
fn function_suggestions_come_from_the_current_scope_only() {
    // unverified: hcl lists `ctx.Functions` of the calling context only; not observable through the oracle.
    let table = test_functions();
    let root = Scope::root(&table);
    let child = root.child([("x".to_string(), num("1"))].into_iter().collect());
    let mut map = SourceMap::new();
    let id = map.add("t.hcl", "uper(x)");
    let (expr, _) = parse_expression(map.get(id));
    let (_, diags) = eval(&expr, id, &child);
    assert_eq!(
        diags[0].detail.as_deref(),
        Some("There is no function named \"uper\".")
    );
    let (v, diags) = eval(&expr, id, &root);
    assert!(!v.is_known());
    assert!(
        diags[0]
            .detail
            .as_deref()
            .unwrap()
            .ends_with("Did you mean \"upper\"?")
    );
}

#[test]
fn argument_count_errors() {
    assert_eq!(
        err("pair(\"a\")"),
        e(
            "Not enough function arguments",
            "Function \"pair\" expects 2 argument(s). Missing value for \"b\".",
            ")"
        )
    );
    // A template's start is its first part: the literal inside the quotes.
    assert_eq!(
        err("upper(\"a\", \"b\", \"c\")"),
        e(
            "Too many function arguments",
            "Function \"upper\" expects only 1 argument(s).",
            "b"
        )
    );
    // A call argument's start is its name and open parenthesis.
    assert_eq!(err("upper(\"a\", upper(\"b\"))").2, "upper(");
    assert_eq!(
        err("can()").1,
        "Function \"can\" expects 1 argument(s). Missing value for \"expression\"."
    );
}

#[test]
fn not_enough_arguments_says_at_least_for_variadic_functions() {
    // unverified: the oracle's variadic functions differ; text follows FunctionCallExpr.
    let mut table = test_functions();
    table.insert(Function::new(
        "join",
        vec![Param::new("sep", Type::String)],
        Some(Param::new("lists", Type::String)),
        Type::String,
        |_, _| Ok(Value::string("")),
    ));
    let out = run_with("join()", test_vars(), Some(&table));
    assert_eq!(
        out.diags[0].1,
        "Function \"join\" expects at least 1 argument(s). Missing value for \"sep\"."
    );
}

#[test]
fn invalid_function_argument_from_conversion() {
    assert_eq!(
        err("upper([1])"),
        e(
            "Invalid function argument",
            "Invalid value for \"str\" parameter: string required, but have tuple.",
            "["
        )
    );
    assert_eq!(
        err("pair(\"a\", \"x\" )").1,
        "Invalid value for \"b\" parameter: a number is required."
    );
}

#[test]
fn argument_errors_skip_the_call() {
    let out = run("upper(nosuch)");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(show(&out.value), "unknown(dynamic)");
}

#[test]
fn null_arguments_are_argument_errors() {
    assert_eq!(
        err("upper(null)"),
        e(
            "Invalid function argument",
            "Invalid value for \"str\" parameter: argument must not be null.",
            "null"
        )
    );
    assert_eq!(val("isnull(null)"), "true");
    assert_eq!(val("isnull(1)"), "false");
}

#[test]
fn unknown_and_dynamic_arguments_skip_the_implementation() {
    // unverified: the oracle has none of these test functions; follows cty's Function.Call.
    assert_eq!(val("upper(unk_s)"), "unknown(string)");
    assert_eq!(val("sum(1, unk_n)"), "unknown(number)");
    assert_eq!(val("strict(dyn)"), "unknown(dynamic)");
    // `dyn` converts to an unknown string first, so the null is still checked.
    assert_eq!(
        err("pair(dyn, null)").1,
        "Invalid value for \"b\" parameter: argument must not be null."
    );
    assert_eq!(val("isnull(dyn)"), "false");
    assert_eq!(
        err("strict(null)").1,
        "Invalid value for \"val\" parameter: argument must not be null."
    );
}

#[test]
fn function_errors() {
    // unverified: the oracle has none of these test functions; follows FunctionCallExpr's ArgError mapping.
    assert_eq!(
        err("positive(-1)"),
        e(
            "Invalid function argument",
            "Invalid value for \"n\" parameter: must be positive.",
            "-"
        )
    );
    assert_eq!(
        err("boom()"),
        e(
            "Error in function call",
            "Call to function \"boom\" failed: it went bang.",
            "boom("
        )
    );
    assert_eq!(
        err("badindex()"),
        e(
            "Error in function call",
            "Call to function \"badindex\" failed: nope.",
            "badindex("
        )
    );
    assert_eq!(
        err("badvar()"),
        e(
            "Invalid function argument",
            "Invalid value for \"rest\" parameter: nope.",
            "badvar()"
        )
    );
    assert_eq!(
        err("typefail(unk_n)").1,
        "Invalid value for \"x\" parameter: type says no."
    );
    assert_eq!(
        err("sum()").1,
        "Call to function \"sum\" failed: must pass at least one number."
    );
}

#[test]
fn expanding_arguments() {
    assert_eq!(val("sum([1, 2, 3]...)"), "6");
    assert_eq!(val("sum(l...)"), "6");
    assert_eq!(val("sum(unk_list...)"), "unknown(dynamic)");
    assert_eq!(val("sum(dyn...)"), "unknown(dynamic)");
    assert_eq!(
        err("sum(null_list...)"),
        e(
            "Invalid expanding argument value",
            "The expanding argument (indicated by ...) must not be null.",
            "null_list"
        )
    );
    assert_eq!(
        err("sum(null...)").1,
        "The expanding argument (indicated by ...) must not be null."
    );
    assert_eq!(
        err("sum({a = 1}...)").1,
        "The expanding argument (indicated by ...) must be of a tuple, list, or set type."
    );
    // Expanded elements are literals with the expanded expression's range.
    assert_eq!(
        err("upper([\"a\", \"b\"]...)"),
        e(
            "Too many function arguments",
            "Function \"upper\" expects only 1 argument(s).",
            "[\"a\", \"b\"]"
        )
    );
}

#[test]
fn try_returns_the_first_success() {
    assert_eq!(val("try(nosuch, 1)"), "1");
    assert_eq!(val("try([1][5], {a = 1}.a, 3)"), "1");
    assert_eq!(val("try(null)"), "null(dynamic)");
    assert_eq!(val("try([1, 2]...)"), "1");
}

#[test]
fn try_is_dynamic_when_the_result_is_not_wholly_known() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("try(unk_s, 1)"), "unknown(dynamic)");
    assert_eq!(val("try(partial, 1)"), "unknown(dynamic)");
    assert_eq!(val("try(nosuch, [unk_n])"), "unknown(dynamic)");
}

#[test]
fn try_failure_message() {
    assert_eq!(
        err("try(nosuch, [1][2])"),
        e(
            "Error in function call",
            "Call to function \"try\" failed: no expression succeeded:\n- Unknown variable (at test.hcl:1,5-11)\n  There is no variable named \"nosuch\".\n- Invalid index (at test.hcl:1,16-19)\n  The given key does not identify an element in this collection value.\n\nAt least one expression must produce a successful result.",
            "try("
        )
    );
    assert_eq!(
        err("try()").1,
        "Call to function \"try\" failed: at least one argument is required."
    );
}

#[test]
fn try_without_sources_prints_byte_ranges() {
    // unverified: our own fallback; Go always has a file name and positions.
    let table = test_functions();
    let scope = Scope::root(&table);
    let mut map = SourceMap::new();
    let id = map.add("t.hcl", "try([][0])");
    let (expr, _) = parse_expression(map.get(id));
    let (_, diags) = eval(&expr, id, &scope);
    assert!(diags[0].detail.as_deref().unwrap().contains("(at 6-9)"));
}

#[test]
fn can_reports_success() {
    assert_eq!(val("can(1)"), "true");
    assert_eq!(val("can(nosuch)"), "false");
    assert_eq!(val("can([1][3])"), "false");
    assert_eq!(val("can(unk_s)"), "unknown(bool)");
    assert_eq!(val("can({a = partial})"), "unknown(bool)");
    assert_eq!(
        err("can(1, 2)"),
        e(
            "Too many function arguments",
            "Function \"can\" expects only 1 argument(s).",
            "2"
        )
    );
}

#[test]
fn a_panicking_function_is_an_error_not_a_crash() {
    let mut table = test_functions();
    table.insert(crate::eval::table::Function::new(
        "explode",
        Vec::new(),
        None,
        Type::String,
        |_, _| panic!("index out of range"),
    ));
    let out = run_with("explode()", test_vars(), Some(&table));
    assert_eq!(
        out.diags,
        vec![e(
            "Error in function call",
            "Call to function \"explode\" failed: panic in function implementation: index out of range.",
            "explode("
        )]
    );
}
