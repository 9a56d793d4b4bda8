//! `Diagram::from_side(Black)` is the White picture turned by 180°: the same cells, every axis reversed,
//! on every board the starts cover (2D, 3D, 4D), with the labels turned too.

use tesseract_board::picture::Diagram;
use tesseract_board::{Color, Position, start};

/// The cell characters of a diagram, one string per drawn row, labels left out.
fn grid(text: &str, dims: usize) -> Vec<String> {
    let keep = |s: &str| s.chars().filter(|c| c.is_ascii_alphabetic() || *c == '.').collect::<String>();
    match dims {
        2 => text.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).map(|l| keep(&l[1..])).collect(),
        _ => text
            .lines()
            .filter(|l| l.len() > 6 && l[6..].starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| keep(&l[6..]))
            .collect(),
    }
}

fn turned_by_180(rows: &[String]) -> Vec<String> {
    rows.iter().rev().map(|r| r.chars().rev().collect()).collect()
}

#[test]
fn black_sees_the_white_picture_turned_by_180_degrees() {
    let starts: Vec<Position> = vec![
        start::chess(),
        start::chess960(518).unwrap(),
        start::by_name("raumschach").unwrap(),
        start::tesseract(start::Army::Standard),
        start::tesseract(start::Army::Dense),
    ];
    for pos in starts {
        let dims = pos.geometry().dims();
        let white = Diagram::new(&pos).to_string();
        let black = Diagram::new(&pos).from_side(Color::Black).to_string();
        assert_eq!(Diagram::new(&pos).from_side(Color::White).to_string(), white);
        let (w, b) = (grid(&white, dims), grid(&black, dims));
        assert_eq!(w.len(), pos.geometry().side() * if dims == 4 { pos.geometry().side() } else { 1 });
        assert_eq!(b, turned_by_180(&w), "{}", pos.fen());
        assert_ne!(b, w, "the picture changed");
    }
}

#[test]
fn the_labels_turn_with_the_board() {
    let chess = start::chess();
    let black = Diagram::new(&chess).from_side(Color::Black).to_string();
    let lines: Vec<&str> = black.lines().collect();
    assert_eq!(lines[0], "1 R N B K Q B N R");
    assert_eq!(lines[7], "8 r n b k q b n r");
    assert_eq!(lines[8], "  h g f e d c b a");
    let tesseract = start::tesseract(start::Army::Standard);
    let black = Diagram::new(&tesseract).from_side(Color::Black).to_string();
    let lines: Vec<&str> = black.lines().collect();
    assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["w=5", "w=4", "w=3", "w=2", "w=1"]);
    assert!(lines[1].starts_with("z=1   1"), "{}", lines[1]);
    assert!(lines[6].trim_start().starts_with("5 4 3 2 1"), "x runs 5 to 1: {}", lines[6]);
}
