//! The one exit-status enum and its process codes.

use std::process::ExitCode;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Success.
    Success,
    /// Findings, a failed render, or unformatted files.
    Failure,
    /// Usage, input, I/O or internal error. clap's usage errors exit 2 as well.
    Error,
    /// `diff` found differences (crossplane-diff's code).
    Differences,
    /// `render --detailed-exit-code`: a step returned a fatal result (`crossplane internal
    /// render`'s code).
    Fatal,
}

impl ExitStatus {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
            ExitStatus::Differences | ExitStatus::Fatal => 3,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status.code())
    }
}
