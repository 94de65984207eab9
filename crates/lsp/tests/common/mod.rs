//! The server in this process, behind its real transport: the shared test
//! client (`lights-test-client`) speaks LSP frames to it over a socket
//! pair, as it speaks to the `lights lsp` binary in the command line's
//! tests. Tests swap the analysis or the solver through `Options`.

#![allow(dead_code)]

use std::os::unix::net::UnixStream;
use std::thread::JoinHandle;
use std::time::Duration;

pub(crate) use lights_lsp::{Ending, Options, Stats};
pub(crate) use lights_test_client::*;
use serde_json::Value;

pub(crate) const URI: &str = "file:///work/test.lights";

/// A server with `options`, initialized with `caps` and `init_options`.
pub(crate) fn start_with(options: Options, caps: Value, init_options: Value) -> (Client, Stats) {
    let (mut client, stats) = connect(options);
    client.initialize(caps, init_options);
    (client, stats)
}

/// A server with `options` and a modern editor's capabilities.
pub(crate) fn start(options: Options) -> (Client, Stats) {
    start_with(options, capabilities(false), Value::Null)
}

/// A server with `options`, not initialized.
pub(crate) fn connect(options: Options) -> (Client, Stats) {
    let (client, stats, _) = connect_and_watch(options);
    (client, stats)
}

/// [`connect`], and the thread serving, which ends with how the session ended.
pub(crate) fn connect_and_watch(options: Options) -> (Client, Stats, JoinHandle<Ending>) {
    let (ours, theirs) = UnixStream::pair().expect("a socket pair");
    let (service, socket) = lights_lsp::service(options);
    let stats = service.inner().stats();
    let serving = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let ending = runtime.block_on(async move {
            theirs.set_nonblocking(true).expect("non-blocking socket");
            let stream = tokio::net::UnixStream::from_std(theirs).expect("a tokio socket");
            let (input, output) = stream.into_split();
            lights_lsp::serve(input, output, service, socket).await
        });
        // Do not wait for solves still running: the client has gone.
        runtime.shutdown_timeout(Duration::from_millis(100));
        ending
    });
    let reader = ours.try_clone().expect("a second handle");
    (Client::over(reader, ours), stats, serving)
}

pub(crate) fn example(name: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(name)).unwrap()
}
