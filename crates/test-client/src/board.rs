//! The play page's board (`lights/board` from the server, `GET
//! /api/puzzle/N` from `lights play`: the same plain data) as the tests
//! read it.

use serde_json::Value;

/// The lights after pressing each cell `presses[i]` times, by the board's
/// own press patterns (`presses[cell]` = `[[target, weight], …]`), mod W.
pub fn play(board: &Value, lights: &[u64], presses: &[u64]) -> Vec<u64> {
    let w = board["states"].as_u64().expect("states");
    let mut out = lights.to_vec();
    for (cell, &n) in presses.iter().enumerate() {
        for entry in board["presses"][cell].as_array().expect("a press pattern per cell") {
            let (t, weight) = (entry[0].as_u64().expect("a cell") as usize, entry[1].as_u64().expect("a weight"));
            out[t] = (out[t] + weight * n) % w;
        }
    }
    out
}

/// A JSON array of whole numbers.
pub fn numbers(v: &Value) -> Vec<u64> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}")).iter().map(|x| x.as_u64().expect("a number")).collect()
}
