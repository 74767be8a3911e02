//! The messages of pprof's `profile.proto` (package `perftools.profiles`,
//! github.com/google/pprof, `proto/profile.proto`) that JP writes, with
//! their field numbers, as `prost` messages; fields JP leaves unset
//! (numeric labels, addresses, drop and keep patterns, times) are left
//! out, which a reader takes as their defaults.

/// The whole file, before gzip.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Profile {
    /// What each of a sample's values counts, in order.
    #[prost(message, repeated, tag = "1")]
    pub sample_type: Vec<ValueType>,
    /// One per calling context.
    #[prost(message, repeated, tag = "2")]
    pub sample: Vec<Sample>,
    /// The one mapping, which says that the functions are known.
    #[prost(message, repeated, tag = "3")]
    pub mapping: Vec<Mapping>,
    /// The places a stack goes through.
    #[prost(message, repeated, tag = "4")]
    pub location: Vec<Location>,
    /// The functions the locations are in.
    #[prost(message, repeated, tag = "5")]
    pub function: Vec<Function>,
    /// Every string of the file, referred to by index; the first is "".
    #[prost(string, repeated, tag = "6")]
    pub string_table: Vec<String>,
    /// Free text about the profile (string indices).
    #[prost(int64, repeated, tag = "13")]
    pub comment: Vec<i64>,
    /// The sample type a reader shows first (a string index, its `type`).
    #[prost(int64, tag = "14")]
    pub default_sample_type: i64,
}

/// A sample type: what a value counts, and in which unit.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueType {
    /// String index: `calls` or `bytecodes`.
    #[prost(int64, tag = "1")]
    pub r#type: i64,
    /// String index: `count`.
    #[prost(int64, tag = "2")]
    pub unit: i64,
}

/// The values of one stack.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Sample {
    /// The stack as location ids, the innermost (leaf) first.
    #[prost(uint64, repeated, tag = "1")]
    pub location_id: Vec<u64>,
    /// One value per sample type.
    #[prost(int64, repeated, tag = "2")]
    pub value: Vec<i64>,
    /// The sample's thread group, when the profile has groups.
    #[prost(message, repeated, tag = "3")]
    pub label: Vec<Label>,
}

/// A text label of a sample: a key and its value, both string indices.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Label {
    /// String index: `thread group`.
    #[prost(int64, tag = "1")]
    pub key: i64,
    /// String index: the group's name.
    #[prost(int64, tag = "2")]
    pub str: i64,
}

/// Where code was loaded from: for pprof, a binary whose addresses it
/// would symbolize, unless the mapping says that its functions are known.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Mapping {
    /// Unique, not 0.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// The locations have functions: nothing to symbolize.
    #[prost(bool, tag = "7")]
    pub has_functions: bool,
}

/// A place in the code: here, a method (and later a line of it).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Location {
    /// Unique, not 0.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// A [`Mapping::id`].
    #[prost(uint64, tag = "2")]
    pub mapping_id: u64,
    /// The function and line; one, as nothing is inlined.
    #[prost(message, repeated, tag = "4")]
    pub line: Vec<Line>,
}

/// A function and a line of its source.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Line {
    /// A [`Function::id`].
    #[prost(uint64, tag = "1")]
    pub function_id: u64,
    /// The source line; 0 when unknown.
    #[prost(int64, tag = "2")]
    pub line: i64,
}

/// A method.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Function {
    /// Unique, not 0.
    #[prost(uint64, tag = "1")]
    pub id: u64,
    /// String index: the name a person reads.
    #[prost(int64, tag = "2")]
    pub name: i64,
    /// String index: the name as the system knows it.
    #[prost(int64, tag = "3")]
    pub system_name: i64,
    /// String index: the source file; 0 ("") when unknown.
    #[prost(int64, tag = "4")]
    pub filename: i64,
}
