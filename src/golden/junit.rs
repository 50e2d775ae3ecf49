//! The JUnit XML report of a run of golden tests, for CI systems.

use super::discover::Case;
use std::time::Duration;

/// Text as XML can hold it in an attribute or an element.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {}
            c => out.push(c),
        }
    }
    out
}

/// Strips terminal colour codes (the failure text may be coloured).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The JUnit XML report of a run: each case with its time and, when it failed, what to show
/// for it (`None` when it passed or was updated; colour codes are stripped).
pub fn junit_xml(cases: &[Case], results: &[(Option<&str>, Duration)]) -> String {
    let failures = results.iter().filter(|(o, _)| o.is_some()).count();
    let total: f64 = results.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">\n  <testsuite name=\"fnhcl test\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{total:.3}\">\n",
        cases.len(),
        cases.len()
    ));
    for (case, (outcome, time)) in cases.iter().zip(results) {
        let name = xml_escape(&case.id);
        let time = time.as_secs_f64();
        match outcome {
            Some(why) => {
                let why = strip_ansi(why);
                let first = why.lines().next().unwrap_or("failed");
                xml.push_str(&format!(
                    "    <testcase classname=\"fnhcl\" name=\"{name}\" time=\"{time:.3}\">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    xml_escape(first),
                    xml_escape(&why)
                ));
            }
            None => xml.push_str(&format!(
                "    <testcase classname=\"fnhcl\" name=\"{name}\" time=\"{time:.3}\"/>\n"
            )),
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}
