//! C types with their exact sizes, alignments and layouts as gcc computes
//! them for x86 Linux: x86-64 System V (LP64) or i386 System V (ILP32).

use std::fmt;

/// Index of a struct or union definition in [`crate::Program::structs`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct StructId(pub u32);

/// An integer type: width in bits and signedness. `_Bool` is `bits: 8` with
/// [`IntType::is_bool`] set, because stores into it normalise to 0 or 1.
/// A `long` bit-field wider than `int` promotes to a type of its own width
/// (e.g. 40 bits), in which gcc computes; only temporaries have such types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct IntType {
    pub bits: u16,
    pub signed: bool,
    pub is_bool: bool,
}

impl IntType {
    pub const BOOL: IntType = IntType {
        bits: 8,
        signed: false,
        is_bool: true,
    };
    pub const CHAR: IntType = IntType::new(8, true);
    pub const UCHAR: IntType = IntType::new(8, false);
    pub const SHORT: IntType = IntType::new(16, true);
    pub const USHORT: IntType = IntType::new(16, false);
    pub const INT: IntType = IntType::new(32, true);
    pub const UINT: IntType = IntType::new(32, false);
    /// `long long`, 64 bits in both data models (`long` is
    /// [`DataModel::long`]).
    pub const LONG_LONG: IntType = IntType::new(64, true);
    pub const ULONG_LONG: IntType = IntType::new(64, false);

    pub const fn new(bits: u16, signed: bool) -> Self {
        IntType {
            bits,
            signed,
            is_bool: false,
        }
    }

    /// Bytes a value takes in memory (a bit-field's own width rounded up).
    pub fn bytes(self) -> u64 {
        u64::from(self.bits.div_ceil(8))
    }

    /// Smallest and largest representable value.
    pub fn range(self) -> (i128, i128) {
        if self.is_bool {
            (0, 1)
        } else if self.signed {
            let half = 1i128 << (self.bits - 1);
            (-half, half - 1)
        } else {
            (0, (1i128 << self.bits) - 1)
        }
    }

    /// The value of the low `bits` of `raw` in decimal, exact for every
    /// type (an `unsigned __int128` may not fit [`Self::value_of`]'s `i128`).
    pub fn decimal(self, raw: u128) -> String {
        match (self.signed, self.bits >= 128) {
            (false, true) => raw.to_string(),
            _ => self.value_of(raw).to_string(),
        }
    }

    /// Interprets the low `bits` of `raw` as a value of this type.
    pub fn value_of(self, raw: u128) -> i128 {
        let mask = if self.bits >= 128 {
            u128::MAX
        } else {
            (1u128 << self.bits) - 1
        };
        let v = raw & mask;
        if self.signed && self.bits < 128 && (v >> (self.bits - 1)) & 1 == 1 {
            (v | !mask) as i128
        } else {
            v as i128
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_bool {
            write!(f, "bool")
        } else {
            write!(f, "{}{}", if self.signed { "i" } else { "u" }, self.bits)
        }
    }
}

/// The data model a program is compiled for (`gcc -m64` or `-m32`): the
/// widths of `long` and pointers, and the alignments of the i386 ABI.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DataModel {
    /// x86-64: `long` and pointers 64 bits.
    #[default]
    Lp64,
    /// i386: `int`, `long` and pointers 32 bits; `long long`, `double` and
    /// `long double` 4-byte aligned inside structs.
    Ilp32,
}

impl DataModel {
    /// The name users give it (`--data-model NAME`).
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Lp64 => "lp64",
            DataModel::Ilp32 => "ilp32",
        }
    }
    /// The gcc option that compiles for it.
    pub fn gcc_flag(self) -> &'static str {
        match self {
            DataModel::Lp64 => "-m64",
            DataModel::Ilp32 => "-m32",
        }
    }
    pub fn pointer_bytes(self) -> u64 {
        match self {
            DataModel::Lp64 => 8,
            DataModel::Ilp32 => 4,
        }
    }
    /// `long`; also `ptrdiff_t` and `intptr_t`.
    pub fn long(self) -> IntType {
        IntType::new(self.pointer_bytes() as u16 * 8, true)
    }
    /// `unsigned long`; also `size_t` and `uintptr_t`.
    pub fn ulong(self) -> IntType {
        IntType::new(self.pointer_bytes() as u16 * 8, false)
    }
    /// The largest alignment of a scalar inside a struct: the i386 ABI
    /// aligns 8-byte `long long` and `double` on 4 bytes.
    fn max_scalar_align(self) -> u64 {
        match self {
            DataModel::Lp64 => 16,
            DataModel::Ilp32 => 4,
        }
    }
}

/// Floating-point kinds: `float` and `double` are IEEE 754 binary32 and
/// binary64 as SSE computes them; `long double` is only stored and copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FloatKind {
    F32,
    F64,
    /// `long double`: 80-bit x87, stored in 16 bytes (12 under ILP32).
    F80,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FnSig {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Type {
    Void,
    Int(IntType),
    Float(FloatKind),
    Pointer(Box<Type>),
    /// `None` length: `T[]` (an incomplete array, e.g. an `extern` declaration).
    Array(Box<Type>, Option<u64>),
    Struct(StructId),
    Function(Box<FnSig>),
}

impl Type {
    pub fn int(it: IntType) -> Type {
        Type::Int(it)
    }
    pub fn ptr(to: Type) -> Type {
        Type::Pointer(Box::new(to))
    }
    /// Whether this is a pointer to bytes: `void *`, `char *`, `unsigned
    /// char *` (what code reads any object through).
    pub fn points_to_bytes(&self) -> bool {
        match self.pointee() {
            Some(Type::Void) => true,
            Some(Type::Int(it)) => it.bits == 8 && !it.is_bool,
            _ => false,
        }
    }
    pub fn as_int(&self) -> Option<IntType> {
        match self {
            Type::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// Width in bits of a value held as one number: an integer, a `float`
    /// or a `double` (`long double` is only copied, as bytes).
    pub fn scalar_bits(&self) -> Option<u32> {
        match self {
            Type::Int(it) => Some(u32::from(it.bits)),
            Type::Float(FloatKind::F32) => Some(32),
            Type::Float(FloatKind::F64) => Some(64),
            _ => None,
        }
    }
    /// An unsigned integer (its small values are the readable ones, never
    /// small negatives wrapped around).
    pub fn is_unsigned_int(&self) -> bool {
        matches!(self, Type::Int(it) if !it.signed)
    }
    /// `float` or `double`: the kinds with modelled arithmetic.
    pub fn as_ieee_float(&self) -> Option<FloatKind> {
        match self {
            Type::Float(k @ (FloatKind::F32 | FloatKind::F64)) => Some(*k),
            _ => None,
        }
    }
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Pointer(t) => Some(t),
            _ => None,
        }
    }
    /// A `char *` (signed or not): what C passes a string as.
    pub fn is_string(&self) -> bool {
        matches!(self.pointee(), Some(Type::Int(it)) if it.bits == 8 && !it.is_bool)
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float(_) | Type::Pointer(_))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Empty for an anonymous member (its own fields are reachable through it).
    pub name: String,
    /// For a bit-field, its declared integer type: the type its value is
    /// read as (before integer promotion) and converted to when stored.
    pub ty: Type,
    /// Byte offset from the start of the struct (of the first byte holding
    /// a bit-field's bits).
    pub offset: u64,
    /// `Some` for a bit-field: where its bits lie from `offset`.
    pub bits: Option<BitField>,
}

impl Field {
    /// A name C reserves for the implementation (two underscores, or one
    /// and a capital): a member of the C library's own types, such as a
    /// mutex's `__data.__owner`, whose values are the library's business.
    pub fn is_reserved(&self) -> bool {
        let mut chars = self.name.chars();
        chars.next() == Some('_')
            && chars
                .next()
                .is_some_and(|c| c == '_' || c.is_ascii_uppercase())
    }
}

/// Where a bit-field's value lies: `width` bits from bit `shift` of the
/// little-endian integer made of the [`BitField::storage_bytes`] bytes at
/// the field's offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    pub shift: u8,
    pub width: u16,
}

impl BitField {
    /// How many bytes hold the field's bits (at most 9: a packed 64-bit field).
    pub fn storage_bytes(self) -> u64 {
        (u64::from(self.shift) + u64::from(self.width)).div_ceil(8)
    }
}

/// A member to lay out: a bit-field when `bit_width` is set (an unnamed
/// one only pads and is not kept as a field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub ty: Type,
    pub bit_width: Option<u16>,
    /// At least this alignment (`__attribute__((aligned(N)))` on the member).
    pub align: Option<u64>,
    /// Alignment 1 whatever its type (`__attribute__((packed))` on the member).
    pub packed: bool,
}

impl Member {
    pub fn plain(name: impl Into<String>, ty: Type) -> Member {
        Member {
            name: name.into(),
            ty,
            bit_width: None,
            align: None,
            packed: false,
        }
    }
}

/// How a struct is packed: `#pragma pack(N)` caps every member's
/// alignment at N bytes; `__attribute__((packed))` gives every member
/// alignment 1. Under either, gcc lets a bit-field straddle the units of
/// its declared type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Packing {
    #[default]
    Natural,
    MaxAlign(u64),
    Packed,
}

impl Packing {
    fn cap(self, align: u64) -> u64 {
        match self {
            Packing::Natural => align,
            Packing::MaxAlign(n) => align.min(n).max(1),
            Packing::Packed => 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// The tag, or a generated name such as `anon.3` for an untagged type.
    pub name: String,
    /// For an untagged type, the first typedef naming it (`point` in
    /// `typedef struct { int x; } point;`), so generated C can spell the type.
    pub typedef_name: Option<String>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// False for a declared but never defined type (`struct opaque;`).
    pub complete: bool,
}

impl StructDef {
    /// How C code names the type: the typedef of an untagged one, else
    /// `struct TAG` or `union TAG`; `None` for an untagged type no typedef names.
    pub fn c_name(&self) -> Option<String> {
        if let Some(typedef) = &self.typedef_name {
            return Some(typedef.clone());
        }
        let mut chars = self.name.chars();
        let tagged = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        let keyword = if self.is_union { "union" } else { "struct" };
        tagged.then(|| format!("{keyword} {}", self.name))
    }
}

/// Layout questions that need the struct table.
pub trait Layout {
    fn struct_def(&self, id: StructId) -> &StructDef;
    fn data_model(&self) -> DataModel;

    /// Is `ty` a node type of a linked structure: a struct that can reach a
    /// struct of its own type through pointer members (list and tree nodes,
    /// also through other struct types, as a graph's vertices and arcs)?
    fn is_linked(&self, ty: &Type) -> bool {
        let Type::Struct(node) = ty else {
            return false;
        };
        let mut seen = Vec::new();
        let mut pending = vec![*node];
        while let Some(id) = pending.pop() {
            for field in &self.struct_def(id).fields {
                let mut inner = &field.ty;
                while let Type::Pointer(t) | Type::Array(t, _) = inner {
                    inner = t;
                }
                if let Type::Struct(next) = inner {
                    if next == node {
                        return true;
                    }
                    if !seen.contains(next) {
                        seen.push(*next);
                        pending.push(*next);
                    }
                }
            }
        }
        false
    }

    /// The flexible array member that ends struct `ty` (`int8_t data[];`,
    /// or GNU's `data[0]`): its number among the fields and the field.
    fn flexible_member(&self, ty: &Type) -> Option<(usize, &Field)> {
        let Type::Struct(id) = ty else {
            return None;
        };
        let def = self.struct_def(*id);
        let last = def.fields.len().checked_sub(1)?;
        let field = &def.fields[last];
        let flexible = matches!(field.ty, Type::Array(_, None | Some(0))) && !def.is_union;
        flexible.then_some((last, field))
    }

    fn size_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Void => 1,
            Type::Int(i) => i.bytes(),
            Type::Float(FloatKind::F32) => 4,
            Type::Float(FloatKind::F64) => 8,
            Type::Float(FloatKind::F80) => match self.data_model() {
                DataModel::Lp64 => 16,
                DataModel::Ilp32 => 12,
            },
            Type::Pointer(_) => self.data_model().pointer_bytes(),
            Type::Array(elem, n) => self.size_of(elem) * n.unwrap_or(0),
            Type::Struct(id) => self.struct_def(*id).size,
            Type::Function(_) => 1,
        }
    }

    /// The alignment C11's `_Alignof` gives, which is also a member's in a
    /// struct.
    fn align_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(elem, _) => self.align_of(elem),
            Type::Struct(id) => self.struct_def(*id).align,
            Type::Void | Type::Function(_) => 1,
            other => self
                .size_of(other)
                .min(self.data_model().max_scalar_align()),
        }
    }

    /// Lays out plain members (name, type) following the System V rules
    /// and returns (fields with offsets, size, align).
    fn lay_out(&self, members: Vec<(String, Type)>, is_union: bool) -> (Vec<Field>, u64, u64) {
        let members = members
            .into_iter()
            .map(|(name, ty)| Member::plain(name, ty))
            .collect();
        self.lay_out_members(members, is_union, Packing::Natural)
    }

    /// Lays out members, bit-fields included, as gcc does on x86 (System
    /// V, the data model's alignments): a bit-field takes the next bits
    /// unless it would span more units of its declared type's alignment
    /// than the type has (then it starts at the next such unit); a zero-width one moves to such a boundary; a named
    /// bit-field gives the struct its type's alignment, an unnamed one none.
    /// Returns (fields with offsets, size, align).
    fn lay_out_members(
        &self,
        members: Vec<Member>,
        is_union: bool,
        packing: Packing,
    ) -> (Vec<Field>, u64, u64) {
        let mut fields = Vec::with_capacity(members.len());
        let mut next_bit = 0u64;
        let mut align = 1u64;
        let mut size_bits = 0u64;
        for member in members {
            let type_align = self.align_of(&member.ty);
            let capped_align = match member.packed {
                true => 1,
                false => packing.cap(type_align),
            }
            .max(member.align.unwrap_or(1));
            let start = if is_union { 0 } else { next_bit };
            let (at, width, bits) = match member.bit_width {
                None => {
                    let at = start.next_multiple_of(capped_align * 8);
                    align = align.max(capped_align);
                    (at, self.size_of(&member.ty) * 8, None)
                }
                Some(0) => {
                    let zero_width_align = match packing {
                        Packing::MaxAlign(n) => type_align.min(n),
                        _ => type_align,
                    };
                    (start.next_multiple_of(zero_width_align * 8), 0, None)
                }
                Some(width) => {
                    // gcc: a bit-field may not span more units of its
                    // type's alignment than the type itself does (one on
                    // x86-64; two for an i386 `long long`, 4-byte aligned).
                    let unit = type_align * 8;
                    let width = u64::from(width);
                    let units_of_type = (self.size_of(&member.ty) * 8 / unit).max(1);
                    let straddles = (start % unit + width).div_ceil(unit) > units_of_type;
                    let at = if straddles && packing == Packing::Natural {
                        start.next_multiple_of(unit)
                    } else {
                        start
                    };
                    if !member.name.is_empty() {
                        align = align.max(capped_align);
                    }
                    let bits = BitField {
                        shift: (at % 8) as u8,
                        width: width as u16,
                    };
                    (at, width, Some(bits))
                }
            };
            next_bit = at + width;
            size_bits = size_bits.max(next_bit);
            if member.bit_width.is_none() || !member.name.is_empty() {
                fields.push(Field {
                    name: member.name,
                    ty: member.ty,
                    offset: at / 8,
                    bits,
                });
            }
        }
        let size = size_bits.div_ceil(8).next_multiple_of(align);
        (fields, size, align)
    }
}
