//! Every name, descriptor and flag that JP injects into classes, with the
//! JVMS clause that allows it. Injected members are `ACC_SYNTHETIC`
//! (JVMS §4.7.8: "a class member that does not appear in the source code
//! must be marked"), so reflection-driven frameworks can tell them apart.

use jp_classfile::access::{ACC_FINAL, ACC_NATIVE, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC};

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

/// What a native method's name starts with once it is wrapped (with the
/// load-time agent only): the agent sets it as the JVM's native method
/// prefix (JVMTI `SetNativeMethodPrefix`, through
/// `Instrumentation.setNativeMethodPrefix`), so that the JVM binds `$jp$m` to
/// the implementation of `m` by stripping it. `JpAgent.NATIVE_PREFIX` is the same.
pub const NATIVE_PREFIX: &str = "$jp$";
/// The renamed native's flags, with `ACC_STATIC` kept from the original:
/// private, so that dispatch is unchanged (nothing overrides it, and it
/// overrides nothing); synthetic, so that reflection can tell it apart.
/// JVMS §4.6 allows these with `ACC_NATIVE`.
pub const RENAMED_NATIVE_FLAGS: u16 = ACC_PRIVATE | ACC_NATIVE | ACC_SYNTHETIC;

/// The runtime's package (internal form). Its classes are never
/// instrumented: they are what instrumented code calls.
pub const RUNTIME_PACKAGE: &str = "org/jpprof/runtime/";
/// A thread's root context, found through `RC.current()`.
pub const RC_CLASS: &str = "org/jpprof/runtime/RC";
/// A calling-context node.
pub const IC_CLASS: &str = "org/jpprof/runtime/IC";
/// A method identifier.
pub const MID_CLASS: &str = "org/jpprof/runtime/MID";
/// `static RC current()`: the calling thread's root.
pub const RC_CURRENT: (&str, &str) = ("current", "()Lorg/jpprof/runtime/RC;");
/// `IC enter(MID)`: enters the callee's context under `top`, checking the agent's activation counter.
pub const RC_ENTER: (&str, &str) = ("enter", "(Lorg/jpprof/runtime/MID;)Lorg/jpprof/runtime/IC;");
/// `static IC leaf(MID, int)`: the calling thread's context of a leaf method (no calls, no loops,
/// nothing that can run other code of the thread) under its `top`, its invocation and the bytecodes
/// of its first block counted, not made current.
pub const RC_LEAF: (&str, &str) = ("leaf", "(Lorg/jpprof/runtime/MID;I)Lorg/jpprof/runtime/IC;");
/// `IC enterAt(MID)`: [`RC_ENTER`] for a method instrumented with call sites: its context is also
/// keyed by the call site its caller stored, when entered directly from there.
pub const RC_ENTER_AT: (&str, &str) = ("enterAt", "(Lorg/jpprof/runtime/MID;)Lorg/jpprof/runtime/IC;");
/// `static IC leafAt(MID, int)`: [`RC_LEAF`] for a leaf method instrumented with call sites.
pub const RC_LEAF_AT: (&str, &str) = ("leafAt", "(Lorg/jpprof/runtime/MID;I)Lorg/jpprof/runtime/IC;");
/// `IC enterRoot(MID)`: enters a static initializer's context directly under the thread root.
pub const RC_ENTER_ROOT: (&str, &str) = ("enterRoot", "(Lorg/jpprof/runtime/MID;)Lorg/jpprof/runtime/IC;");
/// `void exit(IC, int)`: adds the method's last bytecodes to its context and makes its caller's
/// context current again (`top = ic.parent`), at every exit of a method.
pub const RC_EXIT: (&str, &str) = ("exit", "(Lorg/jpprof/runtime/IC;I)V");
/// `void restore(IC)`: `top = ic`, at the start of every original
/// exception handler and at the exits of a static initializer.
pub const RC_RESTORE: (&str, &str) = ("restore", "(Lorg/jpprof/runtime/IC;)V");
/// `void poll(IC, int)`: at loop headers, adds the bytecodes counted since the last flush to the
/// context and checks the agent's activation counter.
pub const RC_POLL: (&str, &str) = ("poll", "(Lorg/jpprof/runtime/IC;I)V");
/// `IC top`: the innermost active context, saved by static initializers.
pub const RC_TOP: (&str, &str) = ("top", "Lorg/jpprof/runtime/IC;");
/// `void count(int)`: adds a basic block's bytecodes to a context.
pub const IC_COUNT: (&str, &str) = ("count", "(I)V");
/// `void line(int, int)`: adds a block's bytecodes to one source line of a context, with
/// per-line counts on.
pub const IC_LINE: (&str, &str) = ("line", "(II)V");
/// `void site(int, int)`: with call sites on, before each invoke, on the caller's context: the
/// site (`line << 16 | bci`) and the hash of the invoked method's name and descriptor.
pub const IC_SITE: (&str, &str) = ("site", "(II)V");
/// `void metric(String)`: adds one to an exact metric of the method's context, before each
/// allocation instruction with allocation counts on (`allocations:` and the allocated type's Java
/// name) and before each instruction a counting probe chose (the probe's metric).
pub const IC_METRIC: (&str, &str) = ("metric", "(Ljava/lang/String;)V");
/// `void probe(Object, Object[], String, Class)`: before each instruction a handler probe chose,
/// on the method's context: the receiver and arguments the handler gets (a call's; the lock or
/// the exception of `monitorenter` or `athrow`, and none), the handler's name and the probed
/// class, whose loader finds the handler. The receiver comes first: code inserted before an
/// instruction finds it on top of the stack.
pub const IC_PROBE: (&str, &str) = (
    "probe",
    "(Ljava/lang/Object;[Ljava/lang/Object;Ljava/lang/String;Ljava/lang/Class;)V",
);
/// `static MID[] table(String)`: the method identifiers of a class, from
/// `bba.class.name.descriptor.bound...` (`.` cannot occur in a method
/// name or descriptor, JVMS §4.2.2 and §4.3).
pub const MID_TABLE: (&str, &str) = ("table", "(Ljava/lang/String;)[Lorg/jpprof/runtime/MID;");
/// `static MID method(String)`: the identifier of one method of an interface, from
/// `bba.class.name.descriptor.bound`; interfaces hold no identifier field.
pub const MID_METHOD: (&str, &str) = ("method", "(Ljava/lang/String;)Lorg/jpprof/runtime/MID;");
/// The static field that holds a class's method identifiers, set at the
/// very start of `<clinit>`. Interfaces get none: their fields must be
/// `public static final` (JVMS §4.5), and reflection would show them.
/// Typed `Object[]`, not `MID[]`: reflection on the class's fields
/// (`getDeclaredFields`) resolves their types, and must work where the
/// runtime cannot be reached; code casts the table to [`MID_ARRAY`] where
/// it found it set.
pub const MIDS_FIELD: (&str, &str) = ("$jp$mids", "[Ljava/lang/Object;");
/// What the table in [`MIDS_FIELD`] is.
pub const MID_ARRAY: &str = "[Lorg/jpprof/runtime/MID;";
/// Its flags in a class.
pub const MIDS_FIELD_FLAGS: u16 = ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC;
/// The static field that records, in a class whose methods may run before
/// its initializer (see `profile::ids`), that the initializer found the
/// runtime unreachable, so that those methods stop trying to build the
/// identifier table themselves.
pub const NO_RUNTIME_FIELD: (&str, &str) = ("$jp$noruntime", "Z");
/// Its flags.
pub const NO_RUNTIME_FIELD_FLAGS: u16 = ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC;
/// The class attribute that marks an instrumented class. The JVM ignores
/// attributes it does not know (JVMS §4.7.1).
pub const MARKER_ATTRIBUTE: &str = "org.jpprof.Instrumented";
/// The field that keeps a serializable class's original default
/// `serialVersionUID` when JP adds a `<clinit>` (Java Object Serialization
/// Specification §4.6). Serialization reads it by name whatever its flags.
pub const SERIAL_VERSION_UID: (&str, &str) = ("serialVersionUID", "J");
/// Its flags.
pub const SERIAL_VERSION_UID_FLAGS: u16 = ACC_PRIVATE | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC;
