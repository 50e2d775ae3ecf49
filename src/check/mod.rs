//! L4: `check` — every mistake a composition has that can be found without running it.
//!
//! One composition goes through the stages function-hcl goes through (parse, the schema of
//! every block, user function loading), each stopping the next when it finds errors, then
//! function-hcl v0.2.0's analyzer and a probe evaluation with every input unknown. The rules
//! (`rules/`, one per code) report from those shared results or from their own look at the
//! program; then inline suppressions and the configured levels are applied.

pub mod analyzer;
pub(crate) mod composite;
pub mod config;
mod probe;
pub mod pt;
pub mod reference;
pub mod rules;
pub(crate) mod schema_body;
pub mod stale;
mod suppress;
pub mod testfile;
pub mod workspace;

use crate::analysis::resolve::Resolution;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::program::UserFunctions;
use crate::source::loader::Bundle;
use crate::source::pointer::Pointer;
use crate::source::{SourceMap, Span};
use crate::syntax::model::{self, Program};
use crate::syntax::{self, ParsedFile};
pub use config::{Config, Level};
use rules::RULES;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long `check` (and the language server) evaluates one composition — function-hcl's
/// analyzer and the probe — before reporting `T304` where it stopped: far beyond what real
/// compositions take (the largest of `benches/scaling.sh` take well under a second), short
/// enough that an editor keeps answering.
pub const EVALUATION_TIME: Duration = Duration::from_secs(10);

/// What the rules look at for one composition.
pub struct Context<'a> {
    /// Every source text.
    pub map: &'a SourceMap,
    /// The parsed files of the composition, in bundle order.
    pub files: &'a [ParsedFile],
    /// The program, when parsing, the schema and function loading found no errors.
    pub program: Option<&'a Program>,
    /// Its names, scopes and references.
    pub resolution: Option<&'a Resolution<'a>>,
    /// What the shared stages found (each finding's code names its rule).
    pub found: Vec<Diagnostic>,
    /// The CRDs and XRDs resource bodies are checked against, when configured.
    pub schemas: Option<&'a crate::schema::Schemas>,
    /// The schema of the XR the composition reads, when it is certain
    /// ([`crate::schema::xr::composite_entry`]).
    pub composite: Option<&'a crate::schema::Entry>,
}

/// What each local of a composition evaluates to when every input is unknown (the probe of
/// `check`): its type, or its value when it does not depend on the request. Files with syntax
/// errors take part as far as they parse; empty when the user functions do not load.
pub fn local_values(
    map: &Arc<SourceMap>,
    files: &[ParsedFile],
) -> Vec<(Span, crate::eval::value::Value)> {
    let program = model::build(files);
    let Ok(user) = UserFunctions::load(&program.functions, map.clone()) else {
        return Vec::new();
    };
    let deadline = Instant::now() + EVALUATION_TIME;
    crate::eval::deadline::within(Some(deadline), || probe::local_values(map, &program, &user))
        .unwrap_or_default()
}

/// Checks one composition with `config`'s rule levels; the findings, unsorted.
pub fn check_bundle(map: &Arc<SourceMap>, bundle: &Bundle, config: &Config) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut files = Vec::with_capacity(bundle.files.len());
    for member in &bundle.files {
        let result = syntax::parse_file(map.get(member.file));
        found.extend(result.diagnostics);
        files.push(ParsedFile {
            file: member.file,
            body: result.body,
        });
    }
    let mut program = None;
    // A partial tree would only add noise: function-hcl stops at each of these stages too.
    if !has_errors(&found) {
        found.extend(syntax::schema::check_program(&files));
        if !has_errors(&found) {
            program = Some(model::build(&files));
        }
    }
    let user = program.as_ref().and_then(|p| {
        UserFunctions::load(&p.functions, map.clone())
            .map_err(|diags| found.extend(diags))
            .ok()
    });
    let resolution = match (&program, &user) {
        (Some(p), Some(_)) => Some(Resolution::of(&p.top, &p.functions)),
        _ => None,
    };
    if let (Some(p), Some(res), Some(user)) = (&program, &resolution, &user) {
        let declared = analyzer::Declared::of(p);
        // A composition that evaluates for too long becomes a finding, not a stuck `check`
        // or a language server that stops answering.
        let deadline = Instant::now() + EVALUATION_TIME;
        let evaluated = crate::eval::deadline::within(Some(deadline), || {
            let mut found = analyzer::analyze(map, res, &declared, user);
            found.extend(probe::run(map, p, user));
            found
        });
        found.extend(evaluated.unwrap_or_else(|_| vec![probe::too_slow(None)]));
    }
    let cx = Context {
        map,
        files: &files,
        program: program.as_ref().filter(|_| user.is_some()),
        resolution: resolution.as_ref(),
        found,
        schemas: config.schemas.as_deref(),
        composite: config.schemas.as_deref().and_then(|schemas| {
            let type_ref = composite_type_ref(map, bundle);
            let type_ref = type_ref.as_ref().map(|(a, k)| (a.as_str(), k.as_str()));
            let seen = match &bundle.origin {
                crate::source::loader::Origin::Directory(dir) if type_ref.is_none() => {
                    crate::schema::xr::types_in(dir)
                }
                _ => Vec::new(),
            };
            crate::schema::xr::composite_entry(schemas, type_ref, &seen)
        }),
    };
    let mut out = Vec::new();
    for rule in RULES {
        if config.enabled(rule) {
            (rule.run)(&cx, rule.code, &mut out);
        }
    }
    let mut out = settle(out);
    suppress::apply(map, &files, &mut out);
    config.apply(&mut out);
    out
}

/// The `compositeTypeRef` (apiVersion and kind) of the Composition a bundle was read from.
pub fn composite_type_ref(map: &SourceMap, bundle: &Bundle) -> Option<(String, String)> {
    let crate::source::loader::Origin::Composition { file, .. } = &bundle.origin else {
        return None;
    };
    let docs = crate::source::yaml::read_stream(map.get(*file).text()).ok()?;
    let doc = serde_json::to_value(&docs.into_iter().next()?.value).ok()?;
    let text = |p: &str| {
        doc.at(p)
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
    };
    Some((
        text("/spec/compositeTypeRef/apiVersion")?,
        text("/spec/compositeTypeRef/kind")?,
    ))
}

/// One finding per problem: exact duplicates go, and so does a finding of ours (lints and
/// composition checks) that overlaps an error function-hcl itself reports, which explains it.
fn settle(mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| {
        (
            d.primary
                .as_ref()
                .map(|l| (l.span.file, l.span.start, l.span.end)),
            d.code,
            d.summary.clone(),
            d.detail.clone(),
        )
    };
    let mut seen = std::collections::HashSet::new();
    found.retain(|d| seen.insert(key(d)));
    let theirs: Vec<Span> = found
        .iter()
        .filter(|d| d.severity == Severity::Error && !derived(d.code))
        .filter_map(|d| d.primary.as_ref().map(|l| l.span))
        .collect();
    found.retain(|d| {
        !derived(d.code)
            || d.primary
                .as_ref()
                .is_none_or(|l| !theirs.iter().any(|t| overlaps(*t, l.span)))
    });
    found
}

/// Findings of fnhcl's own (the composition checks and the lints), as opposed to function-hcl's.
fn derived(code: Code) -> bool {
    matches!(code.as_str().as_bytes().first(), Some(b'C' | b'L'))
}

fn overlaps(a: Span, b: Span) -> bool {
    a.file == b.file && a.start <= b.end && b.start <= a.end
}

fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::loader::{BundleFile, Origin};
    use std::path::PathBuf;

    fn checked(text: &str, deadline: Instant) -> Vec<Diagnostic> {
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", text);
        let bundle = Bundle {
            files: vec![BundleFile {
                name: "main.hcl".into(),
                file,
                path: None,
            }],
            origin: Origin::Directory(PathBuf::from(".")),
        };
        let map = Arc::new(map);
        // An enclosing deadline applies when it is the earlier: `check`'s own is 10 s.
        crate::eval::deadline::within(Some(deadline), || {
            check_bundle(&map, &bundle, &Config::default())
        })
        .expect("check reports its time bound itself")
    }

    #[test]
    fn an_evaluation_past_the_time_bound_is_one_finding_where_it_stopped() {
        // A million iterations that build nothing the budget would stop: only time ends it.
        let text = "locals {\n  a = [for i in range(1024) : [for j in range(1024) : j if false]]\n  b = \"x\" + 1\n}\n";
        let found = checked(text, Instant::now() + Duration::from_millis(20));
        let slow: Vec<&Diagnostic> = found.iter().filter(|d| d.code == Code::T304).collect();
        assert_eq!(slow.len(), 1, "{found:#?}");
        assert_eq!(slow[0].severity, Severity::Warning);
        let at = slow[0].primary.as_ref().map(|l| (l.span.start, l.span.end));
        assert_eq!(at, Some((15, 75)), "at `a`'s expression");
        // What follows was not evaluated: no finding about `b`.
        assert!(!found.iter().any(|d| d.code == Code::L608), "{found:#?}");
    }
}
