//! The Unicode class names Go 1.25's `regexp/syntax` accepts in `\\p{…}`.

/// Go 1.25's `canonicalName`: first letter upper case, the rest lower case, without `_`, `-`
/// and spaces.
fn canonical_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut first = true;
    for c in name.chars() {
        match c {
            '_' | '-' | ' ' => {}
            c if first => {
                out.push(c.to_ascii_uppercase());
                first = false;
            }
            c => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// Go 1.25's `unicodeTable`: the `regex` crate's name for a table and whether Go inverts it.
/// Go's `unicode.Scripts` is Unicode 15.0 and its keys are looked up by canonical name, so
/// scripts with an underscore or an inner capital (`Old_Italic`, `SignWriting`) are unknown.
pub(super) fn unicode_table(name: &str) -> Option<(&'static str, bool)> {
    let name = canonical_name(name);
    match name.as_str() {
        "Any" => return Some(("Any", false)),
        "Assigned" => return Some(("Cn", true)),
        "Ascii" => return Some(("ASCII", false)),
        "Lc" => return Some(("LC", false)),
        _ => {}
    }
    if let Some(cat) = CATEGORIES.iter().find(|c| **c == name) {
        return Some((cat, false));
    }
    if let Some(script) = SCRIPTS.iter().find(|s| **s == name) {
        return Some((script, false));
    }
    CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| canonical_name(alias) == name)
        .map(|(_, cat)| (*cat, false))
}

#[rustfmt::skip]
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
    "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
    "So", "Z", "Zl", "Zp", "Zs",
];

/// Unicode's long names for the general categories (Go's `unicode.CategoryAliases`).
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Other", "C"),
    ("Control", "Cc"),
    ("cntrl", "Cc"),
    ("Format", "Cf"),
    ("Unassigned", "Cn"),
    ("Private_Use", "Co"),
    ("Surrogate", "Cs"),
    ("Letter", "L"),
    ("Cased_Letter", "LC"),
    ("Lowercase_Letter", "Ll"),
    ("Modifier_Letter", "Lm"),
    ("Other_Letter", "Lo"),
    ("Titlecase_Letter", "Lt"),
    ("Uppercase_Letter", "Lu"),
    ("Mark", "M"),
    ("Combining_Mark", "M"),
    ("Spacing_Mark", "Mc"),
    ("Enclosing_Mark", "Me"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Decimal_Number", "Nd"),
    ("digit", "Nd"),
    ("Letter_Number", "Nl"),
    ("Other_Number", "No"),
    ("Punctuation", "P"),
    ("punct", "P"),
    ("Connector_Punctuation", "Pc"),
    ("Dash_Punctuation", "Pd"),
    ("Close_Punctuation", "Pe"),
    ("Final_Punctuation", "Pf"),
    ("Initial_Punctuation", "Pi"),
    ("Other_Punctuation", "Po"),
    ("Open_Punctuation", "Ps"),
    ("Symbol", "S"),
    ("Currency_Symbol", "Sc"),
    ("Modifier_Symbol", "Sk"),
    ("Math_Symbol", "Sm"),
    ("Other_Symbol", "So"),
    ("Separator", "Z"),
    ("Line_Separator", "Zl"),
    ("Paragraph_Separator", "Zp"),
    ("Space_Separator", "Zs"),
];

/// The Unicode 15.0 scripts whose names Go 1.25 can look up (one capitalised word).
#[rustfmt::skip]
const SCRIPTS: &[&str] = &[
    "Adlam", "Ahom", "Arabic", "Armenian", "Avestan", "Balinese", "Bamum", "Batak", "Bengali",
    "Bhaiksuki", "Bopomofo", "Brahmi", "Braille", "Buginese", "Buhid", "Carian", "Chakma", "Cham",
    "Cherokee", "Chorasmian", "Common", "Coptic", "Cuneiform", "Cypriot", "Cyrillic", "Deseret",
    "Devanagari", "Dogra", "Duployan", "Elbasan", "Elymaic", "Ethiopic", "Georgian", "Glagolitic",
    "Gothic", "Grantha", "Greek", "Gujarati", "Gurmukhi", "Han", "Hangul", "Hanunoo", "Hatran",
    "Hebrew", "Hiragana", "Inherited", "Javanese", "Kaithi", "Kannada", "Katakana", "Kawi",
    "Kharoshthi", "Khmer", "Khojki", "Khudawadi", "Lao", "Latin", "Lepcha", "Limbu", "Lisu",
    "Lycian", "Lydian", "Mahajani", "Makasar", "Malayalam", "Mandaic", "Manichaean", "Marchen",
    "Medefaidrin", "Miao", "Modi", "Mongolian", "Mro", "Multani", "Myanmar", "Nabataean",
    "Nandinagari", "Newa", "Nko", "Nushu", "Ogham", "Osage", "Osmanya", "Palmyrene", "Phoenician",
    "Rejang", "Runic", "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham", "Sinhala",
    "Sogdian", "Soyombo", "Sundanese", "Syriac", "Tagalog", "Tagbanwa", "Takri", "Tamil", "Tangsa",
    "Tangut", "Telugu", "Thaana", "Thai", "Tibetan", "Tifinagh", "Tirhuta", "Toto", "Ugaritic",
    "Vai", "Vithkuqi", "Wancho", "Yezidi", "Yi",
];
