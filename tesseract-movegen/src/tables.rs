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
    /// How two cells relate, indexed by `to − from + relation_base` in mailbox units:
    /// 0 for no line, `i + 1` when `to` lies along direction `i` from `from`, [`LEAP`] for a knight leap.
    pub relation: Vec<u8>,
    /// The index offset of [`Tables::relation`].
    pub relation_base: usize,
    /// Per colour and direction: bit set of pawn roles (1 = Y, 2 = W) that capture along the direction.
    pub pawn_captures_along: [Vec<u8>; 2],
    /// Indexed like [`Tables::relation`]: whether the two cells are at most 3 steps apart on every axis,
    /// close enough for a king, knight or pawn at one to attack a neighbour of the other.
    pub near: Vec<bool>,
    /// Per cell (cell index): bit `i` set when the first step along direction `i` stays on the board.
    pub dir_mask: Vec<u128>,
    /// Per role: bit `i` set when the role slides along direction `i`.
    pub role_dirs: [u128; 9],
    /// Per cell: bit `i` set when knight leap `i` lands on the board.
    pub leap_mask: Vec<u64>,
}

/// The [`Tables::relation`] value of a knight leap.
pub(crate) const LEAP: u8 = u8::MAX;

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
            geo.directions()
                .iter()
                .filter(|dir| role.slide_classes() & (1 << dir.class) != 0)
                .map(|dir| dir.offset)
                .collect()
        });
        let leaps = geo.leaps().iter().map(|l| l.offset).collect();
        let pawns: [Vec<PawnSteps>; 2] = Color::ALL.map(|color| {
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
                        if back[axis] == color.forward()
                            && sideways.len() == 1
                            && geo.capture_axes().contains(&sideways[0])
                        {
                            mask |= if role == Role::YPawn { 1 } else { 2 };
                        }
                    }
                    mask
                })
                .collect()
        });
        let promotions =
            Role::PROMOTIONS.iter().copied().filter(|r| r.exists_in(d) && (d != 2 || r.min_dims() <= 2)).collect();
        let relation_base = geo.padded_len() - 1;
        let mut relation = vec![0u8; 2 * geo.padded_len() - 1];
        for (i, dir) in geo.directions().iter().enumerate() {
            for k in 1..n as i32 {
                relation[(relation_base as i32 + k * dir.offset) as usize] = i as u8 + 1;
            }
        }
        for leap in geo.leaps() {
            relation[(relation_base as i32 + leap.offset) as usize] = LEAP;
        }
        let mut near = vec![false; relation.len()];
        let reach = 3i32.min(n as i32 - 1);
        let span = (2 * reach + 1).pow(d as u32);
        for code in 0..span {
            let mut rest = code;
            let mut offset = 0i32;
            for axis in 0..d {
                offset += (rest % (2 * reach + 1) - reach) * geo.stride(axis);
                rest /= 2 * reach + 1;
            }
            near[(relation_base as i32 + offset) as usize] = true;
        }
        assert!(geo.directions().len() <= 128 && geo.leaps().len() <= 64, "direction sets fit the masks");
        let dir_mask = geo
            .all_cells()
            .map(|cell| {
                geo.directions()
                    .iter()
                    .enumerate()
                    .filter(|(_, dir)| geo.offset(cell, &dir.delta).is_some())
                    .fold(0u128, |m, (i, _)| m | 1 << i)
            })
            .collect();
        let leap_mask = geo
            .all_cells()
            .map(|cell| {
                geo.leaps()
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| geo.offset(cell, &l.delta).is_some())
                    .fold(0u64, |m, (i, _)| m | 1 << i)
            })
            .collect();
        let role_dirs = Role::ALL.map(|role| {
            geo.directions()
                .iter()
                .enumerate()
                .filter(|(_, dir)| role.slide_classes() & (1 << dir.class) != 0)
                .fold(0u128, |m, (i, _)| m | 1 << i)
        });
        let pawn_captures_along = Color::ALL.map(|color| {
            pawns_of(geo, color, &pawns[color.index()], geo.directions().iter().map(|dir| dir.offset).collect())
        });
        Tables {
            geo,
            dirs,
            dir_class,
            pawn_checks,
            slides,
            slide_dirs,
            leaps,
            pawns,
            promotions,
            relation,
            relation_base,
            pawn_captures_along,
            near,
            dir_mask,
            role_dirs,
            leap_mask,
        }
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

/// For each direction offset, the pawn roles of `color` whose capture step is that offset.
fn pawns_of(_geo: &Geometry, _color: Color, steps: &[PawnSteps], offsets: Vec<i32>) -> Vec<u8> {
    offsets
        .iter()
        .map(|off| steps.iter().filter(|s| s.captures.contains(off)).fold(0u8, |m, s| m | pawn_bit(s.role)))
        .collect()
}
