//! Lexical diagnostics: hclsyntax's `checkInvalidTokens`, with its texts and its limits on how
//! often each kind is reported.

use super::lex::{Token, TokenKind};
use crate::diagnostics::{Code, Diagnostic};
use crate::source::SourceFile;

/// Diagnostics for tokens the language does not allow (hclsyntax's `checkInvalidTokens`),
/// one token at a time as the parser scans them.
#[derive(Debug, Default)]
pub(super) struct InvalidTokens {
    out: Vec<Diagnostic>,
    bitwise: u32,
    backtick: u32,
    apostrophe: u32,
    semicolon: u32,
}

impl InvalidTokens {
    /// Every diagnostic so far, in the order of the tokens.
    pub(super) fn finish(self) -> Vec<Diagnostic> {
        self.out
    }

    /// Looks at the next token of `file`. Most tokens take only the fall-through arm (inlined
    /// into the scanning loop, that is a jump per token); the diagnostics are built out of line.
    #[inline(always)]
    pub(super) fn see(&mut self, file: &SourceFile, token: Token) {
        match token.kind {
            TokenKind::BitwiseAnd
            | TokenKind::BitwiseOr
            | TokenKind::BitwiseXor
            | TokenKind::BitwiseNot
                if self.bitwise < 4 =>
            {
                let suggestion = match token.kind {
                    TokenKind::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    TokenKind::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    TokenKind::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                self.report(
                    file,
                    token,
                    "Unsupported operator",
                    &format!("Bitwise operators are not supported.{suggestion}"),
                );
                self.bitwise += 1;
            }
            TokenKind::Backtick => {
                if self.backtick % 2 == 0 {
                    self.report(
                        file,
                        token,
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
                    );
                }
                if self.backtick <= 2 {
                    self.backtick += 1;
                }
            }
            TokenKind::Apostrophe => {
                if self.apostrophe % 2 == 0 {
                    self.report(
                        file,
                        token,
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                    );
                }
                if self.apostrophe <= 2 {
                    self.apostrophe += 1;
                }
            }
            TokenKind::Semicolon if self.semicolon < 1 => {
                self.report(
                    file,
                    token,
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                );
                self.semicolon += 1;
            }
            TokenKind::QuotedNewline => self.report(
                file,
                token,
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
            ),
            TokenKind::Invalid => match token.text(file.text()) {
                "\u{201c}" | "\u{201d}" => self.report(
                    file,
                    token,
                    "Invalid character",
                    "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
                ),
                _ => self.report(
                    file,
                    token,
                    "Invalid character",
                    "This character is not used within the language.",
                ),
            },
            _ => {}
        }
    }

    /// One diagnostic at `token`.
    #[cold]
    fn report(&mut self, file: &SourceFile, token: Token, summary: &str, detail: &str) {
        self.out.push(
            Diagnostic::new(Code::S001, summary)
                .with_detail(detail)
                .with_primary(file.span(token.range()), None),
        );
    }
}
