//! The locks that make runs on the same output directory (and on the same
//! cache) take turns: advisory `flock`s held for the whole run, released
//! when their files close, also when the process dies. The cache's lock is
//! always taken first, then the output directory's, so two runs cannot
//! wait for each other.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use fd_lock::{RwLock, RwLockWriteGuard};

use crate::cache::Cache;
use crate::error::EngineError;

/// A lock file, opened but not necessarily locked.
pub(super) struct Lock {
    path: PathBuf,
    file: RwLock<File>,
}

impl Lock {
    /// The lock of a cache directory.
    ///
    /// # Errors
    /// [`EngineError::Lock`] when its lock file cannot be opened.
    pub(super) fn of_cache(cache: &Cache) -> Result<Lock, EngineError> {
        let path = cache.lock_path();
        match cache.lock_file() {
            Ok(file) => Ok(Lock {
                path,
                file: RwLock::new(file),
            }),
            Err(source) => Err(EngineError::Lock { path, source }),
        }
    }

    /// The lock of an output directory.
    ///
    /// # Errors
    /// [`EngineError::Output`] when it cannot be opened.
    pub(super) fn of_output(output: &Path) -> Result<Lock, EngineError> {
        let (path, file) = output_lock_file(output).map_err(|source| EngineError::Output {
            path: output.to_owned(),
            source,
        })?;
        Ok(Lock {
            path,
            file: RwLock::new(file),
        })
    }

    /// Waits until this run holds the lock; it is let go when the guard drops.
    ///
    /// # Errors
    /// [`EngineError::Lock`] naming the lock file.
    pub(super) fn hold(&mut self) -> Result<RwLockWriteGuard<'_, File>, EngineError> {
        self.file.write().map_err(|source| EngineError::Lock {
            path: self.path.clone(),
            source,
        })
    }
}

/// What a run locks to keep other runs off its output directory: the
/// directory itself where it can be opened as a file (Unix), else a
/// `.jp-lock` file in it.
fn output_lock_file(output: &Path) -> io::Result<(PathBuf, File)> {
    if cfg!(unix) {
        Ok((output.to_owned(), File::open(output)?))
    } else {
        let path = output.join(".jp-lock");
        let file = fs::File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        Ok((path, file))
    }
}
