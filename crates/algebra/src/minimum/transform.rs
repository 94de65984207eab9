//! The Walsh–Hadamard transform, and the exact `W = 2` minimum over a small
//! span by one transform (used for the blocks of the heuristic descent).
//!
//! Give each cell the signature `s_i` of which generators touch it; the coset
//! member `x₀ + Σ a_j g_j` has cell value `x₀_i ⊕ ⟨a, s_i⟩`, so its weight is
//! `(T − F̂(a))/2` where `F(s) = #{cells with signature s and x₀_i = 0} −
//! #{… and x₀_i = 1}` and `F̂` is its Walsh–Hadamard transform: one transform
//! scores all `2^d` members in `O(d·2^d)`.

use super::Gen;
use crate::cancel::Canceller;
use crate::AlgebraError;
use std::ops::{Add, Sub};

/// Largest span searched by [`wht_minimise`] (a `2^22`-entry array, 16 MB).
pub(super) const WHT_MAX_DIM: usize = 22;

/// In-place unnormalised Walsh–Hadamard transform (`a.len()` a power of two).
pub(super) fn fwht<T: Copy + Add<Output = T> + Sub<Output = T>>(a: &mut [T]) {
    stages(a, a.len());
}

/// The stages of the transform with butterfly distance below `limit`: with
/// `limit = len/2`, each half of `a` is transformed on its own.
///
/// The first three stages run together on blocks of eight values held in
/// registers; the later ones go two at a time (radix 4: one pass over memory
/// for two stages) over runs of at least eight, which the compiler vectorises.
fn stages<T: Copy + Add<Output = T> + Sub<Output = T>>(a: &mut [T], limit: usize) {
    let mut h = 1;
    if limit >= 8 {
        for c in a.chunks_exact_mut(8) {
            let (s0, d0) = (c[0] + c[1], c[0] - c[1]);
            let (s1, d1) = (c[2] + c[3], c[2] - c[3]);
            let (s2, d2) = (c[4] + c[5], c[4] - c[5]);
            let (s3, d3) = (c[6] + c[7], c[6] - c[7]);
            let (t0, t1, t2, t3) = (s0 + s1, d0 + d1, s0 - s1, d0 - d1);
            let (t4, t5, t6, t7) = (s2 + s3, d2 + d3, s2 - s3, d2 - d3);
            c[0] = t0 + t4;
            c[1] = t1 + t5;
            c[2] = t2 + t6;
            c[3] = t3 + t7;
            c[4] = t0 - t4;
            c[5] = t1 - t5;
            c[6] = t2 - t6;
            c[7] = t3 - t7;
        }
        h = 8;
    }
    while 2 * h < limit {
        for chunk in a.chunks_exact_mut(4 * h) {
            let (lo, hi) = chunk.split_at_mut(2 * h);
            let (q0, q1) = lo.split_at_mut(h);
            let (q2, q3) = hi.split_at_mut(h);
            for (((w, x), y), z) in q0.iter_mut().zip(q1.iter_mut()).zip(q2.iter_mut()).zip(q3.iter_mut()) {
                let (s1, d1) = (*w + *x, *w - *x);
                let (s2, d2) = (*y + *z, *y - *z);
                *w = s1 + s2;
                *x = d1 + d2;
                *y = s1 - s2;
                *z = d1 - d2;
            }
        }
        h *= 4;
    }
    if h < limit {
        for chunk in a.chunks_exact_mut(2 * h) {
            let (l, r) = chunk.split_at_mut(h);
            for (x, y) in l.iter_mut().zip(r.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = u + v;
                *y = u - v;
            }
        }
    }
}

/// The largest value of the transform of `a` (`a.len()` a power of two, at
/// least 2). The last stage is not stored: its largest value is
/// `max(u + v, u − v)` over the pairs it would combine. `a` is left with the
/// transforms of its two halves, for [`locate_max`].
pub(super) fn transform_max<T: Copy + Ord + Add<Output = T> + Sub<Output = T>>(a: &mut [T]) -> T {
    let h = a.len() / 2;
    stages(a, h);
    let (l, r) = a.split_at(h);
    l.iter().zip(r).map(|(&u, &v)| (u + v).max(u - v)).max().unwrap_or(a[0])
}

/// The first index of the transform holding `value`, after [`transform_max`].
pub(super) fn locate_max<T: Copy + Eq + Add<Output = T> + Sub<Output = T>>(a: &[T], value: T) -> Option<usize> {
    let h = a.len() / 2;
    let (l, r) = a.split_at(h);
    let low = l.iter().zip(r).position(|(&u, &v)| u + v == value);
    low.or_else(|| l.iter().zip(r).position(|(&u, &v)| u - v == value).map(|i| i + h))
}

/// Exact minimum over `base + span(gens)` for `W = 2` (`gens.len() <= 22`).
/// Returns the weight and the coefficient bit mask `a` of the best member
/// (the smallest `a` among ties).
pub(super) fn wht_minimise(base: &[u32], gens: &[&Gen], canc: &mut Canceller<'_>) -> Result<(u64, u64), AlgebraError> {
    let d = gens.len();
    let n = base.len();
    if d > WHT_MAX_DIM || n > i32::MAX as usize {
        return Err(AlgebraError::Internal("transform dimension too large".into()));
    }
    let mut sig = vec![0u32; n];
    for (j, g) in gens.iter().enumerate() {
        for &(i, v) in &g.support {
            if v & 1 == 1 {
                sig[i as usize] ^= 1 << j;
            }
        }
    }
    let mut arr = vec![0i32; 1 << d];
    for (&s, &b) in sig.iter().zip(base) {
        arr[s as usize] += if b & 1 == 0 { 1 } else { -1 };
    }
    canc.tick(n * (d + 1))?;
    fwht(&mut arr);
    canc.tick(d << d)?;
    // Largest transform value = smallest weight; first index wins ties.
    let mut best_t = i32::MIN;
    let mut best_a = 0usize;
    for (a, &t) in arr.iter().enumerate() {
        if t > best_t {
            best_t = t;
            best_a = a;
        }
    }
    Ok((((n as i64 - best_t as i64) / 2) as u64, best_a as u64))
}
