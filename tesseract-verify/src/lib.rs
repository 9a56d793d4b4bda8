//! Machine-checked Tesseract studies and lessons, and the engine's self-checks.
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//!
//! No puzzle ships on anyone's word. In four dimensions nobody can see the refutation of a broken
//! mate-in-three, so every study is proven by an exhaustive search before it is published, every tutorial
//! lesson is proven impossible to fail, and the figures the rules fix are recomputed by two independent
//! paths. If any of it is wrong, the build fails first.
//!
//! | module | what it holds |
//! |---|---|
//! | [`mate`] | the exhaustive mate prover (AND-OR search with a transposition table), and explicit proof trees |
//! | [`study`] | the twelve mate-in-N studies ([`study::STUDIES_TXT`]) and their three checks: correctness, uniqueness, forcedness |
//! | [`lesson`] | the eight lessons ([`lesson::LESSONS_TXT`]) and the proof that each is winnable within its bound, with no dead end |
//! | [`selfcheck`] | empty-board constants, the start-position theorem, the generators compared node by node, the frozen 40-ply script |
//! | [`compose`] | the composer that found the studies: seeded random positions, kept when mate in exactly N with a unique key |
//! | [`records`] | the text format of the data files, with errors that name the line and field |
//!
//! # Examples
//!
//! Verify a shipped study: mate in exactly N, one key, and every defence loses.
//! ```
//! use tesseract_verify::mate::{MateSolver, ProofCheck};
//! use tesseract_verify::study;
//! let studies = study::shipped()?;
//! let mut solver = MateSolver::new();
//! let report = study::verify(&studies[0], &mut solver, ProofCheck::Fast);
//! assert!(report.passed(), "{report}");
//! assert_eq!(report.keys.len(), 1);
//! # Ok::<_, tesseract_verify::records::DataError>(())
//! ```
//!
//! Solve a position: every first move that mates in N.
//! ```
//! use tesseract_board::{Position, TextMove};
//! use tesseract_verify::mate::MateSolver;
//! let study = &tesseract_verify::study::shipped()?[0];
//! let fen = study.position.fen();
//! let pos = Position::from_fen(&fen).expect("a valid TFEN");
//! let keys = MateSolver::new().keys(&pos, study.n).expect("no node limit");
//! let texts: Vec<String> = keys.iter().map(|&m| TextMove::from_move(m, &pos).to_string()).collect();
//! assert_eq!(texts, [study.text(study.key)]);
//! # Ok::<_, tesseract_verify::records::DataError>(())
//! ```
//!
//! Prove a lesson cannot be failed, and run a self-check.
//! ```
//! use tesseract_verify::{lesson, selfcheck};
//! let rook = &lesson::shipped()?[0];
//! let report = lesson::verify(rook, lesson::LessonCheck::Fast);
//! assert!(report.passed() && report.par.unwrap() <= rook.bound);
//! assert!(selfcheck::frozen_script().passed());
//! # Ok::<_, tesseract_verify::records::DataError>(())
//! ```
//!
//! # Design
//!
//! - **Proofs, not scores.** The studies are checked by [`mate::MateSolver`], a small exhaustive AND-OR
//!   search written for this crate, not by the engine (`tesseract-search`): an engine prunes to guess
//!   well fast (null moves, reductions, futility), and a quiet key that wins by zugzwang is exactly what
//!   null-move pruning gets wrong. The prover's transposition table is only a cache: forcedness is
//!   re-established by walking the solution tree with every defence enumerated and every final position
//!   inspected, optionally re-checked by the naive generator.
//! - **Lessons in the real engine.** A lesson's moves are the legal moves the fast generator gives the
//!   taught piece, in a real position with both kings; the other side passes by the position being rebuilt
//!   and re-validated. The whole state space is explored, so "cannot be failed" is a theorem about every
//!   sequence of moves, not about a few tried by hand.
//! - **Reviewable data.** Studies, lessons and the frozen script are plain text (`data/`), read with
//!   `include_str!` and by the same parser at run time from any file, which reports the line and field
//!   of the first problem and never panics.
//! - **Cost.** In a release build the twelve studies verify in about 11 seconds, 9 of them for the mate
//!   in four (whose test is `#[ignore]`d and runs in release through `scripts/test.sh`'s `--ignored` pass; the
//!   eleven shorter studies verify in under a second even in debug); the lessons in about 3 seconds; the
//!   self-checks in about 2.
//!
//! # Feature flags
//! None.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod compose;
pub mod lesson;
pub mod mate;
pub mod records;
pub mod selfcheck;
pub mod study;
pub mod tutor;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
