//! Line counts: the board crate's geometry gives ((n+2)^d − n^d)/2 lines; 40 of the 272 on 3⁴ pass through
//! the centre, leaving 232.

use tesseract_board::Shape;
use tesseract_tactoe::{CENTRE, LINES, Lines, PLAYABLE, THROUGH_CENTRE, geometry};

#[test]
fn line_counts_on_boards_of_side_three() {
    for (d, want) in [(2usize, 8usize), (3, 49), (4, 272)] {
        let shape = Shape::new(d, 3).unwrap();
        assert_eq!((5usize.pow(d as u32) - 3usize.pow(d as u32)) / 2, want);
        assert_eq!(shape.geometry().lines(3).len(), want, "{shape}");
    }
}

#[test]
fn forty_lines_through_the_centre_leave_232() {
    let lines = Lines::get();
    let counts = lines.counts();
    assert_eq!((counts.total, counts.through_centre, counts.playable), (LINES, THROUGH_CENTRE, PLAYABLE));
    assert_eq!((LINES, THROUGH_CENTRE, PLAYABLE), (272, 40, 232));
    assert_eq!(counts.to_string(), "lines 272 through-centre 40 playable 232");
    assert_eq!(lines.playable().count(), 232);
    // The centre is the middle cell of each of its lines: one per pair of opposite directions, 80 / 2.
    assert!(lines.all().iter().filter(|l| l.contains(CENTRE)).all(|l| l.cells()[1] == CENTRE));
    assert_eq!(lines.through(CENTRE).len(), 40);
}

#[test]
fn every_line_is_three_steps_of_one_direction() {
    let g = geometry();
    let mut seen = std::collections::HashSet::new();
    for line in Lines::get().all() {
        let [a, b, c] = line.cells();
        let dir = line.direction();
        assert!(dir.iter().any(|&v| v != 0));
        assert_eq!(dir.iter().find(|&&v| v != 0), Some(&1), "first nonzero step is +1: {line}");
        assert_eq!(g.offset(a, &dir), Some(b));
        assert_eq!(g.offset(b, &dir), Some(c));
        let mut key = line.cells();
        key.sort();
        assert!(seen.insert(key), "line {line} listed twice");
        assert_eq!(Lines::get().line(line.id()), line);
    }
}

#[test]
fn lines_through_a_cell_contain_it() {
    let lines = Lines::get();
    for cell in geometry().all_cells() {
        for &id in lines.through(cell) {
            assert!(lines.line(id).contains(cell));
        }
        let dead = lines.through(cell).iter().filter(|&&id| lines.line(id).through_centre()).count();
        assert_eq!(lines.playable_through(cell).len() + dead, lines.through(cell).len());
    }
    let corner = geometry().cell(&[1, 1, 1, 1]).unwrap();
    assert_eq!(lines.through(corner).len(), 15);
    assert_eq!(lines.playable_through(corner).len(), 14);
    assert_eq!(lines.line(lines.through(corner)[0]).to_string().len(), "1111-2111-3111".len());
}
