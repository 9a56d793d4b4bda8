//! The checked-in header is what cbindgen makes of src/lib.rs today: a change to the ABI that forgets
//! to regenerate it fails here. `TESSERACT_BLESS=1 cargo test -p tesseract-ffi --test header` rewrites it.

use std::path::Path;

#[test]
fn the_checked_in_header_is_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml reads");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen reads src/lib.rs")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("the header is UTF-8");
    let path = dir.join("include/tesseract.h");
    if std::env::var_os("TESSERACT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("include/tesseract.h is written");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "include/tesseract.h is stale: run `TESSERACT_BLESS=1 cargo test -p tesseract-ffi --test header` and commit it"
    );
}
