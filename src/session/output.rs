//! Where replies go: one shared, line-buffered sink, so that the session and the
//! search worker never interleave half lines.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::protocol::response::Response;

/// A cloneable handle to the output stream.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Self {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
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
        log::debug!("> {text}");
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
