//! Child processes under bounds, so that a hung one fails a test instead of hanging
//! CI: waiting for the exit, and reading the output line by line.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ExitStatus};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Waits for `child` to exit; past `limit` it is killed and the test panics, naming
/// `what`.
pub fn wait_with_limit(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if began.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("{what} ran over {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The lines of `output` (a child's stdout), read on a thread of their own so that
/// [`until`] can wait for them with a bound.
pub fn lines_of(output: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Why [`until`] returned without its line, with the lines seen before.
#[derive(Debug)]
pub enum NotSeen {
    /// None came within the time.
    Timeout(Vec<String>),
    /// The output ended first.
    Closed(Vec<String>),
}

/// The lines up to and including the first one that `last` accepts, waiting at most
/// `patience` in all.
pub fn until(
    lines: &Receiver<String>,
    patience: Duration,
    last: impl Fn(&str) -> bool,
) -> Result<Vec<String>, NotSeen> {
    let deadline = Instant::now() + patience;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = last(&line);
                seen.push(line);
                if done {
                    return Ok(seen);
                }
            }
            Err(RecvTimeoutError::Timeout) => return Err(NotSeen::Timeout(seen)),
            Err(RecvTimeoutError::Disconnected) => return Err(NotSeen::Closed(seen)),
        }
    }
}
