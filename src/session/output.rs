//! Where replies go: one shared, line-buffered sink, so that the session and the
//! search worker never interleave half lines.
//!
//! A task's copy of the output can also carry a token ([`Output::holding`]) whose
//! `Drop` tells the session that the task has ended: the task's thread drops its last
//! copy when it returns (or unwinds), after its last line, whatever way it ended.

use std::any::Any;
use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::protocol::response::Response;

/// A cloneable handle to the output stream.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// Kept alive while this output or a clone of it lives (see [`Output::holding`]).
    _token: Option<Arc<dyn Any + Send + Sync>>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Self {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            _token: None,
        }
    }

    /// The same output, holding `token` until this copy and every clone of it are
    /// dropped: give it to a task, and the token's `Drop` runs when the task is done
    /// with its output.
    pub fn holding(&self, token: impl Any + Send + Sync) -> Output {
        Output {
            sink: Arc::clone(&self.sink),
            _token: Some(Arc::new(token)),
        }
    }

    /// An output that collects everything in memory, and the buffer to read it from.
    pub fn capture() -> (Self, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = SharedBuffer(Arc::clone(&buffer));
        (Output::new(Box::new(writer)), buffer)
    }

    /// Writes one reply and flushes. A closed stdout is not an error worth dying for:
    /// the engine keeps going until it reads `quit` or the end of its input.
    pub fn send(&self, response: Response) {
        let text = response.to_string();
        // The transcripts' convention: `>` what the engine was sent, `<` what it says.
        log::debug!("< {text}");
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }
}

/// A `Write` into a shared byte buffer (for tests and in-process sessions).
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut buffer) => buffer.extend_from_slice(bytes),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(bytes),
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
