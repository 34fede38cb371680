//! The bytes of an object, shared between path states in chunks.
//!
//! Every fork copies its state's objects. A 40 KB configuration struct held
//! as one vector of cells is copied whole (about 2 MB of cells) by each
//! state that writes or first reads one of its members; a few hundred
//! waiting states then fill the memory bound and stop the search. Held in
//! chunks, a copy shares every chunk and a write copies only its own.

use std::borrow::Cow;
use std::ops::{Index, IndexMut, Range};
use std::rc::Rc;

/// Elements per chunk: small enough that a write copies little, large
/// enough that a copy of the chunk list is cheap.
const CHUNK: usize = 64;

/// A vector whose copies share the chunks neither has changed.
#[derive(Clone, Debug, Default)]
pub struct ChunkedVec<T> {
    chunks: Vec<Rc<Vec<T>>>,
    len: usize,
}

impl<T: Clone> ChunkedVec<T> {
    pub fn from_vec(items: Vec<T>) -> Self {
        let len = items.len();
        let chunks = items
            .chunks(CHUNK)
            .map(|chunk| Rc::new(chunk.to_vec()))
            .collect();
        ChunkedVec { chunks, len }
    }

    /// `len` copies of `value`, every full chunk the same one.
    pub fn filled(value: T, len: usize) -> Self {
        let full = Rc::new(vec![value.clone(); CHUNK]);
        let mut chunks = vec![full; len / CHUNK];
        if !len.is_multiple_of(CHUNK) {
            chunks.push(Rc::new(vec![value; len % CHUNK]));
        }
        ChunkedVec { chunks, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        (i < self.len).then(|| &self.chunks[i / CHUNK][i % CHUNK])
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        (i < self.len).then(|| &mut Rc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK])
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// The elements of `range` (which must lie within the vector).
    pub fn iter_range(&self, range: Range<usize>) -> impl Iterator<Item = &T> + '_ {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "range within the vector"
        );
        self.chunks[(range.start / CHUNK).min(self.chunks.len())..]
            .iter()
            .flat_map(|chunk| chunk.iter())
            .skip(range.start % CHUNK)
            .take(range.end - range.start)
    }

    /// The elements of `range`, borrowed when they lie in one chunk;
    /// `None` past the end, as a slice's `get`.
    pub fn get_range(&self, range: Range<usize>) -> Option<Cow<'_, [T]>> {
        if range.start > range.end || range.end > self.len {
            return None;
        }
        let chunk = range.start / CHUNK;
        let at = range.start % CHUNK;
        Some(match at + range.len() <= CHUNK {
            _ if range.is_empty() => Cow::Borrowed(&[]),
            true => Cow::Borrowed(&self.chunks[chunk][at..at + range.len()]),
            false => Cow::Owned(self.iter_range(range).cloned().collect()),
        })
    }

    /// Every element, in one slice.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }

    /// Gives every element `value`, sharing the chunks.
    pub fn fill(&mut self, value: T) {
        *self = Self::filled(value, self.len);
    }

    /// Each element, to change in place (copies the chunks shared).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.chunks
            .iter_mut()
            .flat_map(|chunk| Rc::make_mut(chunk).iter_mut())
    }

    /// Applies `change` to the chunks `needs` picks, copying only those
    /// (a chunk is a part of the vector, in order).
    pub fn change_where(&mut self, needs: impl Fn(&[T]) -> bool, mut change: impl FnMut(&mut [T])) {
        for chunk in &mut self.chunks {
            if needs(chunk) {
                change(Rc::<Vec<T>>::make_mut(chunk));
            }
        }
    }

    /// For each element, whether it is the one of `earlier` (a copy made
    /// before): in a chunk both still share, or `same` as the element there.
    /// Every element of a vector of another length differs.
    pub fn unchanged_since(&self, earlier: &Self, same: impl Fn(&T, &T) -> bool) -> Vec<bool> {
        if self.len != earlier.len {
            return vec![false; self.len];
        }
        let mut unchanged = Vec::with_capacity(self.len);
        for (now, then) in self.chunks.iter().zip(&earlier.chunks) {
            if Rc::ptr_eq(now, then) {
                unchanged.extend(std::iter::repeat_n(true, now.len()));
            } else {
                unchanged.extend(now.iter().zip(then.iter()).map(|(a, b)| same(a, b)));
            }
        }
        unchanged
    }

    pub fn push(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(last) if !self.len.is_multiple_of(CHUNK) => Rc::make_mut(last).push(value),
            _ => self.chunks.push(Rc::new(vec![value])),
        }
        self.len += 1;
    }
}

impl<T: Clone> Extend<T> for ChunkedVec<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

impl<T: Clone> Index<usize> for ChunkedVec<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        self.get(i).expect("index within the vector")
    }
}

impl<T: Clone> IndexMut<usize> for ChunkedVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.get_mut(i).expect("index within the vector")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_shares_every_chunk_but_the_one_written() {
        let mut original = ChunkedVec::from_vec((0..200u32).collect());
        let copy = original.clone();
        original[130] = 7;
        assert_eq!(copy[130], 130);
        assert_eq!(original[130], 7);
        let shared = (original.chunks.iter().zip(&copy.chunks))
            .filter(|(a, b)| Rc::ptr_eq(a, b))
            .count();
        assert_eq!(shared, original.chunks.len() - 1);
    }

    #[test]
    fn elements_unchanged_since_a_copy_are_those_shared_or_the_same() {
        let mut now = ChunkedVec::from_vec((0..150u32).collect());
        let then = now.clone();
        now[70] = 1;
        now[71] = 71;
        // Only a chunk still shared counts when no two elements are the same.
        let unchanged = now.unchanged_since(&then, |_, _| false);
        assert_eq!(unchanged.len(), 150);
        assert!(unchanged[..64].iter().all(|&u| u));
        assert!(unchanged[64..128].iter().all(|&u| !u));
        assert!(unchanged[128..].iter().all(|&u| u));
        // Within a chunk copied since, an element equal to its old one is unchanged.
        let unchanged = now.unchanged_since(&then, |a, b| a == b);
        assert!((0..150).all(|i| unchanged[i] == (i != 70)));
        now.push(9);
        assert!(now
            .unchanged_since(&then, |a, b| a == b)
            .iter()
            .all(|&u| !u));
    }

    #[test]
    fn ranges_read_across_chunks_as_a_slice_would() {
        let items: Vec<u32> = (0..300).collect();
        let chunked = ChunkedVec::from_vec(items.clone());
        for range in [
            0..0,
            300..300,
            64..64,
            5..60,
            60..70,
            63..64,
            64..200,
            0..300,
            299..300,
        ] {
            assert_eq!(
                *chunked.get_range(range.clone()).unwrap(),
                items[range.clone()]
            );
            assert!(chunked.iter_range(range.clone()).eq(items[range].iter()));
        }
        assert!(chunked.get_range(290..301).is_none());
        assert_eq!(chunked.get(300), None);
        assert!(chunked.iter().eq(items.iter()));
    }

    #[test]
    fn filled_pushed_and_extended_vectors_hold_what_was_put() {
        let mut v = ChunkedVec::filled(1u8, 130);
        assert_eq!(v.len(), 130);
        assert!(v.iter().all(|&x| x == 1));
        v.extend([2, 3]);
        v.push(4);
        assert_eq!(v.len(), 133);
        assert_eq!(v.to_vec()[128..], [1, 1, 2, 3, 4]);
        for x in v.iter_mut() {
            *x += 1;
        }
        assert_eq!(v[0], 2);
        v.fill(9);
        assert_eq!(v.len(), 133);
        assert!(v.iter().all(|&x| x == 9));
        let mut empty = ChunkedVec::default();
        empty.push(5u8);
        assert_eq!(empty.to_vec(), [5]);
    }
}
