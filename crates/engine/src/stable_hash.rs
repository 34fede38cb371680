//! Hash maps and sets that behave the same on every run. The standard ones
//! seed their hash afresh in each process, so the order in which they hold,
//! and drop, their entries changes from run to run. Z3 reuses the ids of the
//! terms dropped, in the order they were dropped; a later term then gets
//! another id, and Z3 answers the very same query with another model. The
//! tests cairn writes must not change from run to run.
// The one place the standard types are named (clippy.toml forbids them
// elsewhere in the engine).
#![allow(clippy::disallowed_types)]

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// The standard hasher with fixed keys.
pub type StableHasher = BuildHasherDefault<DefaultHasher>;

pub type StableHashMap<K, V> = HashMap<K, V, StableHasher>;

pub type StableHashSet<T> = HashSet<T, StableHasher>;
