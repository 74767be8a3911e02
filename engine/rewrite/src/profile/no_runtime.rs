//! What instrumented code does where its class loader cannot see JP's
//! runtime (an isolated class loader, a child JVM started without the
//! runtime jar): resolving `MID` then throws a `LinkageError`
//! (`NoClassDefFoundError`), which the code that sets or builds a class's
//! identifiers catches. The identifiers stay `null`, and every method runs
//! as the original does, without a context (see [`super::method`]).
//!
//! Nothing here may refer to the runtime: the first class of each class
//! loader that finds the runtime missing prints one warning, and the JDK
//! keeps that state, as a system property per class loader
//! (`jp.runtime.unreachable.<identity hash of the loader, in hex>`, holding
//! the class's name) set with `putIfAbsent`, so that concurrent threads
//! print it once. Two loaders with equal identity hashes share one warning.
//! The warning's own failure (a security manager that refuses the
//! properties) is ignored: it must never break the program.

use jp_bytecode::body::{Handler, MethodBody};
use jp_bytecode::opcode as op;
use jp_bytecode::simulate::StackEffects;
use jp_bytecode::{Frame, Insn, Label, VType};
use jp_classfile::{mutf8, tag, ClassFile, Constant, CpIndex, PoolBuilder};

use super::add_member_ref;
use crate::WarningReason;

/// The constants of a class's fallback code.
pub(super) struct NoRuntime {
    linkage_error: CpIndex,
    get_properties: CpIndex,
    key_prefix: CpIndex,
    /// How the class finds its own `Class`: an `ldc` of it from version 49,
    /// where that is allowed, and `MethodHandles.lookup().lookupClass()`
    /// before.
    this_class: ThisClass,
    get_class_loader: CpIndex,
    identity_hash: CpIndex,
    to_hex: CpIndex,
    concat: CpIndex,
    class_name: CpIndex,
    put_if_absent: CpIndex,
    err: CpIndex,
    message: CpIndex,
    println: CpIndex,
}

enum ThisClass {
    Constant(CpIndex),
    Lookup { lookup: CpIndex, lookup_class: CpIndex },
}

/// The first line of the warning, after `jp: `.
pub(super) const WARNING: &str = "JP's runtime (org.jpprof.runtime) is not visible to the class loader of";

impl NoRuntime {
    pub(super) fn add(
        class: &ClassFile<'_>,
        (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
    ) -> Result<NoRuntime, WarningReason> {
        let mut method = |owner: &str, name: &str, descriptor: &str| {
            add_member_ref(
                (&mut *pool, &mut *effects),
                tag::METHODREF,
                owner.as_bytes(),
                (name.as_bytes(), descriptor.as_bytes()),
            )
        };
        let get_properties = method("java/lang/System", "getProperties", "()Ljava/util/Properties;")?;
        let get_class_loader = method("java/lang/Class", "getClassLoader", "()Ljava/lang/ClassLoader;")?;
        let identity_hash = method("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I")?;
        let to_hex = method("java/lang/Integer", "toHexString", "(I)Ljava/lang/String;")?;
        let concat = method(
            "java/lang/String",
            "concat",
            "(Ljava/lang/String;)Ljava/lang/String;",
        )?;
        let put_if_absent = method(
            "java/util/Properties",
            "putIfAbsent",
            "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
        )?;
        let println = method("java/io/PrintStream", "println", "(Ljava/lang/String;)V")?;
        let this_class = if class.major_version >= 49 {
            ThisClass::Constant(pool.add_class_raw(class.this_class_name())?)
        } else {
            ThisClass::Lookup {
                lookup: method(
                    "java/lang/invoke/MethodHandles",
                    "lookup",
                    "()Ljava/lang/invoke/MethodHandles$Lookup;",
                )?,
                lookup_class: method(
                    "java/lang/invoke/MethodHandles$Lookup",
                    "lookupClass",
                    "()Ljava/lang/Class;",
                )?,
            }
        };
        let name = mutf8::to_str_lossy(class.this_class_name()).replace('/', ".");
        let mut string = |text: &str| -> Result<CpIndex, WarningReason> {
            let string = pool.add_utf8(text)?;
            Ok(pool.add(Constant::String { string })?)
        };
        Ok(NoRuntime {
            key_prefix: string("jp.runtime.unreachable.")?,
            class_name: string(&name)?,
            message: string(&format!(
                "jp: {WARNING} {name}; the instrumented classes of that loader run uncounted"
            ))?,
            linkage_error: pool.add_class("java/lang/LinkageError")?,
            err: add_member_ref(
                (pool, effects),
                tag::FIELDREF,
                b"java/lang/System",
                (b"err", b"Ljava/io/PrintStream;"),
            )?,
            get_properties,
            this_class,
            get_class_loader,
            identity_hash,
            to_hex,
            concat,
            put_if_absent,
            println,
        })
    }

    /// `try { tried } catch (LinkageError e) { caught }`: `tried` pushes one
    /// value of type `pushed`, and `caught`, which starts with the error on
    /// the stack, pushes one in its place (a `null`). It runs where the
    /// stack is empty (a handler clears it) and the locals are `locals`.
    pub(super) fn try_or(
        &self,
        body: &mut MethodBody<'_>,
        locals: &[VType],
        tried: Vec<Insn>,
        caught: Vec<Insn>,
        pushed: VType,
    ) -> Result<Vec<Insn>, WarningReason> {
        let [start, end, handler, join] = [
            body.new_label(),
            body.new_label(),
            body.new_label(),
            body.new_label(),
        ];
        self.catch(body, [start, end, handler], locals)?;
        add_frame(body, join, locals, pushed)?;
        let mut code = vec![Insn::Label(start)];
        code.extend(tried);
        code.extend([
            Insn::Label(end),
            Insn::Branch {
                opcode: op::GOTO,
                target: join,
            },
            Insn::Label(handler),
        ]);
        code.extend(caught);
        code.push(Insn::Label(join));
        Ok(code)
    }

    /// Makes `handler` catch the `LinkageError`s of the inserted code from
    /// `start` to `end`, where the locals are `locals`.
    pub(super) fn catch(
        &self,
        body: &mut MethodBody<'_>,
        [start, end, handler]: [Label; 3],
        locals: &[VType],
    ) -> Result<(), WarningReason> {
        body.add_handler_over_inserted(Handler {
            start,
            end,
            handler,
            catch_type: self.linkage_error,
        })?;
        add_frame(
            body,
            handler,
            locals,
            VType::Object(b"java/lang/LinkageError".as_slice().into()),
        )
    }

    /// Code that takes the caught error off the stack and prints the
    /// warning, unless one was printed for this class loader already.
    pub(super) fn warn(
        &self,
        body: &mut MethodBody<'_>,
        locals: &[VType],
    ) -> Result<Vec<Insn>, WarningReason> {
        let [start, end, failed, done] = [
            body.new_label(),
            body.new_label(),
            body.new_label(),
            body.new_label(),
        ];
        body.add_handler_over_inserted(Handler {
            start,
            end,
            handler: failed,
            catch_type: CpIndex(0),
        })?;
        add_frame(
            body,
            failed,
            locals,
            VType::Object(b"java/lang/Throwable".as_slice().into()),
        )?;
        body.add_frame(
            done,
            Frame {
                locals: locals.to_vec(),
                stack: Vec::new(),
            },
        )?;
        let call = |opcode, index| Insn::Ref { opcode, index };
        let ldc = |index| Insn::Ldc {
            index,
            category2: false,
        };
        let mut code = vec![
            Insn::Plain(op::POP),
            Insn::Label(start),
            call(op::INVOKESTATIC, self.get_properties),
            ldc(self.key_prefix),
        ];
        match self.this_class {
            ThisClass::Constant(class) => code.push(ldc(class)),
            ThisClass::Lookup { lookup, lookup_class } => code.extend([
                call(op::INVOKESTATIC, lookup),
                call(op::INVOKEVIRTUAL, lookup_class),
            ]),
        }
        code.extend([
            call(op::INVOKEVIRTUAL, self.get_class_loader),
            call(op::INVOKESTATIC, self.identity_hash),
            call(op::INVOKESTATIC, self.to_hex),
            call(op::INVOKEVIRTUAL, self.concat),
            ldc(self.class_name),
            call(op::INVOKEVIRTUAL, self.put_if_absent),
            Insn::Branch {
                opcode: op::IFNONNULL,
                target: done,
            },
            call(op::GETSTATIC, self.err),
            ldc(self.message),
            call(op::INVOKEVIRTUAL, self.println),
            // Falls into the handler's `pop` with a value to drop, as the
            // handler starts with the one it caught.
            Insn::Plain(op::ACONST_NULL),
            Insn::Label(end),
            Insn::Label(failed),
            Insn::Plain(op::POP),
            Insn::Label(done),
        ]);
        Ok(code)
    }
}

/// Adds a frame at `label` with `locals` and one value of type `top` on the stack.
fn add_frame(
    body: &mut MethodBody<'_>,
    label: Label,
    locals: &[VType],
    top: VType,
) -> Result<(), WarningReason> {
    Ok(body.add_frame(
        label,
        Frame {
            locals: locals.to_vec(),
            stack: vec![top],
        },
    )?)
}
