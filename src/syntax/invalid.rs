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

    /// Looks at the next token of `file`.
    #[inline]
    pub(super) fn see(&mut self, file: &SourceFile, token: Token) {
        if matches!(
            token.kind,
            TokenKind::BitwiseAnd
                | TokenKind::BitwiseOr
                | TokenKind::BitwiseXor
                | TokenKind::BitwiseNot
                | TokenKind::Backtick
                | TokenKind::Apostrophe
                | TokenKind::Semicolon
                | TokenKind::QuotedNewline
                | TokenKind::Invalid
        ) {
            self.report(file, token);
        }
    }

    /// [`InvalidTokens::see`] for a kind it may report.
    #[cold]
    fn report(&mut self, file: &SourceFile, token: Token) {
        let InvalidTokens {
            out,
            bitwise,
            backtick,
            apostrophe,
            semicolon,
        } = self;
        let mut report = |summary: &str, detail: &str| {
            out.push(
                Diagnostic::new(Code::S001, summary)
                    .with_detail(detail)
                    .with_primary(file.span(token.range()), None),
            );
        };
        match token.kind {
            TokenKind::BitwiseAnd
            | TokenKind::BitwiseOr
            | TokenKind::BitwiseXor
            | TokenKind::BitwiseNot
                if *bitwise < 4 =>
            {
                let suggestion = match token.kind {
                    TokenKind::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    TokenKind::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    TokenKind::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                report(
                    "Unsupported operator",
                    &format!("Bitwise operators are not supported.{suggestion}"),
                );
                *bitwise += 1;
            }
            TokenKind::Backtick => {
                if *backtick % 2 == 0 {
                    report(
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
                    );
                }
                if *backtick <= 2 {
                    *backtick += 1;
                }
            }
            TokenKind::Apostrophe => {
                if *apostrophe % 2 == 0 {
                    report(
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                    );
                }
                if *apostrophe <= 2 {
                    *apostrophe += 1;
                }
            }
            TokenKind::Semicolon if *semicolon < 1 => {
                report(
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                );
                *semicolon += 1;
            }
            TokenKind::QuotedNewline => report(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
            ),
            TokenKind::Invalid => match token.text(file.text()) {
                "\u{201c}" | "\u{201d}" => report(
                    "Invalid character",
                    "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
                ),
                _ => report(
                    "Invalid character",
                    "This character is not used within the language.",
                ),
            },
            _ => {}
        }
    }
}
