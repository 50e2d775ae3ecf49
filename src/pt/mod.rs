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

pub mod input;
pub mod migrate;
pub mod validate;
