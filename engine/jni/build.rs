//! Link options of the JNI library:
//!
//! - Linux, `-z nodelete` (glibc's `DF_1_NODELETE`): the library is never unmapped. The JVM
//!   closes a native library when the class loader that loaded it is collected, as Gradle and
//!   Maven daemons do with the class loaders of plugins. Rust code is not safe to unmap while
//!   threads it started (rayon's pool) may still run in it, so `dlclose` leaves this library
//!   mapped. Other systems get the same guarantee at load time (`JNI_OnLoad` in src/pin.rs).
//! - Linux, `--strip-debug` in the release profile: it keeps line tables for profiling the `jp`
//!   binary, but they are five sixths of this library, which ships in a jar and is extracted and
//!   hashed on every load. Symbols stay, so backtraces still name functions, and a panic's
//!   message still gives its file and line. (The `dist` profile has no debug information.)
//! - macOS, install name `@rpath/libjp_jni.dylib`: the linker would otherwise record the
//!   absolute path of the build directory in the library.

fn main() {
    match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
        Ok("linux") => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
            if std::env::var("PROFILE").as_deref() == Ok("release") {
                println!("cargo:rustc-cdylib-link-arg=-Wl,--strip-debug");
            }
        }
        Ok("macos") => println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libjp_jni.dylib"),
        _ => {}
    }
    println!("cargo:rerun-if-changed=build.rs");
}
