//! The function protocol over gRPC (issue 17): protobuf messages and their conversion to the
//! protobuf-JSON types the evaluator works with.

pub mod codec;
pub mod convert;
pub mod pb;
pub mod remote;
pub mod server;
pub mod service;
