//! Per-shape tables of the fast generator, built once per shape on first use.

use std::sync::OnceLock;

use tesseract_board::geometry::{MAX_DIMS, MAX_SIDE, MIN_SIDE};
use tesseract_board::mailbox::{self, OFFBOARD};
use tesseract_board::{Color, Geometry, Role, Shape};

/// Pawn steps of one pawn kind and color, as mailbox offsets.
#[derive(Debug, Clone)]
pub(crate) struct PawnSteps {
    pub role: Role,
    /// One step forward.
    pub push: i32,
    /// Forward and sideways along a capture axis.
    pub captures: Vec<i32>,
    /// Per mailbox index: [`START_ROW`], [`PROMOTES`], [`PROMOTES_TWICE`] for a pawn of this kind and colour
    /// standing there (one load, where working it out from the cell's coordinate took three).
    pub rows: Vec<u8>,
}

/// A [`PawnSteps::rows`] flag: the pawn stands on its start row (it may step twice).
pub(crate) const START_ROW: u8 = 1;
/// A [`PawnSteps::rows`] flag: one step forward reaches the last row.
pub(crate) const PROMOTES: u8 = 2;
/// A [`PawnSteps::rows`] flag: two steps forward reach the last row (a start row on a side of 4).
pub(crate) const PROMOTES_TWICE: u8 = 4;

#[derive(Debug)]
pub(crate) struct Tables {
    pub geo: &'static Geometry,
    /// Direction offsets, all classes, sorted by class.
    pub dirs: Vec<i32>,
    /// Class of each direction.
    pub dir_class: Vec<u8>,
    /// Per direction and color: bit set of pawn roles (1 = Y, 2 = W) that, standing one step away
    /// along the direction, capture back onto the origin.
    pub pawn_checks: [Vec<u8>; 2],
    /// Per mailbox code: the classes the piece slides along (bit c for class c).
    pub slides: [u8; 256],
    /// Slide offsets for each slider role index (queen, rook, bishop, unicorn, dragon), empty otherwise.
    pub slide_dirs: [Vec<i32>; 9],
    /// Knight leap offsets.
    pub leaps: Vec<i32>,
    /// Pawn steps per color.
    pub pawns: [Vec<PawnSteps>; 2],
    /// Per role index: the index of its steps in `pawns` (pawn roles only).
    pub pawn_slot: [usize; 9],
    /// Promotion roles on this board.
    pub promotions: Vec<Role>,
    /// How two cells relate, indexed by `to − from + relation_base` in mailbox units:
    /// 0 for no line, `i + 1` when `to` lies along direction `i` from `from`, [`LEAP`] for a knight leap,
    /// [`AMBIGUOUS`] where two displacements share the offset. Read it through [`Tables::relation`].
    relation: Vec<u8>,
    /// The index offset of `relation`.
    relation_base: usize,
    /// Per mailbox index of a cell: its coordinates as one number in base `2·side − 1` (balanced digits), so
    /// the difference of two codes names their displacement uniquely. Empty when no offset is ambiguous.
    wide: Vec<u32>,
    /// The relation indexed by `wide[to] − wide[from] + wide_base`, for the ambiguous offsets.
    wide_relation: Vec<u8>,
    /// The index offset of `wide_relation`.
    wide_base: usize,
    /// Per color and direction: bit set of pawn roles (1 = Y, 2 = W) that capture along the direction.
    pub pawn_captures_along: [Vec<u8>; 2],
    /// Indexed like `relation`, from a piece's cell to the king's, two masks of the king's neighbours (bit
    /// `i`: the neighbour along direction `i`) that the piece might attack: `[0]` those on a line from the
    /// piece (for sliders), `[1]` those one step or a knight leap away (for kings, pawns and knights). Read
    /// it through [`Tables::zone`]. Where two displacements share an offset (sides of 6 and more) an entry
    /// is the union of theirs: a superset, which is all the king's move test needs, since it checks each
    /// bit exactly through [`Tables::relation`].
    zone: Vec<[u128; 2]>,
    /// Per cell (cell index): bit `i` set when the first step along direction `i` stays on the board.
    pub dir_mask: Vec<u128>,
    /// Per role: bit `i` set when the role slides along direction `i`.
    pub role_dirs: [u128; 9],
    /// Per cell: bit `i` set when knight leap `i` lands on the board.
    pub leap_mask: Vec<u64>,
}

/// The [`Tables::relation`] value of a knight leap.
pub(crate) const LEAP: u8 = u8::MAX;

/// The value of the offset-indexed relation table where two displacements share one mailbox offset.
///
/// The mailbox pads each axis by 2 cells, so its side is `n + 4`. Two displacements (each coordinate in
/// `−(n−1)..=n−1`) have the same offset when their difference, a vector with coordinates up to `2n − 2`,
/// is a multiple of the padded side in base `n + 4`: possible exactly when `2n − 2 ≥ n + 4`, on sides of 6
/// and more, and on boards of more than one axis. There the lookup falls back to coordinate codes (the
/// field `wide`), which never alias.
const AMBIGUOUS: u8 = u8::MAX - 1;

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
                    let mut rows = vec![0u8; geo.padded_len()];
                    for cell in geo.all_cells() {
                        let coord = geo.coord(cell, axis) as i32;
                        let fwd = color.forward() as i32;
                        rows[geo.padded(cell)] = if coord == start as i32 { START_ROW } else { 0 }
                            | if coord + fwd == last as i32 { PROMOTES } else { 0 }
                            | if coord + 2 * fwd == last as i32 { PROMOTES_TWICE } else { 0 };
                    }
                    PawnSteps { role, push, captures, rows }
                })
                .collect()
        });
        let mut pawn_slot = [usize::MAX; 9];
        for (i, steps) in pawns[0].iter().enumerate() {
            pawn_slot[steps.role.index()] = i;
        }
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
        let mut seen = vec![false; relation.len()];
        let width = 2 * n as usize - 1;
        let wide_base = (width.pow(d as u32) - 1) / 2;
        let mut wide_relation = vec![0u8; width.pow(d as u32)];
        let mut ambiguous = false;
        // Every displacement between two cells of the board, with its true relation: its offset gets that
        // relation, unless another displacement with a different relation has the same offset.
        for (code, wide_rel) in wide_relation.iter_mut().enumerate() {
            let mut delta = [0i32; MAX_DIMS];
            let mut rest = code;
            for v in delta.iter_mut().take(d) {
                *v = (rest % width) as i32 - (n as i32 - 1);
                rest /= width;
            }
            let rel = true_relation(geo, &delta);
            *wide_rel = rel;
            let offset: i32 = (0..d).map(|a| delta[a] * geo.stride(a)).sum();
            let i = (relation_base as i32 + offset) as usize;
            if !seen[i] {
                seen[i] = true;
                relation[i] = rel;
            } else if relation[i] != rel {
                relation[i] = AMBIGUOUS;
                ambiguous = true;
            }
        }
        assert!(geo.directions().len() <= 128 && geo.leaps().len() <= 64, "direction sets fit the masks");
        // The zone masks, from the exact relation of every displacement (`wide_relation`, before it is
        // dropped on shapes without ambiguous offsets): a piece relates to the king's neighbour along
        // direction `i` when its displacement to that neighbour, `e`, has a relation; its displacement to
        // the king is then `e − dir_i`. Only the few displacements with a relation are visited.
        let mut zone = vec![[0u128; 2]; relation.len()];
        let lim = n as i32 - 1;
        for (code, &rel) in wide_relation.iter().enumerate() {
            if rel == 0 {
                continue;
            }
            let mut e = [0i32; MAX_DIMS];
            let mut rest = code;
            for v in e.iter_mut().take(d) {
                *v = (rest % width) as i32 - lim;
                rest /= width;
            }
            let step_or_leap = rel == LEAP || e[..d].iter().all(|v| v.abs() <= 1);
            for (i, dir) in geo.directions().iter().enumerate() {
                let delta: [i32; MAX_DIMS] = std::array::from_fn(|a| e[a] - dir.delta[a] as i32);
                if delta[..d].iter().any(|v| v.abs() > lim) {
                    continue;
                }
                let offset: i32 = (0..d).map(|a| delta[a] * geo.stride(a)).sum();
                let entry = &mut zone[(relation_base as i32 + offset) as usize];
                if rel != LEAP {
                    entry[0] |= 1 << i;
                }
                if step_or_leap {
                    entry[1] |= 1 << i;
                }
            }
        }
        let wide = if ambiguous {
            let mut wide = vec![0u32; geo.padded_len()];
            for cell in geo.all_cells() {
                let c = geo.coords(cell);
                wide[geo.padded(cell)] = (0..d).rev().fold(0u32, |acc, a| acc * width as u32 + c[a] as u32);
            }
            wide
        } else {
            wide_relation = Vec::new();
            Vec::new()
        };
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
            pawn_slot,
            promotions,
            relation,
            relation_base,
            wide,
            wide_relation,
            wide_base,
            pawn_captures_along,
            zone,
            dir_mask,
            role_dirs,
            leap_mask,
        }
    }
}

impl Tables {
    /// How the cells at mailbox indices `from` and `to` relate: 0 for no line, `i + 1` when `to` lies along
    /// direction `i` from `from` (at most `side − 1` steps), [`LEAP`] for a knight leap. One load, except
    /// for the rare offsets two displacements share on sides of 6 and more.
    #[inline]
    pub(crate) fn relation(&self, from: usize, to: usize) -> u8 {
        let rel = self.relation[self.relation_base + to - from];
        if rel == AMBIGUOUS { self.wide_relation(from, to) } else { rel }
    }

    #[cold]
    fn wide_relation(&self, from: usize, to: usize) -> u8 {
        self.wide_relation[self.wide_base + self.wide[to] as usize - self.wide[from] as usize]
    }

    /// The king's neighbours (bit `i`: the neighbour along direction `i`) that the piece at mailbox index
    /// `piece` might attack, for the king at `king`: on a line, and one step or a leap away (see the field
    /// `zone`).
    #[inline]
    pub(crate) fn zone(&self, piece: usize, king: usize) -> &[u128; 2] {
        &self.zone[self.relation_base + king - piece]
    }
}

/// The relation of a displacement (coordinates in `−(n−1)..=n−1`): `i + 1` for `k` steps along direction
/// `i`, [`LEAP`] for a knight leap, 0 otherwise.
fn true_relation(geo: &Geometry, delta: &[i32; MAX_DIMS]) -> u8 {
    let k = delta.iter().map(|v| v.abs()).max().unwrap_or(0);
    if k == 0 {
        return 0;
    }
    if delta.iter().all(|&v| v == 0 || v.abs() == k) {
        let unit = delta.map(|v| v.signum() as i8);
        let i = geo.directions().iter().position(|dir| dir.delta == unit).expect("every unit vector is a direction");
        return i as u8 + 1;
    }
    if geo.leaps().iter().any(|l| l.delta.iter().zip(delta).all(|(&a, &b)| a as i32 == b)) { LEAP } else { 0 }
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tesseract_board::geometry::{MAX_DIMS, MAX_SIDE, MIN_SIDE};
    use tesseract_board::{Cell, Shape};

    use super::{AMBIGUOUS, LEAP, Tables};

    /// For every supported shape and every displacement between two cells, the relation lookup names the
    /// true line (or leap, or nothing). The expected relation is built forward, from each direction's `k`
    /// steps and each leap, independently of how the table is built. The lookup depends on the displacement
    /// alone, so one pair of cells per displacement covers every pair.
    #[test]
    fn the_relation_of_two_cells_is_exact_on_every_shape() {
        for d in 1..=MAX_DIMS {
            for n in MIN_SIDE..=MAX_SIDE {
                let shape = Shape::new(d, n as usize).unwrap();
                let t = Tables::of(shape);
                let g = t.geo;
                let n = n as i32;
                let mut expected: HashMap<[i32; MAX_DIMS], u8> = HashMap::new();
                for (i, dir) in g.directions().iter().enumerate() {
                    for k in 1..n {
                        expected.insert(dir.delta.map(|v| v as i32 * k), i as u8 + 1);
                    }
                }
                for leap in g.leaps() {
                    expected.insert(leap.delta.map(|v| v as i32), LEAP);
                }
                let width = (2 * n - 1) as usize;
                for code in 0..width.pow(d as u32) {
                    let mut delta = [0i32; MAX_DIMS];
                    let (mut from, mut to) = ([0u8; MAX_DIMS], [0u8; MAX_DIMS]);
                    let mut rest = code;
                    for a in 0..d {
                        delta[a] = (rest % width) as i32 - (n - 1);
                        rest /= width;
                        from[a] = (1 - delta[a]).max(1) as u8;
                        to[a] = (from[a] as i32 + delta[a]) as u8;
                    }
                    let (f, t2): (Cell, Cell) = (g.cell(&from[..d]).unwrap(), g.cell(&to[..d]).unwrap());
                    let want = expected.get(&delta).copied().unwrap_or(0);
                    assert_eq!(t.relation(g.padded(f), g.padded(t2)), want, "{shape}: displacement {delta:?}");
                }
                // Offsets alias exactly when 2n − 2 reaches the padded side n + 4, as the docs work out.
                assert_eq!(t.relation.contains(&AMBIGUOUS), 2 * n - 2 >= n + 4 && d > 1, "{shape}");
            }
        }
    }

    /// For every pair of cells of every shape of at most 625 cells (and one 6⁴ and 9⁴ king each), the zone
    /// masks name every neighbour of the king that the piece relates to, by a line (`[0]`) or by one step
    /// or a leap (`[1]`): the king's move test checks only those. Where no offset is ambiguous they name
    /// nothing else.
    #[test]
    fn the_zone_masks_name_every_neighbour_a_piece_relates_to() {
        for d in 1..=MAX_DIMS {
            for n in MIN_SIDE..=MAX_SIDE {
                let shape = Shape::new(d, n as usize).unwrap();
                let t = Tables::of(shape);
                let g = t.geo;
                let exact = !t.relation.contains(&AMBIGUOUS);
                let kings: Vec<Cell> =
                    if shape.cells() <= 625 { g.all_cells().collect() } else { vec![g.cell(&vec![2; d]).unwrap()] };
                for &k in &kings {
                    let kp = g.padded(k);
                    for s in g.all_cells() {
                        let sp = g.padded(s);
                        let zone = t.zone(sp, kp);
                        for (i, dir) in g.directions().iter().enumerate() {
                            let Some(q) = g.offset(k, &dir.delta) else { continue };
                            let qp = g.padded(q);
                            let rel = if qp == sp { 0 } else { t.relation(sp, qp) };
                            let line = rel != 0 && rel != LEAP;
                            let near = rel == LEAP
                                || (line && g.directions()[rel as usize - 1].offset == qp as i32 - sp as i32);
                            for (mask, want) in [(zone[0], line), (zone[1], near)] {
                                let got = mask & 1 << i != 0;
                                assert!(got || !want, "{shape}: piece {s}, king {k}, direction {i}");
                                assert!(!exact || got == want, "{shape}: piece {s}, king {k}, direction {i}");
                            }
                        }
                    }
                }
            }
        }
    }
}
