//! `kubernetes.format` (apiserver `pkg/cel/library/format.go`): `format.named(name)`, a
//! zero-argument `format.<name>()` per named format, and `<format>.validate(s)`, which gives
//! `optional.none()` for a valid string or an optional list of apimachinery's messages.
//!
//! The validators are apimachinery's (`IsDNS1123Label`, `IsDNS1123Subdomain`,
//! `IsDNS1035Label`, `content.IsLabelKey`, `content.IsLabelValue`, the name validators'
//! `prefix` masking), Go's `url.ParseRequestURI` for `uri`, and kube-openapi strfmt's `uuid`,
//! `byte`, `date` and `datetime` checks.

use super::{opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Opaque, Value};
use crate::strfmt;
use regex::Regex;
use std::sync::{Arc, LazyLock};

/// The type's name.
pub const TYPE_NAME: &str = "kubernetes.NamedFormat";

/// A named format: its name as the library spells it, and its validator.
#[derive(Clone, Copy)]
pub struct NamedFormat {
    /// The format's `Name` (`DNS1123Label`, `uuid`…); equality compares it.
    pub name: &'static str,
    /// The validator: apimachinery's messages, none for a valid string.
    pub validate: fn(&str) -> Vec<String>,
    /// The library's `MaxRegexSize`, for cost estimation.
    pub max_regex_size: i64,
}

impl std::fmt::Debug for NamedFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamedFormat")
            .field("name", &self.name)
            .finish()
    }
}

impl Opaque for NamedFormat {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<NamedFormat>()
            .is_some_and(|o| o.name == self.name)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<NamedFormat>(other) {
            Some(_) => None,
            None => super::equal_no_such_overload(),
        }
    }
}

/// The named formats, by the names `format.named` and `format.<name>()` use.
pub const FORMATS: [(&str, NamedFormat); 13] = [
    (
        "dns1123Label",
        NamedFormat {
            name: "DNS1123Label",
            validate: dns1123_label,
            max_regex_size: 30,
        },
    ),
    (
        "dns1123Subdomain",
        NamedFormat {
            name: "DNS1123Subdomain",
            validate: dns1123_subdomain,
            max_regex_size: 60,
        },
    ),
    (
        "dns1035Label",
        NamedFormat {
            name: "DNS1035Label",
            validate: dns1035_label,
            max_regex_size: 30,
        },
    ),
    (
        "qualifiedName",
        NamedFormat {
            name: "QualifiedName",
            validate: qualified_name,
            max_regex_size: 60,
        },
    ),
    (
        "dns1123LabelPrefix",
        NamedFormat {
            name: "DNS1123LabelPrefix",
            validate: dns1123_label_prefix,
            max_regex_size: 30,
        },
    ),
    (
        "dns1123SubdomainPrefix",
        NamedFormat {
            name: "DNS1123SubdomainPrefix",
            validate: dns1123_subdomain_prefix,
            max_regex_size: 60,
        },
    ),
    (
        "dns1035LabelPrefix",
        NamedFormat {
            name: "DNS1035LabelPrefix",
            validate: dns1035_label_prefix,
            max_regex_size: 30,
        },
    ),
    (
        "labelValue",
        NamedFormat {
            name: "LabelValue",
            validate: label_value,
            max_regex_size: 40,
        },
    ),
    (
        "uri",
        NamedFormat {
            name: "URI",
            validate: uri,
            max_regex_size: 1103,
        },
    ),
    (
        "uuid",
        NamedFormat {
            name: "uuid",
            validate: uuid,
            max_regex_size: strfmt::UUID_PATTERN.len() as i64,
        },
    ),
    (
        "byte",
        NamedFormat {
            name: "byte",
            validate: base64,
            max_regex_size: 84,
        },
    ),
    (
        "date",
        NamedFormat {
            name: "date",
            validate: date_format,
            max_regex_size: strfmt::DATE_TIME_PATTERN.len() as i64,
        },
    ),
    (
        "datetime",
        NamedFormat {
            name: "datetime",
            validate: datetime_format,
            max_regex_size: strfmt::DATE_TIME_PATTERN.len() as i64,
        },
    ),
];

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let fmt = || Type::opaque(TYPE_NAME);
    let mut all = vec![
        Function::new("validate").member(
            "format-validate",
            vec![fmt(), Type::String],
            Type::optional(Type::list(Type::String)),
            |args| {
                let f = opaque_arg::<NamedFormat>(args, 0)?;
                let errors = (f.validate)(str_arg(args, 1)?);
                if errors.is_empty() {
                    return Ok(Value::Optional(None));
                }
                let list = Value::list(errors.iter().map(|e| Value::string(e)).collect());
                Ok(Value::Optional(Some(Arc::new(list))))
            },
        ),
        Function::new("format.named").global(
            "format-named",
            vec![Type::String],
            Type::optional(fmt()),
            |args| {
                let name = str_arg(args, 0)?;
                Ok(Value::Optional(
                    FORMATS
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, f)| Arc::new(Value::Opaque(Arc::new(*f)))),
                ))
            },
        ),
    ];
    for (name, f) in FORMATS {
        let full = format!("format.{name}");
        all.push(Function::new(&full).global(&full, vec![], fmt(), move |_| {
            Ok(Value::Opaque(Arc::new(f)))
        }));
    }
    all
}

/// A constant pattern, compiled once.
struct Pattern(LazyLock<Option<Regex>>);

impl Pattern {
    fn is_match(&self, s: &str) -> bool {
        self.0.as_ref().is_some_and(|re| re.is_match(s))
    }
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        static $name: Pattern = Pattern(LazyLock::new(|| Regex::new($re).ok()));
    };
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

pattern!(DNS1123_LABEL, r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
pattern!(
    DNS1123_SUBDOMAIN,
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
);
pattern!(DNS1035_LABEL, r"^[a-z]([-a-z0-9]*[a-z0-9])?$");
pattern!(LABEL_KEY, r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$");
pattern!(
    LABEL_VALUE,
    r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"
);

/// apimachinery's `RegexError`.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{re}')"));
    out
}

/// `pkg/util/validation`'s `MaxLenError`.
fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `pkg/api/validate/content`'s `MaxLenError`.
fn max_len_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// The name validators' `maskTrailingDash`: a trailing `-` (of a name longer than one byte)
/// and the byte before it become `a`, as apimachinery does it.
fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        // Go slices bytes: the byte before the dash may split a character
        let b = &name.as_bytes()[..name.len() - 2];
        let mut out = String::from_utf8_lossy(b).into_owned();
        out.push('a');
        return out;
    }
    name.to_string()
}

fn dns1123_label_prefix(s: &str) -> Vec<String> {
    dns1123_label(&mask_trailing_dash(s))
}

fn dns1123_subdomain_prefix(s: &str) -> Vec<String> {
    dns1123_subdomain(&mask_trailing_dash(s))
}

fn dns1035_label_prefix(s: &str) -> Vec<String> {
    dns1035_label(&mask_trailing_dash(s))
}

/// `validation.IsDNS1123Label`.
fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !DNS1123_LABEL.is_match(s) {
        if DNS1123_SUBDOMAIN.is_match(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// `validation.IsDNS1123Subdomain` (`max` is the length message of the package in use).
fn dns1123_subdomain_with(s: &str, max: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max(253));
    }
    if !DNS1123_SUBDOMAIN.is_match(s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

fn dns1123_subdomain(s: &str) -> Vec<String> {
    dns1123_subdomain_with(s, max_len_chars)
}

/// `validation.IsDNS1035Label`.
fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !DNS1035_LABEL.is_match(s) {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `content.IsLabelKey` (`IsQualifiedName`).
fn qualified_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                for m in dns1123_subdomain_with(prefix, max_len_bytes) {
                    errs.push(format!("prefix part {m}"));
                }
            }
            name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_bytes(63)));
    }
    if !LABEL_KEY.is_match(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `content.IsLabelValue`.
fn label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_bytes(63));
    }
    if !LABEL_VALUE.is_match(s) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `uri`: `url.ParseRequestURI`'s error.
fn uri(s: &str) -> Vec<String> {
    match super::urls::parse_request_uri(s) {
        Ok(_) => Vec::new(),
        Err(e) => vec![e],
    }
}

fn uuid(s: &str) -> Vec<String> {
    if strfmt::valid("uuid", s) {
        Vec::new()
    } else {
        vec!["does not match the UUID format".into()]
    }
}

fn base64(s: &str) -> Vec<String> {
    if strfmt::valid("byte", s) {
        Vec::new()
    } else {
        vec!["invalid base64".into()]
    }
}

fn date_format(s: &str) -> Vec<String> {
    if strfmt::valid("date", s) {
        Vec::new()
    } else {
        vec!["invalid date".into()]
    }
}

fn datetime_format(s: &str) -> Vec<String> {
    if strfmt::valid("date-time", s) {
        Vec::new()
    } else {
        vec!["invalid datetime".into()]
    }
}
