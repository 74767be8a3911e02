//! async-profiler's collapsed stacks (`-o collapsed`): one line per stack,
//! `frame;frame;... count`, the outermost frame first.

use std::io::{BufRead, BufReader};
use std::path::Path;

use jp_profile::{MetricInfo, MetricKind};

use crate::{names, Samples, SamplesError, Stack};

/// The metric of a collapsed file: async-profiler's default event, `cpu`.
pub fn metric() -> MetricInfo {
    MetricInfo {
        name: "cpu-samples".into(),
        unit: "samples".into(),
        kind: MetricKind::Sampled,
    }
}

/// The stacks of the collapsed file at `path`; empty lines are skipped.
///
/// # Errors
/// When the file cannot be read, or a line has no count.
pub fn read(path: &Path) -> Result<Samples, SamplesError> {
    let io = |source| SamplesError::Io {
        path: path.to_owned(),
        source,
    };
    let reader = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut stacks = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        let line = line.map_err(io)?;
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let malformed = |detail: &str| SamplesError::Collapsed {
            path: path.to_owned(),
            line: index as u64 + 1,
            detail: detail.to_owned(),
        };
        let (stack, count) = line
            .rsplit_once(' ')
            .ok_or_else(|| malformed("not `frame;frame;... count`"))?;
        let count = count
            .parse()
            .map_err(|_| malformed("the count is not an unsigned number"))?;
        stacks.push(Stack {
            frames: stack.split(';').map(names::collapsed_frame).collect(),
            count,
        });
    }
    Ok(Samples {
        metric: metric(),
        stacks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_is_a_stack_outermost_first_with_its_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cpu.collapsed");
        let text = "[main tid=7];demo/Spin.main_[0];demo/Spin.spin_[j] 120\n\n\
                    demo/Spin.nap_[0];java/lang/Thread.sleep_[j];__nanosleep 3\n";
        std::fs::write(&path, text).unwrap();
        let samples = read(&path).unwrap();
        assert_eq!(samples.metric, metric());
        assert_eq!(
            samples.stacks,
            [
                Stack {
                    frames: vec![
                        "[main tid=7]".into(),
                        "demo.Spin.main".into(),
                        "demo.Spin.spin".into()
                    ],
                    count: 120
                },
                Stack {
                    frames: vec![
                        "demo.Spin.nap".into(),
                        "java.lang.Thread.sleep".into(),
                        "__nanosleep".into()
                    ],
                    count: 3
                },
            ]
        );
    }

    #[test]
    fn a_line_without_a_count_is_refused_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.collapsed");
        std::fs::write(&path, "a;b 1\na;b many\n").unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(
            error.ends_with("bad.collapsed:2: the count is not an unsigned number"),
            "{error}"
        );
    }
}
