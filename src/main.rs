//! The `fnhcl` binary: everything lives in the library except the command line in `cli`.

mod cli;

// mimalloc instead of the system allocator: evaluation makes many small, short-lived
// allocations, and glibc's allocator spends a third of a large render consolidating and
// unlinking free chunks (issue 14's profile).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
