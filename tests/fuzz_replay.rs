//! Replays the committed fuzz inputs in `cargo test`: every file under
//! `fuzz/regressions/TARGET/` goes through the very code the cargo-fuzz target `TARGET` runs
//! (`fuzz/src/targets.rs`, compiled in here). Each file is an input a fuzzer once found
//! crashing, hanging or exhausting memory, or one kept from a minimised corpus; a panic or
//! an abort here is a regression. See fuzz/README.md.

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod fuzzing;

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        eprintln!("replaying {}", file.display());
        run(&data);
    }
    files.len()
}

#[test]
fn eval_inputs_run_cleanly() {
    assert!(replay("eval", fuzzing::targets::eval) > 0);
}

#[test]
fn program_inputs_run_cleanly() {
    assert!(replay("program", fuzzing::targets::program) > 0);
}

#[test]
fn inputs_inputs_run_cleanly() {
    assert!(replay("inputs", fuzzing::targets::inputs) > 0);
}

#[test]
fn print_inputs_run_cleanly() {
    assert!(replay("print", fuzzing::targets::print) > 0);
}
