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
fn cel_inputs_run_cleanly() {
    assert!(replay("cel", fuzzing::targets::cel) > 0);
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
fn lsp_inputs_run_cleanly() {
    assert!(replay("lsp", fuzzing::targets::lsp) > 0);
}

/// The language server's target without cargo-fuzz (which needs nightly): `FUZZ_ROUNDS`
/// inputs (default 200) from a seeded generator — random descriptions of sessions, and the
/// committed `lsp` inputs with random bytes changed, inserted or removed — each run through the
/// target; prints the figures (`FUZZ_SEED=n` to vary the inputs). A panic is a finding: the
/// input is written to `fuzz/artifacts/lsp/` first.
#[test]
#[ignore = "a bounded fuzzing loop, not a test: run it by name"]
fn lsp_random() {
    let rounds: u64 = std::env::var("FUZZ_ROUNDS").map_or(200, |n| n.parse().unwrap());
    let mut state: u64 =
        std::env::var("FUZZ_SEED").map_or(0x9E37_79B9_7F4A_7C15, |n| n.parse().unwrap());
    let mut next = move || {
        // xorshift64*: deterministic, no dependency.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/lsp");
    let seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/artifacts/lsp");
    let start = std::time::Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    for round in 0..rounds {
        let mut data: Vec<u8> = if round % 2 == 0 {
            let len = (next() % 2048) as usize;
            let mut d: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if let Some(first) = d.first_mut() {
                *first |= 1;
            }
            d
        } else {
            let mut d = seeds[(next() % seeds.len() as u64) as usize].clone();
            for _ in 0..1 + next() % 8 {
                let at = (next() % (d.len() as u64 + 1)) as usize;
                match next() % 3 {
                    0 if at < d.len() => d[at] = next() as u8,
                    1 => d.insert(at, next() as u8),
                    _ if at < d.len() => {
                        d.remove(at);
                    }
                    _ => {}
                }
            }
            d
        };
        if data.is_empty() {
            data.push(1);
        }
        std::fs::create_dir_all(&artifacts).unwrap();
        let pending = artifacts.join(format!("pending-{round}"));
        std::fs::write(&pending, &data).unwrap();
        let one = std::time::Instant::now();
        fuzzing::targets::lsp(&data);
        slowest = slowest.max(one.elapsed());
        std::fs::remove_file(&pending).unwrap();
    }
    let _ = std::fs::remove_dir(&artifacts);
    eprintln!(
        "lsp: {rounds} inputs in {:?}, slowest {slowest:?}, no finding",
        start.elapsed()
    );
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
