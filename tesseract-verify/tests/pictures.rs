//! The pictures of the twelve studies in `docs/` (shown in the README) are those of the shipped data:
//! regenerated here and compared. After changing a study or the drawing, write them again with
//! `TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-verify --test pictures`.

use std::path::PathBuf;

use tesseract_board::svg::Picture;
use tesseract_verify::study;

#[test]
fn study_pictures_are_up_to_date() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let write = std::env::var_os("TESSERACT_WRITE_PICTURES").is_some();
    let studies = study::shipped().unwrap();
    assert_eq!(studies.len(), 12);
    for (i, s) in studies.iter().enumerate() {
        let svg = Picture::of(&s.position).cell_size(24).to_svg();
        let path = dir.join(format!("study-{:02}.svg", i + 1));
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &svg).unwrap();
            continue;
        }
        let shipped = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            shipped == svg,
            "{} is not the picture of study {} ({}): run TESSERACT_WRITE_PICTURES=1 cargo test -p tesseract-verify --test pictures",
            path.display(),
            i + 1,
            s.title
        );
    }
}
