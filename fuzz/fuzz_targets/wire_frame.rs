//! Fuzz target: the wire frame decoder with arbitrary bytes.
//!
//! Checked on every input: nothing panics, and a frame that decodes re-encodes to exactly the same bytes
//! (one encoding per frame); the same for the MAC input's decoder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_wire::{Frame, MacInput};

fuzz_target!(|data: &[u8]| {
    if let Ok(frame) = Frame::decode(data) {
        assert_eq!(frame.encode(), data);
    }
    if let Some(input) = MacInput::decode(data) {
        assert_eq!(input.encode(), data);
    }
});
