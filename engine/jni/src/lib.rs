//! JP's engine as a JNI library: the native methods of the Java class
//! `org.jpprof.engine.NativeEngine` (in `engine/java`), and nothing else.
//!
//! There are six coarse entry points, whose requests and outcomes cross the
//! boundary as JSON text, so that no Java object but a string or a byte
//! array is ever built here:
//! - `static native String version()`: [`jp_driver::VERSION`];
//! - `static native String instrument(String requestJson)`: runs the engine's
//!   request API and returns the outcome's JSON;
//! - `static native void report(String requestJson)`: merges profiles into
//!   one report file ([`jp_driver::api::report_json`]);
//! - `static native String baseline(String requestJson)` and
//!   `static native String check(String requestJson)`: the regression gate
//!   ([`jp_driver::gate`]), each returning its outcome's JSON;
//! - `static native String hookJar(String requestJson)`: writes a copy of a
//!   library jar whose class's constructors call a static hook
//!   ([`jp_driver::hooked_jar`]) and returns the outcome's JSON.
//!
//! and two fine ones for the load-time agent, which rewrites each class as
//! the JVM loads it ([`rewriters`]):
//! - `static native long classRewriter(String settingsJson)`: resolves the
//!   settings once and answers a number for them;
//! - `static native byte[] rewriteClass(long rewriter, String className,
//!   byte[] classBytes)`: the encoded answer
//!   ([`jp_driver::class_rewriter::Answer::encode`]), or `null` when the
//!   class is left alone.
//!
//! The error contract: every engine error becomes a thrown
//! `org.jpprof.engine.EngineException` whose message is the error's whole
//! source chain (`path: what went wrong`), and every panic is caught and
//! becomes an `EngineException` too. Nothing unwinds into the JVM.
//!
//! `JNI_OnLoad` ([`pin`]) keeps the library loaded for the life of the
//! process. Loading it (extraction from the jar, the platform's file, a second
//! class loader, the version check) is the facade's job; see `docs/engine-jni.md`. Everything
//! that decides anything lives in `jp-driver`: deleting this crate loses only
//! a front end.
//!
//! ```java
//! // What the facade does with it (Engine.instrument, simplified):
//! String outcomeJson = NativeEngine.instrument(request.toJson()); // or EngineException
//! ```
#![deny(missing_docs)]

use std::any::Any;
use std::error::Error;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::errors::ErrorPolicy;
use jni::objects::{JByteArray, JClass, JString};
use jni::strings::JNIString;
use jni::{jni_str, Env, EnvUnowned};

pub mod pin;
pub mod rewriters;

// A panic that aborted instead of unwinding would take the whole JVM (a Gradle
// or Maven daemon) down with it.
#[cfg(not(panic = "unwind"))]
compile_error!("jp-jni must be built with panic = \"unwind\": a panic would abort the JVM");

/// Why a native call failed. Its `Display` is the message of the Java
/// exception.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The engine refused the request, or failed: the whole source chain.
    #[error("{0}")]
    Engine(String),
    /// The engine panicked: a bug in JP.
    #[error("JP's engine panicked (a bug in JP; please report it): {0}")]
    Panic(String),
    /// A JNI call failed (for example a Java exception is already pending).
    #[error("JNI: {0}")]
    Jni(#[from] jni::errors::Error),
}

/// Runs `f` and turns its error, or its panic, into a [`CallError`].
///
/// This is the body of every entry point without the JNI plumbing, so that
/// the error contract can be tested without a JVM.
///
/// # Errors
///
/// [`CallError::Engine`] with the error's chain ([`jp_driver::error::chain`]), or
/// [`CallError::Panic`] with the panic's message.
pub fn call<T, E: Error>(f: impl FnOnce() -> Result<T, E>) -> Result<T, CallError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(error)) => Err(CallError::Engine(jp_driver::error::chain(&error))),
        Err(payload) => Err(CallError::Panic(panic_message(payload))),
    }
}

/// The text of a panic payload: `panic!` gives a `&str` or a `String`.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    match payload.downcast::<&'static str>() {
        Ok(text) => (*text).to_owned(),
        Err(payload) => match payload.downcast::<String>() {
            Ok(text) => *text,
            Err(payload) => {
                // Dropping an unknown payload could panic again: leak it.
                std::mem::forget(payload);
                "a panic without a message".to_owned()
            }
        },
    }
}

/// The error policy of every entry point: throw an
/// `org.jpprof.engine.EngineException` and return `null`.
///
/// The class is found with JNI's `FindClass`, which, inside a native method,
/// asks the class loader of the class that declares the method. So the
/// exception is the one the calling facade catches, even when several copies
/// of the facade live in several class loaders.
struct ThrowEngineException;

impl ThrowEngineException {
    fn throw(env: &mut Env<'_>, message: &str) -> jni::errors::Result<()> {
        let message = JNIString::new(message);
        let thrown = match env.find_class(jni_str!("org/jpprof/engine/EngineException")) {
            Ok(class) => env.throw_new(&class, &message),
            // The facade is broken; still say what happened.
            Err(_) => env.throw_new(jni_str!("java/lang/RuntimeException"), &message),
        };
        match thrown {
            // Throwing reports the now pending exception as an error.
            Ok(()) | Err(jni::errors::Error::JavaException) => Ok(()),
            Err(error) => Err(error),
        }
    }
}

impl<T: Default> ErrorPolicy<T, CallError> for ThrowEngineException {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = ();

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _captures: &mut (),
        error: CallError,
    ) -> jni::errors::Result<T> {
        // A pending Java exception (thrown by a JNI call) says more than we can.
        if !env.exception_check() {
            Self::throw(env, &error.to_string())?;
        }
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _captures: &mut (),
        payload: Box<dyn Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        if !env.exception_check() {
            Self::throw(env, &CallError::Panic(panic_message(payload)).to_string())?;
        }
        Ok(T::default())
    }
}

/// Runs `run` on a request's JSON and returns the outcome's JSON; an error
/// or a panic becomes an `EngineException` (the shape of every entry point
/// that takes a request and answers).
fn json_request<'local, E: Error>(
    mut env: EnvUnowned<'local>,
    request: JString<'local>,
    run: impl FnOnce(&str) -> Result<String, E>,
) -> JString<'local> {
    env.with_env(|env| -> Result<_, CallError> {
        let request = request.try_to_string(env)?;
        let outcome = call(|| run(&request))?;
        Ok(JString::from_str(env, outcome)?)
    })
    .resolve::<ThrowEngineException>()
}

/// `static native String version()`: the engine's version, which the facade
/// compares with its own.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.version()`, and the signature is that of a
/// static native method with no arguments that returns a `String` (JNI spec,
/// "Resolving Native Method Names"). `no_mangle` is unsafe only because a
/// wrong name or signature would be undefined behaviour at the call.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_version<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
) -> JString<'local> {
    env.with_env(|env| -> Result<_, CallError> { Ok(JString::from_str(env, jp_driver::VERSION)?) })
        .resolve::<ThrowEngineException>()
}

/// `static native String instrument(String requestJson)`: runs one request
/// of the engine's API and returns its outcome as JSON.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.instrument(String)`, and the signature is
/// that of a static native method with one `String` argument that returns a
/// `String`. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_instrument<'local>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    json_request(env, request, jp_driver::api::run_json)
}

/// `static native void report(String requestJson)`: merges the profiles of
/// one report request of the engine's API and writes the report file.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.report(String)`, and the signature is
/// that of a static native method with one `String` argument that returns
/// nothing. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_report<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) {
    env.with_env(|env| -> Result<(), CallError> {
        let request = request.try_to_string(env)?;
        call(|| jp_driver::api::report_json(&request))
    })
    .resolve::<ThrowEngineException>()
}

/// `static native String baseline(String requestJson)`: records the
/// baseline of a run's profiles and returns the outcome's JSON.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.baseline(String)`, and the signature is
/// that of a static native method with one `String` argument that returns a
/// `String`. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_baseline<'local>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    json_request(env, request, jp_driver::gate::baseline_json)
}

/// `static native String check(String requestJson)`: checks a run's
/// profiles against a baseline and returns the outcome's JSON.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.check(String)`, and the signature is
/// that of a static native method with one `String` argument that returns a
/// `String`. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_check<'local>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    json_request(env, request, jp_driver::gate::check_json)
}

/// `static native String hookJar(String requestJson)`: writes the hooked
/// copy of a jar and returns the outcome as JSON.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.hookJar(String)`, and the signature is
/// that of a static native method with one `String` argument that returns a
/// `String`. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_hookJar<'local>(
    env: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    json_request(env, request, jp_driver::hooked_jar::hook_jar_json)
}

/// `static native long classRewriter(String settingsJson)`: resolves the
/// load-time agent's settings and answers the number that names them in
/// `rewriteClass`.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.classRewriter(String)`, and the signature
/// is that of a static native method with one `String` argument that returns
/// a `long`. See [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_classRewriter<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    settings: JString<'local>,
) -> jni::sys::jlong {
    env.with_env(|env| -> Result<_, CallError> {
        let settings = settings.try_to_string(env)?;
        call(|| rewriters::open(&settings))
    })
    .resolve::<ThrowEngineException>()
}

/// `static native byte[] rewriteClass(long rewriter, String className, byte[]
/// classBytes)`: rewrites one class in memory; `null` when it is left alone.
///
/// # Safety
///
/// The symbol name is JNI's mangled name of
/// `org.jpprof.engine.NativeEngine.rewriteClass(long, String, byte[])`, and
/// the signature is that of a static native method with a `long`, a `String`
/// and a `byte[]` argument that returns a `byte[]`. See
/// [`Java_org_jpprof_engine_NativeEngine_version`].
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_jpprof_engine_NativeEngine_rewriteClass<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    rewriter: jni::sys::jlong,
    class_name: JString<'local>,
    class_bytes: JByteArray<'local>,
) -> JByteArray<'local> {
    env.with_env(|env| -> Result<_, CallError> {
        let name = class_name.try_to_string(env)?;
        let bytes = env.convert_byte_array(&class_bytes)?;
        match call(|| rewriters::rewrite(rewriter, &name, &bytes))? {
            Some(answer) => Ok(env.byte_array_from_slice(&answer)?),
            None => Ok(JByteArray::default()),
        }
    })
    .resolve::<ThrowEngineException>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("{path}")]
    struct WithPath {
        path: &'static str,
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn call_passes_the_engine_answer_through() {
        let answer = call(|| Ok::<_, std::io::Error>("{\"rewritten\":1}".to_owned()));
        assert_eq!(answer.unwrap(), "{\"rewritten\":1}");
    }

    #[test]
    fn call_error_message_names_the_file_and_the_cause() {
        let error = call(|| {
            Err::<String, _>(WithPath {
                path: "lib/app.jar",
                source: std::io::Error::other("disk full"),
            })
        })
        .unwrap_err();
        assert_eq!(error.to_string(), "lib/app.jar: disk full");
    }

    #[test]
    fn call_does_not_repeat_a_cause_that_the_message_already_shows() {
        #[derive(Debug, thiserror::Error)]
        #[error("out/A.class: {source}")]
        struct Embeds {
            source: std::io::Error,
        }
        let error = call(|| {
            Err::<String, _>(Embeds {
                source: std::io::Error::other("denied"),
            })
        });
        assert_eq!(error.unwrap_err().to_string(), "out/A.class: denied");
    }

    #[test]
    fn call_passes_a_report_error_through_naming_the_profile() {
        let dir = std::env::temp_dir().join(format!("jp-jni-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let profile = dir.join("broken.jpprof");
        std::fs::write(&profile, "not a profile\n").unwrap();
        let request = format!(
            r#"{{"profiles":["{}"],"format":"text","out":"{}"}}"#,
            profile.display(),
            dir.join("report.txt").display()
        );
        let error = call(|| jp_driver::api::report_json(&request)).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(error, CallError::Engine(_)));
        assert!(
            error.to_string().starts_with(&profile.display().to_string()),
            "{error}"
        );
    }

    #[test]
    fn call_turns_a_str_panic_into_an_error() {
        let error = call(|| -> Result<String, std::io::Error> { panic!("index out of bounds") });
        let message = error.unwrap_err().to_string();
        assert!(message.starts_with("JP's engine panicked"), "{message}");
        assert!(message.ends_with(": index out of bounds"), "{message}");
    }

    #[test]
    fn call_turns_a_formatted_panic_into_an_error() {
        let pc = 17;
        let error = call(|| -> Result<String, std::io::Error> { panic!("bad pc {pc}") });
        assert!(error.unwrap_err().to_string().ends_with(": bad pc 17"));
    }

    #[test]
    fn call_survives_a_panic_without_a_message() {
        let error = call(|| -> Result<String, std::io::Error> { std::panic::panic_any(42_u32) });
        assert!(error
            .unwrap_err()
            .to_string()
            .ends_with(": a panic without a message"));
    }
}
