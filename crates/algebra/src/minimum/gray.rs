//! Exhaustive enumeration of a small kernel in a mixed-radix reflected Gray
//! code (Knuth, TAOCP 7.2.1.1, Algorithm H): consecutive elements differ by `±`
//! one generator, so each step only touches that generator's support and
//! updates the cost incrementally.

use super::{cost_of, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Exact minimum over `base + {Σ c_j g_j : 0 <= c_j < radix_j}`. Returns the
/// best cost and its digits (the first one met among ties).
pub(super) fn gray_minimise(
    base: &[u32],
    gens: &[&Gen],
    radices: &[u32],
    w: u32,
    canc: &mut Canceller<'_>,
) -> Result<(u64, Vec<u32>), AlgebraError> {
    let n = gens.len();
    let mut x = base.to_vec();
    let mut cost = cost_of(&x) as i64;
    let mut best = cost;
    let mut digits = vec![0u32; n];
    let mut best_digits = digits.clone();
    if radices.iter().any(|&r| r < 2) || radices.len() != n {
        return Err(AlgebraError::Internal("Gray code radix below 2".into()));
    }
    let mut focus: Vec<usize> = (0..=n).collect();
    let mut up = vec![true; n];
    loop {
        let j = focus[0];
        focus[0] = 0;
        if j == n {
            break;
        }
        let g = gens[j];
        if up[j] {
            digits[j] += 1;
            for &(i, v) in &g.support {
                let xi = &mut x[i as usize];
                let old = *xi;
                let mut new = old + v;
                if new >= w {
                    new -= w;
                }
                *xi = new;
                cost += new as i64 - old as i64;
            }
        } else {
            digits[j] -= 1;
            for &(i, v) in &g.support {
                let xi = &mut x[i as usize];
                let old = *xi;
                let new = if old >= v { old - v } else { old + w - v };
                *xi = new;
                cost += new as i64 - old as i64;
            }
        }
        if cost < best {
            best = cost;
            best_digits.copy_from_slice(&digits);
        }
        if digits[j] == 0 || digits[j] == radices[j] - 1 {
            up[j] = !up[j];
            focus[j] = focus[j + 1];
            focus[j + 1] = j + 1;
        }
        canc.tick(g.support.len())?;
    }
    Ok((best as u64, best_digits))
}
