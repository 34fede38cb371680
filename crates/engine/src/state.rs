//! Per-path state: call frames, memory objects (shared copy-on-write between
//! forks), lazy input pointers, path condition and the trace of goals.

mod chunked;
mod stream;

pub use chunked::ChunkedVec;
pub use stream::{is_standard_stream, is_stream_type, Piece, Reading, Stream, StreamRole, Writing};

use crate::solver::{ConstraintId, InputSymbol, ValueOracle};
use crate::value::{
    address, symbols_of, Cell, LazyIdx, ObjIdx, PtrVal, Substitute, SymVal, Target, Word,
};
use ir::{BlockId, FuncId, GlobalId, Goal, LocalId, Place, Span, Type};
use std::rc::Rc;
use testcase::Bound;
use z3::ast::{Bool, BV};

#[derive(Clone, Debug)]
pub enum ObjKind {
    /// Exists before the call (seed 000's class I): the target of an input pointer.
    /// An array of `elem` whose length `len` (64-bit term) the solver chooses.
    Input {
        origin: LazyIdx,
        elem: Type,
        len: BV,
        is_string: bool,
        /// The function freed it (drivers allocate inputs with `malloc`).
        freed: bool,
        /// Built while a declared invariant was checking an input: its
        /// shape and values are ones the predicate accepts.
        vouched: bool,
    },
    /// A local variable of a frame.
    Stack,
    /// A global; `is_input` when the test chooses its initial value.
    Global { id: GlobalId, is_input: bool },
    /// A string literal.
    Str,
    /// Allocated by the code under test (seed 000's class II).
    Heap {
        freed: bool,
        /// Size in bytes (64-bit term): symbolic for `malloc(n)` of a
        /// symbolic `n`, the object's cells then covering its largest value.
        size: Word,
        /// Allocated while building the test's inputs through the API (by
        /// construction calls, or as an initialiser's storage): the test
        /// owns it, so the call under test cannot leak it.
        for_inputs: bool,
    },
    /// A block of a frame sized at run time: a variable-length array, or
    /// what `alloca` returns.
    StackBlock { size: Word },
    /// The C library's own state: glibc's `errno`, which
    /// `__errno_location()` points to, and getopt's globals where the file
    /// does not declare them.
    LibraryState,
    /// Where an environment variable's value lies: one `char *`, an input
    /// the test sets (see `exec::libc::environment`).
    Environment,
    /// What a `FILE *` points to: a stream, with no bytes the code may
    /// touch (see `exec::libc::stream`).
    Stream(Box<Stream>),
}

/// Whether the path wrote a byte. A write at a symbolic offset writes each
/// byte it may reach only under the condition that it does: a byte the
/// chosen inputs leave alone keeps its old contents, which for allocated
/// memory are indeterminate and must be neither read nor checked.
#[derive(Clone, Debug)]
pub enum Written {
    No,
    Yes,
    If(Bool),
    /// Handed to a function without a body, which may have filled it
    /// (beyond what the driver's stub writes, `exec::stub`): reading it is
    /// no finding, but its contents are unknown, so no test checks it.
    Unseen,
}

impl Written {
    /// Written as before, or also when `cond` holds.
    pub fn or_if(&self, cond: Bool) -> Written {
        match self {
            Written::Yes => Written::Yes,
            Written::Unseen => Written::Unseen,
            Written::No => Written::If(cond),
            Written::If(before) => Written::If(Bool::or(&[before.clone(), cond])),
        }
    }

    /// When the byte may be read.
    pub fn condition(&self) -> Bool {
        match self {
            Written::No => Bool::from_bool(false),
            Written::Yes | Written::Unseen => Bool::from_bool(true),
            Written::If(cond) => cond.clone(),
        }
    }
}

/// A memory object: byte-precise contents plus what the test needs to rebuild
/// and check it.
#[derive(Clone, Debug)]
pub struct Object {
    pub kind: ObjKind,
    pub cells: ChunkedVec<Cell>,
    /// Contents at the start of the call (seed 000's chi), for inputs.
    pub initial: ChunkedVec<Cell>,
    /// Bytes the path wrote (for output checks and reads of allocated memory).
    pub written: ChunkedVec<Written>,
    /// Accessed beyond its first element or at a symbolic offset.
    pub indexed: bool,
    /// The end of the furthest byte any access reached, while every
    /// access's end was known: a test need build no more of an input array
    /// whose length a candidate did not choose (see `exec::input`).
    pub reached: Option<u64>,
    /// The first function without a body that may have filled bytes of it
    /// (`Written::Unseen`), named where a read of them stops the path.
    pub filled_by_stub: Option<ir::FuncId>,
    /// How to make its `Cell::Deferred` bytes, for an input built on read.
    pub deferred: Option<Rc<DeferredInput>>,
}

/// An input object whose bytes are made when first read: an array of
/// `elem`, each element's members named from its access path.
#[derive(Debug)]
pub struct DeferredInput {
    pub elem: Type,
    /// The path of the first element and the separator before its members
    /// (`head` and `->`, or `*count` and `.`).
    pub first: (String, &'static str),
    /// What later elements index: `head` gives `head[1]`.
    pub operand: String,
    /// Pointer members are links of a linked structure.
    pub links: bool,
}

impl DeferredInput {
    /// The access path of element `i` and the separator before its members.
    pub fn element_path(&self, i: u64) -> (String, &'static str) {
        match i {
            0 => self.first.clone(),
            _ => (format!("{}[{i}]", self.operand), "."),
        }
    }
}

impl Object {
    pub fn new(kind: ObjKind, cells: Vec<Cell>) -> Object {
        Object::holding(kind, ChunkedVec::from_vec(cells))
    }

    fn holding(kind: ObjKind, cells: ChunkedVec<Cell>) -> Object {
        let written = ChunkedVec::filled(Written::No, cells.len());
        let initial = cells.clone();
        Object {
            kind,
            cells,
            initial,
            written,
            indexed: false,
            reached: Some(0),
            filled_by_stub: None,
            deferred: None,
        }
    }

    /// An input object of `size` bytes, each made on its first read.
    pub fn deferred(kind: ObjKind, input: DeferredInput, size: u64) -> Object {
        let mut object = Object::holding(kind, ChunkedVec::filled(Cell::Deferred, size as usize));
        object.deferred = Some(Rc::new(input));
        object
    }

    /// Notes an access that reaches past its first element, ending at
    /// `end` (`None`: any byte, as far as anyone knows).
    pub fn note_reach(&mut self, end: Option<u64>) {
        self.indexed = true;
        self.reached = self.reached.zip(end).map(|(was, end)| was.max(end));
    }

    /// Writes `value` over the object's first bytes (a local holding a
    /// parameter), without marking them written by the path.
    pub fn set_start(&mut self, value: &SymVal, pointer_bytes: u64) {
        let cells = crate::value::value_cells(value, pointer_bytes);
        for (slot, cell) in self.cells.iter_mut().zip(cells) {
            *slot = cell;
        }
    }

    /// The cells of `range`, which lies within the object.
    pub fn cells_in(&self, range: std::ops::Range<u64>) -> std::borrow::Cow<'_, [Cell]> {
        (self
            .cells
            .get_range(range.start as usize..range.end as usize))
        .expect("a range within the object")
    }

    /// Allocated capacity in bytes (for inputs: the longest length the search may choose).
    pub fn capacity(&self) -> u64 {
        self.cells.len() as u64
    }
}

#[derive(Clone, Debug)]
pub struct Lazy {
    /// Access path of the pointer, e.g. `s`, `res->next`, `g.p`, `f()`.
    /// Shared: every fork copies every lazy pointer of its state.
    pub path: Rc<str>,
    /// The pointer's type.
    pub ty: Rc<Type>,
    pub resolution: Option<Target>,
    /// A link of an input linked structure: a pointer member of a list or
    /// tree node (e.g. `head->next`), for which NULL is a natural value.
    pub link: bool,
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// Next statement of `block` (its length: the terminator).
    pub stmt: usize,
    /// The stack object of each local.
    pub locals: Vec<ObjIdx>,
    /// Entries into each block.
    pub visits: Vec<u32>,
    /// Entries into each block after which the path knew more about its
    /// inputs than at the entry before (a constraint, a pointer decided) or
    /// read an input object: `max_iterations` bounds these. An iteration
    /// that does neither is concrete work (a loop over a fixed table); one
    /// that reads inputs may be spinning on a cyclic one.
    pub deciding_visits: Vec<u32>,
    /// What the path knew ([`State::knowledge`]) at the last entry into
    /// each block.
    pub knowledge_at_visit: Vec<usize>,
    /// What becomes of the return value.
    pub returns: ReturnTo,
    /// Called with concrete arguments only: concrete work (a flood fill's
    /// recursion), which `max_depth` does not bound.
    pub concrete_call: bool,
}

/// What the caller of a frame does with its return value.
#[derive(Clone, Debug)]
pub enum ReturnTo {
    /// Stores it there.
    Place(Place),
    /// Ignores it (or there is none).
    Nowhere,
    /// A declared invariant of an input: the path goes on only when the
    /// value is non-zero.
    Assumption,
    /// A call building input `build` through the code's API (see `exec::api`).
    Construction { build: usize },
    /// A constructor making a struct argument of the call of `adder` that
    /// adds to input `build`: with the arguments made before it (`parts`),
    /// its result is the next.
    Part {
        build: usize,
        adder: FuncId,
        parts: Vec<SymVal>,
    },
    /// A declared invariant run again on parameter `param` after the call
    /// under test returned at `at`: a zero result is a finding there.
    ExitCheck {
        predicate: FuncId,
        param: usize,
        at: Span,
    },
    /// A declared invariant run on input `build` once the calls building it
    /// are done: a zero result is a finding of those calls, and the test
    /// goes on with the inputs it holds for.
    BuildCheck { predicate: FuncId, build: usize },
    /// A call of the function under test before the one the test checks,
    /// made for what it leaves in the function's static variables;
    /// [`State::memory_changes`] when it started.
    EarlierCall { changes_before: u64 },
}

/// A parameter of the function under test built through the code's API:
/// the calls made so far, the constructor first, each with its arguments
/// (the built pointer itself as the first argument of the others).
#[derive(Clone, Debug)]
pub struct Build {
    pub param: usize,
    pub ty: ir::StructId,
    pub calls: Vec<BuildCall>,
    /// A member of another built structure rather than a value of its own
    /// (`pos`, a node of the list `l`): no calls; once chosen, the other
    /// parameter and the members that reach it from there (`->head->next`).
    pub member: Option<Option<(usize, String)>>,
    /// A value of the same type as an earlier built parameter that the
    /// function does not adopt (`item` of `detach(parent, item)`): the test
    /// may make it apart, or take it among that parameter's nodes.
    pub may_be_member: bool,
}

/// One call of a [`Build`].
#[derive(Clone, Debug)]
pub struct BuildCall {
    pub func: FuncId,
    pub args: Vec<SymVal>,
    /// For a constructor making a struct argument of a later call (a part):
    /// what it returned, which the test keeps in a variable of its own.
    pub part: Option<SymVal>,
    /// The arguments that are parts: argument index, index of the call
    /// that made it.
    pub part_args: Vec<(usize, usize)>,
    /// [`State::memory_changes`] when the call started.
    pub changes_before: u64,
    /// For an initialiser, setting up the storage its first argument points
    /// to: what it returns on success, the only outcome the test goes on with.
    pub initialises: Option<ir::Success>,
}

/// Heap objects and their bytes at one moment (see [`State::built_at_call`]).
pub type BuiltObjects = Vec<(ObjIdx, ChunkedVec<Cell>)>;

/// What building the inputs does next, before any statement runs.
#[derive(Clone, Debug)]
pub enum BuildStep {
    /// Calls a constructor of input `build` (one path per constructor).
    Construct { build: usize },
    /// Calls `adder` on input `build` once every struct argument it takes
    /// beyond the first is made (`parts`, in order), each by a constructor
    /// of its type (one path per constructor).
    Add {
        build: usize,
        adder: FuncId,
        parts: Vec<SymVal>,
    },
    /// Calls the function under test once more before the call the test
    /// checks (within `max_build_calls`), or goes on to that call: one path
    /// each.
    CallAgain,
}

/// Identity of a path state, unique within one exploration: a fork gives
/// each child a new one. Searches key their own per-state data by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u64);

/// A call of a function without a body: what the code passed, and the
/// fresh input standing for its result (`None` for `void`).
#[derive(Clone, Debug)]
pub struct CallWithoutBody {
    pub func: FuncId,
    pub args: Vec<SymVal>,
    pub result: Option<SymVal>,
    /// The bytes the call wrote through its pointer arguments, by argument
    /// number (from 0): fresh inputs, which hold no pointer.
    pub writes: Vec<(usize, Vec<Cell>)>,
}

/// A call of a C library function without a model that ran natively on
/// values the path fixed (see `crate::native`): the test depends on them.
#[derive(Clone, Debug)]
pub struct NativeCall {
    pub func: FuncId,
    /// The inputs whose values the call fixed, by access path (`s[0..3]`,
    /// `len(s)`, `n`).
    pub fixed: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct State {
    pub id: StateId,
    pub frames: Vec<Frame>,
    pub objects: Vec<Rc<Object>>,
    pub globals: Vec<Option<ObjIdx>>,
    pub strings: Vec<Option<ObjIdx>>,
    pub lazies: Vec<Lazy>,
    pub path: Vec<ConstraintId>,
    /// How many constraints of `path`, from its start, the solver found
    /// satisfiable together: a branch decided without a constraint need
    /// not ask again about a path that grew by none.
    pub feasible_through: usize,
    /// The constraints of `path` that are bounds (e.g. an input array at most
    /// `max_array` long), not the program's semantics, with the bound's name:
    /// an arm infeasible only because of them is cut, not disproved.
    pub limits: Vec<(ConstraintId, Bound)>,
    /// Goals of the function under test on this path, each once, in order of first reach.
    pub trace: Vec<Goal>,
    /// Initial parameter values of the function under test.
    pub params: Vec<SymVal>,
    /// The argument area of the function under test when it is variadic
    /// (`ir::Function::va_area`): its extra arguments are inputs, chosen as
    /// the path first reads each slot.
    pub va_area: Option<ObjIdx>,
    /// Those extra arguments so far, each at the type `va_arg` read it as.
    pub va_args: Vec<(SymVal, ir::Type)>,
    /// The parameters built through the code's API, in parameter order.
    pub builds: Vec<Build>,
    /// See [`BuildStep`].
    pub build_step: Option<BuildStep>,
    /// The heap objects the builds left and their bytes when the call under
    /// test began (taken once the builds are done): a test checks what the
    /// call changed of them, not what the API calls that built them wrote.
    pub built_at_call: Option<Rc<BuiltObjects>>,
    /// The arguments of each call of the function under test made before
    /// the one the test checks (see [`BuildStep::CallAgain`]).
    pub earlier_calls: Vec<Vec<SymVal>>,
    /// Parameters `T **` whose pointee, a `T *` with a declared invariant,
    /// is assumed valid before the first statement runs.
    pub checks_through: Vec<usize>,
    /// Changes to memory other than the stack so far: a construction call
    /// that makes none changed nothing.
    pub memory_changes: u64,
    /// Input buffers of scalars that two pointers share (see [`Self::input_size`]).
    pub shared_buffers: u32,
    /// How many of `objects` are inputs: searches rank every state by it.
    input_object_count: usize,
    /// Calls of bodiless functions, in call order.
    /// Shared: a fork copies the list, not what the calls wrote.
    pub stub_calls: Vec<Rc<CallWithoutBody>>,
    /// Calls of C library functions run natively, in call order.
    pub native_calls: Vec<NativeCall>,
    /// Functions' statics the path used, bound to their initial values.
    pub fresh_statics: Vec<GlobalId>,
    /// Arguments handed to functions without a body: memory they point to
    /// may be kept there, so it is not leaked.
    pub escaped: Vec<SymVal>,
    /// Input objects the path read a pointer out of where they hold plain
    /// bytes (a struct laid over a `void *` buffer): a shape built freely.
    pub pointers_from_bytes: Vec<ObjIdx>,
    pub ret: Option<SymVal>,
    /// For a struct returned from a variable, whether each of its bytes
    /// was written (the others are indeterminate and never checked).
    pub ret_written: Option<Vec<Written>>,
    /// Where the function under test returned (its `return` statement or
    /// closing brace): which way out the path took.
    pub returned_at: Option<Span>,
    /// The status the function under test ended the process with, by
    /// calling `exit` (then `returned_at` is where): its test expects it.
    pub exit_status: Option<Word>,
    /// Largest number of extra entries into one block of one frame (loop iterations).
    pub loop_level: u32,
    pub blocks_run: u64,
    /// Counter making symbol names unique along the path.
    pub fresh: u32,
    /// Every symbol the test chooses, to prefer small, readable values.
    /// Shared between forks until one adds a symbol: every fork copies its state.
    pub input_symbols: Rc<Vec<InputSymbol>>,
    /// Symbolic offsets this path fixed to one value (pointer-holding memory
    /// accessed at a symbolic offset forks once per feasible offset).
    pub pinned: Vec<(Word, u64)>,
    /// An input object was read since the last block entry.
    pub read_input: bool,
    /// A library scan over an input may have needed more bytes than
    /// `max_array` gives it: infeasible arms after it are only cut.
    pub scan_capped: bool,
    /// Results of `strcmp`, `memcmp` and the like on this path: C fixes
    /// only their sign, and C libraries differ beyond it (glibc returns the
    /// bytes' difference, AddressSanitizer's `strcmp` 1 or -1), so a test
    /// takes inputs whose differences are 1 where it can (see
    /// `Executor::solve_test_on`).
    pub comparisons: Vec<Word>,
    /// Input symbols this path fixed to one value each (an index into a
    /// small object forks once per feasible value): terms are read with
    /// them put in, so the rest of the path is concrete work.
    /// Shared between forks until one fixes a symbol.
    pub fixed: Rc<Vec<(BV, BV)>>,
    /// Offsets into small objects whose symbols have too many values to fix.
    pub unfixable: Vec<Word>,
    /// Allocation calls made so far on this path (malloc, calloc, realloc,
    /// strdup, strndup).
    pub allocations: u32,
    /// The numbers of those that returned NULL (see `Inputs::failing_allocations`).
    pub failing_allocations: Vec<u32>,
    /// The `errno` object, made when the path first uses it.
    pub errno: Option<ObjIdx>,
    /// The C library's globals the file does not declare, by name, made
    /// when a model first uses them (see `exec::libc::getopt`).
    pub undeclared_library_globals: Vec<(&'static str, ObjIdx)>,
    /// The environment variables the path read, by name: each an
    /// `ObjKind::Environment` object, made when `getenv` first asks for it.
    pub environment: Vec<(String, ObjIdx)>,
    /// Set for a run whose inputs are numbers, not symbols: each input
    /// scalar is its oracle's value, and the path is native work.
    pub native_inputs: Option<NativeInputs>,
    /// The choices that forked this path from its start, hashed: the same
    /// on every run that makes the same choices, unlike [`Self::id`].
    pub lineage: u64,
}

/// The values of a run's input scalars ([`State::native_inputs`]).
#[derive(Clone)]
pub struct NativeInputs(pub Rc<dyn ValueOracle>);

impl std::fmt::Debug for NativeInputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NativeInputs")
    }
}

impl State {
    pub fn new(program: &ir::Program, id: StateId) -> State {
        State {
            id,
            frames: Vec::new(),
            objects: Vec::new(),
            globals: vec![None; program.globals.len()],
            strings: vec![None; program.strings.len()],
            lazies: Vec::new(),
            path: Vec::new(),
            feasible_through: 0,
            trace: Vec::new(),
            params: Vec::new(),
            va_area: None,
            va_args: Vec::new(),
            limits: Vec::new(),
            builds: Vec::new(),
            build_step: None,
            built_at_call: None,
            earlier_calls: Vec::new(),
            checks_through: Vec::new(),
            memory_changes: 0,
            shared_buffers: 0,
            input_object_count: 0,
            stub_calls: Vec::new(),
            native_calls: Vec::new(),
            fresh_statics: Vec::new(),
            escaped: Vec::new(),
            pointers_from_bytes: Vec::new(),
            ret: None,
            ret_written: None,
            returned_at: None,
            exit_status: None,
            loop_level: 0,
            blocks_run: 0,
            fresh: 0,
            input_symbols: Rc::default(),
            pinned: Vec::new(),
            read_input: false,
            scan_capped: false,
            comparisons: Vec::new(),
            fixed: Rc::default(),
            unfixable: Vec::new(),
            allocations: 0,
            failing_allocations: Vec::new(),
            environment: Vec::new(),
            errno: None,
            undeclared_library_globals: Vec::new(),
            native_inputs: None,
            lineage: 0,
        }
    }

    /// `term` with the symbols this path fixed put in, simplified; as it
    /// is when it mentions none of them.
    pub fn with_fixed<T: Substitute>(&self, value: &T) -> T {
        let pairs = match value.symbolic() {
            Some(term) if !self.fixed.is_empty() => self.fixed_among(&symbols_of(&term)),
            _ => Vec::new(),
        };
        if pairs.is_empty() {
            return value.clone();
        }
        value.substituted(&pairs)
    }

    /// The symbols this path fixed among `symbols` (by address), with
    /// their values.
    pub fn fixed_among(&self, symbols: &[usize]) -> Vec<(&BV, &BV)> {
        self.fixed
            .iter()
            .filter(|(symbol, _)| symbols.contains(&address(symbol)))
            .map(|(symbol, value)| (symbol, value))
            .collect()
    }

    pub fn add_object(&mut self, object: Object) -> ObjIdx {
        if matches!(object.kind, ObjKind::Input { .. }) {
            self.input_object_count += 1;
        }
        self.objects.push(Rc::new(object));
        (self.objects.len() - 1) as ObjIdx
    }

    pub fn object(&self, idx: ObjIdx) -> &Object {
        &self.objects[idx as usize]
    }

    /// Decides the lazy pointer `lazy` as pointing `base` bytes into
    /// `object`: every copy of it, wherever the state holds one, becomes a
    /// pointer into `object` (a lazy's resolution has no offset of its own).
    pub fn point_lazy_into(&mut self, lazy: LazyIdx, object: ObjIdx, base: &Word) {
        let mut redirect = LazyRedirect {
            lazy,
            object,
            base,
            done: Vec::new(),
        };
        let points_here = |cell: &Cell| cell_points_to(cell, lazy);
        for slot in 0..self.objects.len() {
            let current = &self.objects[slot];
            if !current.cells.iter().any(points_here) && !current.initial.iter().any(points_here) {
                continue;
            }
            let target = Rc::make_mut(&mut self.objects[slot]);
            for cells in [&mut target.cells, &mut target.initial] {
                cells.change_where(
                    |chunk| chunk.iter().any(points_here),
                    |chunk| redirect.cells(chunk),
                );
            }
        }
        // What stubs were given and wrote is test data too: their pointers
        // must say where.
        for call in &mut self.stub_calls {
            let values = call.args.iter().chain(&call.result);
            let touched = (call.writes.iter()).any(|(_, cells)| redirect.touches(cells))
                || values
                    .into_iter()
                    .any(|value| redirect.touches_value(value));
            if !touched {
                continue;
            }
            let call = Rc::make_mut(call);
            for (_, cells) in &mut call.writes {
                redirect.cells(cells);
            }
            for value in call.args.iter_mut().chain(call.result.iter_mut()) {
                redirect.value(value);
            }
        }
        let values = (self.params.iter_mut())
            .chain(self.escaped.iter_mut())
            .chain(self.ret.iter_mut());
        for value in values {
            redirect.value(value);
        }
        self.lazies[lazy as usize].resolution = Some(Target::Object(object));
    }

    /// Whether the lazy pointer `lazy` is an environment variable's value,
    /// as `getenv` first read it.
    pub fn is_environment_value(&self, lazy: LazyIdx) -> bool {
        self.environment.iter().any(|(_, obj)| {
            matches!(self.object(*obj).initial.first(),
                Some(Cell::Ptr { ptr, .. }) if ptr.target == Target::Lazy(lazy))
        })
    }

    /// Keeps the bytes of every live heap object as the call under test
    /// finds them (see [`State::built_at_call`]).
    pub fn note_built_at_call(&mut self) {
        let built = (self.objects.iter().enumerate())
            .filter(|(_, o)| matches!(o.kind, ObjKind::Heap { freed: false, .. }))
            .map(|(idx, o)| (idx as ObjIdx, o.cells.clone()))
            .collect();
        self.built_at_call = Some(Rc::new(built));
    }

    /// For each byte of object `obj`, whether the call under test left it
    /// as the builds did; `None` for an object no build made.
    pub fn unchanged_since_built(&self, obj: ObjIdx) -> Option<Vec<bool>> {
        let built = self.built_at_call.as_ref()?;
        let (_, cells) = built.iter().find(|(idx, _)| *idx == obj)?;
        Some(self.object(obj).cells.unchanged_since(cells, Cell::same_as))
    }

    pub fn object_mut(&mut self, idx: ObjIdx) -> &mut Object {
        if !matches!(self.objects[idx as usize].kind, ObjKind::Stack) {
            self.memory_changes += 1;
        }
        Rc::make_mut(&mut self.objects[idx as usize])
    }

    /// The calls made so far to build inputs through the code's API, and
    /// of the function under test before the checked call: the searches try
    /// short constructions before long ones.
    pub fn build_calls(&self) -> usize {
        self.builds.iter().map(|b| b.calls.len()).sum::<usize>() + self.earlier_calls.len()
    }

    /// Input objects materialized on this path (nodes the test must build).
    pub fn input_objects(&self) -> usize {
        self.input_object_count
    }

    /// How much input the test builds, for searches that prefer small
    /// inputs: its objects, a buffer two parameters share counted as one
    /// more, since a reader expects each parameter its own buffer, and a
    /// node two of them share as two more: larger than a node of its own,
    /// since callers give each parameter its own node
    /// (`insert_after(pos, pos)` inserts a node into its own list). The
    /// search still gets to a shared one, for what only it shows (a double
    /// free of `free_both(a, a)`), once distinct ones are tried.
    pub fn input_size(&self) -> usize {
        self.input_objects() + self.shared_inputs()
    }

    /// The part of [`Self::input_size`] that counts inputs parameters share.
    pub fn shared_inputs(&self) -> usize {
        self.shared_buffers as usize + 2 * self.shared_nodes()
    }

    /// Struct input objects designated by more than one input pointer
    /// outside a linked structure (parameters, globals); links of a list
    /// or tree pointing back into it are its shape, not a shared input.
    fn shared_nodes(&self) -> usize {
        let mut designated = std::collections::BTreeSet::new();
        self.lazies
            .iter()
            .filter(|lazy| !lazy.link)
            .filter_map(|lazy| match lazy.resolution {
                Some(Target::Object(obj)) => Some(obj),
                _ => None,
            })
            .filter(|obj| {
                matches!(
                    &self.object(*obj).kind,
                    ObjKind::Input {
                        elem: Type::Struct(_),
                        ..
                    }
                )
            })
            .filter(|obj| !designated.insert(*obj))
            .count()
    }

    pub fn add_lazy(&mut self, path: String, ty: Type) -> LazyIdx {
        self.lazies.push(Lazy {
            path: path.into(),
            ty: ty.into(),
            resolution: None,
            link: false,
        });
        (self.lazies.len() - 1) as LazyIdx
    }

    /// Is a declared invariant running on an input (see [`ReturnTo::Assumption`])?
    pub fn checking_invariant(&self) -> bool {
        self.frames.iter().any(|f| {
            matches!(
                f.returns,
                ReturnTo::Assumption | ReturnTo::ExitCheck { .. } | ReturnTo::BuildCheck { .. }
            )
        })
    }

    /// Is a declared invariant running on what the call under test left
    /// (see [`ReturnTo::ExitCheck`])?
    pub fn checking_invariant_on_exit(&self) -> bool {
        self.frames
            .iter()
            .any(|f| matches!(f.returns, ReturnTo::ExitCheck { .. }))
    }

    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("a running state has a frame")
    }

    pub fn frame_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a running state has a frame")
    }

    pub fn local_object(&self, frame: usize, local: LocalId) -> ObjIdx {
        self.frames[frame].locals[local.index()]
    }

    /// A fresh input integer of `bits` bits named after `base`, of a signed
    /// type or not (see [`InputSymbol`]).
    pub fn fresh_input(&mut self, base: &str, bits: u32, signed: bool) -> Word {
        self.new_input_symbol(base, bits, signed, false, false)
    }

    /// A fresh input of the scalar type `ty` (an integer, `float` or
    /// `double`) named after `base`; `None` for other types.
    pub fn fresh_scalar(&mut self, base: &str, ty: &Type) -> Option<Word> {
        let bits = ty.scalar_bits()?;
        let float = matches!(ty, Type::Float(_));
        Some(self.new_input_symbol(base, bits, !ty.is_unsigned_int(), false, float))
    }

    /// A fresh input symbol for a whole integer variable (a parameter, a
    /// global, a stub's result), which the code reads, unlike a field it may
    /// skip.
    pub fn fresh_variable(&mut self, base: &str, bits: u32, signed: bool) -> Word {
        self.new_input_symbol(base, bits, signed, true, false)
    }

    fn new_input_symbol(
        &mut self,
        base: &str,
        bits: u32,
        signed: bool,
        whole: bool,
        float: bool,
    ) -> Word {
        let name = self.symbol_name(base);
        if let Some(NativeInputs(values)) = &self.native_inputs {
            return Word::known(values.value(&name, bits, float), bits);
        }
        let symbol = BV::new_const(name, bits);
        Rc::make_mut(&mut self.input_symbols).push(InputSymbol {
            value: symbol.clone(),
            signed,
            whole,
        });
        Word::Term(symbol)
    }

    /// A unique symbol name along this path.
    pub fn symbol_name(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}#{}", self.fresh)
    }

    /// Enters `block` in the top frame, counting loop iterations.
    pub fn enter_block(&mut self, block: BlockId) {
        let knowledge = self.knowledge();
        let read_input = std::mem::take(&mut self.read_input);
        let frame = self.frame_mut();
        frame.block = block;
        frame.stmt = 0;
        let at = block.index();
        frame.visits[at] += 1;
        if frame.visits[at] == 1 || read_input || frame.knowledge_at_visit[at] != knowledge {
            frame.deciding_visits[at] += 1;
            frame.knowledge_at_visit[at] = knowledge;
        }
        let extra = frame.deciding_visits[at] - 1;
        self.loop_level = self.loop_level.max(extra);
    }

    /// How much the path has learned about its inputs: it only grows.
    fn knowledge(&self) -> usize {
        self.path.len() + self.lazies.len()
    }
}

/// Rewrites pointers holding one lazy target as pointers into an object.
struct LazyRedirect<'b> {
    lazy: LazyIdx,
    object: ObjIdx,
    base: &'b Word,
    /// Each pointer rewritten and its new value: the bytes of one stored
    /// pointer share it, and must share the new one.
    done: Vec<(Rc<PtrVal>, Rc<PtrVal>)>,
}

/// Whether `cell` is a byte of a pointer to what `lazy` points to.
fn cell_points_to(cell: &Cell, lazy: LazyIdx) -> bool {
    matches!(cell, Cell::Ptr { ptr, .. } if ptr.target == Target::Lazy(lazy))
}

impl LazyRedirect<'_> {
    fn holds(&self, ptr: &PtrVal) -> bool {
        ptr.target == Target::Lazy(self.lazy)
    }

    fn redirected(&self, ptr: &PtrVal) -> PtrVal {
        PtrVal {
            target: Target::Object(self.object),
            offset: ptr.offset.bvadd(self.base),
        }
    }

    fn touches(&self, cells: &[Cell]) -> bool {
        cells.iter().any(|cell| cell_points_to(cell, self.lazy))
    }

    fn cells(&mut self, cells: &mut [Cell]) {
        for cell in cells {
            let Cell::Ptr { ptr, .. } = cell else {
                continue;
            };
            if !self.holds(ptr) {
                continue;
            }
            let new = match self.done.iter().find(|(old, _)| Rc::ptr_eq(old, ptr)) {
                Some((_, new)) => new.clone(),
                None => {
                    let new = Rc::new(self.redirected(ptr));
                    self.done.push((ptr.clone(), new.clone()));
                    new
                }
            };
            *ptr = new;
        }
    }

    fn touches_value(&self, value: &SymVal) -> bool {
        match value {
            SymVal::Ptr(ptr) => self.holds(ptr),
            SymVal::Bytes(cells) => self.touches(cells),
            _ => false,
        }
    }

    fn value(&mut self, value: &mut SymVal) {
        match value {
            SymVal::Ptr(ptr) if self.holds(ptr) => *ptr = self.redirected(ptr),
            SymVal::Bytes(cells) if self.touches(cells) => {
                self.cells(Rc::<Vec<Cell>>::make_mut(cells))
            }
            _ => {}
        }
    }
}
