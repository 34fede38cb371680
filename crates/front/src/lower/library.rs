//! The C library functions gcc 12 knows as builtins, with their types.
//!
//! C89 lets a program call a function it never declared: the call declares
//! `int f();`. gcc 12 accepts that with a warning, except for the functions
//! it knows as builtins of the C library (`exit`, `strlen`, `memcpy`,
//! `printf`...): those keep their real type ("incompatible implicit
//! declaration of built-in function"). The same functions are reachable as
//! `__builtin_NAME` in any program. The engine's models key on the name and
//! read the arguments at the library's types, so both spellings must get the
//! library's prototype, which this table gives.
//!
//! Decision (2026-11-28): a table of gcc's builtin signatures rather than
//! the types the installed headers give (by preprocessing a probe): gcc's
//! behaviour is defined by its own table (`builtins.def`), not by any
//! header; the table costs no process and no parse per file, holds no
//! struct type (gcc's builtins take a `FILE *` as a `void *`, and so does
//! this table), and gives the same answer on every machine. Left out: the
//! `long double` variants and the `va_list` ones (`vprintf`), which gcc
//! knows but whose types the engine does not compute with.

use super::{FuncDecl, Lowerer, Prototype, Symbol};
use crate::Severity;
use ir::{DataModel, FloatKind, FnSig, Function, IntType, Type};

/// The builtins, one declaration a line, as gcc 12 types them (`size_t`
/// is the data model's; `noreturn` marks the functions that never return).
const BUILTINS: &str = "
noreturn void abort(void);
noreturn void exit(int);
noreturn void _exit(int);
noreturn void _Exit(int);
int abs(int);
long labs(long);
long long llabs(long long);
long imaxabs(long);
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void free(void *);
void *alloca(size_t);
void *memchr(const void *, int, size_t);
int memcmp(const void *, const void *, size_t);
void *memcpy(void *, const void *, size_t);
void *memmove(void *, const void *, size_t);
void *mempcpy(void *, const void *, size_t);
void *memset(void *, int, size_t);
char *stpcpy(char *, const char *);
char *stpncpy(char *, const char *, size_t);
char *strcat(char *, const char *);
char *strchr(const char *, int);
int strcmp(const char *, const char *);
char *strcpy(char *, const char *);
size_t strcspn(const char *, const char *);
char *strdup(const char *);
char *strndup(const char *, size_t);
size_t strlen(const char *);
size_t strnlen(const char *, size_t);
char *strncat(char *, const char *, size_t);
int strncmp(const char *, const char *, size_t);
char *strncpy(char *, const char *, size_t);
char *strpbrk(const char *, const char *);
char *strrchr(const char *, int);
size_t strspn(const char *, const char *);
char *strstr(const char *, const char *);
int bcmp(const void *, const void *, size_t);
void bcopy(const void *, void *, size_t);
void bzero(void *, size_t);
char *index(const char *, int);
char *rindex(const char *, int);
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);
int ffs(int);
int ffsl(long);
int ffsll(long long);
int printf(const char *, ...);
int fprintf(void *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int scanf(const char *, ...);
int fscanf(void *, const char *, ...);
int sscanf(const char *, const char *, ...);
int putchar(int);
int puts(const char *);
int fputc(int, void *);
int putc(int, void *);
int fputs(const char *, void *);
size_t fwrite(const void *, size_t, size_t, void *);
int isalnum(int);
int isalpha(int);
int isascii(int);
int isblank(int);
int iscntrl(int);
int isdigit(int);
int isgraph(int);
int islower(int);
int isprint(int);
int ispunct(int);
int isspace(int);
int isupper(int);
int isxdigit(int);
int toascii(int);
int tolower(int);
int toupper(int);
char *gettext(const char *);
char *dgettext(const char *, const char *);
char *dcgettext(const char *, const char *, int);
int fork(void);
double acos(double);
double asin(double);
double atan(double);
double atan2(double, double);
double cbrt(double);
double ceil(double);
double copysign(double, double);
double cos(double);
double cosh(double);
double exp(double);
double exp2(double);
double fabs(double);
double floor(double);
double fmax(double, double);
double fmin(double, double);
double fmod(double, double);
double frexp(double, int *);
double hypot(double, double);
double ldexp(double, int);
double log(double);
double log10(double);
double log2(double);
double modf(double, double *);
double nearbyint(double);
double pow(double, double);
double rint(double);
double round(double);
double sin(double);
double sinh(double);
double sqrt(double);
double tan(double);
double tanh(double);
double trunc(double);
long lround(double);
long lrint(double);
float ceilf(float);
float copysignf(float, float);
float cosf(float);
float expf(float);
float fabsf(float);
float floorf(float);
float fmaxf(float, float);
float fminf(float, float);
float fmodf(float, float);
float logf(float);
float powf(float, float);
float roundf(float);
float sinf(float);
float sqrtf(float);
float truncf(float);
";

/// C library functions gcc does not know as builtins but the engine's
/// models key on: declared by the source, they are the library's too.
const MODELLED_OTHERS: &[&str] = &[
    "atoi", "atol", "atoll", "strtol", "strtoll", "strtoul", "strtoull",
];

/// A C library function gcc knows as a builtin.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LibraryBuiltin {
    pub sig: FnSig,
    pub noreturn: bool,
}

/// The builtin of the C library named `name` (without `__builtin_`), typed
/// for the data model.
pub(super) fn library_builtin(name: &str, model: DataModel) -> Option<LibraryBuiltin> {
    BUILTINS
        .lines()
        .filter_map(|line| parse_declaration(line, model))
        .find(|(declared, _)| declared == name)
        .map(|(_, builtin)| builtin)
}

/// `[noreturn] TYPE NAME(TYPE, ...);` as the table writes it.
fn parse_declaration(line: &str, model: DataModel) -> Option<(String, LibraryBuiltin)> {
    let line = line.trim().strip_suffix(");")?;
    let (noreturn, line) = match line.strip_prefix("noreturn ") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let (head, params) = line.split_once('(')?;
    let name_at = head.rfind([' ', '*'])? + 1;
    let ret = parse_type(&head[..name_at], model)?;
    let mut sig = FnSig {
        ret,
        params: Vec::new(),
        variadic: false,
    };
    for param in params.split(", ") {
        match param {
            "void" => {}
            "..." => sig.variadic = true,
            typed => sig.params.push(parse_type(typed, model)?),
        }
    }
    let builtin = LibraryBuiltin { sig, noreturn };
    Some((head[name_at..].to_string(), builtin))
}

/// One of the table's types: words, then stars (`const` is dropped, as the
/// IR has no qualifiers).
fn parse_type(text: &str, model: DataModel) -> Option<Type> {
    let stars = text.matches('*').count();
    let words: Vec<&str> = text
        .split([' ', '*'])
        .filter(|w| !w.is_empty() && *w != "const")
        .collect();
    let mut ty = match words.as_slice() {
        ["void"] => Type::Void,
        ["char"] => Type::Int(IntType::CHAR),
        ["int"] => Type::Int(IntType::INT),
        ["long"] => Type::Int(model.long()),
        ["long", "long"] => Type::Int(IntType::LONG_LONG),
        ["size_t"] => Type::Int(model.ulong()),
        ["float"] => Type::Float(FloatKind::F32),
        ["double"] => Type::Float(FloatKind::F64),
        _ => return None,
    };
    for _ in 0..stars {
        ty = Type::ptr(ty);
    }
    Some(ty)
}

impl<'a> Lowerer<'a> {
    /// The C library functions the file declares or defines outside the
    /// library's headers (`ir::Program::own_library_declarations`).
    pub(super) fn own_library_declarations(&self) -> Vec<String> {
        let model = self.program.data_model;
        let mut names: Vec<String> = self
            .funcs
            .iter()
            .map(|d| &d.function)
            .filter(|f| !self.program.in_system_header(f.span))
            .filter(|f| {
                MODELLED_OTHERS.contains(&f.name.as_str())
                    || library_builtin(&f.name, model).is_some()
            })
            .map(|f| f.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Declares `name`, called at `at` without a declaration, as gcc 12
    /// does: with its library type if it is a builtin of the C library,
    /// else as `int name();`. The declaration holds for the rest of the
    /// file, as a second implicit one would be the same.
    pub(super) fn implicit_declaration(&mut self, name: &str, at: usize) -> usize {
        let warning = self.diag(
            Severity::Warning,
            at,
            format!("implicit declaration of function `{name}`"),
        );
        if self.in_main_file(at) {
            self.diagnostics.push(warning);
        }
        if let Some(index) = self.declare_library_builtin(name) {
            return index;
        }
        let function = Function {
            name: name.to_string(),
            sig: FnSig {
                ret: Type::Int(IntType::INT),
                params: Vec::new(),
                variadic: false,
            },
            prototyped: false,
            nonnull: Vec::new(),
            const_pointee: Vec::new(),
            is_static: false,
            span: self.span(at),
            body: None,
        };
        let mut decl = FuncDecl::built_in(function);
        decl.prototype = Prototype::Missing;
        // No declaration a driver's `__typeof__` could name.
        decl.at_file_scope = false;
        self.declare_at_file_scope(name, decl)
    }

    /// The function `__builtin_NAME` calls when `NAME` is a builtin of the
    /// C library: the file's declaration of `NAME`, else the library's.
    pub(super) fn library_builtin_function(&mut self, spelled: &str) -> Option<usize> {
        let name = spelled.strip_prefix("__builtin_")?;
        match self.scopes.first().and_then(|s| s.names.get(name)) {
            Some(Symbol::Func(index)) => Some(*index),
            _ => self.declare_library_builtin(name),
        }
    }

    /// Declares the C library builtin `name` as the compiler declares it
    /// (in no file of the program: no driver stubs it).
    fn declare_library_builtin(&mut self, name: &str) -> Option<usize> {
        let builtin = library_builtin(name, self.program.data_model)?;
        let function = self.built_in_function(name, builtin.sig);
        let mut decl = FuncDecl::built_in(function);
        decl.noreturn = builtin.noreturn;
        Some(self.declare_at_file_scope(name, decl))
    }

    /// Adds `decl` and binds `name` to it at file scope, unless the file
    /// gives that name another meaning there (a variable named `index`).
    fn declare_at_file_scope(&mut self, name: &str, decl: FuncDecl<'a>) -> usize {
        self.funcs.push(decl);
        let index = self.funcs.len() - 1;
        if let Some(scope) = self.scopes.first_mut() {
            scope
                .names
                .entry(name.to_string())
                .or_insert(Symbol::Func(index));
        }
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_table_is_a_declaration() {
        for line in BUILTINS.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                parse_declaration(line, DataModel::Lp64).is_some(),
                "cannot read `{line}`"
            );
        }
    }

    #[test]
    fn builtins_have_the_library_types_of_the_data_model() {
        let strlen = library_builtin("strlen", DataModel::Ilp32).expect("strlen");
        assert_eq!(strlen.sig.ret, Type::Int(IntType::UINT));
        assert_eq!(strlen.sig.params, vec![Type::ptr(Type::Int(IntType::CHAR))]);
        let printf = library_builtin("printf", DataModel::Lp64).expect("printf");
        assert!(printf.sig.variadic && !printf.noreturn);
        assert!(
            library_builtin("exit", DataModel::Lp64)
                .expect("exit")
                .noreturn
        );
        let frexp = library_builtin("frexp", DataModel::Lp64).expect("frexp");
        assert_eq!(frexp.sig.params[1], Type::ptr(Type::Int(IntType::INT)));
        assert_eq!(library_builtin("atoi", DataModel::Lp64), None, "no builtin");
    }
}
