//! `<string.h>`: lengths, comparisons, copies, searches and duplicates of
//! strings and memory blocks, byte by byte over the path's memory.

use super::{returns, returns_int, to_lower, Args, Fill, Model};
use crate::exec::{Exec, Machine};
use crate::memory;
use crate::state::{ObjKind, State};
use crate::value::{Cond, PtrVal, SymVal, Target, Word};
use ir::{FuncId, Program};

/// The C library functions modelled here that compare a string with
/// another: a literal handed to one (`strncmp(line, "nameserver", 10)`)
/// is a string an input must be able to equal.
const COMPARES_STRINGS: [&str; 6] = [
    "strcmp",
    "strncmp",
    "memcmp",
    "strcasecmp",
    "strncasecmp",
    "strstr",
];

/// The length of the longest string literal that `func`, or a function it
/// calls, hands to a C library function comparing strings: an input string
/// or stream shorter than it can never hold it.
pub(in crate::exec) fn longest_compared_literal(program: &Program, func: FuncId) -> u64 {
    ir::walk::literals_handed_to_bodiless(program, func)
        .into_iter()
        .filter(|(callee, _)| COMPARES_STRINGS.contains(&program.function(*callee).name.as_str()))
        .map(|(_, id)| {
            let bytes = &program.strings[id.index()];
            bytes.split(|&b| b == 0).next().unwrap_or_default().len() as u64
        })
        .max()
        .unwrap_or(0)
}

impl Machine<'_, '_> {
    pub(super) fn strlen(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        returns_int(self.string_length(st, &args.ptr(0)?, None)?)
    }

    pub(super) fn strnlen(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let limit = args.size(1)?;
        returns_int(self.string_length(st, &args.ptr(0)?, Some(limit))?)
    }

    /// `strcmp`, `strncmp`, `memcmp`, `strcasecmp`, `strncasecmp`: the
    /// difference of the first differing bytes (as unsigned characters,
    /// lowered for the case-insensitive ones), as glibc returns it.
    pub(super) fn compare(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let name = args.name;
        let (a, b) = (args.ptr(0)?, args.ptr(1)?);
        let limit = match name {
            "strcmp" | "strcasecmp" => None,
            _ => Some(args.size(2)?),
        };
        let stops_at_nul = name != "memcmp";
        if let (false, Some(n)) = (stops_at_nul, &limit) {
            // memcmp may read all `n` bytes of both before it compares (as
            // glibc's word-wise loop and AddressSanitizer take it).
            self.require_readable(st, &a, n)?;
            self.require_readable(st, &b, n)?;
        }
        let folds_case = name.contains("case");
        let diff = self.scan(
            st,
            &[a, b],
            limit,
            |bytes| {
                let (x, y) = if folds_case {
                    (to_lower(&bytes[0]), to_lower(&bytes[1]))
                } else {
                    (bytes[0].clone(), bytes[1].clone())
                };
                let differ = x.eq(&y).not();
                let end = if stops_at_nul {
                    Cond::or(&[differ, bytes[0].eq(Word::known(0, 8))])
                } else {
                    differ
                };
                (end, x.zero_ext(24).bvsub(y.zero_ext(24)))
            },
            false,
        )?;
        st.comparisons.push(diff.clone());
        returns_int(diff)
    }

    /// `n` bytes from `p` lie inside its object (a finding where they may not).
    fn require_readable(&mut self, st: &mut State, p: &PtrVal, n: &Word) -> Exec<()> {
        let obj = self.deref(st, p)?;
        self.check_live(st, obj)?;
        if matches!(st.object(obj).kind, ObjKind::Input { .. }) {
            self.note_capacity_cut(st, obj, &p.offset, n);
        }
        let object = st.object(obj);
        let last = p.offset.bvadd(n).bvsub(Word::known(1, 64));
        let outside = Cond::or(&[
            memory::in_bounds(self.program, object, &p.offset, 1).not(),
            memory::in_bounds(self.program, object, &last, 1).not(),
            n.bvugt(memory::size(self.program, object)),
        ]);
        let empty = n.eq(Word::known(0, 64));
        let fault = Cond::and(&[empty.not(), outside]);
        self.bounds_fault(st, &[obj], &fault, "read past the end of an object")
    }

    /// `memcpy`, `memmove` (the source is read before the copy writes),
    /// `memset` and `bzero` (`memset` to 0 returning nothing).
    pub(super) fn memcpy(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let dst = args.ptr(0)?;
        if matches!(args.name, "bzero" | "explicit_bzero") {
            self.copy_bytes(st, &dst, &Fill::Byte(Word::known(0, 8)), &args.size(1)?)?;
            return Ok(Model::Returns(None));
        }
        let n = args.size(2)?;
        let source = match args.name {
            "memset" => Fill::Byte(args.int(1)?.extract(7, 0)),
            "memcpy" => {
                let src = args.ptr(1)?;
                self.require_copy_apart(st, &dst, &n, &src, &n)?;
                Fill::From(src)
            }
            _ => Fill::From(args.ptr(1)?),
        };
        self.copy_bytes(st, &dst, &source, &n)?;
        returns(SymVal::Ptr(dst))
    }

    /// `strcpy`, and `strcat` (which copies to the end of the destination string).
    pub(super) fn strcpy(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (dst, src) = (args.ptr(0)?, args.ptr(1)?);
        let len = self.string_length(st, &src, None)?;
        let at = if args.name == "strcat" {
            let end = self.string_length(st, &dst, None)?;
            self.source(st, &dst)?.plus(&end)
        } else {
            dst.clone()
        };
        let copied = len.bvadd(Word::known(1, 64));
        self.require_copy_apart(st, &at, &copied, &src, &copied)?;
        self.copy_bytes(st, &at, &Fill::From(src), &copied)?;
        returns(SymVal::Ptr(dst))
    }

    /// `strncpy`: at most `n` bytes of the source, then NUL bytes up to `n`.
    pub(super) fn strncpy(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (dst, src, n) = (args.ptr(0)?, args.ptr(1)?, args.size(2)?);
        let len = self.string_length(st, &src, Some(n.clone()))?;
        self.require_copy_apart(st, &dst, &n, &src, &read_of_bounded_copy(&len, &n))?;
        self.copy_bytes(st, &dst, &Fill::Byte(Word::known(0, 8)), &n)?;
        self.copy_bytes(st, &dst, &Fill::From(src), &len)?;
        returns(SymVal::Ptr(dst))
    }

    /// `strncat`: at most `n` bytes of the source after the destination
    /// string, then a NUL.
    pub(super) fn strncat(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (dst, src, n) = (args.ptr(0)?, args.ptr(1)?, args.size(2)?);
        let end = self.string_length(st, &dst, None)?;
        let len = self.string_length(st, &src, Some(n.clone()))?;
        let at = self.source(st, &dst)?.plus(&end);
        // As the sanitizers check it: the whole destination string with what
        // is appended and its NUL, against the bytes read (when any are).
        let read = read_of_bounded_copy(&len, &n);
        let read = (len.eq(Word::known(0, 64))).ite(&Word::known(0, 64), &read);
        let written = end.bvadd(&read).bvadd(Word::known(1, 64));
        self.require_copy_apart(st, &dst, &written, &src, &read)?;
        self.copy_bytes(st, &at, &Fill::From(src), &len)?;
        let after = PtrVal {
            target: at.target.clone(),
            offset: at.offset.bvadd(&len),
        };
        self.copy_bytes(
            st,
            &after,
            &Fill::Byte(Word::known(0, 8)),
            &Word::known(1, 64),
        )?;
        returns(SymVal::Ptr(dst))
    }

    /// `strchr` (the terminator counts as part of the string), `strrchr`
    /// (its last occurrence) and `memchr` (within `n` bytes): a pointer to
    /// the byte found or NULL, forking when both may be.
    pub(super) fn strchr(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let s = args.ptr(0)?;
        let c = args.int(1)?.extract(7, 0);
        let source = self.source(st, &s)?;
        let (found, at) = match args.name {
            "memchr" => {
                let n = args.size(2)?;
                let at = self.scan(
                    st,
                    std::slice::from_ref(&s),
                    Some(n.clone()),
                    |b| (b[0].eq(&c), Word::known(0, 64)),
                    true,
                )?;
                (at.bvult(&n), at)
            }
            "strrchr" => {
                let len = self.string_length(st, &s, None)?;
                let mut found = Vec::new();
                let mut last = Word::known(0, 64);
                for k in 0..st.object(source.obj).capacity() {
                    self.keep_going()?;
                    let k = Word::known(u128::from(k), 64);
                    let here = Cond::and(&[k.bvule(&len), source.byte(st, &k)?.eq(&c)]);
                    last = here.ite(&k, &last);
                    found.push(here);
                }
                (Cond::or(&found), last)
            }
            _ => {
                let at = self.scan(
                    st,
                    std::slice::from_ref(&s),
                    None,
                    |b| {
                        (
                            Cond::or(&[b[0].eq(&c), b[0].eq(Word::known(0, 8))]),
                            Word::known(0, 64),
                        )
                    },
                    true,
                )?;
                (source.byte(st, &at)?.eq(&c), at)
            }
        };
        self.pointer_or_null(st, &source.plus(&at), found)
    }

    /// `strstr`: the first occurrence of the needle string in the haystack
    /// string (the haystack itself for an empty needle), or NULL.
    pub(super) fn strstr(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (h, n) = (args.ptr(0)?, args.ptr(1)?);
        let h_len = self.string_length(st, &h, None)?;
        let n_len = self.string_length(st, &n, None)?;
        let (hay, needle) = (self.source(st, &h)?, self.source(st, &n)?);
        let h_cap = st.object(hay.obj).capacity();
        let n_cap = st.object(needle.obj).capacity();
        let mut needle_bytes = Vec::new();
        for j in 0..n_cap {
            needle_bytes.push(needle.byte(st, &Word::known(u128::from(j), 64))?);
        }
        let mut matches = Vec::new();
        for i in 0..h_cap {
            let start = Word::known(u128::from(i), 64);
            let mut conditions = vec![start.bvadd(&n_len).bvule(&h_len)];
            for (j, wanted) in needle_bytes.iter().enumerate() {
                let j = j as u64;
                let past_needle = Word::known(u128::from(j), 64).bvuge(&n_len);
                let equal = if i + j < h_cap {
                    hay.byte(st, &Word::known(u128::from(i + j), 64))?
                        .eq(wanted)
                } else {
                    Cond::Known(false)
                };
                conditions.push(Cond::or(&[past_needle, equal]));
            }
            matches.push(Cond::and(&conditions));
        }
        let mut first = Word::known(0, 64);
        for (i, here) in matches.iter().enumerate().rev() {
            first = here.ite(&Word::known(i as u128, 64), &first);
        }
        self.pointer_or_null(st, &hay.plus(&first), Cond::or(&matches))
    }

    /// `strdup`, `strndup` (at most `n` bytes): a new string allocated as
    /// `malloc` does, which may fail.
    pub(super) fn strdup(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let s = args.ptr(0)?;
        let limit = match args.name {
            "strndup" => Some(args.size(1)?),
            _ => None,
        };
        let len = self.string_length(st, &s, limit)?;
        let size = len.bvadd(Word::known(1, 64));
        self.allocate_filled(st, &size, |m, st, copy| {
            m.copy_bytes(st, &copy, &Fill::From(s), &len)?;
            let end = PtrVal {
                target: copy.target.clone(),
                offset: len.clone(),
            };
            m.copy_bytes(
                st,
                &end,
                &Fill::Byte(Word::known(0, 8)),
                &Word::known(1, 64),
            )
        })
    }

    /// `at` when `found`, NULL otherwise.
    fn pointer_or_null(&mut self, st: &mut State, at: &PtrVal, found: Cond) -> Exec<Model> {
        let result = self.choose(
            st,
            vec![
                (found.clone(), at.clone()),
                (found.not(), PtrVal::to(Target::Null)),
            ],
        )?;
        returns(SymVal::Ptr(result))
    }
}

/// The bytes `strncpy` and `strncat` read of a source string of length
/// `len` (at most `n`): the string and its NUL, but no more than `n`.
fn read_of_bounded_copy(len: &Word, n: &Word) -> Word {
    let with_nul = len.bvadd(Word::known(1, 64));
    with_nul.bvult(n).ite(&with_nul, n)
}
