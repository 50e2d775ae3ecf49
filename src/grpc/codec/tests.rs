use super::*;
use crate::grpc::convert;

/// A varint.
fn varint_bytes(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A length-delimited field.
fn field(number: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    varint_bytes(number << 3 | 2, &mut out);
    varint_bytes(payload.len() as u64, &mut out);
    out.extend_from_slice(payload);
    out
}

/// A `Value` holding `depth` nested objects `{"a": {"a": … null}}`, built on the wire without
/// recursion.
fn nested_objects(depth: usize) -> Vec<u8> {
    // Value{null_value: 0}
    let mut value = vec![0x08, 0x00];
    for _ in 0..depth {
        let entry = [field(1, b"a"), field(2, &value)].concat();
        let object = field(1, &entry);
        value = field(5, &object);
    }
    value
}

/// A `Value` holding `depth` nested lists `[[[… null]]]`, in time linear in `depth`: the
/// sizes inside out, then the headers outside in.
fn nested_lists(depth: usize) -> Vec<u8> {
    let varint_len = |n: usize| {
        let mut v = Vec::new();
        varint_bytes(n as u64, &mut v);
        v.len()
    };
    // sizes[i]: the list and the value at nesting i from the inside.
    let mut sizes = Vec::with_capacity(depth);
    let mut value = 2;
    for _ in 0..depth {
        let list = 1 + varint_len(value) + value;
        sizes.push((list, value));
        value = 1 + varint_len(list) + list;
    }
    let mut out = Vec::with_capacity(value);
    for &(list, inner) in sizes.iter().rev() {
        out.push(6 << 3 | 2);
        varint_bytes(list as u64, &mut out);
        out.push(1 << 3 | 2);
        varint_bytes(inner as u64, &mut out);
    }
    out.extend_from_slice(&[0x08, 0x00]);
    out
}

/// A request whose XR is `{"kind": "XR", "spec": VALUE}`.
fn request_with(value: &[u8]) -> Vec<u8> {
    let kind = [field(1, b"kind"), field(2, &field(3, b"XR"))].concat();
    let spec = [field(1, b"spec"), field(2, value)].concat();
    let xr = [field(1, &kind), field(1, &spec)].concat();
    let resource = field(1, &xr);
    let composite = field(1, &resource);
    field(2, &composite)
}

#[test]
fn an_xr_nested_past_prosts_limit_is_decoded() {
    // 40 objects: prost's default limit of 100 messages refused it.
    let bytes = request_with(&nested_objects(40));
    let request: pb::RunFunctionRequest = decode(&bytes).unwrap();
    let json = convert::request_from_pb(&request);
    let mut value = &json.observed.composite.unwrap().resource.unwrap()["spec"];
    let mut depth = 0;
    while let Some(inner) = value.get("a") {
        value = inner;
        depth += 1;
    }
    assert_eq!(depth, 40);
}

#[test]
fn values_nest_up_to_the_limit_and_no_further() {
    // The XR is one level, `spec` holds the rest.
    let deepest = request_with(&nested_objects(MAX_DEPTH - 1));
    assert_eq!(scan(&deepest, Kind::Request), Ok(MAX_DEPTH));
    let request: pb::RunFunctionRequest = decode(&deepest).unwrap();
    assert!(request.observed.is_some());
    let lists = request_with(&nested_lists(MAX_DEPTH - 1));
    let request: pb::RunFunctionRequest = decode(&lists).unwrap();
    assert!(request.observed.is_some());
    for too_deep in [
        request_with(&nested_objects(MAX_DEPTH)),
        request_with(&nested_lists(MAX_DEPTH)),
        // Far deeper: the scan stops at the limit, nothing recurses.
        request_with(&nested_lists(200_000)),
    ] {
        let status = decode::<pb::RunFunctionRequest>(&too_deep).unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
        assert!(
            status.message().contains("deeper than 1000 levels"),
            "{status:?}"
        );
    }
}

#[test]
fn responses_are_measured_too() {
    // RunFunctionResponse.desired (2) → State.composite (1) → Resource.resource (1).
    let deep = field(
        2,
        &field(
            1,
            &field(
                1,
                &field(
                    1,
                    &[field(1, b"a"), field(2, &nested_lists(MAX_DEPTH + 5))].concat(),
                ),
            ),
        ),
    );
    let status = decode::<pb::RunFunctionResponse>(&deep).unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    let fine = field(
        2,
        &field(
            1,
            &field(
                1,
                &field(1, &[field(1, b"a"), field(2, &nested_lists(100))].concat()),
            ),
        ),
    );
    assert!(decode::<pb::RunFunctionResponse>(&fine).is_ok());
}

#[test]
fn malformed_bytes_are_errors() {
    for bad in [
        &b"\x12\xff\xff\xff\xff\x0f"[..],
        b"\x12\x05ab",
        b"\x00\x01",
        // A group (wire type 3): proto3 has none, and prost would recurse into it.
        b"\x0b\x0b\x0b\x0b",
        b"\x12",
        b"\x09\x01",
    ] {
        let status = decode::<pb::RunFunctionRequest>(bad).unwrap_err();
        assert_ne!(status.code(), tonic::Code::Ok, "{bad:?}");
    }
    // Unknown fields of any wire type but groups are skipped, as prost skips them.
    let unknown = [
        vec![0x78, 0x01],
        field(14, b"hello"),
        vec![0x7d, 1, 2, 3, 4],
    ]
    .concat();
    assert!(decode::<pb::RunFunctionRequest>(&unknown).is_ok());
}

#[test]
fn messages_round_trip_through_the_codec() {
    let json: crate::eval::proto::RunFunctionRequest = serde_json::from_value(serde_json::json!({
        "meta": {"tag": "t"},
        "observed": {"composite": {"resource": {"kind": "XR", "spec": {"list": [1, "two", {"three": [true, null]}]}}}},
        "context": {"k": {"v": 1.5}},
        "extraResources": {"e": {"items": [{"resource": {"kind": "E"}}]}},
    }))
    .unwrap();
    let message = convert::request_to_pb(&json).unwrap();
    let bytes = message.encode_to_vec();
    // XR, spec, list, its object, `three`.
    assert_eq!(scan(&bytes, Kind::Request), Ok(5));
    let back: pb::RunFunctionRequest = decode(&bytes).unwrap();
    assert_eq!(back, message);
}
