//! `JNI_OnLoad`: pins this library in memory once the JVM has loaded it.
//!
//! A JVM unloads a native library when the class loader that loaded it is collected, as Gradle and
//! Maven daemons do with the class loaders of plugins after a build. Unmapping Rust code while
//! threads it started (rayon's pool) are parked in it would crash the daemon in a later build, so
//! the library asks the system loader to keep it for the life of the process. On Linux the
//! link-time flag of build.rs (`-z nodelete`) does the same, and this call is a second guarantee;
//! on macOS (`RTLD_NODELETE`) and Windows (`GET_MODULE_HANDLE_EX_FLAG_PIN`) this is the only one.

use std::ffi::c_void;

use jni::sys::{jint, JavaVM, JNI_VERSION_1_8};

/// Called by the JVM once per load of the library (that is, once per class loader that loads a
/// copy of it), before any native method.
///
/// # Safety
///
/// `no_mangle` is unsafe because the name must be unique in the process's image, and it is: the
/// JNI specification reserves this name for exactly this function, one per library. The JVM calls
/// it with a valid `JavaVM`, which is not used.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "system" fn JNI_OnLoad(_vm: *mut JavaVM, _reserved: *mut c_void) -> jint {
    // A library that cannot be pinned still works; it only relies on the JVM never unloading it.
    let _pinned = pin(JNI_OnLoad as *const c_void);
    JNI_VERSION_1_8
}

/// Marks the loaded image that contains `address` as never to be unloaded. Returns whether the
/// system loader accepted.
#[cfg(unix)]
#[allow(unsafe_code)]
fn pin(address: *const c_void) -> bool {
    // SAFETY: `dladdr` only reads the loader's tables and fills `info`; `dli_fname` then points
    // to the loader's own copy of the image's path, valid while the image is loaded, which it is
    // while this function runs. `RTLD_NOLOAD` makes `dlopen` look the image up without loading
    // anything; the handle it returns is deliberately never closed.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(address, &mut info) == 0 || info.dli_fname.is_null() {
            return false;
        }
        let flags = libc::RTLD_NOW | libc::RTLD_NOLOAD | libc::RTLD_NODELETE;
        !libc::dlopen(info.dli_fname, flags).is_null()
    }
}

/// Marks the loaded image that contains `address` as never to be unloaded. Returns whether the
/// system loader accepted.
#[cfg(windows)]
#[allow(unsafe_code)]
fn pin(address: *const c_void) -> bool {
    use windows_sys::Win32::System::LibraryLoader::{
        GetModuleHandleExW, GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, GET_MODULE_HANDLE_EX_FLAG_PIN,
    };
    let mut module = std::ptr::null_mut();
    let flags = GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN;
    // SAFETY: with FROM_ADDRESS the second argument is an address inside a loaded module (this
    // function's), not a string; `module` is a valid place for the handle, which needs no release
    // once pinned.
    unsafe { GetModuleHandleExW(flags, address.cast(), &mut module) != 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn pinning_finds_a_loaded_shared_library_and_keeps_it() {
        // `dladdr` of a function of the C library names libc.so.6, which the loader then finds
        // already loaded: the same calls as for this library once a JVM has loaded it.
        assert!(pin(libc::getpid as *const c_void));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn pinning_an_address_outside_every_image_fails() {
        let on_the_stack = 0u8;
        assert!(!pin(&on_the_stack as *const u8 as *const c_void));
    }

    #[test]
    fn on_load_asks_for_a_jni_version_every_supported_jvm_has() {
        assert_eq!(
            JNI_OnLoad(std::ptr::null_mut(), std::ptr::null_mut()),
            JNI_VERSION_1_8
        );
    }
}
