//! Positions in a method's code: [`Pc`], an offset in the original `code`
//! array, and [`Label`], an opaque name for a position in the code being
//! built, resolved to an offset only when the code is laid out.

use std::fmt;

/// An offset into the original `code` array, as `javap -c` prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pc(pub u32);

impl fmt::Display for Pc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A position in a method's code, made by the
/// [`MethodBody`](crate::MethodBody) it belongs to: either the position of
/// an original instruction ([`MethodBody::label_at`](crate::MethodBody::label_at))
/// or a fresh one for inserted code
/// ([`MethodBody::new_label`](crate::MethodBody::new_label)).
///
/// Inside this crate the number of a label of original code is its pc,
/// and fresh labels are numbered past the end of the original code, so
/// that decoding needs no table; outside, a label is only compared for
/// equality and printed (labels have no order: a label of inserted code
/// has no place among the original pcs until the layout gives it one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Label(pub(crate) u32);

impl Label {
    /// The label that decoding gives the original instruction at `pc`.
    pub(crate) fn original(pc: Pc) -> Label {
        Label(pc.0)
    }

    /// The original pc this label would stand for, if it is one of the
    /// first `code_length + 1` labels.
    pub(crate) fn original_pc(self, code_length: u32) -> Option<Pc> {
        (self.0 <= code_length).then_some(Pc(self.0))
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}
