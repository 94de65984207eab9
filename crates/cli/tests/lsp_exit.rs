//! The exit status of `lights lsp`: 0 when `shutdown` came before `exit`,
//! 1 otherwise, as the LSP specification asks.

use std::process::Command;
use std::time::Duration;

use lights_test_client::Client;
use serde_json::{json, Value};

/// How long the process may take to exit after `exit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

fn spawn() -> Client {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    Client::spawn(command)
}

#[test]
fn exit_without_shutdown_ends_with_status_1() {
    // After `initialize`, and before it.
    for initialize in [true, false] {
        let mut lsp = spawn();
        if initialize {
            lsp.initialize(json!({}), Value::Null);
        }
        lsp.notify("exit", Value::Null);
        let status = lsp.wait_exit(EXIT_TIMEOUT).expect("the server did not exit after `exit`");
        assert_eq!(status.code(), Some(1), "initialized: {initialize}; stderr: {}", lsp.stderr());
    }
}

#[test]
fn exit_after_shutdown_ends_with_status_0() {
    let mut lsp = spawn();
    lsp.initialize(json!({}), Value::Null);
    // (Asserts status 0.)
    lsp.shutdown_and_exit();
}
