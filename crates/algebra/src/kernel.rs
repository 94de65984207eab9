//! The kernel (null space) of a system over `Z/W`, as a direct sum of cyclic groups.
//!
//! Over a field the kernel is a vector space and a basis says everything. Over
//! `Z/W` with composite `W` it is only an abelian group, e.g. `Z/2 ⊕ Z/4`, so
//! each generator carries its own additive order and the number of kernel
//! elements is the product of the orders, not `W^dimension`.

use num_bigint::BigUint;

/// One cyclic summand of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelGenerator {
    /// The generating vector (one entry per unknown, reduced modulo `W`).
    pub vector: Vec<u32>,
    /// The additive order of `vector` in `(Z/W)^cols` (always `> 1`).
    pub order: u32,
}

/// The kernel `{x : A·x ≡ 0 (mod W)}` as an internal direct sum of cyclic groups:
/// every kernel element is `Σ c_i·g_i` with `0 <= c_i < order_i` in exactly one way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kernel {
    /// The cyclic generators.
    pub generators: Vec<KernelGenerator>,
}

impl Kernel {
    /// The number of kernel elements: the product of the generator orders.
    pub fn size(&self) -> BigUint {
        self.generators.iter().fold(BigUint::from(1u32), |acc, g| acc * BigUint::from(g.order))
    }

    /// `true` when the kernel is `{0}` (the solution, if any, is unique).
    pub fn is_trivial(&self) -> bool {
        self.generators.iter().all(|g| g.order <= 1)
    }

    /// The number of cyclic generators.
    pub fn len(&self) -> usize {
        self.generators.len()
    }

    /// `true` when there are no generators.
    pub fn is_empty(&self) -> bool {
        self.generators.is_empty()
    }

    /// `log2` of the kernel size (handy for deciding whether enumeration is feasible).
    pub fn log2_size(&self) -> f64 {
        self.generators.iter().map(|g| (g.order.max(1) as f64).log2()).sum()
    }

    /// `base + Σ coeffs[i]·g_i (mod w)`. Missing coefficients count as 0; the
    /// result has the length of `base`.
    pub fn combine(&self, base: &[u32], coeffs: &[u32], w: u32) -> Vec<u32> {
        let w64 = (w as u64).max(1);
        let mut x: Vec<u64> = base.iter().map(|&v| v as u64 % w64).collect();
        for (g, &c) in self.generators.iter().zip(coeffs) {
            let c = c as u64 % w64;
            if c == 0 {
                continue;
            }
            for (xi, &gi) in x.iter_mut().zip(&g.vector) {
                *xi = (*xi + c * (gi as u64 % w64)) % w64;
            }
        }
        x.into_iter().map(|v| v as u32).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_combine() {
        let k = Kernel {
            generators: vec![
                KernelGenerator { vector: vec![6, 0], order: 2 },
                KernelGenerator { vector: vec![0, 3], order: 4 },
            ],
        };
        assert_eq!(k.size(), BigUint::from(8u32));
        assert!(!k.is_trivial());
        assert_eq!(k.combine(&[1, 1], &[1, 3], 12), vec![7, 10]);
        assert!((k.log2_size() - 3.0).abs() < 1e-9);
        let t = Kernel::default();
        assert!(t.is_trivial());
        assert_eq!(t.size(), BigUint::from(1u32));
    }
}
