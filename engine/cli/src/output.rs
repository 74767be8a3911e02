//! Printing helpers: user-facing error lines and quiet handling of a
//! closed stdout (for example `jp inspect x.jar | head`).

use std::io;

/// Whether `error` is (caused by) writing to a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Prints `jp: <message>` on stderr for an input that failed, with the
/// whole chain of causes.
pub fn report_failure(error: &dyn std::error::Error) {
    eprintln!("jp: {}", jp_driver::error::chain(error));
}
