//! function-patch-and-transform (v0.10.8) natively: its input, field paths, transforms and
//! patches, with the function's results and error messages, for `render` (a P&T step and a
//! legacy `mode: Resources` Composition) and `convert`.
//!
//! A map of the public API:
//!
//! - [`input`]: the `pt.fn.crossplane.io/v1beta1` `Resources` types (JSON names as Go's tags;
//!   enum-like fields are `String`s, the known values are `input`'s constants) and
//!   [`input::decode`], a step's `input` object → [`input::Resources`] with the SDK's error
//!   text. Go's getters with defaults are methods: [`input::Patch::from_field_path`],
//!   [`input::Patch::to_field_path`], [`input::Patch::from_field_path_policy`],
//!   [`input::Patch::to_field_path_policy`], `patch_type()` on every patch kind,
//!   [`input::ComposedPatch::patch_set_name`], [`input::PatchSet::composed_patches`],
//!   [`input::MathTransform::math_type`], [`input::ConvertTransform::format`],
//!   [`input::Transform::output_type`].
//! - [`fieldpath`]: crossplane-runtime's field paths: [`fieldpath::parse`] (segments, Go's
//!   errors), reads over a borrowed object ([`fieldpath::get_value`], `get_string`, `get_bool`,
//!   `get_integer`, `expand_wildcards`), and [`fieldpath::Paved`], an owned object that also
//!   writes (`set_value`, creating objects and growing arrays) and merges
//!   (`merge_value` with [`fieldpath::MergeOptions`], mergo's rules). Errors are
//!   [`fieldpath::Error`] with Go's `IsNotFound` as `is_not_found()`. Numbers keep Kubernetes'
//!   int64/float64 distinction: [`fieldpath::is_int64`], [`fieldpath::go_equal`],
//!   [`fieldpath::normalize_numbers`] (Go's JSON round trip of a written value).
//! - [`transforms`]: transforms.go: [`transforms::resolve`] (one transform, errors wrapped
//!   `<type> transform could not resolve: …`), [`transforms::resolve_transforms`] (a patch's
//!   list, `transform at index N returned error: …`), the per-type resolvers
//!   (`resolve_map`, `resolve_match`, `resolve_math`, `resolve_string`, `resolve_convert`,
//!   `matches`), validate.go's `validate_math_transform` and `validate_convert_transform` (which
//!   the resolvers run first, as Go does), [`transforms::check_conversion`] (Go's
//!   `GetConversionFunc`), and helpers: [`transforms::go_json_marshal`] (Go's `json.Marshal` of
//!   unstructured data), [`transforms::std_json_value`] (numbers as `encoding/json` decodes
//!   them: float64), [`transforms::float_value`]. Go's `fmt.Sprintf` (the Format transform and
//!   the string combine) is [`crate::gostd::fmt::sprintf`].
//! - [`patches`]: patches.go, what fn.go calls: [`patches::composed_templates`]
//!   (`ComposedTemplates`: patch sets resolved into each resource),
//!   [`patches::apply_composed_patch`] (`ApplyComposedPatch`: every patch type between the
//!   observed/desired composed resource, XR and environment),
//!   [`patches::apply_environment_patch`] (`ApplyEnvironmentPatch`), and their parts
//!   `apply_from_field_path_patch`, `apply_combine_from_variables_patch`, `combine`,
//!   `to_merge_option` (toFieldPath policies), `to_composed_resource`. Errors are
//!   [`fieldpath::Error`]: `is_not_found()` is what fn.go's fromFieldPath policy checks
//!   (Optional skips the patch, Required fails or warns: that decision is `RunFunction`'s).
//!
//! Numbers, as the function sees them: a base template is JSON-decoded (integers are int64),
//! but the observed XR, observed composed resources, the environment and the context come
//! from protobuf `Struct`s, whose every number is a float64 (the SDK's `AsMap`). A caller
//! must hand those over as float64s ([`transforms::std_json_value`]) for Go's results:
//! `%d` of an XR's integer prints `%!d(float64=7)` in the real function. Every write
//! (`set_value`) turns an integral float64 back into an int64, as Go's JSON round trip does.

pub mod connection;
pub mod fieldpath;
pub mod function;
pub mod input;
pub mod migrate;
pub mod patches;
pub mod ready;
pub mod transforms;
pub mod validate;
