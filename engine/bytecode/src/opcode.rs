//! Opcode numbers (JVMS §6.5) and the operand format of each.

#![allow(missing_docs)]

pub const NOP: u8 = 0x00;
pub const ACONST_NULL: u8 = 0x01;
pub const ICONST_0: u8 = 0x03;
pub const LCONST_0: u8 = 0x09;
pub const LCONST_1: u8 = 0x0a;
pub const BIPUSH: u8 = 0x10;
pub const SIPUSH: u8 = 0x11;
pub const LDC: u8 = 0x12;
pub const LDC_W: u8 = 0x13;
pub const LDC2_W: u8 = 0x14;
pub const ILOAD: u8 = 0x15;
pub const LLOAD: u8 = 0x16;
pub const FLOAD: u8 = 0x17;
pub const DLOAD: u8 = 0x18;
pub const ALOAD: u8 = 0x19;
pub const ILOAD_0: u8 = 0x1a;
pub const ALOAD_3: u8 = 0x2d;
pub const IALOAD: u8 = 0x2e;
pub const AALOAD: u8 = 0x32;
pub const SALOAD: u8 = 0x35;
pub const ISTORE: u8 = 0x36;
pub const LSTORE: u8 = 0x37;
pub const FSTORE: u8 = 0x38;
pub const DSTORE: u8 = 0x39;
pub const ASTORE: u8 = 0x3a;
pub const ISTORE_0: u8 = 0x3b;
pub const ASTORE_3: u8 = 0x4e;
pub const IASTORE: u8 = 0x4f;
pub const AASTORE: u8 = 0x53;
pub const SASTORE: u8 = 0x56;
pub const POP: u8 = 0x57;
pub const DUP: u8 = 0x59;
pub const SWAP: u8 = 0x5f;
pub const IADD: u8 = 0x60;
pub const LADD: u8 = 0x61;
pub const IDIV: u8 = 0x6c;
pub const LDIV: u8 = 0x6d;
pub const IREM: u8 = 0x70;
pub const LREM: u8 = 0x71;
pub const LAND: u8 = 0x7f;
pub const LXOR: u8 = 0x83;
pub const IINC: u8 = 0x84;
pub const I2L: u8 = 0x85;
pub const LCMP: u8 = 0x94;
pub const DCMPG: u8 = 0x98;
pub const IFEQ: u8 = 0x99;
pub const IFNE: u8 = 0x9a;
pub const IFLT: u8 = 0x9b;
pub const IFGE: u8 = 0x9c;
pub const IFGT: u8 = 0x9d;
pub const IFLE: u8 = 0x9e;
pub const IF_ICMPEQ: u8 = 0x9f;
pub const IF_ACMPNE: u8 = 0xa6;
pub const GOTO: u8 = 0xa7;
pub const JSR: u8 = 0xa8;
pub const RET: u8 = 0xa9;
pub const TABLESWITCH: u8 = 0xaa;
pub const LOOKUPSWITCH: u8 = 0xab;
pub const IRETURN: u8 = 0xac;
pub const RETURN: u8 = 0xb1;
pub const GETSTATIC: u8 = 0xb2;
pub const PUTSTATIC: u8 = 0xb3;
pub const GETFIELD: u8 = 0xb4;
pub const PUTFIELD: u8 = 0xb5;
pub const INVOKEVIRTUAL: u8 = 0xb6;
pub const INVOKESPECIAL: u8 = 0xb7;
pub const INVOKESTATIC: u8 = 0xb8;
pub const INVOKEINTERFACE: u8 = 0xb9;
pub const INVOKEDYNAMIC: u8 = 0xba;
pub const NEW: u8 = 0xbb;
pub const NEWARRAY: u8 = 0xbc;
pub const ANEWARRAY: u8 = 0xbd;
pub const ARRAYLENGTH: u8 = 0xbe;
pub const ATHROW: u8 = 0xbf;
pub const CHECKCAST: u8 = 0xc0;
pub const INSTANCEOF: u8 = 0xc1;
pub const MONITORENTER: u8 = 0xc2;
pub const MONITOREXIT: u8 = 0xc3;
pub const WIDE: u8 = 0xc4;
pub const MULTIANEWARRAY: u8 = 0xc5;
pub const IFNULL: u8 = 0xc6;
pub const IFNONNULL: u8 = 0xc7;
pub const GOTO_W: u8 = 0xc8;
pub const JSR_W: u8 = 0xc9;

/// How an opcode's operands are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// No operands.
    None,
    /// `bipush`: a signed byte.
    Byte,
    /// `sipush`: a signed short.
    Short,
    /// `ldc`: a one-byte constant-pool index.
    CpIndex1,
    /// A two-byte constant-pool index.
    CpIndex2,
    /// A local-variable index (one byte, two after `wide`).
    Local,
    /// `iinc`: local index and signed increment.
    Iinc,
    /// A two-byte branch offset.
    Branch2,
    /// A four-byte branch offset.
    Branch4,
    /// `tableswitch`.
    TableSwitch,
    /// `lookupswitch`.
    LookupSwitch,
    /// `invokeinterface`: index, count, zero.
    InvokeInterface,
    /// `invokedynamic`: index, zero, zero.
    InvokeDynamic,
    /// `newarray`: an array type code.
    NewArray,
    /// `multianewarray`: index and dimensions.
    MultiANewArray,
    /// The `wide` prefix.
    Wide,
    /// Not an opcode of the JVM (JVMS §6.2 reserves 0xca–0xff; 0xba was
    /// unused before Java 7).
    Invalid,
}

/// The operand format of `opcode`.
pub fn format(opcode: u8) -> Format {
    match opcode {
        BIPUSH => Format::Byte,
        SIPUSH => Format::Short,
        LDC => Format::CpIndex1,
        LDC_W | LDC2_W => Format::CpIndex2,
        ILOAD..=ALOAD | ISTORE..=ASTORE | RET => Format::Local,
        IINC => Format::Iinc,
        IFEQ..=JSR | IFNULL | IFNONNULL => Format::Branch2,
        GOTO_W | JSR_W => Format::Branch4,
        TABLESWITCH => Format::TableSwitch,
        LOOKUPSWITCH => Format::LookupSwitch,
        GETSTATIC..=INVOKESTATIC | NEW | ANEWARRAY | CHECKCAST | INSTANCEOF => Format::CpIndex2,
        INVOKEINTERFACE => Format::InvokeInterface,
        INVOKEDYNAMIC => Format::InvokeDynamic,
        NEWARRAY => Format::NewArray,
        MULTIANEWARRAY => Format::MultiANewArray,
        WIDE => Format::Wide,
        0xca..=0xff => Format::Invalid,
        _ => Format::None,
    }
}

/// The `javap` mnemonic of `opcode`.
pub fn mnemonic(opcode: u8) -> &'static str {
    const NAMES: [&str; 202] = [
        "nop",
        "aconst_null",
        "iconst_m1",
        "iconst_0",
        "iconst_1",
        "iconst_2",
        "iconst_3",
        "iconst_4",
        "iconst_5",
        "lconst_0",
        "lconst_1",
        "fconst_0",
        "fconst_1",
        "fconst_2",
        "dconst_0",
        "dconst_1",
        "bipush",
        "sipush",
        "ldc",
        "ldc_w",
        "ldc2_w",
        "iload",
        "lload",
        "fload",
        "dload",
        "aload",
        "iload_0",
        "iload_1",
        "iload_2",
        "iload_3",
        "lload_0",
        "lload_1",
        "lload_2",
        "lload_3",
        "fload_0",
        "fload_1",
        "fload_2",
        "fload_3",
        "dload_0",
        "dload_1",
        "dload_2",
        "dload_3",
        "aload_0",
        "aload_1",
        "aload_2",
        "aload_3",
        "iaload",
        "laload",
        "faload",
        "daload",
        "aaload",
        "baload",
        "caload",
        "saload",
        "istore",
        "lstore",
        "fstore",
        "dstore",
        "astore",
        "istore_0",
        "istore_1",
        "istore_2",
        "istore_3",
        "lstore_0",
        "lstore_1",
        "lstore_2",
        "lstore_3",
        "fstore_0",
        "fstore_1",
        "fstore_2",
        "fstore_3",
        "dstore_0",
        "dstore_1",
        "dstore_2",
        "dstore_3",
        "astore_0",
        "astore_1",
        "astore_2",
        "astore_3",
        "iastore",
        "lastore",
        "fastore",
        "dastore",
        "aastore",
        "bastore",
        "castore",
        "sastore",
        "pop",
        "pop2",
        "dup",
        "dup_x1",
        "dup_x2",
        "dup2",
        "dup2_x1",
        "dup2_x2",
        "swap",
        "iadd",
        "ladd",
        "fadd",
        "dadd",
        "isub",
        "lsub",
        "fsub",
        "dsub",
        "imul",
        "lmul",
        "fmul",
        "dmul",
        "idiv",
        "ldiv",
        "fdiv",
        "ddiv",
        "irem",
        "lrem",
        "frem",
        "drem",
        "ineg",
        "lneg",
        "fneg",
        "dneg",
        "ishl",
        "lshl",
        "ishr",
        "lshr",
        "iushr",
        "lushr",
        "iand",
        "land",
        "ior",
        "lor",
        "ixor",
        "lxor",
        "iinc",
        "i2l",
        "i2f",
        "i2d",
        "l2i",
        "l2f",
        "l2d",
        "f2i",
        "f2l",
        "f2d",
        "d2i",
        "d2l",
        "d2f",
        "i2b",
        "i2c",
        "i2s",
        "lcmp",
        "fcmpl",
        "fcmpg",
        "dcmpl",
        "dcmpg",
        "ifeq",
        "ifne",
        "iflt",
        "ifge",
        "ifgt",
        "ifle",
        "if_icmpeq",
        "if_icmpne",
        "if_icmplt",
        "if_icmpge",
        "if_icmpgt",
        "if_icmple",
        "if_acmpeq",
        "if_acmpne",
        "goto",
        "jsr",
        "ret",
        "tableswitch",
        "lookupswitch",
        "ireturn",
        "lreturn",
        "freturn",
        "dreturn",
        "areturn",
        "return",
        "getstatic",
        "putstatic",
        "getfield",
        "putfield",
        "invokevirtual",
        "invokespecial",
        "invokestatic",
        "invokeinterface",
        "invokedynamic",
        "new",
        "newarray",
        "anewarray",
        "arraylength",
        "athrow",
        "checkcast",
        "instanceof",
        "monitorenter",
        "monitorexit",
        "wide",
        "multianewarray",
        "ifnull",
        "ifnonnull",
        "goto_w",
        "jsr_w",
    ];
    NAMES.get(usize::from(opcode)).copied().unwrap_or("<invalid>")
}

/// The conditional branch with the opposite condition (`ifeq` ↔ `ifne`,
/// `if_icmplt` ↔ `if_icmpge`, `ifnull` ↔ `ifnonnull`).
pub fn negate_condition(opcode: u8) -> Option<u8> {
    match opcode {
        IFEQ..=IF_ACMPNE => Some(if (opcode - IFEQ) % 2 == 0 {
            opcode + 1
        } else {
            opcode - 1
        }),
        IFNULL => Some(IFNONNULL),
        IFNONNULL => Some(IFNULL),
        _ => None,
    }
}

/// Whether execution never falls through to the next instruction.
pub fn is_unconditional_transfer(opcode: u8) -> bool {
    matches!(
        opcode,
        GOTO | GOTO_W | RET | TABLESWITCH | LOOKUPSWITCH | IRETURN..=RETURN | ATHROW
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_line_up_with_opcode_numbers() {
        assert_eq!(mnemonic(NOP), "nop");
        assert_eq!(mnemonic(IINC), "iinc");
        assert_eq!(mnemonic(TABLESWITCH), "tableswitch");
        assert_eq!(mnemonic(INVOKEDYNAMIC), "invokedynamic");
        assert_eq!(mnemonic(JSR_W), "jsr_w");
        assert_eq!(mnemonic(0xca), "<invalid>");
    }

    #[test]
    fn conditions_negate_in_pairs() {
        assert_eq!(negate_condition(IFEQ), Some(IFNE));
        assert_eq!(negate_condition(IFNE), Some(IFEQ));
        assert_eq!(negate_condition(IF_ICMPEQ + 2), Some(IF_ICMPEQ + 3));
        assert_eq!(negate_condition(IF_ACMPNE), Some(IF_ACMPNE - 1));
        assert_eq!(negate_condition(IFNULL), Some(IFNONNULL));
        assert_eq!(negate_condition(GOTO), None);
    }
}
