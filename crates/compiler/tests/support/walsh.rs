//! The exact reference of `kernel_sample.rs` and the `minimum_sample`
//! example: the fewest ones over a coset `x₀ + span(patterns)` of GF(2)^n,
//! by one Walsh–Hadamard transform over all 2^k members (no search, nothing
//! shared with the solver's). Memory: 2^k entries of 4 bytes.

/// The fewest ones over `x0 + span(patterns)` (entries read modulo 2).
pub(crate) fn reference_minimum(x0: &[u32], patterns: &[Vec<u32>]) -> u64 {
    let k = patterns.len();
    assert!(k <= 30, "a reference over 2^{k} members is too large");
    // A[g] = Σ over cells of signature g of (−1)^{x₀_j}.
    let mut a = vec![0i32; 1 << k];
    for (j, &x) in x0.iter().enumerate() {
        let g = patterns.iter().enumerate().fold(0usize, |g, (t, q)| g | ((q[j] as usize & 1) << t));
        a[g] += if x & 1 == 0 { 1 } else { -1 };
    }
    // After the transform, a[c] = Σ_j (−1)^{x₀_j ⊕ ⟨g_j, c⟩} = n − 2·weight(c).
    let mut h = 1;
    while h < a.len() {
        for block in a.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (u, v) in lo.iter_mut().zip(hi.iter_mut()) {
                (*u, *v) = (*u + *v, *u - *v);
            }
        }
        h *= 2;
    }
    let best = *a.iter().max().expect("at least one member");
    ((x0.len() as i64 - best as i64) / 2) as u64
}
