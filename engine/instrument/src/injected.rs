//! Every name, descriptor and flag that JP injects into classes, with the
//! JVMS clause that allows it. Injected members are `ACC_SYNTHETIC`
//! (JVMS §4.7.8: "a class member that does not appear in the source code
//! must be marked"), so reflection-driven frameworks can tell them apart.

use jp_classfile::access::{ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC};

/// The stress scheme's no-op method, called from loop headers.
pub const STRESS_POLL_NAME: &str = "$jp$poll";
/// Its descriptor.
pub const STRESS_POLL_DESCRIPTOR: &str = "()V";
/// Its flags in a class. JVMS §4.6 allows any combination of these.
pub const STRESS_POLL_FLAGS: u16 = ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC;
/// Its flags in an interface before version 53, where interface methods
/// must be public (JVMS §4.6: private interface methods need 53.0).
pub const STRESS_POLL_INTERFACE_FLAGS: u16 = ACC_PUBLIC | ACC_STATIC | ACC_SYNTHETIC;
/// The type of the parameter the stress scheme appends to private methods.
pub const STRESS_EXTRA_PARAMETER: &str = "I";
/// How often (a power of two, minus one, as a mask over the block
/// counter) a loop header calls the poll method.
pub const STRESS_POLL_MASK: i64 = 1023;

/// Private methods the JDK calls reflectively by name (serialization,
/// JVMS-independent but fixed by `java.io.Serializable`'s contract); their
/// descriptors must never change.
pub const REFLECTIVELY_CALLED: &[&str] = &[
    "writeObject",
    "readObject",
    "readObjectNoData",
    "writeReplace",
    "readResolve",
    // Called by `SerializedLambda.readResolve` to rebuild a serializable lambda.
    "$deserializeLambda$",
];
