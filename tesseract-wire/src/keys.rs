//! Keys and names: long-term identity keys, per-match ephemeral keys, public keys on the wire, the 128-bit
//! identity bound to a public key, match ids and invitation secrets.

use std::fmt;
use std::str::FromStr;

use p256::elliptic_curve::Generate;
use p256::elliptic_curve::sec1::ToSec1Point;
use rand_core::CryptoRng;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use crate::labels;

/// The length of a public key on the wire: SEC1 uncompressed, `0x04 ‖ x ‖ y`.
pub const PUBLIC_KEY_LEN: usize = 65;

/// Why bytes are not a key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// A public key of the wrong length: only the 65-byte uncompressed form is accepted.
    #[error("a public key has {found} bytes: only the 65-byte uncompressed SEC1 form is accepted")]
    Length {
        /// The length found.
        found: usize,
    },
    /// The first byte is not `0x04` (compressed, hybrid or identity encodings are refused).
    #[error("a public key starts with 0x{found:02x}: only uncompressed points (0x04) are accepted")]
    Form {
        /// The first byte found.
        found: u8,
    },
    /// The coordinates are not a point of P-256 (off the curve, on its twist, or not reduced mod p).
    #[error("the coordinates are not a point of P-256")]
    NotOnCurve,
    /// A secret key that is zero or not below the group order.
    #[error("a secret key must be a number in 1..n-1 (32 bytes, big-endian)")]
    Secret,
    /// A secret key's text that is not 64 hex digits (the text itself is not repeated: it may be a
    /// mistyped secret).
    #[error("expected a secret key as 64 hex digits (lower or upper case), found {length} characters that are not")]
    SecretHex {
        /// The text's length in characters.
        length: usize,
    },
    /// Text that is not the expected number of hex digits.
    #[error("expected {expected} hex digits (lower or upper case), found {found:?}")]
    Hex {
        /// How many digits were expected.
        expected: usize,
        /// The text, cut to 80 characters.
        found: String,
    },
}

/// A P-256 public key as it travels: exactly 65 bytes, `0x04 ‖ x ‖ y`, checked to be a point of the curve
/// other than the identity.
///
/// Compressed points (`0x02`/`0x03`), the identity (`0x00`), hybrid forms (`0x06`/`0x07`), points off the
/// curve (invalid-curve attacks) or on its quadratic twist, and coordinates not reduced mod p are all
/// refused by [`PublicKey::from_sec1`]: there is one encoding per key.
///
/// # Examples
/// ```
/// use tesseract_wire::{IdentityKey, PublicKey};
/// let key = IdentityKey::from_bytes(&[7; 32])?;
/// let public = key.public_key();
/// assert_eq!(public.as_bytes()[0], 0x04);
/// assert_eq!(PublicKey::from_sec1(public.as_bytes())?, public);
/// assert!(PublicKey::from_sec1(&public.as_bytes()[..33]).is_err()); // no compressed form
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct PublicKey {
    bytes: [u8; PUBLIC_KEY_LEN],
    point: p256::PublicKey,
}

impl PublicKey {
    /// Decodes a public key from its 65-byte uncompressed SEC1 form, refusing every other form.
    ///
    /// # Errors
    /// [`KeyError::Length`], [`KeyError::Form`] or [`KeyError::NotOnCurve`].
    pub fn from_sec1(bytes: &[u8]) -> Result<PublicKey, KeyError> {
        let array: [u8; PUBLIC_KEY_LEN] = bytes.try_into().map_err(|_| KeyError::Length { found: bytes.len() })?;
        if array[0] != 0x04 {
            return Err(KeyError::Form { found: array[0] });
        }
        // The crate checks that x and y are reduced mod p and that y² = x³ − 3x + b: a point of another
        // curve (invalid-curve attack) or of the twist fails here.
        let point = p256::PublicKey::from_sec1_bytes(&array).map_err(|_| KeyError::NotOnCurve)?;
        Ok(PublicKey { bytes: array, point })
    }

    fn from_point(point: p256::PublicKey) -> PublicKey {
        let encoded = point.to_sec1_point(false);
        let mut bytes = [0; PUBLIC_KEY_LEN];
        bytes.copy_from_slice(encoded.as_bytes());
        PublicKey { bytes, point }
    }

    /// The 65 bytes on the wire.
    pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LEN] {
        &self.bytes
    }

    /// The 128-bit identity bound to this key (see [`Identity`]).
    pub fn identity(&self) -> Identity {
        Identity::of(self)
    }

    pub(crate) fn point(&self) -> &p256::PublicKey {
        &self.point
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", hex(&self.bytes))
    }
}

/// A player's 128-bit identity: the first 16 bytes of SHA-256 over a label and the player's long-term
/// public key (PROTOCOL.md §2), so nobody can claim an identity without holding its secret key.
///
/// Written as 32 lower-case hex digits. A player pins the peer's identity (given by the peer out of band:
/// in person, in the game link, by a trusted server) so that the relay cannot substitute its own keys.
///
/// # Examples
/// ```
/// use tesseract_wire::{Identity, IdentityKey};
/// let key = IdentityKey::from_bytes(&[7; 32])?;
/// let id = key.identity();
/// assert_eq!(id.to_string().len(), 32);
/// assert_eq!(id.to_string().parse::<Identity>()?, id);
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Identity([u8; 16]);

impl Identity {
    /// The identity bound to a public key.
    pub fn of(key: &PublicKey) -> Identity {
        let mut h = Sha256::new();
        h.update([labels::IDENTITY.len() as u8]);
        h.update(labels::IDENTITY);
        h.update(key.as_bytes());
        let digest = h.finalize();
        let mut id = [0; 16];
        id.copy_from_slice(&digest[..16]);
        Identity(id)
    }

    /// An identity from its 16 bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Identity {
        Identity(bytes)
    }

    /// The 16 bytes.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({self})")
    }
}

impl FromStr for Identity {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<Identity, KeyError> {
        Ok(Identity(unhex(s)?))
    }
}

/// A match id: 128 bits chosen by whoever creates the game (at random), known to both players (it is in
/// the game link). Written as 32 hex digits.
///
/// # Examples
/// ```
/// use tesseract_wire::MatchId;
/// let id: MatchId = "00112233445566778899aabbccddeeff".parse()?;
/// assert_eq!(id.as_bytes()[1], 0x11);
/// assert_eq!(id.to_string(), "00112233445566778899aabbccddeeff");
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct MatchId([u8; 16]);

impl MatchId {
    /// A match id from its 16 bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> MatchId {
        MatchId(bytes)
    }

    /// A fresh match id from the operating system's random number generator.
    ///
    /// # Panics
    /// If the operating system cannot give random bytes.
    pub fn random() -> MatchId {
        let mut b = [0; 16];
        os_random(&mut b);
        MatchId(b)
    }

    /// A fresh match id from `rng`.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> MatchId {
        let mut b = [0; 16];
        rng.fill_bytes(&mut b);
        MatchId(b)
    }

    /// The 16 bytes.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl fmt::Debug for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MatchId({self})")
    }
}

impl FromStr for MatchId {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<MatchId, KeyError> {
        Ok(MatchId(unhex(s)?))
    }
}

/// A player's long-term P-256 secret key. Its [`Identity`] is what the peer pins.
///
/// The secret is wiped from memory when dropped and never shown by `Debug`.
///
/// # Examples
/// ```
/// use tesseract_wire::IdentityKey;
/// let key = IdentityKey::random();
/// let saved = key.to_bytes(); // to store in a file only the player can read
/// let again = IdentityKey::from_bytes(&saved)?;
/// assert_eq!(again.identity(), key.identity());
/// let secret_hex: String = saved.iter().map(|b| format!("{b:02x}")).collect();
/// assert!(!format!("{key:?}").contains(&secret_hex));
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Clone)]
pub struct IdentityKey {
    secret: p256::SecretKey,
    public: PublicKey,
}

impl IdentityKey {
    /// A fresh key from the operating system's random number generator.
    ///
    /// # Panics
    /// If the operating system cannot give random bytes (as `getrandom` does).
    pub fn random() -> IdentityKey {
        IdentityKey::from_secret(p256::SecretKey::generate())
    }

    /// A fresh key from `rng`, which must be a cryptographic generator seeded with real entropy.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> IdentityKey {
        IdentityKey::from_secret(p256::SecretKey::generate_from_rng(rng))
    }

    /// The key with this secret scalar (32 bytes, big-endian, in 1..n−1).
    ///
    /// # Errors
    /// [`KeyError::Secret`] for zero or a number not below the group order.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<IdentityKey, KeyError> {
        let secret = p256::SecretKey::from_slice(bytes).map_err(|_| KeyError::Secret)?;
        Ok(IdentityKey::from_secret(secret))
    }

    fn from_secret(secret: p256::SecretKey) -> IdentityKey {
        let public = PublicKey::from_point(secret.public_key());
        IdentityKey { secret, public }
    }

    /// The key from its 64 hex digits (lower or upper case), as a key file holds it (surrounding
    /// whitespace is trimmed).
    ///
    /// # Errors
    /// [`KeyError::SecretHex`] for text that is not 64 hex digits (without repeating it),
    /// [`KeyError::Secret`] for a number that is not a key.
    ///
    /// # Examples
    /// ```
    /// use tesseract_wire::IdentityKey;
    /// let key = IdentityKey::random();
    /// let again = IdentityKey::from_hex(&key.to_hex())?;
    /// assert_eq!(again.identity(), key.identity());
    /// assert!(IdentityKey::from_hex("12ab").is_err());
    /// # Ok::<_, tesseract_wire::KeyError>(())
    /// ```
    pub fn from_hex(text: &str) -> Result<IdentityKey, KeyError> {
        let text = text.trim();
        let bytes =
            Zeroizing::new(unhex::<32>(text).map_err(|_| KeyError::SecretHex { length: text.chars().count() })?);
        IdentityKey::from_bytes(&bytes)
    }

    /// The 64 lower-case hex digits of the key, as a key file holds it.
    pub fn to_hex(&self) -> Zeroizing<String> {
        Zeroizing::new(hex(&self.to_bytes()[..]))
    }

    /// The secret scalar, to store the key (in a wiped buffer).
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        let mut out = Zeroizing::new([0; 32]);
        out.copy_from_slice(&Zeroizing::new(self.secret.to_bytes()));
        out
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        self.public
    }

    /// The identity bound to the public key.
    pub fn identity(&self) -> Identity {
        self.public.identity()
    }

    pub(crate) fn secret(&self) -> &p256::SecretKey {
        &self.secret
    }
}

impl fmt::Debug for IdentityKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdentityKey").field("identity", &self.identity()).finish_non_exhaustive()
    }
}

/// A per-match ephemeral P-256 key. A session takes it by value and it cannot be cloned, so a key serves
/// one match; it is wiped when dropped and never shown by `Debug`.
///
/// # Examples
/// ```
/// use tesseract_wire::EphemeralKey;
/// let e = EphemeralKey::random();
/// assert_eq!(e.public_key().as_bytes().len(), 65);
/// assert_eq!(format!("{e:?}"), "EphemeralKey { .. }");
/// ```
pub struct EphemeralKey {
    secret: p256::SecretKey,
    public: PublicKey,
}

impl EphemeralKey {
    /// A fresh key from the operating system's random number generator.
    ///
    /// # Panics
    /// If the operating system cannot give random bytes (as `getrandom` does).
    pub fn random() -> EphemeralKey {
        EphemeralKey::from_secret(p256::SecretKey::generate())
    }

    /// A fresh key from `rng`, which must be a cryptographic generator seeded with real entropy.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> EphemeralKey {
        EphemeralKey::from_secret(p256::SecretKey::generate_from_rng(rng))
    }

    /// The key with this secret scalar. Meant for known-answer tests (PROTOCOL.md §7): a real match must
    /// use a fresh random key, never one used before.
    ///
    /// # Errors
    /// [`KeyError::Secret`] for zero or a number not below the group order.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<EphemeralKey, KeyError> {
        let secret = p256::SecretKey::from_slice(bytes).map_err(|_| KeyError::Secret)?;
        Ok(EphemeralKey::from_secret(secret))
    }

    fn from_secret(secret: p256::SecretKey) -> EphemeralKey {
        let public = PublicKey::from_point(secret.public_key());
        EphemeralKey { secret, public }
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        self.public
    }

    pub(crate) fn secret(&self) -> &p256::SecretKey {
        &self.secret
    }

    /// The secret scalar, for a saved session state (in a wiped buffer).
    pub(crate) fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        let mut out = Zeroizing::new([0; 32]);
        out.copy_from_slice(&Zeroizing::new(self.secret.to_bytes()));
        out
    }
}

impl fmt::Debug for EphemeralKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EphemeralKey").finish_non_exhaustive()
    }
}

/// An invitation secret: 32 random bytes in the game link, mixed into the key schedule (PROTOCOL.md §4).
///
/// With it, a relay that does not know the link cannot complete the handshake even when no identity is
/// pinned. Wiped when dropped, never shown by `Debug`. Written as 64 hex digits.
///
/// # Examples
/// ```
/// use tesseract_wire::InvitationSecret;
/// let s: InvitationSecret = "42".repeat(32).parse()?;
/// assert_eq!(format!("{s:?}"), "InvitationSecret(..)");
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Clone)]
pub struct InvitationSecret(Zeroizing<[u8; 32]>);

impl InvitationSecret {
    /// A secret from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> InvitationSecret {
        InvitationSecret(Zeroizing::new(bytes))
    }

    /// A fresh secret from the operating system's random number generator.
    ///
    /// # Panics
    /// If the operating system cannot give random bytes.
    pub fn random() -> InvitationSecret {
        let mut s = Zeroizing::new([0; 32]);
        os_random(&mut s[..]);
        InvitationSecret(s)
    }

    /// A fresh secret from `rng`, a cryptographic generator seeded with real entropy.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> InvitationSecret {
        let mut s = Zeroizing::new([0; 32]);
        rng.fill_bytes(&mut s[..]);
        InvitationSecret(s)
    }

    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 64 hex digits, to put in a game link.
    pub fn to_hex(&self) -> Zeroizing<String> {
        Zeroizing::new(hex(&self.0[..]))
    }
}

impl fmt::Debug for InvitationSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("InvitationSecret(..)")
    }
}

impl FromStr for InvitationSecret {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<InvitationSecret, KeyError> {
        Ok(InvitationSecret(Zeroizing::new(unhex(s)?)))
    }
}

fn os_random(out: &mut [u8]) {
    if let Err(e) = getrandom::fill(out) {
        panic!("the operating system's random number generator failed: {e}");
    }
}

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Exactly `2·N` hex digits into `N` bytes.
pub(crate) fn unhex<const N: usize>(s: &str) -> Result<[u8; N], KeyError> {
    let bad = || KeyError::Hex { expected: 2 * N, found: s.chars().take(80).collect() };
    let b = s.as_bytes();
    if b.len() != 2 * N {
        return Err(bad());
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut out = [0; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = digit(b[2 * i]).zip(digit(b[2 * i + 1])).map(|(h, l)| h << 4 | l).ok_or_else(bad)?;
    }
    Ok(out)
}
