//! A small arena, [`PrimaryMap`], that hands out typed ids.

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use crate::ids::EntityId;

/// A vector of `V` indexed by the typed id `K`; pushing returns the new id.
#[derive(Clone, Debug, PartialEq)]
pub struct PrimaryMap<K, V> {
    items: Vec<V>,
    key: PhantomData<K>,
}

impl<K: EntityId, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityId, V> PrimaryMap<K, V> {
    /// An empty arena.
    pub fn new() -> Self {
        PrimaryMap {
            items: Vec::new(),
            key: PhantomData,
        }
    }

    /// Adds a value and returns its id.
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(v);
        k
    }

    /// The value of `k`, if `k` belongs to this arena.
    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }

    /// The value of `k` mutably, if `k` belongs to this arena.
    pub fn get_mut(&mut self, k: K) -> Option<&mut V> {
        self.items.get_mut(k.index())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The id the next push will return.
    pub fn next_key(&self) -> K {
        K::new(self.items.len())
    }

    /// The ids and values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// The ids, in order.
    pub fn keys(&self) -> impl Iterator<Item = K> + use<K, V> {
        (0..self.items.len()).map(K::new)
    }

    /// The values, in order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.items.iter()
    }
}

/// Panics when `k` is not from this arena, like indexing a `Vec`; use
/// [`PrimaryMap::get`] on ids that may come from elsewhere.
impl<K: EntityId, V> Index<K> for PrimaryMap<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: EntityId, V> IndexMut<K> for PrimaryMap<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::VarId;

    #[test]
    fn push_and_index() {
        let mut m: PrimaryMap<VarId, &str> = PrimaryMap::new();
        let a = m.push("a");
        let b = m.push("b");
        assert_eq!(m[a], "a");
        assert_eq!(m[b], "b");
        assert_eq!(m.len(), 2);
        assert_eq!(m.get(VarId::new(7)), None);
        assert_eq!(m.keys().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(m.next_key().index(), 2);
    }
}
