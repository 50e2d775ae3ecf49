//! One scope of locals (all `locals` blocks of a body): duplicate and shadowing checks, the
//! references every local makes, and the order to evaluate them in — function-hcl's locals
//! processor (`locals/locals.go`), made deterministic.
//!
//! Go walks its maps in random order, so which of several mistakes it reports, and where a
//! cycle's path starts, vary from run to run. Here everything goes in source order: the first
//! duplicate or shadowing local, the first undefined reference of the first local that has
//! one, and cycles found by a depth-first walk that starts at the first local in the source.

use super::references::variables;
use super::to_error_diag as error;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::ast::TextRange;
use crate::syntax::model::Local;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The order to evaluate a scope's locals in: indexes into the slice given to
/// [`plan_locals`], every local after the locals it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalsPlan {
    /// Indexes, dependencies first.
    pub order: Vec<usize>,
    /// By index: whether the local refers to another local of the scope (needs the values
    /// of those before it is evaluated).
    pub refers: Vec<bool>,
}

fn span(local: &Local, range: &TextRange) -> Span {
    Span::of(local.value.file, range)
}

/// The whole `name = value` attribute.
fn attribute_span(local: &Local) -> Span {
    span(
        local,
        &(local.value.name_span.start..local.value.expr.span.end),
    )
}

/// Checks one scope of locals and orders them; `defined` says whether a name is a variable of
/// an enclosing scope. The error is the first problem found (function-hcl stops there).
pub fn plan_locals(
    locals: &[Local],
    defined: impl Fn(&str) -> bool,
) -> Result<LocalsPlan, Box<Diagnostic>> {
    // Indexed by name: a scope may hold tens of thousands of locals.
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(locals.len());
    for (i, local) in locals.iter().enumerate() {
        // One hash of the name for the duplicate test and the insert.
        let Entry::Vacant(slot) = index.entry(local.name.as_str()) else {
            let summary = format!("local {:?}: duplicate local declaration", local.name);
            return Err(Box::new(error(
                Code::R201,
                summary,
                "",
                attribute_span(local),
            )));
        };
        if defined(&local.name) {
            return Err(Box::new(error(
                Code::R202,
                "attempt to shadow variable".into(),
                &local.name,
                attribute_span(local),
            )));
        }
        slot.insert(i);
    }
    let find = |name: &str| index.get(name).copied();
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(locals.len());
    for local in locals {
        let mut mine = Vec::new();
        for var in variables(&local.value.expr) {
            match find(var.root) {
                Some(i) => mine.push(i),
                None if defined(var.root) => {}
                None => {
                    return Err(Box::new(error(
                        Code::R203,
                        "reference to non-existent variable".into(),
                        var.root,
                        span(local, var.span),
                    )));
                }
            }
        }
        deps.push(mine);
    }
    let mut walk = Walk {
        locals,
        deps: &deps,
        done: vec![false; locals.len()],
        on_path: vec![false; locals.len()],
        path: Vec::new(),
        order: Vec::with_capacity(locals.len()),
    };
    for i in 0..locals.len() {
        walk.visit(i)?;
    }
    Ok(LocalsPlan {
        order: walk.order,
        refers: deps.iter().map(|d| !d.is_empty()).collect(),
    })
}

struct Walk<'a> {
    locals: &'a [Local],
    deps: &'a [Vec<usize>],
    done: Vec<bool>,
    /// Whether a local is on `path`: the cycle test without scanning the path.
    on_path: Vec<bool>,
    path: Vec<usize>,
    order: Vec<usize>,
}

impl Walk<'_> {
    /// A depth-first walk from `start`, dependencies first, with an explicit stack: a chain of
    /// tens of thousands of locals must not exhaust the thread's stack.
    fn visit(&mut self, start: usize) -> Result<(), Box<Diagnostic>> {
        if self.done[start] {
            return Ok(());
        }
        // (local, index of its next dependency to visit)
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        self.path.push(start);
        self.on_path[start] = true;
        while let Some(&mut (i, ref mut next)) = stack.last_mut() {
            if let Some(&dep) = self.deps[i].get(*next) {
                *next += 1;
                if self.done[dep] {
                    continue;
                }
                if self.on_path[dep] {
                    return Err(self.cycle(dep));
                }
                self.path.push(dep);
                self.on_path[dep] = true;
                stack.push((dep, 0));
            } else {
                stack.pop();
                self.path.pop();
                self.on_path[i] = false;
                self.done[i] = true;
                self.order.push(i);
            }
        }
        Ok(())
    }

    /// The cycle that closes at `i`, from where `i` is on the path.
    fn cycle(&self, i: usize) -> Box<Diagnostic> {
        let at = self.path.iter().position(|&p| p == i).unwrap_or(0);
        let names: Vec<&str> = self.path[at..]
            .iter()
            .chain(std::iter::once(&i))
            .map(|&p| self.locals[p].name.as_str())
            .collect();
        let local = &self.locals[i];
        Box::new(error(
            Code::R204,
            format!("cycle found: {}", names.join(" \u{2192} ")),
            "",
            span(local, &local.value.expr.span),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;
    use crate::syntax::{ParsedFile, model, parse_file};

    fn locals(text: &str) -> Vec<Local> {
        let mut map = SourceMap::new();
        let id = map.add("main.hcl", text);
        let parsed = parse_file(map.get(id));
        assert!(!parsed.has_errors());
        let program = model::build_owned(vec![ParsedFile {
            file: id,
            body: parsed.body,
        }]);
        program.top.locals.items
    }

    fn message(text: &str, defined: &[&str]) -> String {
        let err = plan_locals(&locals(text), |n| defined.contains(&n)).unwrap_err();
        format!("{}; {}", err.summary, err.detail.unwrap_or_default())
    }

    #[test]
    fn dependencies_come_first() {
        let ls = locals("locals {\n  c = b + 1\n  b = a\n  a = req.x\n}\n");
        let plan = plan_locals(&ls, |n| n == "req").unwrap();
        let names: Vec<&str> = plan.order.iter().map(|&i| ls[i].name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(plan.refers, [true, true, false]);
    }

    #[test]
    fn a_long_chain_is_planned_in_order_and_a_cycle_at_its_end_is_found() {
        let n = 5_000;
        let mut text = String::from("locals {\n  l0 = 1\n");
        for i in 1..n {
            text.push_str(&format!("  l{i} = l{} + 1\n", i - 1));
        }
        let ls = locals(&format!("{text}}}\n"));
        let plan = plan_locals(&ls, |_| false).unwrap();
        assert_eq!(plan.order, (0..n).collect::<Vec<_>>());
        let looped = text.replacen("l0 = 1", &format!("l0 = l{}", n - 1), 1);
        let err = plan_locals(&locals(&format!("{looped}}}\n")), |_| false).unwrap_err();
        assert!(
            err.summary
                .starts_with("cycle found: l0 \u{2192} l4999 \u{2192} l4998")
        );
        assert!(err.summary.ends_with("l1 \u{2192} l0"));
    }

    #[test]
    fn cycles_start_at_the_first_local_in_the_source() {
        assert_eq!(
            message("locals {\n  a = b\n  b = c\n  c = a\n}\n", &[]),
            "cycle found: a \u{2192} b \u{2192} c \u{2192} a; "
        );
        assert_eq!(
            message("locals {\n  x = x\n}\n", &[]),
            "cycle found: x \u{2192} x; "
        );
    }

    #[test]
    fn mistakes_are_reported_in_source_order() {
        assert_eq!(
            message("locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n", &[]),
            "local \"a\": duplicate local declaration; "
        );
        assert_eq!(
            message("locals {\n  req = 1\n}\n", &["req"]),
            "attempt to shadow variable; req"
        );
        assert_eq!(
            message("locals {\n  a = try(nosuch, 1)\n  b = other\n}\n", &[]),
            "reference to non-existent variable; nosuch"
        );
    }

    #[test]
    fn for_expression_names_are_not_references() {
        let ls = locals("locals {\n  a = [for x in [1] : x]\n}\n");
        assert!(plan_locals(&ls, |_| false).is_ok());
    }
}
