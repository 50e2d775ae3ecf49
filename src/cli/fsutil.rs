//! The binary's side of writing users' files: the interrupt handler that exits. The writing
//! itself is the library's (`fnhcl::source::write`).

/// Removes the temporary file in flight on SIGINT, SIGTERM or SIGHUP, then exits 130, so an
/// interrupted `fmt` leaves no temporary file (the file being replaced stays whole: the rename
/// either happened or did not). Installed by commands that write users' files.
pub fn clean_up_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        // Held until the process is gone: no other temporary file is created in between.
        let _held = fnhcl::source::write::abandon_in_flight();
        std::process::exit(130);
    });
}
