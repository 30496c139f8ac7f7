//! The shape of an array, stored inline up to rank [`INLINE_RANK`].
//!
//! Generated code makes many small arrays (a row of three coordinates, a
//! 4×4 transform) inside its loops; keeping their shapes inline, instead of
//! in a vector of their own, saves one allocation per array. A [`Shape`]
//! reads as a slice of dimensions (`Deref<Target = [usize]>`).

use std::ops::{Deref, DerefMut};

/// The largest rank stored without an allocation.
pub const INLINE_RANK: usize = 4;

/// The dimensions of an array, outermost first.
#[derive(Clone)]
pub enum Shape {
    /// Up to [`INLINE_RANK`] dimensions: the rank and the dimensions.
    Inline(u8, [usize; INLINE_RANK]),
    /// More dimensions.
    Heap(Vec<usize>),
}

impl Shape {
    /// The shape with dimensions `dims`.
    pub fn from_slice(dims: &[usize]) -> Shape {
        if dims.len() <= INLINE_RANK {
            let mut a = [0; INLINE_RANK];
            a[..dims.len()].copy_from_slice(dims);
            Shape::Inline(dims.len() as u8, a)
        } else {
            Shape::Heap(dims.to_vec())
        }
    }

    /// The shape of `w` rows of shape `row`.
    pub fn stacked(w: usize, row: &[usize]) -> Shape {
        if row.len() < INLINE_RANK {
            let mut a = [0; INLINE_RANK];
            a[0] = w;
            a[1..=row.len()].copy_from_slice(row);
            Shape::Inline(row.len() as u8 + 1, a)
        } else {
            let mut v = Vec::with_capacity(row.len() + 1);
            v.push(w);
            v.extend_from_slice(row);
            Shape::Heap(v)
        }
    }

    /// The number of elements of an array of this shape.
    pub fn elems(&self) -> usize {
        self.iter().product()
    }
}

impl Deref for Shape {
    type Target = [usize];

    #[inline]
    fn deref(&self) -> &[usize] {
        match self {
            Shape::Inline(n, a) => &a[..*n as usize],
            Shape::Heap(v) => v,
        }
    }
}

impl DerefMut for Shape {
    #[inline]
    fn deref_mut(&mut self) -> &mut [usize] {
        match self {
            Shape::Inline(n, a) => &mut a[..*n as usize],
            Shape::Heap(v) => v,
        }
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Shape) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Shape {}

impl PartialEq<Vec<usize>> for Shape {
    fn eq(&self, other: &Vec<usize>) -> bool {
        self[..] == other[..]
    }
}

impl PartialEq<[usize]> for Shape {
    fn eq(&self, other: &[usize]) -> bool {
        self[..] == *other
    }
}

impl<const N: usize> PartialEq<[usize; N]> for Shape {
    fn eq(&self, other: &[usize; N]) -> bool {
        self[..] == other[..]
    }
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<usize>> for Shape {
    fn from(v: Vec<usize>) -> Shape {
        if v.len() <= INLINE_RANK {
            Shape::from_slice(&v)
        } else {
            Shape::Heap(v)
        }
    }
}

impl From<&[usize]> for Shape {
    fn from(v: &[usize]) -> Shape {
        Shape::from_slice(v)
    }
}

impl From<&Vec<usize>> for Shape {
    fn from(v: &Vec<usize>) -> Shape {
        Shape::from_slice(v)
    }
}

impl<const N: usize> From<[usize; N]> for Shape {
    fn from(v: [usize; N]) -> Shape {
        Shape::from_slice(&v)
    }
}

impl From<Shape> for Vec<usize> {
    fn from(s: Shape) -> Vec<usize> {
        match s {
            Shape::Heap(v) => v,
            s => s.to_vec(),
        }
    }
}

impl<'a> IntoIterator for &'a Shape {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_shapes_are_inline_and_read_as_slices() {
        let s = Shape::from([2, 3]);
        assert!(matches!(s, Shape::Inline(2, _)));
        assert_eq!(&s[..], &[2, 3]);
        assert_eq!(s.elems(), 6);
        assert_eq!(s, vec![2, 3]);
        assert_eq!(Shape::stacked(4, &s), [4, 2, 3]);
        let big = Shape::from(vec![1, 2, 3, 4, 5]);
        assert!(matches!(big, Shape::Heap(_)));
        assert_eq!(Shape::stacked(7, &big).len(), 6);
        assert_eq!(Shape::stacked(7, &[1, 2, 3]), [7, 1, 2, 3]);
        assert_eq!(Vec::from(big.clone()), vec![1, 2, 3, 4, 5]);
        assert_eq!(format!("{:?}", Shape::from([0])), "[0]");
        let mut m = Shape::from([2, 2]);
        m[0] = 5;
        assert_eq!(m, [5, 2]);
    }
}
