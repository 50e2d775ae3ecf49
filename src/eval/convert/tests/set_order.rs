//! Tests of set deduplication, ordering and cty's set-hash text.

use super::*;
use crate::eval::convert::set_order::{number_hash_text, set_hash_text};

fn items(v: &Value) -> Vec<Value> {
    v.elements().to_vec()
}

fn assert_items(got: &Value, want: &[Value]) {
    let got = items(got);
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(g.raw_equals(w), "{got:?} vs {want:?}");
    }
}

#[test]
fn sets_dedup_and_order_as_cty() {
    assert_items(
        &set(TS, vec![s("b"), s("a"), s("c"), s("a")]),
        &[s("a"), s("b"), s("c")],
    );
    // Go byte order: upper case before lower, multi-byte after ASCII.
    assert_items(
        &set(TS, vec![s("é"), s("z"), s("a"), s("B")]),
        &[s("B"), s("a"), s("z"), s("é")],
    );
    assert_items(
        &set(TN, vec![n(10), n(9), num("1.5"), n(-1), num("10.0")]),
        &[n(-1), num("1.5"), n(9), n(10)],
    );
    assert_items(
        &set(TB, vec![b(true), b(false), b(true)]),
        &[b(false), b(true)],
    );
    // Unknowns are never equal to anything: all kept, after the known values, in order;
    // a null sorts last.
    let u1 = unk(TS);
    let u2 = unk_nn(TS);
    assert_items(
        &set(
            TS,
            vec![null(TS), u1.clone(), s("b"), u2.clone(), s("a"), null(TS)],
        ),
        &[s("a"), s("b"), u1, u2, null(TS)],
    );
    // Other element types order by the bytes of cty's set-hash text: attribute values in
    // name order, numbers as %.10g, strings quoted (so `<10;>` sorts before `<1;>`).
    let o = |i: i64| obj(&[("a", n(i))]);
    assert_items(
        &set(tobj(&[("a", TN)]), vec![o(2), o(10), o(1), o(2)]),
        &[o(10), o(1), o(2)],
    );
    assert_items(
        &set(
            tl(TS),
            vec![
                list(TS, vec![s("b")]),
                list(TS, vec![s("a"), s("z")]),
                list(TS, vec![]),
            ],
        ),
        &[
            list(TS, vec![s("a"), s("z")]),
            list(TS, vec![s("b")]),
            list(TS, vec![]),
        ],
    );
    // Equal hash text keeps first-seen order.
    let l = |u: Value| list(TS, vec![u]);
    assert_items(
        &set(tl(TS), vec![l(unk_nn(TS)), l(unk(TS))]),
        &[l(unk_nn(TS)), l(unk(TS))],
    );
}

#[test]
fn set_hash_text_matches_go() {
    let cases = [
        ("0", "0"),
        ("1", "1"),
        ("-2.5", "-2.5"),
        ("100", "100"),
        ("1.5", "1.5"),
        ("0.0001", "0.0001"),
        ("0.00001", "1e-05"),
        ("123456789", "123456789"),
        ("1234567890", "1234567890"),
        ("12345678901", "1.23456789e+10"),
        ("12345678905", "1.23456789e+10"),
        ("12345678915", "1.234567892e+10"),
        ("1234567890123", "1.23456789e+12"),
        ("99999999999", "1e+11"),
        ("1e20", "1e+20"),
        ("3.14159265358979", "3.141592654"),
    ];
    for (input, want) in cases {
        assert_eq!(
            number_hash_text(&Num::parse(input).unwrap()),
            want,
            "{input}"
        );
    }
    assert_eq!(number_hash_text(&Num::inf(false)), "+Inf");
    assert_eq!(number_hash_text(&Num::inf(true)), "-Inf");
    let v = obj(&[
        ("b", list(TS, vec![s("x\"y"), unk(TS)])),
        ("a", map(TB, &[("k", b(true))])),
        ("c", tup(vec![null(TN), n(7)])),
    ]);
    assert_eq!(set_hash_text(&v), r#"<{"k":T;};["x\"y";?;];<~;7;>;>"#);
}
