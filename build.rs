//! Links the `fnhcl` binary as a position-dependent executable on Linux with glibc (issue 34).
//!
//! A position-independent executable has every pointer in its data relocated by the dynamic
//! loader at start: about 30,000 relocations, which write to (and so copy) some 120 pages
//! before `main` runs, half of `fnhcl --version`'s page faults and a third of its time. Linked
//! at a fixed address, the pointers are final in the file. The libraries and dependencies are
//! unchanged (still position-independent code); only the executable's own load address is
//! fixed. Elsewhere (macOS, musl, other architectures' defaults) nothing changes.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if os == "linux" && env == "gnu" && matches!(arch.as_str(), "x86_64" | "aarch64") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
