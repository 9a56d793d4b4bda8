//! The board as a table sees it: cells, the moves of each piece as lists of cells, and the board's
//! symmetries.
//!
//! Pawnless positions keep their value under every symmetry of the board: any permutation of the axes
//! combined with any reflection of each axis. That group has `d!·2^d` elements (8 on a square, 48 on a
//! cube, 384 on the 4D board). Every position is stored once per orbit: White's king is brought into the
//! *fundamental domain* (coordinates in the lower half, `x ≤ y ≤ z ≤ w`: 10 cells of 64 in chess, 10 of 125
//! on 5³, 15 of 625 on 5⁴), and when several symmetries do that (the king on a diagonal or a middle line)
//! the one that gives the smallest index wins.

use std::sync::{Arc, Mutex, OnceLock};

use tesseract_board::geometry::MAX_DIMS;
use tesseract_board::{Role, Shape};

/// A cell's number, as [`tesseract_board::Cell::index`].
pub(crate) type Sq = u16;

/// The precomputed tables of one board shape.
#[derive(Debug)]
pub(crate) struct Space {
    pub shape: Shape,
    pub cells: usize,
    /// Rays: for cell `c` and direction `i`, the cells `ray_cells[ray_start[c·D+i]..ray_start[c·D+i+1]]`.
    ray_start: Vec<u32>,
    ray_cells: Vec<Sq>,
    /// The class (axes moved) of each direction.
    dir_class: Vec<u8>,
    /// Knight leaps: for cell `c`, `leap_cells[leap_start[c]..leap_start[c+1]]`.
    leap_start: Vec<u32>,
    leap_cells: Vec<Sq>,
    /// The symmetries: element `g` maps cell `c` to `maps[g·cells + c]`.
    maps: Vec<Sq>,
    pub group_len: usize,
    /// The fundamental domain's cells, in cell order, and each cell's place in it (`u32::MAX` outside).
    pub domain: Vec<Sq>,
    pub domain_index: Vec<u32>,
    /// For each cell, the symmetries that bring it into the domain.
    #[cfg_attr(not(test), allow(dead_code))]
    to_domain: Vec<Vec<u16>>,
    /// For each pair of cells (a, b), at `pair_start[a·cells+b]..pair_start[a·cells+b+1]` in `pair_gs`:
    /// the symmetries that bring `a` into the domain and, among those, send `b` to the smallest cell.
    pair_start: Vec<u32>,
    pair_gs: Vec<u16>,
    /// How two cells relate, at `line[a·cells+b]`: 0 for no line, [`LEAP`] for a knight leap, else the
    /// direction index + 1 in the low 8 bits and the distance in the high 8.
    line: Vec<u16>,
}

/// The [`Space`] line value of a knight leap.
const LEAP: u16 = u16::MAX;

impl Space {
    /// The tables of `shape`, built once per shape and shared.
    pub fn of(shape: Shape) -> Arc<Space> {
        static ALL: OnceLock<Mutex<Vec<Arc<Space>>>> = OnceLock::new();
        let mut all = ALL.get_or_init(|| Mutex::new(Vec::new())).lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = all.iter().find(|s| s.shape == shape) {
            return Arc::clone(s);
        }
        let s = Arc::new(Space::build(shape));
        all.push(Arc::clone(&s));
        s
    }

    fn build(shape: Shape) -> Space {
        let d = shape.dims();
        let n = shape.side() as i8;
        let cells = shape.cells();
        let geometry = shape.geometry();
        let coords: Vec<[i8; MAX_DIMS]> = (0..cells)
            .map(|c| {
                let mut out = [0i8; MAX_DIMS];
                let mut rest = c;
                for v in out.iter_mut().take(d) {
                    *v = (rest % n as usize) as i8;
                    rest /= n as usize;
                }
                out
            })
            .collect();
        let cell_of = |c: &[i8; MAX_DIMS]| -> Option<Sq> {
            let mut idx = 0usize;
            for axis in (0..d).rev() {
                if c[axis] < 0 || c[axis] >= n {
                    return None;
                }
                idx = idx * n as usize + c[axis] as usize;
            }
            Some(idx as Sq)
        };
        let dirs = geometry.directions();
        let mut ray_start = Vec::with_capacity(cells * dirs.len() + 1);
        let mut ray_cells = Vec::new();
        for c in &coords {
            for dir in dirs {
                ray_start.push(ray_cells.len() as u32);
                let mut p = *c;
                loop {
                    for (v, step) in p.iter_mut().zip(dir.delta).take(d) {
                        *v += step;
                    }
                    match cell_of(&p) {
                        Some(cell) => ray_cells.push(cell),
                        None => break,
                    }
                }
            }
        }
        ray_start.push(ray_cells.len() as u32);
        let dir_class = dirs.iter().map(|dir| dir.class).collect();
        let mut leap_start = Vec::with_capacity(cells + 1);
        let mut leap_cells = Vec::new();
        for c in &coords {
            leap_start.push(leap_cells.len() as u32);
            for leap in geometry.leaps() {
                let mut p = *c;
                for (v, step) in p.iter_mut().zip(leap.delta).take(d) {
                    *v += step;
                }
                if let Some(cell) = cell_of(&p) {
                    leap_cells.push(cell);
                }
            }
        }
        leap_start.push(leap_cells.len() as u32);

        // The group: every permutation of the axes, then every set of reflected axes.
        let mut perms = Vec::new();
        permutations(&mut (0..d).collect::<Vec<_>>(), 0, &mut perms);
        let mut maps = Vec::new();
        for perm in &perms {
            for flips in 0..1u32 << d {
                for c in &coords {
                    let mut p = [0i8; MAX_DIMS];
                    for axis in 0..d {
                        let v = c[perm[axis]];
                        p[axis] = if flips >> axis & 1 == 1 { n - 1 - v } else { v };
                    }
                    maps.push(cell_of(&p).expect("a symmetry keeps cells on the board"));
                }
            }
        }
        let group_len = maps.len() / cells;
        let half = (n - 1) / 2;
        let in_domain = |c: &[i8; MAX_DIMS]| (0..d).all(|a| c[a] <= half) && (1..d).all(|a| c[a - 1] <= c[a]);
        let mut domain = Vec::new();
        let mut domain_index = vec![u32::MAX; cells];
        for (cell, c) in coords.iter().enumerate() {
            if in_domain(c) {
                domain_index[cell] = domain.len() as u32;
                domain.push(cell as Sq);
            }
        }
        let to_domain: Vec<Vec<u16>> = (0..cells)
            .map(|cell| {
                (0..group_len)
                    .filter(|&g| domain_index[maps[g * cells + cell] as usize] != u32::MAX)
                    .map(|g| g as u16)
                    .collect()
            })
            .collect();
        let mut pair_start = Vec::with_capacity(cells * cells + 1);
        let mut pair_gs = Vec::new();
        for into_domain in &to_domain {
            for b in 0..cells {
                pair_start.push(pair_gs.len() as u32);
                let image = |g: u16| maps[g as usize * cells + b];
                let best = into_domain.iter().map(|&g| image(g)).min().expect("a symmetry into the domain");
                pair_gs.extend(into_domain.iter().copied().filter(|&g| image(g) == best));
            }
        }
        pair_start.push(pair_gs.len() as u32);
        let mut line = vec![0u16; cells * cells];
        for a in 0..cells {
            for (i, _) in dirs.iter().enumerate() {
                let k = a * dirs.len() + i;
                for (dist, &b) in ray_cells[ray_start[k] as usize..ray_start[k + 1] as usize].iter().enumerate() {
                    line[a * cells + b as usize] = (i as u16 + 1) | ((dist as u16 + 1) << 8);
                }
            }
            for &b in &leap_cells[leap_start[a] as usize..leap_start[a + 1] as usize] {
                line[a * cells + b as usize] = LEAP;
            }
        }
        Space {
            shape,
            cells,
            ray_start,
            ray_cells,
            dir_class,
            leap_start,
            leap_cells,
            maps,
            group_len,
            domain,
            domain_index,
            to_domain,
            pair_start,
            pair_gs,
            line,
        }
    }

    /// The image of `cell` under symmetry `g`.
    #[inline]
    pub fn map(&self, g: u16, cell: Sq) -> Sq {
        self.maps[g as usize * self.cells + cell as usize]
    }

    /// The symmetries that bring `cell` into the fundamental domain (at least one).
    #[cfg(test)]
    pub fn to_domain(&self, cell: Sq) -> &[u16] {
        &self.to_domain[cell as usize]
    }

    /// The symmetries that bring `a` into the domain and send `b` to the smallest cell they can.
    #[inline]
    pub fn pair_symmetries(&self, a: Sq, b: Sq) -> &[u16] {
        let k = a as usize * self.cells + b as usize;
        &self.pair_gs[self.pair_start[k] as usize..self.pair_start[k + 1] as usize]
    }

    /// The cells a piece of `role` on `from` may move to, given the occupied cells `occupied`: every cell
    /// of a ray up to and including the first occupied one (the caller decides whether it can capture).
    #[inline]
    pub fn for_each_target(&self, role: Role, from: Sq, occupied: &[Sq], mut f: impl FnMut(Sq)) {
        let from = from as usize;
        match role {
            Role::Knight => {
                for &to in &self.leap_cells[self.leap_start[from] as usize..self.leap_start[from + 1] as usize] {
                    f(to);
                }
            }
            _ => {
                let classes = role.slide_classes();
                let ndirs = self.dir_class.len();
                for (i, &class) in self.dir_class.iter().enumerate() {
                    if role != Role::King && classes >> class & 1 == 0 {
                        continue;
                    }
                    let k = from * ndirs + i;
                    let ray = &self.ray_cells[self.ray_start[k] as usize..self.ray_start[k + 1] as usize];
                    for &to in ray {
                        f(to);
                        if role == Role::King || occupied.contains(&to) {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Whether a piece of `role` on `from` attacks `target`, the cells `occupied` blocking its slides.
    #[inline]
    pub fn attacks(&self, role: Role, from: Sq, target: Sq, occupied: &[Sq]) -> bool {
        let line = self.line[from as usize * self.cells + target as usize];
        match (role, line) {
            (_, 0) => false,
            (Role::Knight, l) => l == LEAP,
            (_, LEAP) => false,
            (Role::King, l) => l >> 8 == 1,
            (_, l) => {
                let dir = (l & 0xff) as usize - 1;
                if role.slide_classes() >> self.dir_class[dir] & 1 == 0 {
                    return false;
                }
                let k = from as usize * self.dir_class.len() + dir;
                let start = self.ray_start[k] as usize;
                let between = &self.ray_cells[start..start + (l >> 8) as usize - 1];
                !between.iter().any(|c| occupied.contains(c))
            }
        }
    }
}

/// Every permutation of `items[k..]`, appended to `out` (items in order first).
fn permutations(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out);
        items.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_and_domain_sizes() {
        for (shape, group, domain) in [(Shape::CHESS, 8, 10), (Shape::RAUMSCHACH, 48, 10), (Shape::TESSERACT, 384, 15)]
        {
            let s = Space::of(shape);
            assert_eq!(s.group_len, group, "{shape}");
            assert_eq!(s.domain.len(), domain, "{shape}");
            // Each orbit meets the domain in exactly one cell.
            for cell in 0..s.cells as Sq {
                let images: std::collections::BTreeSet<Sq> =
                    s.to_domain(cell).iter().map(|&g| s.map(g, cell)).collect();
                assert_eq!(images.len(), 1, "{shape} cell {cell}");
            }
        }
    }

    #[test]
    fn empty_board_move_counts_match_the_rules() {
        // RULES.md §2: one piece alone, moves summed over all 625 cells.
        let s = Space::of(Shape::TESSERACT);
        for (role, expected) in [
            (Role::Rook, 10_000),
            (Role::Bishop, 18_000),
            (Role::Unicorn, 16_000),
            (Role::Dragon, 5_664),
            (Role::Queen, 49_664),
            (Role::King, 27_936),
            (Role::Knight, 14_400),
        ] {
            let mut total = 0;
            for cell in 0..625 {
                s.for_each_target(role, cell, &[], |_| total += 1);
            }
            assert_eq!(total, expected, "{role}");
        }
    }

    #[test]
    fn attacks_agree_with_targets() {
        // A blocker in the way: every target listed is attacked, every other cell is not.
        for shape in [Shape::CHESS, Shape::RAUMSCHACH, Shape::TESSERACT] {
            let s = Space::of(shape);
            let blocker = [(s.cells / 2 + 1) as Sq];
            for role in [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Unicorn, Role::Dragon] {
                if !role.exists_in(shape.dims()) {
                    continue;
                }
                for from in (0..s.cells as Sq).step_by(7) {
                    if from == blocker[0] {
                        continue;
                    }
                    let mut targets = vec![false; s.cells];
                    s.for_each_target(role, from, &blocker, |t| targets[t as usize] = true);
                    for t in 0..s.cells as Sq {
                        assert_eq!(
                            s.attacks(role, from, t, &blocker),
                            targets[t as usize],
                            "{shape} {role} {from}->{t}"
                        );
                    }
                }
            }
        }
    }
}
