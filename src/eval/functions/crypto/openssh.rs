//! `golang.org/x/crypto/ssh`'s reader for unencrypted `openssh-key-v1` private keys.

use super::{KeyError, RawKey, rsa_key};
use rsa::BigUint;

const MAGIC: &[u8] = b"openssh-key-v1\0";

fn short_read() -> KeyError {
    KeyError::Other("ssh: short read".into())
}

/// SSH wire-format fields, read in order.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn u32(&mut self) -> Result<u32, KeyError> {
        let (head, rest) = self.0.split_first_chunk::<4>().ok_or_else(short_read)?;
        self.0 = rest;
        Ok(u32::from_be_bytes(*head))
    }

    fn bytes(&mut self) -> Result<&'a [u8], KeyError> {
        let len = self.u32()? as usize;
        if self.0.len() < len {
            return Err(short_read());
        }
        let (head, rest) = self.0.split_at(len);
        self.0 = rest;
        Ok(head)
    }

    /// An `mpint`; Go reads negative ones too, which a key then fails to validate with.
    fn mpint(&mut self) -> Result<(bool, BigUint), KeyError> {
        let b = self.bytes()?;
        let negative = b.first().is_some_and(|x| x & 0x80 != 0);
        Ok((negative, BigUint::from_bytes_be(b)))
    }

    /// `ssh.Unmarshal` insists every byte is consumed.
    fn finish(&self) -> Result<(), KeyError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(KeyError::Other("ssh: parse error in message type 0".into()))
        }
    }
}

/// `parseOpenSSHPrivateKey(key, unencryptedOpenSSHKey)`.
pub(super) fn parse(key: &[u8]) -> Result<RawKey, KeyError> {
    let Some(remaining) = key.strip_prefix(MAGIC) else {
        return Err(KeyError::Other(
            "ssh: invalid openssh private key format".into(),
        ));
    };
    let mut r = Reader(remaining);
    let cipher = r.bytes()?;
    let kdf = r.bytes()?;
    let _kdf_opts = r.bytes()?;
    let count = r.u32()?;
    let _public = r.bytes()?;
    let block = r.bytes()?;
    r.finish()?;
    if count != 1 {
        return Err(KeyError::Other(
            "ssh: multi-key files are not supported".into(),
        ));
    }
    if cipher != b"none" || kdf != b"none" {
        return Err(KeyError::Other(
            "ssh: this private key is passphrase protected".into(),
        ));
    }
    let mut p = Reader(block);
    let malformed = || KeyError::Other("ssh: malformed OpenSSH key".into());
    let check1 = p.u32().map_err(|_| malformed())?;
    let check2 = p.u32().map_err(|_| malformed())?;
    let key_type = p.bytes().map_err(|_| malformed())?;
    if check1 != check2 {
        return Err(malformed());
    }
    match key_type {
        b"ssh-rsa" => {
            let (n_neg, n) = p.mpint()?;
            let (e_neg, e) = p.mpint()?;
            let (d_neg, d) = p.mpint()?;
            let _iqmp = p.mpint()?;
            let (p_neg, prime_p) = p.mpint()?;
            let (q_neg, prime_q) = p.mpint()?;
            let _comment = p.bytes()?;
            for (i, &b) in p.0.iter().enumerate() {
                if usize::from(b) != i + 1 {
                    return Err(KeyError::Other("ssh: padding not as expected".into()));
                }
            }
            if n_neg || e_neg || d_neg || p_neg || q_neg {
                return Err(KeyError::Other("crypto/rsa: invalid modulus".into()));
            }
            rsa_key(n, e, d, vec![prime_p, prime_q]).map(|k| RawKey::Rsa(Box::new(k)))
        }
        b"ssh-ed25519" => Ok(RawKey::Other("ed25519.PrivateKey")),
        b"ecdsa-sha2-nistp256" | b"ecdsa-sha2-nistp384" | b"ecdsa-sha2-nistp521" => {
            Ok(RawKey::Other("*ecdsa.PrivateKey"))
        }
        _ => Err(KeyError::Other("ssh: unhandled key type".into())),
    }
}
