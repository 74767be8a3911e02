//! JDK Flight Recorder recordings, read through the JDK's own `jfr print
//! --json`: the recording format changes with the JDK, and the tool that
//! ships with the JDK that wrote a recording always reads it. The one Rust
//! reader on crates.io, `jfrs`, has had no release since 0.2.5 (2023) and
//! calls its typed reading experimental; a JDK is at hand wherever there
//! are recordings. The JSON is read as a stream, keeping only the events'
//! stacks.
//!
//! Two events are read, each as its own metric: `jdk.ExecutionSample`
//! (threads running Java code, `cpu-samples`) and `jdk.NativeMethodSample`
//! (threads in a native method, `native-samples`: a thread in
//! `Thread.sleep` or blocking I/O, which uses no CPU).

use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use jp_profile::{MetricInfo, MetricKind};
use serde::Deserialize;

use crate::{names, Samples, SamplesError, Stack};

/// The events read, with the metric each counts in.
const EVENTS: [(&str, &str); 2] = [
    ("jdk.ExecutionSample", "cpu-samples"),
    ("jdk.NativeMethodSample", "native-samples"),
];

/// The samples of the recording at `path`, one [`Samples`] per event type
/// that has any, through `jfr` ([`jfr_tool`]).
///
/// # Errors
/// When `jfr` cannot be run or fails, or prints what is not its JSON.
pub fn read(path: &Path) -> Result<Vec<Samples>, SamplesError> {
    let failed = |detail: String| SamplesError::JfrTool {
        path: path.to_owned(),
        detail,
    };
    let tool = jfr_tool();
    let events = EVENTS.map(|(event, _)| event).join(",");
    let mut child = Command::new(&tool)
        .args(["print", "--json", "--events", &events])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| failed(format!("could not be run ({}): {error}", tool.display())))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let parsed = parse(BufReader::with_capacity(1 << 16, stdout), path);
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        // Only for the message; a failure to read it changes nothing.
        let _ = pipe.read_to_string(&mut stderr);
    }
    let status = child
        .wait()
        .map_err(|error| failed(format!("could not be waited for: {error}")))?;
    if !status.success() {
        return Err(failed(format!("failed ({status}): {}", stderr.trim())));
    }
    parsed
}

/// The JDK's `jfr`: `$JAVA_HOME/bin/jfr` when there is one, else `jfr` on the `PATH`.
pub fn jfr_tool() -> PathBuf {
    std::env::var_os("JAVA_HOME")
        .map(|home| PathBuf::from(home).join("bin").join("jfr"))
        .filter(|tool| tool.is_file())
        .unwrap_or_else(|| PathBuf::from("jfr"))
}

/// The samples in the output of `jfr print --json`; `path` names the recording in errors.
///
/// # Errors
/// When `json` is not that output.
pub fn parse(json: impl Read, path: &Path) -> Result<Vec<Samples>, SamplesError> {
    let print: Print = serde_json::from_reader(json).map_err(|source| SamplesError::JfrJson {
        path: path.to_owned(),
        source,
    })?;
    // Per event type, the count of each stack, outermost frame first.
    let mut counts: Vec<HashMap<Vec<String>, u64>> = vec![HashMap::new(); EVENTS.len()];
    for event in print.recording.events {
        let Some(kind) = EVENTS.iter().position(|&(name, _)| name == event.kind) else {
            continue;
        };
        let Some(trace) = event.values.stack_trace else {
            continue;
        };
        // JFR lists the innermost frame first.
        let frames = trace
            .frames
            .iter()
            .rev()
            .map(|frame| {
                names::jfr_frame(
                    &frame.method.class.name,
                    &frame.method.name,
                    &frame.method.descriptor,
                )
            })
            .collect();
        *counts[kind].entry(frames).or_insert(0) += 1;
    }
    let samples = EVENTS.iter().zip(counts).filter(|(_, stacks)| !stacks.is_empty());
    Ok(samples
        .map(|(&(_, metric), stacks)| {
            let mut stacks: Vec<Stack> = stacks
                .into_iter()
                .map(|(frames, count)| Stack { frames, count })
                .collect();
            // The same order whatever the hash: reports are reproducible from the same input.
            stacks.sort_unstable_by(|a, b| a.frames.cmp(&b.frames));
            Samples {
                metric: MetricInfo {
                    name: metric.into(),
                    unit: "samples".into(),
                    kind: MetricKind::Sampled,
                },
                stacks,
            }
        })
        .collect())
}

#[derive(Deserialize)]
struct Print {
    recording: Recording,
}

#[derive(Deserialize)]
struct Recording {
    events: Vec<Event>,
}

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    values: Values,
}

#[derive(Deserialize)]
struct Values {
    #[serde(rename = "stackTrace")]
    stack_trace: Option<StackTrace>,
}

#[derive(Deserialize)]
struct StackTrace {
    frames: Vec<Frame>,
}

#[derive(Deserialize)]
struct Frame {
    method: Method,
}

#[derive(Deserialize)]
struct Method {
    #[serde(rename = "type")]
    class: Class,
    name: String,
    descriptor: String,
}

#[derive(Deserialize)]
struct Class {
    name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame as `jfr print --json` writes it, less the fields not read.
    fn frame(class: &str, method: &str, descriptor: &str) -> String {
        format!(
            r#"{{"method": {{"type": {{"classLoader": null, "name": "{class}", "package": null}}, "name": "{method}", "descriptor": "{descriptor}", "modifiers": 8, "hidden": false}}, "lineNumber": 2, "bytecodeIndex": 30, "type": "JIT compiled"}}"#
        )
    }

    fn event(kind: &str, frames: &[String]) -> String {
        format!(
            r#"{{"type": "{kind}", "values": {{"startTime": "2026-11-28T16:57:57Z", "sampledThread": {{"javaName": "main"}}, "stackTrace": {{"truncated": false, "frames": [{}]}}, "state": "STATE_RUNNABLE"}}}}"#,
            frames.join(", ")
        )
    }

    #[test]
    fn each_event_type_is_a_metric_of_its_stacks_outermost_first() {
        let spin = [
            frame("demo\\/Spin", "spin", "(J)J"),
            frame("demo\\/Spin", "main", "([Ljava\\/lang\\/String;)V"),
        ];
        let sleep = [
            frame("java\\/lang\\/Thread", "sleep", "(J)V"),
            frame("demo\\/Spin", "nap", "()V"),
        ];
        let json = format!(
            r#"{{"recording": {{"events": [{}, {}, {}, {}]}}}}"#,
            event("jdk.ExecutionSample", &spin),
            event("jdk.ExecutionSample", &spin),
            event("jdk.NativeMethodSample", &sleep),
            event("jdk.ThreadPark", &sleep),
        );
        let samples = parse(json.as_bytes(), Path::new("rec.jfr")).unwrap();
        type Named<'a> = (&'a str, Vec<(Vec<&'a str>, u64)>);
        let named: Vec<Named> = samples
            .iter()
            .map(|samples| {
                let stacks = samples
                    .stacks
                    .iter()
                    .map(|stack| (stack.frames.iter().map(String::as_str).collect(), stack.count))
                    .collect();
                (&*samples.metric.name, stacks)
            })
            .collect();
        assert_eq!(
            named,
            [
                (
                    "cpu-samples",
                    vec![(
                        vec!["demo.Spin.main([Ljava/lang/String;)V", "demo.Spin.spin(J)J"],
                        2
                    )]
                ),
                (
                    "native-samples",
                    vec![(vec!["demo.Spin.nap()V", "java.lang.Thread.sleep(J)V"], 1)]
                ),
            ]
        );
        assert!(samples
            .iter()
            .all(|samples| samples.metric.kind == MetricKind::Sampled));
    }

    #[test]
    fn what_is_not_jfr_json_is_refused_naming_the_recording() {
        let error = parse("{\"events\": []}".as_bytes(), Path::new("rec.jfr")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("rec.jfr: reading `jfr print --json`: missing field `recording`"),
            "{error}"
        );
    }
}
