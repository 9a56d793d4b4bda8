//! The targeted generator behind SAN (`legal_moves_matching`: the moves of a few pieces) against the
//! whole list, and SAN read and written through it against a resolver and a writer that use the whole
//! list of the naive generator (issue 33), on random positions of classic chess, Chess960, 3D and the
//! three 4D armies.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Cell, Move, Position, Role, start};
use tesseract_movegen::san::{self, San, SanError, SanPlus};
use tesseract_movegen::{MoveFilter, MoveList, legal_moves, legal_moves_matching, naive};

/// Positions along random games from `start` (captures and promotions preferred a third of the time, so
/// that games open up and pawns promote), one every few plies.
fn positions(start: &Position, games: usize, rng: &mut ChaCha8Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = start.clone();
        for ply in 0..160 {
            let list = legal_moves(&p);
            if list.is_empty() {
                break;
            }
            if ply % 7 == 3 {
                out.push(p.clone());
            }
            let noisy: Vec<_> =
                list.iter().copied().filter(|m| p.piece_at(m.to).is_some() || m.promotion.is_some()).collect();
            let pool = if !noisy.is_empty() && rng.next_u32() % 3 == 0 { &noisy[..] } else { &list[..] };
            let _ = p.make(pool[(rng.next_u64() % pool.len() as u64) as usize]);
        }
    }
    out
}

/// The starts the tests walk from, with how many random games each.
fn starts() -> Vec<(String, Position, usize)> {
    let mut out = vec![("chess".to_string(), start::chess(), 40), ("raumschach".to_string(), start::raumschach(), 6)];
    for n in [0, 17, 518, 959] {
        out.push((format!("chess960 {n}"), start::chess960(n).unwrap(), 8));
    }
    for army in start::Army::ALL {
        out.push((format!("4d {army:?}"), start::tesseract(army), 3));
    }
    out
}

fn role_of(pos: &Position, m: Move) -> Role {
    pos.piece_at(m.from).expect("a legal move starts on a piece").role
}

fn matching(pos: &Position, filter: MoveFilter) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves_matching(pos, &filter, &mut list);
    list.to_vec()
}

/// Every filter a SAN text can ask for (each role and destination, each origin, each origin and
/// destination, and some that no move matches) gives the whole list's moves that pass it.
#[test]
fn the_matching_moves_are_the_whole_list_filtered() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let mut filters = 0usize;
    for (name, start, games) in starts() {
        for pos in positions(&start, games, &mut rng) {
            let all = legal_moves(&pos);
            let g = pos.geometry();
            let mut asks: Vec<MoveFilter> = Vec::new();
            for &m in &all {
                let role = Some(role_of(&pos, m));
                asks.push(MoveFilter { role, from: None, to: Some(m.to) });
                asks.push(MoveFilter { role: None, from: Some(m.from), to: None });
                asks.push(MoveFilter { role: None, from: Some(m.from), to: Some(m.to) });
                asks.push(MoveFilter { role, from: Some(m.from), to: None });
            }
            // The king to every cell (on the smaller boards): the steps that are illegal too, such as a
            // step back along a checking slider's ray, which the king's own cell does not block.
            if g.cells() <= 125 {
                for c in 0..g.cells() {
                    asks.push(MoveFilter { role: Some(Role::King), from: None, to: Some(Cell::new(c as u16)) });
                }
            }
            for _ in 0..8 {
                let cell = Cell::new((rng.next_u64() % g.cells() as u64) as u16);
                let role = Role::ALL[(rng.next_u64() % Role::ALL.len() as u64) as usize];
                asks.push(MoveFilter { role: Some(role), from: None, to: Some(cell) });
                asks.push(MoveFilter { role: None, from: Some(cell), to: None });
            }
            asks.push(MoveFilter::default());
            // Cells off the board: no move, no panic.
            let off = Cell::new(g.cells() as u16 + 7);
            for f in [
                MoveFilter { role: Some(Role::Knight), from: None, to: Some(off) },
                MoveFilter { role: None, from: Some(off), to: None },
                MoveFilter { role: None, from: all.first().map(|m| m.from), to: Some(off) },
            ] {
                assert!(matching(&pos, f).is_empty(), "{name}: {f:?}");
            }
            for f in asks {
                let want: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| {
                        f.role.is_none_or(|r| r == role_of(&pos, m))
                            && f.from.is_none_or(|c| c == m.from)
                            && f.to.is_none_or(|c| c == m.to)
                    })
                    .collect();
                let mut got = matching(&pos, f);
                let mut want = want;
                got.sort_by_key(|m| (m.from, m.to, m.promotion));
                want.sort_by_key(|m| (m.from, m.to, m.promotion));
                assert_eq!(got, want, "{name}: {f:?} in {}", pos.fen());
                filters += 1;
            }
        }
    }
    assert!(filters > 100_000, "{filters} filters");
}

/// The move a text names by the naive generator's whole list: the reading rules of `san` (the piece, the
/// squares and the promotion must match; a pawn without a file moves straight; a pawn move with both file
/// and rank is whatever piece stands there, castling as the king's two-step included), or whether no move
/// or several do.
#[derive(Debug, PartialEq, Eq)]
enum Resolved {
    Move(Move),
    Illegal,
    Ambiguous,
}

fn reference(pos: &Position, all: &[Move], text: &str) -> Resolved {
    let Ok(SanPlus { san, .. }) = text.parse::<SanPlus>() else { return Resolved::Illegal };
    let g = pos.geometry();
    let all = all.iter().copied();
    let castling = |m: Move| {
        pos.piece_at(m.to).is_some_and(|p| p.color == pos.turn() && p.role == Role::Rook)
            && role_of(pos, m) == Role::King
    };
    let found: Vec<Move> = match san {
        San::Castle(side) => all
            .filter(|&m| {
                castling(m) && (g.coord(m.to, 0) > g.coord(m.from, 0)) == (side == tesseract_board::CastlingSide::King)
            })
            .collect(),
        San::Long { role, text, .. } => {
            let (Some(from), Some(to)) = (g.cell(text.from()), g.cell(text.to())) else { return Resolved::Illegal };
            all.filter(|&m| m.from == from && m.to == to && role_of(pos, m) == role && m.promotion == text.promotion())
                .collect()
        }
        San::Normal { role, file, rank, to: (tf, tr), promotion, .. } => {
            let Some(to) = g.cell(&[tf, tr]) else { return Resolved::Illegal };
            if let (Role::YPawn, Some(f), Some(r)) = (role, file, rank) {
                let Some(from) = g.cell(&[f, r]) else { return Resolved::Illegal };
                let mut straight: Vec<Move> = all.clone().filter(|m| m.from == from && m.to == to).collect();
                if straight.is_empty() {
                    straight = all
                        .filter(|&m| {
                            m.from == from && castling(m) && r == tr && {
                                let kingside = g.coord(m.to, 0) > g.coord(m.from, 0);
                                tf == if kingside { g.side() as u8 - 1 } else { 3 }
                            }
                        })
                        .collect();
                }
                straight.retain(|m| m.promotion == promotion);
                straight
            } else {
                all.filter(|&m| {
                    m.to == to
                        && !castling(m)
                        && role_of(pos, m) == role
                        && file.is_none_or(|f| g.coord(m.from, 0) == f)
                        && rank.is_none_or(|r| g.coord(m.from, 1) == r)
                        && (role != Role::YPawn || file.is_some() || g.coord(m.from, 0) == tf)
                        && m.promotion == promotion
                })
                .collect()
            }
        }
    };
    match found[..] {
        [m] => Resolved::Move(m),
        [] => Resolved::Illegal,
        _ => Resolved::Ambiguous,
    }
}

fn resolved(pos: &Position, text: &str) -> Resolved {
    match san::parse_move(pos, text) {
        Ok(m) => Resolved::Move(m),
        Err(SanError::Ambiguous { .. }) => Resolved::Ambiguous,
        Err(_) => Resolved::Illegal,
    }
}

/// The SAN of a 2D move by python-chess's rule over the naive generator's whole list: the file when it
/// tells apart the other pieces of the kind that reach the square (or none of them shares the file), the
/// rank when one shares the file; the check mark is taken from the text under test.
fn reference_san(pos: &Position, all: &[Move], m: Move, written: &str) -> String {
    let g = pos.geometry();
    let role = role_of(pos, m);
    if pos.piece_at(m.to).is_some_and(|p| p.color == pos.turn()) {
        return written.to_string(); // castling
    }
    let (ff, fr) = (g.coord(m.from, 0), g.coord(m.from, 1));
    let file = |f: u8| ((b'a' + f - 1) as char).to_string();
    let capture = pos.piece_at(m.to).is_some() || (role == Role::YPawn && g.coord(m.to, 0) != ff);
    let mut text = String::new();
    if role == Role::YPawn {
        if capture {
            text.push_str(&file(ff));
        }
    } else {
        text.push(role.upper_char(2));
        let others: Vec<Move> =
            all.iter().copied().filter(|&o| o.to == m.to && o.from != m.from && role_of(pos, o) == role).collect();
        let same_file = others.iter().any(|o| g.coord(o.from, 0) == ff);
        let same_rank = others.iter().any(|o| g.coord(o.from, 1) == fr);
        if !others.is_empty() && (same_rank || !same_file) {
            text.push_str(&file(ff));
        }
        if same_file {
            text.push_str(&fr.to_string());
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(&g.cell_name(m.to));
    if let Some(r) = m.promotion {
        text.push('=');
        text.push(r.upper_char(2));
    }
    text.extend(written.chars().last().filter(|c| matches!(c, '+' | '#')));
    text
}

/// For every legal move of the random positions: its SAN is what the whole list's rule writes, and the
/// SAN, the minimal form, the forms with a file, a rank or both, and a wrong piece letter resolve as the
/// whole list resolves them (the move, no move, or several).
#[test]
fn san_through_the_few_pieces_equals_san_through_the_whole_list() {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let (mut texts, mut ambiguous, mut disambiguated) = (0usize, 0usize, 0usize);
    for (name, start, games) in starts() {
        let positions = positions(&start, games.min(12), &mut rng);
        for pos in positions.iter().step_by(2) {
            let g = pos.geometry();
            let all = naive::legal_moves(&pos.to_setup());
            for m in legal_moves(pos) {
                let written = san::to_san(pos, m);
                if g.dims() == 2 {
                    assert_eq!(written, reference_san(pos, &all, m, &written), "{name}: {m:?} in {}", pos.fen());
                    let body = written.trim_end_matches(['+', '#']).replace('x', "");
                    // A piece move with a file or rank before the destination (castling is none).
                    disambiguated +=
                        usize::from(body.starts_with(char::is_uppercase) && !body.starts_with('O') && body.len() > 3);
                }
                let mut forms = vec![written.clone()];
                if g.dims() == 2 && !written.starts_with('O') {
                    let role = role_of(pos, m);
                    let letter = if role == Role::YPawn { String::new() } else { role.upper_char(2).to_string() };
                    let (file, rank) = ((b'a' + g.coord(m.from, 0) - 1) as char, g.coord(m.from, 1));
                    let to = g.cell_name(m.to);
                    let promo = m.promotion.map(|r| format!("={}", r.upper_char(2))).unwrap_or_default();
                    forms.push(format!("{letter}{to}{promo}"));
                    forms.push(format!("{letter}{file}{to}{promo}"));
                    forms.push(format!("{letter}{rank}{to}{promo}"));
                    forms.push(format!("{letter}{file}{rank}{to}{promo}"));
                    forms.push(format!("{}{to}", ["K", "Q", "R", "B", "N", ""][(rng.next_u64() % 6) as usize]));
                }
                for text in forms {
                    let want = reference(pos, &all, &text);
                    ambiguous += usize::from(want == Resolved::Ambiguous);
                    assert_eq!(resolved(pos, &text), want, "{name}: {text} in {}", pos.fen());
                    texts += 1;
                }
            }
        }
    }
    assert!(texts > 50_000 && ambiguous > 100 && disambiguated > 10, "{texts} {ambiguous} {disambiguated}");
}

/// Positions random games seldom reach: pawns pinned on their start rank (a double step along no pin), en
/// passant that would expose the king along the rank, a pinned pawn that captures along its pin,
/// promotions with and without captures, checks that a pawn push or an en passant capture answers. Every
/// kind to every cell gives the whole list's moves that pass.
#[test]
fn every_kind_to_every_cell_in_hard_positions() {
    let fens = [
        "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/r3K3 w - - 0 1",
        "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        "8/8/8/1k6/2Pp4/8/8/4K2Q b - c3 0 1",
        "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1",
        "4k3/8/8/b7/8/2P5/8/4K3 w - - 0 1",
        "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/2p5/1R2K3 b - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/8/8/8/3q4/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/5p2/4K3 w - - 0 1",
        "3k4/8/8/2pP4/8/8/8/3K4 w - c6 0 2",
        "8/8/3k4/2pP4/8/8/8/3K4 w - c6 0 2",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let all = legal_moves(&pos);
        let g = pos.geometry();
        for role in [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::YPawn] {
            for c in 0..g.cells() {
                let f = MoveFilter { role: Some(role), from: None, to: Some(Cell::new(c as u16)) };
                let mut want: Vec<Move> =
                    all.iter().copied().filter(|&m| m.to == f.to.unwrap() && role_of(&pos, m) == role).collect();
                let mut got = matching(&pos, f);
                got.sort_by_key(|m| (m.from, m.to, m.promotion));
                want.sort_by_key(|m| (m.from, m.to, m.promotion));
                assert_eq!(got, want, "{f:?} in {fen}");
            }
        }
    }
}
