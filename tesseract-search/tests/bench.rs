//! The bench signature is pinned: a change of the engine's behaviour changes it, and must update
//! `bench::SIGNATURE` in the same commit (see the crate docs).

use tesseract_search::bench;

#[test]
fn positions_are_valid_and_varied() {
    assert!(bench::POSITIONS.len() >= 16);
    let dims: Vec<usize> = bench::POSITIONS.iter().map(|&(p, _)| bench::position(p).geometry().dims()).collect();
    assert!(dims.iter().filter(|&&d| d == 4).count() >= 8);
    assert!(dims.iter().filter(|&&d| d == 2).count() >= 4);
    for army in ["light", "standard", "dense"] {
        assert!(bench::POSITIONS.iter().any(|&(p, _)| p == army));
    }
}

/// The same count in debug and release builds, as on every machine.
#[test]
fn signature() {
    let lines = bench::run(|_| {});
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    assert_eq!(total, bench::SIGNATURE, "the bench signature changed: {lines:#?}");
}
