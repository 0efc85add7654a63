//! One engine as a child process: its stdin for commands, its stdout read on a reader
//! thread into a channel, so that every wait has a deadline and nothing blocks forever.
//!
//! - Lines are stamped with the time they were read on the reader thread, so the
//!   referee's clock is not charged for its own scheduling delays.
//! - The channel is bounded: an engine that floods its output blocks on its own pipe
//!   rather than filling our memory; over-long lines are cut at [`MAX_LINE_BYTES`].
//! - stderr is read on a second thread and logged at `debug` level; its last lines
//!   are kept, to be shown when the engine crashes or does not start.
//! - With a traffic log (`--log-dir`) every line sent (`>`), read (`<`) and printed
//!   on stderr (`!`) is written to the engine's file as it happens.
//! - Dropping an [`EngineProcess`] kills the child and reaps it.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, LineWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Output lines longer than this are cut (the rest of the line is skipped).
pub const MAX_LINE_BYTES: usize = 1 << 16;
/// Lines buffered between the reader thread and the referee.
const CHANNEL_LINES: usize = 1024;
/// stderr lines kept to show when the engine fails.
const STDERR_LINES: usize = 8;

/// A traffic log shared by an engine's threads.
type TrafficLog = Arc<Mutex<LineWriter<File>>>;

fn log_line(log: Option<&TrafficLog>, mark: &str, line: &str) {
    if let Some(log) = log
        && let Ok(mut file) = log.lock()
    {
        // A log that cannot be written must not stop the game.
        let _ = writeln!(file, "{mark} {line}");
    }
}

/// What the reader thread saw.
#[derive(Debug)]
enum Event {
    Line(String, Instant),
    /// End of output: the engine exited or closed stdout.
    Eof,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine's output ended or its input could not be written: it is gone.
    Crashed(String),
    /// No awaited line came before the deadline.
    Timeout(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(what) => write!(f, "engine crashed: {what}"),
            EngineError::Timeout(what) => write!(f, "engine timed out: {what}"),
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Set once the reader saw the end of output.
    ended: bool,
    /// The last lines of stderr, and whether stderr has ended.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Arc<AtomicBool>,
    log: Option<TrafficLog>,
}

impl EngineProcess {
    /// Starts `program args…` with piped stdin/stdout. `name` is only for logs.
    pub fn spawn(name: &str, program: &Path, args: &[String]) -> Result<EngineProcess, String> {
        Self::spawn_logged(name, program, args, None)
    }

    /// [`spawn`](Self::spawn), writing the traffic to `log` (a new file) if given.
    pub fn spawn_logged(
        name: &str,
        program: &Path,
        args: &[String],
        log: Option<&Path>,
    ) -> Result<EngineProcess, String> {
        let log: Option<TrafficLog> = match log {
            Some(path) => Some(Arc::new(Mutex::new(LineWriter::new(
                File::create(path)
                    .map_err(|e| format!("cannot create the log '{}': {e}", path.display()))?,
            )))),
            None => None,
        };
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_done = Arc::new(AtomicBool::new(false));
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", program.display()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (sender, events) = mpsc::sync_channel(CHANNEL_LINES);
        let spawned = match stdout {
            Some(stdout) => {
                let label = name.to_string();
                let log = log.clone();
                thread::Builder::new()
                    .name(format!("{name}-stdout"))
                    .spawn(move || read_stdout(stdout, sender, &label, log.as_ref()))
                    .is_ok()
            }
            None => false,
        };
        if let Some(stderr) = stderr {
            let label = name.to_string();
            let (tail, done, log) = (stderr_tail.clone(), stderr_done.clone(), log.clone());
            // Best effort: without this thread stderr is simply not logged.
            let _ = thread::Builder::new()
                .name(format!("{name}-stderr"))
                .spawn(move || {
                    log_stderr(stderr, &label, &tail, log.as_ref());
                    done.store(true, Ordering::Release);
                });
        }
        let mut process = EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            events,
            ended: false,
            stderr_tail,
            stderr_done,
            log,
        };
        if !spawned {
            process.kill();
            return Err(format!("cannot read the output of '{}'", program.display()));
        }
        Ok(process)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.name);
        log_line(self.log.as_ref(), ">", line);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("its input is closed".to_string()))?;
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        match written {
            Ok(()) => Ok(()),
            // Gone: say how it ended and what it last said on stderr.
            Err(e) => Err(EngineError::Crashed(format!(
                "cannot write '{line}': {e}{}",
                self.exit_note()
            ))),
        }
    }

    /// Reads lines until one satisfies `wanted` (returned with the time it was read),
    /// the output ends, or `deadline` passes. `what` names the awaited line in errors.
    pub fn wait_for(
        &mut self,
        what: &str,
        deadline: Instant,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<(String, Instant), EngineError> {
        loop {
            if self.ended {
                return Err(EngineError::Crashed(format!(
                    "its output ended while waiting for {what}{}",
                    self.exit_note()
                )));
            }
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.events.recv_timeout(left) {
                Ok(Event::Line(line, at)) => {
                    log::debug!("{} > {line}", self.name);
                    if wanted(&line) {
                        return Ok((line, at));
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => self.ended = true,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout(format!("no {what}")));
                }
            }
        }
    }

    /// Throws away lines already read (stale output from before the next command).
    pub fn drain(&mut self) {
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(line, _)) => log::debug!("{} > {line} (ignored)", self.name),
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    self.ended = true;
                    return;
                }
                Err(TryRecvError::Empty) => return,
            }
        }
    }

    /// Whether the process is known to have ended.
    pub fn is_dead(&mut self) -> bool {
        self.drain();
        self.ended || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Asks the engine to quit, waits up to `grace` for it, then kills it.
    pub fn quit(mut self, grace: Duration) {
        // A failed write means it is gone already; the kill below reaps it either way.
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the engine and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            // Errors mean it has exited meanwhile.
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        self.ended = true;
    }

    fn exit_note(&mut self) -> String {
        // Give a crashing process a moment to be reaped so its status can be told.
        let mut note = String::new();
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                note = format!(" ({status})");
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        note + &self.stderr_note()
    }

    /// `; its last stderr lines: 'a' | 'b'`, or nothing when it printed none. Waits a
    /// moment for stderr to end when the process has ended.
    pub fn stderr_note(&mut self) -> String {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            for _ in 0..40 {
                if self.stderr_done.load(Ordering::Acquire) {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        let lines: Vec<String> = match self.stderr_tail.lock() {
            Ok(tail) => tail.iter().map(|l| format!("'{l}'")).collect(),
            Err(_) => Vec::new(),
        };
        if lines.is_empty() {
            String::new()
        } else {
            format!("; its last stderr lines: {}", lines.join(" | "))
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`] (the rest is skipped); `None` at the end.
fn read_line_capped<R: BufRead>(reader: &mut R) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return any.then_some(line),
        };
        if buffer.is_empty() {
            return any.then_some(line);
        }
        any = true;
        let (chunk, used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], end + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Some(line);
        }
    }
}

fn read_stdout(stdout: impl Read, sender: SyncSender<Event>, name: &str, log: Option<&TrafficLog>) {
    let mut reader = BufReader::new(stdout);
    while let Some(bytes) = read_line_capped(&mut reader) {
        let text = String::from_utf8_lossy(&bytes);
        let line = text.trim_end_matches('\r').to_string();
        log_line(log, "<", &line);
        if sender.send(Event::Line(line, Instant::now())).is_err() {
            return;
        }
    }
    log::debug!("{name}: end of output");
    // The referee may be gone already; nothing to do then.
    let _ = sender.send(Event::Eof);
}

fn log_stderr(
    stderr: impl Read,
    name: &str,
    tail: &Mutex<VecDeque<String>>,
    log: Option<&TrafficLog>,
) {
    let mut reader = BufReader::new(stderr);
    while let Some(bytes) = read_line_capped(&mut reader) {
        let text = String::from_utf8_lossy(&bytes);
        let line: String = text.trim_end().chars().take(300).collect();
        log::debug!("{name} stderr: {line}");
        log_line(log, "!", &line);
        if line.is_empty() {
            continue;
        }
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_rest_skipped() {
        let mut text = vec![b'a'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nnext\nlast");
        let mut reader = std::io::Cursor::new(text);
        assert_eq!(
            read_line_capped(&mut reader).map(|l| l.len()),
            Some(MAX_LINE_BYTES)
        );
        assert_eq!(read_line_capped(&mut reader), Some(b"next".to_vec()));
        assert_eq!(read_line_capped(&mut reader), Some(b"last".to_vec()));
        assert_eq!(read_line_capped(&mut reader), None);
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let result = EngineProcess::spawn("x", Path::new("/no/such/engine"), &[]);
        assert!(result.is_err());
    }
}
