//! The commands a GUI sends, parsed into types: [`Command::parse`] reads one line.
//!
//! Tokens are separated by ASCII whitespace (any amount). Parsing checks the form only: whether a FEN
//! describes a valid position, a move is legal or an option exists is for the engine to say. Every error
//! names the column (1-based, in bytes) of the token it is about.

use std::fmt;
use std::time::Duration;

use tesseract_board::{TextMove, TextMoveError};

/// The longest time a `go` command may give, in milliseconds (about 31 years): larger values are taken
/// as this, so that no deadline computed from them can overflow.
pub const MAX_MILLIS: u64 = 1_000_000_000_000;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answered with `readyok`.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option's name, its words joined by single spaces.
        name: String,
        /// The value: the rest of the line after `value`, trimmed (`None` without `value`, for buttons).
        value: Option<String>,
        /// The column of the value (or of the name, when there is no value), for error messages.
        column: usize,
    },
    /// `register ...`: the engine needs no registration; accepted and ignored.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen F [moves ...]`.
    Position(PositionCommand),
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

/// The position a `position` command sets up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// Where the game starts.
    pub start: Start,
    /// The moves played from there.
    pub moves: Vec<MoveToken>,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the variant's start position.
    StartPos,
    /// `fen ...`: a FEN (2D) or TFEN (4D) text, its fields joined by single spaces.
    Fen {
        /// The text.
        text: String,
        /// The column of its first field.
        column: usize,
    },
}

/// A move of a `position` command, well-formed but not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    /// The move.
    pub text: TextMove,
    /// Its column in the line.
    pub column: usize,
}

/// The parameters of a `go` command. Times are clamped to 0..=[`MAX_MILLIS`] milliseconds (some GUIs
/// send a negative time left when a clock has run out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's time left.
    pub wtime: Option<Duration>,
    /// Black's time left.
    pub btime: Option<Duration>,
    /// White's increment.
    pub winc: Option<Duration>,
    /// Black's increment.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The node budget.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (and stop when one is found).
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Search only these moves (`searchmoves`), as written; empty: all of them.
    pub searchmoves: Vec<MoveToken>,
}

/// A line that is not a command, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ParseError {
    /// The column (1-based, in bytes) of the token the error is about (the end of the line when a token
    /// is missing).
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The first word is no command.
    #[error(
        "unknown command {0}: expected uci, debug, isready, setoption, register, ucinewgame, position, go, stop, \
         ponderhit or quit"
    )]
    UnknownCommand(Shown),
    /// A word that does not belong there.
    #[error("unexpected {found} {context}: expected {expected}")]
    Unexpected {
        /// The word.
        found: Shown,
        /// The command or parameter it follows.
        context: &'static str,
        /// What belongs there.
        expected: &'static str,
    },
    /// The line ends where something is needed.
    #[error("{context} needs {expected}")]
    Missing {
        /// The command or parameter that needs it.
        context: &'static str,
        /// What is missing.
        expected: &'static str,
    },
    /// A number that is not one, or out of range.
    #[error("{keyword} {found}: expected {expected}")]
    Number {
        /// The parameter.
        keyword: &'static str,
        /// The text given.
        found: Shown,
        /// What it should be.
        expected: &'static str,
    },
    /// A `go` parameter given twice.
    #[error("go: {0} is given twice")]
    Repeated(&'static str),
    /// A move of `position ... moves` that is not move text.
    #[error("move {found}: {source}")]
    Move {
        /// The text.
        found: Shown,
        /// Why it is not a move.
        source: TextMoveError,
    },
    /// A well-formed part of the protocol this engine does not implement.
    #[error("{0} is not supported by this engine")]
    Unsupported(&'static str),
}

/// A word of the input as shown in an error message: quoted, escaped, and cut after 40 characters (an
/// error never echoes a megabyte back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown(String);

impl Shown {
    fn new(text: &str) -> Shown {
        const MAX: usize = 40;
        let mut s: String = text.chars().take(MAX).collect();
        if s.len() < text.len() {
            s.push('…');
        }
        Shown(format!("{:?}", s))
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The words of a line with their columns.
struct Tokens<'a> {
    words: Vec<(usize, &'a str)>,
    next: usize,
    end: usize,
    line: &'a str,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Tokens<'a> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, b) in line.bytes().enumerate() {
            match (b.is_ascii_whitespace(), start) {
                (true, Some(s)) => {
                    words.push((s, &line[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            words.push((s, &line[s..]));
        }
        Tokens { words, next: 0, end: line.len() + 1, line }
    }

    /// The next word and its 1-based column.
    fn next(&mut self) -> Option<(usize, &'a str)> {
        let w = self.words.get(self.next).map(|&(i, w)| (i + 1, w));
        self.next += w.is_some() as usize;
        w
    }

    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).map(|&(_, w)| w)
    }

    /// The column just past the line, where a missing word would be.
    fn end(&self) -> usize {
        self.end
    }

    /// The rest of the line from the byte offset of the next word, trimmed.
    fn rest(&self) -> Option<(usize, &'a str)> {
        self.words.get(self.next).map(|&(i, _)| (i + 1, self.line[i..].trim_end()))
    }
}

fn err(column: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { column, kind }
}

impl Command {
    /// Parses one line; `Ok(None)` for a blank line.
    ///
    /// # Errors
    /// [`ParseError`] saying what is wrong and at which column.
    ///
    /// # Examples
    /// ```
    /// use tesseract_uci::command::{Command, Start};
    /// let Some(Command::Position(p)) = Command::parse("position startpos moves e2e4 e7e5")? else { panic!() };
    /// assert_eq!(p.start, Start::StartPos);
    /// assert_eq!(p.moves.len(), 2);
    /// let e = Command::parse("go depth deep").unwrap_err();
    /// assert_eq!(e.to_string(), "column 10: depth \"deep\": expected a whole number");
    /// # Ok::<_, tesseract_uci::command::ParseError>(())
    /// ```
    pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
        let mut t = Tokens::new(line);
        let Some((column, word)) = t.next() else { return Ok(None) };
        let command = match word {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "register" => return Ok(Some(Command::Register)),
            "debug" => match t.next() {
                Some((_, "on")) => Command::Debug(true),
                Some((_, "off")) => Command::Debug(false),
                Some((c, w)) => {
                    let kind = ParseErrorKind::Unexpected {
                        found: Shown::new(w),
                        context: "after debug",
                        expected: "on or off",
                    };
                    return Err(err(c, kind));
                }
                None => return Err(err(t.end(), ParseErrorKind::Missing { context: "debug", expected: "on or off" })),
            },
            "setoption" => parse_setoption(&mut t)?,
            "position" => Command::Position(parse_position(&mut t)?),
            "go" => Command::Go(parse_go(&mut t)?),
            _ => return Err(err(column, ParseErrorKind::UnknownCommand(Shown::new(word)))),
        };
        if let Some((c, w)) = t.next() {
            let kind = ParseErrorKind::Unexpected {
                found: Shown::new(w),
                context: "at the end of the command",
                expected: "the end of the line",
            };
            return Err(err(c, kind));
        }
        Ok(Some(command))
    }
}

fn parse_setoption(t: &mut Tokens<'_>) -> Result<Command, ParseError> {
    match t.next() {
        Some((_, "name")) => {}
        Some((c, w)) => {
            let kind =
                ParseErrorKind::Unexpected { found: Shown::new(w), context: "after setoption", expected: "name" };
            return Err(err(c, kind));
        }
        None => return Err(err(t.end(), ParseErrorKind::Missing { context: "setoption", expected: "name NAME" })),
    }
    let mut name = Vec::new();
    let mut name_column = t.rest().map_or(t.end(), |(c, _)| c);
    while let Some(w) = t.peek() {
        if w == "value" {
            break;
        }
        let (c, w) = t.next().expect("peeked");
        if name.is_empty() {
            name_column = c;
        }
        name.push(w);
    }
    if name.is_empty() {
        return Err(err(
            name_column,
            ParseErrorKind::Missing { context: "setoption name", expected: "an option name" },
        ));
    }
    let name = name.join(" ");
    if t.next().is_none() {
        return Ok(Command::SetOption { name, value: None, column: name_column });
    }
    let (column, value) = t.rest().unwrap_or((t.end(), ""));
    // The value is the rest of the line, whatever its words.
    t.next = t.words.len();
    Ok(Command::SetOption { name, value: Some(value.to_string()), column })
}

fn parse_position(t: &mut Tokens<'_>) -> Result<PositionCommand, ParseError> {
    let start = match t.next() {
        Some((_, "startpos")) => Start::StartPos,
        Some((c, "fen")) => {
            let mut fields = Vec::new();
            let mut column = c;
            while let Some(w) = t.peek() {
                if w == "moves" {
                    break;
                }
                let (c, w) = t.next().expect("peeked");
                if fields.is_empty() {
                    column = c;
                }
                fields.push(w);
            }
            if fields.is_empty() {
                return Err(err(
                    t.end(),
                    ParseErrorKind::Missing { context: "position fen", expected: "a FEN or TFEN" },
                ));
            }
            Start::Fen { text: fields.join(" "), column }
        }
        Some((c, w)) => {
            let kind = ParseErrorKind::Unexpected {
                found: Shown::new(w),
                context: "after position",
                expected: "startpos or fen",
            };
            return Err(err(c, kind));
        }
        None => {
            return Err(err(t.end(), ParseErrorKind::Missing { context: "position", expected: "startpos or fen FEN" }));
        }
    };
    let mut moves = Vec::new();
    match t.next() {
        None => {}
        Some((_, "moves")) => {
            while let Some((column, w)) = t.next() {
                let text = TextMove::parse(w)
                    .map_err(|source| err(column, ParseErrorKind::Move { found: Shown::new(w), source }))?;
                moves.push(MoveToken { text, column });
            }
        }
        Some((c, w)) => {
            let kind = ParseErrorKind::Unexpected {
                found: Shown::new(w),
                context: "after the start position",
                expected: "moves or the end of the line",
            };
            return Err(err(c, kind));
        }
    }
    Ok(PositionCommand { start, moves })
}

/// The go parameters that take a number.
#[derive(Copy, Clone)]
enum Param {
    WTime,
    BTime,
    WInc,
    BInc,
    MovesToGo,
    MoveTime,
    Depth,
    Nodes,
    Mate,
}

/// The words of `go`: where a `searchmoves` list ends.
const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

fn parse_go(t: &mut Tokens<'_>) -> Result<Go, ParseError> {
    let mut go = Go::default();
    while let Some((column, word)) = t.next() {
        let param = match word {
            "infinite" | "ponder" => {
                let flag = if word == "infinite" { &mut go.infinite } else { &mut go.ponder };
                if *flag {
                    return Err(err(
                        column,
                        ParseErrorKind::Repeated(if word == "infinite" { "infinite" } else { "ponder" }),
                    ));
                }
                *flag = true;
                continue;
            }
            "searchmoves" => {
                if !go.searchmoves.is_empty() {
                    return Err(err(column, ParseErrorKind::Repeated("searchmoves")));
                }
                // The moves run up to the next keyword or the end of the line.
                while t.peek().is_some_and(|w| !GO_KEYWORDS.contains(&w)) {
                    let (c, w) = t.next().expect("peeked");
                    let text = TextMove::parse(w)
                        .map_err(|source| err(c, ParseErrorKind::Move { found: Shown::new(w), source }))?;
                    go.searchmoves.push(MoveToken { text, column: c });
                }
                if go.searchmoves.is_empty() {
                    let at = t.rest().map_or(t.end(), |(c, _)| c);
                    return Err(err(at, ParseErrorKind::Missing { context: "searchmoves", expected: "a move" }));
                }
                continue;
            }
            "wtime" => Param::WTime,
            "btime" => Param::BTime,
            "winc" => Param::WInc,
            "binc" => Param::BInc,
            "movestogo" => Param::MovesToGo,
            "movetime" => Param::MoveTime,
            "depth" => Param::Depth,
            "nodes" => Param::Nodes,
            "mate" => Param::Mate,
            _ => {
                let kind = ParseErrorKind::Unexpected {
                    found: Shown::new(word),
                    context: "in go",
                    expected: "searchmoves, wtime, btime, winc, binc, movestogo, movetime, depth, nodes, mate, infinite or ponder",
                };
                return Err(err(column, kind));
            }
        };
        let keyword: &'static str = match param {
            Param::WTime => "wtime",
            Param::BTime => "btime",
            Param::WInc => "winc",
            Param::BInc => "binc",
            Param::MovesToGo => "movestogo",
            Param::MoveTime => "movetime",
            Param::Depth => "depth",
            Param::Nodes => "nodes",
            Param::Mate => "mate",
        };
        let Some((vc, value)) = t.next() else {
            return Err(err(t.end(), ParseErrorKind::Missing { context: keyword, expected: "a number" }));
        };
        let repeated = || err(column, ParseErrorKind::Repeated(keyword));
        match param {
            Param::WTime | Param::BTime | Param::WInc | Param::BInc | Param::MoveTime => {
                let ms = parse_millis(keyword, vc, value)?;
                let slot = match param {
                    Param::WTime => &mut go.wtime,
                    Param::BTime => &mut go.btime,
                    Param::WInc => &mut go.winc,
                    Param::BInc => &mut go.binc,
                    _ => &mut go.movetime,
                };
                if slot.replace(ms).is_some() {
                    return Err(repeated());
                }
            }
            Param::Nodes => {
                let n = parse_unsigned(keyword, vc, value)?;
                if go.nodes.replace(n).is_some() {
                    return Err(repeated());
                }
            }
            Param::MovesToGo | Param::Depth | Param::Mate => {
                let n = u32::try_from(parse_unsigned(keyword, vc, value)?).map_err(|_| {
                    err(
                        vc,
                        ParseErrorKind::Number { keyword, found: Shown::new(value), expected: "at most 4294967295" },
                    )
                })?;
                let slot = match param {
                    Param::MovesToGo => &mut go.movestogo,
                    Param::Depth => &mut go.depth,
                    _ => &mut go.mate,
                };
                if slot.replace(n).is_some() {
                    return Err(repeated());
                }
            }
        }
    }
    Ok(go)
}

fn parse_unsigned(keyword: &'static str, column: usize, value: &str) -> Result<u64, ParseError> {
    value.parse::<u64>().map_err(|e| {
        let expected = match e.kind() {
            std::num::IntErrorKind::PosOverflow => "at most 18446744073709551615",
            _ => "a whole number",
        };
        err(column, ParseErrorKind::Number { keyword, found: Shown::new(value), expected })
    })
}

fn parse_millis(keyword: &'static str, column: usize, value: &str) -> Result<Duration, ParseError> {
    let ms = match value.parse::<i64>() {
        Ok(v) => v.clamp(0, MAX_MILLIS as i64) as u64,
        // Beyond i64: still a number, so taken as the largest time.
        Err(e) if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) => MAX_MILLIS,
        Err(e) if matches!(e.kind(), std::num::IntErrorKind::NegOverflow) => 0,
        Err(_) => {
            let kind = ParseErrorKind::Number {
                keyword,
                found: Shown::new(value),
                expected: "a whole number of milliseconds",
            };
            return Err(err(column, kind));
        }
    };
    Ok(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}")).unwrap_or_else(|| panic!("{line:?}: blank"))
    }

    fn error(line: &str) -> String {
        Command::parse(line).expect_err(line).to_string()
    }

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready \t"), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::UciNewGame);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("ponderhit"), Command::PonderHit);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("debug on"), Command::Debug(true));
        assert_eq!(parse("debug off"), Command::Debug(false));
        assert_eq!(parse("register later"), Command::Register);
        assert_eq!(Command::parse("").unwrap(), None);
        assert_eq!(Command::parse(" \t ").unwrap(), None);
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(
            error("  hello"),
            "column 3: unknown command \"hello\": expected uci, debug, isready, setoption, register, ucinewgame, \
             position, go, stop, ponderhit or quit"
        );
        assert_eq!(
            error("isready now"),
            "column 9: unexpected \"now\" at the end of the command: expected the end of the line"
        );
        assert_eq!(error("debug maybe"), "column 7: unexpected \"maybe\" after debug: expected on or off");
        assert_eq!(error("debug"), "column 6: debug needs on or off");
        // Commands are case-sensitive.
        assert!(error("UCI").starts_with("column 1: unknown command \"UCI\""));
    }

    #[test]
    fn setoption() {
        assert_eq!(
            parse("setoption name Hash value 64"),
            Command::SetOption { name: "Hash".into(), value: Some("64".into()), column: 27 }
        );
        assert_eq!(
            parse("setoption name  Move   Overhead value 100"),
            Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()), column: 39 }
        );
        assert_eq!(
            parse("setoption name Tier value full strength "),
            Command::SetOption { name: "Tier".into(), value: Some("full strength".into()), column: 27 }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption { name: "Clear Hash".into(), value: None, column: 16 }
        );
        assert_eq!(
            parse("setoption name X value"),
            Command::SetOption { name: "X".into(), value: Some(String::new()), column: 23 }
        );
        assert_eq!(error("setoption"), "column 10: setoption needs name NAME");
        assert_eq!(error("setoption Hash 1"), "column 11: unexpected \"Hash\" after setoption: expected name");
        assert_eq!(error("setoption name value 3"), "column 16: setoption name needs an option name");
    }

    #[test]
    fn position() {
        let Command::Position(p) = parse("position startpos") else { panic!() };
        assert_eq!(p, PositionCommand { start: Start::StartPos, moves: vec![] });
        let Command::Position(p) = parse("position startpos moves e2e4 e7e5 e1g1 a7a8q") else { panic!() };
        let texts: Vec<String> = p.moves.iter().map(|m| m.text.to_string()).collect();
        assert_eq!(texts, ["e2e4", "e7e5", "e1g1", "a7a8q"]);
        assert_eq!(p.moves.iter().map(|m| m.column).collect::<Vec<_>>(), [25, 30, 35, 40]);
        let Command::Position(p) = parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2") else { panic!() };
        assert_eq!(p.start, Start::Fen { text: "8/8/8/8/8/8/8/K6k w - - 0 1".into(), column: 14 });
        assert_eq!(p.moves.len(), 1);
        let Command::Position(p) = parse("position startpos moves 22132313 24132513Q") else { panic!() };
        assert_eq!(p.moves[1].text.to_string(), "24132513Q");
        let Command::Position(p) = parse("position startpos moves") else { panic!() };
        assert!(p.moves.is_empty());
    }

    #[test]
    fn position_errors() {
        assert_eq!(error("position"), "column 9: position needs startpos or fen FEN");
        assert_eq!(error("position start"), "column 10: unexpected \"start\" after position: expected startpos or fen");
        assert_eq!(error("position fen moves e2e4"), "column 24: position fen needs a FEN or TFEN");
        assert_eq!(
            error("position startpos e2e4"),
            "column 19: unexpected \"e2e4\" after the start position: expected moves or the end of the line"
        );
        let e = error("position startpos moves e2e4 e9");
        assert!(e.starts_with("column 30: move \"e9\": "), "{e}");
        let e = error("position startpos moves e2e4 2213231");
        assert!(e.starts_with("column 30: move \"2213231\": "), "{e}");
    }

    #[test]
    fn go() {
        let Command::Go(g) = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5") else { panic!() };
        assert_eq!(
            g,
            Go { wtime: ms(1000), btime: ms(2000), winc: ms(10), binc: ms(20), movestogo: Some(5), ..Go::default() }
        );
        let Command::Go(g) = parse("go movetime 500 depth 7 nodes 100000 mate 3") else { panic!() };
        assert_eq!(g, Go { movetime: ms(500), depth: Some(7), nodes: Some(100_000), mate: Some(3), ..Go::default() });
        let Command::Go(g) = parse("go infinite") else { panic!() };
        assert!(g.infinite && !g.ponder);
        let Command::Go(g) = parse("go ponder wtime 5 btime 5") else { panic!() };
        assert!(g.ponder);
        assert_eq!(parse("go"), Command::Go(Go::default()));
        let Command::Go(g) = parse("go searchmoves e2e4 d2d4 depth 3") else { panic!() };
        let texts: Vec<String> = g.searchmoves.iter().map(|t| format!("{}@{}", t.text, t.column)).collect();
        assert_eq!((texts, g.depth), (vec!["e2e4@16".to_string(), "d2d4@21".to_string()], Some(3)));
        let Command::Go(g) = parse("go wtime 10 searchmoves 22132313") else { panic!() };
        assert_eq!(g.searchmoves.len(), 1);
    }

    #[test]
    fn go_times_are_clamped() {
        let Command::Go(g) = parse("go wtime -250 btime 99999999999999999999999 winc -99999999999999999999") else {
            panic!()
        };
        assert_eq!((g.wtime, g.btime, g.winc), (ms(0), ms(MAX_MILLIS), ms(0)));
    }

    #[test]
    fn go_errors() {
        assert_eq!(error("go depth"), "column 9: depth needs a number");
        assert_eq!(error("go depth -1"), "column 10: depth \"-1\": expected a whole number");
        assert_eq!(error("go depth 4294967296"), "column 10: depth \"4294967296\": expected at most 4294967295");
        assert_eq!(
            error("go nodes 18446744073709551616"),
            "column 10: nodes \"18446744073709551616\": expected at most 18446744073709551615"
        );
        assert_eq!(error("go wtime soon"), "column 10: wtime \"soon\": expected a whole number of milliseconds");
        assert_eq!(error("go depth 3 depth 4"), "column 12: go: depth is given twice");
        assert_eq!(error("go infinite infinite"), "column 13: go: infinite is given twice");
        assert_eq!(error("go searchmoves"), "column 15: searchmoves needs a move");
        assert_eq!(error("go searchmoves depth 3"), "column 16: searchmoves needs a move");
        assert_eq!(error("go searchmoves e2e4 searchmoves d2d4"), "column 21: go: searchmoves is given twice");
        assert!(error("go searchmoves e2e4 e2").starts_with("column 21: "), "{}", error("go searchmoves e2e4 e2"));
        assert!(error("go fast").starts_with("column 4: unexpected \"fast\" in go: expected searchmoves, wtime"));
    }

    #[test]
    fn long_words_are_cut_in_messages() {
        let word = "x".repeat(10_000);
        let e = error(&format!("go {word}"));
        assert!(e.len() < 200, "{e}");
        assert!(e.contains(&format!("\"{}…\"", "x".repeat(40))), "{e}");
    }

    #[test]
    fn never_panics_on_random_lines() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        let words = [
            "uci",
            "go",
            "position",
            "fen",
            "startpos",
            "moves",
            "setoption",
            "name",
            "value",
            "e2e4",
            "depth",
            "wtime",
            "-",
            "0",
            "99999999999999999999",
            "infinite",
            "ponder",
            "debug",
            "on",
            "é",
            "\u{0}",
            "22132313",
            "mate",
            "nodes",
            "movestogo",
            "8/8/8/8/8/8/8/K6k",
            "w",
            "",
            " ",
            "\t",
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let n = (rng.next_u32() % 12) as usize;
            let line: Vec<&str> = (0..n).map(|_| words[rng.next_u32() as usize % words.len()]).collect();
            let line = line.join(" ");
            let _ = Command::parse(&line);
        }
    }
}
