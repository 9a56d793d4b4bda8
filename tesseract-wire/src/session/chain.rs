//! The message chain of a session (PROTOCOL.md §5): one chain over both directions, whose state is the
//! next sequence number, the ply, the position hash and the previous tag; whose turn it is to send; and the
//! sealing of outgoing messages.

use tesseract_board::Color;

use super::{Session, Stage};
use crate::Error;
use crate::crypto;
use crate::frame::{Frame, Kind, MacInput, MessageFrame, TAG_LEN, Tag, Text, VERSION};

/// The color's byte on the wire: 0 White, 1 Black.
pub(super) fn color_byte(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The chain state a message is checked against: its sequence number, ply, the hash before it and the
/// previous tag.
#[derive(Copy, Clone, Debug)]
pub(super) struct ChainState {
    /// The message's sequence number.
    pub(super) seq: u32,
    /// The ply before the message.
    pub(super) ply: u32,
    /// The position hash before the message.
    pub(super) hash: u64,
    /// The tag of the message (or Finished) before it.
    pub(super) prev: [u8; TAG_LEN],
}

/// The chain's part of a session: its counters over both directions (the ply is the game's).
pub(super) struct Chain {
    /// The next message's sequence number.
    pub(super) seq: u32,
    /// The previous tag: the last message's, or the last Finished tag before the first message.
    pub(super) prev: [u8; TAG_LEN],
    /// Whose turn it is to send a (non-terminal) message.
    pub(super) sender: Color,
    /// The chain state before our last message, while the peer may not have seen it (for a resign or abort
    /// the peer sent before it did).
    pub(super) snapshot: Option<ChainState>,
}

impl Session {
    /// The chain state the next message is made in.
    pub(super) fn chain_state(&self) -> ChainState {
        ChainState { seq: self.chain.seq, ply: self.game.ply, hash: self.game.pos().hash(), prev: self.chain.prev }
    }

    /// Seals and queues one message in the current chain state.
    pub(super) fn send(&mut self, kind: Kind, text: Text, hash: u64) -> Result<(), Error> {
        let next_seq = self.chain.seq.checked_add(1).ok_or(Error::CounterExhausted)?;
        let keys = self.handshake.keys.as_ref().ok_or(Error::NotNow("the handshake is not complete"))?;
        let input = MacInput {
            version: VERSION,
            kind,
            match_id: *self.match_id.as_bytes(),
            sender: *self.handshake.me.identity().as_bytes(),
            color: color_byte(self.color),
            seq: self.chain.seq,
            ply: self.game.ply,
            hash,
            text,
            prev: self.chain.prev,
        };
        let tag = crypto::message_tag(&keys.message[self.color.index()], &input);
        let frame = Frame::Message(MessageFrame {
            kind,
            seq: self.chain.seq,
            ply: self.game.ply,
            hash,
            text,
            tag: Tag::from_bytes(tag),
        })
        .encode();
        self.chain.snapshot = Some(self.chain_state());
        self.transport.queue(frame);
        self.chain.seq = next_seq;
        self.chain.prev = tag;
        Ok(())
    }

    /// Sends a local message, aborting the session if the counter is exhausted.
    pub(super) fn send_local(&mut self, kind: Kind, text: Text, hash: u64) -> Result<(), Error> {
        match self.send(kind, text, hash) {
            Err(Error::CounterExhausted) => {
                self.stage = Stage::Aborted;
                self.failure = Some(Error::CounterExhausted);
                Err(Error::CounterExhausted)
            }
            other => other,
        }
    }
}
