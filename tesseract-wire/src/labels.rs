//! The domain-separation labels of the protocol (PROTOCOL.md §1 and §4.3), in one place.
//!
//! The hashes, tags and key derivations of [`crate::keys`], [`crate::frame`] and the handshake's
//! arithmetic each start with one of these strings, so that no input of one can be taken for an input of
//! another. They are their own module so that the modules that use them need not import each other.

/// The identity hash of a static public key (§2).
pub(crate) const IDENTITY: &[u8] = b"tesseract-wire/1 identity";
/// The transcript hash (§4.2).
pub(crate) const TRANSCRIPT: &[u8] = b"tesseract-wire/1 transcript";
/// The input of a Finished tag (§4.4).
pub(crate) const FINISHED: &[u8] = b"tesseract-wire/1 finished";
/// The input of a message tag (§5.2).
pub(crate) const MESSAGE: &[u8] = b"tesseract-wire/1 message";

/// The HKDF-Expand `info` of the Finished keys, by color (White, Black) (§4.3).
pub(crate) const INFO_FINISHED: [&[u8]; 2] = [b"tesseract-wire/1 finished white", b"tesseract-wire/1 finished black"];
/// The HKDF-Expand `info` of the message keys, by sending color (White, Black) (§4.3).
pub(crate) const INFO_MESSAGE: [&[u8]; 2] = [b"tesseract-wire/1 white to black", b"tesseract-wire/1 black to white"];
