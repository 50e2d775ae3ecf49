//! Kubernetes structural-schema validation, offline (issue 18): CRD and XRD schemas compiled
//! once, resources checked as `crossplane beta validate` checks them with the API server's
//! libraries — defaults first, then the OpenAPI schema, unknown fields and CEL rules — with
//! the same messages.

pub mod bundled;
pub mod cel;
pub mod celvalue;
mod compile;
mod crd;
pub mod crdcheck;
pub mod decl;
pub mod defaults;
pub mod fieldpath;
/// kube-openapi's string formats, below `schema` so CEL's format library shares them.
pub use crate::strfmt as format;
mod guard;
pub mod inputs;
pub mod load;
pub mod node;
pub mod report;
mod rule;
pub mod sources;
pub mod validate;
pub mod xr;
mod xrd;

pub use load::{Entry, LoadError, Schemas};
pub use validate::{Kind, Report, Segment, Violation, validate};
