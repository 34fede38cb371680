//! The bounds that stop a search or cut a path: one type the engine
//! names them by, the reports carry and the user reads, each with what it
//! cut and how it is lifted. A new bound does not compile until it says.

/// A bound that stopped a search or cut a path; written as its slug.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    MaxArray,
    MaxNodes,
    BytesPointers,
    MaxDepth,
    MaxIterations,
    MaxPaths,
    MaxTime,
    /// No progress for a while: the search gave the rest of its time up.
    Stalled,
    MaxWaiting,
    MaxStatements,
    MaxSolverWork,
    SolverTimeout,
    MaxMemory,
    MaxWaitingStates,
    AllocMayFail,
    LibraryStart,
    OptionArguments,
    StubEffects,
    Interrupted,
    StaticStart,
    EarlierCalls,
    ApartInputs,
    OneThread,
    BuildSizes,
    MaxBuildCalls,
    SymbolicAllocationSize,
    LongNumber,
    Concretised,
    Environment,
    ScannedStream,
}

/// How a user lifts a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lift {
    /// By an option (or a step) of their own: `raise --max-array`.
    By(&'static str),
    /// Not at all: a bound of unit tests themselves, or of cairn's model;
    /// the text says why.
    Fixed(&'static str),
}

impl Bound {
    pub const ALL: [Bound; 30] = [
        Bound::MaxArray,
        Bound::MaxNodes,
        Bound::BytesPointers,
        Bound::MaxDepth,
        Bound::MaxIterations,
        Bound::MaxPaths,
        Bound::MaxTime,
        Bound::Stalled,
        Bound::MaxWaiting,
        Bound::MaxStatements,
        Bound::MaxSolverWork,
        Bound::SolverTimeout,
        Bound::MaxMemory,
        Bound::MaxWaitingStates,
        Bound::AllocMayFail,
        Bound::LibraryStart,
        Bound::OptionArguments,
        Bound::StubEffects,
        Bound::Interrupted,
        Bound::StaticStart,
        Bound::EarlierCalls,
        Bound::ApartInputs,
        Bound::OneThread,
        Bound::BuildSizes,
        Bound::MaxBuildCalls,
        Bound::SymbolicAllocationSize,
        Bound::LongNumber,
        Bound::Concretised,
        Bound::Environment,
        Bound::ScannedStream,
    ];

    /// The name a user reads (and the JSON holds).
    pub fn slug(self) -> &'static str {
        match self {
            Bound::MaxArray => "max_array",
            Bound::MaxNodes => "max_nodes",
            Bound::BytesPointers => "bytes_pointers",
            Bound::MaxDepth => "max_depth",
            Bound::MaxIterations => "max_iterations",
            Bound::MaxPaths => "max_paths",
            Bound::MaxTime => "max_time",
            Bound::Stalled => "stalled",
            Bound::MaxWaiting => "max_waiting",
            Bound::MaxStatements => "max_statements",
            Bound::MaxSolverWork => "max_solver_work",
            Bound::SolverTimeout => "solver_timeout",
            Bound::MaxMemory => "max_memory",
            Bound::MaxWaitingStates => "max_waiting_states",
            Bound::AllocMayFail => "alloc_may_fail",
            Bound::LibraryStart => "library_start",
            Bound::OptionArguments => "option_arguments",
            Bound::StubEffects => "stub_effects",
            Bound::Interrupted => "interrupted",
            Bound::StaticStart => "static_start",
            Bound::EarlierCalls => "earlier_calls",
            Bound::ApartInputs => "apart_inputs",
            Bound::OneThread => "one_thread",
            Bound::BuildSizes => "build_sizes",
            Bound::MaxBuildCalls => "max_build_calls",
            Bound::SymbolicAllocationSize => "symbolic_allocation_size",
            Bound::LongNumber => "long_number",
            Bound::Concretised => "concretised",
            Bound::Environment => "environment",
            Bound::ScannedStream => "scanned_stream",
        }
    }

    /// What the bound cut, and how it is lifted.
    pub fn facts(self) -> (&'static str, Lift) {
        const UNIT_TESTS: Lift = Lift::Fixed("a fixed bound of unit tests");
        match self {
            Bound::MaxArray => ("input arrays and strings are short", Lift::By("raise --max-array")),
            Bound::MaxNodes => ("inputs have few objects", Lift::By("raise --max-nodes")),
            Bound::BytesPointers => (
                "a pointer read from an input's plain bytes (a union's, a buffer's) is NULL, as a test writes it",
                UNIT_TESTS,
            ),
            Bound::MaxDepth => ("calls nest shallowly", Lift::By("raise --max-depth")),
            Bound::MaxIterations => ("loops run few times", Lift::By("raise --max-iterations")),
            Bound::MaxPaths => ("the search completes few paths", Lift::By("raise --max-paths")),
            Bound::MaxTime | Bound::Stalled => ("the time ran out", Lift::By("raise --max-time")),
            Bound::MaxWaiting => ("too many paths were waiting", Lift::By("raise --max-time")),
            Bound::MaxStatements => (
                "a phase of the search ran the most statements it is given",
                Lift::By("raise --max-time"),
            ),
            Bound::MaxSolverWork => (
                "a phase of the search spent the solver work it is given",
                Lift::By("raise --max-time"),
            ),
            Bound::SolverTimeout => (
                "the solver gave up on a question in the time it had",
                Lift::By("raise --max-time"),
            ),
            Bound::MaxMemory => (
                "the run reached the most memory cairn holds at once, and the search stopped",
                Lift::By("test the function alone, with -j 1"),
            ),
            Bound::MaxWaitingStates => (
                "more paths were waiting than cairn holds at once, and forks past that went on one way only",
                Lift::Fixed("a fixed bound that keeps cairn's memory in check"),
            ),
            Bound::AllocMayFail => ("malloc never fails", Lift::By("drop --alloc-never-fails")),
            Bound::LibraryStart => (
                "the C library's own state (getopt's `optind`) starts as in a fresh process",
                UNIT_TESTS,
            ),
            Bound::OptionArguments => (
                "command lines give one option an argument, and a non-option argument only last",
                Lift::Fixed("GNU getopt reorders other command lines"),
            ),
            Bound::StubEffects => (
                "a function without a body may write through its pointer arguments, which tests do not model",
                Lift::Fixed("give the function a body"),
            ),
            Bound::Interrupted => ("the run was interrupted", Lift::By("run again")),
            Bound::StaticStart => (
                "a function's static variables start from their initial value, each test calling the function once",
                Lift::Fixed("tests call a function several times only when it takes integers only"),
            ),
            Bound::EarlierCalls => (
                "a function's static variables start from their initial value, and a test calls the function few times before the call it checks",
                Lift::By("raise --max-build-calls"),
            ),
            Bound::ApartInputs => (
                "tests never pass overlapping buffers to a copy",
                Lift::Fixed("the C library leaves such copies undefined"),
            ),
            Bound::OneThread => (
                "a test runs the function in one thread, so no mutex it is given is locked",
                UNIT_TESTS,
            ),
            Bound::BuildSizes => (
                "inputs built through the API take one size per allocation",
                Lift::By("use --inputs free"),
            ),
            Bound::MaxBuildCalls => (
                "inputs are built with few calls of the file's functions",
                Lift::By("raise --max-build-calls"),
            ),
            Bound::SymbolicAllocationSize => (
                "an allocation whose size the input chooses is at most 4096 bytes",
                Lift::Fixed("a fixed bound that keeps each path's memory small"),
            ),
            Bound::LongNumber => (
                "a number written with more than 24 characters is not read further",
                Lift::Fixed("a fixed bound of the C library's number models"),
            ),
            Bound::Concretised => (
                "a C library call fixed a value the input chooses to the one first picked",
                Lift::Fixed("other values of that argument are not explored"),
            ),
            Bound::Environment => (
                "a C library call run natively read cairn's own environment, not the test's",
                Lift::Fixed("give the call a model or a mock"),
            ),
            Bound::ScannedStream => (
                "a stream `fscanf` reads holds no NUL byte, and is not read on after a `fscanf` that stopped early",
                Lift::Fixed("a bound of cairn's model of `fscanf`"),
            ),
        }
    }

    /// The bound as a user reads it: what it cut and how it is lifted.
    pub fn explained(self) -> String {
        match self.facts() {
            (what, Lift::By(lift) | Lift::Fixed(lift)) => format!("{self}: {what} ({lift})"),
        }
    }

    /// Whether no option lifts the bound.
    pub fn is_fixed(self) -> bool {
        matches!(self.facts(), (_, Lift::Fixed(_)))
    }

    /// Whether the bound is the search's time running out.
    pub fn is_time(self) -> bool {
        matches!(self, Bound::MaxTime | Bound::Stalled)
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.slug())
    }
}

#[cfg(test)]
mod tests {
    use super::Bound;

    #[test]
    fn a_bound_says_what_it_cut_and_whether_an_option_lifts_it() {
        assert_eq!(
            Bound::MaxArray.explained(),
            "max_array: input arrays and strings are short (raise --max-array)"
        );
        assert!(!Bound::MaxArray.is_fixed() && !Bound::AllocMayFail.is_fixed());
        assert!(Bound::LibraryStart.is_fixed() && Bound::OneThread.is_fixed());
    }

    #[test]
    fn bounds_are_written_as_their_slugs() {
        for bound in Bound::ALL {
            let json = serde_json::to_string(&bound).expect("JSON");
            assert_eq!(json, format!("\"{}\"", bound.slug()));
            assert_eq!(serde_json::from_str::<Bound>(&json).ok(), Some(bound));
        }
        let mut slugs: Vec<_> = Bound::ALL.iter().map(|b| b.slug()).collect();
        slugs.sort_unstable();
        slugs.dedup();
        assert_eq!(slugs.len(), Bound::ALL.len());
    }
}
