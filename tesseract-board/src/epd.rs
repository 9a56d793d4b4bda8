//! EPD (Extended Position Description): a position without its clocks, then operations such as
//! `bm e2e4; id "WAC.001";`, the format of test suites. The operations are kept as data; what they
//! mean is for the caller.
//!
//! ```
//! use tesseract_board::epd::Epd;
//! let epd = Epd::parse(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm g3g6; id "WAC.001";"#)?;
//! assert_eq!(epd.operands("bm"), Some(&["g3g6".to_string()][..]));
//! assert_eq!(epd.operands("id"), Some(&["WAC.001".to_string()][..]));
//! assert_eq!(epd.position.fullmove_number(), 1);
//! # Ok::<_, tesseract_board::epd::EpdError>(())
//! ```

use crate::{FromFenError, Position};

/// One EPD line: the position (clocks 0 and 1, or `hmvc` and `fmvn` when given) and its operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position of the first four fields.
    pub position: Position,
    /// The operations, in the order written.
    pub operations: Vec<Operation>,
}

/// An operation: an opcode and its operands (a quoted operand without its quotes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, e.g. `bm`.
    pub opcode: String,
    /// The operands.
    pub operands: Vec<String>,
}

/// Why an EPD line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EpdError {
    /// Fewer than the four position fields.
    #[error("expected the four position fields (placement side castling en-passant), found {0}")]
    Fields(usize),
    /// The position fields do not make a valid position.
    #[error("position: {0}")]
    Position(#[from] FromFenError),
    /// An operation is malformed.
    #[error("operation {index}: {reason}")]
    Operation {
        /// The operation's index, from 1.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

impl Epd {
    /// Reads one EPD line.
    ///
    /// # Errors
    /// [`EpdError`] saying what is wrong: the position fields, or the operation (by number) that is
    /// malformed (an empty opcode, an unclosed quote, a clock operand that is not a number).
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let line = line.trim();
        let mut fields = line.splitn(5, ' ');
        let position: Vec<&str> = fields.by_ref().take(4).collect();
        if position.len() < 4 {
            return Err(EpdError::Fields(position.len()));
        }
        let rest = fields.next().unwrap_or("");
        let operations = parse_operations(rest)?;
        let clock = |opcode: &str, default: &str, index_of: &dyn Fn(&str) -> usize| match operations
            .iter()
            .find(|op| op.opcode == opcode)
        {
            None => Ok(default.to_string()),
            Some(op) => match op.operands.as_slice() {
                [n] if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => Ok(n.clone()),
                _ => Err(EpdError::Operation { index: index_of(opcode), reason: "a clock takes one number" }),
            },
        };
        let index_of = |opcode: &str| operations.iter().position(|op| op.opcode == opcode).map_or(0, |i| i + 1);
        let hmvc = clock("hmvc", "0", &index_of)?;
        let fmvn = clock("fmvn", "1", &index_of)?;
        let text = format!("{} {hmvc} {fmvn}", position.join(" "));
        Ok(Epd { position: Position::from_fen(&text)?, operations })
    }

    /// The operands of the first operation with this opcode, if any.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations.iter().find(|op| op.opcode == opcode).map(|op| op.operands.as_slice())
    }
}

/// Splits `bm e2e4 d2d4; id "A quoted; text";` into operations.
fn parse_operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut operations = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    let finish = |words: &mut Vec<String>, operations: &mut Vec<Operation>| -> Result<(), EpdError> {
        if words.is_empty() {
            return Ok(());
        }
        let opcode = words.remove(0);
        operations.push(Operation { opcode, operands: std::mem::take(words) });
        Ok(())
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut quoted = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(q) => quoted.push(q),
                        None => {
                            return Err(EpdError::Operation {
                                index: operations.len() + 1,
                                reason: "a quoted operand is not closed",
                            });
                        }
                    }
                }
                if words.is_empty() {
                    return Err(EpdError::Operation { index: operations.len() + 1, reason: "the opcode is quoted" });
                }
                words.push(quoted);
            }
            ';' => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if words.is_empty() {
                    return Err(EpdError::Operation { index: operations.len() + 1, reason: "an empty operation" });
                }
                finish(&mut words, &mut operations)?;
            }
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    finish(&mut words, &mut operations)?;
    Ok(operations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_quotes_and_clocks() {
        let epd = Epd::parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "a; b"; bm e1d1 e1f1; hmvc 7; fmvn 30"#).unwrap();
        assert_eq!(epd.operands("id"), Some(&["a; b".to_string()][..]));
        assert_eq!(epd.operands("bm").unwrap().len(), 2);
        assert_eq!((epd.position.halfmove_clock(), epd.position.fullmove_number()), (7, 30));
        assert_eq!(epd.operands("dm"), None);
        for (line, fragment) in [
            ("4k3/8/8/8/8/8/8/4K3 w -", "found 3"),
            ("4k3/8/8/8/8/8/8/4K3 w - - id \"open", "operation 1: a quoted operand is not closed"),
            ("4k3/8/8/8/8/8/8/4K3 w - - bm e1d1;; id x", "operation 2: an empty operation"),
            ("4k3/8/8/8/8/8/8/4K3 w - - hmvc x;", "operation 1: a clock takes one number"),
            ("4k3/8/8/8/8/8/8/4K4 w - - bm e1d1;", "position:"),
        ] {
            let err = Epd::parse(line).unwrap_err().to_string();
            assert!(err.contains(fragment), "{line}: {err}");
        }
    }
}
