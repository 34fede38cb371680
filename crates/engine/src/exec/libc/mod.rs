//! Models of C library functions, exact as glibc behaves on x86-64 in the C
//! locale. They read and write memory byte by byte, symbolically where the
//! bytes are symbolic; reading or writing past an object is a finding.
//! Character classes are in `ctype`, string and memory functions in `string`, text to number conversions
//! in `number`, formats and the printf family in `format`, `sscanf` in
//! `scan`; the shared helpers (byte scans, copies, `errno`, choosing among
//! outcomes) are here.

mod ctype;
mod environment;
mod format;
mod getopt;
mod math;
mod mutex;
mod number;
mod scan;
mod stream;
mod string;

pub(super) use string::longest_compared_literal;

use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::memory;
use crate::state::{ObjKind, Object, ReturnTo, State};
use crate::value::{
    cells_to_int, concrete, cond_value, int_cells, resize, Cell, Cond, ObjIdx, PtrVal, SymVal,
    Target, Word,
};
use ctype::{is_char, to_lower, CharClass};
use testcase::Bound;
use testcase::FindingKind;
use z3::ast::BV;

pub enum Model {
    /// The function's result (`None` for `void`).
    Returns(Option<SymVal>),
    NotLibrary,
}

/// Largest object a byte-by-byte symbolic model walks over.
const SCAN_LIMIT: u64 = 64 << 10;

/// Most cells a copy of symbolic length to a symbolic place may build
/// (bytes it may write, times the object's bytes each is a case over).
const SYMBOLIC_COPY_CELLS: u64 = 256 * 256;

/// Functions writing to the standard output or error, whose only effect
/// we ignore; their result is unconstrained but not a test input (the
/// stream functions on `stdout` and `stderr` too: see `stream`).
const OUTPUT_ONLY: &[&str] = &[
    "printf", "vprintf", "puts", "putchar", "perror", "warn", "warnx", "vwarn", "vwarnx",
];
/// Functions that end the process with the status their first argument
/// gives (`err` and its kin print a message to standard error first).
const EXITS: &[&str] = &["exit", "_Exit", "err", "errx", "verr", "verrx"];
/// Functions that print a message to standard error and, when their first
/// argument (a status) is not 0, end the process with it.
const EXITS_UNLESS_ZERO: &[&str] = &["error", "error_at_line"];
/// Functions that end the program abnormally; reaching one is a finding.
const ABORTS: &[&str] = &["abort", "__builtin_trap", "__builtin_unreachable"];

/// The `errno` values the models set (glibc's numbers).
const ERANGE: u128 = 34;
const EINVAL: u128 = 22;
const EBADF: u128 = 9;

/// The arguments of a library call, read as its model expects them.
struct Args<'v> {
    name: &'v str,
    values: &'v [SymVal],
}

impl Args<'_> {
    fn int(&self, i: usize) -> Exec<Word> {
        match self.values.get(i) {
            Some(SymVal::Int(v)) => Ok(v.clone()),
            _ => unsupported(format!("argument {i} of `{}`", self.name)),
        }
    }

    /// A `size_t` (or `long`) argument as 64 bits.
    fn size(&self, i: usize) -> Exec<Word> {
        Ok(resize(&self.int(i)?, 64, false))
    }

    fn ptr(&self, i: usize) -> Exec<PtrVal> {
        match self.values.get(i) {
            Some(SymVal::Ptr(p)) => Ok(p.clone()),
            _ => unsupported(format!("argument {i} of `{}`", self.name)),
        }
    }
}

fn returns(value: SymVal) -> Exec<Model> {
    Ok(Model::Returns(Some(value)))
}

fn returns_int(value: Word) -> Exec<Model> {
    returns(SymVal::Int(value))
}

/// The result of a call writing to the standard output or error: an
/// unconstrained `int`, no input of the test.
fn output_only(st: &mut State, name: &str) -> Exec<Model> {
    let free = Word::Term(BV::new_const(st.symbol_name(&format!("{name}()")), 32));
    returns_int(free)
}

impl Machine<'_, '_> {
    /// Whether the path runs the call of the function under test itself,
    /// not a call building or checking its inputs.
    fn in_the_call(&self, st: &State) -> bool {
        st.frames.first().is_some_and(|f| f.func == self.root)
            && st
                .frames
                .iter()
                .all(|f| matches!(f.returns, ReturnTo::Place(_) | ReturnTo::Nowhere))
    }
    pub fn library(&mut self, st: &mut State, name: &str, values: &[SymVal]) -> Exec<Model> {
        if ABORTS.contains(&name) {
            let message = format!("`{name}()` is called");
            return self.fault(st, FindingKind::Abort, &message);
        }
        if name == "__assert_fail" {
            let message = match values.first() {
                Some(SymVal::Ptr(PtrVal {
                    target: Target::Str(id),
                    ..
                })) => {
                    let text = &self.program.strings[id.index()];
                    let text = text.strip_suffix(&[0]).unwrap_or(text);
                    format!("assertion `{}` fails", String::from_utf8_lossy(text))
                }
                _ => "an assertion fails".to_string(),
            };
            return self.fault(st, FindingKind::AssertionFailure, &message);
        }
        if EXITS_UNLESS_ZERO.contains(&name) {
            let status = match values.first() {
                Some(SymVal::Int(v)) => concrete(&st.with_fixed(v)),
                _ => None,
            };
            match status {
                Some(0) => return output_only(st, name),
                Some(_) => {}
                None => return unsupported(format!("a status of `{name}` the path does not fix")),
            }
        }
        if EXITS.contains(&name) || EXITS_UNLESS_ZERO.contains(&name) {
            let status = match values.first() {
                Some(SymVal::Int(v)) => v.clone(),
                _ => return unsupported(format!("the status given to `{name}`")),
            };
            let failure = status.eq(Word::known(0, status.get_size())).not();
            let message = format!("`{name}` is called with a non-zero status");
            // `exit` runs the handlers that write gcov's counters (`err`
            // calls it): its test expects the status, where each test runs
            // in a process of its own.
            if name != "_Exit" && self.config.exit_tests && self.in_the_call(st) {
                self.note_fault(st, FindingKind::ErrorExit, &failure, &message);
                let mut exited = st.clone();
                exited.frames.clear();
                exited.returned_at = Some(self.span);
                exited.exit_status = Some(status);
                return Err(Stop::Fork(vec![exited]));
            }
            self.check_fault(st, FindingKind::ErrorExit, &failure, &message)?;
            // A successful exit: the driver could not run past it, so no test.
            return Err(self.end(st, true));
        }
        let args = Args { name, values };
        if let Some(function) = stream::stream_function(name) {
            return self.stream_call(st, function, &args);
        }
        if OUTPUT_ONLY.contains(&name) {
            if let Some(string) = self.printed_as_puts(st, &args)? {
                self.source(st, &string)?;
            }
            return output_only(st, name);
        }
        if let Some(model) = self.math(st, &args) {
            return model;
        }
        if let Some(call) = mutex::MutexCall::named(name) {
            return self.mutex_call(st, call, &args);
        }
        if let Some(class) = CharClass::named(name) {
            let c = args.int(0)?;
            return returns_int(
                class
                    .holds(&c)
                    .ite(&Word::known(class.bit(), 32), &Word::known(0, 32)),
            );
        }
        match name {
            "abs" | "labs" | "llabs" => {
                let x = args.int(0)?;
                let negative = x.bvslt(Word::known(0, x.get_size()));
                returns_int(negative.ite(&x.bvneg(), &x))
            }
            "toupper" | "tolower" => returns_int(ctype::change_case(name, &args.int(0)?)),
            "__errno_location" => {
                let errno = self.errno_object(st);
                returns(SymVal::Ptr(PtrVal::to(Target::Object(errno))))
            }
            "strlen" => self.strlen(st, &args),
            "strnlen" => self.strnlen(st, &args),
            "strcmp" | "strncmp" | "memcmp" | "strcasecmp" | "strncasecmp" => {
                self.compare(st, &args)
            }
            "memcpy" | "memmove" | "memset" | "bzero" | "explicit_bzero" => self.memcpy(st, &args),
            "strcpy" | "strcat" => self.strcpy(st, &args),
            "strncpy" => self.strncpy(st, &args),
            "strncat" => self.strncat(st, &args),
            "strchr" | "strrchr" | "memchr" => self.strchr(st, &args),
            "strstr" => self.strstr(st, &args),
            "strdup" | "strndup" => self.strdup(st, &args),
            "strtol" | "strtoll" | "strtoul" | "strtoull" => self.strtol(st, &args),
            "atoi" | "atol" | "atoll" => self.atoi(st, &args),
            "sprintf" | "snprintf" | "vsprintf" | "vsnprintf" => self.sprintf(st, &args),
            "sscanf" => self.sscanf(st, &args),
            "getenv" | "secure_getenv" => self.getenv(st, &args),
            "getopt" => self.getopt(st, &args, false),
            "getopt_long" => self.getopt(st, &args, true),
            "malloc" => self.allocate(st, &args.size(0)?, false),
            "calloc" => {
                let (count, size) = (args.size(0)?, args.size(1)?);
                // Paths where `count * size` overflows (calloc fails) are left out.
                self.assume(st, &count.unsigned_mul_fits(&size))?;
                self.allocate(st, &count.bvmul(&size), true)
            }
            "free" => self.free(st, &args.ptr(0)?),
            "__builtin_alloca" | "alloca" => self.allocate_on_stack(st, &args.size(0)?),
            "realloc" => self.reallocate(st, &args.ptr(0)?, &args.size(1)?),
            _ => Ok(Model::NotLibrary),
        }
    }

    /// The object `ptr` designates, checked live: where a model reads or writes.
    /// The string `puts` prints, or `printf(format, s)` that GCC makes
    /// a string call (`format::is_a_string_call`): it must be one (NULL
    /// is dereferenced).
    fn printed_as_puts(&mut self, st: &mut State, args: &Args) -> Exec<Option<PtrVal>> {
        match args.name {
            "puts" => Ok(Some(args.ptr(0)?)),
            "printf" if args.values.len() == 2 => {
                let format = args.ptr(0)?;
                if !matches!(self.resolved(st, &format.target), Target::Str(_)) {
                    return Ok(None);
                }
                let format = self.constant_string(st, &format, "a format string")?;
                match format::is_a_string_call(&format) {
                    true => Ok(Some(args.ptr(1)?)),
                    false => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    fn source(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<Source> {
        let obj = self.deref(st, ptr)?;
        self.check_live(st, obj)?;
        if st.object(obj).capacity() > SCAN_LIMIT {
            return unsupported("a library call on an object larger than 64 KiB");
        }
        self.no_stub_filled_bytes(st, obj, st.object(obj).written.iter())?;
        // A scan reads on from the pointer (or anywhere, from a symbolic one).
        self.make_bytes(st, obj, &ptr.offset, u64::MAX);
        Ok(Source {
            obj,
            ptr: ptr.clone(),
        })
    }

    /// The object a pointer that may be NULL designates (`None` for NULL);
    /// an undecided input pointer forks first.
    fn optional_target(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<Option<ObjIdx>> {
        match self.resolved(st, &ptr.target) {
            Target::Null => Ok(None),
            Target::Lazy(l) => Err(self.decide(st, l)),
            _ => Ok(Some(self.deref(st, ptr)?)),
        }
    }

    /// Scans bytes of `ptrs` in step from their start until `step` says stop
    /// (or `limit` bytes), returning the 32-bit value `step` gives there.
    /// With `count`, returns the 64-bit index instead. Reading past an
    /// object is a finding.
    fn scan(
        &mut self,
        st: &mut State,
        ptrs: &[PtrVal],
        limit: Option<Word>,
        step: impl Fn(&[Word]) -> (Cond, Word),
        count: bool,
    ) -> Exec<Word> {
        let mut sources = Vec::new();
        for p in ptrs {
            sources.push(self.source(st, p)?);
        }
        let objects: Vec<ObjIdx> = sources.iter().map(|s| s.obj).collect();
        let max = objects
            .iter()
            .map(|o| st.object(*o).capacity())
            .min()
            .unwrap_or(0);
        // Whether the scan gets to byte `k`: it stopped at no byte before.
        let mut reached = Cond::Known(true);
        let mut faults = Vec::new();
        let mut stops = Vec::new();
        for k in 0..max {
            self.keep_going()?;
            if k + 1 == max {
                self.note_scan_past_capacity(st, &objects, &reached);
            }
            let at = Word::known(u128::from(k), 64);
            let mut bytes = Vec::new();
            let mut inside = Vec::new();
            for source in &sources {
                inside.push(source.inside(self.program, st, &at));
                bytes.push(source.byte(st, &at)?);
            }
            let within_limit = limit.as_ref().map(|n| at.bvult(n));
            let reading = match &within_limit {
                Some(w) => Cond::and(&[reached.clone(), w.clone()]),
                None => reached.clone(),
            };
            faults.push(Cond::and(&[reading, Cond::and(&inside).not()]));
            let (end, value) = step(&bytes);
            let value = if count { at.clone() } else { value };
            let stop_here = match &within_limit {
                Some(w) => Cond::or(&[w.not(), end.clone()]),
                None => end.clone(),
            };
            let value = match &within_limit {
                Some(w) if !count => w.ite(&value, &Word::known(0, value.get_size())),
                _ => value,
            };
            stops.push((stop_here.clone(), value));
            // A certain stop (a constant string's NUL) ends the scan here.
            if cond_value(&stop_here) == Some(true) {
                reached = Cond::Known(false);
                break;
            }
            reached = Cond::and(&[reached, stop_here.not()]);
        }
        // A limit equal to the capacity stops the scan at the end without
        // reading past it (`memcmp(&x, &y, sizeof x)`).
        if let Some(n) = &limit {
            let at = Word::known(u128::from(max), 64);
            let within_limit = at.bvult(n);
            let value = if count { at } else { Word::known(0, 32) };
            stops.push((Cond::and(&[reached.clone(), within_limit.not()]), value));
            reached = Cond::and(&[reached, within_limit]);
        }
        for o in &objects {
            st.object_mut(*o).note_reach(None);
        }
        faults.push(reached);
        self.bounds_fault(
            st,
            &objects,
            &Cond::or(&faults),
            "scan past the end of an object",
        )?;
        let bits = if count { 64 } else { 32 };
        let mut result = Word::known(0, bits);
        for (stop, value) in stops.into_iter().rev() {
            result = stop.ite(&value, &result);
        }
        Ok(result)
    }

    /// The length of the string at `ptr`, at most `limit` (strnlen).
    fn string_length(&mut self, st: &mut State, ptr: &PtrVal, limit: Option<Word>) -> Exec<Word> {
        self.scan(
            st,
            std::slice::from_ref(ptr),
            limit,
            |bytes| (bytes[0].eq(Word::known(0, 8)), Word::known(0, 64)),
            true,
        )
    }

    /// Stops a model's walk over an object once the search must stop (the
    /// time ran out, or the run was interrupted): one call may read
    /// thousands of bytes whose every position is conditional.
    fn keep_going(&self) -> Exec<()> {
        match self.solver.must_stop() {
            true => Err(Stop::Budget(Bound::MaxTime)),
            false => Ok(()),
        }
    }

    /// The index of the first character from `start` that is not white space.
    fn skip_spaces(&mut self, st: &State, src: &Source, start: &Word) -> Exec<Word> {
        let mut stops = Vec::new();
        for j in 0..=st.object(src.obj).capacity() {
            self.keep_going()?;
            let at = start.bvadd(Word::known(u128::from(j), 64));
            let stop = CharClass::Space.holds(&src.byte(st, &at)?).not();
            let certain = cond_value(&stop) == Some(true);
            stops.push((stop, at));
            if certain {
                break;
            }
        }
        let mut end = start.clone();
        for (stop, at) in stops.into_iter().rev() {
            end = stop.ite(&at, &end);
        }
        Ok(end)
    }

    /// Writes `n` bytes from `source` at `dst`; writing or reading past an
    /// object is a finding.
    fn copy_bytes(&mut self, st: &mut State, dst: &PtrVal, source: &Fill, n: &Word) -> Exec<()> {
        let n = &self.candidate_word(st, n)?;
        let d = self.deref(st, dst)?;
        self.check_live(st, d)?;
        if matches!(st.object(d).kind, ObjKind::Input { .. }) {
            self.note_capacity_cut(st, d, &dst.offset, n);
        }
        let s = match source {
            Fill::From(p) => {
                let obj = self.deref(st, p)?;
                self.check_live(st, obj)?;
                self.no_stub_filled_bytes(st, obj, st.object(obj).written.iter())?;
                Some((obj, p.offset.clone()))
            }
            Fill::Byte(_) | Fill::Bytes(_) => None,
        };
        // An input source shorter than `max_array` allows cuts the copy too.
        if let Some((obj, off)) = &s {
            if matches!(st.object(*obj).kind, ObjKind::Input { .. }) {
                self.note_capacity_cut(st, *obj, off, n);
            }
        }
        let count = Self::concrete_u64(n);
        self.note_extent(st, d, &dst.offset, count);
        if let Some((obj, off)) = &s {
            self.note_extent(st, *obj, off, count);
        }
        if let Some(count) = Self::concrete_u64(n) {
            if count == 0 {
                return Ok(());
            }
            // Bytes past the destination's capacity are never stored (the
            // bounds check below makes such a write a finding): nor built.
            let stored = count.min(st.object(d).capacity());
            let cells: Vec<Cell> = match (&s, source) {
                (Some((obj, off)), _) => {
                    let inside = memory::in_bounds(self.program, st.object(*obj), off, count);
                    let outside = inside.not();
                    self.bounds_fault(st, &[*obj], &outside, "read past the end of an object")?;
                    let off = self.candidate_word(st, off)?;
                    self.make_bytes(st, *obj, &off, stored);
                    memory::read(st.object(*obj), &off, stored)?.into_owned()
                }
                (None, Fill::Byte(b)) => vec![
                    Cell::Byte {
                        src: b.clone(),
                        idx: 0
                    };
                    stored as usize
                ],
                (None, Fill::Bytes(bytes)) if count <= bytes.len() as u64 => bytes
                    [..stored as usize]
                    .iter()
                    .map(|b| Cell::Byte {
                        src: b.clone(),
                        idx: 0,
                    })
                    .collect(),
                (None, _) => return unsupported("a copy longer than its source"),
            };
            let inside = memory::in_bounds(self.program, st.object(d), &dst.offset, count);
            self.bounds_fault(st, &[d], &inside.not(), "write past the end of an object")?;
            let at = self.candidate_word(st, &dst.offset)?;
            return Ok(memory::write(st.object_mut(d), &at, &cells)?);
        }
        // Symbolic length: every byte the copy may reach is guarded by `k < n`.
        let cap = st.object(d).capacity();
        if cap > SCAN_LIMIT {
            return unsupported("a copy of symbolic length into an object larger than 64 KiB");
        }
        // Each byte written at a symbolic place is a case over every byte
        // of the object: the copy costs the square of its size.
        if memory::concrete_offset(&dst.offset).is_none() && cap * cap > SYMBOLIC_COPY_CELLS {
            return unsupported(
                "a copy of symbolic length to a symbolic place in an object larger than 256 bytes",
            );
        }
        let mut writes_outside = Vec::new();
        let mut reads_outside = Vec::new();
        // Each byte may be copied (or kept): all of both are read.
        if let Some((obj, _)) = &s {
            self.make_bytes(st, *obj, &Word::known(0, 64), u64::MAX);
        }
        self.make_bytes(st, d, &Word::known(0, 64), u64::MAX);
        for k in 0..cap {
            let taken = Word::known(u128::from(k), 64).bvult(n);
            let at = dst.offset.bvadd(Word::known(u128::from(k), 64));
            let inside = memory::in_bounds(self.program, st.object(d), &at, 1);
            writes_outside.push(Cond::and(&[taken.clone(), inside.not()]));
            let byte = match (&s, source) {
                (Some((obj, off)), _) => {
                    let from = off.bvadd(Word::known(u128::from(k), 64));
                    let inside = memory::in_bounds(self.program, st.object(*obj), &from, 1);
                    reads_outside.push(Cond::and(&[taken.clone(), inside.not()]));
                    cells_to_int(&memory::read(st.object(*obj), &from, 1)?)?
                }
                (None, Fill::Byte(b)) => b.clone(),
                (None, Fill::Bytes(bytes)) => bytes
                    .get(k as usize)
                    .cloned()
                    .unwrap_or_else(|| Word::known(0, 8)),
                (None, Fill::From(_)) => return unsupported("copy without a source"),
            };
            memory::write_when(
                st.object_mut(d),
                &at,
                &[Cell::Byte { src: byte, idx: 0 }],
                Some(&taken),
            )?;
        }
        writes_outside.push(Word::known(u128::from(cap), 64).bvult(n));
        if let Some((obj, _)) = s {
            self.bounds_fault(
                st,
                &[obj],
                &Cond::or(&reads_outside),
                "copy from past the end of an object",
            )?;
        }
        self.bounds_fault(
            st,
            &[d],
            &Cond::or(&writes_outside),
            "copy past the end of an object",
        )
    }

    /// The C library's `restrict`: what a call writes does not overlap what
    /// it reads. Inputs overlap only when the test makes two parameters
    /// alias, which callers of such code do not do: those paths are left
    /// out, as cut by a bound. Overlapping objects of the function's own are
    /// the finding AddressSanitizer reports for the copy functions, and
    /// assumed apart for the others (it does not check them).
    fn require_apart(
        &mut self,
        st: &mut State,
        written: &Range,
        read: &Range,
        own_overlap: OwnOverlap,
    ) -> Exec<()> {
        if written.obj != read.obj {
            return Ok(());
        }
        let zero = Word::known(0, 64);
        let overlap = Cond::and(&[
            written.len.bvugt(&zero),
            read.len.bvugt(&zero),
            written.start.bvslt(read.start.bvadd(&read.len)),
            read.start.bvslt(written.start.bvadd(&written.len)),
        ]);
        if matches!(st.object(written.obj).kind, ObjKind::Input { .. }) {
            return self.assume_limit(st, &overlap.not(), Bound::ApartInputs);
        }
        match own_overlap {
            OwnOverlap::Finding => self.check_fault(
                st,
                FindingKind::OverlappingCopy,
                &overlap,
                "copy between overlapping bytes",
            ),
            OwnOverlap::Assumed => self.assume(st, &overlap.not()),
        }
    }

    /// `require_apart` for a copy of `written_len` bytes to `dst` from
    /// `read_len` bytes at `src`.
    fn require_copy_apart(
        &mut self,
        st: &mut State,
        dst: &PtrVal,
        written_len: &Word,
        src: &PtrVal,
        read_len: &Word,
    ) -> Exec<()> {
        let written = Range {
            obj: self.deref(st, dst)?,
            start: dst.offset.clone(),
            len: written_len.clone(),
        };
        let read = Range {
            obj: self.deref(st, src)?,
            start: src.offset.clone(),
            len: read_len.clone(),
        };
        self.require_apart(st, &written, &read, OwnOverlap::Finding)
    }

    /// The outcome of a call among disjoint alternatives: the one that holds
    /// on this path, else the only feasible one. When several are feasible
    /// the path forks, and each child runs the call again with its
    /// alternative's condition on its path, before the call changed anything.
    pub(super) fn choose<T>(&mut self, st: &mut State, alternatives: Vec<(Cond, T)>) -> Exec<T> {
        let mut feasible = self.feasible_alternatives(st, alternatives);
        if feasible.len() <= 1 {
            let Some((cond, value)) = feasible.pop() else {
                return Err(Stop::Dead);
            };
            self.assume(st, &cond)?;
            return Ok(value);
        }
        let mut children = Vec::new();
        for (cond, _) in feasible {
            let mut child = self.fork(st);
            self.assume(&mut child, &cond)?;
            children.push(child);
        }
        Err(Stop::Fork(children))
    }

    /// The alternatives (disjoint) that may hold on this path: only the one
    /// that certainly holds when there is one.
    fn feasible_alternatives<T>(
        &mut self,
        st: &State,
        alternatives: Vec<(Cond, T)>,
    ) -> Vec<(Cond, T)> {
        let mut open = Vec::new();
        for (cond, value) in alternatives {
            match cond_value(&cond) {
                Some(true) => return vec![(cond, value)],
                Some(false) => continue,
                None if st.path.contains(&self.solver.intern(&cond.term())) => {
                    return vec![(cond, value)]
                }
                None => open.push((cond, value)),
            }
        }
        open.into_iter()
            .filter(|(cond, _)| self.may(st, cond))
            .collect()
    }

    /// Fixes a symbolic argument to the value the solver picks for this
    /// path, naming the cut when other values were possible (they are left
    /// unexplored).
    fn concretise(&mut self, st: &mut State, v: &Word) -> Exec<u128> {
        if let Some(n) = concrete(v) {
            return Ok(n);
        }
        let model = self.solver.model(&st.path, None).ok_or(Stop::Dead)?;
        let n = crate::extract::eval_bits(&model, v);
        let fixed = v.eq(Word::known(n, v.get_size()));
        if self.may(st, &fixed.not()) {
            self.note_cut(st, Bound::Concretised);
        }
        self.assume(st, &fixed)?;
        Ok(n)
    }

    /// glibc's `errno` (`*__errno_location()`) on this path: one `int`,
    /// 0 when the function under test is called (the drivers set it so).
    pub(super) fn errno_object(&mut self, st: &mut State) -> ObjIdx {
        if let Some(obj) = st.errno {
            return obj;
        }
        let obj = st.add_object(Object::new(
            ObjKind::LibraryState,
            int_cells(&Word::known(0, 32)),
        ));
        st.errno = Some(obj);
        obj
    }

    /// Sets `errno` to `code` where `cond` holds.
    fn set_errno_if(&mut self, st: &mut State, cond: &Cond, code: u128) -> Exec<()> {
        if cond_value(cond) == Some(false) {
            return Ok(());
        }
        let obj = self.errno_object(st);
        let at = Word::known(0, 64);
        let old = cells_to_int(&memory::read(st.object(obj), &at, 4)?)?;
        let new = cond.ite(&Word::known(code, 32), &old);
        Ok(memory::write(st.object_mut(obj), &at, &int_cells(&new))?)
    }

    /// Completes the current call statement in each forked state with its
    /// result (an integer at the width of the place it goes to, as a
    /// model's result is at its function's declared type).
    pub(super) fn finish_calls(&mut self, outcomes: Vec<(State, SymVal)>) -> Exec<Vec<State>> {
        let mut done = Vec::new();
        for (mut next, result) in outcomes {
            let frame = next.frame();
            let body = self.body(frame.func)?;
            let stmt = &body.block(frame.block).stmts[frame.stmt];
            if let ir::StmtKind::Call {
                dest: Some(place), ..
            } = &stmt.kind
            {
                let loc = self.place_loc(&mut next, place)?;
                let result = match (result, loc.ty.scalar_bits()) {
                    (SymVal::Int(v), Some(bits)) => SymVal::Int(resize(&v, bits, true)),
                    (other, _) => other,
                };
                self.store(&mut next, &loc, &result)?;
            }
            next.frame_mut().stmt += 1;
            done.push(next);
        }
        Ok(done)
    }
}

/// A pointer a model reads through, its object resolved.
#[derive(Clone)]
struct Source {
    obj: ObjIdx,
    ptr: PtrVal,
}

impl Source {
    /// The byte `k` bytes past the pointer (an index maybe symbolic).
    fn byte(&self, st: &State, k: &Word) -> Exec<Word> {
        let at = self.ptr.offset.bvadd(k);
        Ok(cells_to_int(&memory::read(st.object(self.obj), &at, 1)?)?)
    }

    /// Whether the byte `k` bytes past the pointer lies inside its object.
    fn inside(&self, program: &ir::Program, st: &State, k: &Word) -> Cond {
        let at = self.ptr.offset.bvadd(k);
        memory::in_bounds(program, st.object(self.obj), &at, 1)
    }

    /// The pointer `k` bytes further.
    fn plus(&self, k: &Word) -> PtrVal {
        PtrVal {
            target: self.ptr.target.clone(),
            offset: self.ptr.offset.bvadd(k),
        }
    }
}

/// `len` bytes of object `obj` from offset `start`.
struct Range {
    obj: ObjIdx,
    start: Word,
    len: Word,
}

/// What overlapping objects of the function's own are, for a call that
/// requires its buffers apart.
#[derive(Clone, Copy)]
enum OwnOverlap {
    Finding,
    Assumed,
}

/// What a copy writes.
enum Fill {
    Byte(Word),
    From(PtrVal),
    /// The given bytes, in order.
    Bytes(Vec<Word>),
}
