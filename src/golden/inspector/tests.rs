//! Unit tests of the pipeline inspector log reader: record shapes, selection, case files.

use super::*;

/// A REQUEST line in the sidecar's JSON form (keys sorted as Go's `encoding/json` writes a
/// map), for step `step` of XR `xr`.
fn request_line(step: &str, function: &str, xr: &str, n: u32, input: &str) -> String {
    let iteration = if n == 0 {
        String::new()
    } else {
        format!("\"iteration\":{n},")
    };
    format!(
        "{{\"meta\":{{\"compositionMeta\":{{\"compositeResourceApiVersion\":\"example.org/v1\",\"compositeResourceKind\":\"XApp\",\"compositeResourceName\":\"{xr}\",\"compositeResourceNamespace\":\"team\",\"compositeResourceUid\":\"u-1\",\"compositionName\":\"apps\"}},\"functionName\":\"{function}\",{iteration}\"spanId\":\"s-{step}-{xr}-{n}\",\"stepName\":\"{step}\",\"timestamp\":\"2026-01-15T10:30:00Z\",\"traceId\":\"t-1\"}},\"payload\":{{\"input\":{input},\"observed\":{{\"composite\":{{\"resource\":{{\"apiVersion\":\"example.org/v1\",\"kind\":\"XApp\",\"metadata\":{{\"name\":\"{xr}\",\"namespace\":\"team\"}}}}}}}}}},\"type\":\"REQUEST\"}}"
    )
}

const HCL_INPUT: &str =
    r#"{"apiVersion":"hcl.fn.crossplane.io/v1beta1","kind":"HclInput","hcl":"x"}"#;
const PAT_INPUT: &str = r#"{"apiVersion":"pt.fn.crossplane.io/v1beta1","kind":"Resources"}"#;

fn log_of(lines: &[String]) -> Log {
    parse(&lines.join("\n"))
}

#[test]
fn records_are_found_behind_prefixes_and_other_lines_are_skipped() {
    let text = [
        "{\"level\":\"info\",\"msg\":\"listening\"}".to_string(),
        format!(
            "2026-01-15T10:30:00.1Z {}",
            request_line("hcl", "function-hcl", "a", 0, HCL_INPUT)
        ),
        "{\"meta\":{\"spanId\":\"s-hcl-a-0\"},\"type\":\"RESPONSE\",\"error\":\"boom\"}".into(),
        "{\"type\":\"REQUEST\",\"meta\":{},\"payl".into(),
        "plain text".into(),
    ];
    let log = log_of(&text);
    assert!(is_inspector_log(&text.join("\n")));
    assert_eq!(log.requests.len(), 1);
    assert_eq!(log.requests[0].line, 2);
    assert_eq!(log.requests[0].error.as_deref(), Some("boom"));
    assert_eq!(log.malformed.len(), 1);
    assert!(log.malformed[0].summary.starts_with("line 4: not JSON"));
    assert!(!is_inspector_log("{\"level\":\"info\"}\nno records"));
}

#[test]
fn the_default_is_the_last_function_hcl_request() {
    let log = log_of(&[
        request_line("hcl", "function-hcl", "a", 0, HCL_INPUT),
        request_line("hcl", "function-hcl", "a", 1, HCL_INPUT),
        request_line("pat", "function-patch-and-transform", "a", 0, PAT_INPUT),
    ]);
    assert_eq!(choose(&log, &Select::default()).unwrap(), 1);
    assert_eq!(log.requests[1].iteration, 1);
    assert_eq!(
        log.requests[1].describe(),
        "step `hcl` (function-hcl, index 0, iteration 1), XR XApp team/a"
    );
}

#[test]
fn step_xr_and_index_narrow_the_choice() {
    let log = log_of(&[
        request_line("hcl", "function-hcl", "a", 0, HCL_INPUT),
        request_line("hcl", "function-hcl", "b", 0, HCL_INPUT),
        request_line("other", "my-fn", "b", 0, HCL_INPUT),
        request_line("pat", "function-patch-and-transform", "b", 0, PAT_INPUT),
    ]);
    let select = |step: Option<&str>, xr: Option<&str>, index: Option<usize>| Select {
        step: step.map(str::to_string),
        xr: xr.map(str::to_string),
        index,
    };
    assert_eq!(choose(&log, &select(None, Some("a"), None)).unwrap(), 0);
    assert_eq!(
        choose(&log, &select(None, Some("team/b"), None)).unwrap(),
        2
    );
    assert_eq!(
        choose(&log, &select(Some("hcl"), None, Some(2))).unwrap(),
        1
    );
    assert_eq!(choose(&log, &select(None, None, Some(1))).unwrap(), 0);
    let not_hcl = choose(&log, &select(Some("pat"), None, Some(1))).unwrap_err();
    assert_eq!(not_hcl.code, Code::I008);
    let no_hcl = choose(&log, &select(Some("pat"), None, None)).unwrap_err();
    assert_eq!(no_hcl.code, Code::I005);
    let unknown = choose(&log, &select(Some("nope"), None, None)).unwrap_err();
    assert_eq!(unknown.code, Code::I007);
    assert!(unknown.detail.as_deref().unwrap().contains("line 4"));
    let past = choose(&log, &select(None, None, Some(5))).unwrap_err();
    assert_eq!(past.code, Code::I017);
    let zero = choose(&log, &select(None, None, Some(0))).unwrap_err();
    assert_eq!(zero.code, Code::I017);
    assert_eq!(
        choose(&Log::default(), &Select::default())
            .unwrap_err()
            .code,
        Code::I018
    );
}

#[test]
fn observed_resources_get_their_names_and_extra_resources_are_deduplicated() {
    let payload = serde_json::json!({
        "observed": {
            "composite": {"resource": {"kind": "XApp", "metadata": {"name": "a"}}},
            "resources": {
                "cm": {"resource": {"kind": "ConfigMap", "metadata": {"name": "a-cm"}}},
                "secret": {"resource": {"kind": "Secret", "data": {"k": REDACTED}},
                           "connectionDetails": {"k": "KipSRURBQ1RFRCoq"}}
            }
        },
        "desired": {"resources": {"cm": {"resource": {"kind": "ConfigMap"}}}},
        "extraResources": {"one": {"items": [{"resource": {"kind": "Env", "metadata": {"name": "e"}}}]}},
        "requiredResources": {"one": {"items": [{"resource": {"kind": "Env", "metadata": {"name": "e"}}}]}},
        "context": {"k": {"v": 1}},
        "credentials": {"c": {"credentialData": {"data": {"x": "KipSRURBQ1RFRCoq"}}}}
    });
    let log = Log {
        requests: vec![Request {
            line: 7,
            step: "hcl".into(),
            function: "function-hcl".into(),
            step_index: 0,
            iteration: 0,
            xr: String::new(),
            xr_name: String::new(),
            xr_namespace: String::new(),
            trace: String::new(),
            span: String::new(),
            hcl: true,
            error: None,
        }],
        payloads: vec![payload],
        malformed: Vec::new(),
    };
    let (files, left_out) = case_files(&log, 0).unwrap();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "xr.yaml",
            "observed.yaml",
            "extra-resources.yaml",
            "context.yaml"
        ]
    );
    assert!(
        files[1]
            .1
            .contains("crossplane.io/composition-resource-name: cm")
    );
    assert!(
        files[1]
            .1
            .contains("crossplane.io/composition-resource-name: secret")
    );
    assert_eq!(files[2].1.matches("kind: Env").count(), 1);
    assert_eq!(files[3].1, "k:\n  v: 1\n");
    assert_eq!(left_out.len(), 3, "{left_out:?}");
}

#[test]
fn a_request_without_an_xr_or_of_the_wrong_shape_is_refused() {
    let mut log = log_of(&[request_line("hcl", "function-hcl", "a", 0, HCL_INPUT)]);
    log.payloads[0] = serde_json::json!({"observed": {}});
    assert_eq!(case_files(&log, 0).unwrap_err().code, Code::I018);
    log.payloads[0] = serde_json::json!({"observed": "x"});
    assert!(
        case_files(&log, 0)
            .unwrap_err()
            .summary
            .contains("not a RunFunctionRequest")
    );
    let text = r#"{"meta":{},"payload":"not json","type":"REQUEST"}"#;
    let log = parse(text);
    assert!(log.requests.is_empty());
    assert_eq!(log.malformed.len(), 1);
}

#[test]
fn a_record_nested_past_the_json_limit_is_a_warning_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let text = format!(r#"{{"meta":{{}},"payload":{{"input":{deep}}},"type":"REQUEST"}}"#);
    let log = parse(&text);
    assert!(log.requests.is_empty());
    assert!(
        log.malformed[0].summary.contains("recursion limit"),
        "{:?}",
        log.malformed
    );
}
