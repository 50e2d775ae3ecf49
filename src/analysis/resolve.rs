//! Name resolution over a whole program: the scopes function-hcl's analyzer builds (one per
//! block, plus the `each` level of a collection), the bindings they introduce (locals and user
//! function arguments) and every variable reference with the scope it is read in and what it
//! resolves to. Nothing here evaluates or reports; `check` and the language tools read it.
//!
//! Scoping follows function-hcl's analyzer (`analyze.go`), which differs from evaluation in
//! one place: a collection's own `composite` and `context` blocks see `each` (evaluation runs
//! them without it). Function bodies have a root of their own (arguments and locals only);
//! function and argument descriptions and argument defaults are constants (no variables).

use super::references::{VarRef, step_name, variables};
use crate::source::{FileId, Span};
use crate::syntax::model::{
    Child, Collection, Composite, ContextBlock, FileExpr, Function, GroupBody, Locals, Origin,
    Ready, Requirement, Resource, ResourceChild, Template,
};
use std::collections::HashMap;

/// An index into [`Resolution::scopes`].
pub type ScopeId = usize;
/// An index into [`Resolution::bindings`].
pub type BindingId = usize;

/// What made a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// The merged top level (`req` lives here).
    Top,
    /// `group`.
    Group,
    /// `resource NAME`.
    Resource,
    /// `resources BASE` (its locals, `condition`, `for_each`).
    Resources,
    /// The `each` level of a collection: its `name`, `template` and nested blocks.
    Iteration,
    /// `template`.
    Template,
    /// `composite status|connection`.
    Composite,
    /// `context`.
    Context,
    /// `ready`.
    Ready,
    /// `requirement NAME` (and its `select`).
    Requirement,
    /// A user function's body and locals (arguments are its bindings).
    Function,
    /// Descriptions and argument defaults: evaluated with no variables at all.
    Constant,
}

/// One scope.
#[derive(Debug)]
pub struct ScopeInfo<'p> {
    /// The enclosing scope (`None` for roots: the top level, functions, constants).
    pub parent: Option<ScopeId>,
    /// What made it.
    pub kind: ScopeKind,
    /// The block's label: resource name, collection base name, requirement or function name.
    pub label: Option<&'p str>,
    /// Where the block is.
    pub origin: Option<&'p Origin>,
    /// The `self` attributes this scope adds (an enclosing scope may have added others).
    pub self_keys: &'static [&'static str],
    /// The locals of this scope (all `locals` blocks of the body), when it has any.
    pub locals: Option<&'p Locals>,
    /// The requirement, for a [`ScopeKind::Requirement`] scope.
    pub requirement: Option<&'p Requirement>,
    /// Names bound here (locals and arguments), first binding of a name wins.
    names: HashMap<&'p str, BindingId>,
}

/// What introduced a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    /// A local (`name = value` in `locals`).
    Local,
    /// A user function argument (`arg NAME { … }`).
    Argument,
}

/// A name bound in a scope.
#[derive(Debug)]
pub struct Binding<'p> {
    /// The name.
    pub name: &'p str,
    /// Local or argument.
    pub kind: BindingKind,
    /// The scope it is bound in.
    pub scope: ScopeId,
    /// The name's range (the local's name, the argument's label).
    pub name_span: Span,
    /// The whole definition (`name = value`, or the `arg` header).
    pub span: Span,
    /// The local's value.
    pub value: Option<&'p FileExpr>,
}

/// Where an expression is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The value of a local (or an argument default).
    Local(BindingId),
    /// A block attribute (`body`, `condition`, `for_each`, …).
    Attribute(&'static str),
}

/// An expression of the program with where it is read.
#[derive(Clone, Copy, Debug)]
pub struct ExprSite<'p> {
    /// The expression.
    pub expr: &'p FileExpr,
    /// The scope it is evaluated in.
    pub scope: ScopeId,
    /// Local value or attribute.
    pub site: Site,
}

/// What a reference's root name resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A local or argument.
    Binding(BindingId),
    /// `req`.
    Req,
    /// `self`, where a block defines it.
    SelfObject,
    /// `each`, inside a collection's iteration.
    Each,
    /// Nothing of that name is in scope.
    Undefined,
}

/// One variable reference.
#[derive(Clone, Debug)]
pub struct Use<'p> {
    /// The file of the expression.
    pub file: FileId,
    /// The traversal.
    pub var: VarRef<'p>,
    /// The scope it is read in.
    pub scope: ScopeId,
    /// The expression it is in.
    pub site: Site,
    /// What the root name resolves to.
    pub target: Target,
}

/// The resolution of a whole program.
#[derive(Debug, Default)]
pub struct Resolution<'p> {
    /// Every scope, parents before children.
    pub scopes: Vec<ScopeInfo<'p>>,
    /// Every binding.
    pub bindings: Vec<Binding<'p>>,
    /// Every expression, in source order per scope.
    pub exprs: Vec<ExprSite<'p>>,
    /// Every variable reference.
    pub uses: Vec<Use<'p>>,
}

const RESOURCE_SELF: &[&str] = &["name", "resource", "connection"];

/// How deep [`Resolution::request_reads`] follows locals (`a = b`, `b = c`, …): further than
/// any program a person writes, and a bound on a cycle the analyzer reports anyway.
pub const MAX_LOCAL_HOPS: usize = 16;

/// A read of the request (see [`Resolution::request_reads`]).
#[derive(Clone, Debug)]
pub struct RequestRead<'r, 'p> {
    /// The reference rooted at `req` or `self`: the one written, or one inside a local's value.
    pub at: &'r Use<'p>,
    /// The steps below `req` or `self` as text (`["composite", "spec", "region"]`); a computed
    /// step (`x[local.i]`) ends them.
    pub path: Vec<String>,
    /// Where the path's last steps are written: `xr.spec.region` in a local whose `xr` is
    /// `req.composite`; `at` itself when they are all written there.
    pub written: &'r Use<'p>,
}

/// A step as text: an attribute, a string key or a number index.
fn step_text(step: &crate::syntax::ast::Step) -> Option<String> {
    use crate::syntax::ast::{Literal, Step};
    match step {
        Step::Index {
            key: Literal::Number(n),
            ..
        } => Some(n.to_string()),
        Step::Index {
            key: Literal::String(s),
            ..
        } => Some(s.clone()),
        other => step_name(other).map(str::to_string),
    }
}
const COLLECTION_SELF: &[&str] = &["basename", "resources", "connections"];

impl<'p> Resolution<'p> {
    /// Resolves every name of the program's top level and user functions.
    pub fn of(top: &'p GroupBody, functions: &'p [Function]) -> Resolution<'p> {
        let mut r = Resolution::default();
        let scope = r.scope(None, ScopeKind::Top, None, None, &[], Some(&top.locals));
        r.group_body(scope, top);
        for f in functions {
            r.function(f);
        }
        r.resolve_uses();
        r
    }

    /// What `name` means in `scope`.
    pub fn lookup(&self, scope: ScopeId, name: &str) -> Target {
        let mut at = Some(scope);
        while let Some(id) = at {
            let s = &self.scopes[id];
            if let Some(&b) = s.names.get(name) {
                return Target::Binding(b);
            }
            match (name, s.kind) {
                ("req", ScopeKind::Top) => return Target::Req,
                ("each", ScopeKind::Iteration) => return Target::Each,
                ("self", _) if !s.self_keys.is_empty() => return Target::SelfObject,
                _ => {}
            }
            at = s.parent;
        }
        Target::Undefined
    }

    /// Whether `name` is a variable of `scope` or an enclosing scope.
    pub fn defines(&self, scope: ScopeId, name: &str) -> bool {
        self.lookup(scope, name) != Target::Undefined
    }

    /// Whether `name` is a variable of an enclosing scope of `scope` (not `scope` itself).
    pub fn defined_outside(&self, scope: ScopeId, name: &str) -> bool {
        let s = &self.scopes[scope];
        let own = match (name, s.kind) {
            ("req", ScopeKind::Top) | ("each", ScopeKind::Iteration) => true,
            ("self", _) => !s.self_keys.is_empty(),
            _ => false,
        };
        own || s.parent.is_some_and(|p| self.defines(p, name))
    }

    /// The `self` attributes available in `scope`, sorted.
    pub fn self_keys(&self, scope: ScopeId) -> Vec<&'static str> {
        let mut keys = Vec::new();
        let mut at = Some(scope);
        while let Some(id) = at {
            keys.extend_from_slice(self.scopes[id].self_keys);
            at = self.scopes[id].parent;
        }
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The bindings of this kind that no reference resolves to.
    pub fn unused(&self, kind: BindingKind) -> impl Iterator<Item = &Binding<'p>> {
        let mut used = vec![false; self.bindings.len()];
        for u in &self.uses {
            if let Target::Binding(b) = u.target {
                used[b] = true;
            }
        }
        self.bindings
            .iter()
            .zip(used)
            .filter(move |(binding, used)| binding.kind == kind && !used)
            .map(|(binding, _)| binding)
    }

    /// How `req.extra_resources` is read: the names read as `req.extra_resources.NAME`
    /// (`x["name"]` read as `x.name`), each with its reference, and whether it is also read as
    /// a whole or by a computed key (so that any requirement may be read).
    pub fn extra_resource_reads(&self) -> (Vec<(&'p str, &Use<'p>)>, bool) {
        let mut reads = Vec::new();
        let mut whole = false;
        for u in &self.uses {
            if u.target != Target::Req
                || u.var.steps.first().and_then(step_name) != Some("extra_resources")
            {
                continue;
            }
            match u.var.steps.get(1).and_then(step_name) {
                Some(name) => reads.push((name, u)),
                None => whole = true,
            }
        }
        (reads, whole)
    }

    /// Every variable name visible in `scope`, sorted (for "did you mean").
    pub fn visible_names(&self, scope: ScopeId) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for id in self.chain(scope) {
            let s = &self.scopes[id];
            names.extend(s.names.keys().copied());
            match s.kind {
                ScopeKind::Top => names.push("req"),
                ScopeKind::Iteration => names.push("each"),
                _ => {}
            }
            if !s.self_keys.is_empty() {
                names.push("self");
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The reads of the request that the reference `u` stands for: `u` itself when it is
    /// rooted at `req` or `self`; for a local, the reads of its value, followed through further
    /// locals (at most [`MAX_LOCAL_HOPS`] deep, each local once). When a local's value is
    /// nothing but a reference (`xr = req.composite`) the steps written after the local are
    /// kept, so `xr.spec.region` reads `composite.spec.region`.
    pub fn request_reads<'r>(&'r self, u: &'r Use<'p>) -> Vec<RequestRead<'r, 'p>> {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        self.follow(u, Some(Vec::new()), None, 0, &mut seen, &mut out);
        out
    }

    fn follow<'r>(
        &'r self,
        u: &'r Use<'p>,
        after: Option<Vec<String>>,
        written: Option<&'r Use<'p>>,
        depth: usize,
        seen: &mut Vec<BindingId>,
        out: &mut Vec<RequestRead<'r, 'p>>,
    ) {
        // The steps as text, up to the first computed one (which also ends what follows).
        let mut steps = Vec::new();
        let mut whole = true;
        for step in u.var.steps {
            match step_text(step) {
                Some(text) => steps.push(text),
                None => {
                    whole = false;
                    break;
                }
            }
        }
        let after = after.filter(|_| whole);
        // The first reference on the way that writes steps is where the path's tail is.
        let written = written.filter(|_| after.is_some()).or_else(|| {
            (!u.var.steps.is_empty() && !matches!(u.target, Target::Req | Target::SelfObject))
                .then_some(u)
        });
        match u.target {
            Target::Req | Target::SelfObject => {
                let mut path = steps;
                let carried = after.as_ref().is_some_and(|a| !a.is_empty());
                path.extend(after.unwrap_or_default());
                let written = written.filter(|_| carried).unwrap_or(u);
                if !out.iter().any(|r| std::ptr::eq(r.at, u) && r.path == path) {
                    out.push(RequestRead {
                        at: u,
                        path,
                        written,
                    });
                }
            }
            Target::Binding(b) if depth < MAX_LOCAL_HOPS && !seen.contains(&b) => {
                seen.push(b);
                let inner: Vec<&'r Use<'p>> = self
                    .uses
                    .iter()
                    .filter(|i| i.site == Site::Local(b))
                    .collect();
                let alias = self.bindings[b].value.is_some_and(|v| {
                    inner.len() == 1
                        && inner[0].file == v.file
                        && inner[0].var.span.start == v.expr.span.start
                        && inner[0].var.span.end == v.expr.span.end
                });
                for i in inner {
                    let carried = if alias {
                        after.clone().map(|rest| {
                            let mut path = steps.clone();
                            path.extend(rest);
                            path
                        })
                    } else {
                        None
                    };
                    let written = written.filter(|_| alias);
                    self.follow(i, carried, written, depth + 1, seen, out);
                }
            }
            _ => {}
        }
    }

    /// `scope` and its ancestors, innermost first.
    pub fn chain(&self, scope: ScopeId) -> impl Iterator<Item = ScopeId> + '_ {
        std::iter::successors(Some(scope), move |&id| self.scopes[id].parent)
    }

    fn scope(
        &mut self,
        parent: Option<ScopeId>,
        kind: ScopeKind,
        label: Option<&'p str>,
        origin: Option<&'p Origin>,
        self_keys: &'static [&'static str],
        locals: Option<&'p Locals>,
    ) -> ScopeId {
        let id = self.scopes.len();
        self.scopes.push(ScopeInfo {
            parent,
            kind,
            label,
            origin,
            self_keys,
            locals,
            requirement: None,
            names: HashMap::new(),
        });
        if let Some(locals) = locals {
            for local in &locals.items {
                let file = local.value.file;
                let span = local.value.name_span.start..local.value.expr.span.end;
                let b = self.bind(
                    id,
                    &local.name,
                    BindingKind::Local,
                    Span::of(file, &local.value.name_span),
                    Span::of(file, &span),
                    Some(&local.value),
                );
                self.exprs.push(ExprSite {
                    expr: &local.value,
                    scope: id,
                    site: Site::Local(b),
                });
            }
        }
        id
    }

    fn bind(
        &mut self,
        scope: ScopeId,
        name: &'p str,
        kind: BindingKind,
        name_span: Span,
        span: Span,
        value: Option<&'p FileExpr>,
    ) -> BindingId {
        let id = self.bindings.len();
        self.bindings.push(Binding {
            name,
            kind,
            scope,
            name_span,
            span,
            value,
        });
        self.scopes[scope].names.entry(name).or_insert(id);
        id
    }

    fn attr(&mut self, scope: ScopeId, name: &'static str, expr: Option<&'p FileExpr>) {
        if let Some(expr) = expr {
            self.exprs.push(ExprSite {
                expr,
                scope,
                site: Site::Attribute(name),
            });
        }
    }

    fn group_body(&mut self, scope: ScopeId, body: &'p GroupBody) {
        self.attr(scope, "condition", body.condition.as_ref());
        for child in &body.children {
            match child {
                Child::Group(g) => {
                    let inner = self.scope(
                        Some(scope),
                        ScopeKind::Group,
                        None,
                        Some(&g.origin),
                        &[],
                        Some(&g.body.locals),
                    );
                    self.group_body(inner, &g.body);
                }
                Child::Resource(r) => self.resource(scope, r),
                Child::Resources(c) => self.collection(scope, c),
                Child::Composite(c) => self.composite(scope, c),
                Child::Context(c) => self.context(scope, c),
                Child::Requirement(r) => self.requirement(scope, r),
            }
        }
    }

    fn resource(&mut self, parent: ScopeId, r: &'p Resource) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Resource,
            Some(&r.name.value),
            Some(&r.origin),
            RESOURCE_SELF,
            Some(&r.locals),
        );
        self.attr(scope, "condition", r.condition.as_ref());
        self.attr(scope, "body", Some(&r.body));
        self.resource_children(scope, &r.name.value, &r.children);
    }

    fn resource_children(&mut self, scope: ScopeId, name: &'p str, children: &'p [ResourceChild]) {
        for child in children {
            match child {
                ResourceChild::Composite(c) => self.composite(scope, c),
                ResourceChild::Context(c) => self.context(scope, c),
                ResourceChild::Ready(r) => self.ready(scope, name, r),
            }
        }
    }

    fn collection(&mut self, parent: ScopeId, c: &'p Collection) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Resources,
            Some(&c.name.value),
            Some(&c.origin),
            COLLECTION_SELF,
            Some(&c.locals),
        );
        self.attr(scope, "condition", c.condition.as_ref());
        self.attr(scope, "for_each", Some(&c.for_each));
        let iteration = self.scope(
            Some(scope),
            ScopeKind::Iteration,
            Some(&c.name.value),
            Some(&c.origin),
            &[],
            None,
        );
        self.attr(iteration, "name", c.name_expr.as_ref());
        for t in &c.templates {
            self.template(iteration, &c.name.value, t);
        }
        self.resource_children(iteration, &c.name.value, &c.children);
    }

    fn template(&mut self, parent: ScopeId, base: &'p str, t: &'p Template) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Template,
            Some(base),
            Some(&t.origin),
            RESOURCE_SELF,
            Some(&t.locals),
        );
        self.attr(scope, "body", Some(&t.body));
        self.resource_children(scope, base, &t.children);
    }

    fn composite(&mut self, parent: ScopeId, c: &'p Composite) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Composite,
            Some(&c.object.value),
            Some(&c.origin),
            &[],
            Some(&c.locals),
        );
        self.attr(scope, "body", Some(&c.body));
    }

    fn context(&mut self, parent: ScopeId, c: &'p ContextBlock) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Context,
            None,
            Some(&c.origin),
            &[],
            Some(&c.locals),
        );
        self.attr(scope, "key", Some(&c.key));
        self.attr(scope, "value", Some(&c.value));
    }

    fn ready(&mut self, parent: ScopeId, name: &'p str, r: &'p Ready) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Ready,
            Some(name),
            Some(&r.origin),
            &[],
            Some(&r.locals),
        );
        self.attr(scope, "value", Some(&r.value));
    }

    fn requirement(&mut self, parent: ScopeId, r: &'p Requirement) {
        let scope = self.scope(
            Some(parent),
            ScopeKind::Requirement,
            Some(&r.name.value),
            Some(&r.origin),
            &[],
            Some(&r.locals),
        );
        self.scopes[scope].requirement = Some(r);
        self.attr(scope, "condition", r.condition.as_ref());
        for s in &r.selects {
            self.attr(scope, "apiVersion", Some(&s.api_version));
            self.attr(scope, "kind", Some(&s.kind));
            self.attr(scope, "matchName", s.match_name.as_ref());
            self.attr(scope, "matchLabels", s.match_labels.as_ref());
        }
    }

    fn function(&mut self, f: &'p Function) {
        let constants = self.scope(
            None,
            ScopeKind::Constant,
            Some(&f.name.value),
            Some(&f.origin),
            &[],
            None,
        );
        self.attr(constants, "description", f.description.as_ref());
        let scope = self.scope(
            None,
            ScopeKind::Function,
            Some(&f.name.value),
            Some(&f.origin),
            &[],
            None,
        );
        for arg in &f.args {
            let file = arg.origin.file;
            let b = self.bind(
                scope,
                &arg.name.value,
                BindingKind::Argument,
                Span::of(file, &arg.name.span),
                Span::of(file, &arg.origin.header),
                None,
            );
            self.attr(constants, "description", arg.description.as_ref());
            if let Some(default) = &arg.default {
                self.exprs.push(ExprSite {
                    expr: default,
                    scope: constants,
                    site: Site::Local(b),
                });
            }
        }
        // The locals come after the arguments: a local may not reuse an argument's name.
        let locals = self.scope(
            Some(scope),
            ScopeKind::Function,
            Some(&f.name.value),
            Some(&f.origin),
            &[],
            Some(&f.locals),
        );
        self.attr(locals, "body", Some(&f.body));
    }

    fn resolve_uses(&mut self) {
        let mut uses = Vec::new();
        for site in &self.exprs {
            for var in variables(&site.expr.expr) {
                let target = self.lookup(site.scope, var.root);
                uses.push(Use {
                    file: site.expr.file,
                    var,
                    scope: site.scope,
                    site: site.site,
                    target,
                });
            }
        }
        self.uses = uses;
    }
}
