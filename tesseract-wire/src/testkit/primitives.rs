//! The primitives' entry points for the known-answer tests (Project Wycheproof, RFC 4231, PROTOCOL.md §9):
//! HMAC-SHA256, HKDF-SHA256 and P-256 Diffie-Hellman on arbitrary inputs, through the same crates, calls
//! and key decoding as the protocol. The protocol itself never calls these: [`hmac_sha256_verify`] even
//! accepts truncated tags, which the protocol refuses.

use hkdf::Hkdf;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::frame::TAG_LEN;
use crate::keys::PublicKey;

type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA256 of arbitrary bytes under an arbitrary key, through the same code path as the protocol's tags
/// (for the RFC 4231 and Wycheproof tests).
///
/// # Examples
/// ```
/// // RFC 4231 test case 2
/// let t = tesseract_wire::testkit::hmac_sha256(b"Jefe", b"what do ya want for nothing?");
/// assert_eq!(t[..4], [0x5b, 0xdc, 0xc1, 0x46]);
/// ```
pub fn hmac_sha256(key: &[u8], bytes: &[u8]) -> [u8; 32] {
    <HmacSha256 as KeyInit>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"))
        .chain_update(bytes)
        .finalize()
        .into_bytes()
        .into()
}

/// Constant-time check of an HMAC-SHA256 tag of arbitrary length (at least one byte): the full tag, or a
/// left prefix of it, through `Mac::verify_slice` / `Mac::verify_truncated_left`. The protocol itself only
/// ever accepts full 32-byte tags; this is for the Wycheproof tests.
///
/// # Examples
/// ```
/// let t = tesseract_wire::testkit::hmac_sha256(b"key", b"data");
/// assert!(tesseract_wire::testkit::hmac_sha256_verify(b"key", b"data", &t));
/// assert!(!tesseract_wire::testkit::hmac_sha256_verify(b"key", b"data!", &t));
/// ```
pub fn hmac_sha256_verify(key: &[u8], bytes: &[u8], tag: &[u8]) -> bool {
    let m = <HmacSha256 as KeyInit>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"))
        .chain_update(bytes);
    if tag.len() == TAG_LEN {
        m.verify_slice(tag).is_ok()
    } else {
        !tag.is_empty() && m.verify_truncated_left(tag).is_ok()
    }
}

/// Diffie-Hellman of a secret scalar (32 bytes) with a public key through the protocol's own decoding path
/// ([`PublicKey::from_sec1`]): the 32-byte shared x-coordinate, or why the inputs were refused. For the
/// Wycheproof tests and other implementations' cross-checks.
///
/// # Errors
/// [`crate::KeyError`] if the secret or the public key is refused.
///
/// # Examples
/// ```
/// use tesseract_wire::IdentityKey;
/// use tesseract_wire::testkit::ecdh_p256;
/// let a = IdentityKey::from_bytes(&[1; 32])?;
/// let b = IdentityKey::from_bytes(&[2; 32])?;
/// let ab = ecdh_p256(&[1; 32], b.public_key().as_bytes())?;
/// let ba = ecdh_p256(&[2; 32], a.public_key().as_bytes())?;
/// assert_eq!(ab, ba);
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
pub fn ecdh_p256(secret: &[u8; 32], public: &[u8]) -> Result<[u8; 32], crate::KeyError> {
    let public = PublicKey::from_sec1(public)?;
    let secret = p256::SecretKey::from_slice(secret).map_err(|_| crate::KeyError::Secret)?;
    Ok(*crate::crypto::dh(&secret, &public))
}

/// HKDF-SHA256 through the same crate and call as the key schedule, for the Wycheproof tests.
///
/// # Errors
/// If `okm` is longer than 255·32 bytes.
///
/// # Examples
/// ```
/// let mut okm = [0; 42];
/// tesseract_wire::testkit::hkdf_sha256(Some(&[0; 13]), &[0x0b; 22], b"", &mut okm)?;
/// # Ok::<_, tesseract_wire::Error>(())
/// ```
pub fn hkdf_sha256(salt: Option<&[u8]>, ikm: &[u8], info: &[u8], okm: &mut [u8]) -> Result<(), crate::Error> {
    Hkdf::<Sha256>::new(salt, ikm).expand(info, okm).map_err(|_| crate::Error::Malformed("HKDF output too long"))
}
