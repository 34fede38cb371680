//! The program: functions made of basic blocks over side-effect-free expressions.

use crate::types::{DataModel, FloatKind, FnSig, IntType, Layout, StructDef, StructId, Type};

macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(
    /// A local variable, parameter or front-end temporary of one function.
    LocalId,
    "_"
);
entity!(
    /// A basic block of one function.
    BlockId,
    "bb"
);
entity!(
    /// A global variable (file-scope or function `static`).
    GlobalId,
    "@g"
);
entity!(
    /// A function defined or declared in the translation unit.
    FuncId,
    "@f"
);
entity!(
    /// A string literal's bytes in [`Program::strings`].
    StringId,
    "@str"
);
entity!(
    /// A condition (two-way branch or switch) of one function; the unit of goals.
    BranchId,
    "br"
);

/// A source position. `file` indexes [`Program::files`]; line and column are 1-based.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// Source file names, as the preprocessor reported them (index 0 is the main file).
    pub files: Vec<String>,
    pub structs: Vec<StructDef>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// String literal objects, each with its terminating NUL byte included.
    pub strings: Vec<Vec<u8>>,
    /// What the sizes, layouts and integer types above were computed for.
    pub data_model: DataModel,
    /// C library functions the code declares or defines itself, outside
    /// the library's headers (`char *malloc();` in old code), used or not:
    /// a driver stubs none of them and hides its headers' declarations of
    /// them, which may not match.
    pub own_library_declarations: Vec<String>,
    /// Functions the source defines that cairn could not read: they keep
    /// their declaration without a body, and the driver, which compiles
    /// the source, must not define them again.
    pub excluded_definitions: Vec<String>,
    /// Functions and globals declared only inside function bodies, and
    /// functions called without any declaration (C89's implicit `int
    /// f();`): no name at file scope that a driver's `__typeof__` could
    /// refer to.
    pub declared_in_blocks_only: Vec<String>,
    /// Functions and globals whose names the file leaves defined as macros
    /// (a header declares `encrypt`, then the file says `#define encrypt
    /// client_encrypt`): the driver, which includes the file, sets such a
    /// macro aside where it defines the function or global itself.
    pub macro_names: Vec<String>,
    /// Functions defined `inline` without `static` or `extern` outside
    /// system headers (gnulib's header functions): in C99 such a definition
    /// gives the linker no symbol, so a driver calling one out of line must
    /// ask for it.
    pub inline_definitions: Vec<String>,
    /// Functions and extern globals defined elsewhere (another library's
    /// too) that the bodies of excluded definitions use: the driver, which
    /// compiles those bodies, defines each.
    pub used_by_excluded: Vec<String>,
    /// Functions cairn adds, without a body, one per function-pointer type
    /// the program's structs, globals and parameters hold: each stands for
    /// any function of its type (another file's callback, a vtable's
    /// entry), which a test may store where an input holds one and whose
    /// driver stub returns what the test scripts.
    pub callback_mocks: Vec<FuncId>,
    /// Identifiers the source forbids after its `#pragma GCC poison` (a
    /// library that bans `malloc` and `free` in favour of its own
    /// allocator): any later use is a compile error, so a driver, which
    /// includes the source, names them only through macros it defined
    /// before.
    pub poisoned: Vec<String>,
}

impl Layout for Program {
    fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }
    fn data_model(&self) -> DataModel {
        self.data_model
    }
}

impl Program {
    /// The type a `va_list` parameter has: a pointer to its tag.
    pub fn is_va_list_pointer(&self, ty: &Type) -> bool {
        matches!(ty.pointee(), Some(Type::Struct(id)) if self.structs[id.0 as usize].name == VA_LIST_TAG)
    }
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.index()]
    }
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }
    pub fn file_name(&self, span: Span) -> &str {
        self.files
            .get(span.file as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }
    /// Whether `span` lies in a system header, where the C library declares
    /// itself: a file under `/usr/`, or a compiler pseudo-file (`<built-in>`).
    pub fn in_system_header(&self, span: Span) -> bool {
        let name = self.file_name(span);
        name.starts_with("/usr/") || name.starts_with('<')
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    /// The C name; a function `static` gets `function.name` so names stay unique.
    pub name: String,
    pub ty: Type,
    pub init: Option<Init>,
    /// `static` at file scope or inside a function (not visible to other files).
    pub is_static: bool,
    /// Declared `extern` and never defined here: its value is an input.
    pub is_extern: bool,
    pub is_const: bool,
    pub span: Span,
}

impl Global {
    /// A `static` variable of a function (named `function.name`).
    pub fn is_function_static(&self) -> bool {
        self.name.contains('.')
    }
}

/// A constant initializer, laid out by the front end. Bytes not covered are zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// Scalars placed at byte offsets inside the object.
    Fields(Vec<InitItem>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitItem {
    pub offset: u64,
    pub value: ConstValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstValue {
    /// Raw two's-complement bits of an integer of the given type.
    Int(IntType, u128),
    /// IEEE 754 bits of a `float` or `double`.
    Float(FloatKind, u64),
    Null,
    /// Address of a global plus a byte offset.
    GlobalAddr(GlobalId, i64),
    FuncAddr(FuncId),
    /// Address of a string literal plus a byte offset.
    StrAddr(StringId, i64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub sig: FnSig,
    /// Whether C code calling it sees a prototype. Without one (declared
    /// `f()`, or defined old-style, K&R, and never given one) a C call
    /// passes its arguments after the default promotions, unconverted: a
    /// driver must convert them itself. `sig` then holds the types the
    /// body receives (an old-style `char c` arrives as an `int`).
    pub prototyped: bool,
    pub is_static: bool,
    pub span: Span,
    /// `None` for a function declared but not defined in this file.
    pub body: Option<Body>,
    /// The parameters its declarations say are never NULL
    /// (`__attribute__((nonnull))`, as glibc declares `memcpy`'s), in
    /// order: a call passing NULL there is undefined, and UBSan stops it.
    pub nonnull: Vec<usize>,
    /// The pointer parameters whose pointee a declaration qualifies `const`
    /// (`const struct conf *c`, `const char *name`), in order: a function
    /// without a body never writes through them. Spelled in the declarator
    /// only: a `const` hidden in a typedef is not seen.
    pub const_pointee: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    /// The first `sig.params.len()` locals are the parameters, in order; a
    /// variadic function's next local is its argument area ([`Function::va_area`]).
    pub locals: Vec<Local>,
    pub blocks: Vec<Block>,
    /// Entry is always `BlockId(0)`.
    pub branches: Vec<BranchSite>,
    /// The decisions whose vectors are goals (lowered for MC/DC only).
    pub decisions: Vec<crate::decisions::Decision>,
}

/// Bytes each extra argument of a variadic call takes in its argument area,
/// as on the x86-64 stack: a value after the default promotions, padded.
pub const VA_SLOT: u64 = 8;

/// The struct a `va_list` is an array of on x86-64 (`struct __va_list_tag[1]`).
pub const VA_LIST_TAG: &str = "__va_list_tag";

/// The member of [`VA_LIST_TAG`] that cairn uses as the `va_list`'s cursor
/// into an argument area (`overflow_arg_area`, where gcc keeps the
/// arguments passed in memory).
pub const VA_LIST_CURSOR: u32 = 2;

impl Function {
    /// The local of a variadic function with a body that holds the address of
    /// its argument area: the extra arguments of the call, promoted, each in a
    /// [`VA_SLOT`]; `va_start` points a `va_list` there and `va_arg` walks it.
    pub fn va_area(&self) -> Option<LocalId> {
        let variadic_body = self.sig.variadic && self.body.is_some();
        variadic_body.then_some(LocalId(self.sig.params.len() as u32))
    }
}

impl Program {
    /// Whether `goal` is a decision's test vector (MC/DC) rather than a
    /// branch of the source.
    pub fn is_vector_goal(&self, goal: crate::Goal) -> bool {
        self.function(goal.func).body.as_ref().is_some_and(|b| {
            b.branches
                .get(goal.site.index())
                .is_some_and(|s| s.kind == BranchKind::Vector)
        })
    }
}

impl Body {
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.index()]
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// The C name, or empty for a front-end temporary.
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub term: Terminator,
    pub term_span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `place = value` (scalar or whole struct copy).
    Assign(Place, Expr),
    /// A call. Library functions (`malloc`, `memcpy`, ...) are calls to declared
    /// functions without a body; the engine gives them their meaning by name.
    Call {
        dest: Option<Place>,
        callee: Callee,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    Direct(FuncId),
    /// Through a function pointer value.
    Indirect(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    Goto(BlockId),
    /// Two-way branch on `cond != 0`.
    Branch {
        cond: Expr,
        then_bb: BlockId,
        else_bb: BlockId,
        site: BranchId,
    },
    /// `switch`: `cases` hold the (converted) case values in source order.
    Switch {
        value: Expr,
        cases: Vec<(i128, BlockId)>,
        default: BlockId,
        site: BranchId,
    },
    Return(Option<Expr>),
    /// End of a block no execution can reach (after `abort()`, an infinite loop's exit...).
    Unreachable,
}

impl Terminator {
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Goto(b) => vec![*b],
            Terminator::Branch {
                then_bb, else_bb, ..
            } => vec![*then_bb, *else_bb],
            Terminator::Switch { cases, default, .. } => {
                let mut v: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
                v.push(*default);
                v
            }
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        }
    }
}

/// Where a condition comes from in the source; goals, reports and the
/// coverage comparison use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchSite {
    pub span: Span,
    /// The condition's source text, e.g. `a > b` (one operand of `&&`/`||` alone).
    pub text: String,
    pub kind: BranchKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    If,
    Loop,
    /// An operand of `&&` / `||`.
    Logical,
    /// The condition of `?:`.
    Conditional,
    Switch,
    /// The switch that ends a decision's evaluation on its vector number
    /// (MC/DC only): no source branch, no gcov counter.
    Vector,
}

/// An lvalue: a base and projections applied left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub base: PlaceBase,
    pub proj: Vec<Proj>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceBase {
    Local(LocalId),
    Global(GlobalId),
    /// The object a pointer-valued expression points to (`*e`).
    Deref(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proj {
    /// Member number `index` of the struct or union (`ty` is the member's type).
    Field { index: u32, ty: Type },
    /// Element of an array place; the index expression is any integer type.
    Index { index: Expr, elem: Type },
}

impl Place {
    pub fn local(id: LocalId) -> Place {
        Place {
            base: PlaceBase::Local(id),
            proj: vec![],
        }
    }
    pub fn global(id: GlobalId) -> Place {
        Place {
            base: PlaceBase::Global(id),
            proj: vec![],
        }
    }
    pub fn deref(ptr: Expr) -> Place {
        Place {
            base: PlaceBase::Deref(Box::new(ptr)),
            proj: vec![],
        }
    }
}

/// A side-effect-free expression with its C type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// Integer constant: raw bits, interpreted by `ty`.
    Int(u128),
    /// `float` or `double` constant: its IEEE 754 bits (`ty` says which).
    Float(u64),
    /// The null pointer constant of pointer type `ty`.
    Null,
    /// Read of a scalar or struct place.
    Load(Box<Place>),
    /// Address of a place (arrays decay through this too: `&a[0]`).
    AddrOf(Box<Place>),
    FuncAddr(FuncId),
    Str(StringId),
    Unary(UnOp, Box<Expr>),
    /// Operands already converted to a common type (for shifts: each promoted).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `ptr + index * sizeof(*ptr)`; `index` is a signed 64-bit integer in
    /// both data models (offsets are 64-bit: the front end widens the C
    /// index, as the engine keeps offsets).
    PtrAdd(Box<Expr>, Box<Expr>),
    /// `(a - b) / sizeof(*a)` as a 64-bit `long long` in both data models;
    /// the front end converts it to `ptrdiff_t`.
    PtrDiff(Box<Expr>, Box<Expr>),
    /// Conversion to `ty` (integer <-> integer, integer <-> pointer, pointer <-> pointer,
    /// integer <-> floating, floating <-> floating).
    Cast(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// Bitwise `~`.
    Not,
    /// Logical `!`, yielding `int` 0 or 1.
    LogicalNot,
    /// Leading zero bits (`__builtin_clz`); undefined for 0.
    LeadingZeros,
    /// Trailing zero bits (`__builtin_ctz`); undefined for 0.
    TrailingZeros,
    /// One bits (`__builtin_popcount`).
    CountOnes,
    /// The sign bit of a `float` or `double`, NaN included, as gcc's
    /// `__builtin_signbit` gives it: `int` 1 for a double, the bit in place
    /// (`0x80000000`) for a float.
    SignBit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Comparisons yield `int` 0 or 1; operands are integers of one type,
    /// floating values of one type (IEEE: NaN is unordered) or pointers.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Whether the exact product of the operands (integers of one type) is
    /// outside their type (`__builtin_mul_overflow`); `int` 0 or 1.
    MulOverflows,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::MulOverflows => "mul-overflows",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
    /// Comparisons and `MulOverflows`: `int` 0 or 1 from operands of one type.
    pub fn is_predicate(self) -> bool {
        matches!(
            self,
            BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::MulOverflows
        )
    }
}

impl Expr {
    pub fn int(it: IntType, value: i128) -> Expr {
        Expr {
            kind: ExprKind::Int(value as u128 & mask(it.bits)),
            ty: Type::Int(it),
        }
    }
    pub fn load(place: Place, ty: Type) -> Expr {
        Expr {
            kind: ExprKind::Load(Box::new(place)),
            ty,
        }
    }
}

pub(crate) fn mask(bits: u16) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}
