//! Reading CompositionTest files into one shape: Crossplane's `test.crossplane.io/v1alpha1`
//! (`spec.tests[]`, `inputs`, `patches`, `assertions` of `type: chainsaw`) and Upbound's
//! `meta.dev.upbound.io/v1alpha1` (one test per document: `xrPath`/`xr`, `compositionPath`,
//! `assertResources`, …), plus fnhcl's reconcile `steps`. Unknown fields are errors, so a typo
//! does not silently drop an input or an assertion. Nothing here reads another file.

use crate::golden::expect_error::ExpectedError;
use crate::golden::scenario::Observe;
use crate::source::SourceFile;
use crate::source::pointer::Pointer;
use crate::source::yaml::{Node, NodeKind};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Crossplane's CompositionTest `apiVersion`.
pub const CROSSPLANE_API: &str = "test.crossplane.io/v1alpha1";
/// Upbound's CompositionTest `apiVersion`.
pub const UPBOUND_API: &str = "meta.dev.upbound.io/v1alpha1";
/// The kind both formats use.
pub const KIND: &str = "CompositionTest";
/// Renders a `until: converged` step makes when it gives no `maxSteps`.
pub const DEFAULT_MAX_STEPS: usize = 10;
/// Largest `maxSteps` accepted (each is a whole render).
pub const MAX_STEPS_LIMIT: usize = 100;
/// `timeoutSeconds` when a test gives none (both formats' default).
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 30;

/// One document (`path`, relative to the project root) or inline (`raw`).
#[derive(Clone, Debug)]
pub enum One {
    /// A file.
    Path(PathBuf),
    /// Inline.
    Raw(Json),
}

/// Documents in a file or folder (`path`), or inline (`raw`).
#[derive(Clone, Debug)]
pub enum Many {
    /// A file or folder.
    Path(PathBuf),
    /// Inline.
    Raw(Vec<Json>),
}

/// A chainsaw assertion document and where it is written.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// The subset document.
    pub doc: Json,
    /// Its node in the test file (for the line of a failing field).
    pub node: Node,
}

/// One reconcile after the first render (fnhcl's extension).
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// `name`, for messages.
    pub name: Option<String>,
    /// What Crossplane observes of the previous render's resources.
    pub observe: Observe,
    /// `extraResources`: replace the extra resources from this step on.
    pub extra: Option<Many>,
    /// `context`: merged over the context from this step on.
    pub context: Vec<(String, Json)>,
    /// `until: converged`: `Some(maxSteps)`.
    pub until_converged: Option<usize>,
    /// The step's assertions.
    pub assertions: Vec<Assertion>,
}

/// One test, whichever format it came from.
#[derive(Clone, Debug, Default)]
pub struct TestSpec {
    /// Its name.
    pub name: String,
    /// The XR.
    pub xr: Option<One>,
    /// The XRD (`patches.xrd`, `xrd`/`xrdPath`).
    pub xrd: Option<One>,
    /// The composition (a Composition file, or anything `render` takes as SOURCE).
    pub composition: Option<PathBuf>,
    /// The Functions.
    pub functions: Option<Many>,
    /// Observed composed resources.
    pub observed: Option<Many>,
    /// Extra resources.
    pub extra: Option<Many>,
    /// Context, key by key.
    pub context: Vec<(String, Json)>,
    /// `functionCredentialsPath`.
    pub credentials: Option<PathBuf>,
    /// `timeoutSeconds`.
    pub timeout_seconds: u64,
    /// `validate`.
    pub validate: bool,
    /// `patches.addFields`: field path → value.
    pub add_fields: Vec<(String, String)>,
    /// `patches.removeFields`.
    pub remove_fields: Vec<String>,
    /// Assertions on the first render.
    pub assertions: Vec<Assertion>,
    /// Reconciles after the first render.
    pub steps: Vec<Step>,
    /// fnhcl's `expectError`: the render must fail so.
    pub expect_error: Option<ExpectedError>,
}

/// A test found in a file: its name, and the test or why it cannot run.
pub type Parsed = (String, Result<TestSpec, String>);

/// Reads a field of a mapping node.
struct Fields<'a> {
    file: &'a SourceFile,
    node: &'a Node,
    value: &'a Json,
    /// What the mapping is, for messages (`spec.tests[0].inputs`).
    what: String,
}

impl<'a> Fields<'a> {
    fn new(
        file: &'a SourceFile,
        node: &'a Node,
        value: &'a Json,
        what: String,
    ) -> Result<Self, String> {
        if !value.is_object() {
            return Err(at(file, node, &format!("`{what}` must be a mapping")));
        }
        Ok(Fields {
            file,
            node,
            value,
            what,
        })
    }

    /// Fails on a key not in `known`.
    fn only(&self, known: &[&str]) -> Result<(), String> {
        if let NodeKind::Mapping(entries) = &self.node.kind {
            for (key, _) in entries {
                let name = key.as_str().unwrap_or_default();
                if !known.contains(&name) {
                    return Err(at(
                        self.file,
                        key,
                        &format!(
                            "unknown field `{name}` in `{}` (known: {})",
                            self.what,
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<(&'a Json, &'a Node)> {
        let value = self.value.get(key).filter(|v| !v.is_null())?;
        Some((value, self.node.get(key).unwrap_or(self.node)))
    }

    fn child(&self, key: &str) -> Result<Option<Fields<'a>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some((value, node)) => {
                let what = if self.what.is_empty() {
                    key.to_string()
                } else {
                    format!("{}.{key}", self.what)
                };
                Fields::new(self.file, node, value, what).map(Some)
            }
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some((Json::String(s), _)) => Ok(Some(s.clone())),
            Some((_, node)) => Err(self.wrong(node, key, "a string")),
        }
    }

    fn path(&self, key: &str) -> Result<Option<PathBuf>, String> {
        Ok(self
            .string(key)?
            .filter(|s| !s.is_empty())
            .map(PathBuf::from))
    }

    fn bool(&self, key: &str) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(false),
            Some((Json::Bool(b), _)) => Ok(*b),
            Some((_, node)) => Err(self.wrong(node, key, "true or false")),
        }
    }

    fn count(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some((value, node)) => match value.as_u64().filter(|n| (min..=max).contains(n)) {
                Some(n) => Ok(Some(n)),
                None => Err(self.wrong(node, key, &format!("a whole number from {min} to {max}"))),
            },
        }
    }

    fn list(&self, key: &str) -> Result<Vec<(&'a Json, &'a Node)>, String> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some((Json::Array(items), node)) => Ok(items.iter().zip(node.items()).collect()),
            Some((_, node)) => Err(self.wrong(node, key, "a list")),
        }
    }

    fn strings(&self, key: &str) -> Result<Vec<String>, String> {
        self.list(key)?
            .into_iter()
            .map(|(v, node)| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| self.wrong(node, key, "a list of strings"))
            })
            .collect()
    }

    fn wrong(&self, node: &Node, key: &str, wanted: &str) -> String {
        at(
            self.file,
            node,
            &format!("`{}.{key}` must be {wanted}", self.what),
        )
    }

    /// A [`One`]: `{path}` or `{raw}` (exactly one).
    fn one(&self, key: &str) -> Result<Option<One>, String> {
        let Some(fields) = self.child(key)? else {
            return Ok(None);
        };
        fields.only(&["path", "raw"])?;
        match (fields.path("path")?, fields.get("raw")) {
            (Some(path), None) => Ok(Some(One::Path(path))),
            (None, Some((raw, _))) if raw.is_object() => Ok(Some(One::Raw(raw.clone()))),
            (None, Some((_, node))) => Err(fields.wrong(node, "raw", "a Kubernetes object")),
            _ => Err(at(
                self.file,
                fields.node,
                &format!(
                    "`{}.{key}` needs exactly one of `path` and `raw`",
                    self.what
                ),
            )),
        }
    }

    /// A [`Many`]: `{path}` or `{raw: [..]}`; a bare list is taken as `raw`.
    fn many(&self, key: &str) -> Result<Option<Many>, String> {
        if let Some((Json::Array(_), _)) = self.get(key) {
            return Ok(Some(Many::Raw(self.objects(key)?)));
        }
        let Some(fields) = self.child(key)? else {
            return Ok(None);
        };
        fields.only(&["path", "raw"])?;
        match (fields.path("path")?, fields.get("raw")) {
            (Some(path), None) => Ok(Some(Many::Path(path))),
            (None, Some(_)) => Ok(Some(Many::Raw(fields.objects("raw")?))),
            _ => Err(at(
                self.file,
                fields.node,
                &format!(
                    "`{}.{key}` needs exactly one of `path` and `raw`",
                    self.what
                ),
            )),
        }
    }

    /// A list of Kubernetes objects.
    fn objects(&self, key: &str) -> Result<Vec<Json>, String> {
        self.list(key)?
            .into_iter()
            .map(|(v, node)| {
                if v.is_object() {
                    Ok(v.clone())
                } else {
                    Err(self.wrong(node, key, "a list of Kubernetes objects"))
                }
            })
            .collect()
    }

    /// Assertion documents of a list.
    fn assertions(&self, key: &str) -> Result<Vec<Assertion>, String> {
        self.list(key)?
            .into_iter()
            .map(|(doc, node)| {
                if doc.is_object() {
                    Ok(Assertion {
                        doc: doc.clone(),
                        node: node.clone(),
                    })
                } else {
                    Err(self.wrong(node, key, "a list of resources to assert"))
                }
            })
            .collect()
    }

    /// Context as a mapping of keys to values.
    fn context(&self, key: &str) -> Result<Vec<(String, Json)>, String> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some((Json::Object(map), _)) => Ok(map.clone().into_iter().collect()),
            Some((_, node)) => Err(self.wrong(node, key, "a mapping of context keys to values")),
        }
    }
}

/// `file:line:column: message`.
pub fn at(file: &SourceFile, node: &Node, message: &str) -> String {
    let lc = file.line_col(node.span.start);
    format!(
        "{}:{}:{}: {message}",
        file.display_name(),
        lc.line,
        lc.column
    )
}

/// Whether a document is a CompositionTest of either format.
pub fn is_test(doc: &Json) -> bool {
    let api = doc.get("apiVersion").and_then(Json::as_str);
    doc.get("kind").and_then(Json::as_str) == Some(KIND)
        && matches!(api, Some(CROSSPLANE_API | UPBOUND_API))
}

/// The tests of a file's documents (those that are CompositionTests), in order.
pub fn tests(file: &SourceFile, docs: &[(Json, Node)]) -> Vec<Parsed> {
    let mut out = Vec::new();
    for (doc, node) in docs {
        if !is_test(doc) {
            continue;
        }
        let api = doc.get("apiVersion").and_then(Json::as_str);
        if api == Some(UPBOUND_API) {
            let name = doc
                .at("/metadata/name")
                .and_then(Json::as_str)
                .unwrap_or("(unnamed)")
                .to_string();
            out.push((name, upbound(file, node, doc)));
            continue;
        }
        let spec = Fields::new(file, node, doc, String::new())
            .and_then(|top| top.child("spec"))
            .and_then(|spec| {
                let spec = spec.ok_or_else(|| at(file, node, "a CompositionTest needs `spec`"))?;
                spec.only(&["tests"])?;
                Ok(spec)
            });
        let spec = match spec {
            Ok(spec) => spec,
            Err(why) => {
                out.push((String::from("(invalid)"), Err(why)));
                continue;
            }
        };
        match spec.list("tests") {
            Err(why) => out.push((String::from("(invalid)"), Err(why))),
            Ok(tests) => {
                for (i, (test, node)) in tests.into_iter().enumerate() {
                    let name = test
                        .get("name")
                        .and_then(Json::as_str)
                        .map_or_else(|| format!("tests[{i}]"), str::to_string);
                    let what = format!("spec.tests[{i}]");
                    let parsed = Fields::new(file, node, test, what).and_then(|f| crossplane(&f));
                    out.push((name, parsed));
                }
            }
        }
    }
    out
}

/// Crossplane's `spec.tests[]` entry.
fn crossplane(test: &Fields<'_>) -> Result<TestSpec, String> {
    test.only(&[
        "name",
        "id",
        "patches",
        "inputs",
        "assertions",
        "steps",
        "expectError",
    ])?;
    let mut spec = TestSpec {
        name: test.string("name")?.unwrap_or_default(),
        timeout_seconds: DEFAULT_TIMEOUT_SECONDS,
        ..TestSpec::default()
    };
    if let Some(patches) = test.child("patches")? {
        patches.only(&["xrd", "addFields", "removeFields"])?;
        spec.xrd = patches.one("xrd")?;
        if let Some(add) = patches.child("addFields")? {
            for (key, value) in add.value.as_object().into_iter().flatten() {
                let Some(text) = value.as_str() else {
                    let node = add.node.get(key).unwrap_or(add.node);
                    return Err(add.wrong(
                        node,
                        key,
                        "a string (addFields maps field paths to strings)",
                    ));
                };
                spec.add_fields.push((key.clone(), text.to_string()));
            }
        }
        spec.remove_fields = patches.strings("removeFields")?;
    }
    let inputs = test
        .child("inputs")?
        .ok_or_else(|| at(test.file, test.node, "a test needs `inputs`"))?;
    inputs.only(&[
        "xr",
        "composition",
        "functions",
        "observedResources",
        "extraResources",
        "context",
        "functionCredentialsPath",
        "timeoutSeconds",
        "validate",
    ])?;
    spec.xr = inputs.one("xr")?;
    spec.composition = match inputs.one("composition")? {
        None => None,
        Some(One::Path(path)) => Some(path),
        Some(One::Raw(_)) => {
            let node = inputs.node.get("composition").unwrap_or(inputs.node);
            return Err(at(
                inputs.file,
                node,
                "an inline `composition.raw` is not supported by fnhcl: write the Composition to a file and give its `path`",
            ));
        }
    };
    spec.functions = inputs.many("functions")?;
    spec.observed = inputs.many("observedResources")?;
    spec.extra = inputs.many("extraResources")?;
    spec.context = inputs.context("context")?;
    spec.credentials = inputs.path("functionCredentialsPath")?;
    spec.timeout_seconds = inputs
        .count("timeoutSeconds", 1, 86_400)?
        .unwrap_or(DEFAULT_TIMEOUT_SECONDS);
    spec.validate = inputs.bool("validate")?;
    for (i, (assertion, node)) in test.list("assertions")?.into_iter().enumerate() {
        let fields = Fields::new(
            test.file,
            node,
            assertion,
            format!("{}.assertions[{i}]", test.what),
        )?;
        fields.only(&["type", "chainsaw"])?;
        match fields.string("type")?.as_deref() {
            Some("chainsaw") => {}
            other => {
                return Err(at(
                    test.file,
                    node,
                    &format!(
                        "assertion type {:?} is not supported: fnhcl runs `type: chainsaw` assertions",
                        other.unwrap_or_default()
                    ),
                ));
            }
        }
        if let Some(chainsaw) = fields.child("chainsaw")? {
            chainsaw.only(&["resources"])?;
            spec.assertions.extend(chainsaw.assertions("resources")?);
        }
    }
    spec.steps = steps(test)?;
    spec.expect_error = expect_error(test, &spec)?;
    Ok(spec)
}

/// fnhcl's `expectError` of a test (`{message, at}`, as in `assert.yaml`): only for a test
/// with no assertions and no steps, as a failed render has no output to check.
fn expect_error(fields: &Fields<'_>, spec: &TestSpec) -> Result<Option<ExpectedError>, String> {
    let Some((value, node)) = fields.get("expectError") else {
        return Ok(None);
    };
    let expected = ExpectedError::from_value(value).map_err(|bad| {
        let key = bad
            .key
            .as_deref()
            .and_then(|k| node.entry(k))
            .map(|(k, _)| k);
        at(fields.file, key.unwrap_or(node), &bad.message)
    })?;
    if !spec.assertions.is_empty() || !spec.steps.is_empty() {
        return Err(at(
            fields.file,
            node,
            "a test with `expectError` expects its render to fail: it can have no assertions or steps",
        ));
    }
    Ok(Some(expected))
}

/// Upbound's spec (one test per document).
fn upbound(file: &SourceFile, node: &Node, doc: &Json) -> Result<TestSpec, String> {
    let top = Fields::new(file, node, doc, String::new())?;
    let spec = top
        .child("spec")?
        .ok_or_else(|| at(file, node, "a CompositionTest needs `spec`"))?;
    spec.only(&[
        "xr",
        "xrPath",
        "xrd",
        "xrdPath",
        "composition",
        "compositionPath",
        "observedResources",
        "extraResources",
        "context",
        "functionCredentialsPath",
        "assertResources",
        "timeoutSeconds",
        "validate",
        "steps",
        "expectError",
    ])?;
    let one = |inline: &str, path: &str| -> Result<Option<One>, String> {
        match (spec.get(inline), spec.path(path)?) {
            (Some(_), Some(_)) => Err(at(
                file,
                spec.node,
                &format!("only one of '{inline}' or '{path}' may be specified"),
            )),
            (Some((raw, _)), None) if raw.is_object() => Ok(Some(One::Raw(raw.clone()))),
            (Some((_, node)), None) => Err(spec.wrong(node, inline, "a Kubernetes object")),
            (None, Some(path)) => Ok(Some(One::Path(path))),
            (None, None) => Ok(None),
        }
    };
    let mut out = TestSpec {
        name: doc
            .at("/metadata/name")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string(),
        xr: one("xr", "xrPath")?,
        xrd: one("xrd", "xrdPath")?,
        timeout_seconds: spec
            .count("timeoutSeconds", 1, 86_400)?
            .unwrap_or(DEFAULT_TIMEOUT_SECONDS),
        validate: spec.bool("validate")?,
        credentials: spec.path("functionCredentialsPath")?,
        ..TestSpec::default()
    };
    if spec.get("composition").is_some() {
        let node = spec.node.get("composition").unwrap_or(spec.node);
        return Err(at(
            file,
            node,
            "an inline `composition` is not supported by fnhcl: write the Composition to a file and give `compositionPath`",
        ));
    }
    out.composition = spec.path("compositionPath")?;
    if spec.get("observedResources").is_some() {
        out.observed = Some(Many::Raw(spec.objects("observedResources")?));
    }
    if spec.get("extraResources").is_some() {
        out.extra = Some(Many::Raw(spec.objects("extraResources")?));
    }
    // Upbound's `context` is a list of objects; each one's keys are context keys.
    let mut context = Map::new();
    for object in spec.objects("context")? {
        if let Json::Object(map) = object {
            context.extend(map);
        }
    }
    out.context = context.into_iter().collect();
    out.assertions = spec.assertions("assertResources")?;
    out.steps = steps(&spec)?;
    out.expect_error = expect_error(&spec, &out)?;
    Ok(out)
}

/// fnhcl's `steps`.
fn steps(test: &Fields<'_>) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for (i, (value, node)) in test.list("steps")?.into_iter().enumerate() {
        let what = format!("{}.steps[{i}]", test.what);
        let fields = Fields::new(test.file, node, value, what)?;
        fields.only(&[
            "name",
            "status",
            "unready",
            "absent",
            "connectionDetails",
            "extraResources",
            "context",
            "until",
            "maxSteps",
            "assertions",
        ])?;
        let mut step = Step {
            name: fields.string("name")?,
            extra: fields.many("extraResources")?,
            context: fields.context("context")?,
            assertions: fields.assertions("assertions")?,
            ..Step::default()
        };
        step.observe.unready = fields.strings("unready")?.into_iter().collect();
        step.observe.absent = fields.strings("absent")?.into_iter().collect();
        if let Some(status) = fields.child("status")? {
            for (name, patch) in status.value.as_object().into_iter().flatten() {
                step.observe.status.insert(name.clone(), patch.clone());
            }
        }
        if let Some(details) = fields.child("connectionDetails")? {
            for (name, values) in details.value.as_object().into_iter().flatten() {
                let node = details.node.get(name).unwrap_or(details.node);
                let Some(values) = values.as_object() else {
                    return Err(details.wrong(node, name, "a mapping of keys to strings"));
                };
                let mut map = BTreeMap::new();
                for (key, value) in values {
                    let Some(text) = value.as_str() else {
                        return Err(details.wrong(node, name, "a mapping of keys to strings"));
                    };
                    map.insert(key.clone(), text.to_string());
                }
                step.observe.connection.insert(name.clone(), map);
            }
        }
        let max = fields.count("maxSteps", 1, MAX_STEPS_LIMIT as u64)?;
        match fields.string("until")?.as_deref() {
            None if max.is_some() => {
                let node = fields.node.get("maxSteps").unwrap_or(node);
                return Err(at(test.file, node, "`maxSteps` needs `until: converged`"));
            }
            None => {}
            Some("converged") => {
                step.until_converged = Some(max.map_or(DEFAULT_MAX_STEPS, |n| n as usize));
            }
            Some(other) => {
                let node = fields.node.get("until").unwrap_or(node);
                return Err(at(
                    test.file,
                    node,
                    &format!("`until: {other}` is not supported: write `until: converged`"),
                ));
            }
        }
        out.push(step);
    }
    Ok(out)
}
