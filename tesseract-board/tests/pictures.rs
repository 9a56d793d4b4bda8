//! The pictures in `docs/` (shown in the READMEs) are what the drawing code makes: regenerated here and
//! compared. After changing the drawing, write them again with
//! `TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-board --features svg --test pictures`.
#![cfg(feature = "svg")]

use std::path::PathBuf;

use tesseract_board::pieces;
use tesseract_board::start;
use tesseract_board::svg::Picture;

/// Writes `svg` to `docs/name` when `TESSERACT_WRITE_PICTURES` is set, else checks that the file holds it.
fn check(name: &str, svg: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let path = dir.join(name);
    if std::env::var_os("TESSERACT_WRITE_PICTURES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let shipped = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        shipped == svg,
        "{} is out of date: run TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-board --features svg --test pictures",
        path.display()
    );
}

#[test]
fn start_picture_is_up_to_date() {
    check("standard-start.svg", &Picture::of(&start::tesseract(start::Army::Standard)).cell_size(24).to_svg());
}

#[test]
fn piece_sheet_is_up_to_date() {
    check("pieces.svg", &pieces::sheet());
}
