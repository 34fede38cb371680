//! `getopt` and `getopt_long` as glibc runs them, on argument lists that
//! give one option per argument and options before the non-option
//! arguments (a bound, `option_arguments`): there GNU's reordering of
//! the arguments and its memory of a half-read `-abc` play no part, so
//! each call depends only on `optind` and the arguments. Long options
//! match exactly; a name that may abbreviate one stops the path.

use super::{returns_int, Args, Model};
use crate::exec::place::Loc;
use crate::exec::{unsupported, Exec, Machine};
use crate::state::State;
use crate::value::{Cond, PtrVal, SymVal, Target, Word};
use ir::{IntType, Layout, Type};
use testcase::Bound;

/// Most entries of a long option table the model reads.
const MOST_LONG_OPTIONS: u64 = 256;

/// What an option character of `optstring` takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    Nothing,
    Argument,
    MaybeArgument,
}

/// A parsed `optstring`.
struct ShortOptions {
    options: Vec<(u8, Takes)>,
    /// A leading `:` (after `+`): a missing argument returns `:`.
    colon: bool,
}

impl ShortOptions {
    fn parse(text: &[u8]) -> Exec<ShortOptions> {
        let mut rest = text;
        if let Some((b'-', _)) = rest.split_first() {
            return unsupported(
                "`getopt` returning non-options in order (an optstring starting with `-`)",
            );
        }
        if let Some((b'+', after)) = rest.split_first() {
            rest = after;
        }
        let colon = rest.first() == Some(&b':');
        let mut options = Vec::new();
        let mut k = usize::from(colon);
        while k < rest.len() {
            let c = rest[k];
            let colons = rest[k + 1..]
                .iter()
                .take(2)
                .take_while(|b| **b == b':')
                .count();
            if c == b'W' && rest.get(k + 1) == Some(&b';') {
                return unsupported("`getopt` with `W;` in its optstring");
            }
            let takes = match colons {
                0 => Takes::Nothing,
                1 => Takes::Argument,
                _ => Takes::MaybeArgument,
            };
            options.push((c, takes));
            k += 1 + colons;
        }
        Ok(ShortOptions { options, colon })
    }

    /// What `getopt` returns for an option missing its argument.
    fn missing_argument(&self) -> u128 {
        u128::from(if self.colon { b':' } else { b'?' })
    }
}

/// An entry of a long option table (`struct option`), its name known.
struct LongOption {
    name: Vec<u8>,
    takes: Takes,
    flag: PtrVal,
    val: Word,
}

/// What the argument at `optind` is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Argument {
    /// Not an option (`file`, `-`): the last argument.
    NonOption,
    /// `--`: the end of the options.
    EndOfOptions,
    /// `--name...` with a table of long options.
    Long,
    /// `-c...`.
    Short,
}

impl Machine<'_, '_> {
    /// `getopt(argc, argv, optstring)` and `getopt_long(argc, argv,
    /// optstring, longopts, longindex)`.
    pub(super) fn getopt(&mut self, st: &mut State, args: &Args, long: bool) -> Exec<Model> {
        let argc = args.int(0)?;
        let argv = args.ptr(1)?;
        let optstring = args.ptr(2)?;
        let short =
            ShortOptions::parse(&self.constant_string(st, &optstring, "an option string")?)?;
        let table = match long {
            true => args.ptr(3)?,
            false => PtrVal::to(Target::Null),
        };
        let has_table = !matches!(self.resolved(st, &table.target), Target::Null);
        self.set_option_global(st, "optarg", SymVal::Ptr(PtrVal::to(Target::Null)))?;
        let zero = Word::known(0, 32);
        // glibc returns at once when there are no arguments at all.
        let none = argc.bvslt(Word::known(1, 32));
        if self.whether(st, none)? {
            return returns_int(Word::known(u128::MAX, 32));
        }
        let start = self.option_global(st, "optind")?;
        // It starts again from the first argument when `optind` is 0.
        let optind = start.eq(&zero).ite(&Word::known(1, 32), &start);
        let outside = Cond::or(&[optind.bvslt(&zero), argc.bvslt(&optind)]);
        if self.whether(st, outside)? {
            return unsupported("`getopt` with `optind` past the arguments");
        }
        let done = optind.eq(&argc);
        if self.whether(st, done)? {
            return returns_int(Word::known(u128::MAX, 32));
        }
        let arg = self.argument(st, &argv, &optind)?;
        let dash = self.arg_byte(st, &arg, 0)?.eq(byte(b'-'));
        let kind = if !self.whether(st, dash)? {
            Argument::NonOption
        } else {
            let c1 = self.arg_byte(st, &arg, 1)?;
            let alone = c1.eq(byte(0));
            let double = c1.eq(byte(b'-'));
            let second = self.choose(
                st,
                vec![
                    (alone.clone(), Argument::NonOption),
                    (double.clone(), Argument::Long),
                    (Cond::and(&[alone.not(), double.not()]), Argument::Short),
                ],
            )?;
            if second == Argument::Long {
                let end = self.arg_byte(st, &arg, 2)?.eq(byte(0));
                let named = match has_table {
                    true => Argument::Long,
                    false => Argument::Short,
                };
                self.choose(
                    st,
                    vec![(end.clone(), Argument::EndOfOptions), (end.not(), named)],
                )?
            } else {
                second
            }
        };
        let next = optind.bvadd(Word::known(1, 32));
        match kind {
            Argument::NonOption => {
                // GNU getopt would go on with options after it (moving it
                // behind them): only the last argument is tested so.
                self.assume_limit(st, &next.eq(&argc), Bound::OptionArguments)?;
                self.set_optind(st, &optind)?;
                returns_int(Word::known(u128::MAX, 32))
            }
            Argument::EndOfOptions => {
                self.set_optind(st, &next)?;
                returns_int(Word::known(u128::MAX, 32))
            }
            Argument::Short => self.short_option(st, &short, (&argc, &argv), &optind, &arg),
            Argument::Long => {
                let options = self.long_options(st, &table)?;
                let longindex = args.ptr(4)?;
                self.long_option(
                    st,
                    &short,
                    &options,
                    (&argc, &argv),
                    &optind,
                    &arg,
                    &longindex,
                )
            }
        }
    }

    /// A short option `-c`, alone in its argument or with its argument
    /// attached (`-ofile`).
    fn short_option(
        &mut self,
        st: &mut State,
        short: &ShortOptions,
        (argc, argv): (&Word, &PtrVal),
        optind: &Word,
        arg: &PtrVal,
    ) -> Exec<Model> {
        let c = self.arg_byte(st, arg, 1)?;
        let mut alternatives: Vec<(Cond, Option<(u8, Takes)>)> = Vec::new();
        let mut unknown = Vec::new();
        for &(o, takes) in &short.options {
            let is = c.eq(byte(o));
            unknown.push(is.not());
            alternatives.push((is, Some((o, takes))));
        }
        alternatives.push((Cond::and(&unknown), None));
        let chosen = self.choose(st, alternatives)?;
        let next = optind.bvadd(Word::known(1, 32));
        let Some((o, takes)) = chosen.filter(|(o, _)| *o != b':') else {
            self.alone_in_argument(st, arg, 2)?;
            self.set_option_global(st, "optopt", SymVal::Int(resize_char(&c)))?;
            self.set_optind(st, &next)?;
            return returns_int(Word::known(u128::from(b'?'), 32));
        };
        let option = Word::known(u128::from(o), 32);
        match takes {
            Takes::Nothing => {
                self.alone_in_argument(st, arg, 2)?;
                self.set_optind(st, &next)?;
                returns_int(option)
            }
            Takes::MaybeArgument | Takes::Argument => {
                let attached = self.arg_byte(st, arg, 2)?.eq(byte(0)).not();
                let attached = self.whether(st, attached)?;
                if attached {
                    self.set_option_global(st, "optarg", SymVal::Ptr(offset_by(arg, &known(2))))?;
                }
                if attached || takes == Takes::MaybeArgument {
                    self.set_optind(st, &next)?;
                    return returns_int(option);
                }
                self.separate_argument(st, (argc, argv), optind, &option, short)
            }
        }
    }

    /// The option `option` takes the next argument: `optarg` is it, or,
    /// when there is none, the option is missing its argument.
    fn separate_argument(
        &mut self,
        st: &mut State,
        (argc, argv): (&Word, &PtrVal),
        optind: &Word,
        option: &Word,
        short: &ShortOptions,
    ) -> Exec<Model> {
        let next = optind.bvadd(Word::known(1, 32));
        let another = next.bvslt(argc);
        if self.whether(st, another)? {
            let value = self.argument(st, argv, &next)?;
            self.set_option_global(st, "optarg", SymVal::Ptr(value))?;
            self.set_optind(st, &next.bvadd(Word::known(1, 32)))?;
            return returns_int(option.clone());
        }
        self.set_option_global(st, "optopt", SymVal::Int(option.clone()))?;
        self.set_optind(st, &next)?;
        returns_int(Word::known(short.missing_argument(), 32))
    }

    /// A long option `--name`, `--name=value` or `--name value`.
    #[allow(clippy::too_many_arguments)]
    fn long_option(
        &mut self,
        st: &mut State,
        short: &ShortOptions,
        options: &[LongOption],
        (argc, argv): (&Word, &PtrVal),
        optind: &Word,
        arg: &PtrVal,
        longindex: &PtrVal,
    ) -> Exec<Model> {
        let capacity = self.arg_capacity(st, arg)?;
        // The name's bytes (after `--`) as far as the argument may reach:
        // each is compared only where those before it matched letters,
        // so it lies inside the string.
        let source = self.source(st, arg)?;
        let mut name = Vec::new();
        for k in 2..capacity {
            name.push(source.byte(st, &Word::known(u128::from(k), 64))?);
        }
        let ends_at = |k: usize| match name.get(k) {
            Some(b) => Cond::or(&[b.eq(byte(0)), b.eq(byte(b'='))]),
            None => Cond::from(false),
        };
        let spells = |text: &[u8]| {
            let equal: Option<Vec<Cond>> = text
                .iter()
                .enumerate()
                .map(|(k, c)| name.get(k).map(|b| b.eq(byte(*c))))
                .collect();
            equal.map_or(Cond::from(false), |e| Cond::and(&e))
        };
        // glibc takes the first entry the name spells exactly.
        let mut alternatives = Vec::new();
        let mut no_earlier = Vec::new();
        let mut abbreviates = Vec::new();
        for (j, option) in options.iter().enumerate() {
            if option.name.len() + 2 >= capacity as usize {
                // A longer argument could spell it.
                self.note_cut(st, Bound::MaxArray);
            }
            let exact = Cond::and(&[spells(&option.name), ends_at(option.name.len())]);
            let mut first = no_earlier.clone();
            first.push(exact.clone());
            alternatives.push((Cond::and(&first), LongMatch::Exact(j)));
            no_earlier.push(exact.not());
            for end in 1..option.name.len() {
                abbreviates.push(Cond::and(&[spells(&option.name[..end]), ends_at(end)]));
            }
        }
        let abbreviation = Cond::or(&abbreviates);
        let mut abbreviated = no_earlier.clone();
        abbreviated.push(abbreviation.clone());
        alternatives.push((Cond::and(&abbreviated), LongMatch::Abbreviation));
        no_earlier.push(abbreviation.not());
        alternatives.push((Cond::and(&no_earlier), LongMatch::Unrecognized));
        let next = optind.bvadd(Word::known(1, 32));
        let (index, matched) =
            match self.choose(st, alternatives)? {
                LongMatch::Exact(j) => (j, &options[j]),
                LongMatch::Abbreviation => return unsupported(
                    "a long option that may abbreviate one (GNU getopt accepts a unique prefix)",
                ),
                LongMatch::Unrecognized => {
                    self.set_option_global(st, "optopt", SymVal::Int(Word::known(0, 32)))?;
                    self.set_optind(st, &next)?;
                    return returns_int(Word::known(u128::from(b'?'), 32));
                }
            };
        let end = matched.name.len();
        let with_value = name
            .get(end)
            .map_or(Cond::from(false), |b| b.eq(byte(b'=')));
        let given = self.whether(st, with_value)?;
        let value = offset_by(arg, &known(3 + end as u64));
        match (matched.takes, given) {
            (Takes::Nothing, true) => {
                self.set_option_global(st, "optopt", SymVal::Int(matched.val.clone()))?;
                self.set_optind(st, &next)?;
                return returns_int(Word::known(u128::from(b'?'), 32));
            }
            (Takes::Nothing | Takes::MaybeArgument, false) => self.set_optind(st, &next)?,
            (Takes::Argument | Takes::MaybeArgument, true) => {
                self.set_option_global(st, "optarg", SymVal::Ptr(value))?;
                self.set_optind(st, &next)?;
            }
            (Takes::Argument, false) => {
                let another = next.bvslt(argc);
                if !self.whether(st, another)? {
                    self.set_option_global(st, "optopt", SymVal::Int(matched.val.clone()))?;
                    self.set_optind(st, &next)?;
                    return returns_int(Word::known(short.missing_argument(), 32));
                }
                let value = self.argument(st, argv, &next)?;
                self.set_option_global(st, "optarg", SymVal::Ptr(value))?;
                self.set_optind(st, &next.bvadd(Word::known(1, 32)))?;
            }
        }
        if !matches!(self.resolved(st, &longindex.target), Target::Null) {
            let loc = self.loc_of(st, longindex, Type::Int(IntType::INT))?;
            self.store(st, &loc, &SymVal::Int(Word::known(index as u128, 32)))?;
        }
        if matches!(self.resolved(st, &matched.flag.target), Target::Null) {
            return returns_int(matched.val.clone());
        }
        let loc = self.loc_of(st, &matched.flag, Type::Int(IntType::INT))?;
        self.store(st, &loc, &SymVal::Int(matched.val.clone()))?;
        returns_int(Word::known(0, 32))
    }

    /// The table of long options, up to its entry with a NULL name; each
    /// name must be a constant string.
    fn long_options(&mut self, st: &mut State, table: &PtrVal) -> Exec<Vec<LongOption>> {
        let Some(Type::Pointer(to)) = self
            .program
            .function_by_name("getopt_long")
            .and_then(|f| self.program.function(f).sig.params.get(3).cloned())
        else {
            return unsupported("`getopt_long` without its declaration");
        };
        let Type::Struct(id) = *to else {
            return unsupported("`getopt_long` with a table that is not of `struct option`");
        };
        let def = self.program.struct_def(id).clone();
        let field = |name: &str| def.fields.iter().find(|f| f.name == name).cloned();
        let (Some(name_field), Some(has_arg), Some(flag), Some(val)) =
            (field("name"), field("has_arg"), field("flag"), field("val"))
        else {
            return unsupported("a `struct option` without its usual members");
        };
        let mut options = Vec::new();
        for entry in 0..MOST_LONG_OPTIONS {
            let member = |this: &mut Self, st: &mut State, f: &ir::Field| {
                let at = known(entry * def.size + f.offset);
                let loc = this.loc_of(st, &offset_by(table, &at), f.ty.clone())?;
                this.load(st, &loc)
            };
            let SymVal::Ptr(name) = member(self, st, &name_field)? else {
                return unsupported("a long option name that is not a pointer");
            };
            if matches!(self.resolved(st, &name.target), Target::Null) {
                return Ok(options);
            }
            let name = self.constant_string(st, &name, "a long option's name")?;
            let SymVal::Int(takes) = member(self, st, &has_arg)? else {
                return unsupported("a long option's `has_arg` that is not a number");
            };
            let takes = match crate::value::concrete(&takes) {
                Some(0) => Takes::Nothing,
                Some(1) => Takes::Argument,
                Some(2) => Takes::MaybeArgument,
                _ => return unsupported("a long option whose `has_arg` is not 0, 1 or 2"),
            };
            let SymVal::Ptr(flag) = member(self, st, &flag)? else {
                return unsupported("a long option's `flag` that is not a pointer");
            };
            let SymVal::Int(val) = member(self, st, &val)? else {
                return unsupported("a long option's `val` that is not a number");
            };
            options.push(LongOption {
                name,
                takes,
                flag,
                val,
            });
        }
        unsupported("a long option table of more than 256 entries")
    }

    /// Whether `cond` holds on this path, forking when both may.
    fn whether(&mut self, st: &mut State, cond: Cond) -> Exec<bool> {
        self.choose(st, vec![(cond.clone(), true), (cond.not(), false)])
    }

    /// `argv[index]`.
    fn argument(&mut self, st: &mut State, argv: &PtrVal, index: &Word) -> Exec<PtrVal> {
        let pointer = self.program.data_model.pointer_bytes();
        let at = crate::value::resize(index, 64, true).bvmul(Word::known(u128::from(pointer), 64));
        let element = offset_by(argv, &at);
        let loc = self.loc_of(
            st,
            &element,
            Type::Pointer(Box::new(Type::Int(IntType::CHAR))),
        )?;
        match self.load(st, &loc)? {
            SymVal::Ptr(p) => Ok(p),
            _ => unsupported("an argument of `getopt` that is not a pointer"),
        }
    }

    /// Byte `k` of argument `arg`, read as the library reads it.
    fn arg_byte(&mut self, st: &mut State, arg: &PtrVal, k: u64) -> Exec<Word> {
        let at = offset_by(arg, &Word::known(u128::from(k), 64));
        let loc = self.loc_of(st, &at, Type::Int(IntType::UCHAR))?;
        match self.load(st, &loc)? {
            SymVal::Int(b) => Ok(b),
            _ => unsupported("a byte of an argument of `getopt`"),
        }
    }

    /// How many bytes argument `arg` may hold from its start.
    fn arg_capacity(&mut self, st: &mut State, arg: &PtrVal) -> Exec<u64> {
        let obj = self.deref(st, arg)?;
        let Some(at) = crate::memory::concrete_offset(&arg.offset) else {
            return unsupported("an argument of `getopt` at a symbolic place in its object");
        };
        Ok(st.object(obj).capacity().saturating_sub(at))
    }

    /// The option ends its argument (`-v`, not `-vx`), as the bound asks.
    fn alone_in_argument(&mut self, st: &mut State, arg: &PtrVal, k: u64) -> Exec<()> {
        let end = self.arg_byte(st, arg, k)?.eq(byte(0));
        self.assume_limit(st, &end, Bound::OptionArguments)
    }

    /// The value of the C library's global `name` (`optind`).
    fn option_global(&mut self, st: &mut State, name: &'static str) -> Exec<Word> {
        let Some(loc) = self.option_global_loc(st, name)? else {
            return unsupported(format!("`getopt` without `{name}` declared"));
        };
        match self.load(st, &loc)? {
            SymVal::Int(v) => Ok(crate::value::resize(&v, 32, true)),
            _ => unsupported(format!("`{name}` that is not a number")),
        }
    }

    /// Sets the C library's global `name`, where the program declares it
    /// (elsewhere it cannot read it).
    fn set_option_global(&mut self, st: &mut State, name: &'static str, value: SymVal) -> Exec<()> {
        match self.option_global_loc(st, name)? {
            Some(loc) => self.store(st, &loc, &value),
            None => Ok(()),
        }
    }

    fn set_optind(&mut self, st: &mut State, value: &Word) -> Exec<()> {
        self.set_option_global(st, "optind", SymVal::Int(value.clone()))
    }

    /// Where the C library's global `name` is: the file's declaration, or
    /// an object of the model's own when the file never names it.
    fn option_global_loc(&mut self, st: &mut State, name: &'static str) -> Exec<Option<Loc>> {
        let declared = self.program.globals.iter().position(|g| g.name == name);
        let (obj, ty) = match declared {
            Some(g) => {
                let id = ir::GlobalId(g as u32);
                (
                    self.global_object(st, id)?,
                    self.program.global(id).ty.clone(),
                )
            }
            None => {
                let ty = match name {
                    "optarg" => Type::Pointer(Box::new(Type::Int(IntType::CHAR))),
                    _ => Type::Int(IntType::INT),
                };
                let known = st
                    .undeclared_library_globals
                    .iter()
                    .find(|(n, _)| *n == name);
                let obj = match known {
                    Some(&(_, obj)) => obj,
                    None => {
                        let Some(start) = testcase::c_library::state_global_start(name) else {
                            return Ok(None);
                        };
                        let kind = crate::state::ObjKind::LibraryState;
                        let obj = self.library_state_object(st, name, &ty, start, kind)?;
                        st.undeclared_library_globals.push((name, obj));
                        obj
                    }
                };
                (obj, ty)
            }
        };
        Ok(Some(Loc {
            obj,
            off: Word::known(0, 64),
            ty,
            bits: None,
        }))
    }
}

/// Which long option an argument names.
enum LongMatch {
    Exact(usize),
    Abbreviation,
    Unrecognized,
}

fn byte(c: u8) -> Word {
    Word::known(u128::from(c), 8)
}

/// A character read as an unsigned byte, as `optopt` holds it.
fn resize_char(c: &Word) -> Word {
    crate::value::resize(c, 32, false)
}

/// `p + k` bytes.
fn offset_by(p: &PtrVal, k: &Word) -> PtrVal {
    PtrVal {
        target: p.target.clone(),
        offset: p.offset.bvadd(k),
    }
}

fn known(k: u64) -> Word {
    Word::known(u128::from(k), 64)
}
