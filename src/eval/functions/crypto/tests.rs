//! Unit tests of the crypto family: digests, and `rsadecrypt` with every key format Go's
//! `ssh.ParseRawPrivateKey` reads and the errors function-hcl reports. The keys were made
//! for these tests with OpenSSL and ssh-keygen.

use super::{KeyError, RawKey, parse_raw_private_key, rsa_decrypt};
use crate::eval::functions::{FunctionError, builtins};
use crate::eval::value::Value;

const PKCS1: &str = "\
-----BEGIN RSA PRIVATE KEY-----\n\
MIICXQIBAAKBgQDCuOYGeZ8R6VB6jY0stSINk3pC2IYBwQ1YcK03z0wQ/kGGTKkX\n\
LMVQSWEl5CX1nf1sBd481b9hr4EzbJ0GRvF5oL28KaCqOwyUnuzliGtmBrIS9+qF\n\
9gdZLZdi+7RL4YTAcp1InFyPrNVJOBl22/UhlDvR1aJSe3kbB6Ap+uU2BwIDAQAB\n\
AoGBAKwmc5a955gaQYBXrLwd12FRRQHcE31xg67wzvNMXd+YKa3mEIfgmQEGHtE1\n\
BypC502dUoFOJ8jhNMSV/a0TA2ANlRvaMdkvcbYmea4tXR4HGDKbYOQ+cdp5TyRA\n\
s9d8jOJaxw05gXIJ8dm9408b7WyqD7EY6otxhnk3eNwI6g6hAkEA46eMj1HPn8+D\n\
uOaAtO3+7C/dUB3MoLLY3Ze0SRoAmNVx7VFQ7ksY6NHw/GV1jSEUWCJmRG13NK2w\n\
glrEr4anywJBANr3o88ORyIlGACf0HGrnxwbactFxWg/xCWcVUDEf1kjG6hxauQH\n\
+az3pW6ZGglVfU3uJECL4Qmr21tku58USzUCQE9XoNR+hedD0rvJkkf8vqEgmXiH\n\
uj6ztoOckNf9eQHLOlakxZkXkUnriZrd3ZdfVRDWhGAK6sXwVxlHe09VlfsCQFAH\n\
rL5TuJn5NsGbp6K0GE48krkxwgntLHKWpe4rI2Rf2Y8CDRBU/eNDDBrVKFf6//ZI\n\
sMVKmrBfOKg5s/1bfHUCQQCFmOWciyCnHFnm4RGHwWGFAXOcfKDL0v60FR9o00QH\n\
3y/m/4DHZ+3pJCli9g6ArAQET6+IFqwnecz3DTFTAAac\n\
-----END RSA PRIVATE KEY-----\n";

const PKCS8: &str = "\
-----BEGIN PRIVATE KEY-----\n\
MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBAMK45gZ5nxHpUHqN\n\
jSy1Ig2TekLYhgHBDVhwrTfPTBD+QYZMqRcsxVBJYSXkJfWd/WwF3jzVv2GvgTNs\n\
nQZG8XmgvbwpoKo7DJSe7OWIa2YGshL36oX2B1ktl2L7tEvhhMBynUicXI+s1Uk4\n\
GXbb9SGUO9HVolJ7eRsHoCn65TYHAgMBAAECgYEArCZzlr3nmBpBgFesvB3XYVFF\n\
AdwTfXGDrvDO80xd35gpreYQh+CZAQYe0TUHKkLnTZ1SgU4nyOE0xJX9rRMDYA2V\n\
G9ox2S9xtiZ5ri1dHgcYMptg5D5x2nlPJECz13yM4lrHDTmBcgnx2b3jTxvtbKoP\n\
sRjqi3GGeTd43AjqDqECQQDjp4yPUc+fz4O45oC07f7sL91QHcygstjdl7RJGgCY\n\
1XHtUVDuSxjo0fD8ZXWNIRRYImZEbXc0rbCCWsSvhqfLAkEA2vejzw5HIiUYAJ/Q\n\
caufHBtpy0XFaD/EJZxVQMR/WSMbqHFq5Af5rPelbpkaCVV9Te4kQIvhCavbW2S7\n\
nxRLNQJAT1eg1H6F50PSu8mSR/y+oSCZeIe6PrO2g5yQ1/15Acs6VqTFmReRSeuJ\n\
mt3dl19VENaEYArqxfBXGUd7T1WV+wJAUAesvlO4mfk2wZunorQYTjySuTHCCe0s\n\
cpal7isjZF/ZjwINEFT940MMGtUoV/r/9kiwxUqasF84qDmz/Vt8dQJBAIWY5ZyL\n\
IKccWebhEYfBYYUBc5x8oMvS/rQVH2jTRAffL+b/gMdn7ekkKWL2DoCsBARPr4gW\n\
rCd5zPcNMVMABpw=\n\
-----END PRIVATE KEY-----\n";

const OPENSSH: &str = "\
-----BEGIN OPENSSH PRIVATE KEY-----\n\
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAlwAAAAdzc2gtcn\n\
NhAAAAAwEAAQAAAIEAmlWNvQ8QUgxsk6Hsrq6A8/m3NlG04zwnhAzTvOsmNLVIL0nn3do8\n\
IRJ19G9G5c0a34dDUtFx+xn6CRS/detp/GaDVtdC042ViCFdihpkjAzBY1YHFLZaC13UqO\n\
N5IlOOxmLqaos2zvCuXzzXrspDcJwbOos9D0ukmXLSOSNud40AAAH4y9d8BsvXfAYAAAAH\n\
c3NoLXJzYQAAAIEAmlWNvQ8QUgxsk6Hsrq6A8/m3NlG04zwnhAzTvOsmNLVIL0nn3do8IR\n\
J19G9G5c0a34dDUtFx+xn6CRS/detp/GaDVtdC042ViCFdihpkjAzBY1YHFLZaC13UqON5\n\
IlOOxmLqaos2zvCuXzzXrspDcJwbOos9D0ukmXLSOSNud40AAAADAQABAAAAgQCRieBRyy\n\
TO2tyBFA/IYtNEP9agKMj2CMIS6q251959kf5yabV4JtbRMUF+snkfOB4BcOLx9IUSEFsT\n\
uTccElYssetv4RFh3gkWP4eX61q2JS1ymXDTmZ+vFYu7MSXayz/wB7N+/bF1k69lV3Uyrq\n\
PrTQYY4/7GwpDvUIRRjrjtwQAAAEAscQaKokBXCqrbKVx+meGmcRaUOJe3tiBGjWxIupO+\n\
MWZd41ngRg1zpbIsyvzT4QLBazGO/FAYhzTH9HqqMVr6AAAAQQDJYSU7ieVXjUrRKWGS8X\n\
IJsgUaAAxguE6rlovFCZFEaNwUB9e8VS2KluesnHIbxp6U0UdEKV6k93Z9CYjDvup1AAAA\n\
QQDEMc16vqjWwZihirWAvI3jVP39UOa9KHteIoG0tnMBswUtJOeewTU2+1p5EM2aeD1Eh9\n\
HIbszSOJUGDmckf8W5AAAAAAEC\n\
-----END OPENSSH PRIVATE KEY-----\n";

const SMALL: &str = "\
-----BEGIN RSA PRIVATE KEY-----\n\
MIIBOwIBAAJBAMMjeV90/imTwG8ti0UclLd6HshASCuQJL09eoSl9CDQ7gN2KGKU\n\
2fK4+2zN0LIj9R1qSRb8OhNA811XAh3bay8CAwEAAQJACIrkBFbFzaInOXa/8w2W\n\
QRX6hP+zaRzNTu+DDo2JS2pmfsTldc+b+yJzWMOimPmvbodkr+R4CVqD5T2yuBuy\n\
QQIhAOLYqqGCHrAJJ9DctLSve6jBK47fsYZWNA9mpuJO+QJhAiEA3Deb8my5diMr\n\
wiUdANSAG8zeVw5pIsGNRRE5uFGod48CIEFUWL+us5vK5zaVeU1YBGrzRtIcxgmE\n\
JfYRgBpI2BnBAiEAwqEbYR0apQDcsdAfXBZzyx47+/Eulps+AicBPphdLp0CIQCF\n\
XdSX97G39a7g+p8nBR/bxUxNKw+Oq0O6cnI6PrRpvA==\n\
-----END RSA PRIVATE KEY-----\n";

const EC: &str = "\
-----BEGIN EC PRIVATE KEY-----\n\
MHcCAQEEIAvRX3QNuB46Ey8f26PISP4A6szt3QUpmHOAoWFKhysxoAoGCCqGSM49\n\
AwEHoUQDQgAEb+ejhZx+VLByYZ9RcRK+EtCmQcj0sJmQYsxwTzicn5pqKwSSwNdt\n\
eKygQpX+jB8MIryndyjWyqaCwyy2vu/RHg==\n\
-----END EC PRIVATE KEY-----\n";

const CIPHERTEXT: &str = "UvfELjP7QTchD8OKbfwfAuweCAIZKJ0djWG7wE0Hw8+nDUdlIlRxscMg6Y02PBpCZJyjwn7QHHfhMAgCIuEH82M4kbeLnL1dCuOpvEHA80BWCfn5kCzN59190bc6ORofq6N5jGW7TKouEo7iMOw8MOv1RKtiw9JGdpWs1ZlSuSs=";

const CIPHERTEXT_OPENSSH: &str = "QDV4m8zBYarxCb9VP5Cz4nCCYlyHMHUlVkVZMHVc0L5Q9TEaKimMg+rfZ/7pHC1EtI82GDuZGn0EafFU/8HByWFuIQuhQ5/tUibOX855UEN6wGHUe6cO3U6/thyQ14gpCdE/QLhXHrIWSG6ddf00oEx8mf+1+KJGTVyz7db+uQg=";

const CIPHERTEXT_SMALL: &str =
    "dE5pBscBRUiG9ZlRFPZbIqjRLgmkS42cbBc7Y2PlCqhlxVcVWL8/aPVUPnI9zDHrbKeVRo0BB5+VB/7r6qL3hw==";

fn hash(name: &str, input: &str) -> String {
    let table = builtins();
    let f = table.get(name).expect("registered");
    match (f.imp)(&[Value::string(input)], &crate::eval::types::Type::String) {
        Ok(Value::String(s)) => s.into_string(),
        other => panic!("{other:?}"),
    }
}

fn message(e: FunctionError) -> String {
    match e {
        FunctionError::Arg { message, .. } | FunctionError::Other(message) => message,
    }
}

fn key_error(pem: &str) -> KeyError {
    match parse_raw_private_key(pem.as_bytes()) {
        Err(e) => e,
        Ok(_) => panic!("parsed"),
    }
}

fn pem(kind: &str, body: &str) -> String {
    format!("-----BEGIN {kind}-----\n{body}\n-----END {kind}-----\n")
}

#[test]
fn digests() {
    assert_eq!(hash("md5", ""), "d41d8cd98f00b204e9800998ecf8427e");
    assert_eq!(
        hash("sha1", "test"),
        "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
    );
    assert_eq!(
        hash("sha256", "é"),
        "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"
    );
    assert_eq!(
        hash("base64sha256", "test"),
        "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="
    );
    assert!(hash("base64sha512", "").starts_with("z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs"));
    assert!(hash("sha512", "").starts_with("cf83e1357eefb8bd"));
}

#[test]
fn decrypts_with_every_rsa_key_format() {
    assert_eq!(rsa_decrypt(CIPHERTEXT, PKCS1).unwrap(), "hello");
    assert_eq!(rsa_decrypt(CIPHERTEXT, PKCS8).unwrap(), "hello");
    assert_eq!(rsa_decrypt(CIPHERTEXT_OPENSSH, OPENSSH).unwrap(), "openssh");
}

#[test]
fn decryption_errors() {
    let e = |ct: &str, key: &str| message(rsa_decrypt(ct, key).unwrap_err());
    assert_eq!(
        e("bad", PKCS1),
        "failed to decode input \"bad\": cipher text must be base64-encoded"
    );
    assert_eq!(
        e("", PKCS1),
        "failed to decrypt: crypto/rsa: decryption error"
    );
    assert_eq!(
        e(CIPHERTEXT, OPENSSH),
        "failed to decrypt: crypto/rsa: decryption error"
    );
    assert_eq!(
        e(CIPHERTEXT_SMALL, SMALL),
        "failed to decrypt: crypto/rsa: 512-bit keys are insecure (see \
         https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)"
    );
    assert_eq!(e(CIPHERTEXT, ""), "invalid private key: ssh: no key found");
    assert_eq!(
        e(CIPHERTEXT, EC),
        "invalid private key type %!t(*ecdsa.PrivateKey)"
    );
}

#[test]
fn key_errors_are_gos() {
    // Cut short: the outer SEQUENCE claims more bytes than there are.
    let lines: Vec<&str> = PKCS1.lines().collect();
    let truncated = [&lines[..5], &lines[6..]].concat().join("\n");
    assert_eq!(
        key_error(&truncated),
        KeyError::Syntax("data truncated".into())
    );
    assert_eq!(
        key_error(&pem("RSA PRIVATE KEY", "MAMCAQA=")),
        KeyError::Syntax("sequence truncated".into())
    );
    assert_eq!(
        key_error(&pem("RSA PRIVATE KEY", "MAMEAQA=")),
        KeyError::Structure(
            "tags don't match (2 vs {class:0 tag:4 length:1 isCompound:false}) \
             {optional:false explicit:false application:false private:false \
             defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} \
             int @2"
                .into()
        )
    );
    assert_eq!(
        key_error(&pem("RSA PRIVATE KEY", "MAUCAQAEAA==")),
        KeyError::Other(
            "x509: failed to parse private key (use ParseECPrivateKey instead for this key \
             format)"
                .into()
        )
    );
    assert_eq!(
        key_error(&pem("PUBLIC KEY", "MAMCAQA=")),
        KeyError::Other("ssh: unsupported key type \"PUBLIC KEY\"".into())
    );
    let encrypted = PKCS1.replacen(
        "-----\n",
        "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n",
        1,
    );
    assert_eq!(
        key_error(&encrypted),
        KeyError::Other("ssh: this private key is passphrase protected".into())
    );
    assert!(matches!(
        parse_raw_private_key(format!("junk\n{PKCS1}trailer").as_bytes()),
        Ok(RawKey::Rsa(_))
    ));
}
