//! The names Crossplane's engine computes (crossplane v2.3+ `internal/names`,
//! `internal/render/composite`): the deterministic UID of an XR without one, and composed
//! resources' names derived from it.

use sha1::Digest as _;

/// Kubernetes' longest object name.
const MAX_NAME: usize = 63;
/// The length of the hash suffix of a child name.
const HASH_LENGTH: usize = 12;

/// The UID the engine gives an XR that has none: UUIDv5 in the nil namespace of
/// `"<group>/<version>, Kind=<Kind>\0<namespace>\0<name>"`.
pub fn xr_uid(api_version: &str, kind: &str, namespace: &str, name: &str) -> String {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let text = format!("{group}/{version}, Kind={kind}\0{namespace}\0{name}");
    let mut hasher = sha1::Sha1::new();
    hasher.update([0u8; 16]);
    hasher.update(text.as_bytes());
    let digest = hasher.finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x50;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// `names.ChildName`: `<parent>-` and the first 12 hex digits of SHA-256(parent UID + child
/// name), the parent cut so that the whole fits in 63 characters.
pub fn child_name(parent: &str, parent_uid: &str, child: &str) -> String {
    let digest = sha2::Sha256::digest(format!("{parent_uid}{child}").as_bytes());
    let suffix: String = digest
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()[..HASH_LENGTH]
        .to_string();
    let mut parent = parent.to_string();
    if !parent.is_empty() && !parent.ends_with('-') {
        parent.push('-');
    }
    if parent.len() + HASH_LENGTH <= MAX_NAME {
        return parent + &suffix;
    }
    let mut keep = MAX_NAME - HASH_LENGTH;
    // Go slices bytes; a name is ASCII in practice, but never cut inside a character.
    while !parent.is_char_boundary(keep) {
        keep -= 1;
    }
    if !parent[..keep].ends_with('-') {
        keep -= 1;
        while !parent.is_char_boundary(keep) {
            keep -= 1;
        }
        return format!("{}-{suffix}", &parent[..keep]);
    }
    format!("{}{suffix}", &parent[..keep])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values computed independently with Python's `uuid.uuid5` and `hashlib`.
    #[test]
    fn uids_and_child_names_follow_the_algorithms() {
        let uid = xr_uid("example.com/v1", "XS3Bucket", "", "bucket-36f7e");
        assert_eq!(uid, "172bb771-c381-5d9b-b0dc-dffaa8a1605b");
        assert_eq!(
            child_name("bucket-36f7e", &uid, "my-bucket"),
            "bucket-36f7e-d3bb1cb92409"
        );
        // A core-group kind and a namespace.
        assert_eq!(
            xr_uid("v1", "ConfigMap", "default", "cm"),
            "1018d887-d23f-5cc7-9d67-f8706525bea6"
        );
        // Too long: the parent is cut to leave a hyphen and the 12-digit hash.
        let long = "a".repeat(70);
        let name = child_name(&long, "uid", "child");
        assert_eq!(name, format!("{}-74526b32ec39", "a".repeat(50)));
        // A parent already ending in a hyphen keeps exactly one.
        assert!(
            child_name("app-", "u", "c").starts_with("app-")
                && !child_name("app-", "u", "c").starts_with("app--")
        );
    }
}
