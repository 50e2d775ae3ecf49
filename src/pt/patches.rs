//! function-patch-and-transform's patches (`patches.go`): from-field-path and combine patches
//! between the XR, the composed resources and the environment, toFieldPath policies as merge
//! options, and patch sets resolved into each resource's patches (`ComposedTemplates`).
//!
//! Objects are JSON values (Kubernetes' unstructured data). A missing source field is an
//! [`Error`] whose [`Error::is_not_found`] holds, as Go's `fieldpath.IsNotFound`: the caller
//! (fn.go's `RunFunction`) decides by the patch's `fromFieldPath` policy whether that is
//! fatal (`Required`) or skipped (`Optional`).

use serde_json::Value;

use crate::gostd::fmt::sprintf;
use crate::pt::fieldpath::{Error, MergeOptions, Paved, get_value, normalize_numbers};
use crate::pt::input::{
    self, Combine, ComposedPatch, ComposedTemplate, EnvironmentPatch, Patch, PatchPolicy, PatchSet,
};
use crate::pt::transforms::resolve_transforms;

fn plain(message: String) -> Error {
    Error {
        message,
        not_found: false,
    }
}

/// Go's `toMergeOption`: the merge options a patch's toFieldPath policy stands for (none for
/// `Replace` or no policy), or `invalid patch policy X`.
pub fn to_merge_option(policy: Option<&PatchPolicy>) -> Result<Option<MergeOptions>, Error> {
    let Some(pp) = policy else { return Ok(None) };
    let keep = |k: Option<bool>, a: Option<bool>| {
        Some(MergeOptions {
            keep_map_values: k,
            append_slice: a,
        })
    };
    Ok(match PatchPolicy::to_field_path_policy(Some(pp)) {
        input::TO_POLICY_REPLACE => None,
        input::TO_POLICY_MERGE_OBJECTS | input::TO_POLICY_MERGE_OBJECT => keep(Some(true), None),
        input::TO_POLICY_MERGE_OBJECTS_APPEND_ARRAYS => keep(Some(true), Some(true)),
        input::TO_POLICY_FORCE_MERGE_OBJECTS => keep(Some(false), None),
        input::TO_POLICY_FORCE_MERGE_OBJECTS_APPEND_ARRAYS | input::TO_POLICY_APPEND_ARRAY => {
            keep(None, Some(true))
        }
        other => return Err(plain(format!("invalid patch policy {other}"))),
    })
}

/// Go's `patchFieldValueToObject`: the value merged at the path.
fn patch_to_object(
    path: &str,
    value: Value,
    to: &mut Value,
    mo: Option<&MergeOptions>,
) -> Result<(), Error> {
    let mut paved = Paved::new(std::mem::take(to));
    let result = paved.merge_value(path, value, mo);
    *to = paved.into_value();
    result
}

/// Go's `patchFieldValueToMultiple`: the value merged at every path the wildcards expand to.
fn patch_to_multiple(
    path: &str,
    value: Value,
    to: &mut Value,
    mo: Option<&MergeOptions>,
) -> Result<(), Error> {
    let mut paved = Paved::new(std::mem::take(to));
    let result = (|| {
        let paths = paved.expand_wildcards(path)?;
        if paths.is_empty() {
            return Err(plain(format!("cannot expand ToFieldPath {path}")));
        }
        for p in paths {
            paved.merge_value(&p, value.clone(), mo)?;
        }
        Ok(())
    })();
    *to = paved.into_value();
    result
}

/// Go's `ApplyFromFieldPathPatch`: the value at `fromFieldPath` in `from`, transformed, merged
/// at `toFieldPath` in `to` (every match of a `[*]` path).
pub fn apply_from_field_path_patch(p: &Patch, from: &Value, to: &mut Value) -> Result<(), Error> {
    let input = get_value(from, p.from_field_path())?.clone();
    let mut v = resolve_transforms(&p.transforms, &input).map_err(plain)?;
    normalize_numbers(&mut v);
    let mo = to_merge_option(p.policy.as_ref())?;
    let to_path = p.to_field_path();
    if to_path.contains("[*]") {
        return patch_to_multiple(to_path, v, to, mo.as_ref());
    }
    patch_to_object(to_path, v, to, mo.as_ref()).map_err(|e| e.wrap("cannot patch to object"))
}

/// Go's `Combine`: the variables combined by the strategy (`string`: Go's `fmt.Sprintf`).
pub fn combine(c: &Combine, vars: &[Value]) -> Result<Value, Error> {
    if c.strategy != input::COMBINE_STRATEGY_STRING {
        return Err(plain(format!(
            "combine strategy {} is not supported",
            c.strategy
        )));
    }
    let Some(s) = &c.string else {
        return Err(plain(format!(
            "given combine strategy {} requires configuration",
            c.strategy
        )));
    };
    Ok(Value::String(sprintf(&s.format, vars)))
}

/// Go's `ApplyCombineFromVariablesPatch`: the variables read from `from`, combined,
/// transformed, merged at `toFieldPath` in `to`. A patch without `combine` (which Go's
/// validation rejects first) combines nothing with no strategy.
pub fn apply_combine_from_variables_patch(
    p: &Patch,
    from: &Value,
    to: &mut Value,
) -> Result<(), Error> {
    let none = Combine::default();
    let c = p.combine.as_ref().unwrap_or(&none);
    let mut vars = Vec::with_capacity(c.variables.len());
    for var in &c.variables {
        vars.push(get_value(from, &var.from_field_path)?.clone());
    }
    let combined = combine(c, &vars)?;
    let out = resolve_transforms(&p.transforms, &combined).map_err(plain)?;
    let mo = to_merge_option(p.policy.as_ref())?;
    patch_to_object(p.to_field_path(), out, to, mo.as_ref())
        .map_err(|e| e.wrap("cannot patch to object"))
}

/// Go's `ApplyEnvironmentPatch`: an `environment.patches` entry between the observed XR, the
/// environment and the desired XR (patches of other types do nothing).
pub fn apply_environment_patch(
    p: &EnvironmentPatch,
    env: &mut Value,
    oxr: &Value,
    dxr: &mut Value,
) -> Result<(), Error> {
    match p.patch_type() {
        input::PATCH_FROM_COMPOSITE_FIELD_PATH | input::PATCH_TO_ENVIRONMENT_FIELD_PATH => {
            apply_from_field_path_patch(&p.patch, oxr, env)
        }
        input::PATCH_COMBINE_FROM_COMPOSITE => {
            apply_combine_from_variables_patch(&p.patch, oxr, env)
        }
        input::PATCH_TO_COMPOSITE_FIELD_PATH | input::PATCH_FROM_ENVIRONMENT_FIELD_PATH => {
            apply_from_field_path_patch(&p.patch, env, dxr)
        }
        input::PATCH_COMBINE_TO_COMPOSITE => apply_combine_from_variables_patch(&p.patch, env, dxr),
        _ => Ok(()),
    }
}

/// Go's `ToComposedResource`: whether a patch writes to the composed resource.
pub fn to_composed_resource(p: &ComposedPatch) -> bool {
    matches!(
        p.patch_type(),
        input::PATCH_FROM_COMPOSITE_FIELD_PATH
            | input::PATCH_COMBINE_FROM_COMPOSITE
            | input::PATCH_FROM_ENVIRONMENT_FIELD_PATH
            | input::PATCH_COMBINE_FROM_ENVIRONMENT
    )
}

/// Go's `ApplyComposedPatch`: a resource's patch between the observed composed resource
/// (`ocd`, absent before it exists: patches from it then do nothing), the desired one
/// (`dcd`), the observed and desired XR and the environment.
pub fn apply_composed_patch(
    p: &ComposedPatch,
    ocd: Option<&Value>,
    dcd: &mut Value,
    oxr: &Value,
    dxr: &mut Value,
    env: &mut Value,
) -> Result<(), Error> {
    let patch = &p.patch;
    let observed = || ocd.unwrap_or(&Value::Null);
    if ocd.is_none() && !to_composed_resource(p) {
        return Ok(());
    }
    match p.patch_type() {
        input::PATCH_TO_COMPOSITE_FIELD_PATH => apply_from_field_path_patch(patch, observed(), dxr),
        input::PATCH_COMBINE_TO_COMPOSITE => {
            apply_combine_from_variables_patch(patch, observed(), dxr)
        }
        input::PATCH_TO_ENVIRONMENT_FIELD_PATH => {
            apply_from_field_path_patch(patch, observed(), env)
        }
        input::PATCH_COMBINE_TO_ENVIRONMENT => {
            apply_combine_from_variables_patch(patch, observed(), env)
        }
        input::PATCH_FROM_COMPOSITE_FIELD_PATH => apply_from_field_path_patch(patch, oxr, dcd),
        input::PATCH_COMBINE_FROM_COMPOSITE => apply_combine_from_variables_patch(patch, oxr, dcd),
        input::PATCH_FROM_ENVIRONMENT_FIELD_PATH => apply_from_field_path_patch(patch, env, dcd),
        input::PATCH_COMBINE_FROM_ENVIRONMENT => {
            apply_combine_from_variables_patch(patch, env, dcd)
        }
        _ => Ok(()),
    }
}

/// Go's `ComposedTemplates`: each resource with its `PatchSet` patches replaced by the named
/// set's patches, in place and in order.
pub fn composed_templates(
    pss: &[PatchSet],
    cts: &[ComposedTemplate],
) -> Result<Vec<ComposedTemplate>, String> {
    let mut sets: std::collections::HashMap<&str, Vec<ComposedPatch>> =
        std::collections::HashMap::new();
    for s in pss {
        if s.patches
            .iter()
            .any(|p| p.patch_type() == input::PATCH_PATCH_SET)
        {
            return Err("a patch in a PatchSet cannot be of type PatchSet".into());
        }
        sets.insert(&s.name, s.composed_patches());
    }
    let mut out = Vec::with_capacity(cts.len());
    for r in cts {
        let mut patches = Vec::new();
        for p in &r.patches {
            if p.patch_type() != input::PATCH_PATCH_SET {
                patches.push(p.clone());
                continue;
            }
            let Some(name) = &p.patch_set_name else {
                return Err(format!(
                    "PatchSetName is required by type {}",
                    p.patch_type()
                ));
            };
            let Some(set) = sets.get(name.as_str()) else {
                return Err(format!("cannot find PatchSet by name {name}"));
            };
            patches.extend(set.iter().cloned());
        }
        let mut t = r.clone();
        t.patches = patches;
        out.push(t);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
