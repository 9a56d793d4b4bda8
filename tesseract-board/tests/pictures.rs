//! The start position's picture in `docs/` (shown in the READMEs) is what the drawing code makes of it:
//! regenerated here and compared. After changing the drawing, write it again with
//! `TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-board --features svg --test pictures`.
#![cfg(feature = "svg")]

use std::path::PathBuf;

use tesseract_board::start;
use tesseract_board::svg::Picture;

#[test]
fn start_picture_is_up_to_date() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let svg = Picture::of(&start::tesseract(start::Army::Standard)).cell_size(24).to_svg();
    let path = dir.join("standard-start.svg");
    if std::env::var_os("TESSERACT_WRITE_PICTURES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, &svg).unwrap();
        return;
    }
    let shipped = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        shipped == svg,
        "{} is out of date: run TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-board --features svg --test pictures",
        path.display()
    );
}
