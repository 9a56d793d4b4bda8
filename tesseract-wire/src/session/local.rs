//! The local player's actions: moves, draw offers and answers, claims, resignation and abort, each sealed
//! into the chain; and the End that confirms a game over by rule when we are to move.

use tesseract_board::{Move, Position, TextMove};
use tesseract_movegen::Legal;

use super::{EndReason, Event, GameResult, Session, Stage};
use crate::Error;
use crate::frame::{Kind, Text};

impl Session {
    /// Sends End if the game is over by rule on our board and we are to move (and so to confirm it).
    pub(super) fn confirm_end(&mut self) -> Result<Option<Event>, Error> {
        if let (Stage::Playing, Some(result), true) = (self.stage, self.game.over, self.chain.sender == self.color) {
            if let Some(text) = result.reason.wire_text() {
                self.send(Kind::End, Text::new(text)?, self.game.pos().hash())?;
                self.stage = Stage::Closed(result);
                return Ok(Some(Event::GameOver(result)));
            }
        }
        Ok(None)
    }

    fn my_turn(&self, what: &'static str) -> Result<(), Error> {
        match self.stage {
            Stage::Playing => {}
            Stage::Closed(_) => return Err(Error::Closed),
            Stage::Aborted => return Err(Error::Aborted),
            _ => return Err(Error::NotNow("the handshake is not complete")),
        }
        if self.chain.sender != self.color || self.game.over.is_some() {
            return Err(Error::NotNow(what));
        }
        Ok(())
    }

    /// Plays a local move: checks it with the legal generator, plays it on our board and queues it.
    ///
    /// [`Session::play_text`] takes the move as text; the crate docs show a whole exchange.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn or while the peer's draw offer waits for an answer,
    /// [`Error::IllegalLocalMove`] for an illegal move (nothing changes); [`Error::CounterExhausted`]
    /// aborts the session.
    pub fn play(&mut self, m: Move) -> Result<(), Error> {
        self.may_move()?;
        let mut next = self.game.pos().clone();
        next.play(m).map_err(Error::IllegalLocalMove)?;
        self.send_move(m, &next)
    }

    /// Parses a move text (RULES.md §4) and plays it: one parse and one generation.
    ///
    /// # Errors
    /// As [`Session::play`]; [`Error::IllegalLocalMove`] for text that names no legal move.
    pub fn play_text(&mut self, text: &str) -> Result<(), Error> {
        self.may_move()?;
        let m = self.game.pos().parse_move(text).map_err(Error::IllegalLocalMove)?;
        let mut next = self.game.pos().clone();
        next.make(m);
        self.send_move(m, &next)
    }

    /// Whether a move may be played now: our turn, and no draw offer of the peer's waiting.
    fn may_move(&self) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        if self.draw_offered() {
            return Err(Error::NotNow("answer the peer's draw offer first"));
        }
        Ok(())
    }

    /// Sends a legal move `m`, `next` being the position after it, and goes on to it.
    fn send_move(&mut self, m: Move, next: &Position) -> Result<(), Error> {
        let text = TextMove::from_move(m, self.game.pos()).to_string();
        let ply = self.game.ply.checked_add(1).ok_or(Error::CounterExhausted)?;
        self.send_local(Kind::Move, Text::new(&text)?, next.hash())?;
        self.chain.sender = self.color.other();
        self.game.advance(m, ply, text);
        Ok(())
    }

    /// Offers a draw (on our move); the peer must answer before we move.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn, with an offer pending, or after a declined offer until we have moved.
    pub fn offer_draw(&mut self) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        if self.game.offer.is_some() || self.game.offer_blocked == Some(self.color) {
            return Err(Error::NotNow("no second draw offer before a move"));
        }
        self.send_local(Kind::DrawOffer, Text::EMPTY, self.game.pos().hash())?;
        self.game.offer = Some(self.color);
        self.chain.sender = self.color.other();
        Ok(())
    }

    /// Accepts the peer's draw offer: the game is drawn.
    ///
    /// # Errors
    /// [`Error::NotNow`] if no offer waits.
    pub fn accept_draw(&mut self) -> Result<(), Error> {
        self.my_turn("no draw offer waits")?;
        if !self.draw_offered() {
            return Err(Error::NotNow("no draw offer waits"));
        }
        self.send_local(Kind::DrawAccept, Text::EMPTY, self.game.pos().hash())?;
        self.game.offer = None;
        self.stage = Stage::Closed(GameResult { winner: None, reason: EndReason::DrawAgreed });
        Ok(())
    }

    /// Declines the peer's draw offer: the peer must now move.
    ///
    /// # Errors
    /// [`Error::NotNow`] if no offer waits.
    pub fn decline_draw(&mut self) -> Result<(), Error> {
        self.my_turn("no draw offer waits")?;
        if !self.draw_offered() {
            return Err(Error::NotNow("no draw offer waits"));
        }
        self.send_local(Kind::DrawDecline, Text::EMPTY, self.game.pos().hash())?;
        self.game.offer = None;
        self.game.offer_blocked = Some(self.color.other());
        self.chain.sender = self.color.other();
        Ok(())
    }

    /// Claims a draw by threefold repetition or the 50-move rule, instead of moving.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn or if the claim does not hold on our board.
    pub fn claim_draw(&mut self, reason: EndReason) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        if !self.game.may_claim(reason) || self.draw_offered() {
            return Err(Error::NotNow("the claim does not hold"));
        }
        let text = reason.wire_text().ok_or(Error::NotNow("not a claim"))?;
        self.send_local(Kind::End, Text::new(text)?, self.game.pos().hash())?;
        self.stage = Stage::Closed(GameResult { winner: None, reason });
        Ok(())
    }

    /// Resigns (at any time once the handshake is complete): the peer wins.
    ///
    /// # Errors
    /// [`Error::NotNow`] during the handshake, [`Error::Closed`] after the end.
    pub fn resign(&mut self) -> Result<(), Error> {
        match self.stage {
            Stage::Playing => {}
            Stage::Closed(_) => return Err(Error::Closed),
            Stage::Aborted => return Err(Error::Aborted),
            _ => return Err(Error::NotNow("the handshake is not complete: abort instead")),
        }
        self.send_local(Kind::Resign, Text::EMPTY, self.game.pos().hash())?;
        self.stage = Stage::Closed(GameResult { winner: Some(self.color.other()), reason: EndReason::Resignation });
        Ok(())
    }

    /// Stops the match without a result. Queues an Abort if the handshake is complete; does nothing if
    /// the match is already over.
    pub fn abort(&mut self) {
        if self.stage == Stage::Playing {
            let _ = self.send(Kind::Abort, Text::EMPTY, self.game.pos().hash());
        }
        if self.phase() == super::Phase::Handshake {
            // Nothing more will be derived or sent: the ephemeral secret, the candidates and the handshake
            // frames go (and the saved state of the closed match resumes).
            self.handshake.ephemeral = None;
            self.handshake.candidates.clear();
            self.transport.unacked.clear();
            self.transport.outbox.clear();
        }
        if !matches!(self.stage, Stage::Closed(_) | Stage::Aborted) {
            self.stage = Stage::Closed(GameResult { winner: None, reason: EndReason::Aborted });
        }
    }
}
