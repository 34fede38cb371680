//! Command-line surface. Parsing only; `main.rs` orchestrates the stages.

use crate::record::Shard;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// The exit statuses of every command, shown by `--help`.
const EXIT_STATUS: &str = "\
Exit status:
  0    success
  1    gen --check, check: a test failed, or gcov did not see a branch cairn claimed
  2    bad usage or unreadable input (a missing file, a syntax error, an output
       directory that cannot be written: all reported before any analysis)
  3    reach, path: proved unreachable or infeasible
  4    reach, path: a bound (named) stopped the search first
  5    gen: no file defines a function to test
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM; gen writes the tests found
       so far (a second signal ends it at once)";

#[derive(Parser, Debug)]
#[command(
    name = "cairn",
    version,
    about = "Generates unit tests for C functions and proves their coverage with gcc + gcov",
    after_help = EXIT_STATUS
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Generate tests: OUT/<stem>_test.c, OUT/<stem>.tests.json and findings reproducers.
    #[command(after_help = EXIT_STATUS)]
    Gen(GenArgs),
    /// Build and run the drivers in OUT with gcov; compare measured and predicted coverage.
    Check(CheckArgs),
    /// Generate a Test-Comp test suite for a program whose `main` reads its
    /// inputs from __VERIFIER_nondet_*() calls: OUT/test-suite.zip (for
    /// TestCov), beside the driver and tests.json that `cairn check OUT`
    /// measures.
    #[command(after_help = EXIT_STATUS)]
    Testcomp(TestcompArgs),
    /// Join the output directories of the shards of one run (gen --shard K/N)
    /// into one, as the whole run would have written it.
    Merge(MergeArgs),
    /// Print the IR in its stable text form.
    Ir(InspectArgs),
    /// Print one function's control-flow graph as DOT.
    Cfg(InspectArgs),
    /// List branch goals: each direction of each condition.
    Goals(InspectArgs),
    /// Find an input that executes a line (or takes a branch) at least K times,
    /// or prove that none exists. Exit 0: found; 3: unreachable; 4: bounds hit.
    Reach(ReachArgs),
    /// Find an input whose run follows a path given as source lines, or show
    /// the conditions along it that contradict. Exit 0: found; 3: infeasible;
    /// 4: bounds hit.
    Path(PathArgs),
}

/// Compiler-style flags for reading a C file.
#[derive(Args, Debug, Clone)]
pub struct SourceArgs {
    /// Add a directory to the include search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "DEF")]
    pub define: Vec<String>,
    /// C compiler used as preprocessor.
    #[arg(long, default_value = "cc")]
    pub cc: String,
    /// Directory with a compile_commands.json to take each file's flags
    /// (-I, -D, -U, -std, -include, -isystem) from.
    #[arg(short = 'p', value_name = "DIR")]
    pub compile_commands: Option<PathBuf>,
    /// The target's data model: the sizes of long and pointers, and struct
    /// layouts; the drivers are compiled for it. -m32 and -m64 as for gcc.
    #[arg(short = 'm', long, value_enum, default_value_t = DataModelChoice::Lp64)]
    pub data_model: DataModelChoice,
}

impl SourceArgs {
    /// How the front end reads a file with these flags.
    pub fn front_config(&self) -> front::FrontConfig {
        front::FrontConfig {
            cc: self.cc.clone(),
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            compile_commands_dir: self.compile_commands.clone(),
            data_model: self.data_model.into(),
            mcdc: false,
        }
    }
}

#[derive(
    ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub enum DataModelChoice {
    /// x86-64: int 32-bit, long and pointers 64-bit (gcc -m64).
    #[default]
    #[value(alias = "64", alias = "64bit")]
    Lp64,
    /// i386: int, long and pointers 32-bit, as most Test-Comp tasks declare
    /// (gcc -m32, which needs gcc-multilib). Floating point and variadic
    /// arguments are not supported in this model.
    #[value(alias = "32", alias = "32bit")]
    Ilp32,
}

impl From<DataModelChoice> for ir::DataModel {
    fn from(choice: DataModelChoice) -> Self {
        match choice {
            DataModelChoice::Lp64 => ir::DataModel::Lp64,
            DataModelChoice::Ilp32 => ir::DataModel::Ilp32,
        }
    }
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// C source files. None with -p BUILD_DIR: every C file its
    /// compile_commands.json compiles, each with its own flags and its
    /// outputs in OUT/<path of the file>/ (a file that cannot be read is
    /// reported, the others go on).
    #[arg(required_unless_present = "compile_commands")]
    pub files: Vec<PathBuf>,
    /// Only these functions (repeatable); default: every function defined in the file.
    #[arg(short = 'f', long = "function", value_name = "FN")]
    pub functions: Vec<String>,
    /// Output directory.
    #[arg(short = 'o', long = "out", default_value = "cairn-out")]
    pub out: PathBuf,
    /// Compile and run the drivers with gcov and compare coverage with the prediction.
    #[arg(long)]
    pub check: bool,
    /// With --check: also run the drivers under AddressSanitizer,
    /// UndefinedBehaviorSanitizer and LeakSanitizer, and run each finding's
    /// reproducer to confirm it.
    #[arg(long)]
    pub sanitize: bool,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    /// Whether globals are inputs chosen per test or start from their initializers.
    #[arg(long, value_enum, default_value_t = GlobalsMode::Inputs)]
    pub globals: GlobalsMode,
    /// Which goals the search targets (coverage is measured on all of them).
    #[arg(long, value_enum, default_value_t = GoalsMode::All)]
    pub goals: GoalsMode,
    /// The coverage the tests aim at.
    #[arg(long, value_enum, default_value_t = CoverageChoice::Branch)]
    pub coverage: CoverageChoice,
    /// What to do for goals the coverage search leaves uncovered: nothing,
    /// or, once it has made no test for a quarter of the time, bounded
    /// execution trees, loop bound raised step by step, one solver query per
    /// goal and bound.
    #[arg(long, value_enum, default_value_t = HardGoalsMode::Off)]
    pub hard_goals: HardGoalsMode,
    /// The order in which the search runs the paths it has started.
    #[arg(long, value_enum, default_value_t = SearchMode::Coverage)]
    pub search: SearchMode,
    /// Seed of the random choices of `--search random` and `mixed` and of
    /// the sampled inputs: the same seed gives the same tests.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Skip the sampled inputs tried before the symbolic search (and for
    /// goals whose solver query timed out): the solver then finds every test.
    #[arg(long)]
    pub no_cheap_inputs: bool,
    /// Do not run the tests and reproducers before writing them (by
    /// default a test the run contradicts is left out, and a finding its
    /// reproducer does not show is no claim; both say why).
    #[arg(long)]
    pub no_validate: bool,
    /// Check the final value of every global, not only those the call writes.
    #[arg(long)]
    pub check_all_globals: bool,
    /// Write only the tests branch coverage needs, none more at the
    /// boundaries of comparisons (by default, a comparison such as `x <= 10`
    /// also gets tests with x at 9, 10 and 11 where its paths allow them).
    #[arg(long)]
    pub no_boundary_tests: bool,
    /// Test only the edges of comparisons that a path's own branches allow.
    /// By default an edge a path rules out is tested too, with the rest of
    /// the path's conditions (x at 1001 in `x > 1000 || y < 2`, with y in
    /// range, so that the edge decides).
    #[arg(long)]
    pub no_flipped_boundaries: bool,
    /// Which findings the summary lists and counts.
    #[arg(long, value_enum, default_value_t = FindingsMode::Valid)]
    pub findings: FindingsMode,
    /// Print the summary as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The test framework the driver is written for.
    #[arg(long, value_enum, default_value_t = FrameworkChoice::Plain)]
    pub framework: FrameworkChoice,
    /// How many functions to explore at once, each on a thread with a Z3
    /// solver of its own; default: the machine's cores. The output is the
    /// same for any N, unless --max-time cuts a search short.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<NonZeroUsize>,
    /// Explore only shard K of N (from 1): a split of the functions that
    /// is the same on every machine, so that N jobs share a run. Each
    /// shard's output directory is complete; `cairn merge` joins them.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Explore every function again. By default a rerun into the same
    /// output directory keeps the tests of each function whose code, the
    /// code it runs, and the options are unchanged since the last run.
    #[arg(long)]
    pub fresh: bool,
    /// A whole program's view, as `testcomp` runs its `main`: the branches
    /// of every function of the program count, and allocations, which
    /// its harness cannot make fail, are explored failing but never
    /// tested so; not an option.
    #[arg(skip)]
    pub whole_program: bool,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameworkChoice {
    /// cairn's own runner in OUT/<stem>_test.c: each test in a process of its
    /// own, so a crash or hang fails that test alone.
    Plain,
    /// CMocka (libcmocka-dev) in OUT/<stem>_test.c: cmocka_unit_test,
    /// assert_int_equal; all tests in one process.
    Cmocka,
    /// GoogleTest (libgtest-dev): TEST and EXPECT_EQ in OUT/<stem>_test.cc,
    /// the tests' bodies in C in OUT/<stem>_test_cases.c; all tests in one
    /// process.
    Gtest,
}

impl From<FrameworkChoice> for emit::Framework {
    fn from(choice: FrameworkChoice) -> Self {
        match choice {
            FrameworkChoice::Plain => emit::Framework::Plain,
            FrameworkChoice::Cmocka => emit::Framework::Cmocka,
            FrameworkChoice::Gtest => emit::Framework::Gtest,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoverageChoice {
    /// Each direction of each condition, as gcov counts branches.
    Branch,
    /// Each condition true and false: the same goals as `branch`, since
    /// every operand of `&&` and `||` is a branch of its own (gcov counts
    /// them so).
    Condition,
    /// Branches, and per decision (two or more conditions joined by `&&`
    /// and `||`) each condition shown to decide the outcome on its own,
    /// as llvm-cov measures MC/DC: two evaluations whose outcomes differ
    /// and that differ in that condition alone among those both evaluated.
    Mcdc,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalsMode {
    /// Each test chooses the globals the function reads (unit-test view).
    Inputs,
    /// Globals start from their initializers (whole-program view, e.g. for `main`).
    Init,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalsMode {
    /// Both directions of every condition.
    All,
    /// Only the unconstrained edges: covering them covers every branch.
    Unconstrained,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// An output directory written by `cairn gen`.
    pub out: PathBuf,
    /// Also run the drivers under AddressSanitizer, UndefinedBehaviorSanitizer
    /// and LeakSanitizer, and run each finding's reproducer to confirm it.
    #[arg(long)]
    pub sanitize: bool,
    /// Compiler used to build the drivers.
    #[arg(long, default_value = "gcc")]
    pub cc: String,
    /// The coverage measured: branches with gcov, and with `mcdc` also
    /// MC/DC with clang's instrumentation and llvm-cov (clang 18 or later,
    /// e.g. Debian's clang-19 and llvm-19), compared with the decisions
    /// `gen --coverage mcdc` claims.
    #[arg(long, value_enum, default_value_t = CoverageChoice::Branch)]
    pub coverage: CoverageChoice,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the test results as JUnit XML (for Jenkins, GitLab, GitHub):
    /// a test suite per source file, and one of its findings' reproducers
    /// (a failure when --sanitize confirmed the finding).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the findings as SARIF 2.1.0 (for code-scanning tools and
    /// IDEs): one result per finding, with its location, the branches on the
    /// way to it and the command that reproduces it. Paths inside the
    /// working directory are written relative to it.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Also write a static HTML report into DIR (open DIR/index.html in a
    /// browser, no server needed): per source file the source with the
    /// coverage gcov measured and cairn predicted on each line and branch,
    /// the tests with their inputs and pictures, the findings with their
    /// reproducers.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TestcompArgs {
    /// The program: a C file whose `main` takes no parameters.
    pub file: PathBuf,
    /// Output directory.
    #[arg(short = 'o', long = "out", default_value = "cairn-out")]
    pub out: PathBuf,
    /// Then compile and run the driver with gcov and compare coverage with
    /// the prediction, as `gen --check` does.
    #[arg(long)]
    pub check: bool,
    /// The property metadata.xml names: branch coverage or a call of
    /// reach_error (every test is written either way).
    #[arg(long, value_enum, default_value_t = SpecChoice::Branches)]
    pub spec: SpecChoice,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecChoice {
    /// COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )
    Branches,
    /// COVER( init(main()), FQL(cover EDGES(@CALL(reach_error))) )
    ErrorCall,
}

impl From<SpecChoice> for emit::testcomp::Specification {
    fn from(choice: SpecChoice) -> Self {
        match choice {
            SpecChoice::Branches => emit::testcomp::Specification::Branches,
            SpecChoice::ErrorCall => emit::testcomp::Specification::ErrorCall,
        }
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output directories written by `cairn gen --shard K/N`, one per shard.
    #[arg(required = true)]
    pub outs: Vec<PathBuf>,
    /// Where to write the joined outputs.
    #[arg(short = 'o', long = "out", required = true)]
    pub out: PathBuf,
    /// Which findings the summary lists and counts.
    #[arg(long, value_enum, default_value_t = FindingsMode::Valid)]
    pub findings: FindingsMode,
    /// Print the summary as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ReachArgs {
    pub file: PathBuf,
    /// The function under test.
    #[arg(short = 'f', long = "function", value_name = "FN")]
    pub function: String,
    /// Source line whose code must run.
    #[arg(
        long,
        value_name = "LINE",
        required_unless_present = "branch",
        conflicts_with = "branch"
    )]
    pub line: Option<u32>,
    /// One direction of a condition, as `cairn goals` names it: LINE:COL:T or
    /// LINE:COL:F (switches: C<n>, D).
    #[arg(long, value_name = "LINE:COL:ARM")]
    pub branch: Option<String>,
    /// Executions needed (at least this many, or exactly with --exact).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub times: u32,
    /// Exactly --times executions, not at least.
    #[arg(long)]
    pub exact: bool,
    /// Count only the executions before line BEFORE first runs (the run must
    /// reach it): e.g. an inner loop's iterations in the outer loop's first round.
    #[arg(long, value_name = "BEFORE")]
    pub before: Option<u32>,
    /// Output directory for the test (written only when one is found).
    #[arg(short = 'o', long = "out", default_value = "cairn-out")]
    pub out: PathBuf,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Args, Debug)]
pub struct PathArgs {
    pub file: PathBuf,
    /// The function under test.
    #[arg(short = 'f', long = "function", value_name = "FN")]
    pub function: String,
    /// The lines the run must visit, in order, separated by commas or spaces
    /// (`LINE:COL` also asks for the code at that column). A loop body is
    /// written as often as it runs. Only the function's own statements,
    /// conditions and returns count (not callees), and a line visited
    /// several times in a row counts once. A prefix is enough: any
    /// completion of it will do.
    #[arg(long = "path", value_name = "SPEC")]
    pub path: String,
    /// Output directory for the test (written only when one is found).
    #[arg(short = 'o', long = "out", default_value = "cairn-out")]
    pub out: PathBuf,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    #[command(flatten)]
    pub source: SourceArgs,
}

/// The search's bounds and modelling choices, and the solver's diagnostics,
/// shared by `gen`, `reach` and `path`.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Time budget (per function for `gen`), in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    pub max_time: f64,
    /// Completed paths (per function for `gen`).
    #[arg(long, default_value_t = 10_000)]
    pub max_paths: u64,
    /// Largest input array or string length.
    #[arg(long, default_value_t = 8)]
    pub max_array: u64,
    /// Most input objects (list or tree nodes, pointees) one test may build.
    #[arg(long, default_value_t = 8)]
    pub max_nodes: u32,
    /// Deepest call chain (bounds recursion).
    #[arg(long, default_value_t = 8)]
    pub max_depth: u32,
    /// Most entries into one block of one call on a path (bounds loops, e.g.
    /// over a cyclic input list) [default: 1000; for `reach`, 2 K + 16, and
    /// never less]
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<u32>,
    /// Report what faults or leaks after a failed allocation as findings.
    /// Without it, every malloc, calloc, realloc, strdup and strndup may
    /// still fail (return NULL) when a branch needs it, the driver making
    /// exactly those calls fail, but only paths that handle the failure
    /// make tests.
    #[arg(long, conflicts_with = "alloc_never_fails")]
    pub alloc_may_fail: bool,
    /// Every allocation succeeds: no test makes one fail.
    #[arg(long)]
    pub alloc_never_fails: bool,
    /// A C predicate every input of a struct type satisfies, as TYPE=FUNCTION
    /// (e.g. 'struct list=list_is_valid'; repeatable). FUNCTION is defined in
    /// the file, takes a pointer to TYPE and returns non-zero for a valid
    /// value: tests and findings use only inputs it accepts. A comment in the
    /// file can declare the same: /* cairn: invariant struct list=list_is_valid */
    #[arg(long, value_name = "TYPE=FUNCTION", help_heading = "Inputs")]
    pub invariant: Vec<String>,
    /// How a pointer to a struct is given to the function under test.
    #[arg(long, value_enum, default_value_t = InputsMode::Api, help_heading = "Inputs")]
    pub inputs: InputsMode,
    /// Most calls after the constructor that build one input through the
    /// file's functions (with --inputs api), and most calls a test makes of
    /// a function with static variables before the call it checks.
    #[arg(long, default_value_t = 3, value_name = "N", help_heading = "Inputs")]
    pub max_build_calls: u32,
    /// Save every question the search asks the Z3 solver in DIR (created if
    /// missing), one numbered SMT-LIB 2 file each, with Z3's answer and the
    /// time it took: a slow one can then be rerun alone with `z3 FILE`.
    #[arg(long, value_name = "DIR", help_heading = "Diagnostics")]
    pub dump_queries: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputsMode {
    /// Built by calling the file's own public functions where it has a
    /// constructor for the struct (a function returning a new one from
    /// integers): the constructor, then a few calls that add to it (taking
    /// the pointer and integers, and allocating); a pointer to a node of
    /// such a structure is taken from it. Other structs are free-form shapes.
    Api,
    /// Free-form shapes (any nodes, links, sharing and values), whatever
    /// the API.
    Free,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingsMode {
    /// Findings whose inputs are valid: scalars, strings and arrays, and
    /// structures built through the file's functions or accepted by a
    /// declared invariant.
    Valid,
    /// Also the others, labelled (structures built freely, the arguments of
    /// a static function): they may need a value the program never holds.
    All,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Paths closest to an uncovered branch first, fewest loop iterations
    /// first, taking turns with the deepest path.
    Coverage,
    /// A random path each time.
    Random,
    /// The coverage order taking turns with the random one.
    Mixed,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardGoalsMode {
    /// The coverage search alone, with the whole time budget.
    Off,
    /// Bounded execution trees: loop bound raised step by step, all paths to a
    /// goal asked of the solver in one query.
    Trees,
}

#[derive(Args, Debug)]
pub struct InspectArgs {
    pub file: PathBuf,
    /// Only this function (repeatable).
    #[arg(short = 'f', long = "function", value_name = "FN")]
    pub functions: Vec<String>,
    #[command(flatten)]
    pub source: SourceArgs,
}
