//! cty's `csvdecode`, reading records as Go's `encoding/csv.Reader` does (RFC 4180 quoting,
//! `\r\n` read as `\n`, empty lines skipped, every record as wide as the header) and with its
//! errors (`CSV parse error on line 2: wrong number of fields`).

use crate::eval::functions::FunctionError;
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

/// `encoding/csv`'s errors.
#[derive(Debug, PartialEq)]
enum CsvError {
    /// `ParseError` with the line Go reports and its inner error's text.
    Parse { line: usize, message: &'static str },
    /// No record at all (`io.EOF`).
    Eof,
}

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
const ERR_FIELD_COUNT: &str = "wrong number of fields";

struct Reader<'a> {
    rest: &'a [u8],
    line: usize,
    /// `FieldsPerRecord`: 0 takes the first record's width.
    fields: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            rest: text.as_bytes(),
            line: 0,
            fields: 0,
        }
    }

    /// `readLine`: the next line with `\r\n` as `\n` (a final `\r` dropped), or `None` at
    /// the end.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        self.line += 1;
        if self.rest.is_empty() {
            return None;
        }
        let end = self
            .rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.rest.len(), |i| i + 1);
        let mut line = self.rest[..end].to_vec();
        self.rest = &self.rest[end..];
        if self.rest.is_empty() && line.last() == Some(&b'\r') {
            line.pop();
        }
        let n = line.len();
        if n >= 2 && line[n - 2] == b'\r' && line[n - 1] == b'\n' {
            line.truncate(n - 1);
            line[n - 2] = b'\n';
        }
        Some(line)
    }

    /// `readRecord`.
    fn record(&mut self) -> Result<Vec<String>, CsvError> {
        let mut line = loop {
            match self.read_line() {
                None => return Err(CsvError::Eof),
                Some(l) if l == b"\n" => continue,
                Some(l) => break l,
            }
        };
        let rec_line = self.line;
        let mut pos_line = self.line;
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let mut error = None;
        let nl_len = |l: &[u8]| usize::from(l.last() == Some(&b'\n'));
        'fields: loop {
            if line.first() != Some(&b'"') {
                let comma = line.iter().position(|&b| b == b',');
                let field = match comma {
                    Some(i) => &line[..i],
                    None => &line[..line.len() - nl_len(&line)],
                };
                if field.contains(&b'"') {
                    error = Some(CsvError::Parse {
                        line: self.line,
                        message: ERR_BARE_QUOTE,
                    });
                    break;
                }
                fields.push(field.to_vec());
                match comma {
                    Some(i) => {
                        line.drain(..=i);
                        continue;
                    }
                    None => break,
                }
            }
            let mut field = Vec::new();
            line.remove(0);
            loop {
                if let Some(i) = line.iter().position(|&b| b == b'"') {
                    field.extend_from_slice(&line[..i]);
                    line.drain(..=i);
                    match line.first() {
                        Some(b'"') => {
                            field.push(b'"');
                            line.remove(0);
                        }
                        Some(b',') => {
                            line.remove(0);
                            fields.push(field);
                            continue 'fields;
                        }
                        _ if nl_len(&line) == line.len() => {
                            fields.push(field);
                            break 'fields;
                        }
                        _ => {
                            error = Some(CsvError::Parse {
                                line: self.line,
                                message: ERR_QUOTE,
                            });
                            break 'fields;
                        }
                    }
                } else if !line.is_empty() {
                    field.extend_from_slice(&line);
                    line = match self.read_line() {
                        Some(next) => {
                            pos_line += 1;
                            next
                        }
                        None => Vec::new(),
                    };
                } else {
                    // The input ended inside the quotes.
                    error = Some(CsvError::Parse {
                        line: pos_line,
                        message: ERR_QUOTE,
                    });
                    break 'fields;
                }
            }
        }
        let record: Vec<String> = fields
            .into_iter()
            .map(|f| String::from_utf8_lossy(&f).into_owned())
            .collect();
        if let Some(e) = error {
            return Err(e);
        }
        if self.fields > 0 {
            if record.len() != self.fields {
                return Err(CsvError::Parse {
                    line: rec_line,
                    message: ERR_FIELD_COUNT,
                });
            }
        } else {
            self.fields = record.len();
        }
        Ok(record)
    }
}

fn csv_error(e: CsvError) -> FunctionError {
    match e {
        CsvError::Parse { line, message } => {
            FunctionError::other(format!("CSV parse error on line {line}: {message}"))
        }
        CsvError::Eof => FunctionError::other("EOF"),
    }
}

/// The header: the column names, or cty's errors.
fn header(text: &str) -> Result<(Reader<'_>, Vec<String>), FunctionError> {
    let mut reader = Reader::new(text);
    let headers = match reader.record() {
        Ok(h) => h,
        Err(CsvError::Eof) => return Err(FunctionError::other("missing header line")),
        Err(e) => return Err(csv_error(e)),
    };
    let mut seen = std::collections::BTreeSet::new();
    for name in &headers {
        if !seen.insert(name.as_str()) {
            return Err(FunctionError::other(format!(
                "duplicate column name {}",
                super::go_quote(name)
            )));
        }
    }
    Ok((reader, headers))
}

/// `list(object({<column> = string, …}))` for a known string.
pub(super) fn return_type(args: &[Value]) -> Result<Type, FunctionError> {
    let Some(Value::String(text)) = args.first() else {
        return Ok(Type::Dynamic);
    };
    let (_, headers) = header(text)?;
    Ok(row_type(&headers))
}

fn row_type(headers: &[String]) -> Type {
    let attrs = headers
        .iter()
        .map(|h| (nfc(h), Type::String))
        .collect::<BTreeMap<_, _>>();
    Type::list(Type::Object(attrs.into()))
}

fn nfc(s: &str) -> String {
    match Value::string(s) {
        Value::String(s) => s.into_string(),
        _ => unreachable!("Value::string makes a string"),
    }
}

/// The rows.
pub(super) fn decode(text: &str, _ret: &Type) -> Result<Value, FunctionError> {
    let (mut reader, headers) = header(text)?;
    let mut rows = Vec::new();
    loop {
        match reader.record() {
            Ok(cols) => {
                let attrs = headers
                    .iter()
                    .zip(cols)
                    .map(|(h, v)| (nfc(h), Value::string(v)))
                    .collect::<BTreeMap<_, _>>()
                    .into();
                rows.push(Value::Object(attrs));
            }
            Err(CsvError::Eof) => break,
            Err(e) => return Err(csv_error(e)),
        }
    }
    let Type::List(elem) = row_type(&headers) else {
        unreachable!("row_type makes a list type");
    };
    Ok(Value::List {
        elem: *elem,
        items: rows.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<Result<Vec<String>, CsvError>> {
        let mut r = Reader::new(text);
        let mut out = Vec::new();
        loop {
            match r.record() {
                Err(CsvError::Eof) => return out,
                other => {
                    let stop = other.is_err();
                    out.push(other);
                    if stop {
                        return out;
                    }
                }
            }
        }
    }

    #[test]
    fn reads_as_go() {
        let ok = |fields: &[&str]| Ok(fields.iter().map(|s| s.to_string()).collect());
        assert_eq!(
            records("a,b\r\n\r\n\"x\ny\",\"q\"\"z\"\n"),
            vec![ok(&["a", "b"]), ok(&["x\ny", "q\"z"])]
        );
        assert_eq!(records("a\r"), vec![ok(&["a"])]);
        assert_eq!(
            records("a\n\"x\ny"),
            vec![
                ok(&["a"]),
                Err(CsvError::Parse {
                    line: 3,
                    message: ERR_QUOTE
                })
            ]
        );
        assert_eq!(
            records("a,b\n1,\"x\"y\n"),
            vec![
                ok(&["a", "b"]),
                Err(CsvError::Parse {
                    line: 2,
                    message: ERR_QUOTE
                })
            ]
        );
        assert_eq!(
            records("a\nx\"y\n"),
            vec![
                ok(&["a"]),
                Err(CsvError::Parse {
                    line: 2,
                    message: ERR_BARE_QUOTE
                })
            ]
        );
        assert_eq!(
            records("a,b\n\"1\n2\",3,4\n"),
            vec![
                ok(&["a", "b"]),
                Err(CsvError::Parse {
                    line: 2,
                    message: ERR_FIELD_COUNT
                })
            ]
        );
    }
}
