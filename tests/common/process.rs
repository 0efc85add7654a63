//! Waiting for a child process with a bound, so that a hung one fails a test instead
//! of hanging CI.

use std::process::{Child, ExitStatus};
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
