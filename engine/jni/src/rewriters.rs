//! The class rewriters that Java holds by number: the settings are resolved
//! once ([`open`]), and every class the JVM loads then names its rewriter
//! by the number `open` gave ([`rewrite`]). A rewriter lives as long as the
//! library, that is the process: a JVM has one agent, which opens one.

use std::sync::{Arc, Mutex, PoisonError};

use jp_driver::class_rewriter::{ClassError, ClassRewriter};
use jp_driver::EngineError;

/// Every rewriter opened, by number.
static REWRITERS: Mutex<Vec<Arc<ClassRewriter>>> = Mutex::new(Vec::new());

/// Why a class could not be rewritten.
#[derive(Debug, thiserror::Error)]
pub enum RewriteCallError {
    /// No rewriter has this number: a bug of the caller.
    #[error("no class rewriter {0} was opened")]
    UnknownRewriter(i64),
    /// The class cannot be read; the message names it.
    #[error(transparent)]
    Class(#[from] ClassError),
}

/// Opens a rewriter of the settings' JSON (docs/engine-json.md) and answers
/// its number.
///
/// # Errors
/// The settings' errors ([`ClassRewriter::from_json`]).
pub fn open(settings_json: &str) -> Result<i64, EngineError> {
    let rewriter = Arc::new(ClassRewriter::from_json(settings_json)?);
    let mut rewriters = REWRITERS.lock().unwrap_or_else(PoisonError::into_inner);
    rewriters.push(rewriter);
    Ok(i64::try_from(rewriters.len() - 1).expect("fewer rewriters than i64::MAX"))
}

/// Rewrites one class with rewriter `number`: the encoded answer
/// ([`jp_driver::class_rewriter::Answer::encode`]), or `None` when there is
/// nothing to do and nothing to say.
///
/// # Errors
/// An unknown rewriter, or a class that cannot be read (naming it).
pub fn rewrite(number: i64, name: &str, bytes: &[u8]) -> Result<Option<Vec<u8>>, RewriteCallError> {
    let rewriter = usize::try_from(number)
        .ok()
        .and_then(|i| {
            REWRITERS
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(i)
                .cloned()
        })
        .ok_or(RewriteCallError::UnknownRewriter(number))?;
    Ok(rewriter
        .rewrite(name, bytes)?
        .filter(|answer| answer.bytes.is_some() || !answer.warnings.is_empty())
        .map(|answer| answer.encode()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{call, CallError};

    #[test]
    fn a_class_is_answered_by_the_rewriter_opened_for_it() {
        let number = open(r#"{"include":["com.acme.**"]}"#).unwrap();
        let bytes = jp_testdata::class("java8/AllInstructions.class");
        assert_eq!(rewrite(number, "org/other/Main", &bytes).unwrap(), None);
        let answer = rewrite(number, "com/acme/Main", &bytes).unwrap().unwrap();
        let answer = jp_driver::class_rewriter::Answer::decode(&answer).unwrap();
        assert!(answer.bytes.is_some());
    }

    #[test]
    fn bad_bytes_become_an_engine_error_naming_the_class_not_a_panic() {
        let number = open("{}").unwrap();
        let error = call(|| rewrite(number, "com/acme/Broken", b"not a class")).unwrap_err();
        assert!(matches!(error, CallError::Engine(_)));
        let message = error.to_string();
        assert!(
            message.starts_with("com.acme.Broken: malformed class file: "),
            "{message}"
        );
    }

    #[test]
    fn an_unknown_rewriter_or_bad_settings_are_errors() {
        let error = call(|| rewrite(-1, "A", b"")).unwrap_err();
        assert_eq!(error.to_string(), "no class rewriter -1 was opened");
        let error = call(|| open(r#"{"bba":"exact"}"#)).unwrap_err();
        assert!(error.to_string().starts_with("invalid request: "), "{error}");
    }
}
