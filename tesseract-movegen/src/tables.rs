//! Per-shape tables of the fast generator, built once per shape on first use.

use std::sync::OnceLock;

use tesseract_board::geometry::{MAX_DIMS, MAX_SIDE, MIN_SIDE};
use tesseract_board::mailbox::{self, OFFBOARD};
use tesseract_board::{Color, Geometry, Role, Shape};

/// Pawn steps of one pawn kind and colour, as mailbox offsets.
#[derive(Debug, Clone)]
pub(crate) struct PawnSteps {
    pub role: Role,
    pub axis: usize,
    /// One step forward.
    pub push: i32,
    /// Forward and sideways along a capture axis.
    pub captures: Vec<i32>,
    /// The coordinate (on its axis) of the start row, and of the last row.
    pub start: u8,
    pub last: u8,
}

#[derive(Debug)]
pub(crate) struct Tables {
    pub geo: &'static Geometry,
    /// Direction offsets, all classes, sorted by class.
    pub dirs: Vec<i32>,
    /// Class of each direction.
    pub dir_class: Vec<u8>,
    /// Per direction and colour: bit set of pawn roles (1 = Y, 2 = W) that, standing one step away
    /// along the direction, capture back onto the origin.
    pub pawn_checks: [Vec<u8>; 2],
    /// Per mailbox code: the classes the piece slides along (bit c for class c).
    pub slides: [u8; 256],
    /// Slide offsets for each slider role index (queen, rook, bishop, unicorn, dragon), empty otherwise.
    pub slide_dirs: [Vec<i32>; 9],
    /// Knight leap offsets.
    pub leaps: Vec<i32>,
    /// Pawn steps per colour.
    pub pawns: [Vec<PawnSteps>; 2],
    /// Promotion roles on this board.
    pub promotions: Vec<Role>,
}

impl Tables {
    pub(crate) fn of(shape: Shape) -> &'static Tables {
        const SLOTS: usize = MAX_DIMS * (MAX_SIDE - MIN_SIDE + 1) as usize;
        static TABLES: [OnceLock<Tables>; SLOTS] = [const { OnceLock::new() }; SLOTS];
        let slot = (shape.dims() - 1) * (MAX_SIDE - MIN_SIDE + 1) as usize + shape.side() - MIN_SIDE as usize;
        TABLES[slot].get_or_init(|| Tables::build(shape.geometry()))
    }

    fn build(geo: &'static Geometry) -> Tables {
        let d = geo.dims();
        let n = geo.side() as u8;
        let dirs: Vec<i32> = geo.directions().iter().map(|dir| dir.offset).collect();
        let dir_class: Vec<u8> = geo.directions().iter().map(|dir| dir.class).collect();
        let mut slides = [0u8; 256];
        for color in Color::ALL {
            for role in Role::ALL {
                slides[mailbox::code(color, role) as usize] = role.slide_classes();
            }
        }
        slides[OFFBOARD as usize] = 0;
        let slide_dirs = Role::ALL.map(|role| {
            geo.directions().iter().filter(|dir| role.slide_classes() & (1 << dir.class) != 0).map(|dir| dir.offset).collect()
        });
        let leaps = geo.leaps().iter().map(|l| l.offset).collect();
        let pawns = Color::ALL.map(|color| {
            geo.pawn_roles()
                .iter()
                .map(|&role| {
                    let axis = role.pawn_axis().expect("a pawn");
                    let push = geo.stride(axis) * color.forward() as i32;
                    let captures =
                        geo.capture_axes().iter().flat_map(|&k| [push + geo.stride(k), push - geo.stride(k)]).collect();
                    let (start, last) = match color {
                        Color::White => (2, n),
                        Color::Black => (n - 1, 1),
                    };
                    PawnSteps { role, axis, push, captures, start, last }
                })
                .collect()
        });
        let pawn_checks = Color::ALL.map(|color| {
            geo.directions()
                .iter()
                .map(|dir| {
                    // A pawn of `color` at origin + dir captures along -dir.
                    let back = dir.delta.map(|v| -v);
                    let mut mask = 0u8;
                    for &role in geo.pawn_roles() {
                        let axis = role.pawn_axis().expect("a pawn");
                        let sideways: Vec<usize> = (0..d).filter(|&a| a != axis && back[a] != 0).collect();
                        if back[axis] == color.forward() && sideways.len() == 1 && geo.capture_axes().contains(&sideways[0])
                        {
                            mask |= if role == Role::YPawn { 1 } else { 2 };
                        }
                    }
                    mask
                })
                .collect()
        });
        let promotions = Role::PROMOTIONS.iter().copied().filter(|r| r.exists_in(d) && (d != 2 || r.min_dims() <= 2)).collect();
        Tables { geo, dirs, dir_class, pawn_checks, slides, slide_dirs, leaps, pawns, promotions }
    }
}

/// The pawn-role bit used in [`Tables::pawn_checks`].
#[inline]
pub(crate) fn pawn_bit(role: Role) -> u8 {
    match role {
        Role::YPawn => 1,
        Role::WPawn => 2,
        _ => 0,
    }
}
