//! libyaml's scalar analysis (`yaml_emitter_analyze_scalar`) and the style it settles on
//! (`yaml_emitter_select_scalar_style`).

use super::{MAX_SIMPLE_KEY_BYTES, Style};

/// yaml_emitter_check_simple_key for a string key.
pub(super) fn is_simple_key(key: &str) -> bool {
    !analyze(key).multiline && key.len() <= MAX_SIMPLE_KEY_BYTES
}

/// yaml_emitter_select_scalar_style for a block context without tags (the encoder marks every
/// scalar implicit, and no scalar is ever inside a flow collection here).
pub(super) fn select_style(requested: Style, a: &Analysis, simple_key: bool, empty: bool) -> Style {
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!a.block_plain_allowed || (empty && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !a.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!a.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// What yaml_emitter_analyze_scalar concludes about a scalar (the flow-context verdicts are
/// left out: scalars never appear in flow collections here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// The facts yaml_emitter_analyze_scalar collects in its pass over the text.
#[derive(Debug, Default)]
struct Scan {
    block_indicators: bool,
    special_characters: bool,
    line_breaks: bool,
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
}

pub(super) fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    // Names, versions and most values: letters, digits and `-_./` only, which hold no
    // blank, break, special character or indicator other than a leading lone `-`, `---`
    // or `...`. Decided without the character-by-character scan.
    if text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
    {
        let indicator = text == "-" || text.starts_with("---") || text.starts_with("...");
        return Analysis {
            multiline: false,
            block_plain_allowed: !indicator,
            single_quoted_allowed: true,
            block_allowed: true,
        };
    }
    scanned(text)
}

/// [`analyze`] by the scan of every character.
fn scanned(text: &str) -> Analysis {
    let s = scan(text);
    let edges = s.leading_space || s.leading_break || s.trailing_space || s.trailing_break;
    let mixed = s.break_space || s.space_break || s.special_characters;
    Analysis {
        multiline: s.line_breaks,
        block_plain_allowed: !(edges || mixed || s.line_breaks || s.block_indicators),
        single_quoted_allowed: !mixed,
        block_allowed: !(s.trailing_space || s.space_break || s.special_characters),
    }
}

fn scan(text: &str) -> Scan {
    let mut s = Scan {
        block_indicators: text.starts_with("---") || text.starts_with("..."),
        ..Scan::default()
    };
    let mut preceded_by_blank = true;
    let (mut previous_space, mut previous_break) = (false, false);
    let mut chars = text.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = next.is_none();
        let followed_by_blank = matches!(next, None | Some(' ' | '\t'));
        s.block_indicators |= is_block_indicator(c, first, preceded_by_blank, followed_by_blank);
        s.special_characters |= !is_printable(c);
        if c == ' ' {
            s.leading_space |= first;
            s.trailing_space |= last;
            s.break_space |= previous_break;
            (previous_space, previous_break) = (true, false);
        } else if is_break(c) {
            s.line_breaks = true;
            s.leading_break |= first;
            s.trailing_break |= last;
            s.space_break |= previous_space;
            (previous_space, previous_break) = (false, true);
        } else {
            (previous_space, previous_break) = (false, false);
        }
        preceded_by_blank = c == ' ' || c == '\t' || c == '\0' || is_break(c);
        first = false;
    }
    s
}

/// Whether `c` makes the text unusable as a plain scalar in block context.
fn is_block_indicator(
    c: char,
    first: bool,
    preceded_by_blank: bool,
    followed_by_blank: bool,
) -> bool {
    if first {
        match c {
            '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%'
            | '@' | '`' => true,
            '?' | ':' | '-' => followed_by_blank,
            _ => false,
        }
    } else {
        match c {
            ':' => followed_by_blank,
            '#' => preceded_by_blank,
            _ => false,
        }
    }
}

/// libyaml's `is_printable`, which it tests on UTF-8 bytes: in particular nothing outside the
/// Basic Multilingual Plane counts as printable, so emoji are escaped.
pub(super) fn is_printable(c: char) -> bool {
    matches!(u32::from(c), 0x0a | 0x20..=0x7e | 0xa0..=0xd7ff | 0xe000..=0xfffd) && c != '\u{feff}'
}

/// libyaml's `is_break`: CR, LF, NEL, LS and PS.
pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::{analyze, scanned};

    /// The shortcut for words of letters, digits and `-_./` concludes what the scan does.
    #[test]
    fn words_are_analysed_as_the_scan_would() {
        for word in [
            "a",
            "-",
            "--",
            "---",
            "---a",
            "...",
            "..",
            "-a",
            "a-",
            ".a",
            "/",
            "a/b",
            "v1beta1",
            "s3.aws.upbound.io/v1beta1",
            "_",
            "0",
            "1.5",
            "-1",
            "true",
            "null",
            "a.b-c_d/e",
        ] {
            assert_eq!(analyze(word), scanned(word), "{word:?}");
        }
    }
}
