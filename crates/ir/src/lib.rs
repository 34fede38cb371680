//! The typed intermediate representation shared by every stage of cairn.
//!
//! Architecture invariant: this crate knows neither lang-c nor Z3. A function
//! is locals plus basic blocks; expressions have no side effects (calls,
//! assignments, `++` and `,` are statements; `&&`, `||` and `?:` are control
//! flow), so every condition is its own branch, as gcov counts them.

pub mod analysis;
pub mod callbacks;
pub mod decisions;
pub mod float;
pub mod goals;
pub mod initialiser;
pub mod params;
pub mod preprocessed;
pub mod print;
pub mod program;
pub mod state;
pub mod types;
pub mod verify;
pub mod walk;

pub use analysis::{implied_goals, unconstrained_goals, GoalImplications};
pub use goals::{function_goals, goal_infos, goal_key, program_functions, Arm, Goal, GoalInfo};
pub use initialiser::Success;
pub use params::{capacities, checks_member_null, checks_null, Capacity};
pub use program::*;
pub use state::written_globals;
pub use types::{
    BitField, DataModel, Field, FloatKind, FnSig, IntType, Layout, Member, Packing, StructDef,
    StructId, Type,
};
