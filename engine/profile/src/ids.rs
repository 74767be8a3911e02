//! The map from a file's `frame` and `node` ids to the model's indices.
//!
//! Ids only need to be unique, but writers number them from 1 in file
//! order, so the map keeps ids that arrive in that order in a vector and
//! only the others in a hash map.

use std::collections::HashMap;

use crate::hash::IntHash;

/// File ids (positive) to `u32` indices.
#[derive(Debug, Default)]
pub(crate) struct IdMap {
    /// The value of id `i + 1` at `i`: ids 1 to `dense.len()` are all here.
    dense: Vec<u32>,
    /// Every other id; never one of `1..=dense.len()`.
    sparse: HashMap<u64, u32, IntHash>,
}

impl IdMap {
    pub(crate) fn get(&self, id: u64) -> Option<u32> {
        match usize::try_from(id) {
            Ok(i @ 1..) if i <= self.dense.len() => Some(self.dense[i - 1]),
            _ => self.sparse.get(&id).copied(),
        }
    }

    /// Records `id`; false, and nothing changes, when it is already there.
    pub(crate) fn insert(&mut self, id: u64, value: u32) -> bool {
        debug_assert!(id != 0);
        if self.get(id).is_some() {
            return false;
        }
        if id == self.dense.len() as u64 + 1 {
            self.dense.push(value);
        } else {
            self.sparse.insert(id, value);
        }
        true
    }

    /// Every (id, value), in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let dense = self.dense.iter().enumerate().map(|(i, &v)| (i as u64 + 1, v));
        dense.chain(self.sparse.iter().map(|(&id, &v)| (id, v)))
    }

    /// The id of `value`, by a linear search (for error messages).
    pub(crate) fn id_of(&self, value: u32) -> Option<u64> {
        self.iter().find_map(|(id, v)| (v == value).then_some(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_file_order_and_out_of_it_are_both_found() {
        let mut map = IdMap::default();
        for (id, value) in [(1, 10), (2, 20), (5, 50), (3, 30), (4, 40), (6, 60), (100, 7)] {
            assert!(map.insert(id, value));
        }
        assert_eq!(map.dense.len(), 4);
        for (id, value) in [(1, 10), (2, 20), (3, 30), (4, 40), (5, 50), (6, 60), (100, 7)] {
            assert_eq!(map.get(id), Some(value), "id {id}");
        }
        assert_eq!(map.get(0), None);
        assert_eq!(map.get(7), None);
        assert_eq!(map.id_of(50), Some(5));
    }

    #[test]
    fn an_id_is_refused_a_second_time_wherever_it_is_kept() {
        let mut map = IdMap::default();
        assert!(map.insert(1, 1));
        assert!(map.insert(3, 3));
        assert!(map.insert(2, 2));
        assert!(!map.insert(1, 9));
        assert!(!map.insert(3, 9));
        assert_eq!(map.get(3), Some(3));
        assert!(map.insert(4, 4));
        assert_eq!(map.iter().count(), 4);
    }
}
