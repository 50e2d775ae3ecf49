//! function-patch-and-transform's input validation (validate.go): the first problem found, as
//! a Kubernetes `field.Error` with the function's field path and words, since the function
//! fails a step with exactly that text (`invalid Function input: resources[0].name: Required
//! value: name is required`).

use super::input::{
    CONNECTION_DETAIL_TYPES, Combine, ComposedTemplate, ConnectionDetail, ConvertTransform,
    Environment, IO_TYPES, MatchConditionReadinessCheck, MatchTransform, MatchTransformPattern,
    MathTransform, Patch, PatchSet, READINESS_CHECK_TYPES, ReadinessCheck, Resources,
    StringTransform, Transform,
};
use serde_json::Value;
use std::fmt;

/// A `field.Error`'s type, as the function uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorType {
    /// `field.Required`: "Required value".
    Required,
    /// `field.Invalid`: "Invalid value".
    Invalid,
}

impl ErrorType {
    /// The words Go prints for it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Required => "Required value",
            ErrorType::Invalid => "Invalid value",
        }
    }
}

/// The rejected value of an `Invalid` error, as apimachinery prints it: a Go `string` with
/// `%q`, anything else (the input's named string types, pointers) as `json.Marshal` writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// A plain Go `string`.
    Str(String),
    /// Any other value, printed as JSON.
    Json(Value),
}

/// One validation error: Go's `*field.Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// Required or Invalid.
    pub kind: ErrorType,
    /// The field path (`resources[0].patches[1].transforms[0].math.type`).
    pub field: String,
    /// The rejected value (Invalid only).
    pub bad_value: Option<BadValue>,
    /// The explanation.
    pub detail: String,
}

impl FieldError {
    fn required(field: &str, detail: impl Into<String>) -> FieldError {
        FieldError {
            kind: ErrorType::Required,
            field: field.to_string(),
            bad_value: None,
            detail: detail.into(),
        }
    }

    fn invalid(field: &str, value: BadValue, detail: impl Into<String>) -> FieldError {
        FieldError {
            kind: ErrorType::Invalid,
            field: field.to_string(),
            bad_value: Some(value),
            detail: detail.into(),
        }
    }

    /// Go's `WrapFieldError`: the error's path under `root`.
    fn under(mut self, root: &str) -> FieldError {
        self.field = format!("{root}.{}", self.field);
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.kind.as_str())?;
        match &self.bad_value {
            Some(BadValue::Str(s)) => write!(f, ": {}", crate::gostd::strconv::quote(s))?,
            Some(BadValue::Json(v)) => write!(f, ": {}", crate::eval::json::encode_json(v, true))?,
            None => {}
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// A named Go string type's value, printed as JSON.
fn named(s: &str) -> BadValue {
    BadValue::Json(Value::String(s.to_string()))
}

type Checked = Result<(), FieldError>;

/// Go's `ValidateResources`: patch sets, then that there is something to do, then each
/// resource template, then the environment's patches.
pub fn resources(r: &Resources) -> Checked {
    for set in &r.patch_sets {
        patch_set(set)?;
    }
    let env_patches = r.environment.as_ref().map_or(0, |e| e.patches.len());
    if r.resources.is_empty() && env_patches == 0 {
        return Err(FieldError::required(
            "resources",
            "resources or environment patches are required",
        ));
    }
    for (i, t) in r.resources.iter().enumerate() {
        composed_template(t).map_err(|e| e.under(&format!("resources[{i}]")))?;
    }
    if let Some(env) = &r.environment {
        environment(env).map_err(|e| e.under("environment"))?;
    }
    Ok(())
}

/// Go's `ValidateComposedTemplate`.
pub fn composed_template(t: &ComposedTemplate) -> Checked {
    if t.name.is_empty() {
        return Err(FieldError::required("name", "name is required"));
    }
    for (i, p) in t.patches.iter().enumerate() {
        let view = PatchView {
            go_type: "*v1beta1.ComposedPatch",
            type_: p.patch_type(),
            patch_set_name: Some(p.patch_set_name()),
            patch: &p.patch,
        };
        validate_patch(&view).map_err(|e| e.under(&format!("patches[{i}]")))?;
    }
    for (i, cd) in t.connection_details.iter().enumerate() {
        connection_detail(cd).map_err(|e| e.under(&format!("connectionDetails[{i}]")))?;
    }
    for (i, rc) in t.readiness_checks.iter().enumerate() {
        readiness_check(rc).map_err(|e| e.under(&format!("readinessChecks[{i}]")))?;
    }
    Ok(())
}

/// Go's `ValidatePatchSet`.
pub fn patch_set(set: &PatchSet) -> Checked {
    if set.name.is_empty() {
        return Err(FieldError::required("name", "name is required"));
    }
    for (i, p) in set.patches.iter().enumerate() {
        let view = PatchView {
            go_type: "*v1beta1.PatchSetPatch",
            type_: p.patch_type(),
            patch_set_name: None,
            patch: &p.patch,
        };
        validate_patch(&view).map_err(|e| e.under(&format!("patches[{i}]")))?;
    }
    Ok(())
}

/// The patch types an environment patch may have.
const ENVIRONMENT_PATCH_TYPES: &[&str] = &[
    "FromCompositeFieldPath",
    "ToCompositeFieldPath",
    "CombineFromComposite",
    "CombineToComposite",
    "FromEnvironmentFieldPath",
    "ToEnvironmentFieldPath",
];

/// Go's `ValidateEnvironment`.
pub fn environment(env: &Environment) -> Checked {
    for (i, p) in env.patches.iter().enumerate() {
        let t = p.patch_type();
        if !ENVIRONMENT_PATCH_TYPES.contains(&t) {
            return Err(FieldError::invalid(
                &format!("patches[{i}][type]"),
                named(t),
                "invalid environment patch type",
            ));
        }
        let view = PatchView {
            go_type: "*v1beta1.EnvironmentPatch",
            type_: t,
            patch_set_name: None,
            patch: &p.patch,
        };
        validate_patch(&view).map_err(|e| e.under(&format!("patches[{i}]")))?;
    }
    Ok(())
}

/// Go's `ValidateReadinessCheck`.
pub fn readiness_check(r: &ReadinessCheck) -> Checked {
    if !READINESS_CHECK_TYPES.contains(&r.type_.as_str()) {
        return Err(FieldError::invalid(
            "type",
            BadValue::Str(r.type_.clone()),
            "unknown readiness check type",
        ));
    }
    match r.type_.as_str() {
        "None" => return Ok(()),
        "MatchString" if r.match_string.is_none() => {
            return Err(FieldError::required(
                "matchString",
                "cannot be nil for type MatchString",
            ));
        }
        "MatchInteger" if r.match_integer.is_none() => {
            return Err(FieldError::required(
                "matchInteger",
                "cannot be nil for type MatchInteger",
            ));
        }
        "MatchCondition" => {
            return match &r.match_condition {
                Some(m) => match_condition(m).map_err(|e| e.under("matchCondition")),
                None => Ok(()),
            };
        }
        _ => {}
    }
    if r.field_path.is_none() {
        return Err(FieldError::required("fieldPath", "cannot be empty"));
    }
    Ok(())
}

/// Go's `ValidateMatchConditionReadinessCheck`.
fn match_condition(m: &MatchConditionReadinessCheck) -> Checked {
    if m.type_.is_empty() {
        return Err(FieldError::required(
            "type",
            "cannot be empty for type MatchCondition",
        ));
    }
    if m.status.is_empty() {
        return Err(FieldError::required(
            "status",
            "cannot be empty for type MatchCondition",
        ));
    }
    Ok(())
}

/// What Go's `PatchInterface` offers: one view over the four patch kinds.
pub struct PatchView<'a> {
    /// The Go type's `%T` (`*v1beta1.ComposedPatch`), for the PatchSet error.
    pub go_type: &'a str,
    /// `GetType()`.
    pub type_: &'a str,
    /// `GetPatchSetName()`, for the kinds that have one (Go's `PatchWithPatchSetName`).
    pub patch_set_name: Option<&'a str>,
    /// The shared fields.
    pub patch: &'a Patch,
}

/// Go's `ValidatePatch`.
pub fn validate_patch(p: &PatchView<'_>) -> Checked {
    let t = p.type_;
    match t {
        "FromCompositeFieldPath"
        | "ToCompositeFieldPath"
        | "FromEnvironmentFieldPath"
        | "ToEnvironmentFieldPath" => {
            if p.patch.from_field_path().is_empty() {
                return Err(FieldError::required(
                    "fromFieldPath",
                    format!("fromFieldPath must be set for patch type {t}"),
                ));
            }
        }
        "PatchSet" => match p.patch_set_name {
            None => {
                return Err(FieldError::invalid(
                    "type",
                    named(t),
                    format!(
                        "patch type {} does not support patch of type {t}",
                        p.go_type
                    ),
                ));
            }
            Some("") => {
                return Err(FieldError::required(
                    "patchSetName",
                    format!("patchSetName must be set for patch type {t}"),
                ));
            }
            Some(_) => {}
        },
        "CombineFromComposite"
        | "CombineToComposite"
        | "CombineFromEnvironment"
        | "CombineToEnvironment" => {
            let Some(c) = &p.patch.combine else {
                return Err(FieldError::required(
                    "combine",
                    format!("combine must be set for patch type {t}"),
                ));
            };
            if p.patch.to_field_path().is_empty() {
                return Err(FieldError::required(
                    "toFieldPath",
                    format!("toFieldPath must be set for patch type {t}"),
                ));
            }
            return combine(c).map_err(|e| e.under("combine"));
        }
        _ => {
            return Err(FieldError::invalid("type", named(t), "unknown patch type"));
        }
    }
    for (i, tr) in p.patch.transforms.iter().enumerate() {
        transform(tr).map_err(|e| e.under(&format!("transforms[{i}]")))?;
    }
    if let Some(policy) = &p.patch.policy {
        let to = super::input::PatchPolicy::to_field_path_policy(Some(policy));
        if !matches!(
            to,
            "Replace"
                | "MergeObjects"
                | "MergeObjectsAppendArrays"
                | "ForceMergeObjects"
                | "ForceMergeObjectsAppendArrays"
                | "MergeObject"
                | "AppendArray"
        ) {
            return Err(FieldError::invalid(
                "policy.toFieldPathPolicy",
                named(to),
                "unknown toFieldPathPolicy",
            ));
        }
        let from = super::input::PatchPolicy::from_field_path_policy(Some(policy));
        if !matches!(from, "Required" | "Optional") {
            return Err(FieldError::invalid(
                "policy.fromFieldPathPolicy",
                named(from),
                "unknown fromFieldPathPolicy",
            ));
        }
    }
    Ok(())
}

/// Go's `ValidateCombine`.
pub fn combine(c: &Combine) -> Checked {
    match c.strategy.as_str() {
        "string" => {
            if c.string.is_none() {
                return Err(FieldError::required(
                    "string",
                    format!("string must be set for combine strategy {}", c.strategy),
                ));
            }
        }
        "" => {
            return Err(FieldError::required(
                "strategy",
                "a combine strategy must be provided",
            ));
        }
        other => {
            return Err(FieldError::invalid(
                "strategy",
                named(other),
                "unknown strategy type",
            ));
        }
    }
    if c.variables.is_empty() {
        return Err(FieldError::required(
            "variables",
            "at least one variable must be provided",
        ));
    }
    for (i, v) in c.variables.iter().enumerate() {
        if v.from_field_path.is_empty() {
            return Err(FieldError::required(
                &format!("variables[{i}].fromFieldPath"),
                "fromFieldPath must be set for each combine variable",
            ));
        }
    }
    Ok(())
}

/// Go's `ValidateTransform`.
pub fn transform(t: &Transform) -> Checked {
    fn missing(key: &str) -> FieldError {
        FieldError::required(
            key,
            format!("given transform type {key} requires configuration"),
        )
    }
    match t.type_.as_str() {
        "math" => {
            let m = t.math.as_ref().ok_or_else(|| missing("math"))?;
            math(m).map_err(|e| e.under("math"))
        }
        "map" => {
            let m = t.map.as_ref().ok_or_else(|| missing("map"))?;
            if m.pairs.is_empty() {
                return Err(FieldError::required(
                    "pairs",
                    "at least one pair must be specified if a map transform is specified",
                )
                .under("map"));
            }
            Ok(())
        }
        "match" => {
            let m = t.match_.as_ref().ok_or_else(|| missing("match"))?;
            match_transform(m).map_err(|e| e.under("match"))
        }
        "string" => {
            let s = t.string.as_ref().ok_or_else(|| missing("string"))?;
            string(s).map_err(|e| e.under("string"))
        }
        "convert" => {
            let c = t.convert.as_ref().ok_or_else(|| missing("convert"))?;
            convert(c).map_err(|e| e.under("convert"))
        }
        other => Err(FieldError::invalid(
            "type",
            named(other),
            "unknown transform type",
        )),
    }
}

/// Go's `ValidateMathTransform` (no default type here: an empty one is refused).
fn math(m: &MathTransform) -> Checked {
    let (key, set, words) = match m.type_.as_str() {
        "" => {
            return Err(FieldError::required(
                "type",
                "math transform type is required",
            ));
        }
        "Multiply" => ("multiply", m.multiply.is_some(), "multiply"),
        "ClampMin" => ("clampMin", m.clamp_min.is_some(), "clamp min"),
        "ClampMax" => ("clampMax", m.clamp_max.is_some(), "clamp max"),
        other => {
            return Err(FieldError::invalid(
                "type",
                named(other),
                "unknown math transform type",
            ));
        }
    };
    if set {
        Ok(())
    } else {
        Err(FieldError::required(
            key,
            format!("must specify a value if a {words} math transform is specified"),
        ))
    }
}

/// Go's `ValidateMatchTransform`.
fn match_transform(m: &MatchTransform) -> Checked {
    if m.patterns.is_empty() {
        return Err(FieldError::required(
            "patterns",
            "at least one pattern must be specified if a match transform is specified",
        ));
    }
    for (i, p) in m.patterns.iter().enumerate() {
        match_pattern(p).map_err(|e| e.under(&format!("patterns[{i}]")))?;
    }
    Ok(())
}

/// Go's `ValidateMatchTransformPattern`.
fn match_pattern(p: &MatchTransformPattern) -> Checked {
    match p.type_.as_str() {
        "literal" | "" => {
            if p.literal.is_none() {
                return Err(FieldError::required(
                    "literal",
                    "literal pattern type requires a literal",
                ));
            }
        }
        "regexp" => {
            let Some(re) = &p.regexp else {
                return Err(FieldError::required(
                    "regexp",
                    "regexp pattern type requires a regexp",
                ));
            };
            if crate::re2::compile(re).is_err() {
                return Err(FieldError::invalid(
                    "regexp",
                    BadValue::Str(re.clone()),
                    "invalid regexp",
                ));
            }
        }
        other => {
            return Err(FieldError::invalid(
                "type",
                named(other),
                "unknown pattern type",
            ));
        }
    }
    Ok(())
}

/// Go's `ValidateStringTransform`.
fn string(s: &StringTransform) -> Checked {
    let req = |key: &str, detail: &str| Err(FieldError::required(key, detail));
    match s.type_.as_str() {
        "" => return req("type", "string transform type is required"),
        "Format" if s.format.is_none() => return req("fmt", "format transform requires a format"),
        "Convert" if s.convert.is_none() => {
            return req("convert", "convert transform requires a conversion type");
        }
        "TrimPrefix" | "TrimSuffix" if s.trim.is_none() => {
            return req("trim", "trim transform requires a trim value");
        }
        "Regexp" => {
            let Some(re) = &s.regexp else {
                return req("regexp", "regexp transform requires a regexp");
            };
            if re.match_.is_empty() {
                return req("regexp.match", "regexp transform requires a match");
            }
            if crate::re2::compile(&re.match_).is_err() {
                return Err(FieldError::invalid(
                    "regexp.match",
                    BadValue::Str(re.match_.clone()),
                    "invalid regexp",
                ));
            }
        }
        "Join" if s.join.is_none() => return req("join", "join transform requires a join"),
        "Replace" => {
            let Some(r) = &s.replace else {
                return req("replace", "replace transform requires a replace");
            };
            if r.search.is_empty() {
                return req("replace.search", "replace transform requires a search");
            }
        }
        "Format" | "Convert" | "TrimPrefix" | "TrimSuffix" | "Join" => {}
        other => {
            return Err(FieldError::invalid(
                "type",
                named(other),
                "unknown string transform type",
            ));
        }
    }
    Ok(())
}

/// Go's `ValidateConvertTransform`: the rejected format is a pointer, printed as JSON.
fn convert(c: &ConvertTransform) -> Checked {
    if !matches!(c.format(), "none" | "quantity" | "json") {
        let value = c.format.clone().map_or(Value::Null, Value::String);
        return Err(FieldError::invalid(
            "format",
            BadValue::Json(value),
            "invalid format",
        ));
    }
    if !IO_TYPES.contains(&c.to_type.as_str()) {
        return Err(FieldError::invalid(
            "toType",
            named(&c.to_type),
            "invalid type",
        ));
    }
    Ok(())
}

/// Go's `ValidateConnectionDetail`.
pub fn connection_detail(cd: &ConnectionDetail) -> Checked {
    if cd.type_.is_empty() {
        return Err(FieldError::required(
            "type",
            "connection detail type is required",
        ));
    }
    if !CONNECTION_DETAIL_TYPES.contains(&cd.type_.as_str()) {
        return Err(FieldError::invalid(
            "type",
            BadValue::Str(cd.type_.clone()),
            "unknown connection detail type",
        ));
    }
    if cd.name.is_empty() {
        return Err(FieldError::required("name", "name is required"));
    }
    let (key, set, detail) = match cd.type_.as_str() {
        "FromValue" => (
            "value",
            cd.value.is_some(),
            "value connection detail requires a value",
        ),
        "FromConnectionSecretKey" => (
            "fromConnectionSecretKey",
            cd.from_connection_secret_key.is_some(),
            "from connection secret key connection detail requires a key",
        ),
        _ => (
            "fromFieldPath",
            cd.from_field_path.is_some(),
            "from field path connection detail requires a field path",
        ),
    };
    if set {
        Ok(())
    } else {
        Err(FieldError::required(key, detail))
    }
}
