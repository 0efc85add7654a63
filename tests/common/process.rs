//! Child processes under bounds, so that a hung one fails a test instead of hanging
//! CI: waiting for the exit, reading the output line by line, and [`Engine`], the
//! binary driven over pipes as an arena drives it.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
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

/// An engine process driven over pipes: lines sent to its stdin, its stdout read with
/// a bound on every wait, its stderr dropped. Killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    patience: Duration,
}

impl Engine {
    /// This crate's `tabuleiro` binary with `args`; every wait bounded by `patience`.
    pub fn start(args: &[&str], patience: Duration) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tabuleiro"));
        command.args(args);
        Engine::spawn(command, patience)
    }

    /// `command` (stdin and stdout are piped here, stderr dropped).
    pub fn spawn(mut command: Command, patience: Duration) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let lines = lines_of(child.stdout.take().expect("stdout is piped"));
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            patience,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Raw bytes, as they are (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        match until(&self.lines, self.patience, |line| line.starts_with(prefix)) {
            Ok(seen) => seen,
            Err(NotSeen::Timeout(seen)) => panic!("no '{prefix}' line; saw {seen:?}"),
            Err(NotSeen::Closed(seen)) => {
                panic!("engine closed stdout before '{prefix}'; saw {seen:?}")
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`, waiting at most
    /// `patience` (a tighter bound, for what must be prompt).
    pub fn within(&self, patience: Duration, prefix: &str) -> Vec<String> {
        match until(&self.lines, patience, |line| line.starts_with(prefix)) {
            Ok(seen) => seen,
            Err(NotSeen::Timeout(seen) | NotSeen::Closed(seen)) => {
                panic!("no '{prefix}' line within {patience:?}; saw {seen:?}")
            }
        }
    }

    /// Lines that arrive within `window`.
    pub fn lines_within(&self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The exit code, waiting at most the patience (-1 for a signal).
    pub fn exit_code(&mut self) -> i32 {
        let status = wait_with_limit(&mut self.child, self.patience, "the engine's exit");
        status.code().unwrap_or(-1)
    }

    /// Sends `quit` and checks that the engine exits with status 0.
    pub fn quit(mut self) {
        self.send("quit");
        let status = wait_with_limit(&mut self.child, self.patience, "the engine");
        assert!(status.success(), "the engine exited with {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
