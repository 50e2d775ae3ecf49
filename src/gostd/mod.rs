//! Go standard-library behaviour that several layers must reproduce exactly (Terraform's
//! functions, kube-openapi's formats, cel-go), kept once, below all of them.

pub mod base64;
pub mod fmt;
pub mod strconv;
pub mod time;
