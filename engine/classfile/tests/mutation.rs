//! Deterministic mutation testing over the corpus: thousands of corrupted copies of the testdata
//! classes (bit flips, byte overwrites, truncations, forged counts and lengths, inserted and
//! deleted runs), made by a fixed-seed PRNG so that every run sees the same inputs.
//!
//! For each mutant, parsing returns `Ok` or `Err` and never panics; a mutant that parses is
//! written back identically by the lossless writer; and `deep::reencode` does not panic, and
//! when it succeeds gives back the mutant too.
//!
//! `JP_MUTATION_SEED` and `JP_MUTANTS` explore other inputs; a failing mutant is saved under
//! the target directory so it can become a fuzz regression (`engine/fuzz/regressions/`).

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use common::{first_difference, short, testdata_classes};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{deep, ClassFile, ClassWriter, RawAttribute};

const DEFAULT_SEED: u64 = 0x4A50_2D6D_7574_616E; // "JP-mutan"
const DEFAULT_MUTANTS: usize = 10_000;

/// xorshift64* (Vigna, 2014): small, fast and good enough to pick positions and values.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`; `n` must not be 0.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Offsets of the structural fields of a class (counts, lengths, indices) that the parser must
/// distrust: `attributes_count` of members, each attribute's name index and `u4` length, and in
/// `Code` the code length, exception table length and nested attributes.
fn structural_offsets(bytes: &[u8]) -> Vec<usize> {
    let class = ClassFile::parse(bytes).expect("corpus class parses");
    let pool = &class.constant_pool;
    let mut offsets = vec![8]; // constant_pool_count
    let attributes = |list: &[RawAttribute<'_>], offsets: &mut Vec<usize>| {
        for attribute in list {
            let at = attribute.info_offset;
            offsets.extend([at - 6, at - 4, at - 2]); // name index, length (both halves)
            if attribute.name == names::CODE {
                if let Ok(code) = Code::from_raw(attribute, pool) {
                    let code_end = code.code_offset + code.code.len();
                    offsets.extend([at + 4, at + 6, code_end]); // code_length, exception_table_length
                    for nested in &code.attributes {
                        let n = nested.info_offset;
                        offsets.extend([n - 6, n - 4, n - 2, n]);
                    }
                }
            } else if !attribute.info.is_empty() {
                offsets.push(at); // the first count or index inside the attribute
            }
        }
    };
    for member in class.fields.iter().chain(&class.methods) {
        offsets.extend([member.offset + 2, member.offset + 4, member.offset + 6]);
        attributes(&member.attributes, &mut offsets);
    }
    attributes(&class.attributes, &mut offsets);
    offsets.retain(|&o| o + 2 <= bytes.len());
    offsets
}

/// One way of corrupting an input, described for failure reports.
fn mutate(rng: &mut XorShift, original: &[u8], structural: &[usize]) -> (Vec<u8>, String) {
    let mut bytes = original.to_vec();
    let len = bytes.len();
    let at = rng.below(len);
    let description = match rng.below(6) {
        0 => {
            let flips = 1 + rng.below(4);
            for _ in 0..flips {
                let position = rng.below(len);
                bytes[position] ^= 1 << rng.below(8);
            }
            format!("{flips} bit flips from {at:#x}")
        }
        1 => {
            let value = rng.pick(&[0x00, 0xFF, 0x7F, 0x80]);
            bytes[at] = value;
            format!("byte at {at:#x} set to {value:#04x}")
        }
        2 => {
            bytes.truncate(at);
            format!("truncated to {at} bytes")
        }
        3 => {
            // A forged u2 field, usually one the parser must not trust.
            let position = if rng.below(4) == 0 || structural.is_empty() {
                at.min(len - 2)
            } else {
                rng.pick(structural)
            };
            let value: u16 = rng.pick(&[0xFFFF, 0x8000, 0x7FFF, 0x0100, 0x0000, 0x0001]);
            bytes[position..position + 2].copy_from_slice(&value.to_be_bytes());
            format!("u2 at {position:#x} set to {value:#06x}")
        }
        4 => {
            let run = 1 + rng.below(16);
            let fill = rng.pick(&[None, Some(0x00), Some(0xFF)]);
            let inserted: Vec<u8> = (0..run)
                .map(|_| fill.unwrap_or_else(|| rng.next() as u8))
                .collect();
            bytes.splice(at..at, inserted);
            format!("{run} bytes inserted at {at:#x}")
        }
        _ => {
            let run = (1 + rng.below(16)).min(len - at);
            bytes.drain(at..at + run);
            format!("{run} bytes deleted at {at:#x}")
        }
    };
    (bytes, description)
}

/// What happened to one mutant.
#[derive(Default)]
struct Stats {
    rejected: usize,
    parsed: usize,
    reencoded: usize,
    deep_rejected: usize,
}

/// Checks one mutant, returning what is wrong with JP's handling of it, if anything.
fn check(mutant: &[u8], stats: &mut Stats) -> Result<(), String> {
    let parsed = catch_unwind(|| ClassFile::parse(mutant).map(|_| ()))
        .map_err(|_| "ClassFile::parse panicked".to_string())?;
    if parsed.is_err() {
        stats.rejected += 1;
        return Ok(());
    }
    stats.parsed += 1;
    let class = ClassFile::parse(mutant).expect("parsed a moment ago");
    let written = catch_unwind(AssertUnwindSafe(|| ClassWriter::new(&class).to_bytes()))
        .map_err(|_| "ClassWriter::to_bytes panicked".to_string())?
        .map_err(|e| format!("parsed, but ClassWriter failed: {e}"))?;
    if written != mutant {
        return Err(format!(
            "ClassWriter output differs from offset {:#x}",
            first_difference(mutant, &written)
        ));
    }
    match catch_unwind(AssertUnwindSafe(|| deep::reencode(&class)))
        .map_err(|_| "deep::reencode panicked".to_string())?
    {
        Ok(reencoded) if reencoded == mutant => stats.reencoded += 1,
        Ok(reencoded) => {
            return Err(format!(
                "deep::reencode output differs from offset {:#x}",
                first_difference(mutant, &reencoded)
            ))
        }
        Err(_) => stats.deep_rejected += 1,
    }
    Ok(())
}

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={text} is not a number")))
}

/// Where failing mutants are saved.
fn failure_path(index: usize) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("mutant-{index}.class"))
}

#[test]
fn corrupted_classes_are_refused_or_round_trip_and_never_panic() {
    let seed = env_number("JP_MUTATION_SEED").unwrap_or(DEFAULT_SEED);
    let count = env_number("JP_MUTANTS").map_or(DEFAULT_MUTANTS, |n| n as usize);
    let classes = testdata_classes();
    let structural: Vec<Vec<usize>> = classes
        .iter()
        .map(|(_, bytes)| structural_offsets(bytes))
        .collect();

    // Panics are caught and reported together below; keep their messages out of the output.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = XorShift::new(seed);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for index in 0..count {
        let which = index % classes.len();
        let (path, original) = &classes[which];
        let (mutant, description) = mutate(&mut rng, original, &structural[which]);
        if let Err(problem) = check(&mutant, &mut stats) {
            let saved = failure_path(index);
            std::fs::write(&saved, &mutant).expect("write failing mutant");
            failures.push(format!(
                "mutant {index} of {} ({description}): {problem}; saved as {}",
                short(path),
                saved.display()
            ));
        }
    }
    std::panic::set_hook(default_hook);

    println!(
        "{count} mutants (seed {seed:#x}): {} rejected by parse, {} parsed \
         ({} deep re-encoded identically, {} refused by deep::reencode), {} failures",
        stats.rejected,
        stats.parsed,
        stats.reencoded,
        stats.deep_rejected,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {count} mutants were mishandled:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        stats.rejected > 0 && stats.parsed > 0,
        "the mutants are all alike"
    );
}

#[test]
fn the_mutation_generator_is_deterministic() {
    let original: Vec<u8> = (0..=255).collect();
    let run = || {
        let mut rng = XorShift::new(DEFAULT_SEED);
        (0..100)
            .map(|_| mutate(&mut rng, &original, &[8, 16, 32]))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}
