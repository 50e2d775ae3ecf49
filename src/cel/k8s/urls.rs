//! `kubernetes.urls` (apiserver `pkg/cel/library/urls.go`): `url()`, `isURL()`,
//! `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`, over Go's
//! `net/url` (Go 1.25, with the 1.25.2 rule that only IPv6 addresses may be bracketed).
//!
//! `isURL` is `url.ParseRequestURI` succeeding; `url()` checks with `ParseRequestURI` and then
//! keeps what `url.Parse` makes of the text (which differs for fragments and `//host`
//! references). Values compare by Go's `URL.String()`.

use super::{equal_no_such_overload, go_quote, opaque, opaque_arg, str_arg};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, Key, Opaque, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The type's name.
pub const TYPE_NAME: &str = "kubernetes.URL";

/// User information: a name and an optional password (unescaped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Userinfo {
    /// The user name.
    pub username: Vec<u8>,
    /// The password, when one was given.
    pub password: Option<Vec<u8>>,
}

/// Go's `url.URL`. Fields hold bytes: unescaping can make text that is not UTF-8.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Url {
    /// The scheme, lower-cased.
    pub scheme: Vec<u8>,
    /// Encoded opaque data (`scheme:opaque`).
    pub opaque: Vec<u8>,
    /// User information.
    pub user: Option<Userinfo>,
    /// `host` or `host:port`, unescaped.
    pub host: Vec<u8>,
    /// The path, unescaped.
    pub path: Vec<u8>,
    /// The path as written, when its default escaping differs.
    pub raw_path: Vec<u8>,
    /// A `?` with nothing after it.
    pub force_query: bool,
    /// The query, still escaped.
    pub raw_query: Vec<u8>,
    /// The fragment, unescaped.
    pub fragment: Vec<u8>,
    /// The fragment as written, when its default escaping differs.
    pub raw_fragment: Vec<u8>,
    /// `scheme:/path` was written without an authority.
    pub omit_host: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Go's `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// Go's `EscapeError` text for the bytes `s` (quoted as Go quotes a possibly invalid string).
fn escape_error(s: &[u8]) -> String {
    format!("invalid URL escape {}", quote_bytes(s))
}

/// Go's `strconv.Quote` of bytes that may not be UTF-8 (invalid bytes as `\xNN`).
fn quote_bytes(s: &[u8]) -> String {
    match std::str::from_utf8(s) {
        Ok(text) => go_quote(text),
        Err(_) => {
            let mut out = String::from("\"");
            for chunk in s.utf8_chunks() {
                let q = go_quote(chunk.valid());
                out.push_str(&q[1..q.len() - 1]);
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            out.push('"');
            out
        }
    }
}

/// Go's `unescape`.
fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                if i + 2 >= s.len()
                    || !s[i + 1].is_ascii_hexdigit()
                    || !s[i + 2].is_ascii_hexdigit()
                {
                    let end = (i + 3).min(s.len());
                    return Err(escape_error(&s[i..end]));
                }
                let escaped = &s[i..i + 3];
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && escaped != b"%25" {
                    return Err(escape_error(escaped));
                }
                if mode == Mode::Zone {
                    let v = (unhex(s[i + 1]) << 4) | unhex(s[i + 2]);
                    if escaped != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(escaped));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote_bytes(&s[i..i + 1])
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                out.push((unhex(s[i + 1]) << 4) | unhex(s[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Go's `escape`.
fn escape(s: &[u8], mode: Mode) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push(b'+');
        } else if should_escape(c, mode) {
            out.extend_from_slice(&[b'%', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
        } else {
            out.push(c);
        }
    }
    out
}

/// Go's `getScheme`.
fn get_scheme(raw: &[u8]) -> Result<(&[u8], &[u8]), String> {
    for (i, &c) in raw.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok((b"", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".into());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok((b"", raw)),
        }
    }
    Ok((b"", raw))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Go's `parse`: `via_request` for `ParseRequestURI` (an absolute URI or an absolute path).
fn parse_inner(raw: &[u8], via_request: bool) -> Result<Url, String> {
    if raw.iter().any(|&b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut url = Url::default();
    if raw == b"*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with(b"?") && rest.iter().filter(|&&b| b == b'?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some(q) = rest.iter().position(|&b| b == b'?') {
        url.raw_query = rest[q + 1..].to_vec();
        rest = &rest[..q];
    }
    if !rest.starts_with(b"/") {
        if !url.scheme.is_empty() {
            // rootless paths are opaque (RFC 3986)
            url.opaque = rest.to_vec();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split(|&b| b == b'/').next().unwrap_or_default();
        if segment.contains(&b':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with(b"///"))
        && rest.starts_with(b"//")
    {
        let after = &rest[2..];
        let (authority, tail) = match after.iter().position(|&b| b == b'/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, &b""[..]),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        rest = tail;
    } else if !url.scheme.is_empty() && rest.starts_with(b"/") {
        // `scheme:/path`: no authority, which String() keeps (golang.org/issue/46059)
        url.omit_host = true;
    }
    let path = unescape(rest, Mode::Path)?;
    url.raw_path = if escape(&path, Mode::Path) == rest {
        Vec::new()
    } else {
        rest.to_vec()
    };
    url.path = path;
    Ok(url)
}

/// Go's `validUserinfo`.
fn valid_userinfo(s: &[u8]) -> bool {
    // Go ranges over runes: any non-ASCII rune is refused, as any non-ASCII byte is here
    s.iter()
        .all(|&c| c.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&c))
}

/// Go's `parseAuthority`.
fn parse_authority(authority: &[u8]) -> Result<(Option<Userinfo>, Vec<u8>), String> {
    let at = authority.iter().rposition(|&b| b == b'@');
    let host = parse_host(match at {
        Some(i) => &authority[i + 1..],
        None => authority,
    })?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.iter().position(|&b| b == b':') {
        None => Userinfo {
            username: unescape(userinfo, Mode::UserPassword)?,
            password: None,
        },
        Some(c) => Userinfo {
            username: unescape(&userinfo[..c], Mode::UserPassword)?,
            password: Some(unescape(&userinfo[c + 1..], Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &[u8]) -> bool {
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// Go 1.25's `parseHost` (with the 1.25.2 bracket rule).
fn parse_host(host: &[u8]) -> Result<Vec<u8>, String> {
    let invalid_port = |p: &[u8]| format!("invalid port {} after host", quote_bytes(p));
    match host.iter().rposition(|&b| b == b'[') {
        Some(i) if i > 0 => Err("invalid IP-literal".into()),
        Some(_) => {
            let Some(close) = host.iter().rposition(|&b| b == b']') else {
                return Err("missing ']' in host".into());
            };
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(invalid_port(colon_port));
            }
            let colon_port = unescape(colon_port, Mode::Host)?;
            let name = &host[1..close];
            let unescaped = match find(name, b"%25") {
                Some(z) => {
                    let mut h = unescape(&name[..z], Mode::Host)?;
                    h.extend(unescape(&name[z..], Mode::Zone)?);
                    h
                }
                None => unescape(name, Mode::Host)?,
            };
            let text = String::from_utf8_lossy(&unescaped);
            match super::ip::parse_addr(&text) {
                Err(e) => return Err(format!("invalid host: {e}")),
                Ok(super::ip::Addr::V4(_)) => return Err("invalid IP-literal".into()),
                Ok(_) => {}
            }
            let mut out = b"[".to_vec();
            out.extend(unescaped);
            out.push(b']');
            out.extend(colon_port);
            Ok(out)
        }
        None => {
            if let Some(i) = host.iter().rposition(|&b| b == b':') {
                let colon_port = &host[i..];
                if !valid_optional_port(colon_port) {
                    return Err(invalid_port(colon_port));
                }
            }
            unescape(host, Mode::Host)
        }
    }
}

/// Go's `validEncoded`.
fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter().all(|&c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

/// `url.Error`'s text: `parse "TEXT": ERR`.
fn url_error(text: &[u8], err: &str) -> String {
    format!("parse {}: {err}", quote_bytes(text))
}

/// Go's `url.ParseRequestURI`, with its error text.
pub fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse_inner(raw.as_bytes(), true).map_err(|e| url_error(raw.as_bytes(), &e))
}

/// Go's `url.Parse`, with its error text.
pub fn parse(raw: &str) -> Result<Url, String> {
    let bytes = raw.as_bytes();
    let (u, frag) = match bytes.iter().position(|&b| b == b'#') {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &b""[..]),
    };
    let mut url = parse_inner(u, false).map_err(|e| url_error(u, &e))?;
    if frag.is_empty() {
        return Ok(url);
    }
    let fragment = unescape(frag, Mode::Fragment).map_err(|e| url_error(bytes, &e))?;
    url.raw_fragment = if escape(&fragment, Mode::Fragment) == frag {
        Vec::new()
    } else {
        frag.to_vec()
    };
    url.fragment = fragment;
    Ok(url)
}

impl Url {
    /// `EscapedPath`.
    pub fn escaped_path(&self) -> Vec<u8> {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == b"*" {
            return b"*".to_vec();
        }
        escape(&self.path, Mode::Path)
    }

    fn escaped_fragment(&self) -> Vec<u8> {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// `URL.String`.
    pub fn to_go_string(&self) -> Vec<u8> {
        let mut buf = Vec::new();
        if !self.scheme.is_empty() {
            buf.extend_from_slice(&self.scheme);
            buf.push(b':');
        }
        if !self.opaque.is_empty() {
            buf.extend_from_slice(&self.opaque);
        } else {
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if (!self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some()) && !omitted
            {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.extend_from_slice(b"//");
                }
                if let Some(u) = &self.user {
                    buf.extend(escape(&u.username, Mode::UserPassword));
                    if let Some(p) = &u.password {
                        buf.push(b':');
                        buf.extend(escape(p, Mode::UserPassword));
                    }
                    buf.push(b'@');
                }
                if !self.host.is_empty() {
                    buf.extend(escape(&self.host, Mode::Host));
                }
            }
            let path = self.escaped_path();
            if path.first().is_some_and(|&c| c != b'/') && !self.host.is_empty() {
                buf.push(b'/');
            }
            if buf.is_empty() {
                let segment = path.split(|&b| b == b'/').next().unwrap_or_default();
                if segment.contains(&b':') {
                    buf.extend_from_slice(b"./");
                }
            }
            buf.extend(path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push(b'?');
            buf.extend_from_slice(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push(b'#');
            buf.extend(self.escaped_fragment());
        }
        buf
    }

    /// Go's `splitHostPort` on the host: the name (brackets removed) and the port.
    fn split_host_port(&self) -> (&[u8], &[u8]) {
        let mut host = &self.host[..];
        let mut port = &b""[..];
        if let Some(colon) = host.iter().rposition(|&b| b == b':')
            && valid_optional_port(&host[colon..])
        {
            port = &host[colon + 1..];
            host = &host[..colon];
        }
        if host.len() >= 2 && host.starts_with(b"[") && host.ends_with(b"]") {
            host = &host[1..host.len() - 1];
        }
        (host, port)
    }

    /// `Query()`: `ParseQuery` with its errors dropped (malformed pairs skipped).
    pub fn query(&self) -> BTreeMap<Vec<u8>, Vec<Vec<u8>>> {
        let mut m: BTreeMap<Vec<u8>, Vec<Vec<u8>>> = BTreeMap::new();
        let q = &self.raw_query[..];
        // Go refuses (with an empty map) more than 10000 parameters
        if q.is_empty() || q.iter().filter(|&&b| b == b'&').count() >= MAX_QUERY_PARAMS {
            return m;
        }
        for part in q.split(|&b| b == b'&') {
            if part.contains(&b';') || part.is_empty() {
                continue;
            }
            let (k, v) = match part.iter().position(|&b| b == b'=') {
                Some(i) => (&part[..i], &part[i + 1..]),
                None => (part, &b""[..]),
            };
            let (Ok(k), Ok(v)) = (
                unescape(k, Mode::QueryComponent),
                unescape(v, Mode::QueryComponent),
            ) else {
                continue;
            };
            m.entry(k).or_default().push(v);
        }
        m
    }
}

/// Go's limit on the number of query parameters `ParseQuery` reads.
const MAX_QUERY_PARAMS: usize = 10_000;

/// A `kubernetes.URL` value.
#[derive(Clone, Debug)]
pub struct UrlValue {
    /// The URL as `url.Parse` made it.
    pub url: Url,
    /// Its `String()`, what equality compares.
    pub text: Vec<u8>,
}

impl Opaque for UrlValue {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<UrlValue>()
            .is_some_and(|o| o.text == self.text)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn equal_error(&self, other: &Value) -> Option<Error> {
        match opaque::<UrlValue>(other) {
            Some(_) => None,
            None => equal_no_such_overload(),
        }
    }
}

fn text(b: &[u8]) -> Value {
    Value::String(String::from_utf8_lossy(b).into())
}

/// `url(s)`.
fn string_to_url(s: &str) -> Result<Value, Error> {
    let conversion = |e: String| {
        Error::new(format!(
            "URL parse error during conversion from string: {e}"
        ))
    };
    parse_request_uri(s).map_err(conversion)?;
    let url = parse(s).map_err(conversion)?;
    let text = url.to_go_string();
    Ok(Value::Opaque(Arc::new(UrlValue { url, text })))
}

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let url = || Type::opaque(TYPE_NAME);
    let getter = |name: &str, id: &str, f: fn(&Url) -> Value| {
        Function::new(name).member(id, vec![url()], Type::String, move |args| {
            Ok(f(&opaque_arg::<UrlValue>(args, 0)?.url))
        })
    };
    vec![
        Function::new("url").global("string_to_url", vec![Type::String], url(), |args| {
            string_to_url(str_arg(args, 0)?)
        }),
        getter("getScheme", "url_get_scheme", |u| text(&u.scheme)),
        getter("getHost", "url_get_host", |u| text(&u.host)),
        getter("getHostname", "url_get_hostname", |u| {
            text(u.split_host_port().0)
        }),
        getter("getPort", "url_get_port", |u| text(u.split_host_port().1)),
        getter("getEscapedPath", "url_get_escaped_path", |u| {
            text(&u.escaped_path())
        }),
        Function::new("getQuery").member(
            "url_get_query",
            vec![url()],
            Type::map(Type::String, Type::list(Type::String)),
            |args| {
                let q = opaque_arg::<UrlValue>(args, 0)?.url.query();
                let mut entries = BTreeMap::new();
                for (k, vs) in q {
                    // keys that differ only in bytes that are not UTF-8 collapse, as they
                    // would print the same
                    entries.insert(
                        Key::String(String::from_utf8_lossy(&k).into()),
                        Value::list(vs.iter().map(|v| text(v)).collect()),
                    );
                }
                Ok(Value::map(entries))
            },
        ),
        Function::new("isURL").global("is_url_string", vec![Type::String], Type::Bool, |args| {
            Ok(Value::Bool(parse_request_uri(str_arg(args, 0)?).is_ok()))
        }),
    ]
}
