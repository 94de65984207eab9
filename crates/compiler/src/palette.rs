//! The one colour scheme of light states, shared by every picture of a
//! board: `lights render` (SVG and PNG) and the play page (which gets the
//! colours in its board data, `BoardData::palette`), so a state has the
//! same colour everywhere.
//!
//! State 0 is dark, state W−1 bright yellow; the states between run along
//! a ramp through violet and rose. Boards with more than
//! [`PALETTE_SLOTS`] states share that many colours: the states 1…W−2 are
//! spread evenly over the slots between the two ends, so a lit state never
//! looks off and only the fully-on state looks fully on.

use std::fmt;

/// A colour, 8 bits a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour `t` (0…1) of the way from `self` to `other`.
    #[must_use]
    pub fn lerp(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Rgb(mix(self.0, other.0), mix(self.1, other.1), mix(self.2, other.2))
    }
}

impl fmt::Display for Rgb {
    /// `#rrggbb`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Light states, from off to fully on (W > 2 interpolates along these).
pub const STATE_RAMP: [Rgb; 4] =
    [Rgb(0x1f, 0x24, 0x33), Rgb(0x55, 0x2c, 0x8a), Rgb(0xc8, 0x45, 0x78), Rgb(0xff, 0xd8, 0x4d)];

/// The most colours a board's states get (see the module's note).
pub const PALETTE_SLOTS: u32 = 1024;

/// How many colours W states get: W, at most [`PALETTE_SLOTS`].
#[must_use]
pub fn slots(w: u32) -> u32 {
    w.clamp(1, PALETTE_SLOTS)
}

/// The colour slot of state `v` of `w`: `v` itself up to
/// [`PALETTE_SLOTS`] states; beyond, 0 and W−1 keep the two ends and the
/// states between are spread over the slots between them.
#[must_use]
pub fn slot(v: u32, w: u32) -> u32 {
    if w <= PALETTE_SLOTS || v == 0 {
        return v;
    }
    if v >= w - 1 {
        return PALETTE_SLOTS - 1;
    }
    let inner = u64::from(PALETTE_SLOTS - 2);
    1 + (u64::from(v - 1) * inner / u64::from(w - 2)) as u32
}

/// The colour of slot `s` of `n` slots: dark for 0, bright for n−1.
fn slot_colour(s: u32, n: u32) -> Rgb {
    if s == 0 {
        return STATE_RAMP[0];
    }
    if n <= 2 || s >= n - 1 {
        return STATE_RAMP[3];
    }
    let t = f64::from(s) / f64::from(n - 1) * 3.0;
    let i = (t.floor() as usize).min(2);
    STATE_RAMP[i].lerp(STATE_RAMP[i + 1], t - i as f64)
}

/// The colour of light state `v` of `w`.
#[must_use]
pub fn state_colour(v: u32, w: u32) -> Rgb {
    slot_colour(slot(v, w), slots(w))
}

/// Every colour W states use, slot by slot (`slots(w)` of them): what the
/// play page gets, so that it colours a state exactly as `render` does.
#[must_use]
pub fn state_palette(w: u32) -> Vec<Rgb> {
    let n = slots(w);
    (0..n).map(|s| slot_colour(s, n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_ends_are_off_and_fully_on() {
        for w in [2, 3, 4, 12, 1024, 1025, 5000, u32::MAX] {
            assert_eq!(state_colour(0, w), STATE_RAMP[0], "W = {w}");
            assert_eq!(state_colour(w - 1, w), STATE_RAMP[3], "W = {w}");
        }
        assert_eq!(state_colour(1, 2).to_string(), "#ffd84d");
    }

    #[test]
    fn the_palette_is_every_states_colour() {
        for w in [2, 3, 4, 5, 12, 300, 1024] {
            let p = state_palette(w);
            assert_eq!(p.len(), w as usize);
            for v in 0..w {
                assert_eq!(p[v as usize], state_colour(v, w));
            }
        }
        for w in [1025, 4097, 1 << 20, u32::MAX] {
            let p = state_palette(w);
            assert_eq!(p.len(), PALETTE_SLOTS as usize);
            for v in [0, 1, 2, w / 3, w / 2, w - 2, w - 1] {
                assert_eq!(p[slot(v, w) as usize], state_colour(v, w), "v = {v}, W = {w}");
            }
        }
    }

    #[test]
    fn beyond_the_slots_a_lit_state_never_looks_off_or_fully_on() {
        for w in [1025, 1026, 10_000, u32::MAX] {
            let mut last = 0;
            for v in [1, 2, 3, w / 2, w - 3, w - 2] {
                let s = slot(v, w);
                assert!((1..PALETTE_SLOTS - 1).contains(&s), "v = {v}, W = {w}: slot {s}");
                assert!(s >= last, "slots rise with the state");
                last = s;
            }
        }
    }
}
