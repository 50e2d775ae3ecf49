//! `render --show-discarded`: the blocks function-hcl discarded or deferred in a render, one
//! entry per block (a collection's discarded members together), each with what was not known,
//! where, and which render input would make it known. [`discarded`] builds the entries from a
//! finished render and [`discarded_notes`] states them as I023 diagnostics for the machine
//! formats; the command draws them for people.

use crate::diagnostics::{Code, Diagnostic, count};
use crate::eval::program::{Discard, Read};
use crate::render::Rendered;
use crate::source::pointer::Pointer;
use crate::source::{SourceMap, Span};
use serde_json::Value as Json;

/// At most this many names of a collection's discarded members are kept in an entry.
const MAX_MEMBERS: usize = 10;

/// One discarded block: a single block, or the discarded members of one collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Discarded {
    /// The pipeline step that ran it.
    pub step: String,
    /// function-hcl's kind: `resource`, `resources`, `group`, `composite-status`,
    /// `composite-connection`, `resource-ready`, `context`, `requirement`.
    pub kind: &'static str,
    /// function-hcl's reason: `incomplete`, `bad-secret` or `user-condition`.
    pub reason: &'static str,
    /// The block's name (a collection's base name for its members; empty when the block has
    /// none).
    pub name: String,
    /// The collection, when the entry is discarded members of one.
    pub collection: Option<String>,
    /// For a nested block without a name (`composite status`, `context`): the resources it
    /// belongs to (the first ten), as [`Discarded::members`] for a collection.
    pub owners: Vec<String>,
    /// How many times the block was discarded (members of a collection, or a block nested
    /// in a collection's template).
    pub count: usize,
    /// The discarded members' names, at most ten.
    pub members: Vec<String>,
    /// Where function-hcl says it happened (the body, condition or value).
    pub span: Option<Span>,
    /// What was not known (for a false condition: the condition), without repeats.
    pub unknown: Vec<UnknownValue>,
}

/// A value a discarded block did not know (see [`Discarded::unknown`]).
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownValue {
    /// The expression itself.
    pub span: Span,
    /// It as written (`vpc.status.atProvider.id`).
    pub text: String,
    /// The error that made it unknown, when one did.
    pub error: Option<String>,
    /// The inputs that would make it known, from the request values it reads.
    pub inputs: Vec<Input>,
}

/// A render input an unknown value depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Which input.
    pub kind: InputKind,
    /// The request value read (`req.extra_resources.vpc`, `self.resource`).
    pub path: String,
    /// Where it is read.
    pub span: Span,
    /// When the inputs lack what is read: where that is written, and what, in a report's
    /// words.
    pub missing: Option<(Span, String)>,
    /// For a field the XR lacks: its path below the XR (`spec.region`).
    pub xr_field: Option<String>,
}

/// Which render input supplies a request value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An observed composed resource (`-o`), by name when known: `req.resource.NAME`,
    /// `req.connection.NAME`, `self.resource`, `self.connection`.
    Observed(Option<String>),
    /// The observed members of a collection (`-o`): `req.resources.BASE`,
    /// `req.connections.BASE`.
    ObservedCollection(Option<String>),
    /// The XR's status (the XR file's `status`): `req.composite.status`.
    XrStatus,
    /// The XR itself (its file): the rest of `req.composite`, `req.composite_connection`.
    Xr,
    /// Required (extra) resources (`-e`): `req.extra_resources.NAME`.
    Required(Option<String>),
    /// A context key (`--context-files`, `--context-values`, or an earlier step):
    /// `req.context.KEY`.
    Context(Option<String>),
}

impl InputKind {
    /// What to give the render, for people: `observed resource "bucket" (-o)`.
    pub fn describe(&self) -> String {
        let named = |what: &str, name: &Option<String>, flag: &str| match name {
            Some(name) => format!("{what} {name:?} ({flag})"),
            None => format!("{what} ({flag})"),
        };
        match self {
            InputKind::Observed(name) => named("observed resource", name, "-o"),
            InputKind::ObservedCollection(name) => {
                named("observed members of collection", name, "-o")
            }
            InputKind::XrStatus => "the XR's status (the XR file's `status`)".into(),
            InputKind::Xr => "the XR (the XR file)".into(),
            InputKind::Required(name) => named("required resources", name, "-e"),
            InputKind::Context(name) => named(
                "context key",
                name,
                "--context-files, --context-values, or an earlier step",
            ),
        }
    }

    /// A short machine name: `observed`, `observed-collection`, `xr-status`, `xr`,
    /// `required`, `context`.
    pub fn as_str(&self) -> &'static str {
        match self {
            InputKind::Observed(_) => "observed",
            InputKind::ObservedCollection(_) => "observed-collection",
            InputKind::XrStatus => "xr-status",
            InputKind::Xr => "xr",
            InputKind::Required(_) => "required",
            InputKind::Context(_) => "context",
        }
    }
}

/// Which input supplies a request value, by its path (`None` for what no input gives).
fn input_kind(read: &Read, block: Option<&str>) -> Option<InputKind> {
    let mut parts = read.path.splitn(3, '.');
    let (root, first, second) = (parts.next()?, parts.next(), parts.next());
    let second = second.map(str::to_string);
    Some(match (root, first) {
        ("self", _) => InputKind::Observed(read.resource.clone().or(block.map(str::to_string))),
        ("req", Some("resource" | "connection")) => InputKind::Observed(second),
        ("req", Some("resources" | "connections")) => InputKind::ObservedCollection(second),
        ("req", Some("composite")) if second.as_deref() == Some("status") => InputKind::XrStatus,
        ("req", Some("composite" | "composite_connection")) => InputKind::Xr,
        ("req", Some("extra_resources")) => InputKind::Required(second),
        ("req", Some("context")) => InputKind::Context(second),
        _ => return None,
    })
}

/// The discarded blocks of a finished render, in the order they were first discarded: one
/// entry per block and step (a collection's members, or a block of a collection's template,
/// together), user conditions that were false included.
pub fn discarded(rendered: &Rendered) -> Vec<Discarded> {
    let mut out: Vec<Discarded> = Vec::new();
    for (step, d) in &rendered.discards {
        let same = |e: &&mut Discarded| {
            e.step == *step
                && e.kind == d.kind
                && e.reason == d.reason
                && e.span == d.span
                && e.collection == d.collection
                && (d.collection.is_some() || e.name == d.name || d.name.is_empty())
        };
        let entry = match out.iter_mut().find(same) {
            Some(entry) => entry,
            None => {
                out.push(Discarded {
                    step: step.clone(),
                    kind: d.kind,
                    reason: d.reason,
                    name: d.collection.clone().unwrap_or_else(|| d.name.clone()),
                    collection: d.collection.clone(),
                    owners: Vec::new(),
                    count: 0,
                    members: Vec::new(),
                    span: d.span,
                    unknown: Vec::new(),
                });
                let last = out.len() - 1;
                &mut out[last]
            }
        };
        entry.count += 1;
        if entry.collection.is_some() && entry.members.len() < MAX_MEMBERS {
            entry.members.push(d.name.clone());
        }
        if let Some(owner) = d.owner.as_ref().filter(|_| d.name.is_empty())
            && entry.owners.len() < MAX_MEMBERS
            && !entry.owners.contains(owner)
        {
            entry.owners.push(owner.clone());
        }
        add_unknowns(entry, d);
    }
    out
}

fn add_unknowns(entry: &mut Discarded, d: &Discard) {
    let block = (d.kind == "resource" && d.collection.is_none()).then_some(d.name.as_str());
    for u in &d.unknown {
        if entry
            .unknown
            .iter()
            .any(|e| e.span == u.span && e.text == u.text)
        {
            continue;
        }
        let mut inputs: Vec<Input> = Vec::new();
        if d.reason != "user-condition" {
            for read in &u.reads {
                let Some(kind) = input_kind(read, block) else {
                    continue;
                };
                if !inputs.iter().any(|i| i.kind == kind && i.path == read.path) {
                    inputs.push(Input {
                        kind,
                        path: read.path.clone(),
                        span: read.span,
                        missing: read.missing.clone(),
                        xr_field: read.xr_field.clone(),
                    });
                }
            }
        }
        entry.unknown.push(UnknownValue {
            span: u.span,
            text: u.text.clone(),
            error: u.error.clone(),
            inputs,
        });
    }
}

/// How many composed resources a render's documents hold (not the XR, `Result` or
/// `Context` documents).
pub fn composed_count(documents: &[Json]) -> usize {
    documents
        .iter()
        .skip(1)
        .filter(|d| {
            d.at("/apiVersion").and_then(Json::as_str) != Some("render.crossplane.io/v1beta1")
        })
        .count()
}

/// `path:line:col` of a span, as the summary shows places.
pub fn place(map: &SourceMap, span: Span) -> String {
    let file = map.get(span.file);
    let (start, _) = file.span_positions(span);
    format!("{}:{}:{}", file.display_name(), start.line, start.column)
}

/// The headline of an entry: `resource subnet (3 of collection subnet): not known yet`.
pub fn headline(entry: &Discarded) -> String {
    let what = match (entry.name.is_empty(), entry.owners.as_slice()) {
        (false, _) => format!("{} {}", entry.kind, entry.name),
        (true, [owner]) => format!("{} of resource {owner}", entry.kind),
        (true, _) => entry.kind.to_string(),
    };
    let how_many = match (&entry.collection, entry.count) {
        (Some(_), 1) => " (1 member)".to_string(),
        (Some(_), n) => format!(" ({n} members)"),
        (None, 1) => String::new(),
        (None, n) => format!(" ({n} times)"),
    };
    let why = match entry.reason {
        "user-condition" => "condition is false",
        "bad-secret" => "a connection secret value is not base64",
        _ => "not known yet",
    };
    format!("{what}{how_many}: {why}")
}

/// The closing line when a render composed nothing but discarded blocks:
/// `no composed resources: 3 blocks discarded, see above`.
pub fn nothing_composed(entries: &[Discarded], composed: usize) -> Option<String> {
    if composed > 0 || entries.is_empty() {
        return None;
    }
    Some(format!(
        "no composed resources: {} discarded, see above",
        count(entries.len(), "block", "blocks")
    ))
}

/// The entries as I023 `discarded-block` notes (for the machine formats): each at its first
/// unknown expression (the condition, when it was false), the others and the inputs read in
/// the detail, what to give the render as help; and a last note without a place when the
/// render composed nothing.
pub fn discarded_notes(map: &SourceMap, entries: &[Discarded], composed: usize) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for entry in entries {
        let mut d = Diagnostic::new(
            Code::I023,
            format!("step {:?}: discarded {}", entry.step, headline(entry)),
        );
        let mut lines = Vec::new();
        if !entry.members.is_empty() {
            let more = entry.count.saturating_sub(entry.members.len());
            let mut names = entry.members.join(", ");
            if more > 0 {
                names.push_str(&format!(" and {more} more"));
            }
            lines.push(format!("members: {names}"));
        }
        if entry.owners.len() > 1 {
            lines.push(format!("of resources: {}", entry.owners.join(", ")));
        }
        if let Some(span) = entry.span {
            lines.push(format!("block: {}", place(map, span)));
        }
        for u in &entry.unknown {
            let what = if entry.reason == "user-condition" {
                "condition"
            } else {
                "unknown"
            };
            let error = u
                .error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            lines.push(format!(
                "{what}: `{}` at {}{error}",
                u.text,
                place(map, u.span)
            ));
            for input in &u.inputs {
                lines.push(format!(
                    "  reads `{}` at {}: {}",
                    input.path,
                    place(map, input.span),
                    input.kind.describe()
                ));
            }
        }
        d = d.with_detail(lines.join("\n"));
        match entry.unknown.first() {
            Some(first) => d = d.with_primary(first.span, None),
            None => {
                if let Some(span) = entry.span {
                    d = d.with_primary(span, None);
                }
            }
        }
        if let Some(help) = help(entry) {
            d = d.with_help(help);
        }
        out.push(d);
    }
    if nothing_composed(entries, composed).is_some() {
        out.push(Diagnostic::new(
            Code::I023,
            format!(
                "no composed resources: {} discarded",
                count(entries.len(), "block", "blocks")
            ),
        ));
    }
    out
}

/// What would make an entry's values known: the inputs they read, without repeats.
pub fn help(entry: &Discarded) -> Option<String> {
    let mut wanted: Vec<String> = Vec::new();
    for input in entry.unknown.iter().flat_map(|u| &u.inputs) {
        // The XR is given but lacks the field: say which, not "the XR file".
        let text = match (&input.kind, &input.xr_field) {
            (InputKind::Xr | InputKind::XrStatus, Some(field)) => {
                format!("an XR with `{field}` (the XR file has none)")
            }
            _ => input.kind.describe(),
        };
        if !wanted.contains(&text) {
            wanted.push(text);
        }
    }
    (!wanted.is_empty()).then(|| format!("known once the render is given {}", wanted.join(", ")))
}

/// `--show-discarded` for people: per step, each discarded block with its members, where it
/// is, what was not known and where, and the inputs that would make it known.
pub fn summary(map: &SourceMap, entries: &[Discarded], composed: usize) -> String {
    if entries.is_empty() {
        return "discarded: no block was discarded\n".into();
    }
    let mut out = String::new();
    let mut step = None;
    for entry in entries {
        if step != Some(&entry.step) {
            out.push_str(&format!("discarded in step {:?}:\n", entry.step));
            step = Some(&entry.step);
        }
        out.push_str(&format!("  {}\n", headline(entry)));
        if !entry.members.is_empty() {
            let more = entry.count.saturating_sub(entry.members.len());
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "    members    {}{tail}\n",
                entry.members.join(", ")
            ));
        }
        if entry.owners.len() > 1 {
            out.push_str(&format!("    of         {}\n", entry.owners.join(", ")));
        }
        if let Some(span) = entry.span {
            out.push_str(&format!("    block      {}\n", place(map, span)));
        }
        let label = if entry.reason == "user-condition" {
            "condition "
        } else {
            "unknown   "
        };
        for u in &entry.unknown {
            let error = u
                .error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "    {label} {}  {}{error}\n",
                place(map, u.span),
                u.text
            ));
        }
        let mut reads: Vec<String> = Vec::new();
        for input in entry.unknown.iter().flat_map(|u| &u.inputs) {
            // A request value read right where it is unknown: the help line says it.
            if entry.unknown.iter().any(|u| u.span == input.span) {
                continue;
            }
            let line = match &input.missing {
                // Where the missing value is read, in the words of a failed render's label.
                Some((span, text)) => format!(
                    "    reads      {}  {}\n",
                    place(map, *span),
                    text.strip_prefix("reads ").unwrap_or(text)
                ),
                None => format!(
                    "    reads      {}  {}: {}\n",
                    place(map, input.span),
                    input.path,
                    input.kind.describe()
                ),
            };
            if !reads.contains(&line) {
                reads.push(line);
            }
        }
        reads.iter().for_each(|line| out.push_str(line));
        if let Some(help) = help(entry) {
            out.push_str(&format!("    help       {help}\n"));
        }
    }
    if let Some(line) = nothing_composed(entries, composed) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::program::evaluate;
    use crate::eval::proto::RunFunctionRequest;
    use serde_json::json;

    /// The entries of one evaluation of `text` against `request`, with the sources.
    fn entries(text: &str, request: Json) -> (SourceMap, Vec<Discarded>) {
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", text);
        let request: RunFunctionRequest = serde_json::from_value(request).unwrap();
        let response = evaluate(&mut map, &[file], &request).unwrap();
        let rendered = Rendered {
            documents: Vec::new(),
            discards: response
                .discards
                .into_iter()
                .map(|d| ("step".to_string(), d))
                .collect(),
            origins: Default::default(),
            coverage: Vec::new(),
        };
        (map, discarded(&rendered))
    }

    fn xr() -> Json {
        json!({"observed": {"composite": {"resource": {"metadata": {"name": "x"}, "spec": {}}}}})
    }

    fn slice(map: &SourceMap, span: Span) -> &str {
        map.get(span.file).slice(span)
    }

    #[test]
    fn a_collections_members_are_one_entry_naming_the_requirement_read_through_a_local() {
        let text = "locals {\n  vpc = try(req.extra_resources.vpc[0], null)\n}\n\
                    resources subnet {\n  for_each = [\"a\", \"b\", \"c\"]\n  template {\n    body = { id = vpc.status.id }\n  }\n}\n";
        let (map, entries) = entries(text, xr());
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(
            (e.kind, e.reason, e.name.as_str()),
            ("resource", "incomplete", "subnet")
        );
        assert_eq!(e.count, 3);
        assert_eq!(e.members, ["subnet-0", "subnet-1", "subnet-2"]);
        assert_eq!(e.unknown.len(), 1);
        let u = &e.unknown[0];
        assert_eq!(slice(&map, u.span), "vpc.status.id");
        assert_eq!(place(&map, u.span), "main.hcl:7:19");
        assert_eq!(
            u.error.as_deref(),
            Some("Attempt to get attribute from null value")
        );
        assert_eq!(u.inputs.len(), 1);
        assert_eq!(u.inputs[0].kind, InputKind::Required(Some("vpc".into())));
        assert_eq!(slice(&map, u.inputs[0].span), "req.extra_resources.vpc[0]");
        assert_eq!(
            help(e).as_deref(),
            Some("known once the render is given required resources \"vpc\" (-e)")
        );
    }

    #[test]
    fn locals_are_followed_to_the_observed_resource_they_read() {
        let text = "locals {\n  a = req.resource.db\n  b = a.status\n}\n\
                    resource app {\n  body = { host = b.host }\n}\n";
        let (map, entries) = entries(text, xr());
        let u = &entries[0].unknown[0];
        assert_eq!(slice(&map, u.span), "b.host");
        assert_eq!(u.inputs[0].kind, InputKind::Observed(Some("db".into())));
        assert_eq!(u.inputs[0].path, "req.resource.db");
    }

    #[test]
    fn a_false_condition_is_listed_at_the_condition_without_inputs() {
        let text = "resource a {\n  condition = req.composite.spec == null\n  body = {}\n}\n";
        let (map, entries) = entries(text, xr());
        let e = &entries[0];
        assert_eq!(e.reason, "user-condition");
        assert_eq!(headline(e), "resource a: condition is false");
        assert_eq!(slice(&map, e.unknown[0].span), "req.composite.spec == null");
        assert!(e.unknown[0].inputs.is_empty());
        assert_eq!(help(e), None);
    }

    #[test]
    fn each_request_value_names_its_input() {
        let text = "resource a {\n  body = { s = req.composite.status.x, c = req.context.env, m = req.resources.web }\n\
                    composite status {\n    body = { url = self.resource.status.url }\n  }\n}\n\
                    resource b {\n  body = {}\n  composite status {\n    body = { v = req.composite.spec.missing }\n  }\n}\n";
        let (_, entries) = entries(text, xr());
        let kinds: Vec<Vec<InputKind>> = entries
            .iter()
            .map(|e| {
                e.unknown
                    .iter()
                    .flat_map(|u| &u.inputs)
                    .map(|i| i.kind.clone())
                    .collect()
            })
            .collect();
        assert_eq!(
            kinds,
            [
                vec![
                    InputKind::XrStatus,
                    InputKind::Context(Some("env".into())),
                    InputKind::ObservedCollection(Some("web".into())),
                ],
                vec![InputKind::Xr],
            ]
        );
        assert_eq!(entries[1].kind, "composite-status");
        assert_eq!(
            headline(&entries[1]),
            "composite-status of resource b: not known yet"
        );
    }

    #[test]
    fn an_unknown_condition_and_requirement_name_what_they_wait_for() {
        let text = "resource a {\n  condition = req.resource.db.status.ready\n  body = {}\n}\n\
                    requirement vpc {\n  select {\n    apiVersion = \"v1\"\n    kind = \"VPC\"\n\
                    matchLabels = { net = req.composite.status.net }\n  }\n}\n";
        let (map, entries) = entries(text, xr());
        assert_eq!(entries.len(), 2);
        assert_eq!(
            (entries[0].kind, entries[0].reason),
            ("resource", "incomplete")
        );
        let u = &entries[0].unknown[0];
        assert_eq!(slice(&map, u.span), "req.resource.db.status.ready");
        assert_eq!(u.inputs[0].kind, InputKind::Observed(Some("db".into())));
        assert_eq!(
            (entries[1].kind, entries[1].name.as_str()),
            ("requirement", "vpc")
        );
        let u = &entries[1].unknown[0];
        assert_eq!(slice(&map, u.span), "req.composite.status.net");
        assert_eq!(u.inputs[0].kind, InputKind::XrStatus);
    }

    #[test]
    fn a_template_block_discarded_for_every_member_is_one_entry() {
        let text = "resources w {
  for_each = [1, 2]
  template {
    body = {}
                    composite status {
      body = { u = self.resource.status.u }
    }
  }
}
";
        let (_, entries) = entries(text, xr());
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].owners, ["w-0", "w-1"]);
        assert_eq!(
            headline(&entries[0]),
            "composite-status (2 times): not known yet"
        );
        let inputs = &entries[0].unknown[0].inputs;
        assert_eq!(inputs[0].kind, InputKind::Observed(None));
    }

    #[test]
    fn a_failed_expression_without_unknown_references_is_listed_itself() {
        let text = "resource a {\n  body = { n = tonumber(\"x\") }\n}\n";
        let (map, entries) = entries(text, xr());
        let u = &entries[0].unknown[0];
        // Where the error is: the argument tonumber cannot convert.
        assert_eq!(slice(&map, u.span), "\"x\"");
        assert!(u.error.is_some());
        assert!(u.inputs.is_empty());
    }

    #[test]
    fn nothing_composed_is_said_once_blocks_were_discarded() {
        let text = "resource a {\n  body = { s = req.composite.status.x }\n}\n";
        let (map, entries) = entries(text, xr());
        assert_eq!(
            nothing_composed(&entries, 0).as_deref(),
            Some("no composed resources: 1 block discarded, see above")
        );
        assert_eq!(nothing_composed(&entries, 1), None);
        assert_eq!(nothing_composed(&[], 0), None);
        let notes = discarded_notes(&map, &entries, 0);
        assert_eq!(notes.len(), 2);
        assert!(notes.iter().all(|n| n.code == Code::I023));
        assert_eq!(notes[1].summary, "no composed resources: 1 block discarded");
        let docs = [
            json!({"kind": "XR"}),
            json!({"apiVersion": "render.crossplane.io/v1beta1"}),
        ];
        assert_eq!(composed_count(&docs), 0);
    }
}
