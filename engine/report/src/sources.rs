//! The source lines of the hot methods, for the HTML report's Source view
//! (`jp report --sources DIR`): for each of the [`METHODS`] methods with
//! per-line counts that ran the most bytecodes, a window of its source file
//! around its counted lines, so that the page can show the counts in a
//! gutter beside the code.
//!
//! A profile names classes, not source files (it does not carry the
//! `SourceFile` attribute), so a method's file is looked up by its class:
//! `demo.Outer$Inner.run()V` in `DIR/demo/Outer.java`, then
//! `DIR/demo/Outer.kt`, then, for a Kotlin file class such as `demo.UtilKt`,
//! `DIR/demo/Util.kt`, in each directory in the order given. A file named
//! otherwise (a Kotlin `@file:JvmName`, several top-level classes in one
//! Java file) is not found, and its methods show their counts alone.
//!
//! Everything is bounded: at most [`METHODS`] methods, a window of at most
//! [`WINDOW_LINES`] lines each, [`MAX_LINE_CHARS`] characters a line, and
//! no file larger than [`MAX_FILE_BYTES`] is read. What is cut is said in
//! the method's note.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use jp_profile::{FrameId, Profile};

use crate::lines::{method_lines, MethodLines};

/// How many methods get their source at most.
pub const METHODS: usize = 20;
/// The most source lines shown for one method.
pub const WINDOW_LINES: u32 = 300;
/// Lines of source shown before the first counted line and after the last.
const MARGIN: u32 = 3;
/// A longer source line is cut at this many characters.
pub const MAX_LINE_CHARS: usize = 400;
/// A larger source file is not read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// One hot method's counts and, when its file was found, its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodSource {
    /// The method and its per-line counts.
    pub method: MethodLines,
    /// The source window, when the file was found and read.
    pub source: Option<SourceWindow>,
    /// What the reader should know: the file not found, too large, cut.
    pub note: Option<String>,
}

/// Consecutive lines of one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceWindow {
    /// The file, relative to the source directory it was found in, with `/`.
    pub file: String,
    /// The number of the window's first line, from 1.
    pub first: u32,
    /// The lines' text, without line breaks.
    pub lines: Vec<String>,
}

/// The [`METHODS`] hottest methods with per-line counts, each with its
/// source from `dirs` when found there. Empty for a profile without lines.
pub fn method_sources(profile: &Profile, dirs: &[PathBuf]) -> Vec<MethodSource> {
    let mut methods = method_lines(profile);
    methods.truncate(METHODS);
    methods
        .into_iter()
        .map(|method| {
            let (source, note) = source_of(profile, method.frame, &method.lines, dirs);
            MethodSource { method, source, note }
        })
        .collect()
}

/// The window of `frame`'s source around `lines`, and a note on what is missing or cut.
fn source_of(
    profile: &Profile,
    frame: FrameId,
    lines: &[(u32, u64)],
    dirs: &[PathBuf],
) -> (Option<SourceWindow>, Option<String>) {
    if dirs.is_empty() {
        return (None, None);
    }
    let Some(candidates) = candidate_files(profile.frame(frame)) else {
        return (None, None);
    };
    let Some((dir, file)) = find(dirs, &candidates) else {
        return (
            None,
            Some(format!(
                "no source found ({} in the source directories)",
                candidates.join(" or ")
            )),
        );
    };
    let text = match read_bounded(&dir.join(&file)) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return (
                None,
                Some(format!(
                    "{file} is larger than {} MiB: not shown",
                    MAX_FILE_BYTES >> 20
                )),
            )
        }
        Err(error) => return (None, Some(format!("{file} could not be read: {error}"))),
    };
    let (first_counted, last_counted) = match (lines.first(), lines.last()) {
        (Some(&(first, _)), Some(&(last, _))) => (first, last),
        _ => return (None, None),
    };
    let total = text.lines().count() as u32;
    let first = first_counted.saturating_sub(MARGIN).max(1);
    let wanted_last = last_counted.saturating_add(MARGIN).min(total);
    let last = wanted_last.min(first.saturating_add(WINDOW_LINES - 1));
    let mut notes = Vec::new();
    if last < wanted_last {
        notes.push(format!(
            "lines {}–{} left out (at most {WINDOW_LINES} lines are shown)",
            last + 1,
            wanted_last
        ));
    }
    if last_counted > total {
        notes.push(format!(
            "{file} has {total} lines but line {last_counted} is counted: it may not be the source of these classes"
        ));
    }
    let window: Vec<String> = if first > last {
        Vec::new()
    } else {
        text.lines()
            .skip(first as usize - 1)
            .take((last - first + 1) as usize)
            .map(cut)
            .collect()
    };
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    let source = (!window.is_empty()).then_some(SourceWindow {
        file,
        first,
        lines: window,
    });
    (source, note)
}

/// The files, relative to a source directory, that may hold the class of
/// `frame` (`pkg.Outer$Inner.m(desc)`); `None` for a frame that names no
/// method of a class (a test's frame).
fn candidate_files(frame: &str) -> Option<Vec<String>> {
    let head = frame.split('(').next()?;
    if !frame.contains('(') || frame.starts_with('[') {
        return None;
    }
    let (class, _method) = head.rsplit_once('.')?;
    let (package, simple) = class.rsplit_once('.').unwrap_or(("", class));
    let outer = simple.split('$').next().filter(|outer| !outer.is_empty())?;
    let dir = if package.is_empty() {
        String::new()
    } else {
        format!("{}/", package.replace('.', "/"))
    };
    let mut files = vec![format!("{dir}{outer}.java"), format!("{dir}{outer}.kt")];
    if let Some(file_class) = outer.strip_suffix("Kt").filter(|name| !name.is_empty()) {
        files.push(format!("{dir}{file_class}.kt"));
    }
    Some(files)
}

/// The first of `candidates` that is a file in one of `dirs`, in order.
fn find<'a>(dirs: &'a [PathBuf], candidates: &[String]) -> Option<(&'a Path, String)> {
    dirs.iter().find_map(|dir| {
        candidates
            .iter()
            .find(|file| dir.join(file).is_file())
            .map(|file| (dir.as_path(), file.clone()))
    })
}

/// The file's text (bytes that are not UTF-8 replaced), or `None` when it
/// is larger than [`MAX_FILE_BYTES`].
fn read_bounded(path: &Path) -> io::Result<Option<String>> {
    if fs::metadata(path)?.len() > MAX_FILE_BYTES {
        return Ok(None);
    }
    let bytes = fs::read(path)?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// `line` cut at [`MAX_LINE_CHARS`] characters, with an ellipsis.
fn cut(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn dir(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        dir
    }

    fn numbered(count: u32) -> String {
        (1..=count).map(|n| format!("line {n}\n")).collect()
    }

    /// One method, `frame`, with `lines` counted.
    fn sources_of(frame: &str, lines: &[(u32, u64)], dirs: &[PathBuf]) -> MethodSource {
        let mut p = profile(&[(&[frame], 1, 10)]);
        let id = p.frame_id(frame).unwrap();
        for &(line, bytecodes) in lines {
            p.add_line(id, line, bytecodes);
        }
        method_sources(&p, dirs).remove(0)
    }

    #[test]
    fn a_nested_class_is_looked_up_in_its_outer_class_file_with_a_window_around_the_counted_lines() {
        let src = dir(&[("demo/Outer.java", &numbered(40))]);
        let found = sources_of(
            "demo.Outer$Inner.run()V",
            &[(10, 5), (12, 7)],
            &[src.path().into()],
        );
        let source = found.source.unwrap();
        assert_eq!(source.file, "demo/Outer.java");
        assert_eq!(source.first, 7);
        assert_eq!(source.lines.first().unwrap(), "line 7");
        assert_eq!(source.lines.last().unwrap(), "line 15");
        assert_eq!(found.note, None);
    }

    #[test]
    fn directories_are_searched_in_order_and_kotlin_files_by_their_file_class() {
        let empty = dir(&[]);
        let kotlin = dir(&[("demo/Util.kt", "fun f() {\n  work()\n}\n")]);
        let dirs = [empty.path().into(), kotlin.path().into()];
        let found = sources_of("demo.UtilKt.f()V", &[(2, 4)], &dirs);
        let source = found.source.unwrap();
        assert_eq!((source.file.as_str(), source.first), ("demo/Util.kt", 1));
        assert_eq!(source.lines, ["fun f() {", "  work()", "}"]);
    }

    #[test]
    fn a_missing_file_gives_a_note_and_no_source() {
        let src = dir(&[]);
        let found = sources_of("demo.Gone.run()V", &[(3, 1)], &[src.path().into()]);
        assert_eq!(found.source, None);
        assert_eq!(
            found.note.unwrap(),
            "no source found (demo/Gone.java or demo/Gone.kt in the source directories)"
        );
        let without_dirs = sources_of("demo.Gone.run()V", &[(3, 1)], &[]);
        assert_eq!((without_dirs.source, without_dirs.note), (None, None));
    }

    #[test]
    fn lines_past_the_end_of_the_file_are_said_to_be_out_of_range() {
        let src = dir(&[("Main.java", &numbered(5))]);
        let found = sources_of("Main.main()V", &[(4, 2), (90, 3)], &[src.path().into()]);
        let source = found.source.unwrap();
        assert_eq!((source.first, source.lines.len()), (1, 5));
        assert_eq!(
            found.note.unwrap(),
            "Main.java has 5 lines but line 90 is counted: it may not be the source of these classes"
        );
    }

    #[test]
    fn a_wide_method_is_cut_to_a_bounded_window_and_long_lines_are_cut() {
        let mut text = numbered(1000);
        text.push_str(&"x".repeat(MAX_LINE_CHARS + 50));
        let src = dir(&[("demo/Big.java", &text)]);
        let found = sources_of("demo.Big.run()V", &[(10, 1), (900, 1)], &[src.path().into()]);
        let source = found.source.unwrap();
        assert_eq!((source.first, source.lines.len() as u32), (7, WINDOW_LINES));
        assert_eq!(
            found.note.unwrap(),
            "lines 307–903 left out (at most 300 lines are shown)"
        );
        let long = sources_of("demo.Big.run()V", &[(1001, 1)], &[src.path().into()]);
        let last = long.source.unwrap().lines.pop().unwrap();
        assert_eq!(last.chars().count(), MAX_LINE_CHARS + 1);
        assert!(last.ends_with('…'));
    }

    #[test]
    fn a_huge_file_is_not_read() {
        let src = dir(&[]);
        let file = fs::File::create(src.path().join("Huge.java")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let found = sources_of("Huge.run()V", &[(1, 1)], &[src.path().into()]);
        assert_eq!(found.source, None);
        assert_eq!(found.note.unwrap(), "Huge.java is larger than 4 MiB: not shown");
    }

    #[test]
    fn only_the_hottest_methods_get_sources_and_tests_have_no_file() {
        let frames: Vec<String> = (0..METHODS + 5).map(|n| format!("demo.C{n}.m()V")).collect();
        let mut p = Profile::new();
        for (n, frame) in frames.iter().enumerate() {
            p.add_path(&[frame.as_str()], 1, n as u64);
            let id = p.frame_id(frame).unwrap();
            p.add_line(id, 1, n as u64);
        }
        let sources = method_sources(&p, &[]);
        assert_eq!(sources.len(), METHODS);
        assert_eq!(p.frame(sources[0].method.frame), frames[METHODS + 4]);
        assert_eq!(candidate_files("[test] demo.T#t()"), None);
        assert_eq!(
            candidate_files("Main.main([Ljava/lang/String;)V").unwrap(),
            ["Main.java", "Main.kt"]
        );
    }
}
