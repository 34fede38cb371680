//! What the engine hands on: concrete tests, findings and coverage claims,
//! and the `tests.json` schema ([`json`]) that `emit` writes and `check` reads.
//! Plain data, no Z3 terms: everything here is already solved.
//!
//! Architecture invariant: depends on `ir` and serde only, so the stages
//! after the engine (`emit`, `check`) never link Z3.

pub mod bound;
pub mod c_library;
pub mod json;

pub use bound::{Bound, Lift};

use ir::{FloatKind, FuncId, GlobalId, Goal, IntType, Span, Type};
use std::collections::BTreeSet;
use std::time::Duration;

/// The name a source's own `main` gets in a driver (`#define main ...`),
/// so that the driver's `main` can run the tests.
pub const RENAMED_MAIN: &str = "cairn_original_main";

/// Index of an object in [`Inputs::objects`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct ObjectId(pub u32);

/// Index of an object in [`TestCase::allocated`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct AllocId(pub u32);

/// Index of a stream in [`Inputs::streams`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct StreamId(pub u32);

/// A concrete C value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Value {
    /// Raw two's-complement bits, interpreted by `ty`.
    Int {
        ty: IntType,
        bits: u128,
    },
    /// The IEEE 754 bits of a `float` or `double`.
    Float {
        kind: FloatKind,
        bits: u64,
    },
    Null,
    /// Points `offset` bytes into an input object.
    Pointer {
        object: ObjectId,
        offset: u64,
    },
    /// Points `offset` bytes into an object the function under test allocated
    /// (output heap only).
    Allocated {
        object: AllocId,
        offset: u64,
    },
    /// Points `offset` bytes into a global variable.
    GlobalPointer {
        global: GlobalId,
        offset: u64,
    },
    /// A function of the file (function pointer inputs and outputs).
    Func(FuncId),
    /// Members in declaration order.
    Struct(Vec<Value>),
    Array(Vec<Value>),
    /// A value the engine does not know (e.g. a `long double`, only copied):
    /// the driver leaves it zero and never checks it.
    Unknown,
    /// The pointer the test's construction calls built for parameter
    /// `param` (see [`Construction`]).
    Constructed {
        param: u32,
    },
    /// What call `call` of parameter `param`'s construction returned: a
    /// value made for a later call there (see [`ApiCall::part`]).
    Part {
        param: u32,
        call: u32,
    },
    /// A `FILE *` to an input stream the driver opens (see [`InputStream`]).
    Stream(StreamId),
}

impl Value {
    /// Calls `found` with each function the value names, in members and
    /// elements too.
    pub fn each_function(&self, found: &mut impl FnMut(FuncId)) {
        match self {
            Value::Func(f) => found(*f),
            Value::Struct(items) | Value::Array(items) => {
                for item in items {
                    item.each_function(found);
                }
            }
            _ => {}
        }
    }

    /// The raw bits and width in bytes of an integer, `float` or `double`.
    pub fn raw_bits(&self) -> Option<(u128, usize)> {
        match self {
            Value::Int { ty, bits } => Some((*bits, usize::from(ty.bits / 8))),
            Value::Float { kind, bits } => {
                let width = Type::Float(*kind).scalar_bits()?;
                Some((u128::from(*bits), width as usize / 8))
            }
            _ => None,
        }
    }
}

/// A parameter built through the code's own functions, as a person would
/// write the test: the constructor, then calls that add to the value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Construction {
    pub param: u32,
    /// The constructor first; the others take the built pointer
    /// ([`Value::Constructed`]) as their first argument.
    pub calls: Vec<ApiCall>,
    /// The built object in the output heap, when it is still live after
    /// the call (its checks are rooted there).
    pub object: Option<AllocId>,
    /// For a node of another built parameter's structure (no calls): that
    /// parameter and the members that lead to the node (`->head->next`).
    pub member_of: Option<(u32, String)>,
    /// The parts (see [`ApiCall::part`]) still live after the call, by the
    /// call that made them, with their object in the output heap.
    pub parts: Vec<(u32, AllocId)>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ApiCall {
    pub func: FuncId,
    pub args: Vec<Value>,
    /// For a constructor making an argument of a later call (an item that
    /// call adds): the test keeps its result in a variable of its own, so
    /// named after that argument (`item`), and frees it if it is not adopted.
    pub part: Option<String>,
    /// For an initialiser (`tok_init(t, ...)`), which sets up the storage
    /// its first argument points to: the test allocates that storage
    /// first, and goes on only when the call returns what it returns on
    /// success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initialises: Option<ir::Success>,
}

/// Memory the driver must create before the call (seed 000's class I objects):
/// the pointee of a pointer parameter, an input array or string. The driver
/// allocates it with `malloc`, so the function may free it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputObject {
    /// Access path the function reaches it by, e.g. `a`, `*out`, `s`.
    pub name: String,
    /// Element type; the object is an array of `len` elements of it.
    pub elem: Type,
    pub len: u64,
    /// Initial contents, one value per element.
    pub init: Vec<Value>,
    /// Elements of the flexible array member that ends `elem` (a struct)
    /// allocated after it; the member's value in `init` lists them.
    pub flexible_len: u64,
}

/// A `FILE *` the function reads or writes: a real stream the driver opens
/// before the call, never a made-up `FILE` object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputStream {
    /// Access path the function reaches it by, e.g. `out`, `ctx->log`.
    pub name: String,
    pub mode: StreamMode,
    /// What the stream is after the call.
    pub after: StreamAfter,
    /// The process's standard input: the test sets `stdin` to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub standard_input: bool,
}

/// What a stream holds, or does with what is written to it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StreamMode {
    /// Opened for reading over these bytes, then end of file.
    Read { contents: Vec<u8> },
    /// Takes writes, unbuffered: at most `room` bytes (`None`: any number).
    /// A write that finds no room fails with `ENOSPC` and sets the error
    /// flag; one that finds too little takes what fits and sets the error
    /// flag. The call writes exactly `written` (`None`: bytes the test
    /// cannot know, such as a struct's padding).
    Write {
        room: Option<u64>,
        written: Option<Vec<u8>>,
    },
}

/// A stream's state after the call.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StreamAfter {
    /// The function closed it (`fclose`): the driver must not close it again.
    Closed,
    /// Still open, with its end-of-file and error flags (`feof`, `ferror`)
    /// and, for a stream read, how many of its bytes the call consumed
    /// (`ftell`; `None` when characters pushed back with `ungetc` are left).
    Open {
        eof: bool,
        error: bool,
        position: Option<u64>,
    },
    /// Still open, after a `fscanf` that stopped early: where it left the
    /// stream (its position, its flags) is not modelled, so none is checked.
    Scanned,
}

/// The script of a function without a body: its results, returned in
/// call order, and the bytes it writes through its pointer arguments at
/// the calls that write (a function returning `void` has no results, and
/// a `Stub` only for its writes).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stub {
    pub func: FuncId,
    pub returns: Vec<Value>,
    /// In call order; at most one per call and argument.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<StubWrite>,
}

/// What the stub's call number `call` (from 0, counting the calls of its
/// function) writes through its argument number `arg` (from 0): `bytes`,
/// from where the argument points, with `pointers` stored over them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StubWrite {
    pub call: usize,
    pub arg: usize,
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointers: Vec<StubPointer>,
}

/// A pointer a stub stores `offset` bytes into what it writes: the address
/// of an object the test builds (or NULL).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StubPointer {
    pub offset: u64,
    pub value: Value,
}

/// A call the function under test made to a function without a body, with
/// the arguments it passed: the driver's stub records them and the test
/// checks them (`None`: an argument not checked, such as a pointer).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StubCall {
    pub func: FuncId,
    pub args: Vec<Option<Value>>,
}

/// Everything a test sets before the call.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Inputs {
    /// One value per parameter.
    pub args: Vec<Value>,
    /// Globals whose initial value the test chooses; the others keep their initializer.
    pub globals: Vec<(GlobalId, Value)>,
    pub objects: Vec<InputObject>,
    pub stubs: Vec<Stub>,
    /// The stub of each call of a function without a body, in the order the
    /// path made the calls (as many as `stubs` has results in all): with
    /// `stubs` it gives the interleaved sequence of results that a program
    /// reading several kinds of input consumes ([`Inputs::stub_calls`]).
    #[serde(default)]
    pub stub_order: Vec<FuncId>,
    /// Allocation calls (`malloc`, `calloc`, `realloc`, `strdup`, `strndup`,
    /// counted from 0 in call order during the call) that return NULL in this
    /// test.
    pub failing_allocations: Vec<u32>,
    /// Parameters built through the code's API, in the order the driver
    /// makes their calls (before the call under test).
    pub constructions: Vec<Construction>,
    /// Functions' `static` variables the path used, which the test needs at
    /// their initial value: a process of its own per test gives it.
    #[serde(default)]
    pub fresh_statics: Vec<GlobalId>,
    /// Calls of the function under test the driver makes before the one it
    /// checks, in order, for what they leave in the function's static
    /// variables (each test starts them from their initial value).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_calls: Vec<ApiCall>,
    /// The streams the test opens for its `FILE *` inputs
    /// ([`Value::Stream`] points to them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<InputStream>,
    /// The environment variables the path read (`getenv`), as the test sets
    /// them before the call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<EnvironmentVariable>,
}

/// An environment variable a test sets (`value` a pointer to the input
/// string it holds) or removes (`value` NULL); an unknown value is left as
/// the process has it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EnvironmentVariable {
    pub name: String,
    pub value: Value,
}

impl EnvironmentVariable {
    /// The type of a variable's value, as `getenv` returns it.
    pub fn value_type() -> Type {
        Type::ptr(Type::Int(IntType::CHAR))
    }
}

impl Inputs {
    /// The functions the test stores or passes as pointers, each once.
    pub fn functions_given(&self) -> BTreeSet<FuncId> {
        let mut given = BTreeSet::new();
        let mut found = |f| {
            given.insert(f);
        };
        let values = (self.args.iter())
            .chain(self.globals.iter().map(|(_, v)| v))
            .chain(self.objects.iter().flat_map(|o| &o.init))
            .chain(self.stubs.iter().flat_map(|s| &s.returns))
            .chain(
                (self.stubs.iter())
                    .flat_map(|s| &s.writes)
                    .flat_map(|w| w.pointers.iter().map(|p| &p.value)),
            );
        for value in values {
            value.each_function(&mut found);
        }
        given
    }

    /// Every scripted stub result in the order the path called the stubs,
    /// with the stub's function; `None` when `stub_order` does not account
    /// for exactly the results of `stubs` (a record written before it was
    /// kept).
    pub fn stub_calls(&self) -> Option<Vec<(FuncId, &Value)>> {
        let mut next = vec![0usize; self.stubs.len()];
        let mut calls = Vec::with_capacity(self.stub_order.len());
        for func in &self.stub_order {
            let at = self.stubs.iter().position(|s| s.func == *func)?;
            calls.push((*func, self.stubs[at].returns.get(next[at])?));
            next[at] += 1;
        }
        let all_used = self
            .stubs
            .iter()
            .zip(&next)
            .all(|(stub, used)| stub.returns.len() == *used);
        all_used.then_some(calls)
    }
}

/// An object the function under test allocated that is still live when it
/// returns and reachable from the return value, the input objects or the
/// globals (seed 000's class II, in the output).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AllocatedObject {
    /// Access path it is first reached by, e.g. `result`, `result->next`, `(*out)->next`.
    pub name: String,
    /// Element type; the object is an array of `len` elements of it.
    pub elem: Type,
    pub len: u64,
}

/// A step from a root to a checked scalar.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// Member number `n` of a struct or union.
    Field(u32),
    Index(u64),
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Root {
    Return,
    Global(GlobalId),
    /// An input object; the path starts with `Step::Index(element)`.
    Object(ObjectId),
    /// An allocated object of the output heap; the path starts with `Step::Index(element)`.
    Allocated(AllocId),
}

/// One scalar of the output state and the value the engine predicts for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Check {
    pub root: Root,
    pub path: Vec<Step>,
    /// Scalar type of the checked location.
    pub ty: Type,
    pub expected: Value,
}

/// Most checks of one test beyond those that name an allocated object: a
/// call that fills a large buffer or table would otherwise give a driver
/// megabytes of assertions (issue 27: a PNG decoder's drivers came to
/// 14.7 MB, a hash table's 31,627 empty buckets one test of 31,656 lines).
pub const CHECKS_PER_TEST: usize = 256;

impl Check {
    /// Whether the check is the one that reaches an allocated object: the
    /// driver names the object by it, to check and free it.
    pub fn names_an_object(&self) -> bool {
        matches!(self.expected, Value::Allocated { .. })
    }
}

/// Leaves out the checks past the first [`CHECKS_PER_TEST`] (in order:
/// the return value first) apart from those that name an allocated
/// object, returning how many it left out.
pub fn bound_checks(checks: &mut Vec<Check>) -> usize {
    let mut kept = 0;
    let before = checks.len();
    checks.retain(|check| {
        let bounded = !check.names_an_object();
        kept += usize::from(bounded);
        !bounded || kept <= CHECKS_PER_TEST
    });
    before - checks.len()
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestCase {
    pub func: FuncId,
    pub inputs: Inputs,
    /// Return value (scalar or struct), `None` for `void` and for a call
    /// that ends the process.
    pub ret: Option<Value>,
    /// The call ends the process with `exit(status)`: the test expects the
    /// status (as the parent process sees it, 0 to 255) and checks nothing
    /// else, since nothing of the test runs after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exits: Option<u8>,
    /// Scalars of the output state: return value parts, out-parameters,
    /// input objects and globals the call modified, then the allocated objects.
    /// A pointer check that first reaches an allocated object comes before any
    /// check rooted at it, so a driver can name objects in check order.
    pub checks: Vec<Check>,
    /// Checks left out past [`CHECKS_PER_TEST`].
    #[serde(default, skip_serializing_if = "json::is_zero")]
    pub unchecked: usize,
    /// The output heap: allocated objects in the order the checks first reach
    /// them (breadth-first from the return value, input objects and globals).
    /// The driver checks and then frees them.
    pub allocated: Vec<AllocatedObject>,
    /// Input objects the function freed (it took ownership): the driver must
    /// not free them, nor check them after the call.
    pub freed_inputs: Vec<ObjectId>,
    /// Goals this test covers that no earlier test of the function covered.
    pub new_goals: Vec<Goal>,
    /// Every goal on the test's path.
    pub path_goals: Vec<Goal>,
    /// The comparisons this test sits on the boundary of that no earlier
    /// test of the function sat on (apart from branch goals: a boundary
    /// test may cover no new branch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boundaries: Vec<Boundary>,
    /// Every call of a function without a body, in call order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stub_calls: Vec<StubCall>,
    /// The C library calls without a model the engine ran natively on this
    /// path, in call order: the test holds only if the real function, which
    /// the driver calls, gives what it gave on the same values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub native_calls: Vec<NativeCall>,
}

/// A C library function without a model that ran natively on values the
/// engine chose for the path, and the inputs it fixed to them
/// (concretised: the test's values of those inputs are the only ones the
/// path was explored with).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NativeCall {
    pub function: String,
    /// Access paths of the inputs fixed (`s[0..3]`, `len(s)`, `n`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concretised: Vec<String>,
}

/// A boundary goal: an ordered integer comparison (`<`, `<=`, `>`, `>=`)
/// evaluated with its left side minus its right side equal to `offset`,
/// -1, 0 or 1. A test on each of them tells `a < b` from `a <= b` and a
/// constant from its neighbours, which covering both branches does not.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Boundary {
    /// Where the comparison is (the statement or condition evaluating it).
    pub span: Span,
    pub offset: i8,
}

impl Boundary {
    /// The offsets asked of every comparison.
    pub const OFFSETS: [i8; 3] = [-1, 0, 1];

    /// How the two sides compare, in a person's words.
    pub fn describe(&self) -> &'static str {
        match self.offset {
            0 => "both sides equal",
            o if o < 0 => "left side one less",
            _ => "left side one more",
        }
    }
}

/// The functions verification tasks call to mark an error state: reaching
/// such a call is a finding, whatever their body.
pub const ERROR_FUNCTIONS: &[&str] = &["reach_error", "__VERIFIER_error"];

/// The kinds of fault the engine reports; written as their slugs in JSON.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    DivisionByZero,
    SignedOverflow,
    ShiftOutOfRange,
    OutOfBounds,
    NullDereference,
    UseAfterFree,
    DoubleFree,
    InvalidFree,
    UninitializedRead,
    Leak,
    /// `abort()`, `__builtin_trap()` or `__builtin_unreachable()` reached.
    Abort,
    /// A failed `assert`.
    AssertionFailure,
    /// A call of the program's error function (`reach_error`, `__VERIFIER_error`).
    ErrorCall,
    /// `exit` with a non-zero status.
    ErrorExit,
    /// A declared invariant that held on the input fails after the call.
    BrokenInvariant,
    /// A builtin given an argument it has no value for (`__builtin_clz(0)`).
    InvalidBuiltinArgument,
    /// `memcpy`, `strcpy` and the like between overlapping bytes.
    OverlappingCopy,
    /// A `float` or `double` converted to an integer type that cannot hold
    /// its integer part (NaN and infinities included).
    FloatConversionOverflow,
    /// NULL passed where the callee's declaration says never NULL
    /// (`__attribute__((nonnull))`, as glibc declares `memcpy`'s).
    NullArgument,
    /// An access through a pointer whose address its type's alignment
    /// does not divide (`(struct hdr *)(buf + 3)`).
    MisalignedAccess,
}

impl FindingKind {
    pub fn slug(self) -> &'static str {
        match self {
            FindingKind::DivisionByZero => "division-by-zero",
            FindingKind::SignedOverflow => "signed-overflow",
            FindingKind::ShiftOutOfRange => "shift-out-of-range",
            FindingKind::OutOfBounds => "out-of-bounds",
            FindingKind::NullDereference => "null-dereference",
            FindingKind::UseAfterFree => "use-after-free",
            FindingKind::DoubleFree => "double-free",
            FindingKind::InvalidFree => "invalid-free",
            FindingKind::UninitializedRead => "uninitialized-read",
            FindingKind::Leak => "leak",
            FindingKind::Abort => "abort",
            FindingKind::AssertionFailure => "assertion-failure",
            FindingKind::ErrorCall => "error-call",
            FindingKind::ErrorExit => "error-exit",
            FindingKind::BrokenInvariant => "broken-invariant",
            FindingKind::InvalidBuiltinArgument => "invalid-builtin-argument",
            FindingKind::OverlappingCopy => "overlapping-copy",
            FindingKind::FloatConversionOverflow => "float-conversion-overflow",
            FindingKind::NullArgument => "null-argument",
            FindingKind::MisalignedAccess => "misaligned-access",
        }
    }
}

impl FindingKind {
    /// What the kind means, in plain words (report rules, `--sarif`).
    pub fn description(self) -> &'static str {
        match self {
            FindingKind::DivisionByZero => "An integer division or remainder by zero.",
            FindingKind::SignedOverflow => {
                "A signed integer operation whose result does not fit its type (undefined in C)."
            }
            FindingKind::ShiftOutOfRange => {
                "A shift by a negative amount or by at least the width of its type."
            }
            FindingKind::OutOfBounds => "A read or write outside the object the pointer points into.",
            FindingKind::NullDereference => "A read or write through a NULL pointer.",
            FindingKind::UseAfterFree => "A read or write of memory already freed.",
            FindingKind::DoubleFree => "Memory freed twice.",
            FindingKind::InvalidFree => {
                "free() of a pointer malloc did not return (a stack or global object, or the middle of a block)."
            }
            FindingKind::UninitializedRead => {
                "A value read from a local variable or allocated memory before anything wrote it."
            }
            FindingKind::Leak => "Memory allocated by the function and unreachable when it returns.",
            FindingKind::Abort => "abort(), __builtin_trap() or __builtin_unreachable() reached.",
            FindingKind::AssertionFailure => "An assert() that fails.",
            FindingKind::ErrorCall => "A call of the program's error function (reach_error).",
            FindingKind::ErrorExit => "exit() with a non-zero status.",
            FindingKind::BrokenInvariant => {
                "A declared invariant that held on the input and fails after the call."
            }
            FindingKind::InvalidBuiltinArgument => {
                "A builtin given an argument it has no result for, such as __builtin_clz(0)."
            }
            FindingKind::OverlappingCopy => {
                "memcpy, strcpy or a similar copy between overlapping bytes (undefined; memmove allows it)."
            }
            FindingKind::FloatConversionOverflow => {
                "A float or double converted to an integer type that cannot hold its integer part, NaN and infinities included (undefined in C)."
            }
            FindingKind::NullArgument => {
                "NULL passed to a function whose declaration says that argument is never NULL, as glibc declares memcpy's and strlen's, even with a size of 0 (undefined in C)."
            }
            FindingKind::MisalignedAccess => {
                "A read or write through a pointer whose address is not a multiple of its type's alignment, as a record read at an odd offset of a buffer (undefined in C)."
            }
        }
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.slug())
    }
}

/// A fault on a feasible path, with inputs that reproduce it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    pub func: FuncId,
    pub kind: FindingKind,
    pub span: Span,
    /// Short explanation, e.g. `divisor b is 0`.
    pub message: String,
    pub inputs: Inputs,
    /// What in the inputs nothing vouches for: struct types built freely
    /// (no declared invariant accepted them, the API did not build them)
    /// and the arguments of a `static` function; the finding may need a
    /// value the program can never hold. Empty: the inputs are valid.
    pub unvouched_inputs: Vec<String>,
    /// For a broken invariant: the predicate that fails after the call, on
    /// which parameter (the reproducer calls it to show the failure).
    pub broken_invariant: Option<InvariantCall>,
    /// The goals of the function on the path to the fault, each once, in
    /// order of first reach.
    pub path_goals: Vec<Goal>,
    /// Why running its reproducer did not show the fault, when cairn ran
    /// it: the finding is then no claim, only information.
    #[serde(default)]
    pub not_confirmed: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InvariantCall {
    pub predicate: FuncId,
    pub param: u32,
    /// Broken by the calls that build the parameter, before the call under
    /// test: the reproducer checks it there.
    pub by_building: bool,
}

impl Finding {
    pub fn has_valid_inputs(&self) -> bool {
        self.unvouched_inputs.is_empty()
    }
}

/// Why a goal has no test.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Uncovered {
    /// Every path to it was explored and found infeasible.
    Infeasible,
    /// A bound stopped the search first.
    Budget(Bound),
    /// The path needs something the engine does not model (named).
    Unsupported(String),
    /// The engine predicted a test for it, and running the test against
    /// the code contradicted the prediction (why): the test was dropped.
    Refuted(String),
    /// A test vector of a decision (MC/DC) not sought, because the tests
    /// already show every condition of the decision independent.
    NotSought,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    pub paths: u64,
    /// Z3 checks made.
    pub solver_calls: u64,
    /// Statements and terminators executed, over all paths (shared prefixes once).
    pub statements: u64,
    pub elapsed: Duration,
    #[serde(default)]
    pub solver: SolverCounts,
    #[serde(default)]
    pub cheap: CheapCounts,
}

/// What the cheap phase (concrete candidate inputs, no solver asked per
/// branch) did for a function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CheapCounts {
    /// Candidate inputs run.
    pub candidates: u64,
    /// Tests kept from them.
    pub tests: u64,
    /// Goals those tests covered first.
    pub goals: u64,
}

/// How the solver's layers answered the questions of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SolverCounts {
    /// Questions the search asked (each may cost several Z3 checks, or none).
    pub asked: u64,
    /// Answered by the cache: the same constraints were asked before.
    pub from_cache: u64,
    /// Answered by the last model found, which satisfied them.
    pub from_last_model: u64,
    /// Answered by a guessed value of their one symbol, which satisfied them.
    pub from_guesses: u64,
    /// Checks not made: bit-blasting their products and quotients alone
    /// would take longer than the check may (answered unknown).
    pub priced_out: u64,
    /// Z3's work units of the bit-blasting of the checks made, estimated
    /// (Z3 does not count it in its own work).
    pub blast_work: u64,
    /// Time spent in Z3 checks.
    pub z3_time: Duration,
}

/// The engine's answer for one function.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FunctionReport {
    pub func: FuncId,
    pub tests: Vec<TestCase>,
    pub findings: Vec<Finding>,
    /// Every goal of the function (see [`ir::function_goals`]).
    pub goals: Vec<Goal>,
    pub uncovered: Vec<(Goal, Uncovered)>,
    pub stats: Stats,
    /// Tests the engine made that failed when run against the code, left
    /// out of the driver.
    #[serde(default)]
    pub dropped_tests: Vec<DroppedTest>,
    /// Why the function has no test, when it has none: the first reason a
    /// path stopped (the only one a function without branches has).
    #[serde(default)]
    pub untested: Option<Uncovered>,
}

/// A test left out because running it contradicted the engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DroppedTest {
    /// Its name in the driver it was first written to.
    pub name: String,
    pub reason: String,
}

impl FindingKind {
    /// Whether the program certainly stops where the fault happens: code
    /// after an `abort`, a failed `assert` or an `exit` never runs, while
    /// after the other faults (undefined behaviour, a call of an error
    /// function that may return) it may.
    pub fn ends_the_program(self) -> bool {
        matches!(
            self,
            FindingKind::Abort | FindingKind::AssertionFailure | FindingKind::ErrorExit
        )
    }
}

impl FunctionReport {
    /// The report before any path ran: every goal of `func`, no test.
    pub fn empty(program: &ir::Program, func: FuncId) -> FunctionReport {
        FunctionReport {
            func,
            tests: Vec::new(),
            findings: Vec::new(),
            goals: ir::function_goals(program, func)
                .into_iter()
                .map(|g| g.goal)
                .collect(),
            uncovered: Vec::new(),
            stats: Stats::default(),
            dropped_tests: Vec::new(),
            untested: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bound_checks, AllocId, Check, Root, Step, CHECKS_PER_TEST};
    use super::{FindingKind, Inputs, Stub, StubWrite, Value};
    use ir::{FuncId, IntType, Type};

    #[test]
    fn a_test_keeps_its_first_checks_and_every_one_naming_an_object() {
        let int = IntType {
            bits: 8,
            signed: false,
            is_bool: false,
        };
        let check = |k: usize, expected: Value| Check {
            root: Root::Allocated(AllocId(0)),
            path: vec![Step::Index(k as u64)],
            ty: Type::Int(int),
            expected,
        };
        let reach = Value::Allocated {
            object: AllocId(1),
            offset: 0,
        };
        let mut checks: Vec<Check> = (0..CHECKS_PER_TEST + 10)
            .map(|k| check(k, Value::Null))
            .chain([check(0, reach.clone())])
            .collect();
        assert_eq!(bound_checks(&mut checks), 10);
        assert_eq!(checks.len(), CHECKS_PER_TEST + 1);
        let last_kept = CHECKS_PER_TEST as u64 - 1;
        assert_eq!(checks[CHECKS_PER_TEST - 1].path, [Step::Index(last_kept)]);
        assert_eq!(checks[CHECKS_PER_TEST].expected, reach);
    }

    #[test]
    fn finding_kinds_are_written_as_their_slugs() {
        let all = [
            FindingKind::DivisionByZero,
            FindingKind::SignedOverflow,
            FindingKind::ShiftOutOfRange,
            FindingKind::OutOfBounds,
            FindingKind::NullDereference,
            FindingKind::UseAfterFree,
            FindingKind::DoubleFree,
            FindingKind::InvalidFree,
            FindingKind::UninitializedRead,
            FindingKind::Leak,
            FindingKind::Abort,
            FindingKind::AssertionFailure,
            FindingKind::ErrorCall,
            FindingKind::ErrorExit,
            FindingKind::BrokenInvariant,
            FindingKind::InvalidBuiltinArgument,
            FindingKind::OverlappingCopy,
            FindingKind::FloatConversionOverflow,
            FindingKind::NullArgument,
            FindingKind::MisalignedAccess,
        ];
        for kind in all {
            let text = serde_json::to_string(&kind).expect("serializes");
            assert_eq!(text, format!("\"{}\"", kind.slug()));
            let back: FindingKind = serde_json::from_str(&text).expect("parses");
            assert_eq!(back, kind);
        }
    }

    #[test]
    fn stub_calls_interleave_the_stubs_in_call_order() {
        let int = |n: u128| Value::Int {
            ty: IntType::INT,
            bits: n,
        };
        let (read_int, read_char) = (FuncId(1), FuncId(2));
        let mut inputs = Inputs {
            stubs: vec![
                Stub {
                    func: read_int,
                    returns: vec![int(10), int(30)],
                    writes: Vec::new(),
                },
                Stub {
                    func: read_char,
                    returns: vec![int(20)],
                    writes: Vec::new(),
                },
            ],
            stub_order: vec![read_int, read_char, read_int],
            ..Inputs::default()
        };
        let calls = inputs.stub_calls().expect("consistent");
        assert_eq!(
            calls,
            vec![
                (read_int, &int(10)),
                (read_char, &int(20)),
                (read_int, &int(30))
            ]
        );
        // An order that leaves a result out, or asks for one too many.
        inputs.stub_order.pop();
        assert_eq!(inputs.stub_calls(), None);
        inputs.stub_order.extend([read_int, read_int]);
        assert_eq!(inputs.stub_calls(), None);
    }

    #[test]
    fn a_stub_only_writing_leaves_the_results_in_order() {
        let (fill, read_int) = (FuncId(1), FuncId(2));
        let inputs = Inputs {
            stubs: vec![
                Stub {
                    func: fill,
                    returns: Vec::new(),
                    writes: vec![StubWrite {
                        call: 1,
                        arg: 0,
                        bytes: vec![7, 0, 0, 0],
                        pointers: Vec::new(),
                    }],
                },
                Stub {
                    func: read_int,
                    returns: vec![Value::Int {
                        ty: IntType::INT,
                        bits: 3,
                    }],
                    writes: Vec::new(),
                },
            ],
            stub_order: vec![read_int],
            ..Inputs::default()
        };
        let calls = inputs.stub_calls().expect("consistent");
        assert_eq!(calls.len(), 1);
        // Records written before stubs wrote read back.
        let old = r#"{"func":1,"returns":[]}"#;
        let stub: Stub = serde_json::from_str(old).expect("parses");
        assert!(stub.writes.is_empty());
        let text = serde_json::to_string(&inputs.stubs[0]).expect("serializes");
        assert_eq!(
            serde_json::from_str::<Stub>(&text).expect("parses"),
            inputs.stubs[0]
        );
    }
}
