//! Call sites (format version 5): a context of a method instrumented with
//! call sites is split by the invoke it was called from, in its caller's
//! method. A context without one was called from uninstrumented code, from
//! code instrumented without call sites, or is a top-level context.

use std::fmt;

/// Where in the caller's method a context was called from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallSite {
    /// The bytecode index of the invoke instruction in the caller's
    /// original code (compared first: it tells the sites of one caller apart).
    pub bci: u32,
    /// Its source line, from the caller's `LineNumberTable`; `None` where unknown.
    pub line: Option<u32>,
}

impl CallSite {
    /// The site as `node` records end with it: `<bci>` or `<bci>:<line>`.
    pub fn record(self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.bci),
            None => self.bci.to_string(),
        }
    }

    /// The site of a `node` record's last field, `<bci>` or `<bci>:<line>`
    /// (positive line); `None` for anything else.
    pub fn from_record(field: &str) -> Option<CallSite> {
        let decimal = |text: &str| {
            (!text.is_empty()
                && text.bytes().all(|b| b.is_ascii_digit())
                && (text == "0" || !text.starts_with('0')))
            .then(|| text.parse::<u32>().ok())
            .flatten()
        };
        let (bci, line) = match field.split_once(':') {
            Some((bci, line)) => (bci, Some(decimal(line).filter(|&line| line > 0)?)),
            None => (field, None),
        };
        Some(CallSite {
            bci: decimal(bci)?,
            line,
        })
    }
}

/// How reports name a context's site after its frame: `line 42`, or
/// `bci 7` where the line is unknown.
impl fmt::Display for CallSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}"),
            None => write!(f, "bci {}", self.bci),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_reads_back_as_written_and_bad_fields_are_none() {
        for site in [
            CallSite {
                bci: 7,
                line: Some(42),
            },
            CallSite { bci: 0, line: None },
        ] {
            assert_eq!(CallSite::from_record(&site.record()), Some(site));
        }
        for bad in ["", "x", "07", "3:", "3:0", ":4", "1:2:3", "-1", "99999999999"] {
            assert_eq!(CallSite::from_record(bad), None, "{bad}");
        }
        assert_eq!(
            CallSite {
                bci: 7,
                line: Some(42)
            }
            .to_string(),
            "line 42"
        );
        assert_eq!(CallSite { bci: 7, line: None }.to_string(), "bci 7");
    }

    #[test]
    fn contexts_merge_by_frame_and_call_site() {
        let read = |text: &str| crate::parse(text.as_bytes(), "p.jpprof".as_ref()).unwrap();
        let head = "jp-profile 5\nframe 1 m\nframe 2 f\nnode 1 0 1 1 0\n";
        let mut a = read(&format!("{head}node 2 1 2 1 5 4:10\nnode 3 1 2 1 5\nend 3\n"));
        a.merge(&read(&format!(
            "{head}node 2 1 2 2 8 4:10\nnode 3 1 2 4 9 6:11\nend 3\n"
        )));
        let f = a.frame_id("f").unwrap();
        let calls = |site| a.child_at(crate::NodeId(1), f, site).map(|id| a.node(id).calls);
        assert_eq!(
            calls(Some(CallSite {
                bci: 4,
                line: Some(10)
            })),
            Some(3)
        );
        assert_eq!(
            calls(Some(CallSite {
                bci: 6,
                line: Some(11)
            })),
            Some(4)
        );
        assert_eq!(calls(None), Some(1));
        assert_eq!(a.context_count(), 4);
    }
}
