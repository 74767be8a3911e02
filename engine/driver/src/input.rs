//! Reading inputs: a single class file, a directory tree, a jar (zip) or a
//! jmod (a zip behind a four-byte `JM` header). Each yields its entries
//! with a [`Location`] that names the file and, inside archives, the entry.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Where an input entry came from, displayed as `libs/app.jar!com/acme/Foo.class`
/// (`!` as in jar URLs) or as the plain path for files on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file on disk.
    pub file: PathBuf,
    /// The entry inside an archive, if the file is one.
    pub entry: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(entry) => write!(f, "{}!{}", self.file.display(), entry),
            None => write!(f, "{}", self.file.display()),
        }
    }
}

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A file or directory could not be read.
    #[error("{path}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// An archive is not a readable zip file.
    #[error("{location}: not a readable archive")]
    Archive {
        /// The archive (and entry, when one is to blame).
        location: Location,
        /// What the zip reader reported.
        #[source]
        source: zip::result::ZipError,
    },
    /// A symbolic link in a directory input leads to a directory that
    /// holds it: following it would never end.
    #[error("{}: symbolic link loop: it leads back to {}", path.display(), ancestor.display())]
    LinkLoop {
        /// The link.
        path: PathBuf,
        /// The directory it leads back to.
        ancestor: PathBuf,
    },
    /// A symbolic link in a directory input points to nothing.
    #[error("{}: symbolic link to {}, which does not exist", path.display(), target.display())]
    DanglingLink {
        /// The link.
        path: PathBuf,
        /// What it points to.
        target: PathBuf,
    },
    /// The path is neither a directory nor a `.class`, `.jar`, `.zip` or `.jmod` file.
    #[error("{path}: not a class file, directory, jar or jmod")]
    UnknownKind {
        /// The path given.
        path: PathBuf,
    },
}

/// What kind of input a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A single `.class` file.
    ClassFile,
    /// A directory tree.
    Directory,
    /// A zip archive: `.jar`, `.zip`, `.war`.
    Jar,
    /// A JDK `.jmod` file.
    Jmod,
}

/// The bytes before the zip data of a jmod file.
const JMOD_HEADER: &[u8] = b"JM\x01\x00";

/// One file of an input.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Where it came from.
    pub location: Location,
    /// Its path relative to the input root, `/`-separated (for a single
    /// class file, its file name).
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

impl Entry {
    /// Whether the entry is named like a class file.
    pub fn is_class(&self) -> bool {
        self.name.ends_with(".class")
    }
}

/// A file of a directory input, not read yet.
#[derive(Debug, Clone)]
pub struct DirFile {
    /// The file on disk (the input's path joined with `name`).
    pub path: PathBuf,
    /// Its path relative to the input root, `/`-separated.
    pub name: String,
}

/// An input path and its kind.
#[derive(Debug, Clone)]
pub struct Input {
    path: PathBuf,
    kind: InputKind,
}

impl Input {
    /// Determines the kind of `path`.
    ///
    /// # Errors
    /// When the path does not exist or is of an unknown kind.
    pub fn open(path: &Path) -> Result<Self, InputError> {
        let metadata = fs::metadata(path).map_err(|source| InputError::Io {
            path: path.to_owned(),
            source,
        })?;
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let kind = if metadata.is_dir() {
            InputKind::Directory
        } else {
            match extension.as_deref() {
                Some("class") => InputKind::ClassFile,
                Some("jar" | "zip" | "war") => InputKind::Jar,
                Some("jmod") => InputKind::Jmod,
                _ => {
                    return Err(InputError::UnknownKind {
                        path: path.to_owned(),
                    })
                }
            }
        };
        Ok(Input {
            path: path.to_owned(),
            kind,
        })
    }

    /// The path given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its kind.
    pub fn kind(&self) -> InputKind {
        self.kind
    }

    /// Every file of the input, in a stable order (directory entries sorted
    /// by name, archive entries in archive order). Directory entries inside
    /// archives are skipped.
    ///
    /// # Errors
    /// Opening the input fails as a whole; a single unreadable entry is an
    /// `Err` item and the rest still follow.
    pub fn entries(&self) -> Result<Box<dyn Iterator<Item = Result<Entry, InputError>> + '_>, InputError> {
        match self.kind {
            InputKind::ClassFile => {
                let name = self
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let entry = read_file(&self.path).map(|bytes| Entry {
                    location: Location {
                        file: self.path.clone(),
                        entry: None,
                    },
                    name,
                    bytes,
                });
                Ok(Box::new(std::iter::once(entry)))
            }
            InputKind::Directory => Ok(Box::new(self.directory_entries())),
            InputKind::Jar | InputKind::Jmod => self.archive_entries(),
        }
    }

    /// The files of a directory input, sorted by name, without reading
    /// them (for any other kind: nothing). Symbolic links are followed, to
    /// files and directories alike, as the JVM's class loaders follow them;
    /// a link that loops or points to nothing is an `Err` item naming it.
    pub fn files(&self) -> impl Iterator<Item = Result<DirFile, InputError>> + '_ {
        let walk = (self.kind == InputKind::Directory).then(|| {
            walkdir::WalkDir::new(&self.path)
                .follow_links(true)
                .sort_by_file_name()
                .into_iter()
        });
        walk.into_iter().flatten().filter_map(move |item| {
            let item = match item {
                Ok(item) => item,
                Err(e) => return Some(Err(self.walk_error(e))),
            };
            if !item.file_type().is_file() {
                return None;
            }
            let relative = item.path().strip_prefix(&self.path).unwrap_or(item.path());
            let name = match relative.to_str() {
                // The walk joins names with the separator: `/` already on Unix.
                Some(name) if std::path::MAIN_SEPARATOR == '/' => name.to_owned(),
                _ => relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/"),
            };
            Some(Ok(DirFile {
                path: item.into_path(),
                name,
            }))
        })
    }

    /// What went wrong while walking this directory input.
    fn walk_error(&self, error: walkdir::Error) -> InputError {
        let path = error.path().unwrap_or(&self.path).to_owned();
        if let Some(ancestor) = error.loop_ancestor() {
            return InputError::LinkLoop {
                ancestor: ancestor.to_owned(),
                path,
            };
        }
        let dangling = error
            .io_error()
            .is_some_and(|e| e.kind() == io::ErrorKind::NotFound);
        if let (true, Ok(target)) = (dangling, fs::read_link(&path)) {
            return InputError::DanglingLink { path, target };
        }
        let source = error
            .into_io_error()
            .unwrap_or_else(|| io::Error::other("cannot walk the directory"));
        InputError::Io { path, source }
    }

    fn directory_entries(&self) -> impl Iterator<Item = Result<Entry, InputError>> + '_ {
        self.files().map(|file| {
            let file = file?;
            let bytes = read_file(&file.path)?;
            Ok(Entry {
                location: Location {
                    file: file.path,
                    entry: None,
                },
                name: file.name,
                bytes,
            })
        })
    }

    fn archive_entries(
        &self,
    ) -> Result<Box<dyn Iterator<Item = Result<Entry, InputError>> + '_>, InputError> {
        self.archive_entries_of(read_file(&self.path)?)
    }

    /// The entries of a jar or jmod input whose file holds `bytes` (read by
    /// the caller, to hash them first), as [`Input::entries`] gives them.
    ///
    /// # Errors
    /// When the bytes are not a readable archive; a single unreadable
    /// entry is an `Err` item and the rest still follow.
    pub fn archive_entries_of(
        &self,
        bytes: Vec<u8>,
    ) -> Result<Box<dyn Iterator<Item = Result<Entry, InputError>> + '_>, InputError> {
        let mut archive = self.archive_of(bytes)?;
        let mut index = 0;
        Ok(Box::new(std::iter::from_fn(move || {
            while index < archive.len() {
                index += 1;
                if let Some(entry) = self.archive_entry(&mut archive, index - 1) {
                    return Some(entry);
                }
            }
            None
        })))
    }

    /// The archive of a jar or jmod input whose file holds `bytes`.
    ///
    /// # Errors
    /// When the bytes are not a readable archive.
    pub fn archive_of(&self, mut bytes: Vec<u8>) -> Result<InputArchive, InputError> {
        if self.kind == InputKind::Jmod && bytes.starts_with(JMOD_HEADER) {
            bytes.drain(..JMOD_HEADER.len());
        }
        zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(|source| InputError::Archive {
            location: Location {
                file: self.path.clone(),
                entry: None,
            },
            source,
        })
    }

    /// The entry at `index` of this input's `archive`, read; `None` for a
    /// directory entry.
    pub fn archive_entry(
        &self,
        archive: &mut InputArchive,
        index: usize,
    ) -> Option<Result<Entry, InputError>> {
        let mut file = match archive.by_index(index) {
            Ok(file) => file,
            Err(source) => {
                return Some(Err(InputError::Archive {
                    location: Location {
                        file: self.path.clone(),
                        entry: None,
                    },
                    source,
                }))
            }
        };
        if file.is_dir() {
            return None;
        }
        let name = String::from_utf8_lossy(file.name_raw()).into_owned();
        let location = Location {
            file: self.path.clone(),
            entry: Some(name.clone()),
        };
        let mut contents = Vec::with_capacity(file.size().min(1 << 26) as usize);
        Some(match file.read_to_end(&mut contents) {
            Ok(_) => Ok(Entry {
                location,
                name,
                bytes: contents,
            }),
            Err(e) => Err(InputError::Archive {
                location,
                source: e.into(),
            }),
        })
    }
}

/// A jar or jmod, read into memory (a jmod without its header).
pub type InputArchive = zip::ZipArchive<io::Cursor<Vec<u8>>>;

fn read_file(path: &Path) -> Result<Vec<u8>, InputError> {
    fs::read(path).map_err(|source| InputError::Io {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jar_entries_carry_their_location() {
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("app.jar");
        fs::write(
            &jar,
            jp_testdata::jar(&[("a/B.class", b"xyz"), ("META-INF/MANIFEST.MF", b"m")]),
        )
        .unwrap();
        let input = Input::open(&jar).unwrap();
        let entries: Vec<Entry> = input.entries().unwrap().map(Result::unwrap).collect();
        assert_eq!(entries.len(), 2);
        assert!(entries[0].is_class());
        assert_eq!(entries[0].bytes, b"xyz");
        assert_eq!(
            entries[0].location.to_string(),
            format!("{}!a/B.class", jar.display())
        );
    }

    #[test]
    fn jmod_header_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let jmod = dir.path().join("m.jmod");
        fs::write(
            &jmod,
            [JMOD_HEADER, &jp_testdata::jar(&[("classes/x/Y.class", b"1")])].concat(),
        )
        .unwrap();
        let input = Input::open(&jmod).unwrap();
        assert_eq!(input.kind(), InputKind::Jmod);
        let names: Vec<String> = input.entries().unwrap().map(|e| e.unwrap().name).collect();
        assert_eq!(names, ["classes/x/Y.class"]);
    }

    #[test]
    fn directory_entries_are_sorted_and_relative() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("b/c")).unwrap();
        fs::write(dir.path().join("b/c/Z.class"), b"z").unwrap();
        fs::write(dir.path().join("a.txt"), b"a").unwrap();
        let input = Input::open(dir.path()).unwrap();
        let names: Vec<String> = input.entries().unwrap().map(|e| e.unwrap().name).collect();
        assert_eq!(names, ["a.txt", "b/c/Z.class"]);
    }

    #[test]
    fn a_corrupt_jar_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("broken.jar");
        fs::write(&jar, b"PK\x03\x04 not really").unwrap();
        let err = Input::open(&jar).unwrap().entries().err().unwrap();
        assert!(err
            .to_string()
            .starts_with(&format!("{}: not a readable archive", jar.display())));
    }

    #[test]
    fn unknown_file_kinds_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        fs::write(&file, b"x").unwrap();
        assert!(matches!(Input::open(&file), Err(InputError::UnknownKind { .. })));
    }
}
