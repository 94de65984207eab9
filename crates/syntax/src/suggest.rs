//! "Did you mean …?" suggestions by edit distance.

/// Edit distance with adjacent transpositions (optimal string alignment):
/// `torsu` is one edit from `torus`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j - 1] + cost).min(d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo
/// (case differences count as a perfect match).
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1) + usize::from(word.len() > 5);
    candidates
        .iter()
        .map(|c| (edit_distance(&lower, c), *c))
        .filter(|(d, c)| *d <= limit || c.starts_with(&lower) && lower.len() >= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("torsu", &["torus", "plane"]), Some("torus"));
        assert_eq!(did_you_mean("Size", &["size", "states"]), Some("size"));
        assert_eq!(did_you_mean("kinng", &["cross", "king"]), Some("king"));
        assert_eq!(did_you_mean("zzzzzz", &["cross", "king"]), None);
        assert_eq!(did_you_mean("proj", &["projective"]), Some("projective"));
    }
}
