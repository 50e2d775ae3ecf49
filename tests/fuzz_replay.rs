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
        let start = std::time::Instant::now();
        run(&data);
        eprintln!("replayed {} in {:?}", file.display(), start.elapsed());
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

#[test]
fn grpc_inputs_run_cleanly() {
    assert!(replay("grpc", fuzzing::targets::grpc) > 0);
}

/// Prints the text an input stands for (`FUZZ_SHOW=path FUZZ_KIND=eval|program cargo test
/// --test fuzz_replay show -- --ignored --nocapture`), to read a finding; `FUZZ_OUT=file`
/// also writes it whole to that file.
#[test]
#[ignore = "a tool, not a test: run it by name"]
fn show() {
    let path = std::env::var("FUZZ_SHOW").expect("FUZZ_SHOW=path");
    let program = std::env::var("FUZZ_KIND").is_ok_and(|k| k == "program");
    let data = std::fs::read(path).unwrap();
    let names = fuzzing::function_names();
    let text = fuzzing::input_text(&data, &names, program);
    if let (Some(text), Ok(out)) = (&text, std::env::var("FUZZ_OUT")) {
        std::fs::write(out, text).unwrap();
    }
    match text {
        Some(text) if text.len() > 2000 => println!(
            "{} bytes: {} … {}",
            text.len(),
            &text[..text.floor_char_boundary(1000)],
            &text[text.floor_char_boundary(text.len() - 1000)..]
        ),
        Some(text) => println!("{text}"),
        None => println!("(no text: not UTF-8, or the description ran out of bytes)"),
    }
}
