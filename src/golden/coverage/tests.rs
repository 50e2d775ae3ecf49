//! Unit tests of the coverage sums, the paths shown and the LCOV reader.

use super::*;
use crate::eval::coverage::CoveredFile;

const TEXT: &str = "function f {\n  arg x {}\n  body = x\n}\n\
                    resource a {\n  condition = true\n  body = {}\n}\n\
                    resource b {\n  body = { v = 1 > 0 ? 1 : 2 }\n}\n";

fn render(blocks: &[u32], condition: [u64; 3], arms: [u64; 2], calls: u64) -> RenderCoverage {
    let mut r = RenderCoverage {
        files: vec![CoveredFile {
            path: "app/./x/../main.hcl".into(),
            text: TEXT.into(),
        }],
        ..RenderCoverage::default()
    };
    r.blocks = blocks.iter().map(|b| (0, *b)).collect();
    let at = |needle: &str| TEXT.find(needle).unwrap() as u32;
    r.conditions.insert((0, at("true")), condition);
    r.arms.insert((0, at("1 > 0")), arms);
    if calls > 0 {
        r.calls.insert("f".into(), calls);
    }
    r
}

#[test]
fn renders_of_one_composition_add_up() {
    let a = TEXT.find("resource a").unwrap() as u32;
    let coverage = Coverage::new("/work");
    coverage.record(&render(&[a], [1, 0, 0], [0, 0], 0));
    coverage.record(&render(&[a], [0, 0, 1], [1, 0], 2));
    let reports = coverage.report();
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(report.name, "app");
    assert_eq!(report.renders, 2);
    assert_eq!(report.files[0].path, "app/main.hcl");
    assert_eq!(report.totals.blocks, Ratio { hit: 1, found: 2 });
    assert_eq!(report.totals.branches, Ratio { hit: 3, found: 5 });
    assert_eq!(report.totals.functions, Ratio { hit: 1, found: 1 });
    assert_eq!(
        summary_line(report.totals),
        "blocks 1/2, branches 3/5, functions 1/1, total 5/8 (62.5%)"
    );
    assert!(report.totals.total().below(62.6));
    assert!(!report.totals.total().below(62.5));
}

#[test]
fn the_tracefile_reads_back() {
    let a = TEXT.find("resource a").unwrap() as u32;
    let coverage = Coverage::new("/work");
    coverage.record(&render(&[a], [1, 0, 0], [0, 0], 3));
    let text = lcov::write(&coverage.report());
    let files = lcov::parse(&text);
    assert_eq!(files.len(), 1);
    let file = &files[0];
    assert_eq!(file.path, "app/main.hcl");
    assert_eq!(file.lines.get(&5), Some(&1));
    assert_eq!(file.lines.get(&9), Some(&0));
    assert_eq!(
        file.branches[&6],
        [(0, 0, Some(1)), (0, 1, Some(0)), (0, 2, Some(0))]
    );
    assert_eq!(file.branches[&10], [(1, 0, None), (1, 1, None)]);
    assert_eq!(file.functions["f"], (1, 3));
}

#[test]
fn paths_outside_the_base_stay_absolute() {
    assert_eq!(
        shown(Path::new("/work/a"), "../b/main.hcl"),
        "/work/b/main.hcl"
    );
    assert_eq!(
        shown(Path::new("/work/a"), "/work/a/x/main.hcl"),
        "x/main.hcl"
    );
    assert_eq!(shown(Path::new(""), "x/./y.hcl"), "x/y.hcl");
}

#[test]
fn malformed_tracefiles_are_read_as_far_as_they_make_sense() {
    let files = lcov::parse(
        "DA:1,1\nSF:a.hcl\nDA:x,1\nDA:2,3\nBRDA:2\nFNDA:1\nend_of_record\nSF:a.hcl\nDA:2,1\nend_of_record\n",
    );
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].lines.iter().collect::<Vec<_>>(), [(&2, &4)]);
    assert!(files[0].branches.is_empty());
}

#[test]
fn nothing_to_cover_is_complete() {
    assert_eq!(percent_text(Ratio::default()), "100.0%");
    assert_eq!(
        percent_text(Ratio {
            hit: 1999,
            found: 2000
        }),
        "99.9%"
    );
    assert!(!Ratio::default().below(100.0));
}
