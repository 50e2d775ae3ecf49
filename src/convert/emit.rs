//! One P&T `Resources` input as a function-hcl program: a `resource` block per P&T resource
//! (body = base + patches), `composite status` for patches to the XR, `composite connection`
//! for connection details, `ready` for readiness checks. What cannot be said exactly is a
//! [`Todo`] and a `# TODO(fnhcl convert): …` comment at the resource (or file) it concerns.

use super::hcl::{Seg, literal, parse_path, quote, traversal};
use super::transform;
use super::tree::{Cond, Obj, and, or};
use serde_json::Value as Json;

/// The context key P&T keeps the Composition environment under.
pub const ENVIRONMENT_KEY: &str = "apiextensions.crossplane.io/environment";

/// Something the conversion could not express exactly.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Todo {
    /// The P&T resource it concerns (none: the whole step).
    pub resource: Option<String>,
    /// What and why.
    pub what: String,
}

/// A converted step: the program's text (not yet formatted) and its TODOs.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The HCL.
    pub text: String,
    /// Everything left as a TODO, in file order.
    pub todos: Vec<Todo>,
}

/// Where a patch reads from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    Xr,
    Observed,
    Environment,
}

impl Root {
    fn expr(self) -> &'static str {
        match self {
            Root::Xr => "xr",
            Root::Observed => "self.resource",
            Root::Environment => "env",
        }
    }
}

/// Whether a read of `path` below `root` always succeeds: an XR always has these.
fn always_there(root: Root, path: &[Seg]) -> bool {
    if root != Root::Xr {
        return false;
    }
    match path {
        [Seg::Field(a)] => a == "apiVersion" || a == "kind",
        [Seg::Field(a), Seg::Field(b)] => a == "metadata" && b == "name",
        _ => false,
    }
}

#[derive(Default)]
struct Used {
    xr: bool,
    env: bool,
}

/// Converts the input of one P&T step.
pub fn program(input: &Json) -> Program {
    let mut used = Used::default();
    let mut todos = Vec::new();
    let mut blocks = Vec::new();
    let sets = patch_sets(input);
    if let Some(env) = input.get("environment")
        && env
            .get("patches")
            .and_then(Json::as_array)
            .is_some_and(|p| !p.is_empty())
    {
        todos.push(Todo {
            resource: None,
            what: "`environment.patches` (patches between the XR and the Composition environment) are not converted: write them as a `context` block that updates the environment".into(),
        });
    }
    let resources = input
        .get("resources")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, r) in resources.iter().enumerate() {
        let name = r
            .get("name")
            .and_then(Json::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| format!("resource-{i}"));
        let mut own = Vec::new();
        let block = resource(&name, r, &sets, &mut used, &mut own);
        blocks.push(with_todos(block, &own, ""));
        todos.extend(own);
    }
    let mut text = String::new();
    let global: Vec<Todo> = todos
        .iter()
        .filter(|t| t.resource.is_none())
        .cloned()
        .collect();
    for t in &global {
        text.push_str(&format!("# TODO(fnhcl convert): {}\n", t.what));
    }
    if !global.is_empty() {
        text.push('\n');
    }
    let mut body = blocks.join("\n");
    let mut locals = Vec::new();
    if used.xr {
        locals.push("xr = req.composite".to_string());
        // The XR's parameters, read by most patches, get a name of their own; `try` keeps the
        // local known (and every `can(params.…)` false) when the XR has none.
        if let Some(replaced) = alias(&body, "xr.spec.parameters", "params") {
            body = replaced;
            locals.push("params = try(xr.spec.parameters, {})".to_string());
        }
    }
    if used.env {
        locals.push(format!(
            "env = try(req.context[{}], {{}})",
            quote(ENVIRONMENT_KEY)
        ));
    }
    if !locals.is_empty() {
        text.push_str(&format!("locals {{\n{}\n}}\n\n", locals.join("\n")));
    }
    text.push_str(&body);
    Program { text, todos }
}

/// `text` with every traversal that starts with `path` and goes deeper (`path.x`, `path[…]`)
/// starting with `name` instead, when there are at least two; `None` otherwise. A match must
/// not continue a longer name (`myxr.spec…`) and is never inside a string literal, since the
/// program writes paths only as traversals.
fn alias(text: &str, path: &str, name: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut rest = text;
    let mut previous: Option<char> = None;
    while let Some(at) = rest.find(path) {
        let before = rest[..at].chars().next_back().or(previous);
        let after = rest[at + path.len()..].chars().next();
        let boundary =
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
        out.push_str(&rest[..at]);
        if boundary && matches!(after, Some('.' | '[')) {
            out.push_str(name);
            count += 1;
        } else {
            out.push_str(path);
        }
        previous = path.chars().next_back();
        rest = &rest[at + path.len()..];
    }
    out.push_str(rest);
    (count >= 2).then_some(out)
}

/// Patch sets by name.
fn patch_sets(input: &Json) -> Vec<(String, Vec<Json>)> {
    input
        .get("patchSets")
        .and_then(Json::as_array)
        .map(|sets| {
            sets.iter()
                .map(|s| {
                    (
                        s.get("name")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_string(),
                        s.get("patches")
                            .and_then(Json::as_array)
                            .cloned()
                            .unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A resource's patches with patch sets expanded, as P&T expands them, each with the name of
/// the set it came from.
fn expand(
    r: &Json,
    sets: &[(String, Vec<Json>)],
    todo: &mut dyn FnMut(String),
) -> Vec<(Json, Option<String>)> {
    let mut out = Vec::new();
    for p in r
        .get("patches")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        if p.get("type").and_then(Json::as_str) != Some("PatchSet") {
            out.push((p.clone(), None));
            continue;
        }
        let set = p.get("patchSetName").and_then(Json::as_str).unwrap_or("");
        match sets.iter().find(|(n, _)| n == set) {
            Some((_, patches)) => {
                out.extend(patches.iter().map(|p| (p.clone(), Some(set.to_string()))));
            }
            None => todo(format!(
                "the patch set `{set}` does not exist (P&T fails the step)"
            )),
        }
    }
    out
}

/// What a resource's patches build.
struct Built {
    body: Obj,
    status: Obj,
    required: Vec<String>,
}

fn resource(
    name: &str,
    r: &Json,
    sets: &[(String, Vec<Json>)],
    used: &mut Used,
    todos: &mut Vec<Todo>,
) -> String {
    let mut todo = |what: String| {
        todos.push(Todo {
            resource: Some(name.to_string()),
            what,
        })
    };
    let label = if super::hcl::is_identifier(name) {
        name.to_string()
    } else {
        quote(name)
    };
    let Some(base) = r.get("base") else {
        todo("no `base`: P&T patches the resource an earlier step produced; function-hcl cannot read the desired state of earlier steps".into());
        return format!("# resource {label}: not converted\n");
    };
    let Some(body) = Obj::from_json(base) else {
        todo("a `base` that is not an object".into());
        return format!("# resource {label}: not converted\n");
    };
    // P&T copies an observed resource's name and namespace onto the desired one; Crossplane
    // (and so `render`) keeps the observed name of a resource whose desired state has none,
    // so the program does not need to.
    let mut built = Built {
        body,
        status: Obj::default(),
        required: Vec::new(),
    };
    let patches = expand(r, sets, &mut todo);
    for (i, (p, set)) in patches.iter().enumerate() {
        let at = match set {
            Some(set) => format!("patch {i} (from patch set `{set}`)"),
            None => format!("patch {i}"),
        };
        if let Err(why) = patch(p, &mut built, used) {
            todo(format!("{at}: {why}"));
        }
    }
    let mut out = format!("resource {label} {{\n");
    if !built.required.is_empty() {
        out.push_str(&format!(
            "condition = {}\n",
            or(&[and(&built.required), "self.resource != null".into()])
        ));
        todo("a `Required` source: the resource waits for it as in P&T, but P&T also marks the XR not ready meanwhile (function-hcl cannot set the XR's readiness)".into());
    }
    out.push_str(&format!("body = {}\n", built.body.render()));
    if built.status.has_writes() {
        out.push_str(&format!(
            "\ncomposite status {{\nbody = self.resource != null ? {} : null\n}}\n",
            built.status.render()
        ));
    }
    match connection(r) {
        Ok(Some(conn)) => {
            out.push_str(&format!(
                "\ncomposite connection {{\nbody = self.resource != null ? {conn} : null\n}}\n"
            ));
            todo("connection details: P&T adds them to those earlier steps set (function-hcl replaces the desired XR's), and for an XR with `spec.crossplane` (Crossplane v2) composes a Secret `<xr-name>-connection-secret` with them instead".into());
        }
        Ok(None) => {}
        Err(why) => todo(why),
    }
    match readiness(r) {
        Ok(Some(value)) => out.push_str(&format!("\nready {{\nvalue = {value}\n}}\n")),
        Ok(None) => {}
        Err(why) => todo(why),
    }
    out.push_str("}\n");
    out
}

/// One patch into the resource's body or the XR's status.
fn patch(p: &Json, built: &mut Built, used: &mut Used) -> Result<(), String> {
    let kind = p
        .get("type")
        .and_then(Json::as_str)
        .unwrap_or("FromCompositeFieldPath");
    let (root, to_xr) = match kind {
        "FromCompositeFieldPath" | "CombineFromComposite" => (Root::Xr, false),
        "FromEnvironmentFieldPath" | "CombineFromEnvironment" => (Root::Environment, false),
        "ToCompositeFieldPath" | "CombineToComposite" => (Root::Observed, true),
        "ToEnvironmentFieldPath" | "CombineToEnvironment" => {
            return Err(format!(
                "a `{kind}` patch (function-hcl's `context` block replaces the environment as a whole, P&T patches it in place)"
            ));
        }
        other => return Err(format!("the patch type `{other}`")),
    };
    let policy = p.get("policy");
    let to_policy = policy
        .and_then(|p| p.get("toFieldPath"))
        .and_then(Json::as_str)
        .unwrap_or("Replace");
    if to_policy != "Replace" {
        return Err(format!(
            "the toFieldPath policy `{to_policy}` (P&T merges into the existing value)"
        ));
    }
    let required = policy
        .and_then(|p| p.get("fromFieldPath"))
        .and_then(Json::as_str)
        == Some("Required");
    let (cond, mut value, from) = if kind.starts_with("Combine") {
        combine(p, root)?
    } else {
        let from = p
            .get("fromFieldPath")
            .and_then(Json::as_str)
            .ok_or("a patch without `fromFieldPath`")?;
        let path = parse_path(from).ok_or(format!("the malformed field path `{from}`"))?;
        if path.contains(&Seg::Wildcard) {
            return Err(format!("the wildcard in `fromFieldPath: {from}`"));
        }
        let read = traversal(root.expr(), &path);
        let cond = if always_there(root, &path) {
            None
        } else {
            Some(format!("can({read})"))
        };
        (cond, read, from.to_string())
    };
    for t in p
        .get("transforms")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        value = transform::apply(t, &value)?;
    }
    let to = p
        .get("toFieldPath")
        .and_then(Json::as_str)
        .unwrap_or(&from)
        .to_string();
    let path = parse_path(&to).ok_or(format!("the malformed field path `{to}`"))?;
    match root {
        Root::Xr => used.xr = true,
        Root::Environment => used.env = true,
        Root::Observed => {}
    }
    if to_xr {
        let Some((Seg::Field(first), rest)) = path.split_first() else {
            return Err(format!("the XR field path `{to}`"));
        };
        if first != "status" || rest.is_empty() {
            return Err(format!(
                "a patch to the XR's `{to}`: function-hcl writes only the XR's status"
            ));
        }
        if rest
            .iter()
            .any(|s| matches!(s, Seg::Index(_) | Seg::Wildcard))
        {
            // P&T writes the elements of one XR array from several resources, in order;
            // function-hcl unifies the status blocks and fails where two arrays differ.
            return Err(format!(
                "a patch to an element of the XR's array `{to}` (P&T fills it from several resources in order; function-hcl's status blocks must agree on whole arrays)"
            ));
        }
        return built.status.write(rest, cond, value);
    }
    if required && let Some(c) = &cond {
        built.required.push(c.clone());
    }
    built.body.write(&path, cond, value)
}

/// A Combine patch's condition (every variable present), value and a name for its target.
fn combine(p: &Json, root: Root) -> Result<(Cond, String, String), String> {
    let c = p
        .get("combine")
        .ok_or("a Combine patch without `combine`")?;
    let strategy = c.get("strategy").and_then(Json::as_str).unwrap_or("string");
    if strategy != "string" {
        return Err(format!("the combine strategy `{strategy}`"));
    }
    let fmt = c
        .get("string")
        .and_then(|s| s.get("fmt"))
        .and_then(Json::as_str)
        .ok_or("a string Combine without `string.fmt`")?;
    let mut conds = Vec::new();
    let mut reads = Vec::new();
    for v in c
        .get("variables")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        let from = v
            .get("fromFieldPath")
            .and_then(Json::as_str)
            .ok_or("a Combine variable without `fromFieldPath`")?;
        let path = parse_path(from).ok_or(format!("the malformed field path `{from}`"))?;
        let read = traversal(root.expr(), &path);
        if !always_there(root, &path) {
            conds.push(format!("can({read})"));
        }
        reads.push(read);
    }
    let value = transform::format_call(fmt, &reads)?;
    let cond = if conds.is_empty() {
        None
    } else {
        Some(and(&conds))
    };
    let to = p
        .get("toFieldPath")
        .and_then(Json::as_str)
        .ok_or("a Combine patch without `toFieldPath`")?;
    Ok((cond, value, to.to_string()))
}

/// The connection details as an object expression of base64 strings, `None` without any.
fn connection(r: &Json) -> Result<Option<String>, String> {
    let details = r
        .get("connectionDetails")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    if details.is_empty() {
        return Ok(None);
    }
    let mut obj = Obj::default();
    for d in &details {
        let name = d
            .get("name")
            .and_then(Json::as_str)
            .ok_or("a connection detail without `name`")?;
        let kind = d
            .get("type")
            .and_then(Json::as_str)
            .unwrap_or(if d.get("value").is_some() {
                "FromValue"
            } else if d.get("fromConnectionSecretKey").is_some() {
                "FromConnectionSecretKey"
            } else {
                "FromFieldPath"
            });
        let target = [Seg::Field(name.to_string())];
        let (cond, value) = match kind {
            "FromValue" => {
                let v = d.get("value").and_then(Json::as_str).unwrap_or("");
                (None, format!("base64encode({})", quote(v)))
            }
            "FromConnectionSecretKey" => {
                let k = d
                    .get("fromConnectionSecretKey")
                    .and_then(Json::as_str)
                    .unwrap_or("");
                let read = format!("self.connection[{}]", quote(k));
                (Some(format!("can({read})")), read)
            }
            "FromFieldPath" => {
                let from = d
                    .get("fromFieldPath")
                    .and_then(Json::as_str)
                    .ok_or("a FromFieldPath connection detail without `fromFieldPath`")?;
                let path = parse_path(from).ok_or(format!("the malformed field path `{from}`"))?;
                let read = traversal("self.resource", &path);
                (
                    Some(format!("can({read})")),
                    format!("base64encode(try(tostring({read}), jsonencode({read})))"),
                )
            }
            other => return Err(format!("the connection detail type `{other}`")),
        };
        obj.write(&target, cond, value)?;
    }
    Ok(Some(obj.render()))
}

/// The `ready` value for the readiness checks (P&T's default check without any): ready only
/// when the resource is observed and every check passes, else unspecified, as P&T leaves it.
fn readiness(r: &Json) -> Result<Option<String>, String> {
    let checks = r
        .get("readinessChecks")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    if checks.is_empty() {
        // P&T's default check: the observed resource's Ready condition is True. Without a
        // `ready` block function-hcl leaves readiness unspecified, which Crossplane reads
        // as not ready.
        return Ok(Some(
            "anytrue([for c in try(self.resource.status.conditions, []) : c.type == \"Ready\" && c.status == \"True\"]) ? \"READY_TRUE\" : \"READY_UNSPECIFIED\"".into(),
        ));
    }
    let mut tests = Vec::new();
    for c in &checks {
        let kind = c.get("type").and_then(Json::as_str).unwrap_or("");
        let field = || -> Result<String, String> {
            let from = c
                .get("fieldPath")
                .and_then(Json::as_str)
                .ok_or(format!("a `{kind}` readiness check without `fieldPath`"))?;
            let path = parse_path(from).ok_or(format!("the malformed field path `{from}`"))?;
            Ok(traversal("self.resource", &path))
        };
        let test = match kind {
            "None" => continue,
            "NonEmpty" => format!("can({})", field()?),
            "MatchString" => {
                let s = c.get("matchString").and_then(Json::as_str).unwrap_or("");
                format!("try({} == {}, false)", field()?, quote(s))
            }
            "MatchInteger" => {
                let n = c.get("matchInteger").cloned().unwrap_or(Json::from(0));
                format!("try({} == {}, false)", field()?, literal(&n))
            }
            "MatchTrue" => format!("try({} == true, false)", field()?),
            "MatchFalse" => format!("try({} == false, false)", field()?),
            "MatchCondition" => {
                let m = c.get("matchCondition");
                let t = m
                    .and_then(|m| m.get("type"))
                    .and_then(Json::as_str)
                    .unwrap_or("Ready");
                let s = m
                    .and_then(|m| m.get("status"))
                    .and_then(Json::as_str)
                    .unwrap_or("True");
                // A condition the resource does not have reads as status Unknown.
                format!(
                    "try([for c in self.resource.status.conditions : c.status if c.type == {}][0], \"Unknown\") == {}",
                    quote(t),
                    quote(s)
                )
            }
            other => return Err(format!("the readiness check type `{other}`")),
        };
        tests.push(test);
    }
    let mut all = vec!["self.resource != null".to_string()];
    all.extend(tests);
    Ok(Some(format!(
        "{} ? \"READY_TRUE\" : \"READY_UNSPECIFIED\"",
        and(&all)
    )))
}

/// `block` with its TODOs as comments on the lines above its first.
fn with_todos(block: String, todos: &[Todo], indent: &str) -> String {
    let mut out = String::new();
    for t in todos {
        out.push_str(&format!("{indent}# TODO(fnhcl convert): {}\n", t.what));
    }
    out.push_str(&block);
    out
}
