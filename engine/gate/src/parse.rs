//! Reading a baseline file back, refusing anything that is not exactly the
//! format: a bad line, entries out of order or twice, a missing `end`.

use std::path::Path;

use crate::baseline::{Baseline, Counts, Kind, FORMAT_VERSION, MAGIC};
use crate::GateError;
use jp_report::metric::MetricName;

/// Reads the baseline at `path`.
///
/// # Errors
/// [`GateError::MissingBaseline`] when there is no file,
/// [`GateError::ReadBaseline`] when it cannot be read, and
/// [`GateError::Malformed`] (with the line) when it is not a whole baseline.
pub fn read(path: &Path) -> Result<Baseline, GateError> {
    let bytes = std::fs::read(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => GateError::MissingBaseline {
            path: path.to_owned(),
        },
        _ => GateError::ReadBaseline {
            path: path.to_owned(),
            source,
        },
    })?;
    parse(&bytes, path)
}

/// Parses a baseline's bytes; `path` names it in errors.
///
/// # Errors
/// [`GateError::Malformed`], naming the first bad line.
pub fn parse(bytes: &[u8], path: &Path) -> Result<Baseline, GateError> {
    let malformed = |line: usize, message: String| GateError::Malformed {
        path: path.to_owned(),
        line,
        message,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        malformed(line, "not UTF-8 text".into())
    })?;
    let text = text.replace("\r\n", "\n");
    let mut lines = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line));
    let mut baseline = Baseline::default();
    let mut header_line = 0;
    let mut last: Option<(Kind, String)> = None;
    let mut seen_floor = false;
    for (number, raw) in lines.by_ref() {
        let Some(line) = raw.strip_suffix('\n') else {
            return Err(malformed(number, "truncated: the line has no line break".into()));
        };
        let fail = |message: &str| Err(malformed(number, message.to_owned()));
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        match keyword {
            _ if number == 1 => {
                if keyword != MAGIC {
                    return fail("not a JP baseline: the first line is not `jp-baseline <version>`");
                }
                match rest.parse::<u32>() {
                    Ok(FORMAT_VERSION) => header_line = 1,
                    Ok(version) => {
                        return Err(malformed(
                            number,
                            format!("baseline format {version}; this JP reads format {FORMAT_VERSION}"),
                        ))
                    }
                    Err(_) => return fail("the version is not a number"),
                }
            }
            "setting" if last.is_none() && !seen_floor => {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let value = unescape(value).ok_or_else(|| malformed(number, "a bad `\\` escape".into()))?;
                let settings = &mut baseline.settings;
                match key {
                    "engine" => settings.engine = value,
                    "bba" => settings.bba = value,
                    "include" => settings.includes.push(value),
                    "exclude" => settings.excludes.push(value),
                    _ => return Err(malformed(number, format!("unknown setting `{key}`"))),
                }
            }
            "metric" if last.is_none() && !seen_floor => {
                let name = unescape(rest).ok_or_else(|| malformed(number, "a bad `\\` escape".into()))?;
                if name != "calls" && !jp_profile::valid_metric_name(&name) {
                    return Err(malformed(
                        number,
                        format!("`{name}` cannot be a baseline's metric (a baseline of bytecodes has no `metric` line)"),
                    ));
                }
                baseline.metric = MetricName::parse(&name);
            }
            "method-floor" if last.is_none() && !seen_floor => {
                baseline.method_floor = rest
                    .parse()
                    .map_err(|_| malformed(number, format!("`{rest}` is not a number")))?;
                seen_floor = true;
            }
            "test" | "method" if seen_floor => {
                let kind = if keyword == "test" {
                    Kind::Test
                } else {
                    Kind::Method
                };
                let mut fields = rest.splitn(3, ' ');
                let mut count = |what: &str| {
                    let field = fields.next().unwrap_or("");
                    field
                        .parse::<u64>()
                        .map_err(|_| malformed(number, format!("the {what} `{field}` is not a count")))
                };
                let counts = Counts {
                    value: count(baseline.metric.name())?,
                    calls: count("calls")?,
                };
                let name = fields
                    .next()
                    .filter(|name| !name.is_empty())
                    .ok_or_else(|| malformed(number, "the entry has no name".into()))?;
                let name = unescape(name).ok_or_else(|| malformed(number, "a bad `\\` escape".into()))?;
                let key = (kind, name);
                if last.as_ref().is_some_and(|last| *last >= key) {
                    return fail(
                        "entries out of order or repeated: tests, then methods, each sorted by name",
                    );
                }
                baseline.entries.insert(key.clone(), counts);
                last = Some(key);
            }
            "end" if seen_floor => {
                if rest.parse::<usize>().ok() != Some(baseline.entries.len()) {
                    return Err(malformed(
                        number,
                        format!(
                            "`end {rest}` does not match the {} entries above it",
                            baseline.entries.len()
                        ),
                    ));
                }
                if let Some((extra, _)) = lines.next() {
                    return Err(malformed(extra, "text after the `end` record".into()));
                }
                return Ok(baseline);
            }
            _ => return Err(malformed(number, format!("unexpected `{keyword}` record here"))),
        }
    }
    let lines_read = text.lines().count().max(header_line);
    Err(malformed(
        lines_read + 1,
        "truncated: the file ends without its `end` record".into(),
    ))
}

/// `name` with the escapes of [`crate::baseline::escape`] undone; `None` for a bad escape.
fn unescape(name: &str) -> Option<String> {
    if !name.contains('\\') {
        return Some(name.to_owned());
    }
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            '\\' => '\\',
            'n' => '\n',
            'r' => '\r',
            _ => return None,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse(text.as_bytes(), "jp-baseline.txt".as_ref())
            .unwrap_err()
            .to_string()
    }

    const GOOD: &str = "jp-baseline 1\nsetting engine 0.1.0\nsetting bba precise\nmethod-floor 0\n\
                        test 5 1 a.T#t()\nmethod 5 1 a.A.a()V\nend 2\n";

    #[test]
    fn a_whole_baseline_parses() {
        let baseline = parse(GOOD.as_bytes(), "b".as_ref()).unwrap();
        assert_eq!(baseline.entries.len(), 2);
        assert_eq!(baseline.settings.bba, "precise");
        let crlf = GOOD.replace('\n', "\r\n");
        assert_eq!(parse(crlf.as_bytes(), "b".as_ref()).unwrap(), baseline);
    }

    #[test]
    fn a_truncated_baseline_is_refused_naming_the_file_and_line() {
        assert_eq!(
            error(&GOOD[..GOOD.len() - "end 2\n".len()]),
            "jp-baseline.txt:7: truncated: the file ends without its `end` record"
        );
        assert_eq!(
            error(&GOOD[..GOOD.len() - 3]),
            "jp-baseline.txt:7: truncated: the line has no line break"
        );
        assert_eq!(
            error(""),
            "jp-baseline.txt:1: truncated: the file ends without its `end` record"
        );
    }

    #[test]
    fn a_malformed_baseline_is_refused_naming_the_file_and_line() {
        let cases = [
            ("jp-profile 1\n", "jp-baseline.txt:1: not a JP baseline: the first line is not `jp-baseline <version>`"),
            ("jp-baseline 2\n", "jp-baseline.txt:1: baseline format 2; this JP reads format 1"),
            (
                "jp-baseline 1\nmethod-floor 0\ntest x 1 a\nend 1\n",
                "jp-baseline.txt:3: the bytecodes `x` is not a count",
            ),
            ("jp-baseline 1\nmethod-floor 0\ntest 1 1\nend 1\n", "jp-baseline.txt:3: the entry has no name"),
            (
                "jp-baseline 1\nmethod-floor 0\nmethod 1 1 b\nmethod 1 1 a\nend 2\n",
                "jp-baseline.txt:4: entries out of order or repeated: tests, then methods, each sorted by name",
            ),
            (
                "jp-baseline 1\nmethod-floor 0\nmethod 1 1 a\ntest 1 1 a\nend 2\n",
                "jp-baseline.txt:4: entries out of order or repeated: tests, then methods, each sorted by name",
            ),
            ("jp-baseline 1\nmethod-floor 0\nend 1\n", "jp-baseline.txt:3: `end 1` does not match the 0 entries above it"),
            (
                "jp-baseline 1\nmetric allocations\nmethod-floor 0\ntest x 1 a\nend 1\n",
                "jp-baseline.txt:4: the allocations `x` is not a count",
            ),
            (
                "jp-baseline 1\nmetric bytecodes\nmethod-floor 0\nend 0\n",
                "jp-baseline.txt:2: `bytecodes` cannot be a baseline's metric (a baseline of bytecodes has no `metric` line)",
            ),
            (
                "jp-baseline 1\nmethod-floor 0\nmetric allocations\nend 0\n",
                "jp-baseline.txt:3: unexpected `metric` record here",
            ),
            ("jp-baseline 1\nmethod-floor 0\nend 0\nx\n", "jp-baseline.txt:4: text after the `end` record"),
            ("jp-baseline 1\nsetting colour red\n", "jp-baseline.txt:2: unknown setting `colour`"),
            ("jp-baseline 1\ntest 1 1 a\n", "jp-baseline.txt:2: unexpected `test` record here"),
            ("jp-baseline 1\nmethod-floor 0\nmethod 1 1 a\\q\nend 1\n", "jp-baseline.txt:3: a bad `\\` escape"),
        ];
        for (text, expected) in cases {
            assert_eq!(error(text), expected, "{text:?}");
        }
        let invalid = parse(b"jp-baseline 1\nmethod-floor 0\n\xff\n", "b".as_ref()).unwrap_err();
        assert_eq!(invalid.to_string(), "b:3: not UTF-8 text");
    }
}
