//! The tools' frame names in JP's form, `binary.class.Name.method(Descriptor)`,
//! so that a sample's Java frames are found in a profile's frame table.
//!
//! JFR names a method exactly: its class in internal form (`pkg/Class`),
//! its name and its descriptor. async-profiler writes `pkg/Class.method`
//! (or `pkg.Class.method` for some builds, with the descriptor after
//! `--sig`), a Java frame followed by `_[j]`, `_[i]`, `_[0]` or `_[1]`
//! (JIT-compiled, inlined, interpreted, C1) under `-a`/`--annotate`; native,
//! JVM and kernel frames (`__nanosleep`, `JavaThread::run`, `do_syscall_64_[k]`)
//! are no Java methods and keep their names.

/// A JFR frame's method in JP's form.
pub fn jfr_frame(class: &str, method: &str, descriptor: &str) -> String {
    format!("{}.{method}{descriptor}", class.replace('/', "."))
}

/// An async-profiler frame: a Java method in JP's form (without a
/// descriptor unless the profiler wrote one), any other frame as it is.
pub fn collapsed_frame(raw: &str) -> String {
    let Some(java) = java_method(raw) else {
        return raw.to_owned();
    };
    // Slashes are package separators before the descriptor and stay in it.
    match java.find('(') {
        Some(open) => format!("{}{}", java[..open].replace('/', "."), &java[open..]),
        None => java.replace('/', "."),
    }
}

/// The part of a frame name that names the method without its descriptor:
/// `pkg.Class.method` of `pkg.Class.method(I)V`.
pub fn method_key(name: &str) -> &str {
    name.find('(').map_or(name, |open| &name[..open])
}

/// `raw` without its annotation, when it names a Java method.
fn java_method(raw: &str) -> Option<&str> {
    let name = strip_annotation(raw);
    let method = method_key(name);
    let java = !method.is_empty()
        && !method.contains("::")
        && !method.contains(char::is_whitespace)
        && !method.starts_with(['/', '[', '.'])
        && !method.ends_with('.')
        && method.contains('.');
    java.then_some(name)
}

/// `raw` without a frame-type annotation, `_[j]` and the like.
fn strip_annotation(raw: &str) -> &str {
    match raw.strip_suffix(']').and_then(|rest| rest.rsplit_once("_[")) {
        Some((name, annotation)) if annotation.len() <= 2 && !annotation.contains(['[', ']']) => name,
        _ => raw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jfr_frame_is_named_as_in_a_profile() {
        assert_eq!(jfr_frame("demo/Spin", "spin", "(J)J"), "demo.Spin.spin(J)J");
        assert_eq!(
            jfr_frame("Spin", "main", "([Ljava/lang/String;)V"),
            "Spin.main([Ljava/lang/String;)V"
        );
    }

    #[test]
    fn async_profiler_java_frames_lose_their_annotation_and_slashes() {
        assert_eq!(collapsed_frame("demo/Spin.spin_[j]"), "demo.Spin.spin");
        assert_eq!(collapsed_frame("demo/Spin.spin_[i]"), "demo.Spin.spin");
        assert_eq!(collapsed_frame("demo.Spin.nap"), "demo.Spin.nap");
        assert_eq!(collapsed_frame("Spin.main_[0]"), "Spin.main");
        assert_eq!(
            collapsed_frame("demo/Spin.main([Ljava/lang/String;)V_[1]"),
            "demo.Spin.main([Ljava/lang/String;)V"
        );
    }

    #[test]
    fn native_jvm_and_kernel_frames_keep_their_names() {
        for raw in [
            "__nanosleep",
            "JavaThread::run",
            "do_syscall_64_[k]",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "[main tid=4242]",
            "[unknown]",
            "Java_java_lang_Thread_sleep",
        ] {
            assert_eq!(collapsed_frame(raw), raw);
        }
    }

    #[test]
    fn a_method_key_leaves_out_the_descriptor() {
        assert_eq!(method_key("demo.Spin.spin(J)J"), "demo.Spin.spin");
        assert_eq!(method_key("demo.Spin.spin"), "demo.Spin.spin");
    }
}
