//! The protobuf codec of the function protocol: prost's encoding, with a decoder that accepts
//! values nested as deep as the evaluator does ([`MAX_VALUE_DEPTH`], 1,000 levels) rather than
//! prost's default recursion limit of 100 messages, which a `Struct` reaches at about 31
//! nested objects (each JSON level is a `Value`, a `Struct` and a map entry).
//!
//! prost's own limit is turned off (its `no-recursion-limit` feature) and replaced by a scan of
//! the wire bytes before decoding: the scan follows the protocol's schema to every
//! `Struct`/`ListValue`, measures how deep the values nest without recursing, and refuses a
//! message nested deeper than the limit with `InvalidArgument`. Only then is the message
//! decoded, on a stack big enough for that depth, so no input can overflow the stack.

use super::pb;
use crate::eval::value::MAX_VALUE_DEPTH;
use prost::Message;
use prost::bytes::{Buf, Bytes};
use std::marker::PhantomData;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

/// How deep values (objects and lists) may nest in a message: the evaluator's own limit.
pub const MAX_DEPTH: usize = MAX_VALUE_DEPTH as usize;

/// A message whose values nesting the scan knows how to find.
pub trait Scanned: Message + Default + Send + 'static {
    /// Where this message's schema starts.
    const ROOT: Kind;
}

impl Scanned for pb::RunFunctionRequest {
    const ROOT: Kind = Kind::Request;
}

impl Scanned for pb::RunFunctionResponse {
    const ROOT: Kind = Kind::Response;
}

/// The messages of the protocol that can lead to a `Struct`, as the scan sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `RunFunctionRequest`.
    Request,
    /// `RunFunctionResponse`.
    Response,
    /// `State`.
    State,
    /// `Resource`.
    Resource,
    /// `Resources`.
    Resources,
    /// `Schema`.
    Schema,
    /// A map entry whose value (field 2) is a `Resource`.
    ResourceEntry,
    /// A map entry whose value is a `Resources`.
    ResourcesEntry,
    /// A map entry whose value is a `Schema`.
    SchemaEntry,
    /// `google.protobuf.Struct`.
    Struct,
    /// A `Struct`'s field: a map entry whose value is a `Value`.
    StructEntry,
    /// `google.protobuf.Value`.
    Value,
    /// `google.protobuf.ListValue`.
    List,
}

impl Kind {
    /// The message a length-delimited field holds, when it can lead to a `Struct`; `None` for
    /// strings, bytes and messages of a bounded depth (prost decodes those as it likes).
    fn field(self, number: u64) -> Option<Kind> {
        use Kind::*;
        match (self, number) {
            (Request, 2 | 3) | (Response, 2) => Some(State),
            (Request, 4 | 5) | (Response, 4 | 7) => Some(Struct),
            (Request, 6 | 8) => Some(ResourcesEntry),
            (Request, 9) => Some(SchemaEntry),
            (State, 1) | (Resources, 1) | (ResourceEntry, 2) => Some(Resource),
            (State, 2) => Some(ResourceEntry),
            (Resource, 1) | (Schema, 1) | (Value, 5) => Some(Struct),
            (ResourcesEntry, 2) => Some(Resources),
            (SchemaEntry, 2) => Some(Schema),
            (Struct, 1) => Some(StructEntry),
            (StructEntry, 2) | (List, 1) => Some(Value),
            (Value, 6) => Some(List),
            _ => None,
        }
    }

    /// Whether this message is one level of value nesting (an object or a list).
    fn nests(self) -> bool {
        matches!(self, Kind::Struct | Kind::List)
    }
}

/// Why a message was refused before decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanError {
    /// Values nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The bytes are not a protobuf message (or use groups, which proto3 never writes).
    Malformed(&'static str),
}

impl From<ScanError> for Status {
    fn from(e: ScanError) -> Status {
        match e {
            ScanError::TooDeep => Status::invalid_argument(format!(
                "the message nests values (objects and lists) deeper than {MAX_DEPTH} levels"
            )),
            ScanError::Malformed(why) => {
                Status::internal(format!("failed to decode Protobuf message: {why}"))
            }
        }
    }
}

fn varint(bytes: &[u8], at: &mut usize) -> Result<u64, ScanError> {
    let mut value = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *bytes
            .get(*at)
            .ok_or(ScanError::Malformed("truncated varint"))?;
        *at += 1;
        if shift == 63 && byte > 1 {
            return Err(ScanError::Malformed("invalid varint"));
        }
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(ScanError::Malformed("invalid varint"))
}

/// The deepest value nesting in `bytes`, a `root` message, without recursion; stops with
/// [`ScanError::TooDeep`] as soon as it passes [`MAX_DEPTH`].
pub fn scan(bytes: &[u8], root: Kind) -> Result<usize, ScanError> {
    // The messages being read: their kind, where they end, their nesting depth.
    let mut open: Vec<(Kind, usize, usize)> = vec![(root, bytes.len(), 0)];
    let mut deepest = 0;
    let mut at = 0;
    while let Some(&(kind, end, depth)) = open.last() {
        if at == end {
            open.pop();
            continue;
        }
        let key = varint(bytes, &mut at)?;
        if at > end {
            return Err(ScanError::Malformed("a field runs past its message"));
        }
        let (number, wire) = (key >> 3, key & 7);
        if number == 0 {
            return Err(ScanError::Malformed("field number 0"));
        }
        match wire {
            0 => {
                varint(bytes, &mut at)?;
            }
            1 => at += 8,
            5 => at += 4,
            2 => {
                let len = varint(bytes, &mut at)?;
                let len = usize::try_from(len)
                    .map_err(|_| ScanError::Malformed("a length past the message"))?;
                let inner_end = at
                    .checked_add(len)
                    .filter(|e| *e <= end)
                    .ok_or(ScanError::Malformed("a length past the message"))?;
                match kind.field(number) {
                    Some(child) => {
                        let depth = depth + usize::from(child.nests());
                        if depth > MAX_DEPTH {
                            return Err(ScanError::TooDeep);
                        }
                        deepest = deepest.max(depth);
                        open.push((child, inner_end, depth));
                    }
                    None => at = inner_end,
                }
            }
            _ => return Err(ScanError::Malformed("groups are not part of proto3")),
        }
        if at > end {
            return Err(ScanError::Malformed("a field runs past its message"));
        }
    }
    Ok(deepest)
}

/// The stack a decode of values nested `depth` deep gets: prost recurses a few frames per
/// level, each a few hundred bytes (more in a debug build).
fn stack_for(depth: usize) -> usize {
    1024 * 1024 + depth * 16 * 1024
}

/// Decodes a `T` from `bytes` after the depth scan.
pub fn decode<T: Scanned>(bytes: &[u8]) -> Result<T, Status> {
    let depth = scan(bytes, T::ROOT)?;
    let decode = || {
        T::decode(bytes)
            .map_err(|e| Status::internal(format!("failed to decode Protobuf message: {e}")))
    };
    // Shallow messages (every real one) decode on the caller's stack.
    if depth <= 32 {
        decode()
    } else {
        stacker::grow(stack_for(depth), decode)
    }
}

/// Encodes `message`, on a stack big enough for the values it holds (prost's encoder
/// recurses like its decoder; an evaluator's values nest at most [`MAX_DEPTH`] levels).
fn encode_into<T: Message>(message: &T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
    stacker::maybe_grow(256 * 1024, stack_for(MAX_DEPTH), || {
        message
            .encode(buf)
            .map_err(|e| Status::internal(format!("cannot encode the message: {e}")))
    })
}

/// `message`'s wire bytes, encoded on a stack big enough for the values it holds.
pub fn encode<T: Message>(message: &T) -> Vec<u8> {
    stacker::maybe_grow(256 * 1024, stack_for(MAX_DEPTH), || message.encode_to_vec())
}

/// The codec: sends `E`, receives `D`.
pub struct DepthCodec<E, D>(PhantomData<fn(E) -> D>);

impl<E, D> Default for DepthCodec<E, D> {
    fn default() -> Self {
        DepthCodec(PhantomData)
    }
}

/// The encoding half of [`DepthCodec`].
pub struct DepthEncoder<E>(PhantomData<fn(E)>);

/// The decoding half of [`DepthCodec`].
pub struct DepthDecoder<D>(PhantomData<fn() -> D>);

impl<E: Message + Send + 'static> Encoder for DepthEncoder<E> {
    type Item = E;
    type Error = Status;

    fn encode(&mut self, item: E, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        encode_into(&item, buf)
    }
}

impl<D: Scanned> Decoder for DepthDecoder<D> {
    type Item = D;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<D>, Status> {
        let bytes: Bytes = buf.copy_to_bytes(buf.remaining());
        decode(&bytes).map(Some)
    }
}

impl<E: Message + Send + 'static, D: Scanned> Codec for DepthCodec<E, D> {
    type Encode = E;
    type Decode = D;
    type Encoder = DepthEncoder<E>;
    type Decoder = DepthDecoder<D>;

    fn encoder(&mut self) -> Self::Encoder {
        DepthEncoder(PhantomData)
    }

    fn decoder(&mut self) -> Self::Decoder {
        DepthDecoder(PhantomData)
    }
}

#[cfg(test)]
mod tests;
