//! Start positions, validation, attacks, hashing and pictures.

use std::collections::HashSet;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::start::{self, Army};
use tesseract_board::{CastlingMode, Cell, Color, Piece, Position, Role, Setup, Shape, zobrist};

#[test]
fn tesseract_starts_are_point_symmetric_with_the_stated_counts() {
    for army in Army::ALL {
        let pos = start::tesseract(army);
        let setup = pos.to_setup();
        let g = pos.geometry();
        // σ: every piece at p has a piece of the other color at 6 − p on all four axes.
        for cell in g.all_cells() {
            let c = g.coords(cell);
            let mirror = g.cell(&c.map(|v| 6 - v)).unwrap();
            let here = setup.piece(cell).map(|p| (p.color.other(), p.role));
            let there = setup.piece(mirror).map(|p| (p.color, p.role));
            assert_eq!(here, there, "{army:?} at {}", g.cell_name(cell));
        }
        let mut mirrored = setup.mirrored();
        mirrored.turn = setup.turn;
        assert_eq!(mirrored, setup);
        for color in Color::ALL {
            let count = pos.pieces().filter(|(_, p)| p.color == color).count();
            assert_eq!(count, army.pieces_per_side(), "{army:?} {color}");
            let majors = pos.pieces().filter(|(_, p)| p.color == color && !p.role.is_pawn()).count();
            assert_eq!(majors, 12);
        }
        assert_eq!([Army::Light, Army::Standard, Army::Dense].map(|a| a.pieces_per_side()), [22, 32, 42]);
        // Nothing is attacked at move zero.
        for (cell, piece) in pos.pieces() {
            assert!(!pos.is_attacked(cell, piece.color.other()), "{army:?}: {} attacked", g.cell_name(cell));
        }
        // White's king is in the centre of the first row, black's is its image.
        assert_eq!(g.coords(pos.king(Color::White)), [3, 1, 1, 1]);
        assert_eq!(g.coords(pos.king(Color::Black)), [3, 5, 5, 5]);
    }
}

/// The Raumschach-like start (RULES.md §8): valid, 20 pieces a side, Black White's image under the half
/// turn about the x axis, a bishop of each side on each color of cells, the contract text, and only
/// defended pawns attacked at move zero.
#[test]
fn raumschach_start_is_balanced() {
    let pos = start::raumschach();
    let setup = pos.to_setup();
    let g = pos.geometry();
    assert_eq!(pos.shape(), Shape::RAUMSCHACH);
    assert_eq!(
        pos.fen(),
        "rnknr/yyyyy/5/5/5//buqbu/yyyyy/5/5/5//5/5/5/5/5//5/5/5/YYYYY/BUQBU//5/5/5/YYYYY/RNKNR w - - 0 1"
    );
    // (x, y, z) → (x, 6 − y, 6 − z), color swapped, gives back the start.
    for cell in g.all_cells() {
        let [x, y, z, _] = g.coords(cell);
        let image = g.cell(&[x, 6 - y, 6 - z]).unwrap();
        let here = setup.piece(cell).map(|p| (p.color.other(), p.role));
        assert_eq!(here, setup.piece(image).map(|p| (p.color, p.role)), "at {}", g.cell_name(cell));
    }
    for color in Color::ALL {
        let mine: Vec<(Cell, Piece)> = pos.pieces().filter(|(_, p)| p.color == color).collect();
        assert_eq!(mine.len(), 20, "{color}");
        let count = |role| mine.iter().filter(|(_, p)| p.role == role).count();
        let roles = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Unicorn, Role::YPawn];
        assert_eq!(roles.map(count), [1, 1, 2, 2, 2, 2, 10], "{color}");
        // A bishop keeps the parity of x + y + z: one on each color.
        let mut parities: Vec<u8> = mine
            .iter()
            .filter(|(_, p)| p.role == Role::Bishop)
            .map(|&(c, _)| g.coords(c)[..3].iter().sum::<u8>() % 2)
            .collect();
        parities.sort();
        assert_eq!(parities, [0, 1], "{color}");
    }
    assert_eq!(g.coords(pos.king(Color::White))[..3], [3, 1, 1]);
    assert_eq!(g.coords(pos.king(Color::Black))[..3], [3, 5, 5]);
    // As in Raumschach, the pieces of the second level see the enemy pawns of the far level; each is
    // defended, and nothing else is attacked.
    for (cell, piece) in pos.pieces() {
        let [_, y, z, _] = g.coords(cell);
        let front_pawn =
            piece.role == Role::YPawn && (y, z) == if piece.color == Color::White { (2, 1) } else { (4, 5) };
        assert_eq!(pos.is_attacked(cell, piece.color.other()), front_pawn, "{}", g.cell_name(cell));
        if front_pawn {
            assert!(pos.is_attacked(cell, piece.color), "{} undefended", g.cell_name(cell));
        }
    }
}

#[test]
fn chess960_numbering_and_dice() {
    let mut seen = HashSet::new();
    for n in 0..960 {
        let rank = start::chess960_back_rank(n).unwrap();
        assert!(seen.insert(rank), "position {n} repeats");
        let files = |role| (0..8).filter(move |&f| rank[f] == role);
        let bishops: Vec<usize> = files(Role::Bishop).collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "bishops on one color in {n}");
        let rooks: Vec<usize> = files(Role::Rook).collect();
        let king = files(Role::King).next().unwrap();
        assert!(rooks[0] < king && king < rooks[1], "king not between the rooks in {n}");
        let pos = start::chess960(n).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(start::scharnagl_number(&rank), Some(n));
    }
    assert_eq!(seen.len(), 960);
    assert_eq!(start::chess960(518).unwrap().to_setup(), start::chess().to_setup());
    assert_eq!(start::chess960(518).unwrap().fen(), start::chess().fen());
    // The 1,920 dice sequences hit each position exactly twice.
    let mut hits = std::collections::HashMap::new();
    for k in 1..=1920 {
        let rolls = start::dice_of_number(k).unwrap();
        *hits.entry(start::chess960_dice(rolls).unwrap()).or_insert(0) += 1;
    }
    assert_eq!(hits.len(), 960);
    assert!(hits.values().all(|&h| h == 2));
    assert_eq!(start::dice_of_number(1).unwrap(), [1, 1, 1, 1, 1]);
    assert_eq!(start::dice_of_number(2).unwrap(), [1, 1, 1, 1, 2]);
    assert_eq!(start::dice_of_number(5).unwrap(), [1, 1, 1, 2, 1]);
    assert!(start::dice_of_number(0).is_err() && start::dice_of_number(1921).is_err());
    assert!(start::chess960(960).is_err());
    assert!(start::chess960_dice([5, 1, 1, 1, 1]).is_err());
    // Scharnagl's table: 0 is BBQNNRKR.
    use Role::*;
    assert_eq!(start::chess960_back_rank(0).unwrap(), [Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook]);
}

#[test]
fn start_names() {
    assert_eq!(start::by_name("standard").unwrap(), start::tesseract(Army::Standard));
    assert_eq!(start::by_name("chess960:518").unwrap().to_setup(), start::chess().to_setup());
    assert_eq!(start::by_name("raumschach").unwrap(), start::raumschach());
    for bad in ["", "chess960:960", "chess960:x", "medium", "classic ", "Raumschach"] {
        assert!(start::by_name(bad).is_err(), "{bad:?}");
    }
}

/// The Zobrist hash of a position, derived here from the documented generator, seed, stream and order
/// of keys, independently of the crate's tables.
fn documented_hash(pos: &Position) -> u64 {
    let shape = pos.shape();
    let mut rng = ChaCha8Rng::from_seed(*b"Tesseract Zobrist keys, seed v1.");
    rng.set_stream((256 * shape.dims() + shape.side()) as u64);
    let cells = shape.cells();
    let keys: Vec<u64> = (0..2 * 9 * cells + 1 + cells + 2 * shape.side()).map(|_| rng.next_u64()).collect();
    let mut h = 0;
    for (cell, piece) in pos.pieces() {
        h ^= keys[(piece.color as usize * 9 + piece.role as usize) * cells + cell.index()];
    }
    if pos.turn() == Color::Black {
        h ^= keys[2 * 9 * cells];
    }
    if let Some(ep) = pos.en_passant() {
        h ^= keys[2 * 9 * cells + 1 + ep.target.index()];
    }
    let g = pos.geometry();
    for rook in pos.castling().cells() {
        let color = if g.coord(rook, 1) == 1 { 0 } else { 1 };
        h ^= keys[2 * 9 * cells + 1 + cells + color * shape.side() + g.coord(rook, 0) as usize - 1];
    }
    h
}

#[test]
fn zobrist_keys_follow_their_documentation_and_stay_fixed() {
    assert_eq!(&zobrist::SEED, b"Tesseract Zobrist keys, seed v1.");
    let positions = [
        start::tesseract(Army::Standard),
        start::tesseract(Army::Light),
        start::chess(),
        start::chess960(0).unwrap(),
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap(),
    ];
    for pos in &positions {
        assert_eq!(pos.hash(), documented_hash(pos), "{}", pos.fen());
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }
    // Pinned values: a change here means every stored hash (tables, game records) changes with it.
    let pinned: Vec<u64> = positions.iter().map(Position::hash).collect();
    assert_eq!(
        pinned,
        [PIN_STANDARD, PIN_LIGHT, PIN_CHESS, PIN_960_0, PIN_EP],
        "the hash values changed: {pinned:#018x?}"
    );
}

const PIN_STANDARD: u64 = 13839805878717513599;
const PIN_LIGHT: u64 = 6276878981002213061;
const PIN_CHESS: u64 = 11128868685078086006;
const PIN_960_0: u64 = 3060811376419183399;
const PIN_EP: u64 = 1177372735676885469;

#[test]
fn validation_reports_each_kind_of_error() {
    let king = |c| Some(Piece::new(c, Role::King));
    let mut s = Setup::empty(Shape::TESSERACT);
    s.put(&[3, 1, 1, 1], king(Color::White)).put(&[3, 5, 5, 5], king(Color::Black));
    assert!(Position::from_setup(s.clone(), CastlingMode::Standard).is_ok());
    let check = |setup: &Setup, fragment: &str| {
        let err = Position::from_setup(setup.clone(), CastlingMode::Standard).unwrap_err();
        assert!(err.to_string().contains(fragment), "{err}");
        assert_eq!(*err.setup, *setup, "the setup is handed back unchanged");
    };
    let mut t = s.clone();
    t.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::WPawn)));
    check(&t, "1111: a white W-pawn stands behind its start cell");
    let mut t = s.clone();
    t.put(&[1, 1, 1, 5], Some(Piece::new(Color::White, Role::WPawn)));
    check(&t, "1115: a white W-pawn stands on its promotion cell");
    let mut t = s.clone();
    t.put(&[3, 4, 5, 5], Some(Piece::new(Color::White, Role::Rook)));
    check(&t, "black is not to move but is in check");
    let mut t = s.clone();
    t.castling.push(Cell::new(0));
    check(&t, "there is no castling on this board");
    let mut t = s.clone();
    t.board.pop();
    check(&t, "the board has 624 cells");
    let mut t = s.clone();
    t.en_passant = Some(Cell::new(0));
    check(&t, "en passant cell 1111");
    let mut t = s.clone();
    for x in 1..=5 {
        for y in 2..=4 {
            for z in 1..=5 {
                t.put(&[x, y, z, 2], Some(Piece::new(Color::White, Role::Knight)));
            }
        }
    }
    check(&t, "white has 76 pieces; at most 64");
    let mut t = s.clone();
    t.fullmove = 0;
    check(&t, "fullmove number must be at least 1");
}

#[test]
fn attack_queries_on_a_small_4d_position() {
    let mut s = Setup::empty(Shape::TESSERACT);
    s.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[5, 4, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    s.put(&[3, 3, 3, 3], Some(Piece::new(Color::White, Role::Dragon)));
    s.put(&[2, 2, 3, 3], Some(Piece::new(Color::White, Role::YPawn)));
    s.put(&[3, 1, 3, 3], Some(Piece::new(Color::Black, Role::Unicorn)));
    let pos = Position::from_setup(s, CastlingMode::Standard).unwrap();
    let g = pos.geometry();
    let at = |c: [u8; 4]| g.cell(&c).unwrap();
    // The dragon slides along 4-agonals only.
    assert!(pos.is_attacked(at([4, 4, 4, 4]), Color::White));
    assert!(pos.is_attacked(at([1, 5, 1, 5]), Color::White));
    assert!(
        !pos.is_attacked(at([4, 4, 3, 3]), Color::White),
        "a class-2 step is no dragon move, and no pawn takes along y+x+… there"
    );
    // The Y-pawn on (2,2,3,3) takes one step up y and one along x or z: (1|3, 3, 3, 3) and (2, 3, 2|4, 3).
    for c in [[1, 3, 3, 3], [2, 3, 2, 3], [2, 3, 4, 3]] {
        assert!(pos.is_attacked(at(c), Color::White), "{c:?}");
    }
    assert!(!pos.is_attacked(at([2, 3, 3, 4]), Color::White), "a Y-pawn never captures along w");
    // The black unicorn on (3,1,3,3) attacks along class-3 lines: (2,2,2,3)? That moves x, y, z: yes.
    assert!(pos.is_attacked(at([2, 2, 2, 3]), Color::Black));
    assert!(!pos.is_attacked(at([3, 2, 3, 3]), Color::Black), "a one-axis step is no unicorn move");
}

#[test]
fn pictures_follow_the_write_up_layout() {
    let mut s = Setup::empty(Shape::TESSERACT);
    s.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[5, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    s.put(&[2, 3, 4, 5], Some(Piece::new(Color::White, Role::Unicorn)));
    let pos = Position::from_setup(s, CastlingMode::Standard).unwrap();
    let picture = pos.to_string();
    let lines: Vec<&str> = picture.lines().collect();
    // Header: one column of boards per w.
    assert_eq!(lines[0].trim_end(), "        w=1          w=2          w=3          w=4          w=5");
    // First board row is z = 5: the black king at x=5, y=5 of board (z=5, w=5), the last board of the row.
    assert_eq!(lines[1], "z=5   5 . . . . .  5 . . . . .  5 . . . . .  5 . . . . .  5 . . . . k");
    // z = 4 starts after z=5's 5 rows, its x labels and a blank line; the unicorn is at x=2, y=3 of w=5.
    assert_eq!(lines[10], "      3 . . . . .  3 . . . . .  3 . . . . .  3 . . . . .  3 . U . . .");
    // The white king: z = 1, w = 1, x = 1, y = 1: the bottom-left cell of the picture.
    let last_row = lines.iter().rposition(|l| l.starts_with("      1 ")).unwrap();
    assert!(lines[last_row].starts_with("      1 K . . . ."), "{}", lines[last_row]);
    assert_eq!(lines.last().unwrap(), &"white to move");
    let chess = start::chess().to_string();
    assert_eq!(chess.lines().next().unwrap(), "8 r n b q k b n r");
    assert_eq!(chess.lines().nth(8).unwrap(), "  a b c d e f g h");
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_text_forms() {
    let pos = start::chess960(100).unwrap();
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(json, format!("\"{}\"", pos.fen_with(tesseract_board::CastlingNotation::Shredder)));
    assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
    let m: tesseract_board::TextMove = "24132513Q".parse().unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), "\"24132513Q\"");
    assert_eq!(serde_json::from_str::<tesseract_board::TextMove>("\"24132513Q\"").unwrap(), m);
    assert!(serde_json::from_str::<Position>("\"not a position\"").is_err());
}

/// A FEN may leave out the fullmove number (five fields, as some programs write it) or both clocks (the
/// four fields of EPD); any other count is refused with the count named.
#[test]
fn a_fen_of_four_five_or_six_fields_reads() {
    use tesseract_board::Position;
    let six: Position = "4k3/8/8/8/8/8/8/4K2R w K - 7 1".parse().unwrap();
    let five: Position = "4k3/8/8/8/8/8/8/4K2R w K - 7".parse().unwrap();
    assert_eq!(five, six);
    let four: Position = "4k3/8/8/8/8/8/8/4K2R w K -".parse().unwrap();
    assert_eq!((four.halfmove_clock(), four.fullmove_number()), (0, 1));
    for bad in ["4k3/8/8/8/8/8/8/4K2R w K", "4k3/8/8/8/8/8/8/4K2R w K - 7 1 9"] {
        let err = bad.parse::<Position>().unwrap_err().to_string();
        assert!(err.starts_with("expected 6 fields"), "{bad}: {err}");
    }
    let err = "4k3/8/8/8/8/8/8/4K2R w K - x".parse::<Position>().unwrap_err().to_string();
    assert!(err.contains("halfmove"), "{err}");
}

/// `clone_from` (which reuses the target's buffers) gives what `clone` gives, between positions of one shape
/// and of different shapes, with every field compared through what a position shows: FEN, hash, mailbox,
/// piece lists, bitboards, castling mode.
#[test]
fn clone_from_equals_clone() {
    let positions = [
        start::chess(),
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap(),
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap(),
        start::chess960(17).unwrap(),
        start::raumschach(),
        start::tesseract(start::Army::Standard),
        start::tesseract(start::Army::Dense),
    ];
    for target in &positions {
        for source in &positions {
            let mut copy = target.clone();
            copy.clone_from(source);
            let shown = |p: &Position| {
                (
                    p.fen(),
                    p.hash(),
                    p.mailbox().to_vec(),
                    p.piece_list(tesseract_board::Color::White).to_vec(),
                    p.piece_list(tesseract_board::Color::Black).to_vec(),
                    p.bitboards().copied(),
                    p.castling_mode(),
                    p.shape(),
                )
            };
            assert!(shown(&copy) == shown(source) && copy == *source, "{} from {}", source.fen(), target.fen());
        }
    }
}
