//! Built-in functions: the crypto family (Terraform 1.5.7's, as function-hcl registers them):
//! `md5`, `sha1`, `sha256`, `sha512`, `base64sha256`, `base64sha512` and `rsadecrypt`.

mod der;
mod openssh;
mod pem;

use super::encoding::{go_base64_decode, go_quote};
use super::{Function, FunctionError, FunctionTable, Param, args};
use crate::eval::types::Type;
use crate::eval::value::Value;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use md5::Md5;
use rsa::{BigUint, Pkcs1v15Encrypt, RsaPrivateKey, traits::PublicKeyParts};
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    table.insert(hash_function("md5", |b| hex(&Md5::digest(b))));
    table.insert(hash_function("sha1", |b| hex(&Sha1::digest(b))));
    table.insert(hash_function("sha256", |b| hex(&Sha256::digest(b))));
    table.insert(hash_function("sha512", |b| hex(&Sha512::digest(b))));
    table.insert(hash_function("base64sha256", |b| {
        STANDARD.encode(Sha256::digest(b))
    }));
    table.insert(hash_function("base64sha512", |b| {
        STANDARD.encode(Sha512::digest(b))
    }));
    table.insert(Function::new(
        "rsadecrypt",
        vec![
            Param::new("ciphertext", Type::String),
            Param::new("privatekey", Type::String),
        ],
        None,
        Type::String,
        |args, _| {
            let ciphertext = args::string(args, 0)?;
            let key = args::string(args, 1)?;
            rsa_decrypt(ciphertext, key).map(Value::string_owned)
        },
    ));
}

/// Terraform's `makeStringHashFunction`: the digest of the string's UTF-8 bytes, encoded.
fn hash_function(name: &'static str, digest: fn(&[u8]) -> String) -> Function {
    Function::new(
        name,
        vec![Param::new("str", Type::String)],
        None,
        Type::String,
        move |args, _| {
            Ok(Value::String(
                digest(args::string(args, 0)?.as_bytes()).into(),
            ))
        },
    )
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// A parsed private key of any kind `ssh.ParseRawPrivateKey` knows; only RSA keys decrypt.
pub(super) enum RawKey {
    /// An RSA key.
    Rsa(Box<RsaPrivateKey>),
    /// A key of another algorithm, named as Go's `%T` names its type.
    Other(&'static str),
}

/// Terraform's `rsadecrypt`: base64 ciphertext, a PEM private key (PKCS #1, PKCS #8 or
/// OpenSSH), RSA PKCS #1 v1.5 decryption.
///
/// The `rsa` crate's decryption is not constant-time (RUSTSEC-2023-0071, the "Marvin" timing
/// side channel); Go's is. That matters for a service decrypting attacker-chosen ciphertexts
/// and timing the answers, not for rendering compositions offline.
fn rsa_decrypt(ciphertext: &str, key: &str) -> Result<String, FunctionError> {
    let Ok(bytes) = go_base64_decode(ciphertext) else {
        return Err(FunctionError::arg(
            0,
            format!(
                "failed to decode input {}: cipher text must be base64-encoded",
                go_quote(ciphertext)
            ),
        ));
    };
    let raw = parse_raw_private_key(key.as_bytes()).map_err(|e| {
        FunctionError::arg(
            1,
            match e {
                KeyError::Syntax(msg) => {
                    format!("invalid ASN1 data in the given private key: {msg}")
                }
                KeyError::Structure(msg) => format!("asn1: structure error: {msg}"),
                KeyError::Other(msg) => format!("invalid private key: {msg}"),
            },
        )
    })?;
    let key = match raw {
        RawKey::Rsa(key) => key,
        RawKey::Other(type_name) => {
            return Err(FunctionError::arg(
                1,
                format!("invalid private key type %!t({type_name})"),
            ));
        }
    };
    let bits = key.n().bits();
    if bits < 1024 {
        // Go 1.24 and later refuse keys under 1024 bits (GODEBUG rsa1024min).
        return Err(FunctionError::other(format!(
            "failed to decrypt: crypto/rsa: {bits}-bit keys are insecure (see \
             https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)"
        )));
    }
    let plain = key
        .decrypt(Pkcs1v15Encrypt, &bytes)
        .map_err(|_| FunctionError::other("failed to decrypt: crypto/rsa: decryption error"))?;
    // cty.StringVal(string(out)): Go keeps invalid UTF-8 bytes; a Rust string cannot.
    Ok(String::from_utf8_lossy(&plain).into_owned())
}

/// Why a key could not be parsed, in the shapes function-hcl distinguishes.
#[derive(Debug, PartialEq)]
pub(super) enum KeyError {
    /// An `asn1.SyntaxError` (the text after `asn1: syntax error: `).
    Syntax(String),
    /// An `asn1.StructuralError` (the text after `asn1: structure error: `).
    Structure(String),
    /// Any other error, with Go's text.
    Other(String),
}

/// `ssh.ParseRawPrivateKey`.
pub(super) fn parse_raw_private_key(pem_bytes: &[u8]) -> Result<RawKey, KeyError> {
    let Some(block) = pem::decode(pem_bytes) else {
        return Err(KeyError::Other("ssh: no key found".into()));
    };
    if block
        .headers
        .iter()
        .any(|(k, v)| k == "Proc-Type" && v.contains("ENCRYPTED"))
    {
        return Err(KeyError::Other(
            "ssh: this private key is passphrase protected".into(),
        ));
    }
    match block.kind.as_str() {
        "RSA PRIVATE KEY" => der::parse_pkcs1(&block.bytes).map(|k| RawKey::Rsa(Box::new(k))),
        "PRIVATE KEY" => der::parse_pkcs8(&block.bytes),
        "EC PRIVATE KEY" => Ok(RawKey::Other("*ecdsa.PrivateKey")),
        "DSA PRIVATE KEY" => Ok(RawKey::Other("*dsa.PrivateKey")),
        "OPENSSH PRIVATE KEY" => openssh::parse(&block.bytes),
        other => Err(KeyError::Other(format!(
            "ssh: unsupported key type {}",
            go_quote(other)
        ))),
    }
}

/// An RSA key from its components, as Go's `Precompute` + `Validate` accept it.
pub(super) fn rsa_key(
    n: BigUint,
    e: BigUint,
    d: BigUint,
    primes: Vec<BigUint>,
) -> Result<RsaPrivateKey, KeyError> {
    RsaPrivateKey::from_components(n, e, d, primes)
        .and_then(|key| key.validate().map(|()| key))
        .map_err(|e| KeyError::Other(format!("crypto/rsa: {e}")))
}

#[cfg(test)]
mod tests;
