//! The function's input, `pt.fn.crossplane.io/v1beta1` `Resources`, as
//! function-patch-and-transform v0.10.8 declares it (`input/v1beta1/resources*.go`), and its
//! decoding from the step's `input` object.
//!
//! Go's enum-like string types stay `String`s here: the function accepts any string while
//! decoding and rejects unknown values later, in its validation, with its own messages; the
//! constants below name the values it knows. Go's getters with defaults are methods.
//!
//! Decoding follows what the function does with its input: the SDK marshals the request's
//! `Struct` to JSON (object keys sorted) and unmarshals it with go-json-experiment's `json`
//! into these types. So field names match exactly (case-sensitive), unknown fields are ignored,
//! `null` leaves a field at its zero value, a number that is integral fits an integer field (the
//! `Struct` holds every number as a double), and the first mistyped field in key order fails the
//! whole input with the SDK's message.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// `PatchType` `FromCompositeFieldPath`, the default when a patch has no `type`.
pub const PATCH_FROM_COMPOSITE_FIELD_PATH: &str = "FromCompositeFieldPath";
/// `PatchType` `PatchSet`.
pub const PATCH_PATCH_SET: &str = "PatchSet";
/// `PatchType` `ToCompositeFieldPath`.
pub const PATCH_TO_COMPOSITE_FIELD_PATH: &str = "ToCompositeFieldPath";
/// `PatchType` `CombineFromComposite`.
pub const PATCH_COMBINE_FROM_COMPOSITE: &str = "CombineFromComposite";
/// `PatchType` `CombineToComposite`.
pub const PATCH_COMBINE_TO_COMPOSITE: &str = "CombineToComposite";
/// `PatchType` `FromEnvironmentFieldPath`.
pub const PATCH_FROM_ENVIRONMENT_FIELD_PATH: &str = "FromEnvironmentFieldPath";
/// `PatchType` `ToEnvironmentFieldPath`.
pub const PATCH_TO_ENVIRONMENT_FIELD_PATH: &str = "ToEnvironmentFieldPath";
/// `PatchType` `CombineFromEnvironment`.
pub const PATCH_COMBINE_FROM_ENVIRONMENT: &str = "CombineFromEnvironment";
/// `PatchType` `CombineToEnvironment`.
pub const PATCH_COMBINE_TO_ENVIRONMENT: &str = "CombineToEnvironment";

/// `FromFieldPathPolicy` `Optional`, the default.
pub const FROM_POLICY_OPTIONAL: &str = "Optional";
/// `FromFieldPathPolicy` `Required`.
pub const FROM_POLICY_REQUIRED: &str = "Required";

/// `ToFieldPathPolicy` `Replace`, the default.
pub const TO_POLICY_REPLACE: &str = "Replace";
/// `ToFieldPathPolicy` `MergeObjects`.
pub const TO_POLICY_MERGE_OBJECTS: &str = "MergeObjects";
/// `ToFieldPathPolicy` `MergeObjectsAppendArrays`.
pub const TO_POLICY_MERGE_OBJECTS_APPEND_ARRAYS: &str = "MergeObjectsAppendArrays";
/// `ToFieldPathPolicy` `ForceMergeObjects`.
pub const TO_POLICY_FORCE_MERGE_OBJECTS: &str = "ForceMergeObjects";
/// `ToFieldPathPolicy` `ForceMergeObjectsAppendArrays`.
pub const TO_POLICY_FORCE_MERGE_OBJECTS_APPEND_ARRAYS: &str = "ForceMergeObjectsAppendArrays";
/// `ToFieldPathPolicy` `MergeObject` (deprecated).
pub const TO_POLICY_MERGE_OBJECT: &str = "MergeObject";
/// `ToFieldPathPolicy` `AppendArray` (deprecated).
pub const TO_POLICY_APPEND_ARRAY: &str = "AppendArray";

/// `CombineStrategy` `string`, the only one.
pub const COMBINE_STRATEGY_STRING: &str = "string";

/// `TransformType` `map`.
pub const TRANSFORM_MAP: &str = "map";
/// `TransformType` `match`.
pub const TRANSFORM_MATCH: &str = "match";
/// `TransformType` `math`.
pub const TRANSFORM_MATH: &str = "math";
/// `TransformType` `string`.
pub const TRANSFORM_STRING: &str = "string";
/// `TransformType` `convert`.
pub const TRANSFORM_CONVERT: &str = "convert";

/// `MathTransformType` `Multiply`, the default.
pub const MATH_MULTIPLY: &str = "Multiply";
/// `MathTransformType` `ClampMin`.
pub const MATH_CLAMP_MIN: &str = "ClampMin";
/// `MathTransformType` `ClampMax`.
pub const MATH_CLAMP_MAX: &str = "ClampMax";

/// `MatchFallbackTo` `Value` (what an empty `fallbackTo` means).
pub const MATCH_FALLBACK_TO_VALUE: &str = "Value";
/// `MatchFallbackTo` `Input`.
pub const MATCH_FALLBACK_TO_INPUT: &str = "Input";
/// `MatchTransformPatternType` `literal`.
pub const MATCH_PATTERN_LITERAL: &str = "literal";
/// `MatchTransformPatternType` `regexp`.
pub const MATCH_PATTERN_REGEXP: &str = "regexp";

/// `StringTransformType` `Format`.
pub const STRING_FORMAT: &str = "Format";
/// `StringTransformType` `Convert`.
pub const STRING_CONVERT: &str = "Convert";
/// `StringTransformType` `TrimPrefix`.
pub const STRING_TRIM_PREFIX: &str = "TrimPrefix";
/// `StringTransformType` `TrimSuffix`.
pub const STRING_TRIM_SUFFIX: &str = "TrimSuffix";
/// `StringTransformType` `Regexp`.
pub const STRING_REGEXP: &str = "Regexp";
/// `StringTransformType` `Join`.
pub const STRING_JOIN: &str = "Join";
/// `StringTransformType` `Replace`.
pub const STRING_REPLACE: &str = "Replace";

/// The `StringConversionType`s, in Go's order: `ToUpper`, `ToLower`, `ToJson`, `ToBase64`,
/// `FromBase64`, `ToSha1`, `ToSha256`, `ToSha512`, `ToAdler32`.
pub const STRING_CONVERSIONS: &[&str] = &[
    "ToUpper",
    "ToLower",
    "ToJson",
    "ToBase64",
    "FromBase64",
    "ToSha1",
    "ToSha256",
    "ToSha512",
    "ToAdler32",
];

/// The `TransformIOType`s, in Go's order: `string`, `bool`, `int`, `int64`, `float64`,
/// `object`, `array` (`TransformIOType.IsValid`).
pub const IO_TYPES: &[&str] = &[
    "string", "bool", "int", "int64", "float64", "object", "array",
];

/// `ConvertTransformFormat` `none`, the default.
pub const CONVERT_FORMAT_NONE: &str = "none";
/// `ConvertTransformFormat` `quantity`.
pub const CONVERT_FORMAT_QUANTITY: &str = "quantity";
/// `ConvertTransformFormat` `json`.
pub const CONVERT_FORMAT_JSON: &str = "json";

/// The `ReadinessCheckType`s (`ReadinessCheckType.IsValid`): `NonEmpty`, `MatchString`,
/// `MatchInteger`, `MatchTrue`, `MatchFalse`, `MatchCondition`, `None`.
pub const READINESS_CHECK_TYPES: &[&str] = &[
    "NonEmpty",
    "MatchString",
    "MatchInteger",
    "MatchTrue",
    "MatchFalse",
    "MatchCondition",
    "None",
];

/// The `ConnectionDetailType`s (`ConnectionDetailType.IsValid`): `FromConnectionSecretKey`,
/// `FromFieldPath`, `FromValue`.
pub const CONNECTION_DETAIL_TYPES: &[&str] =
    &["FromConnectionSecretKey", "FromFieldPath", "FromValue"];

/// Go's `ErrFmtConvertFormatPairNotSupported`: its three `%s` are the input type, the output
/// type and the format.
pub fn err_convert_format_pair_not_supported(from: &str, to: &str, format: &str) -> String {
    format!("conversion from {from} to {to} is not supported with format {format}")
}

/// Decodes a function-patch-and-transform step's `input` as the function does. The error is
/// the SDK's `request.GetInput` text (`cannot get function input *v1beta1.Resources from
/// *v1.RunFunctionRequest: …`); the function's `RunFunction` wraps it in
/// `cannot get Function input: ` before it fails the step with it.
pub fn decode(input: &Value) -> Result<Resources, String> {
    Resources::from_go(input, "").map_err(|e| {
        format!(
            "cannot get function input *v1beta1.Resources from *v1.RunFunctionRequest: cannot unmarshal JSON from *structpb.Struct into *v1beta1.Resources: {e}"
        )
    })
}

/// Decodes one transform as [`decode`] decodes those of a whole input (for tests and tools
/// that hold a transform alone); the error is go-json-experiment's text.
pub fn decode_transform(v: &Value) -> Result<Transform, String> {
    Transform::from_go(v, "")
}

/// A value decoded the way go-json-experiment unmarshals into the Go type it stands for.
trait FromGo: Sized + Default {
    /// The Go type's name as `reflect.Type.String` prints it, for error messages.
    fn go_type() -> String;
    /// Decodes a non-null JSON value found at the JSON pointer `ptr`.
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String>;
    /// Decodes any JSON value: `null` leaves the zero value, as Go's `json` does.
    fn from_go(v: &Value, ptr: &str) -> Result<Self, String> {
        if v.is_null() {
            Ok(Self::default())
        } else {
            Self::from_json(v, ptr)
        }
    }
}

/// The kind of a JSON value as go-json-experiment names it in its errors.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "JSON null",
        Value::Bool(_) => "JSON boolean",
        Value::Number(_) => "JSON number",
        Value::String(_) => "JSON string",
        Value::Array(_) => "JSON array",
        Value::Object(_) => "JSON object",
    }
}

/// go-json-experiment's `SemanticError` text for an unmarshal into `go`.
fn mismatch(kind: &str, go: &str, ptr: &str, cause: Option<&str>) -> String {
    let mut s = format!("json: cannot unmarshal {kind} into Go value of type {go}");
    if !ptr.is_empty() {
        s.push_str(" within JSON value at ");
        s.push_str(&crate::gostd::strconv::quote(ptr));
    }
    if let Some(cause) = cause {
        s.push_str(": ");
        s.push_str(cause);
    }
    s
}

/// The JSON pointer of member `key` below `ptr` (RFC 6901 escaping).
fn child(ptr: &str, key: &str) -> String {
    format!("{ptr}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// The members of an object in the order protojson writes them: sorted by key.
fn sorted(obj: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<_> = obj.iter().collect();
    members.sort_by(|a, b| a.0.cmp(b.0));
    members
}

impl FromGo for String {
    fn go_type() -> String {
        "string".into()
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => Err(mismatch(json_kind(v), "string", ptr, None)),
        }
    }
}

/// An integer field: Go's `int64` (and `int`, which is 64 bits where the function runs).
fn integer(v: &Value, ptr: &str, go: &str) -> Result<i64, String> {
    let Value::Number(n) = v else {
        return Err(mismatch(json_kind(v), go, ptr, None));
    };
    if let Some(i) = n.as_i64() {
        return Ok(i);
    }
    // The request's Struct holds numbers as doubles and protojson prints an integral double
    // without a fraction, so 3.0 arrives as 3.
    if let Some(f) = n.as_f64()
        && f.fract() == 0.0
        && f.abs() < 1e21
        && f >= i64::MIN as f64
        && f < i64::MAX as f64
    {
        return Ok(f as i64);
    }
    let text = n.to_string();
    let why = if n.is_u64() {
        "value out of range"
    } else {
        "invalid syntax"
    };
    Err(mismatch(
        "JSON number",
        go,
        ptr,
        Some(&format!(
            "cannot parse {} as signed integer: {why}",
            crate::gostd::strconv::quote(&text)
        )),
    ))
}

impl FromGo for i64 {
    fn go_type() -> String {
        "int64".into()
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        integer(v, ptr, "int64")
    }
}

impl<T: FromGo> FromGo for Option<T> {
    fn go_type() -> String {
        T::go_type()
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        T::from_json(v, ptr).map(Some)
    }
}

impl<T: FromGo> FromGo for Vec<T> {
    fn go_type() -> String {
        format!("[]{}", T::go_type())
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        let Value::Array(items) = v else {
            return Err(mismatch(json_kind(v), &Self::go_type(), ptr, None));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| T::from_go(item, &format!("{ptr}/{i}")))
            .collect()
    }
}

/// Go's `extv1.JSON`: any JSON value, kept as it is. `None` is an absent value or JSON `null`
/// (Go's empty `Raw`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Json(pub Option<Value>);

impl FromGo for Json {
    fn go_type() -> String {
        "v1.JSON".into()
    }
    fn from_json(v: &Value, _ptr: &str) -> Result<Self, String> {
        Ok(Json(Some(v.clone())))
    }
}

impl Json {
    /// The value, if there is one (Go: `len(Raw) > 0`).
    pub fn value(&self) -> Option<&Value> {
        self.0.as_ref()
    }
}

/// A Go struct: its fields, their JSON names and its decoding. `inline` names one embedded
/// struct whose fields share the object (Go's `json:",inline"` embedding of `Patch`).
macro_rules! go_struct {
    (
        $(#[$sm:meta])*
        pub struct $name:ident as $go:literal {
            $( @inline $(#[$im:meta])* $inl:ident : $inlt:ty, )?
            $( $(#[$fm:meta])* $f:ident : $t:ty = $json:literal, )*
        }
    ) => {
        $(#[$sm])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name {
            $( $(#[$im])* pub $inl: $inlt, )?
            $( $(#[$fm])* pub $f: $t, )*
        }

        impl $name {
            /// Sets the member `key`, if it names a field; unknown members are ignored.
            #[allow(unused_variables)]
            fn set_field(&mut self, key: &str, v: &Value, ptr: &str) -> Result<(), String> {
                match key {
                    $( $json => self.$f = FromGo::from_go(v, ptr)?, )*
                    _ => { $( self.$inl.set_field(key, v, ptr)?; )? }
                }
                Ok(())
            }
        }

        impl FromGo for $name {
            fn go_type() -> String {
                $go.into()
            }
            fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
                let Value::Object(obj) = v else {
                    return Err(mismatch(json_kind(v), $go, ptr, None));
                };
                let mut out = Self::default();
                for (key, member) in sorted(obj) {
                    out.set_field(key, member, &child(ptr, key))?;
                }
                Ok(out)
            }
        }
    };
}

go_struct! {
    /// The function's input: `Resources`.
    pub struct Resources as "v1beta1.Resources" {
        /// `apiVersion` (Go's `TypeMeta`).
        api_version: String = "apiVersion",
        /// `kind` (Go's `TypeMeta`).
        kind: String = "kind",
        /// `metadata`, kept as it is: the function never reads it.
        metadata: Json = "metadata",
        /// `patchSets`: named patch lists a resource's `PatchSet` patch refers to.
        patch_sets: Vec<PatchSet> = "patchSets",
        /// `environment`: patches between the XR and the environment.
        environment: Option<Environment> = "environment",
        /// `resources`: the composed resource templates.
        resources: Vec<ComposedTemplate> = "resources",
        /// `writeConnectionSecretToRef`.
        write_connection_secret_to_ref: Option<WriteConnectionSecretToRef> = "writeConnectionSecretToRef",
    }
}

go_struct! {
    /// `TypeReference`: an API version and kind.
    pub struct TypeReference as "v1beta1.TypeReference" {
        /// `apiVersion`.
        api_version: String = "apiVersion",
        /// `kind`.
        kind: String = "kind",
    }
}

go_struct! {
    /// `PatchSet`: a named list of patches.
    pub struct PatchSet as "v1beta1.PatchSet" {
        /// `name`.
        name: String = "name",
        /// `patches`.
        patches: Vec<PatchSetPatch> = "patches",
    }
}

impl PatchSet {
    /// Go's `GetComposedPatches`: the set's patches as a resource's patches, each with its
    /// type defaulted.
    pub fn composed_patches(&self) -> Vec<ComposedPatch> {
        self.patches
            .iter()
            .map(|p| ComposedPatch {
                patch: p.patch.clone(),
                type_: p.patch_type().to_string(),
                patch_set_name: None,
            })
            .collect()
    }
}

go_struct! {
    /// `ComposedTemplate`: one composed resource.
    pub struct ComposedTemplate as "v1beta1.ComposedTemplate" {
        /// `name`: the resource's name in the pipeline.
        name: String = "name",
        /// `base`: the resource's starting object (Go's `*runtime.RawExtension`).
        base: Json = "base",
        /// `patches`.
        patches: Vec<ComposedPatch> = "patches",
        /// `connectionDetails`.
        connection_details: Vec<ConnectionDetail> = "connectionDetails",
        /// `readinessChecks`.
        readiness_checks: Vec<ReadinessCheck> = "readinessChecks",
    }
}

go_struct! {
    /// `ReadinessCheck`: one check of a composed resource's readiness.
    pub struct ReadinessCheck as "v1beta1.ReadinessCheck" {
        /// `type`: one of [`READINESS_CHECK_TYPES`].
        type_: String = "type",
        /// `fieldPath`.
        field_path: Option<String> = "fieldPath",
        /// `matchString`.
        match_string: Option<String> = "matchString",
        /// `matchInteger`.
        match_integer: Option<i64> = "matchInteger",
        /// `matchCondition`.
        match_condition: Option<MatchConditionReadinessCheck> = "matchCondition",
    }
}

go_struct! {
    /// `MatchConditionReadinessCheck`: the condition a `MatchCondition` check wants.
    pub struct MatchConditionReadinessCheck as "v1beta1.MatchConditionReadinessCheck" {
        /// `type`: the condition type.
        type_: String = "type",
        /// `status`: `True`, `False` or `Unknown`.
        status: String = "status",
    }
}

go_struct! {
    /// `ConnectionDetail`: one connection detail of a composed resource.
    pub struct ConnectionDetail as "v1beta1.ConnectionDetail" {
        /// `name`.
        name: String = "name",
        /// `type`: one of [`CONNECTION_DETAIL_TYPES`].
        type_: String = "type",
        /// `fromConnectionSecretKey`.
        from_connection_secret_key: Option<String> = "fromConnectionSecretKey",
        /// `fromFieldPath`.
        from_field_path: Option<String> = "fromFieldPath",
        /// `value`.
        value: Option<String> = "value",
    }
}

go_struct! {
    /// `WriteConnectionSecretToRef`: where the XR's connection secret goes.
    pub struct WriteConnectionSecretToRef as "v1beta1.WriteConnectionSecretToRef" {
        /// `name`.
        name: String = "name",
        /// `namespace`.
        namespace: String = "namespace",
        /// `patches`.
        patches: Vec<ConnectionSecretPatch> = "patches",
    }
}

go_struct! {
    /// `PatchPolicy`: how a patch treats a missing source and an existing destination.
    pub struct PatchPolicy as "v1beta1.PatchPolicy" {
        /// `fromFieldPath`: `Optional` or `Required`.
        from_field_path: Option<String> = "fromFieldPath",
        /// `toFieldPath`: `Replace`, a merge policy or a deprecated one.
        to_field_path: Option<String> = "toFieldPath",
    }
}

impl PatchPolicy {
    /// Go's `GetFromFieldPathPolicy` (on a possibly nil policy): `Optional` unless set.
    pub fn from_field_path_policy(policy: Option<&PatchPolicy>) -> &str {
        policy
            .and_then(|p| p.from_field_path.as_deref())
            .unwrap_or(FROM_POLICY_OPTIONAL)
    }

    /// Go's `GetToFieldPathPolicy` (on a possibly nil policy): `Replace` unless set.
    pub fn to_field_path_policy(policy: Option<&PatchPolicy>) -> &str {
        policy
            .and_then(|p| p.to_field_path.as_deref())
            .unwrap_or(TO_POLICY_REPLACE)
    }
}

go_struct! {
    /// `Environment`: patches between the XR and the environment.
    pub struct Environment as "v1beta1.Environment" {
        /// `patches`.
        patches: Vec<EnvironmentPatch> = "patches",
    }
}

go_struct! {
    /// `Patch`: the fields every kind of patch shares.
    pub struct Patch as "v1beta1.Patch" {
        /// `fromFieldPath`.
        from_field_path: Option<String> = "fromFieldPath",
        /// `combine`.
        combine: Option<Combine> = "combine",
        /// `toFieldPath`.
        to_field_path: Option<String> = "toFieldPath",
        /// `transforms`.
        transforms: Vec<Transform> = "transforms",
        /// `policy`.
        policy: Option<PatchPolicy> = "policy",
    }
}

impl Patch {
    /// Go's `GetFromFieldPath`: empty when unset.
    pub fn from_field_path(&self) -> &str {
        self.from_field_path.as_deref().unwrap_or("")
    }

    /// Go's `GetToFieldPath`: the `fromFieldPath` when unset.
    pub fn to_field_path(&self) -> &str {
        self.to_field_path
            .as_deref()
            .unwrap_or_else(|| self.from_field_path())
    }

    /// Go's `GetPolicy().GetFromFieldPathPolicy()`.
    pub fn from_field_path_policy(&self) -> &str {
        PatchPolicy::from_field_path_policy(self.policy.as_ref())
    }

    /// Go's `GetPolicy().GetToFieldPathPolicy()`.
    pub fn to_field_path_policy(&self) -> &str {
        PatchPolicy::to_field_path_policy(self.policy.as_ref())
    }
}

/// Go's `GetType` of every patch kind: `FromCompositeFieldPath` when `type` is empty.
fn default_patch_type(t: &str) -> &str {
    if t.is_empty() {
        PATCH_FROM_COMPOSITE_FIELD_PATH
    } else {
        t
    }
}

go_struct! {
    /// `EnvironmentPatch`: a patch of `environment.patches`.
    pub struct EnvironmentPatch as "v1beta1.EnvironmentPatch" {
        @inline
        /// The patch's fields (Go embeds `Patch` inline).
        patch: Patch,
        /// `type`, as written (see [`EnvironmentPatch::patch_type`]).
        type_: String = "type",
    }
}

go_struct! {
    /// `ComposedPatch`: a patch of a composed resource.
    pub struct ComposedPatch as "v1beta1.ComposedPatch" {
        @inline
        /// The patch's fields (Go embeds `Patch` inline).
        patch: Patch,
        /// `type`, as written (see [`ComposedPatch::patch_type`]).
        type_: String = "type",
        /// `patchSetName`, for a `PatchSet` patch.
        patch_set_name: Option<String> = "patchSetName",
    }
}

go_struct! {
    /// `PatchSetPatch`: a patch of a patch set.
    pub struct PatchSetPatch as "v1beta1.PatchSetPatch" {
        @inline
        /// The patch's fields (Go embeds `Patch` inline).
        patch: Patch,
        /// `type`, as written (see [`PatchSetPatch::patch_type`]).
        type_: String = "type",
    }
}

go_struct! {
    /// `ConnectionSecretPatch`: a patch of `writeConnectionSecretToRef.patches`.
    pub struct ConnectionSecretPatch as "v1beta1.ConnectionSecretPatch" {
        @inline
        /// The patch's fields (Go embeds `Patch` inline).
        patch: Patch,
        /// `type`, as written (see [`ConnectionSecretPatch::patch_type`]).
        type_: String = "type",
    }
}

impl EnvironmentPatch {
    /// Go's `GetType`: `FromCompositeFieldPath` when `type` is empty.
    pub fn patch_type(&self) -> &str {
        default_patch_type(&self.type_)
    }
}

impl ComposedPatch {
    /// Go's `GetType`: `FromCompositeFieldPath` when `type` is empty.
    pub fn patch_type(&self) -> &str {
        default_patch_type(&self.type_)
    }

    /// Go's `GetPatchSetName`: empty when unset.
    pub fn patch_set_name(&self) -> &str {
        self.patch_set_name.as_deref().unwrap_or("")
    }
}

impl PatchSetPatch {
    /// Go's `GetType`: `FromCompositeFieldPath` when `type` is empty.
    pub fn patch_type(&self) -> &str {
        default_patch_type(&self.type_)
    }
}

impl ConnectionSecretPatch {
    /// Go's `GetType`: `FromCompositeFieldPath` when `type` is empty.
    pub fn patch_type(&self) -> &str {
        default_patch_type(&self.type_)
    }
}

go_struct! {
    /// `CombineVariable`: one input of a combine.
    pub struct CombineVariable as "v1beta1.CombineVariable" {
        /// `fromFieldPath`.
        from_field_path: String = "fromFieldPath",
    }
}

go_struct! {
    /// `Combine`: several values combined into one.
    pub struct Combine as "v1beta1.Combine" {
        /// `variables`.
        variables: Vec<CombineVariable> = "variables",
        /// `strategy`: `string` is the only one.
        strategy: String = "strategy",
        /// `string`: the string strategy's configuration.
        string: Option<StringCombine> = "string",
    }
}

go_struct! {
    /// `StringCombine`: the format the string strategy applies to the variables.
    pub struct StringCombine as "v1beta1.StringCombine" {
        /// `fmt`: a Go `fmt.Sprintf` format.
        format: String = "fmt",
    }
}

go_struct! {
    /// `Transform`: one transform of a patch.
    pub struct Transform as "v1beta1.Transform" {
        /// `type`: `map`, `match`, `math`, `string` or `convert`.
        type_: String = "type",
        /// `math`.
        math: Option<MathTransform> = "math",
        /// `map`.
        map: Option<MapTransform> = "map",
        /// `match`.
        match_: Option<MatchTransform> = "match",
        /// `string`.
        string: Option<StringTransform> = "string",
        /// `convert`.
        convert: Option<ConvertTransform> = "convert",
    }
}

impl Transform {
    /// Go's `GetOutputType`: `Ok(None)` for `map` and `match` (any type), `float64` for math,
    /// `string` for string, the target type for convert (empty when it has no `convert`,
    /// where Go would dereference nil: validation rejects that first).
    pub fn output_type(&self) -> Result<Option<String>, String> {
        match self.type_.as_str() {
            TRANSFORM_MAP | TRANSFORM_MATCH => Ok(None),
            TRANSFORM_MATH => Ok(Some("float64".into())),
            TRANSFORM_STRING => Ok(Some("string".into())),
            TRANSFORM_CONVERT => Ok(Some(
                self.convert
                    .as_ref()
                    .map(|c| c.to_type.clone())
                    .unwrap_or_default(),
            )),
            other => Err(format!(
                "unable to get output type, unknown transform type: {other}"
            )),
        }
    }
}

go_struct! {
    /// `MathTransform`: multiply or clamp a number.
    pub struct MathTransform as "v1beta1.MathTransform" {
        /// `type`, as written: empty means `Multiply`.
        type_: String = "type",
        /// `multiply`.
        multiply: Option<i64> = "multiply",
        /// `clampMin`.
        clamp_min: Option<i64> = "clampMin",
        /// `clampMax`.
        clamp_max: Option<i64> = "clampMax",
    }
}

impl MathTransform {
    /// The math type with the CRD's default applied: `Multiply` when `type` is empty. The
    /// function itself applies no default (an empty type fails `validate_math_transform`).
    pub fn math_type(&self) -> &str {
        if self.type_.is_empty() {
            MATH_MULTIPLY
        } else {
            &self.type_
        }
    }
}

/// `MapTransform`: the map's pairs (Go decodes the whole object into its `Pairs`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapTransform {
    /// Input string → output value.
    pub pairs: BTreeMap<String, Json>,
}

impl FromGo for MapTransform {
    fn go_type() -> String {
        "v1beta1.MapTransform".into()
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        let Value::Object(obj) = v else {
            // Go's own UnmarshalJSON calls encoding/json (v1), whose error the v2 decoder wraps.
            let v1 = match v {
                Value::Bool(_) => "bool",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                _ => "array",
            };
            let cause =
                format!("json: cannot unmarshal {v1} into Go value of type map[string]v1.JSON");
            return Err(mismatch(
                json_kind(v),
                "v1beta1.MapTransform",
                ptr,
                Some(&cause),
            ));
        };
        let pairs = obj
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    Json(if v.is_null() { None } else { Some(v.clone()) }),
                )
            })
            .collect();
        Ok(MapTransform { pairs })
    }
}

go_struct! {
    /// `MatchTransform`: patterns tried in order, and a fallback.
    pub struct MatchTransform as "v1beta1.MatchTransform" {
        /// `patterns`.
        patterns: Vec<MatchTransformPattern> = "patterns",
        /// `fallbackValue`.
        fallback_value: Json = "fallbackValue",
        /// `fallbackTo`, as written: empty means `Value`.
        fallback_to: String = "fallbackTo",
    }
}

go_struct! {
    /// `MatchTransformPattern`: one pattern of a match transform.
    pub struct MatchTransformPattern as "v1beta1.MatchTransformPattern" {
        /// `type`: `literal` or `regexp`.
        type_: String = "type",
        /// `literal`.
        literal: Option<String> = "literal",
        /// `regexp`.
        regexp: Option<String> = "regexp",
        /// `result`.
        result: Json = "result",
    }
}

go_struct! {
    /// `StringTransform`: one string operation.
    pub struct StringTransform as "v1beta1.StringTransform" {
        /// `type`, as written: Go applies no default to it.
        type_: String = "type",
        /// `fmt`.
        format: Option<String> = "fmt",
        /// `convert`: one of [`STRING_CONVERSIONS`].
        convert: Option<String> = "convert",
        /// `trim`.
        trim: Option<String> = "trim",
        /// `regexp`.
        regexp: Option<StringTransformRegexp> = "regexp",
        /// `join`.
        join: Option<StringTransformJoin> = "join",
        /// `replace`.
        replace: Option<StringTransformReplace> = "replace",
    }
}

go_struct! {
    /// `StringTransformJoin`: join an array's elements.
    pub struct StringTransformJoin as "v1beta1.StringTransformJoin" {
        /// `separator`.
        separator: String = "separator",
    }
}

/// Go's `int` field type: 64 bits on the platforms the function runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GoInt(pub i64);

impl FromGo for GoInt {
    fn go_type() -> String {
        "int".into()
    }
    fn from_json(v: &Value, ptr: &str) -> Result<Self, String> {
        integer(v, ptr, "int").map(GoInt)
    }
}

go_struct! {
    /// `StringTransformRegexp`: a regular expression and the group to extract.
    pub struct StringTransformRegexp as "v1beta1.StringTransformRegexp" {
        /// `match`.
        match_: String = "match",
        /// `group`.
        group: Option<GoInt> = "group",
    }
}

go_struct! {
    /// `StringTransformReplace`: replace every occurrence of a string.
    pub struct StringTransformReplace as "v1beta1.StringTransformReplace" {
        /// `search`.
        search: String = "search",
        /// `replace`.
        replace: String = "replace",
    }
}

go_struct! {
    /// `ConvertTransform`: a type conversion.
    pub struct ConvertTransform as "v1beta1.ConvertTransform" {
        /// `toType`: one of [`IO_TYPES`].
        to_type: String = "toType",
        /// `format`: `none`, `quantity` or `json`.
        format: Option<String> = "format",
    }
}

impl ConvertTransform {
    /// Go's `GetFormat`: `none` unless set.
    pub fn format(&self) -> &str {
        self.format.as_deref().unwrap_or(CONVERT_FORMAT_NONE)
    }
}

#[cfg(test)]
mod tests;
