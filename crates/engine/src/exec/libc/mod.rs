//! Models of well-known C library functions, exact on glibc/x86-64. String and
//! memory functions scan bytes symbolically: reading past an object is a finding.

use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::memory;
use crate::state::State;
use crate::value::{bv_u, cells_to_int, resize, Cell, PtrVal, SymVal, Target};
use z3::ast::{Bool, BV};

pub enum Model {
    /// The function's result (`None` for `void`).
    Returns(Option<SymVal>),
    NotLibrary,
}

/// Largest object a byte-by-byte symbolic model walks over.
const SCAN_LIMIT: u64 = 64 << 10;

/// glibc's `<ctype.h>` class bits as its classification functions return them.
const CTYPE_UPPER: u128 = 256;
const CTYPE_LOWER: u128 = 512;
const CTYPE_ALPHA: u128 = 1024;
const CTYPE_DIGIT: u128 = 2048;
const CTYPE_XDIGIT: u128 = 4096;
const CTYPE_SPACE: u128 = 8192;
const CTYPE_ALNUM: u128 = 8;

/// Functions whose only effect we ignore; their result is unconstrained but not a test input.
const OUTPUT_ONLY: &[&str] = &[
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fflush", "perror",
];
const PATH_ENDS: &[&str] = &[
    "abort",
    "exit",
    "_Exit",
    "__assert_fail",
    "__builtin_trap",
    "__builtin_unreachable",
];

impl Machine<'_, '_> {
    pub fn library(&mut self, st: &mut State, name: &str, values: &[SymVal]) -> Exec<Model> {
        if PATH_ENDS.contains(&name) {
            return Err(self.end(st));
        }
        if OUTPUT_ONLY.contains(&name) {
            let free = BV::new_const(st.symbol_name(&format!("{name}()")), 32);
            return Ok(Model::Returns(Some(SymVal::Int(free))));
        }
        let int = |i: usize| match values.get(i) {
            Some(SymVal::Int(v)) => Ok(v.clone()),
            _ => unsupported(format!("argument {i} of `{name}`")),
        };
        let ptr = |i: usize| match values.get(i) {
            Some(SymVal::Ptr(p)) => Ok(p.clone()),
            _ => unsupported(format!("argument {i} of `{name}`")),
        };
        let ret_int = |v: BV| Ok(Model::Returns(Some(SymVal::Int(v))));
        match name {
            "abs" | "labs" | "llabs" => {
                let x = int(0)?;
                let negative = x.bvslt(bv_u(0, x.get_size()));
                ret_int(negative.ite(&x.bvneg(), &x))
            }
            "isdigit" | "isalpha" | "isspace" | "isupper" | "islower" | "isalnum" | "isxdigit" => {
                let c = int(0)?;
                let (class, bit) = ctype_class(name, &c);
                ret_int(class.ite(&bv_u(bit, 32), &bv_u(0, 32)))
            }
            "toupper" | "tolower" => {
                let c = int(0)?;
                let (from, delta) = if name == "toupper" {
                    ('a', 0u128.wrapping_sub(32))
                } else {
                    ('A', 32)
                };
                let in_range = between(&c, from as u128, from as u128 + 25);
                ret_int(in_range.ite(&c.bvadd(bv_u(delta, 32)), &c))
            }
            "strlen" => {
                let s = ptr(0)?;
                let len = self.scan(
                    st,
                    &[s],
                    None,
                    |bytes| (bytes[0].eq(bv_u(0, 8)), bv_u(0, 64)),
                    true,
                )?;
                ret_int(len)
            }
            "strcmp" | "strncmp" | "memcmp" => {
                let (a, b) = (ptr(0)?, ptr(1)?);
                let limit = if name == "strcmp" {
                    None
                } else {
                    Some(resize(&int(2)?, 64, false))
                };
                let stops_at_nul = name != "memcmp";
                let diff = self.scan(
                    st,
                    &[a, b],
                    limit,
                    |bytes| {
                        let differ = bytes[0].eq(&bytes[1]).not();
                        let end = if stops_at_nul {
                            Bool::or(&[differ, bytes[0].eq(bv_u(0, 8))])
                        } else {
                            differ
                        };
                        let d = bytes[0].zero_ext(24).bvsub(bytes[1].zero_ext(24));
                        (end, d)
                    },
                    false,
                )?;
                ret_int(diff)
            }
            "memcpy" | "memmove" | "memset" => {
                let dst = ptr(0)?;
                let n = resize(&int(2)?, 64, false);
                let source = if name == "memset" {
                    Fill::Byte(int(1)?.extract(7, 0))
                } else {
                    Fill::From(ptr(1)?)
                };
                self.copy_bytes(st, &dst, &source, &n)?;
                Ok(Model::Returns(Some(SymVal::Ptr(dst))))
            }
            "strchr" => {
                let s = ptr(0)?;
                let c = int(1)?.extract(7, 0);
                self.strchr(st, s, c)
            }
            "malloc" => self.allocate(st, &resize(&int(0)?, 64, false), false),
            "calloc" => {
                let (count, size) = (resize(&int(0)?, 64, false), resize(&int(1)?, 64, false));
                // Paths where `count * size` overflows (calloc fails) are left out.
                self.assume(st, &count.bvmul_no_overflow(&size, false))?;
                self.allocate(st, &count.bvmul(&size), true)
            }
            "free" => self.free(st, &ptr(0)?),
            "realloc" => self.reallocate(st, &ptr(0)?, &resize(&int(1)?, 64, false)),
            _ => Ok(Model::NotLibrary),
        }
    }

    /// Scans bytes of `ptrs` in step from their start until `step` says stop
    /// (or `limit` bytes), returning the 32/64-bit value `step` gives there.
    /// With `count`, returns the index instead. Reading past an object is a finding.
    fn scan(
        &mut self,
        st: &mut State,
        ptrs: &[PtrVal],
        limit: Option<BV>,
        step: impl Fn(&[BV]) -> (Bool, BV),
        count: bool,
    ) -> Exec<BV> {
        let mut objects = Vec::new();
        for p in ptrs {
            let obj = self.deref(st, p)?;
            self.check_live(st, obj)?;
            objects.push(obj);
        }
        let max = objects
            .iter()
            .map(|o| st.object(*o).capacity())
            .min()
            .unwrap_or(0);
        if max > SCAN_LIMIT {
            return unsupported("a library scan over an object larger than 64 KiB");
        }
        let mut alive = Vec::new();
        let mut faults = Vec::new();
        let mut stops = Vec::new();
        for k in 0..max {
            let mut bytes = Vec::new();
            let mut inside = Vec::new();
            for (p, obj) in ptrs.iter().zip(&objects) {
                let off = p.offset.bvadd(bv_u(u128::from(k), 64));
                let object = st.object(*obj);
                inside.push(memory::in_bounds(self.program, object, &off, 1));
                bytes.push(cells_to_int(&memory::read(object, &off, 1)?)?);
            }
            let within_limit = limit.as_ref().map(|n| bv_u(u128::from(k), 64).bvult(n));
            let reached = Bool::and(&alive);
            let reading = match &within_limit {
                Some(w) => Bool::and(&[reached.clone(), w.clone()]),
                None => reached.clone(),
            };
            faults.push(Bool::and(&[reading, Bool::and(&inside).not()]));
            let (end, value) = step(&bytes);
            let value = if count {
                bv_u(u128::from(k), 64)
            } else {
                value
            };
            let stop_here = match &within_limit {
                Some(w) => Bool::or(&[w.not(), end.clone()]),
                None => end.clone(),
            };
            let value = match &within_limit {
                Some(w) if !count => w.ite(&value, &bv_u(0, value.get_size())),
                _ => value,
            };
            stops.push((stop_here.clone(), value));
            alive.push(stop_here.not());
        }
        for p in &objects {
            st.object_mut(*p).indexed = true;
        }
        faults.push(Bool::and(&alive));
        self.bounds_fault(
            st,
            &objects,
            &Bool::or(&faults),
            "scan past the end of an object",
        )?;
        let bits = if count { 64 } else { 32 };
        let mut result = bv_u(0, bits);
        for (stop, value) in stops.into_iter().rev() {
            result = stop.ite(&value, &result);
        }
        Ok(result)
    }

    fn copy_bytes(&mut self, st: &mut State, dst: &PtrVal, source: &Fill, n: &BV) -> Exec<()> {
        let d = self.deref(st, dst)?;
        self.check_live(st, d)?;
        let s = match source {
            Fill::From(p) => {
                let obj = self.deref(st, p)?;
                self.check_live(st, obj)?;
                Some((obj, p.offset.clone()))
            }
            Fill::Byte(_) => None,
        };
        if let Some(count) = Self::concrete_u64(n) {
            if count == 0 {
                return Ok(());
            }
            let cells: Vec<Cell> = match (&s, source) {
                (Some((obj, off)), _) => self.read_checked(st, *obj, off, count)?,
                (None, Fill::Byte(b)) => vec![
                    Cell::Byte {
                        src: b.clone(),
                        idx: 0
                    };
                    count as usize
                ],
                (None, Fill::From(_)) => return unsupported("copy without a source"),
            };
            let inside = memory::in_bounds(self.program, st.object(d), &dst.offset, count);
            self.bounds_fault(st, &[d], &inside.not(), "write past the end of an object")?;
            return Ok(memory::write(st.object_mut(d), &dst.offset, &cells)?);
        }
        let mut involved = vec![d];
        involved.extend(s.as_ref().map(|(obj, _)| *obj));
        // Symbolic length: every byte the copy may reach is guarded by `k < n`.
        let cap = st.object(d).capacity();
        if cap > SCAN_LIMIT {
            return unsupported("a copy of symbolic length into an object larger than 64 KiB");
        }
        let mut faults = Vec::new();
        for k in 0..cap {
            let taken = bv_u(u128::from(k), 64).bvult(n);
            let at = dst.offset.bvadd(bv_u(u128::from(k), 64));
            let mut inside = vec![memory::in_bounds(self.program, st.object(d), &at, 1)];
            let byte = match (&s, source) {
                (Some((obj, off)), _) => {
                    let from = off.bvadd(bv_u(u128::from(k), 64));
                    inside.push(memory::in_bounds(self.program, st.object(*obj), &from, 1));
                    cells_to_int(&memory::read(st.object(*obj), &from, 1)?)?
                }
                (None, Fill::Byte(b)) => b.clone(),
                (None, Fill::From(_)) => return unsupported("copy without a source"),
            };
            faults.push(Bool::and(&[taken.clone(), Bool::and(&inside).not()]));
            let old = cells_to_int(&memory::read(st.object(d), &at, 1)?)?;
            memory::write(
                st.object_mut(d),
                &at,
                &[Cell::Byte {
                    src: taken.ite(&byte, &old),
                    idx: 0,
                }],
            )?;
        }
        faults.push(bv_u(u128::from(cap), 64).bvult(n));
        self.bounds_fault(
            st,
            &involved,
            &Bool::or(&faults),
            "copy past the end of an object",
        )
    }

    fn read_checked(&mut self, st: &mut State, obj: u32, off: &BV, n: u64) -> Exec<Vec<Cell>> {
        let inside = memory::in_bounds(self.program, st.object(obj), off, n);
        self.bounds_fault(st, &[obj], &inside.not(), "read past the end of an object")?;
        Ok(memory::read(st.object(obj), off, n)?)
    }

    /// `strchr`: forks on whether `c` occurs before the terminator.
    fn strchr(&mut self, st: &mut State, s: PtrVal, c: BV) -> Exec<Model> {
        let found_at = self.scan(
            st,
            std::slice::from_ref(&s),
            None,
            |b| (Bool::or(&[b[0].eq(&c), b[0].eq(bv_u(0, 8))]), bv_u(0, 64)),
            true,
        )?;
        let obj = self.deref(st, &s)?;
        let at = s.offset.bvadd(&found_at);
        let byte = cells_to_int(&memory::read(st.object(obj), &at, 1)?)?;
        let found = byte.eq(&c);
        let mut outcomes = Vec::new();
        for (cond, result) in [
            (
                found.clone(),
                PtrVal {
                    target: s.target.clone(),
                    offset: at.clone(),
                },
            ),
            (found.not(), PtrVal::to(Target::Null)),
        ] {
            if !self.may(st, &cond) {
                continue;
            }
            let mut next = self.fork(st);
            self.assume(&mut next, &cond)?;
            outcomes.push((next, result));
        }
        match outcomes.len() {
            0 => Err(Stop::Dead),
            1 => {
                let (next, result) = outcomes.pop().expect("one outcome");
                *st = next;
                Ok(Model::Returns(Some(SymVal::Ptr(result))))
            }
            _ => Err(Stop::Fork(self.finish_calls(outcomes)?)),
        }
    }

    /// Completes the current call statement in each forked state with its result.
    pub(super) fn finish_calls(&mut self, outcomes: Vec<(State, PtrVal)>) -> Exec<Vec<State>> {
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
                self.store(&mut next, &loc, &SymVal::Ptr(result))?;
            }
            next.frame_mut().stmt += 1;
            done.push(next);
        }
        Ok(done)
    }
}

enum Fill {
    Byte(BV),
    From(PtrVal),
}

fn between(c: &BV, lo: u128, hi: u128) -> Bool {
    Bool::and(&[c.bvsge(bv_u(lo, 32)), c.bvsle(bv_u(hi, 32))])
}

/// Whether `c` is in the named class in the C locale, and the bit glibc returns.
fn ctype_class(name: &str, c: &BV) -> (Bool, u128) {
    let digit = between(c, '0' as u128, '9' as u128);
    let upper = between(c, 'A' as u128, 'Z' as u128);
    let lower = between(c, 'a' as u128, 'z' as u128);
    let alpha = Bool::or(&[upper.clone(), lower.clone()]);
    match name {
        "isdigit" => (digit, CTYPE_DIGIT),
        "isupper" => (upper, CTYPE_UPPER),
        "islower" => (lower, CTYPE_LOWER),
        "isalpha" => (alpha, CTYPE_ALPHA),
        "isalnum" => (Bool::or(&[alpha, digit]), CTYPE_ALNUM),
        "isxdigit" => {
            let hex = Bool::or(&[
                digit,
                between(c, 'a' as u128, 'f' as u128),
                between(c, 'A' as u128, 'F' as u128),
            ]);
            (hex, CTYPE_XDIGIT)
        }
        _ => (
            Bool::or(&[c.eq(bv_u(' ' as u128, 32)), between(c, 9, 13)]),
            CTYPE_SPACE,
        ),
    }
}
