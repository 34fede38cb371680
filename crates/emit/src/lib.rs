//! Emit: C test drivers, findings reproducers and `tests.json`.
//!
//! Architecture invariant: reads solved test cases only; knows no solver.
