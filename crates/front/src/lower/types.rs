//! Declaration specifiers, declarators, structs, unions, enums and typedefs.

use super::{Lowerer, Params, Scope, Symbol, Tag, R};
use ir::{
    DataModel, FloatKind, FnSig, IntType, Layout, Member, Packing, StructDef, StructId, Type,
};
use lang_c::ast::*;
use lang_c::span::Node;

/// The specifiers of a declaration, gathered from either AST form.
#[derive(Default)]
pub(super) struct Specs<'s> {
    pub storage: Option<StorageClassSpecifier>,
    pub types: Vec<&'s Node<TypeSpecifier>>,
    pub is_const: bool,
    /// `_Alignas`: a layout change we do not model.
    pub layout_attribute: Option<usize>,
    /// `__attribute__((aligned[(N)]))`: where, and N when given.
    pub aligned: Option<Aligned<'s>>,
    /// `__attribute__((packed))` after a struct body ([`crate::gnu`] moves it there).
    pub packed: Option<usize>,
    /// `_Noreturn` or `__attribute__((noreturn))`.
    pub noreturn: bool,
    /// `inline`.
    pub inline: bool,
    /// `__attribute__((nonnull(...)))` (see [`nonnull_attribute`]).
    pub nonnull: Option<Vec<usize>>,
    /// `__attribute__((cleanup(f)))`: the function, and where.
    pub cleanup: Option<(String, usize)>,
    /// `__attribute__((vector_size(N)))`: where (a SIMD vector, which cairn
    /// does not model).
    pub vector: Option<usize>,
    pub offset: usize,
}

impl<'s> Specs<'s> {
    pub fn of_declaration(specs: &'s [Node<DeclarationSpecifier>], offset: usize) -> Specs<'s> {
        let mut out = Specs {
            offset,
            ..Specs::default()
        };
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(c) => out.storage = Some(c.node.clone()),
                DeclarationSpecifier::TypeSpecifier(t) => out.types.push(t),
                DeclarationSpecifier::TypeQualifier(q) => {
                    out.is_const |= q.node == TypeQualifier::Const
                }
                DeclarationSpecifier::Function(f) => {
                    out.noreturn |= f.node == FunctionSpecifier::Noreturn;
                    out.inline |= f.node == FunctionSpecifier::Inline;
                }
                DeclarationSpecifier::Alignment(_) => out.layout_attribute = Some(s.span.start),
                DeclarationSpecifier::Extension(ext) => out.note_extensions(ext),
            }
        }
        out
    }

    pub fn of_qualifiers(specs: &'s [Node<SpecifierQualifier>], offset: usize) -> Specs<'s> {
        let mut out = Specs {
            offset,
            ..Specs::default()
        };
        for s in specs {
            match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => out.types.push(t),
                SpecifierQualifier::TypeQualifier(q) => {
                    out.is_const |= q.node == TypeQualifier::Const
                }
                SpecifierQualifier::Extension(ext) => out.note_extensions(ext),
            }
        }
        out
    }

    fn note_extensions(&mut self, ext: &'s [Node<Extension>]) {
        if let Some(aligned) = aligned_attribute(ext) {
            self.aligned = Some(aligned);
        }
        if let Some(at) = attribute_position(ext, &["packed"]) {
            self.packed = Some(at);
        }
        if let Some(at) = vector_attribute(ext) {
            self.vector = Some(at);
        }
        self.noreturn |= has_attribute(ext, "noreturn");
        self.nonnull = merge_nonnull(self.nonnull.take(), nonnull_attribute(ext));
        if let Some(cleanup) = super::cleanup::cleanup_attribute(ext) {
            self.cleanup = Some(cleanup);
        }
    }
}

/// How many pointer and array levels a declarator puts over its base type
/// (`*p`: 1, `*p[]`: 2, `(*f)(void)`: 2), parentheses included.
fn indirections(d: &Declarator) -> usize {
    let own = d
        .derived
        .iter()
        .filter(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Pointer(_)
                    | DerivedDeclarator::Array(_)
                    | DerivedDeclarator::Function(_)
                    | DerivedDeclarator::KRFunction(_)
            )
        })
        .count();
    match &d.kind.node {
        DeclaratorKind::Declarator(inner) => own + indirections(&inner.node),
        _ => own,
    }
}

/// The parameters `nonnull` attributes among `ext` name, 1-based as C
/// writes them (empty: every pointer parameter), if there is one.
pub(super) fn nonnull_attribute(ext: &[Node<Extension>]) -> Option<Vec<usize>> {
    let mut found = None;
    for e in ext {
        let Extension::Attribute(a) = &e.node else {
            continue;
        };
        if a.name.node.trim_matches('_') != "nonnull" {
            continue;
        }
        let numbers = a.arguments.iter().filter_map(|arg| match &arg.node {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) if i.base == IntegerBase::Decimal => i.number.parse().ok(),
                _ => None,
            },
            _ => None,
        });
        found = merge_nonnull(found, Some(numbers.collect()));
    }
    found
}

/// Two `nonnull` attributes as one: an empty list (every pointer) wins.
pub(super) fn merge_nonnull(a: Option<Vec<usize>>, b: Option<Vec<usize>>) -> Option<Vec<usize>> {
    match (a, b) {
        (Some(a), Some(b)) if a.is_empty() || b.is_empty() => Some(Vec::new()),
        (Some(mut a), Some(b)) => {
            a.extend(b);
            a.sort_unstable();
            a.dedup();
            Some(a)
        }
        (a, b) => a.or(b),
    }
}

/// The parameter indices (from 0) a `nonnull` attribute's numbers name
/// in `params`; an empty list names every pointer parameter.
pub(super) fn nonnull_params(numbers: &[usize], params: &[Type]) -> Vec<usize> {
    if numbers.is_empty() {
        return (0..params.len())
            .filter(|&i| params[i].pointee().is_some())
            .collect();
    }
    numbers
        .iter()
        .filter(|&&n| n >= 1 && n <= params.len())
        .map(|n| n - 1)
        .collect()
}

/// Whether a `typeof` is the stand-in [`crate::gnu`] writes for `__int128`.
fn is_int128_marker(t: &TypeOf) -> bool {
    matches!(t, TypeOf::Expression(e)
        if matches!(&e.node, Expression::Identifier(id) if id.node.name == crate::gnu::INT128_MARKER))
}

pub(super) fn has_attribute(ext: &[Node<Extension>], wanted: &str) -> bool {
    ext.iter().any(
        |e| matches!(&e.node, Extension::Attribute(a) if a.name.node.trim_matches('_') == wanted),
    )
}

/// The function an `alias("name")` attribute of `ext` makes the
/// declaration another name of (glibc's `strong_alias`), if any.
pub(super) fn alias_attribute(ext: &[Node<Extension>]) -> Option<String> {
    ext.iter().find_map(|e| match &e.node {
        Extension::Attribute(a) if a.name.node.trim_matches('_') == "alias" => {
            match &a.arguments.first()?.node {
                Expression::StringLiteral(s) => {
                    let bytes = crate::cint::string_bytes(&s.node).ok()?;
                    let name = bytes.strip_suffix(&[0]).unwrap_or(&bytes);
                    String::from_utf8(name.to_vec()).ok()
                }
                _ => None,
            }
        }
        _ => None,
    })
}

/// Position of a `vector_size` attribute (`typedef long long __m128i
/// __attribute__((vector_size(16)))`), if any.
pub(super) fn vector_attribute(ext: &[Node<Extension>]) -> Option<usize> {
    attribute_position(ext, &["vector_size"])
}

/// Position of an attribute that changes layout (`packed`, `aligned`), if any.
pub(super) fn layout_attribute(ext: &[Node<Extension>]) -> Option<usize> {
    attribute_position(ext, &["packed", "aligned"])
}

/// An `aligned` attribute: where it is, and its argument when it has one.
pub(super) type Aligned<'s> = (usize, Option<&'s Node<Expression>>);

/// The `aligned` attribute of `ext`, if any.
fn aligned_attribute(ext: &[Node<Extension>]) -> Option<Aligned<'_>> {
    ext.iter().find_map(|e| match &e.node {
        Extension::Attribute(a) if a.name.node.trim_matches('_') == "aligned" => {
            Some((e.span.start, a.arguments.first()))
        }
        _ => None,
    })
}

fn attribute_position(ext: &[Node<Extension>], names: &[&str]) -> Option<usize> {
    ext.iter().find_map(|e| match &e.node {
        Extension::Attribute(a) => names
            .contains(&a.name.node.trim_matches('_'))
            .then_some(e.span.start),
        _ => None,
    })
}

/// A declarator resolved: name, type and, for a function declarator, its parameters.
pub(super) struct Declared {
    pub name: Option<String>,
    pub name_offset: usize,
    pub ty: Type,
    /// Parameter names (or `None`) and types of the outermost function declarator.
    pub params: Params,
    pub unprototyped: bool,
    /// For a pointer type: whether the outermost pointer is `* const`.
    pub const_pointer: bool,
    /// The parameters of the outermost function declarator whose pointee
    /// is `const` (see [`ir::Function::const_pointee`]).
    pub const_pointee: Vec<usize>,
}

impl Declared {
    /// Whether the declared object itself is `const` (not what it points to).
    pub fn is_const_object(&self, specifiers_const: bool) -> bool {
        fn innermost(ty: &Type) -> &Type {
            match ty {
                Type::Array(elem, _) => innermost(elem),
                other => other,
            }
        }
        match innermost(&self.ty) {
            Type::Pointer(_) => self.const_pointer,
            _ => specifiers_const,
        }
    }
}

impl<'a> Lowerer<'a> {
    /// The type named by the type specifiers.
    pub(super) fn base_type(&mut self, specs: &Specs<'_>) -> R<Type> {
        if let Some(at) = specs.layout_attribute {
            return self.unsupported(at, "`_Alignas`");
        }
        let packs_a_struct_body = specs.types.iter().any(
            |t| matches!(&t.node, TypeSpecifier::Struct(st) if st.node.declarations.is_some()),
        );
        if let (Some(at), false) = (specs.packed, packs_a_struct_body) {
            return self.unsupported(at, "packing attribute on a type other than a struct body");
        }
        // An aligned struct body is laid out so; other aligned types are
        // not modelled (the type itself would carry the alignment).
        let least_align = match specs.aligned {
            None => None,
            Some((at, _)) if !packs_a_struct_body => {
                return self
                    .unsupported(at, "alignment attribute on a type other than a struct body")
            }
            Some(aligned) => Some(self.alignment(aligned)?),
        };
        let mut counts = KeywordCounts::default();
        let mut named: Option<Type> = None;
        for t in &specs.types {
            let at = t.span.start;
            match &t.node {
                TypeSpecifier::Void => named = Some(Type::Void),
                TypeSpecifier::Char => counts.char += 1,
                TypeSpecifier::Short => counts.short += 1,
                TypeSpecifier::Int => counts.int += 1,
                TypeSpecifier::Long => counts.long += 1,
                TypeSpecifier::Float => counts.float += 1,
                TypeSpecifier::Double => counts.double += 1,
                TypeSpecifier::Signed => counts.signed += 1,
                TypeSpecifier::Unsigned => counts.unsigned += 1,
                TypeSpecifier::Bool => named = Some(Type::Int(IntType::BOOL)),
                TypeSpecifier::Complex => return self.unsupported(at, "complex type"),
                TypeSpecifier::Atomic(name) => named = Some(self.atomic_type(name, at)?),
                TypeSpecifier::Struct(st) => {
                    named = Some(self.struct_type(st, specs.packed.is_some(), least_align)?)
                }
                TypeSpecifier::Enum(e) => named = Some(self.enum_type(e)?),
                TypeSpecifier::TypedefName(id) => {
                    named = Some(self.typedef_type(&id.node.name, at)?)
                }
                TypeSpecifier::TypeOf(t) if is_int128_marker(&t.node) => {
                    // gcc has no 128-bit integers on i386 either.
                    if self.program.data_model == DataModel::Ilp32 {
                        return self.unsupported(at, "__int128 under the ILP32 data model");
                    }
                    counts.int128 += 1
                }
                TypeSpecifier::TypeOf(t) => {
                    named = Some(match &t.node {
                        TypeOf::Type(tn) => self.type_name(tn)?,
                        TypeOf::Expression(e) => self.type_of_expr(e)?,
                    })
                }
                TypeSpecifier::TS18661Float(f) => {
                    named = Some(match (&f.format, f.width) {
                        (TS18661FloatFormat::BinaryInterchange, 32) => Type::Float(FloatKind::F32),
                        (TS18661FloatFormat::BinaryInterchange, 64)
                        | (TS18661FloatFormat::BinaryExtended, 32) => Type::Float(FloatKind::F64),
                        (TS18661FloatFormat::BinaryInterchange, 128)
                        | (TS18661FloatFormat::BinaryExtended, 64) => Type::Float(FloatKind::F80),
                        _ => return self.unsupported(at, "decimal or unusual floating type"),
                    })
                }
            }
        }
        if let Some(t) = named {
            return Ok(t);
        }
        counts.resolve(self.program.data_model).map_or_else(
            || self.error(specs.offset, "invalid combination of type specifiers"),
            Ok,
        )
    }

    fn typedef_type(&mut self, name: &str, at: usize) -> R<Type> {
        match self.lookup(name) {
            Some(Symbol::Typedef(t)) => Ok(t.clone()),
            Some(Symbol::Poisoned(d)) => Err(d.clone()),
            _ if name == "__builtin_va_list" => Ok(self.va_list_type()),
            _ => self.error(at, format!("unknown type name `{name}`")),
        }
    }

    /// `__builtin_va_list` on x86-64: `struct __va_list_tag[1]`; on i386
    /// a `char *` (whose use [`super::varargs`] refuses).
    fn va_list_type(&mut self) -> Type {
        if self.program.data_model == DataModel::Ilp32 {
            return Type::ptr(Type::Int(IntType::CHAR));
        }
        let id = match self.va_list_struct {
            Some(id) => id,
            None => {
                let members = vec![
                    Member::plain("gp_offset", Type::Int(IntType::UINT)),
                    Member::plain("fp_offset", Type::Int(IntType::UINT)),
                    Member::plain("overflow_arg_area", Type::ptr(Type::Void)),
                    Member::plain("reg_save_area", Type::ptr(Type::Void)),
                ];
                let id = self.add_struct(ir::VA_LIST_TAG.into(), false);
                self.complete_struct(id, members, Packing::Natural);
                self.va_list_struct = Some(id);
                id
            }
        };
        Type::Array(Box::new(Type::Struct(id)), Some(1))
    }

    fn add_struct(&mut self, name: String, is_union: bool) -> StructId {
        let id = StructId(self.program.structs.len() as u32);
        let name = if name.is_empty() {
            format!("anon.{}", id.0)
        } else {
            name
        };
        self.program.structs.push(StructDef {
            name,
            typedef_name: None,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        });
        id
    }

    fn complete_struct(&mut self, id: StructId, members: Vec<Member>, packing: Packing) {
        let is_union = self
            .program
            .structs
            .get(id.0 as usize)
            .is_some_and(|s| s.is_union);
        let (fields, size, align) = self.program.lay_out_members(members, is_union, packing);
        if let Some(def) = self.program.structs.get_mut(id.0 as usize) {
            def.fields = fields;
            def.size = size;
            def.align = align;
            def.complete = true;
        }
    }

    /// A struct or union specifier; `packed` when `__attribute__((packed))`
    /// follows its body (else a `#pragma pack(N)` in force caps alignments),
    /// `least_align` when `__attribute__((aligned(N)))` does.
    fn struct_type(
        &mut self,
        st: &Node<StructType>,
        packed: bool,
        least_align: Option<u64>,
    ) -> R<Type> {
        let is_union = st.node.kind.node == StructKind::Union;
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let packing = match crate::pragma::pack_at(&self.packed, st.span.start) {
            _ if packed => Packing::Packed,
            Some(n) => Packing::MaxAlign(n),
            None => Packing::Natural,
        };
        let Some(declarations) = &st.node.declarations else {
            // A reference: an existing tag, or a new incomplete type here.
            let name = tag.unwrap_or_default();
            return match self.lookup_tag(&name) {
                Some(Tag::Struct(id)) => Ok(Type::Struct(*id)),
                Some(Tag::Poisoned(_)) if self.lenient => {
                    Ok(Type::Struct(self.placeholder(&name, is_union)))
                }
                Some(Tag::Poisoned(d)) => Err(d.clone()),
                Some(Tag::Enum(_)) => self.error(st.span.start, format!("`{name}` is an enum tag")),
                None => {
                    let id = self.add_struct(name.clone(), is_union);
                    self.bind_tag(&name, Tag::Struct(id));
                    Ok(Type::Struct(id))
                }
            };
        };
        let existing = tag
            .as_ref()
            .and_then(|t| self.scopes.last().and_then(|s| s.tags.get(t)).cloned());
        let id = match existing {
            Some(Tag::Struct(id))
                if !self
                    .program
                    .structs
                    .get(id.0 as usize)
                    .is_some_and(|s| s.complete) =>
            {
                id
            }
            _ => {
                let id = self.add_struct(tag.clone().unwrap_or_default(), is_union);
                if let Some(t) = &tag {
                    self.bind_tag(t, Tag::Struct(id));
                }
                id
            }
        };
        match self.struct_members(declarations) {
            Ok(members) => {
                self.complete_struct(id, members, packing);
                if let (Some(least), Some(def)) =
                    (least_align, self.program.structs.get_mut(id.0 as usize))
                {
                    def.align = def.align.max(least);
                    def.size = def.size.next_multiple_of(def.align);
                }
                Ok(Type::Struct(id))
            }
            Err(d) => {
                if let Some(t) = &tag {
                    self.bind_tag(t, Tag::Poisoned(d.clone()));
                }
                Err(d)
            }
        }
    }

    /// An incomplete struct standing for a poisoned tag in a signature.
    fn placeholder(&mut self, name: &str, is_union: bool) -> StructId {
        if let Some(id) = self.placeholders.get(name) {
            return *id;
        }
        let id = self.add_struct(name.to_string(), is_union);
        self.placeholders.insert(name.to_string(), id);
        id
    }

    fn bind_tag(&mut self, name: &str, tag: Tag) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.tags.insert(name.to_string(), tag);
        }
    }

    fn struct_members(&mut self, declarations: &[Node<StructDeclaration>]) -> R<Vec<Member>> {
        let mut members = Vec::new();
        for d in declarations {
            let StructDeclaration::Field(field) = &d.node else {
                continue;
            };
            let specs = Specs::of_qualifiers(&field.node.specifiers, field.span.start);
            let base = self.base_type(&specs)?;
            if field.node.declarators.is_empty() {
                // An anonymous struct or union member.
                members.push(Member::plain("", base));
                continue;
            }
            for sd in &field.node.declarators {
                let Some(decl) = &sd.node.declarator else {
                    if let Some(width) = &sd.node.bit_width {
                        let bit_width = Some(self.bit_width(&base, width, false)?);
                        members.push(Member {
                            bit_width,
                            ..Member::plain("", base.clone())
                        });
                    }
                    continue;
                };
                let declared = self.declarator(base.clone(), decl)?;
                if let Some(width) = &sd.node.bit_width {
                    let bit_width = Some(self.bit_width(&declared.ty, width, true)?);
                    members.push(Member {
                        bit_width,
                        ..Member::plain(declared.name.unwrap_or_default(), declared.ty)
                    });
                    continue;
                }
                let packed = has_attribute(&decl.node.extensions, "packed");
                let align = match aligned_attribute(&decl.node.extensions) {
                    Some(aligned) => Some(self.alignment(aligned)?),
                    None => None,
                };
                if self.is_incomplete(&declared.ty) && !matches!(declared.ty, Type::Array(_, None))
                {
                    return self.error(decl.span.start, "field has incomplete type");
                }
                members.push(Member {
                    align,
                    packed,
                    ..Member::plain(declared.name.unwrap_or_default(), declared.ty)
                });
            }
        }
        Ok(members)
    }

    /// The width of a bit-field of type `ty`, checked as C requires.
    /// The alignment `aligned(N)` asks for: N, a power of two; without an
    /// argument the largest alignment of the target (16 bytes for gcc on
    /// x86, both data models).
    fn alignment(&mut self, (at, argument): Aligned<'_>) -> R<u64> {
        let Some(argument) = argument else {
            return Ok(16);
        };
        let (_, value) = self.const_int(argument)?;
        match u64::try_from(value) {
            Ok(n) if n.is_power_of_two() => Ok(n),
            _ => self.error(at, "requested alignment is not a positive power of 2"),
        }
    }

    fn bit_width(&mut self, ty: &Type, width: &Node<Expression>, named: bool) -> R<u16> {
        let at = width.span.start;
        let Type::Int(it) = ty else {
            return self.error(at, "bit-field has a non-integer type");
        };
        let (_, value) = self.const_int(width)?;
        let most = if it.is_bool { 1 } else { i128::from(it.bits) };
        match u16::try_from(value) {
            Ok(0) if named => self.error(at, "named bit-field has zero width"),
            Ok(bits) if i128::from(bits) <= most => Ok(bits),
            _ if value < 0 => self.error(at, "bit-field has a negative width"),
            _ => self.error(at, "width of bit-field exceeds its type"),
        }
    }

    pub(super) fn is_incomplete(&self, ty: &Type) -> bool {
        match ty {
            Type::Void | Type::Function(_) => true,
            Type::Array(elem, n) => n.is_none() || self.is_incomplete(elem),
            Type::Struct(id) => !self
                .program
                .structs
                .get(id.0 as usize)
                .is_some_and(|s| s.complete),
            _ => false,
        }
    }

    /// An enum's type as gcc makes it: `unsigned int` when no enumerator
    /// is negative (a variable of it is never below 0), else `int`, and
    /// the 64-bit type of that sign when the values need it. A reference to
    /// a tag defined earlier has the definition's type.
    fn enum_type(&mut self, e: &Node<EnumType>) -> R<Type> {
        if let Some(id) = &e.node.identifier {
            if e.node.enumerators.is_empty() {
                return match self.lookup_tag(&id.node.name) {
                    Some(Tag::Poisoned(d)) => Err(d.clone()),
                    Some(Tag::Enum(it)) => Ok(Type::Int(*it)),
                    _ => Ok(Type::Int(IntType::INT)),
                };
            }
        }
        let mut next: i128 = 0;
        let (mut least, mut most) = (0i128, 0i128);
        for en in &e.node.enumerators {
            if let Some(value) = &en.node.expression {
                next = self.const_int(value)?.1;
            }
            least = least.min(next);
            most = most.max(next);
            self.bind(&en.node.identifier.node.name, Symbol::EnumConst(next));
            next += 1;
        }
        let it = match (least < 0, most) {
            (true, m) if least >= i128::from(i32::MIN) && m <= i128::from(i32::MAX) => IntType::INT,
            (true, _) => IntType::LONG_LONG,
            (false, m) if m <= i128::from(u32::MAX) => IntType::UINT,
            (false, _) => IntType::ULONG_LONG,
        };
        if let Some(id) = &e.node.identifier {
            self.bind_tag(&id.node.name, Tag::Enum(it));
        }
        Ok(Type::Int(it))
    }

    /// Resolves a declarator against the base type.
    pub(super) fn declarator(&mut self, base: Type, d: &Node<Declarator>) -> R<Declared> {
        let mut ty = base;
        let mut params = Vec::new();
        let mut const_pointee = Vec::new();
        let mut unprototyped = false;
        let (pointers, postfix): (Vec<_>, Vec<_>) = d
            .node
            .derived
            .iter()
            .partition(|x| matches!(x.node, DerivedDeclarator::Pointer(_)));
        let mut const_pointer = false;
        for p in &pointers {
            ty = Type::ptr(ty);
            if let DerivedDeclarator::Pointer(quals) = &p.node {
                const_pointer = quals.iter().any(|q| {
                    matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Const)
                });
            }
        }
        // Postfix declarators bind tighter: the last one is nearest the base type.
        for (i, x) in postfix.iter().enumerate().rev() {
            let outermost = i == 0;
            ty = match &x.node {
                DerivedDeclarator::Array(a) => self.array_of(ty, &a.node.size, x.span.start)?,
                DerivedDeclarator::Function(f) => {
                    let (sig, names, read_only) = self.function_params(ty, &f.node)?;
                    if outermost {
                        params = names;
                        const_pointee = read_only;
                    }
                    Type::Function(Box::new(sig))
                }
                DerivedDeclarator::KRFunction(names) => {
                    if outermost {
                        unprototyped = true;
                        // An old-style definition's identifier list: its
                        // declaration list types it (`old_style.rs`).
                        params = names
                            .iter()
                            .map(|n| {
                                (
                                    Some(n.node.name.clone()),
                                    Type::Int(IntType::INT),
                                    n.span.start,
                                )
                            })
                            .collect();
                    }
                    Type::Function(Box::new(FnSig {
                        ret: ty,
                        params: Vec::new(),
                        variadic: false,
                    }))
                }
                DerivedDeclarator::Block(_) => {
                    return self.unsupported(x.span.start, "block pointer")
                }
                DerivedDeclarator::Pointer(_) => Type::ptr(ty),
            };
        }
        match &d.node.kind.node {
            DeclaratorKind::Abstract => Ok(Declared {
                name: None,
                name_offset: d.span.start,
                ty,
                params,
                unprototyped,
                const_pointer,
                const_pointee: const_pointee.clone(),
            }),
            DeclaratorKind::Identifier(id) => Ok(Declared {
                name: Some(id.node.name.clone()),
                name_offset: id.span.start,
                ty,
                params,
                unprototyped,
                const_pointer,
                const_pointee: const_pointee.clone(),
            }),
            DeclaratorKind::Declarator(inner) => {
                // `int (f)(a)`: parentheses around the name alone (against a
                // macro `f`) leave this level's function declarator the name's.
                let bare_name = inner.node.derived.is_empty();
                let mut declared = self.declarator(ty, inner)?;
                if bare_name {
                    declared.params = params;
                    declared.unprototyped = unprototyped;
                    declared.const_pointee = const_pointee;
                } else if declared.params.is_empty()
                    && !params.is_empty()
                    && matches!(declared.ty, Type::Function(_))
                {
                    declared.params = params;
                    declared.const_pointee = const_pointee;
                }
                Ok(declared)
            }
        }
    }

    fn array_of(&mut self, elem: Type, size: &ArraySize, at: usize) -> R<Type> {
        let length = match size {
            ArraySize::Unknown => None,
            ArraySize::VariableUnknown => self.variable_length(&elem, None, at)?,
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                let saved = self.func.take();
                let value = self.const_int(e);
                self.func = saved;
                match value {
                    Ok((_, n)) if n >= 0 => Some(n as u64),
                    Ok(_) => return self.error(e.span.start, "array size is negative"),
                    Err(_) => self.variable_length(&elem, Some(e), e.span.start)?,
                }
            }
        };
        if matches!(elem, Type::Function(_)) {
            return self.error(at, "array of functions");
        }
        Ok(Type::Array(Box::new(elem), length))
    }

    /// Resolves the declarator of a parameter, whose array lengths need
    /// not be constant (the array becomes a pointer).
    pub(super) fn parameter_declarator(&mut self, base: Type, d: &Node<Declarator>) -> R<Declared> {
        let outer = std::mem::replace(
            &mut self.variable_length,
            super::vla::VariableLength::Parameter,
        );
        let declared = self.declarator(base, d);
        self.variable_length = outer;
        declared
    }

    /// The signature of a prototype, its parameter names, and the
    /// parameters whose pointee is `const` (`const T *p`, `const T p[]`:
    /// `const` among the specifiers and one pointer or array level).
    fn function_params(
        &mut self,
        ret: Type,
        f: &FunctionDeclarator,
    ) -> R<(FnSig, Params, Vec<usize>)> {
        let mut params = Vec::new();
        let mut const_pointee = Vec::new();
        self.scopes.push(Scope::default());
        let result = (|| {
            for p in &f.parameters {
                let specs = Specs::of_declaration(&p.node.specifiers, p.span.start);
                let base = self.base_type(&specs)?;
                let declared = match &p.node.declarator {
                    Some(d) => self.parameter_declarator(base, d)?,
                    None => Declared {
                        name: None,
                        name_offset: p.span.start,
                        ty: base,
                        params: vec![],
                        unprototyped: false,
                        const_pointer: false,
                        const_pointee: Vec::new(),
                    },
                };
                let levels = p
                    .node
                    .declarator
                    .as_ref()
                    .map_or(0, |d| indirections(&d.node));
                if specs.is_const && levels == 1 {
                    const_pointee.push(params.len());
                }
                let ty = self.passed_as(adjusted_parameter(declared.ty));
                params.push((declared.name, ty, declared.name_offset));
            }
            Ok(())
        })();
        self.scopes.pop();
        result?;
        // `(void)` means no parameters.
        if params.len() == 1 && params[0].1 == Type::Void && params[0].0.is_none() {
            params.clear();
            const_pointee.clear();
        }
        let sig = FnSig {
            ret,
            params: params.iter().map(|p| p.1.clone()).collect(),
            variadic: f.ellipsis == Ellipsis::Some,
        };
        Ok((sig, params, const_pointee))
    }

    /// `_Atomic(T)`: a test runs one thread, where an atomic object is
    /// read and written as a plain one. Only where it is laid out as one
    /// too: a number or pointer aligned to its size (not `long long`
    /// under ILP32, nor a struct, which atomics may align more).
    fn atomic_type(&mut self, name: &Node<TypeName>, at: usize) -> R<Type> {
        let ty = self.type_name(name)?;
        let program = &self.program;
        let plain = matches!(ty, Type::Int(_) | Type::Float(_) | Type::Pointer(_))
            && program.size_of(&ty) == program.align_of(&ty);
        match plain {
            true => Ok(ty),
            false => self.unsupported(at, "_Atomic of a type atomics may lay out differently"),
        }
    }

    pub(super) fn type_name(&mut self, tn: &Node<TypeName>) -> R<Type> {
        let specs = Specs::of_qualifiers(&tn.node.specifiers, tn.span.start);
        let base = self.base_type(&specs)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    /// Sets the typedef name of an untagged struct the first time a typedef names it.
    pub(super) fn note_typedef_name(&mut self, ty: &Type, name: &str) {
        if let Type::Struct(id) = ty {
            if let Some(def) = self.program.structs.get_mut(id.0 as usize) {
                if def.typedef_name.is_none() && def.name.starts_with("anon.") {
                    def.typedef_name = Some(name.to_string());
                }
            }
        }
    }

    /// Size of a type for `sizeof`, rejecting incomplete types.
    pub(super) fn size_of_complete(&self, ty: &Type, at: usize) -> R<u64> {
        if let Type::Void | Type::Function(_) = ty {
            return Ok(1);
        }
        if self.is_incomplete(ty) {
            return self.error(at, "sizeof applied to an incomplete type");
        }
        Ok(self.program.size_of(ty))
    }
}

/// A parameter's type as the function receives it: an array is a pointer
/// to its first element, a function a pointer to it.
impl Lowerer<'_> {
    /// A parameter of a transparent union type (glibc's `__SOCKADDR_ARG`)
    /// takes any of its members' types and is passed as the first one,
    /// as gcc passes it: a parameter of that first member's type.
    fn passed_as(&self, ty: Type) -> Type {
        match &ty {
            Type::Struct(id) if self.transparent_unions.contains(id) => self
                .program
                .structs
                .get(id.0 as usize)
                .and_then(|union| union.fields.first())
                .map_or(ty.clone(), |member| member.ty.clone()),
            _ => ty,
        }
    }
}

pub(super) fn adjusted_parameter(ty: Type) -> Type {
    match ty {
        Type::Array(elem, _) => Type::Pointer(elem),
        Type::Function(sig) => Type::ptr(Type::Function(sig)),
        other => other,
    }
}

#[derive(Default)]
struct KeywordCounts {
    char: u32,
    short: u32,
    int: u32,
    long: u32,
    float: u32,
    double: u32,
    signed: u32,
    unsigned: u32,
    /// `__int128` (spelled by [`crate::gnu`] as a marker).
    int128: u32,
}

impl KeywordCounts {
    /// The type the keywords name; `long` is the data model's.
    fn resolve(&self, model: DataModel) -> Option<Type> {
        let unsigned = self.unsigned > 0;
        if self.signed > 0 && unsigned {
            return None;
        }
        if self.float > 0 {
            return Some(Type::Float(FloatKind::F32));
        }
        if self.double > 0 {
            return Some(Type::Float(if self.long > 0 {
                FloatKind::F80
            } else {
                FloatKind::F64
            }));
        }
        let it = if self.int128 > 0 {
            IntType::new(128, !unsigned)
        } else if self.char > 0 {
            if unsigned {
                IntType::UCHAR
            } else {
                IntType::CHAR
            }
        } else if self.short > 0 {
            if unsigned {
                IntType::USHORT
            } else {
                IntType::SHORT
            }
        } else if self.long > 0 {
            match (self.long, unsigned) {
                (1, false) => model.long(),
                (1, true) => model.ulong(),
                (_, false) => IntType::LONG_LONG,
                (_, true) => IntType::ULONG_LONG,
            }
        } else if self.int > 0 || self.signed > 0 || unsigned {
            if unsigned {
                IntType::UINT
            } else {
                IntType::INT
            }
        } else {
            return None;
        };
        Some(Type::Int(it))
    }
}
