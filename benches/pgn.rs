//! Reading games: tesseract-movegen's PGN reader and SAN against shakmaty 0.30 + pgn-reader 0.29 on the
//! same text, a seeded corpus of 2D games (`tesseract_search::playout::pgn_corpus`: random games of at most
//! 100 plies with the tags of a database, clock comments, NAGs and variations).
//!
//! `cargo bench --bench pgn` (all), or a filter such as `cargo bench --bench pgn -- read`.
//! Before timing, the bench checks that both readers give the same games and the same moves (in UCI),
//! and that both write the same SAN for every move. Ratios between lines of one run are the figures to
//! quote; absolute times depend on the machine.

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus as PgnSanPlus, Skip, Visitor};
use shakmaty::{Chess, Position as _, uci::UciMove};
use tesseract::board::{Move, Position, TextMove, start};
use tesseract::movegen::pgn::{self, PgnReader, write_games};
use tesseract::movegen::{legal_moves, san};
use tesseract::search::playout::pgn_corpus;

/// Games in the corpus.
const GAMES: u64 = 2_000;

/// The corpus as PGN text.
fn corpus() -> String {
    let games: Vec<_> = pgn_corpus(&start::chess(), 1, 0..GAMES, 100).collect();
    write_games(&games).expect("the corpus is legal")
}

/// pgn-reader with shakmaty: moves played, variations skipped; with `keep`, tags, comments and NAGs kept
/// as a game type would (owned copies).
struct Shakmaty {
    keep: bool,
}

#[derive(Default)]
struct Kept {
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    comments: Vec<Vec<u8>>,
    nags: Vec<u8>,
}

impl Visitor for Shakmaty {
    type Tags = Kept;
    type Movetext = (Chess, Vec<shakmaty::Move>, Kept);
    type Output = Result<(Vec<shakmaty::Move>, Kept), String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Kept> {
        ControlFlow::Continue(Kept::default())
    }

    fn tag(&mut self, tags: &mut Kept, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        if self.keep {
            tags.tags.push((name.to_vec(), value.decode().into_owned()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Kept) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((Chess::default(), Vec::with_capacity(128), tags))
    }

    fn san(&mut self, (pos, moves, _): &mut Self::Movetext, san: PgnSanPlus) -> ControlFlow<Self::Output> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                moves.push(m);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(e.to_string())),
        }
    }

    fn nag(&mut self, (_, _, kept): &mut Self::Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        if self.keep {
            kept.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, (_, _, kept): &mut Self::Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if self.keep {
            kept.comments.push(comment.as_bytes().to_vec());
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, (_, moves, kept): Self::Movetext) -> Self::Output {
        Ok((moves, kept))
    }
}

/// pgn-reader reading the tags alone (kept, owned), its movetext skipped.
struct TagsOnly;

impl Visitor for TagsOnly {
    type Tags = Vec<(Vec<u8>, Vec<u8>)>;
    type Movetext = ();
    type Output = Vec<(Vec<u8>, Vec<u8>)>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.push((name.to_vec(), value.decode().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, ()> {
        ControlFlow::Break(tags)
    }

    fn end_game(&mut self, (): ()) -> Self::Output {
        Vec::new()
    }
}

/// tesseract-movegen's visitor as the `Shakmaty` one: the moves of each game kept; with `keep`, tags,
/// comments and NAGs kept too (owned copies).
struct Moves {
    keep: bool,
    moves: Vec<Move>,
    kept: Kept,
}

impl Moves {
    fn new(keep: bool) -> Moves {
        Moves { keep, moves: Vec::new(), kept: Kept::default() }
    }
}

impl pgn::Visitor for Moves {
    type Output = (Vec<Move>, Kept);

    fn begin_game(&mut self) {
        self.moves = Vec::with_capacity(128);
        self.kept = Kept::default();
    }

    fn tag(&mut self, name: &str, value: &str) {
        if self.keep {
            self.kept.tags.push((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
        }
    }

    fn play(&mut self, _: &Position, m: Move) {
        self.moves.push(m);
    }

    fn comment(&mut self, text: &str) {
        if self.keep {
            self.kept.comments.push(text.as_bytes().to_vec());
        }
    }

    fn nag(&mut self, nag: u8) {
        if self.keep {
            self.kept.nags.push(nag);
        }
    }

    fn end_game(&mut self, _: pgn::GameResult) -> Self::Output {
        (std::mem::take(&mut self.moves), std::mem::take(&mut self.kept))
    }
}

/// tesseract-movegen's visitor reading the tags alone (kept, owned), its movetext skipped.
#[derive(Default)]
struct OurTags(Vec<(Vec<u8>, Vec<u8>)>);

impl pgn::Visitor for OurTags {
    type Output = Vec<(Vec<u8>, Vec<u8>)>;

    fn begin_game(&mut self) {
        self.0 = Vec::new();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.0.push((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
    }

    fn begin_movetext(&mut self, _: &Position) -> pgn::Skip {
        pgn::Skip(true)
    }

    fn end_game(&mut self, _: pgn::GameResult) -> Self::Output {
        std::mem::take(&mut self.0)
    }
}

/// Every game's moves in UCI, by pgn-reader and shakmaty.
fn shakmaty_uci(text: &str) -> Vec<Vec<String>> {
    let mut reader = Reader::new(text.as_bytes());
    let mut visitor = Shakmaty { keep: false };
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor).expect("reading from memory") {
        let (moves, _) = game.expect("the corpus is legal");
        games.push(moves.iter().map(|m| UciMove::from_standard(*m).to_string()).collect());
    }
    games
}

/// Every game's moves in UCI, by tesseract-movegen.
fn tesseract_uci(text: &str) -> Vec<Vec<String>> {
    PgnReader::new(text.as_bytes())
        .map(|game| {
            let game = game.expect("the corpus is legal");
            let mut pos = game.start.clone();
            game.moves
                .iter()
                .map(|m| {
                    let text = TextMove::from_move(m.mv, &pos).to_string();
                    let _ = pos.make(m.mv);
                    text
                })
                .collect()
        })
        .collect()
}

fn read(c: &mut Criterion) {
    let text = corpus();
    let theirs = shakmaty_uci(&text);
    assert_eq!(theirs.len(), GAMES as usize);
    assert_eq!(tesseract_uci(&text), theirs, "both readers give the same moves");
    let mut reader = PgnReader::new(text.as_bytes());
    let mut visited = Vec::new();
    while let Some(game) = reader.read_game(&mut Moves::new(true)) {
        visited.push(game.expect("the corpus is legal").0);
    }
    let read: Vec<Vec<Move>> = PgnReader::new(text.as_bytes()).map(|g| g.expect("legal").moves().collect()).collect();
    assert_eq!(visited, read, "the visitor gives the iterator's moves");
    let plies: usize = theirs.iter().map(Vec::len).sum();
    eprintln!("corpus: {GAMES} games, {plies} plies, {} bytes", text.len());

    let mut group = c.benchmark_group("pgn read");
    group.sample_size(20);
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("tesseract PgnReader", |b| {
        b.iter(|| {
            let n = PgnReader::new(black_box(text.as_bytes())).filter(Result::is_ok).count();
            assert_eq!(n, GAMES as usize);
        })
    });
    group.bench_function("tesseract PgnReader, variations skipped", |b| {
        b.iter(|| {
            let n = PgnReader::new(black_box(text.as_bytes())).keep_variations(false).filter(Result::is_ok).count();
            assert_eq!(n, GAMES as usize);
        })
    });
    for (name, keep) in [("moves", false), ("tags, comments and NAGs kept", true)] {
        group.bench_function(format!("tesseract visitor, {name}"), |b| {
            b.iter(|| {
                let mut reader = PgnReader::new(black_box(text.as_bytes()));
                let mut visitor = Moves::new(keep);
                let mut n = 0;
                while let Some(game) = reader.read_game(&mut visitor) {
                    n += usize::from(game.is_ok());
                }
                assert_eq!(n, GAMES as usize);
            })
        });
        group.bench_function(format!("shakmaty + pgn-reader, {name}"), |b| {
            b.iter(|| {
                let mut reader = Reader::new(black_box(text.as_bytes()));
                let mut visitor = Shakmaty { keep };
                let mut n = 0;
                while let Some(game) = reader.read_game(&mut visitor).expect("reading from memory") {
                    n += usize::from(game.is_ok());
                }
                assert_eq!(n, GAMES as usize);
            })
        });
    }
    // The same visitor with every game cut out of the text before it is read (the reader before games were
    // read in place): what reading in place saves.
    group.bench_function("tesseract visitor, moves, every game cut first (read_ahead(0))", |b| {
        b.iter(|| {
            let mut reader = PgnReader::new(black_box(text.as_bytes())).read_ahead(0);
            let mut visitor = Moves::new(false);
            let mut n = 0;
            while let Some(game) = reader.read_game(&mut visitor) {
                n += usize::from(game.is_ok());
            }
            assert_eq!(n, GAMES as usize);
        })
    });
    group.bench_function("tesseract PgnReader, tags only", |b| {
        b.iter(|| {
            let n = PgnReader::new(black_box(text.as_bytes())).read_movetext(false).filter(Result::is_ok).count();
            assert_eq!(n, GAMES as usize);
        })
    });
    group.bench_function("tesseract visitor, tags only", |b| {
        b.iter(|| {
            let mut reader = PgnReader::new(black_box(text.as_bytes()));
            let mut n = 0;
            while let Some(tags) = reader.read_game(&mut OurTags::default()) {
                n += usize::from(tags.is_ok_and(|t| !t.is_empty()));
            }
            assert_eq!(n, GAMES as usize);
        })
    });
    group.bench_function("pgn-reader, tags only", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(text.as_bytes()));
            let mut n = 0;
            while let Some(tags) = reader.read_game(&mut TagsOnly).expect("reading from memory") {
                n += usize::from(!tags.is_empty());
            }
            assert_eq!(n, GAMES as usize);
        })
    });
    group.finish();
}

/// Positions from the corpus (the one after ply 10, 30, 50 … of each game), as FEN.
fn positions(count: usize) -> Vec<String> {
    let mut out = Vec::new();
    for game in pgn_corpus(&start::chess(), 2, 0..count as u64, 100) {
        let mut pos = game.start.clone();
        for (i, m) in game.moves.iter().enumerate() {
            let _ = pos.make(m.mv);
            if i % 20 == 9 && out.len() < count {
                out.push(pos.fen());
            }
        }
    }
    out
}

fn san_round_trip(c: &mut Criterion) {
    let fens = positions(2_000);
    let ours: Vec<Position> = fens.iter().map(|f| Position::from_fen(f).expect("a valid FEN")).collect();
    let theirs: Vec<Chess> = fens
        .iter()
        .map(|f| {
            f.parse::<shakmaty::fen::Fen>()
                .expect("a valid FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("a legal position")
        })
        .collect();
    let mut moves = 0u64;
    for (pos, chess) in ours.iter().zip(&theirs) {
        let mut a: Vec<String> = legal_moves(pos).into_iter().map(|m| san::to_san(pos, m)).collect();
        let mut b: Vec<String> = chess
            .legal_moves()
            .into_iter()
            .map(|m| shakmaty::san::SanPlus::from_move(chess.clone(), m).to_string())
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "both write the same SAN in {}", pos.fen());
        moves += a.len() as u64;
    }
    eprintln!("SAN: {} positions, {moves} moves", fens.len());

    let mut group = c.benchmark_group("san");
    group.sample_size(20);
    group.throughput(Throughput::Elements(moves));
    group.bench_function("tesseract write and read back", |b| {
        b.iter(|| {
            for pos in black_box(&ours) {
                for m in legal_moves(pos) {
                    let text = san::to_san(pos, m);
                    assert_eq!(san::parse_move(pos, &text), Ok(m));
                }
            }
        })
    });
    group.bench_function("shakmaty write and read back", |b| {
        b.iter(|| {
            for pos in black_box(&theirs) {
                for m in pos.legal_moves() {
                    let text = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
                    let back: shakmaty::san::SanPlus = text.parse().expect("SAN it wrote");
                    assert_eq!(back.san.to_move(pos), Ok(m));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, read, san_round_trip);
criterion_main!(benches);
